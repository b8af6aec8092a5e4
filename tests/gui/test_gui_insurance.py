"""The insurance stake in the real window: the amount box next to the Insurance button, the label on the table.

Every round is dealt from a stacked shoe (deal order: one card to each seat, the
dealer's upcard, the second cards, the hole card, then hits in turn); Vegas rules
(the dealer peeks, so insurance is settled as soon as every seat has answered),
1000 credits unless said. The money is checked in the engine's view and on the table,
where the stake and then its result are drawn beside the seat's bet (``TestOnTheTable``).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from blackjack import InsuranceSettled, Phase

pytestmark = pytest.mark.gui

MakeApp = Callable[..., Any]

NO_NATURAL = "Ts As 9h 7c"  # T-9 (19) against A-7 (18)
DEALER_NATURAL = "Ts As 9h Kc"  # T-9 against A-K: the dealer has blackjack


def bet_and_deal(app: Any, amount: int, seat: int = 0) -> None:
    """Bet ``amount`` for one seat through the bet box, then press Deal."""
    app.choose_seat(seat)
    app.bet_entry.set(str(amount))
    app.bet_button.invoke()
    app.buttons["deal"].invoke()
    app.settle()


def enabled(app: Any) -> set[str]:
    """The names of the enabled action-bar buttons."""
    return {name for name, button in app.buttons.items() if button.instate(["!disabled"])}


def box_shown(app: Any) -> bool:
    """The insurance amount box is on screen."""
    app.root.update()
    return bool(app.insurance_box.winfo_ismapped())


def typing_in_the_box(make_app: MakeApp, text: str) -> Any:
    """A window with T-9 v A, bet 10, at the insurance offer, the focus in the amount box holding ``text``."""
    app = make_app(stack=NO_NATURAL)
    bet_and_deal(app, 10)
    app.insurance_box.focus_force()
    app.root.update()
    app.insurance_amount.set(text)
    return app


def insure(app: Any, text: str) -> None:
    """Type ``text`` in the amount box and press the Insurance button."""
    app.insurance_amount.set(text)
    app.buttons["insurance"].invoke()
    app.settle()


class TestTheBox:
    def test_shown_only_while_insurance_is_offered(self, make_app: MakeApp) -> None:
        """No box while betting; beside the Insurance button during the offer, in a slot of its own that is
        there all the time (so no button moves); gone once declined."""
        app = make_app(stack=NO_NATURAL)
        assert not box_shown(app)
        slaves = app.buttons["insurance"].master.pack_slaves()
        assert slaves.index(app.insurance_slot) == slaves.index(app.buttons["insurance"]) + 1
        bet_and_deal(app, 10)
        assert box_shown(app) and app.insurance_box.master is app.insurance_slot
        app.buttons["decline"].invoke()
        app.settle()
        assert not box_shown(app) and app.round_view.phase is Phase.PLAYER_TURN

    def test_not_shown_without_an_ace_up(self, make_app: MakeApp) -> None:
        """T-9 against a 7: no offer, no box."""
        app = make_app(stack="Ts 7s 9h Tc")
        bet_and_deal(app, 10)
        assert not box_shown(app) and app.round_view.phase is Phase.PLAYER_TURN

    @pytest.mark.parametrize(("bet", "shown"), [(10, "5"), (5, "2.5"), (25, "12.5")])
    def test_starts_at_half_the_bet(self, make_app: MakeApp, bet: int, shown: str) -> None:
        """The box starts at the largest stake: half the bet, written exactly."""
        app = make_app(stack=NO_NATURAL)
        bet_and_deal(app, bet)
        assert app.insurance_amount.get() == shown

    def test_starts_at_the_bankroll_when_that_is_less(self, make_app: MakeApp) -> None:
        """14 credits, a bet of 10: 4 are left, so the box starts at 4, not 5."""
        app = make_app(stack=NO_NATURAL, bankroll=14)
        bet_and_deal(app, 10)
        assert app.insurance_amount.get() == "4"

    def test_arrow_keys_step_by_whole_credits_within_the_limit(self, make_app: MakeApp) -> None:
        """Bet 5 (most 2.5): Down gives 2, 1, then stays at 1; Up gives 2, 2.5, then stays at 2.5."""
        app = make_app(stack=NO_NATURAL)
        bet_and_deal(app, 5)
        app.insurance_box.focus_force()
        app.root.update()
        seen = []
        for key in ("Down", "Down", "Down", "Up", "Up", "Up"):
            app.insurance_box.event_generate(f"<KeyPress-{key}>")
            app.root.update()
            seen.append(app.insurance_amount.get())
        assert seen == ["2", "1", "1", "2", "2.5", "2.5"]
        assert app.round_view.seats[0].insurance is None

    def test_next_seat_gets_its_own_largest_stake(self, make_app: MakeApp) -> None:
        """Ann (bet 10) insures 2; the box then offers Bob (bet 20) 10, and his default takes 10."""
        app = make_app(["Ann", "Bob"], stack="Ts 9s As 9h Ts 7c")
        for seat, amount in ((0, 10), (1, 20)):
            app.choose_seat(seat)
            app.bet_entry.set(str(amount))
            app.bet_button.invoke()
        app.buttons["deal"].invoke()
        app.settle()
        assert app.insurance_amount.get() == "5"
        insure(app, "2")
        assert app.round_view.turn == (1, 0) and app.insurance_amount.get() == "10"
        app.buttons["insurance"].invoke()
        app.settle()
        seats = app.round_view.seats
        assert [s.insurance for s in seats] == [2, 10]
        assert [s.bankroll for s in seats] == [1000 - 10 - 2, 1000 - 20 - 10]


class TestPartialStake:
    @pytest.mark.parametrize(("text", "stake"), [("2", Fraction(2)), ("2.5", Fraction(5, 2)),
                                                 ("2.50", Fraction(5, 2)), (" 1 ", Fraction(1))])
    def test_no_natural_loses_only_the_stake(self, make_app: MakeApp, text: str, stake: Fraction) -> None:
        """T-9 v A-7, bet 10: insure ``text``; the stake is lost at the peek, then 19 beats 18."""
        app = make_app(stack=NO_NATURAL)
        bet_and_deal(app, 10)
        insure(app, text)
        view = app.round_view
        assert view.phase is Phase.PLAYER_TURN
        assert view.seats[0].insurance == stake and isinstance(view.seats[0].insurance, Fraction)
        assert view.seats[0].bankroll == 1000 - 10 - stake
        assert app.game.round.insurance_net(0) == -stake
        app.buttons["stand"].invoke()
        app.settle()
        assert app.round_view.seats[0].bankroll == 1000 + 10 - stake
        assert app.table.texts("result_0_0") == ["WIN +10"]

    @pytest.mark.parametrize(("text", "stake"), [("2", Fraction(2)), ("2.5", Fraction(5, 2)),
                                                 ("2.50", Fraction(5, 2))])
    def test_dealer_natural_pays_two_to_one_on_the_stake(self, make_app: MakeApp, text: str,
                                                          stake: Fraction) -> None:
        """T-9 v A-K, bet 10: the hand loses 10, the stake of ``text`` wins twice itself."""
        app = make_app(stack=DEALER_NATURAL)
        bet_and_deal(app, 10)
        insure(app, text)
        view = app.round_view
        assert view.phase is Phase.SETTLED
        assert view.seats[0].insurance == stake
        assert app.game.round.insurance_net(0) == 2 * stake
        assert view.seats[0].bankroll == 1000 - 10 + 2 * stake
        assert app.table.texts("result_0_0") == ["LOSE -10"]
        assert app.table.texts("bankroll0") == [f"bankroll {1000 - 10 + 2 * stake}"]

    def test_partial_even_money(self, make_app: MakeApp) -> None:
        """A-K v A-K, bet 10, even money for 2.5: the natural pushes, the 2.5 wins 5: 1005."""
        app = make_app(stack="As Ac Kh Kd")
        bet_and_deal(app, 10)
        assert app.buttons["insurance"].cget("text") == "Even money" and app.insurance_amount.get() == "5"
        insure(app, "2.5")
        view = app.round_view
        assert view.phase is Phase.SETTLED and view.seats[0].insurance == Fraction(5, 2)
        assert view.seats[0].bankroll == 1005
        assert app.table.texts("result_0_0") == ["PUSH 0"]

    def test_enter_in_the_box_takes_the_typed_stake_and_keys_work_after(self, make_app: MakeApp) -> None:
        """Typing in the box, a letter that is no shortcut is typed; Enter insures 1; then the S key stands
        (focus left the box)."""
        app = typing_in_the_box(make_app, "1")
        app.insurance_box.icursor("end")
        app.insurance_box.event_generate("<KeyPress-x>")
        app.root.update()
        assert app.round_view.phase is Phase.INSURANCE and app.insurance_amount.get() == "1x"
        app.insurance_amount.set("1")
        app.insurance_box.event_generate("<KeyPress-Return>")
        app.settle()
        assert app.round_view.seats[0].insurance == 1 and app.round_view.phase is Phase.PLAYER_TURN
        assert not box_shown(app)
        app.root.event_generate("<KeyPress-s>")
        app.settle()
        assert app.round_view.phase is Phase.SETTLED
        assert app.round_view.seats[0].bankroll == 1000 + 10 - 1

    def test_the_i_key_in_the_box_takes_the_typed_stake(self, make_app: MakeApp) -> None:
        """The letter shortcuts work wherever the focus is: I typed in the box insures the typed 2, not types an i."""
        app = typing_in_the_box(make_app, "2")
        app.insurance_box.event_generate("<KeyPress-i>")
        app.settle()
        assert app.round_view.seats[0].insurance == 2 and app.round_view.phase is Phase.PLAYER_TURN


class TestRefused:
    @pytest.mark.parametrize(("text", "message"), [
        ("abc", "an insurance stake must be a number of credits such as 25 or 7.5, got 'abc'"),
        ("", "an insurance stake must be a number of credits such as 25 or 7.5, got ''"),
        ("2.5.1", "an insurance stake must be a number of credits such as 25 or 7.5, got '2.5.1'"),
        ("1/0", "an insurance stake must be a number of credits such as 25 or 7.5, got '1/0'"),
        ("0", "insurance must be more than 0 and at most 5 (half the bet, within the bankroll), got 0"),
        ("-2", "insurance must be more than 0 and at most 5 (half the bet, within the bankroll), got -2"),
        ("6", "insurance must be more than 0 and at most 5 (half the bet, within the bankroll), got 6"),
        ("5.5", "insurance must be more than 0 and at most 5 (half the bet, within the bankroll), got 5.5"),
    ])
    def test_bad_amount_shows_the_message_and_changes_nothing(self, make_app: MakeApp, text: str,
                                                              message: str) -> None:
        """A malformed or too large stake: the engine's one-line message, the offer still open, no money moved."""
        app = make_app(stack=NO_NATURAL)
        bet_and_deal(app, 10)
        before = app.round_view
        insure(app, text)
        after = app.round_view
        assert app.status.cget("text") == message
        assert after.phase is Phase.INSURANCE and after.turn == (0, 0)
        assert after.seats == before.seats and after.seats[0].insurance is None
        assert after.seats[0].bankroll == 990
        assert enabled(app) == {"insurance", "decline"} and box_shown(app)
        assert app.insurance_amount.get() == text  # left to correct
        insure(app, "3")
        assert app.round_view.seats[0].insurance == 3 and app.round_view.seats[0].bankroll == 987

    def test_more_than_the_bankroll_is_refused(self, make_app: MakeApp) -> None:
        """14 credits, bet 10: 5 (half the bet) is more than the 4 left: refused, by I too; 4 is taken."""
        app = make_app(stack=NO_NATURAL, bankroll=14)
        bet_and_deal(app, 10)
        message = "insurance must be more than 0 and at most 4 (half the bet, within the bankroll), got 5"
        insure(app, "5")
        assert app.status.cget("text") == message
        assert app.round_view.phase is Phase.INSURANCE and app.round_view.seats[0].bankroll == 4
        app.say("")
        app.root.event_generate("<KeyPress-i>")
        app.settle()
        assert app.status.cget("text") == message and app.round_view.seats[0].insurance is None
        app.insurance_amount.set("4")
        app.root.event_generate("<KeyPress-i>")
        app.settle()
        assert app.round_view.seats[0].insurance == 4 and app.round_view.seats[0].bankroll == 0


