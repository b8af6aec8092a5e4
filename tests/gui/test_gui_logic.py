"""The Tk table's pure helpers, tested without a display: buttons, labels, chips, layout, animation hold-back."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from blackjack import (Action, Blackjack, CardDealt, Card, Hand, HandSettled, HoleCardRevealed, InsuranceSettled,
                       InvalidBetError, Outcome, Player, Result, Rules, RoundSettled, parse_cards, to_money)
from gui.logic import (BUTTONS, CHIP_COLORS, CHIP_VALUES, CORNER, MIN_HAND_SCALE, MIN_HAND_STEP, affordable_chips,
                       banner_lines, button_states, card_size, chip_color, dealer_slots, dimmed, hand_slots, table_card, table_chips,
                       insurance_label, insurance_limit, insurance_text, pending_from, read_bankroll, result_text,
                       seat_area, short_money, signed_money, status_text, step_stake, window_size)

VEGAS = Rules.preset("vegas")


def dealt(codes: str, rules: Rules = VEGAS, players: int = 1, bets: list[int] | None = None) -> Blackjack:
    """A table dealt from a stacked shoe (codes in deal order)."""
    game = Blackjack([f"P{i}" for i in range(players)], rules, seed=3)
    game.shoe.stack(codes.split())
    game.start_round(bets or [10] * players)
    return game


def enabled(states: dict[str, bool]) -> set[str]:
    return {name for name, on in states.items() if on}


class TestButtonStates:
    def test_every_button_has_a_state(self) -> None:
        """button_states answers for every button of the action bar."""
        assert set(button_states(None)) == {spec.name for spec in BUTTONS}

    def test_no_round_enables_only_new_round(self) -> None:
        """With no round open only New round is enabled."""
        assert enabled(button_states(None)) == {"new_round"}

    def test_betting_enables_only_deal_once_a_bet_is_in(self) -> None:
        """In the betting phase nothing is enabled until a seat has a bet; then only Deal (issue 38: no Deal
        without a bet)."""
        game = Blackjack(["Ann"], VEGAS, seed=1)
        rnd = game.new_round()
        assert enabled(button_states(rnd.view())) == set()
        rnd.place_bet(0, 10)
        assert enabled(button_states(rnd.view())) == {"deal"}

    def test_pair_against_six_enables_all_five_decisions(self) -> None:
        """8-8 against a 6 under Vegas rules may hit, stand, double, split or surrender."""
        view = dealt("8s 6d 8h Th").round.view()  # type: ignore[union-attr]
        assert enabled(button_states(view)) == {"hit", "stand", "double", "split", "surrender"}

    def test_cs111_enables_only_hit_and_stand(self) -> None:
        """The cs111 game has no doubling, splitting or surrender, so only Hit and Stand light up."""
        view = dealt("8s 6d 8h Th", Rules.preset("cs111")).round.view()  # type: ignore[union-attr]
        assert enabled(button_states(view)) == {"hit", "stand"}

    def test_insurance_offer_enables_insurance_and_decline(self) -> None:
        """An ace upcard offers insurance: the two answers are the only buttons."""
        view = dealt("Ts As 9h 7c").round.view()  # type: ignore[union-attr]
        assert enabled(button_states(view)) == {"insurance", "decline"}

    def test_settled_round_enables_only_new_round(self) -> None:
        """After a bust the round is settled and only New round is enabled."""
        game = dealt("Ts 9d 6h 8c Kd")
        game.round.apply(Action.HIT)  # type: ignore[union-attr]
        assert enabled(button_states(game.round.view())) == {"new_round"}  # type: ignore[union-attr]


class TestLabels:
    @pytest.mark.parametrize("outcome, text", [
        (Outcome(Result.WIN, Fraction(10), Fraction(10)), "WIN +10"),
        (Outcome(Result.BUST, Fraction(10), Fraction(-10)), "BUST -10"),
        (Outcome(Result.PUSH, Fraction(10), Fraction(0)), "PUSH 0"),
        (Outcome(Result.BLACKJACK, Fraction(5), Fraction(15, 2)), "BLACKJACK +7.5"),
        (Outcome(Result.SURRENDER, Fraction(10), Fraction(-5)), "SURRENDER -5"),
        (Outcome(Result.THUNDERJACK, Fraction(10), Fraction(30)), "THUNDERJACK +30"),
        (Outcome(Result.BLITZ, Fraction(10), Fraction(50)), "BLITZ +50"),
    ])
    def test_result_text(self, outcome: Outcome, text: str) -> None:
        """A settled hand's label is its result word and its signed net gain."""
        assert result_text(outcome) == text

    def test_signed_money_keeps_fractions_exact(self) -> None:
        """A loss of 7.5 credits is shown as -7.5."""
        assert signed_money(Fraction(-15, 2)) == "-7.5"

    def test_even_money_for_a_natural_against_an_ace(self) -> None:
        """A natural facing an ace is offered even money, not insurance."""
        view = dealt("As Ac Kh 7c").round.view()  # type: ignore[union-attr]
        assert insurance_label(view) == "Even money"

    def test_insurance_for_other_hands(self) -> None:
        """A plain hand facing an ace is offered insurance."""
        view = dealt("Ts As 9h 7c").round.view()  # type: ignore[union-attr]
        assert insurance_label(view) == "Insurance"

    def test_status_names_player_total_and_upcard(self) -> None:
        """The prompt names the player, the soft total and the upcard."""
        view = dealt("As 9d 6h 8c").round.view()  # type: ignore[union-attr]
        text = status_text(view)
        assert text.startswith("P0: 7 / 17 against 9♦"), text

    def test_status_counts_split_hands(self) -> None:
        """After a split the prompt says which hand is playing."""
        game = dealt("8s 6d 8h Th 3c")
        game.round.apply(Action.SPLIT)  # type: ignore[union-attr]
        assert "(hand 1 of 2)" in status_text(game.round.view())  # type: ignore[union-attr]

    def test_status_lists_choices_in_the_one_table_order(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """The prompt's choices come from ``legal_order``, the same function the hint panel uses."""
        import gui.advice
        import gui.logic
        assert gui.advice.legal_order is gui.logic.legal_order
        view = dealt("8s 6d 8h Th").round.view()  # type: ignore[union-attr]
        assert status_text(view).endswith("Hit, stand, double, split, surrender?")
        monkeypatch.setattr(gui.logic, "legal_order", lambda actions: sorted(actions, key=lambda a: a.value))
        assert status_text(view).endswith("Double, hit, split, stand, surrender?")


class TestInsuranceStake:
    def test_half_the_bet(self) -> None:
        """A bet of 10 facing an ace may insure up to 5; a bet of 5 up to 2.5, exactly."""
        assert insurance_limit(dealt("Ts As 9h 7c").round.view()) == 5  # type: ignore[union-attr]
        limit = insurance_limit(dealt("Ts As 9h 7c", bets=[5]).round.view())  # type: ignore[union-attr]
        assert limit == Fraction(5, 2) and isinstance(limit, Fraction)

    def test_bankroll_when_less(self) -> None:
        """14 credits with 10 bet leave 4: the limit is 4, not 5."""
        game = Blackjack([Player("P0", 14)], VEGAS, seed=3)
        game.shoe.stack("Ts As 9h 7c".split())
        game.start_round([10])
        assert insurance_limit(game.round.view()) == 4  # type: ignore[union-attr]

    def test_none_without_an_offer(self) -> None:
        """No round, betting, an offer-free deal, and a broke seat (only No thanks) have no limit."""
        game = Blackjack([Player("P0", 10)], VEGAS, seed=3)
        game.shoe.stack("Ts As 9h 7c".split())
        game.start_round([10])
        assert Action.INSURANCE not in game.round.view().legal_actions  # type: ignore[union-attr]
        assert insurance_limit(game.round.view()) is None  # type: ignore[union-attr]
        assert insurance_limit(None) is None
        assert insurance_limit(Blackjack(["Ann"], VEGAS, seed=1).new_round().view()) is None
        assert insurance_limit(dealt("Ts 7s 9h Tc").round.view()) is None  # type: ignore[union-attr]

    @given(st.integers(5, 200), st.integers(0, 400))
    def test_limit_is_what_the_engine_takes_by_default(self, bet: int, halves: int) -> None:
        """For any bet and bankroll the shown limit is the stake the engine takes when no amount is given."""
        game = Blackjack([Player("P0", bet + Fraction(halves, 2))], VEGAS, seed=3)
        game.shoe.stack("Ts As 9h 7c".split())
        game.start_round([bet])
        rnd = game.round
        assert rnd is not None
        limit = insurance_limit(rnd.view())
        if limit is None:
            assert Action.INSURANCE not in rnd.view().legal_actions
            return
        rnd.apply(Action.INSURANCE)
        assert rnd.view().seats[0].insurance == limit

    @pytest.mark.parametrize(("text", "most", "up", "expected"), [
        ("5", Fraction(5), False, "4"), ("2.5", Fraction(5, 2), False, "2"), ("2", Fraction(5, 2), True, "2.5"),
        ("2.5", Fraction(5, 2), True, "2.5"), ("1", Fraction(5), False, "1"), ("5/2", Fraction(5), True, "5"),
        ("0.5", Fraction(5), True, "1"), ("abc", Fraction(5, 2), False, "2.5"), ("", Fraction(4), True, "4"),
        ("99", Fraction(5), False, "5"), ("-3", Fraction(5), True, "1"), ("1/2", Fraction(1, 2), False, "0.5"), ("1e3", Fraction(5), False, "5"),
    ])
    def test_arrow_steps(self, text: str, most: Fraction, up: bool, expected: str) -> None:
        """The box's arrows step by whole credits, stay within 1 (or less) and the limit, and mend bad text."""
        assert step_stake(text, most, up) == expected

    @given(st.integers(1, 1000), st.text(max_size=6), st.booleans())
    def test_arrow_steps_stay_allowed(self, halves: int, text: str, up: bool) -> None:
        """Whatever the box holds, a step gives an exact amount the engine allows (more than 0, at most the limit)."""
        most = Fraction(halves, 2)
        value = to_money(step_stake(text, most, up))
        assert 0 < value <= most


class TestChips:
    def test_all_chips_under_a_big_bankroll(self) -> None:
        """1000 credits and no bet yet: every chip up to the 500 table maximum is playable."""
        assert affordable_chips(Fraction(1000), Fraction(0), VEGAS) == [1, 5, 25, 100, 500]

    def test_chips_limited_by_bankroll_left(self) -> None:
        """A 30-credit bankroll with 10 bet leaves room for 20 more: chips 1 and 5."""
        assert affordable_chips(Fraction(30), Fraction(10), VEGAS) == [1, 5]

    def test_chips_limited_by_table_maximum(self) -> None:
        """At 480 of a 500 maximum only chips up to 20 fit."""
        assert affordable_chips(Fraction(5000), Fraction(480), VEGAS) == [1, 5]

    def test_every_chip_has_its_own_colour(self) -> None:
        """Five values, five colours, and five different faded colours, none the same as a bright one."""
        bright = [CHIP_COLORS[v] for v in CHIP_VALUES]
        faded = [dimmed(c) for c in bright]
        assert len(set(bright)) == len(set(faded)) == 5 and not set(bright) & set(faded)

    @pytest.mark.parametrize(("amount", "chip"), [(Fraction(1, 2), 1), (1, 1), (4, 1), (5, 5), (Fraction(49, 2), 5),
                                                  (25, 25), (99, 25), (100, 100), (499, 100), (500, 500),
                                                  (10 ** 6, 500)])
    def test_a_bet_takes_the_colour_of_its_largest_chip(self, amount: Fraction | int, chip: int) -> None:
        """An amount is coloured as the largest chip it reaches: 99 is a 25 (green), 500 a 500 (purple)."""
        assert chip_color(amount) == CHIP_COLORS[chip]

    @pytest.mark.parametrize(("color", "share", "faded"), [("#000000", 0.0, "#000000"), ("#000000", 1.0, "#d0d0d0"),
                                                           ("#ffffff", 0.5, "#e8e8e8"), ("#d32f2f", 0.5, "#d28080")])
    def test_dimmed_blends_toward_light_grey(self, color: str, share: float, faded: str) -> None:
        """Fading moves each channel toward 0xd0 by the share: 0 keeps the colour, 1 is the grey."""
        assert dimmed(color, share) == faded


class TestStake:
    @pytest.mark.parametrize(("codes", "actions", "staked"), [
        ("5h 9c 6d 8s", [], 10),                                          # dealt: the bet
        ("5h 9c 6d 8s Th", [Action.DOUBLE], 20),                          # doubled
        ("8s 6d 8h Th 3c Kd", [Action.SPLIT], 20),                        # split: a bet per hand
        ("8s 6d 8h Th 3c 9c Kd", [Action.SPLIT, Action.DOUBLE], 30),      # split, first hand doubled
        ("Ts 6d 6h Th", [Action.SURRENDER], 5),                           # surrendered: the half returned
    ])
    def test_stake_is_what_the_hands_hold(self, codes: str, actions: list[Action], staked: int) -> None:
        """What stays in a seat's circle is its hands' bets: 10 dealt, 20 doubled (and won) or split, 30 split
        with one hand doubled; after a surrender, the half returned."""
        game = dealt(codes)
        for action in actions:
            game.round.apply(action)
        assert table_chips(game.round.view().seats[0])[0] == staked

    def test_before_the_deal_the_stake_is_the_bet(self) -> None:
        """While betting (no hands yet) the stake is the bet placed."""
        game = Blackjack(["P0"], VEGAS, seed=3)
        game.new_round().place_bet(0, 15)
        assert table_chips(game.round.view().seats[0]) == (15, 0)


class TestBanner:
    def test_vegas_has_no_bonus_line(self) -> None:
        """Vegas prints its 3:2 and its dealer rule, and no bonus payouts."""
        pays, bonus, dealer = banner_lines(VEGAS)
        assert (pays, bonus) == ("BLACKJACK PAYS 3 TO 2", "") and dealer.startswith("DEALER STANDS ON ALL 17s  ·  6D")

    def test_thunderjack_prints_its_bonuses(self) -> None:
        """Thunderjack's preset pays 3:1 on a Thunderjack and 5:1 on a six-card Blitz."""
        assert banner_lines(Rules.preset("thunderjack"))[1] == "THUNDERJACK PAYS 3 TO 1  ·  BLITZ (6 CARDS) PAYS 5 TO 1"

    def test_payouts_come_from_the_rules(self) -> None:
        """Other values print as given: a 2:1 Thunderjack, a five-card Blitz at 7:2, a 6:5 natural, H17."""
        rules = dataclasses.replace(Rules.preset("thunderjack"), thunderjack_pays=Fraction(2), charlie_cards=5,
                                    charlie_pays=Fraction(7, 2), blackjack_pays=Fraction(6, 5),
                                    dealer_hits_soft_17=True)
        pays, bonus, dealer = banner_lines(rules)
        assert (pays, bonus) == ("BLACKJACK PAYS 6 TO 5", "THUNDERJACK PAYS 2 TO 1  ·  BLITZ (5 CARDS) PAYS 7 TO 2")
        assert dealer.startswith("DEALER HITS SOFT 17")

    def test_no_money_and_no_naturals(self) -> None:
        """cs111 has no naturals and plays for no money, and says both."""
        assert banner_lines(Rules.preset("cs111"))[0] == "A 21 IS A 21: NO NATURALS  ·  PLAYED FOR NO MONEY"


class TestWindowSize:
    @pytest.mark.parametrize(("screen", "size"), [((1920, 1080), (1200, 700)), ((1280, 800), (1200, 700)),
                                                  ((1024, 768), (1008, 688)), ((1366, 768), (1200, 688))])
    def test_the_window_fits_the_screen(self, screen: tuple[int, int], size: tuple[int, int]) -> None:
        """1200 x 700 where it fits; on a 1024 x 768 screen 1008 x 688, leaving room for a title bar and a panel."""
        assert window_size(*screen) == size


class TestLayout:
    def test_cards_grow_with_the_window(self) -> None:
        """A window twice as big draws cards twice as tall."""
        assert card_size(1800, 1200)[1] == pytest.approx(2 * card_size(900, 600)[1])

    def test_card_has_poker_proportions(self) -> None:
        """Card width over height is 63/88 (poker size)."""
        w, h = card_size(900, 600)
        assert w / h == pytest.approx(63 / 88)

    def test_dealer_cards_are_centred(self) -> None:
        """Two dealer cards sit symmetrically about the middle of the table."""
        boxes = dealer_slots(900, 600, 2)
        assert boxes[0].x - 0 == pytest.approx(900 - (boxes[1].x + boxes[1].w))

    @given(st.integers(1, 14), st.integers(600, 1800), st.integers(450, 1200), st.floats(0.5, 0.95),
           st.floats(0, 200))
    def test_dealer_row_stays_left_of_its_limit(self, n: int, width: int, height: int, share: float,
                                                label: float) -> None:
        """However many cards, the dealer's row and the room kept for the total end at ``right`` (the
        shoe's left edge), the row starts inside the canvas, and the cards run left to right."""
        right = width * share
        boxes = dealer_slots(width, height, n, right, label)
        assert len(boxes) == n and boxes[0].x >= 0
        assert boxes[-1].x + boxes[-1].w + label <= right + 1e-6
        assert [b.x for b in boxes] == sorted(b.x for b in boxes)

    @given(st.integers(1, 3), st.lists(st.integers(1, 7), min_size=1, max_size=4),
           st.integers(600, 1800), st.integers(450, 1200))
    def test_hands_stay_inside_their_seat(self, seats: int, cards: list[int], width: int, height: int) -> None:
        """However many hands and cards, a seat's cards (at the table's one card size) stay within its share of
        the table's width."""
        card = table_card(width, height, seats, [cards] * seats)
        for seat in range(seats):
            area = seat_area(width, height, seats, seat)
            for hand in hand_slots(width, height, seats, seat, cards, card):
                for box in hand:
                    assert area.x - 0.5 <= box.x and box.x + box.w <= area.x + area.w + 0.5

    def test_split_hands_do_not_overlap(self) -> None:
        """Two split hands of three cards sit side by side without overlapping."""
        first, second = hand_slots(900, 600, 1, 0, [3, 3])
        assert first[-1].x + first[-1].w < second[0].x


class TestPending:
    def test_queued_cards_results_and_reveal_are_held_back(self) -> None:
        """Queued events hold back their cards (counted per hand), the reveal and the result label."""
        win = Outcome(Result.WIN, Fraction(10), Fraction(10))
        events = [CardDealt(0, 1, Card.parse("3c")), CardDealt(0, 1, Card.parse("4c")), CardDealt(None, 0, None, False),
                  HoleCardRevealed(Card.parse("Th")), HandSettled(0, 1, win), RoundSettled(20)]
        pending = pending_from(events)
        assert (pending.hidden(0, 1), pending.hidden(None, 0), pending.hidden(0, 0)) == (2, 1, 0)
        assert pending.hole and pending.settled == {(0, 1)} and pending.insurance == set()

    def test_queued_insurance_result_is_held_back(self) -> None:
        """A queued InsuranceSettled holds back that seat's insurance result (the stake is shown meanwhile)."""
        pending = pending_from([InsuranceSettled(1, Fraction(5, 2), Fraction(5)), HandSettled(
            1, 0, Outcome(Result.LOSE, Fraction(10), Fraction(-10)))])
        assert pending.insurance == {1} and pending.settled == {(1, 0)}


class TestInsuranceText:
    @pytest.mark.parametrize(("stake", "net", "text"), [
        (Fraction(5, 2), None, "Insurance 2.5"),
        (5, None, "Insurance 5"),
        (Fraction(5, 3), None, "Insurance 5/3"),
        (Fraction(5, 2), Fraction(5), "Insurance won +5"),
        (Fraction(5, 2), Fraction(-5, 2), "Insurance lost -2.5"),
        (4, -4, "Insurance lost -4"),
    ])
    def test_stake_then_result(self, stake: Fraction | int, net: Fraction | int | None, text: str) -> None:
        """The stake while open; once settled the engine's net with its sign (exact, never a float)."""
        assert insurance_text(stake, net) == text

    @pytest.mark.parametrize(("hole", "word"), [("Kc", "won"), ("7c", "lost")])
    def test_result_is_the_engines_event(self, hole: str, word: str) -> None:
        """The label of the engine's own InsuranceSettled for a 2.5 stake: won +5 under a natural, else lost -2.5."""
        events: list[object] = []
        game = Blackjack(["Ann"], VEGAS, seed=3, listeners=[events.append])
        game.shoe.stack(f"Ts As 9h {hole}".split())
        rnd = game.start_round([10])
        rnd.apply(Action.INSURANCE, "2.5")
        settled = [e for e in events if isinstance(e, InsuranceSettled)]
        assert len(settled) == 1 and settled[0].net == rnd.insurance_net(0)
        assert insurance_text(settled[0].stake, settled[0].net) == f"Insurance {word} {signed_money(settled[0].net)}"
        assert signed_money(settled[0].net) == ("+5" if word == "won" else "-2.5")


class TestShortMoney:
    @pytest.mark.parametrize(("amount", "text"), [
        (999, "999"), (Fraction(25, 2), "12.5"), (1000, "1k"), (1050, "1k"), (1999, "1.9k"), (20000, "20k"),
        (19999, "19k"), (123456, "123k"), (1234567, "1.2M"), (3 * 10 ** 9, "3B"), (4 * 10 ** 12, "4T"),
        (-20000, "-20k"), (Fraction(2001, 2), "1k"),
    ])
    def test_abbreviations(self, amount: Fraction | int, text: str) -> None:
        """Small amounts in full; from 1000, k/M/B/T with one decimal below 10 of the unit, cut toward zero."""
        assert short_money(amount) == text

    @given(st.integers(min_value=1000, max_value=10 ** 15))
    def test_never_overstates(self, amount: int) -> None:
        """The short text never reads as more than the amount, nor less than 90% of it (a digit's worth)."""
        text = short_money(amount)
        number, unit = Fraction(text[:-1]), {"k": 10 ** 3, "M": 10 ** 6, "B": 10 ** 9, "T": 10 ** 12}[text[-1]]
        assert Fraction(9, 10) * amount < number * unit <= amount


class TestTotals:
    """The table writes the engine's totals as they are: ``HandView.total_text`` for a hand in the
    view, ``Hand.total_text()`` for the cards shown so far while a deal is animated."""

    def test_soft_total_keeps_both_values(self) -> None:
        """Ace-six against a 9 is a soft 17, written "7 / 17"."""
        hand = dealt("As 9d 6h 8c").round.view().seats[0].hands[0]  # type: ignore[union-attr]
        assert hand.total_text == "7 / 17"

    def test_soft_21_is_plain(self) -> None:
        """A soft 21 (A-5 hits a 5) is written "21": there is nothing better to count it as."""
        game = dealt("As 9d 5h 8c 5s")
        game.round.apply(Action.HIT)  # type: ignore[union-attr]
        hand = game.round.view().seats[0].hands[0]  # type: ignore[union-attr]
        assert (hand.total, hand.soft, hand.total_text) == (21, True, "21")

    def test_natural_is_plain(self) -> None:
        """A-K is written "21", not "11 / 21"."""
        assert dealt("As 9d Kh 8c").round.view().seats[0].hands[0].total_text == "21"  # type: ignore[union-attr]

    def test_cards_shown_so_far(self) -> None:
        """While the third card is still held back, A-5 of A-5-5 is written "6 / 16"; all three, "21"."""
        cards = parse_cards("As 5h 5s")
        assert Hand(cards[:2]).total_text() == "6 / 16" and Hand(cards).total_text() == "21"


class TestReadBankroll:
    """One reading of a starting bankroll for the New game dialog and ``--bankroll``."""

    @pytest.mark.parametrize("text, amount", [("2.5", Fraction(5, 2)), (" 2.50 ", Fraction(5, 2)), ("200", 200),
                                              ("1_000", 1000), ("", 1000)])
    def test_exact_amounts_and_the_rules_default(self, text: str, amount: Fraction) -> None:
        """A typed amount (the kit's one grammar) of at least the table minimum; empty text is the rules'
        starting bankroll."""
        assert read_bankroll(text, VEGAS) == amount

    @pytest.mark.parametrize("text, message", [
        ("abc", "bankroll: an amount must be a number of credits such as 25 or 7.5, got 'abc'"),
        ("5/2", "bankroll: an amount must be a number of credits such as 25 or 7.5, got '5/2'"),
        ("1e3", "bankroll: an amount must be a number of credits such as 25 or 7.5, got '1e3'"),
        ("0.5", "the bankroll must cover the table minimum of 1, got 0.5"),
        ("-5", "the bankroll must cover the table minimum of 1, got -5"),
    ])
    def test_refusals_are_one_line(self, text: str, message: str) -> None:
        """Not an amount, or less than the minimum: an InvalidBetError whose one line says bankroll."""
        with pytest.raises(InvalidBetError) as refused:
            read_bankroll(text, VEGAS)
        assert str(refused.value) == message


class TestSplitLayout:
    @given(st.integers(1, 3), st.lists(st.integers(1, 7), min_size=1, max_size=4),
           st.integers(600, 1800), st.integers(450, 1200))
    def test_split_cards_keep_most_of_their_size(self, seats: int, cards: list[int], width: int, height: int) -> None:
        """However many hands and cards a seat holds, its cards are at least MIN_HAND_SCALE (70%) of a normal
        card, in order left to right within each hand and from hand to hand."""
        w, h = card_size(width, height)
        card = table_card(width, height, seats, [cards] * seats)
        for seat in range(seats):
            hands = hand_slots(width, height, seats, seat, cards, card)
            for hand in hands:
                assert all(box.w >= MIN_HAND_SCALE * w - 1e-9 and box.h >= MIN_HAND_SCALE * h - 1e-9 for box in hand)
                assert [b.x for b in hand] == sorted(b.x for b in hand)
            assert [hand[0].x for hand in hands] == sorted(hand[0].x for hand in hands)

    def test_three_seats_resplit_to_four_hands_show_every_corner(self) -> None:
        """Three seats on a 700 x 520 table, one split into four two-card hands: the cards are 70% of normal,
        each card shows half its width beside the next card of its hand, and at least its corner (CORNER of its
        width) beside the next hand."""
        w = card_size(700, 520)[0]
        hands = hand_slots(700, 520, 3, 0, [2, 2, 2, 2], table_card(700, 520, 3, [[2, 2, 2, 2], [2], [2]]))
        boxes = [box for hand in hands for box in hand]
        assert boxes[0].w == pytest.approx(MIN_HAND_SCALE * w)
        assert all(hand[1].x - hand[0].x >= MIN_HAND_STEP * boxes[0].w - 1e-9 for hand in hands)
        assert min(b.x - a.x for a, b in zip(boxes, boxes[1:])) >= CORNER * boxes[0].w - 1e-9


class TestEvenMoneyWords:
    def test_the_prompt_words_even_money(self) -> None:
        """A natural against an ace is prompted as even money, naming the buttons and keys that answer it."""
        view = dealt("As Ac Kh 7c").round.view()  # type: ignore[union-attr]
        assert status_text(view) == ("P0: a natural against A♣. Take even money (Even money, I) "
                                     "or no even money (No thanks, N)?")

    @pytest.mark.parametrize(("net", "text"), [(None, "Even money 5"), (10, "Even money won +10"),
                                               (-5, "Even money lost -5")])
    def test_the_stake_label_words_even_money(self, net: int | None, text: str) -> None:
        """Even money's stake on the felt is labelled as even money, with the engine's net once settled."""
        assert insurance_text(5, net, even_money=True) == text


class TestReadability:
    """The WCAG contrast formula, the presets' human names, menu letters, Enter's prompt in the amount boxes."""

    def test_contrast_ratio_matches_wcag(self) -> None:
        """Black on white is 21:1, a colour on itself 1:1, #777777 on white about 4.48 (just short of AA)."""
        from gui.logic import contrast_ratio
        assert round(contrast_ratio("#000000", "#ffffff"), 2) == 21.0
        assert contrast_ratio("#0f6b35", "#0f6b35") == 1.0
        assert round(contrast_ratio("#777777", "#ffffff"), 2) == 4.48
        assert contrast_ratio("#ffffff", "#777777") == contrast_ratio("#777777", "#ffffff")

    def test_preset_titles_are_human(self) -> None:
        """Each preset's menu name comes from its description: no ids, no underscores."""
        from gui.logic import preset_title
        titles = {name: preset_title(Rules.preset(name)) for name in Rules.preset_names()}
        assert titles["atlantic_city"] == "Atlantic City" and titles["single_deck"] == "Single deck"
        assert titles["justblackjack"] == "justBlackjack trainer"
        assert all("_" not in title for title in titles.values())

    def test_mnemonics_never_repeat_a_letter(self) -> None:
        """The second label starting with S gets its next free letter."""
        from gui.logic import mnemonics
        assert mnemonics(["Stand", "Split", "Surrender", "!"]) == [0, 1, 1, -1]

    def test_status_says_what_enter_does_in_the_bet_box(self) -> None:
        """In the bet box Enter places the bet, then deals; elsewhere Enter deals."""
        from gui.logic import status_text
        game = Blackjack(["Ann"], Rules.preset("vegas"), rng=random.Random(1))
        game.new_round()
        view = game.round.view()  # type: ignore[union-attr]
        assert "Enter again deals" in status_text(view, "bet")
        assert status_text(view).endswith("then Deal (Enter).")