class TestDefault:
    @pytest.mark.parametrize("bet", [10, 5])
    def test_i_key_takes_half_the_bet(self, make_app: MakeApp, bet: int) -> None:
        """Pressing I without touching the box insures half the bet (2.5 of a 5 bet, exactly)."""
        app = make_app(stack=NO_NATURAL)
        bet_and_deal(app, bet)
        app.root.event_generate("<KeyPress-i>")
        app.settle()
        seat = app.round_view.seats[0]
        assert seat.insurance == Fraction(bet, 2) and seat.bankroll == 1000 - bet - Fraction(bet, 2)

    def test_button_takes_half_the_bet_against_a_natural(self, make_app: MakeApp) -> None:
        """Clicking Insurance untouched against A-K insures 5 of a 10 bet: the 10 lost is won back (1000)."""
        app = make_app(stack=DEALER_NATURAL)
        bet_and_deal(app, 10)
        app.buttons["insurance"].invoke()
        app.settle()
        seat = app.round_view.seats[0]
        assert seat.insurance == 5 and seat.bankroll == 1000


def insurance_texts(app: Any) -> list[list[str]]:
    """Each seat's insurance label on the table canvas ([] for a seat without one)."""
    return [app.table.texts(f"insurance_text{seat}") for seat in range(len(app.game.players))]


class TestOnTheTable:
    """The insurance stake is drawn beside the seat's bet, then how it went, until the next round."""

    def test_partial_stake_beside_the_bet_then_lost_at_the_peek(self, make_app: MakeApp) -> None:
        """Ann (bet 10) insures 2.5 and Bob declines: only Ann's chip and label; lost at the peek, gone next round."""
        app = make_app(["Ann", "Bob"], stack="Ts 9s As 9h Ts 7c")
        for seat in (0, 1):
            app.choose_seat(seat)
            app.bet_entry.set("10")
            app.bet_button.invoke()
        app.buttons["deal"].invoke()
        app.settle()
        assert insurance_texts(app) == [[], []] and not app.table.find_withtag("insurance")
        insure(app, "2.5")
        assert app.round_view.turn == (1, 0) and app.round_view.seats[0].insurance == Fraction(5, 2)
        assert insurance_texts(app) == [["Insurance 2.5"], []]
        kinds = {app.table.type(item) for item in app.table.find_withtag("insurance0")}
        assert kinds == {"oval", "text"}  # the chip and its label
        app.buttons["decline"].invoke()
        app.settle()
        view = app.round_view
        assert view.phase is Phase.PLAYER_TURN and view.seats[1].insurance == 0
        assert app.game.round.insurance_net(0) == Fraction(-5, 2)
        assert insurance_texts(app) == [["Insurance lost -2.5"], []]
        assert not app.table.find_withtag("insurance1")
        for _ in (0, 1):
            app.buttons["stand"].invoke()
            app.settle()
        assert app.round_view.phase is Phase.SETTLED
        assert insurance_texts(app) == [["Insurance lost -2.5"], []]
        app.buttons["new_round"].invoke()
        app.settle()
        assert app.round_view.phase is Phase.BETTING and app.round_view.seats[0].insurance is None
        assert insurance_texts(app) == [[], []] and not app.table.find_withtag("insurance")

    def test_no_offer_no_label(self, make_app: MakeApp) -> None:
        """T-9 against a 7: no insurance items on the table, during play or after."""
        app = make_app(stack="Ts 7s 9h Tc")
        bet_and_deal(app, 10)
        assert not app.table.find_withtag("insurance")
        app.buttons["stand"].invoke()
        app.settle()
        assert app.round_view.phase is Phase.SETTLED and not app.table.find_withtag("insurance")

    def test_declined_alone_no_label(self, make_app: MakeApp) -> None:
        """A single seat declines: its insurance is 0 in the view and nothing is drawn for it."""
        app = make_app(stack=NO_NATURAL)
        bet_and_deal(app, 10)
        app.buttons["decline"].invoke()
        app.settle()
        assert app.round_view.seats[0].insurance == 0 and not app.table.find_withtag("insurance")

    def test_dealer_natural_shows_the_win_and_survives_a_resize(self, make_app: MakeApp) -> None:
        """T-9 v A-K, bet 10, insure 2.5: the label reads the engine's +5, also after the window is resized."""
        app = make_app(stack=DEALER_NATURAL)
        bet_and_deal(app, 10)
        insure(app, "2.5")
        assert app.round_view.phase is Phase.SETTLED and app.game.round.insurance_net(0) == 5
        assert insurance_texts(app) == [["Insurance won +5"]]
        app.root.geometry("1100x680")
        app.root.update()
        assert insurance_texts(app) == [["Insurance won +5"]]

    def test_stake_stays_through_the_players_turn_and_a_new_round_starts_clean(self, make_app: MakeApp) -> None:
        """European rules settle insurance when the dealer draws: the stake shows while Ann plays.

        Round 1: T-9 v A, insure 2.5, stand; the dealer draws K (a natural): won +5.
        Round 2: T-8 v A, insure 1: the label reads the new stake, not round 1's result;
        the dealer draws 7: lost -1.
        """
        app = make_app(rules="european", stack="Ts As 9h")
        bet_and_deal(app, 10)
        insure(app, "2.5")
        assert app.round_view.phase is Phase.PLAYER_TURN
        assert insurance_texts(app) == [["Insurance 2.5"]]
        app.game.shoe.stack(["Kc"])
        app.buttons["stand"].invoke()
        app.settle()
        assert app.round_view.phase is Phase.SETTLED and app.game.round.insurance_net(0) == 5
        assert insurance_texts(app) == [["Insurance won +5"]]
        app.buttons["new_round"].invoke()
        app.settle()
        assert insurance_texts(app) == [[]]
        app.game.shoe.stack("Ts As 8h".split())
        bet_and_deal(app, 10)
        insure(app, "1")
        assert app.round_view.phase is Phase.PLAYER_TURN
        assert insurance_texts(app) == [["Insurance 1"]]
        app.game.shoe.stack(["7c"])
        app.buttons["stand"].invoke()
        app.settle()
        assert app.game.round.insurance_net(0) == -1 and insurance_texts(app) == [["Insurance lost -1"]]

    def test_result_waits_for_its_turn_in_the_animation(self, make_app: MakeApp) -> None:
        """Animated: the hole card turns over first, with the stake still shown; then the win, then the hand."""
        app = make_app(stack=DEALER_NATURAL, animations=True)
        bet_and_deal(app, 10)
        app.insurance_amount.set("2.5")
        app.buttons["insurance"].invoke()
        assert app.round_view.phase is Phase.SETTLED  # the engine is done; the window is still animating
        assert any(isinstance(event, InsuranceSettled) for event in app.events)
        assert app.table.card_codes("dealer") == ["As", "Kc"] and app.table.texts("result_0_0") == []
        assert insurance_texts(app) == [["Insurance 2.5"]]
        app.settle()
        assert insurance_texts(app) == [["Insurance won +5"]] and app.table.texts("result_0_0") == ["LOSE -10"]
