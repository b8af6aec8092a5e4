"""The casino Shoe (cut card, discards, counts, stacking) and exact money helpers (not graded)."""

from __future__ import annotations

import random
from collections import Counter
from decimal import Decimal
from fractions import Fraction

import pytest

from blackjack import (Card, EmptyShoeError, InvalidBetError, InvalidCardError, Shoe, create_card_array,
                       format_money, parse_bet, parse_cards, to_money)
from blackjack.money import match_stake


def test_new_shoe_holds_its_decks_shuffled() -> None:
    """A 2-deck shoe holds two of every card, shuffled once, with nothing discarded."""
    shoe = Shoe(2, seed=1)
    assert Counter(shoe.cards) == Counter(create_card_array() * 2)
    assert shoe.cards[:52] != tuple(create_card_array())
    assert shoe.shuffle_count == 1 and shoe.discards == ()


@pytest.mark.parametrize("kwargs", [{"decks": 0}, {"decks": 9}, {"penetration": Fraction(0)},
                                    {"penetration": Fraction(1)}, {"cut_card_from_back": (0, 10)},
                                    {"seed": 1, "rng": random.Random(1)}])
def test_bad_shoe_arguments(kwargs: dict[str, object]) -> None:
    """Decks outside 1..8, a penetration outside (0, 1), a bad cut card range, or both rng and seed: ValueError."""
    with pytest.raises(ValueError):
        Shoe(**kwargs)  # type: ignore[arg-type]


def test_counts_track_what_is_dealt() -> None:
    """counts() gives undealt cards by point value and goes down as cards are dealt."""
    shoe = Shoe(1, seed=2)
    assert shoe.counts() == {**{v: 4 for v in range(1, 10)}, 10: 16}
    dealt = [shoe.deal() for _ in range(10)]
    left = shoe.counts()
    for value in range(1, 11):
        assert left[value] == (16 if value == 10 else 4) - sum(c.get_value() == value for c in dealt)


def test_cut_card_by_penetration() -> None:
    """At penetration 3/4 of one deck the cut card sits 13 cards from the back and is reached after 39 deals."""
    shoe = Shoe(1, seed=3, penetration=Fraction(3, 4))
    assert shoe.cut_card_position == 13
    for _ in range(38):
        shoe.deal()
    assert not shoe.cut_card_reached
    shoe.deal()
    assert shoe.cut_card_reached


def test_shuffle_gathers_the_discards() -> None:
    """shuffle() brings the discard pile back, leaves no discards, and counts the shuffle."""
    shoe = Shoe(1, seed=4)
    shoe.discard([shoe.deal() for _ in range(20)])
    shoe.shuffle()
    assert len(shoe) == 52 and shoe.discards == () and shoe.shuffle_count == 2
    assert not shoe.cut_card_reached


def test_dry_shoe_reshuffles_discards_then_raises_when_nothing_is_left() -> None:
    """An empty shoe deals from its reshuffled discards; with no discards either it raises EmptyShoeError."""
    shoe = Shoe(1, seed=5)
    held = [shoe.deal() for _ in range(52)]
    with pytest.raises(EmptyShoeError) as info:
        shoe.deal()
    assert isinstance(info.value, LookupError)
    shoe.discard(held[:3])
    assert shoe.deal() in held[:3] and shoe.shuffle_count == 2


def test_dealing_deals_the_same_cards_and_still_refills_a_dry_shoe() -> None:
    """Shoe.dealing(most) deals what deal() would; with fewer than ``most`` cards left it is deal() itself."""
    shoe, twin = Shoe(1, seed=8), Shoe(1, seed=8)
    take = shoe.dealing(10)
    assert take.__self__ is shoe._cards, "52 cards left: the list's own pop"  # type: ignore[attr-defined]
    assert [take() for _ in range(10)] == [twin.deal() for _ in range(10)]
    shoe.discard([shoe.deal() for _ in range(41)])
    take = shoe.dealing(10)
    assert take == shoe.deal, "1 card left: deal(), which shuffles the discards back in when the shoe runs dry"
    take()
    take()
    assert shoe.shuffle_count == 2 and len(shoe) == 40


def test_stack_puts_cards_on_top_in_order() -> None:
    """stack(codes) makes those cards the next ones dealt, in order, taken from inside the shoe."""
    shoe = Shoe(1, seed=6)
    shoe.stack(["Ah", "10h", "a_s_2", Card.parse("Kd")])
    assert [str(shoe.deal()) for _ in range(4)] == ["Ah", "Th", "As", "Kd"]
    assert len(shoe) == 48 and Counter(shoe.cards) == Counter(create_card_array()) - Counter(parse_cards("Ah Th As Kd"))


def test_stack_takes_from_discards_when_needed() -> None:
    """A card already dealt and discarded can still be stacked: it comes back from the discard pile."""
    shoe = Shoe(1, seed=7)
    first = shoe.deal()
    shoe.discard([first])
    shoe.stack([first])
    assert shoe.discards == () and shoe.deal() == first and len(shoe) == 51


@pytest.mark.parametrize("seed", range(6))
def test_counts_and_stacked_cards_agree_with_the_cards_through_any_mix_of_moves(seed: int) -> None:
    """The shoe keeps counts() and the stacked cards lazily; any mix of deals, discards, stacks,
    shuffles and mid-round reshuffles leaves counts() equal to a count of shoe.cards."""
    rng = random.Random(seed)
    shoe = Shoe(1, seed=seed, penetration=Fraction(1, 2))
    table: list[Card] = []  # cards dealt and not yet discarded
    for _ in range(400):
        move = rng.random()
        if move < 0.6:
            if shoe.is_empty() and not shoe.discards:
                continue
            table.append(shoe.deal())
        elif move < 0.75:
            shoe.discard(table)
            table = []
        elif move < 0.85:
            free = [c for c in shoe.cards[shoe._stacked:]] + list(shoe.discards)
            if free:
                picked = rng.sample(free, min(len(free), rng.randint(1, 3)))
                shoe.stack(picked)
                assert shoe.cards[:len(picked)] == tuple(picked)
        elif move < 0.92:
            stacked = shoe.cards[:shoe._stacked]
            shoe.discard(table)
            table = []
            shoe.shuffle()
            assert shoe.cards[:len(stacked)] == stacked
        if rng.random() < 0.3 or move >= 0.92:
            expected = Counter(min(c.get_value(), 10) for c in shoe.cards)
            assert shoe.counts() == {v: expected.get(v, 0) for v in range(1, 11)}
        assert len(shoe) + len(shoe.discards) + len(table) == 52


def test_stack_refuses_missing_copies_and_changes_nothing() -> None:
    """Stacking two aces of spades from one deck raises InvalidCardError and leaves the shoe as it was."""
    shoe = Shoe(1, seed=8)
    before = (shoe.cards, shoe.discards, shoe.counts())
    with pytest.raises(InvalidCardError, match="As"):
        shoe.stack(["Kd", "As", "As"])
    assert (shoe.cards, shoe.discards, shoe.counts()) == before
    with pytest.raises(InvalidCardError):
        shoe.stack(["Zz"])
    assert (shoe.cards, shoe.discards, shoe.counts()) == before


def test_shuffle_keeps_stacked_cards_on_top() -> None:
    """A shuffle between rounds keeps stacked cards on top, so a demo shoe survives the reshuffle."""
    shoe = Shoe(1, seed=9)
    shoe.stack(parse_cards("7c 7d"))
    shoe.shuffle()
    assert [str(shoe.deal()), str(shoe.deal())] == ["7c", "7d"]
    assert len(shoe) + 2 == 52


def test_same_seed_same_shoe() -> None:
    """Two shoes with the same seed deal the same cards, through reshuffles too."""
    a, b = Shoe(2, seed=10), Shoe(2, seed=10)
    for shoe in (a, b):
        shoe.discard([shoe.deal() for _ in range(80)])
        shoe.shuffle()
    assert a.cards == b.cards


def test_the_kth_shuffle_of_a_seed_is_the_same_shoe_whatever_was_played() -> None:
    """Two shoes with one seed, dealt different numbers of cards and discarded in different orders, deal the
    same shoe after their next whole shuffle (the shuffle starts from the shoe's fixed order), so strategies
    compared on one seed meet the same shoes. It used to permute the order play left behind."""
    a, b = Shoe(2, seed=9), Shoe(2, seed=9)
    assert a.cards == b.cards
    for dealt_a, dealt_b in ((10, 37), (60, 3)):
        a.discard([a.deal() for _ in range(dealt_a)])
        b.discard(reversed([b.deal() for _ in range(dealt_b)]))
        a.shuffle()
        b.shuffle()
        assert a.cards == b.cards and a.cut_card_position == b.cut_card_position


# ------------------------------------------------------------------------------------- money

@pytest.mark.parametrize("text, value", [("25", 25), (" 25 ", 25), ("1_000", 1000), ("+5", 5)])
def test_parse_bet_reads_whole_credits(text: str, value: int) -> None:
    """parse_bet reads a typed whole number of credits."""
    assert parse_bet(text) == value and isinstance(parse_bet(text), Fraction)


@pytest.mark.parametrize("text", ["0", "-5", "1e9", "ten", "", "2.5", "5 credits"])
def test_parse_bet_refuses_non_bets(text: str) -> None:
    """parse_bet refuses 0, negatives, 1e9, words, blanks and fractions with InvalidBetError quoting the text."""
    with pytest.raises(InvalidBetError) as info:
        parse_bet(text)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("amount, value", [(5, Fraction(5)), ("7.5", Fraction(15, 2)), ("15/2", Fraction(15, 2)),
                                           (Decimal("0.1"), Fraction(1, 10)), (Fraction(3, 2), Fraction(3, 2))])
def test_to_money_is_exact(amount: object, value: Fraction) -> None:
    """to_money turns ints, decimal strings, fraction strings and Decimals into exact Fractions."""
    assert to_money(amount) == value  # type: ignore[arg-type]


@pytest.mark.parametrize("amount, error", [(0.1, TypeError), (True, TypeError), ("nan", InvalidBetError),
                                           ("inf", InvalidBetError), ("1/0", InvalidBetError), ([1], TypeError)])
def test_to_money_refuses_floats_and_non_numbers(amount: object, error: type[Exception]) -> None:
    """Floats and bools are TypeErrors (money is never a float); NaN, infinity and 1/0 are InvalidBetError."""
    with pytest.raises(error):
        to_money(amount)  # type: ignore[arg-type]


@pytest.mark.parametrize("amount, text", [(Fraction(15, 2), "7.5"), (12, "12"), (-3, "-3"),
                                          (Fraction(-18, 5), "-3.6"), (Fraction(10, 3), "10/3"),
                                          (Fraction(1, 8), "0.125")])
def test_format_money(amount: Fraction, text: str) -> None:
    """format_money shows decimals when exact ("7.5") and a fraction otherwise ("10/3")."""
    assert format_money(amount) == text


@pytest.mark.parametrize(("amount", "stake", "expected", "kind"), [
    (Fraction(3), 2, 3, int),                           # a 3:2 natural on 2 int chips
    (Fraction(3), Fraction(2), Fraction(3), Fraction),  # a Fraction stake keeps Fraction money
    (Fraction(5, 2), 5, Fraction(5, 2), Fraction),      # never rounded
    (Fraction(0), 10, 0, int),
    (7, 10, 7, int),
])
def test_match_stake_keeps_the_stakes_type(amount: Fraction | int, stake: Fraction | int,
                                           expected: Fraction | int, kind: type) -> None:
    """match_stake gives an int only for a whole amount on an int stake; the value never changes."""
    result = match_stake(amount, stake)
    assert result == expected and type(result) is kind


def test_card_value_is_get_value_and_survives_copies() -> None:
    """Card.value, stored at construction, equals get_value() for every card, also after pickling."""
    import copy
    import pickle
    for card in create_card_array():
        assert card.value == card.get_value() == min(card.face, 10)
        for clone in (pickle.loads(pickle.dumps(card)), copy.deepcopy(card)):
            assert clone == card and clone.value == card.value and hash(clone) == hash(card)


@pytest.mark.parametrize("text", ["1e9999999", "9" * 5000, "1" + "0" * 30, "1e-31", "1/1e40", "-1e99999"])
def test_to_money_refuses_out_of_range_amounts_at_once(text: str) -> None:
    """Amounts beyond 30 digits either side of the point are refused with a short message, not computed
    ("1e9999999" would take seconds to become a Fraction; 5000 digits would pass Python's int limit)."""
    with pytest.raises(InvalidBetError, match="out of range") as caught:
        to_money(text)
    assert len(str(caught.value)) < 150, "the message quotes only the start of the input"


@pytest.mark.parametrize(("text", "value"), [("1" + "0" * 29, Fraction(10) ** 29), ("15/2", Fraction(15, 2)),
                                             (" 5 / 2 ", Fraction(5, 2)), ("1e-30", Fraction(1, 10 ** 30))])
def test_to_money_reads_the_edges_of_its_range(text: str, value: Fraction) -> None:
    """The largest and smallest amounts in range, and fractions, are read exactly."""
    assert to_money(text) == value


def test_to_money_refuses_division_by_zero() -> None:
    with pytest.raises(InvalidBetError, match="divides by zero"):
        to_money("1/0")


def test_parse_bet_refuses_huge_bets_with_a_message() -> None:
    """A 5000-digit bet gets a one-line InvalidBetError, not Python's int-conversion ValueError."""
    with pytest.raises(InvalidBetError, match="at most 30 digits"):
        parse_bet("9" * 5000)


def test_long_typed_input_is_quoted_short_in_every_message() -> None:
    """A bet, an insurance stake or a drill answer of thousands of characters gets a one-line message that
    quotes only its start (money.quoted), as the bet box, the insurance box and the drill prompt show it."""
    from blackjack import Action, Blackjack, IllegalActionError, Rules
    from blackjack.hints import CountingDrill, system
    long_text = "x" * 5000
    messages = []
    game = Blackjack(["Ann"], Rules.preset("vegas"), seed=1)
    rnd = game.new_round()
    with pytest.raises(InvalidBetError) as bet:
        rnd.place_bet(0, long_text)
    messages.append(str(bet.value))
    game.shoe.stack(["Th", "As", "9c", "7d"])  # an ace up: the insurance offer opens
    rnd.place_bet(0, 10)
    rnd.deal()
    with pytest.raises(InvalidBetError) as stake:
        rnd.apply(Action.INSURANCE, long_text)
    messages.append(str(stake.value))
    drill = CountingDrill(system("hi_lo"), seed=1)
    drill.next_cards()
    with pytest.raises(IllegalActionError) as answer:
        drill.answer(long_text)
    messages.append(str(answer.value))
    for message in messages:
        assert len(message) < 200 and message.endswith("..."), message


@pytest.mark.parametrize("name, message", [("   ", "needs a name"), ("x" * 21, "at most 20 characters, got 21"),
                                           ("\x1b[31mRed", "printable"), ("Ann\nBob", "printable")])
def test_player_name_must_fit_a_seat_and_a_line(name: str, message: str) -> None:
    """An empty, overlong or control-character name is refused with a one-line reason."""
    from blackjack.player import Player
    with pytest.raises(ValueError, match=message) as caught:
        Player(name)
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 100


def test_player_name_is_stripped_and_may_be_twenty_characters() -> None:
    """Spaces around a name go; twenty characters of any printable text are a name."""
    from blackjack.player import MAX_NAME_LENGTH, Player
    assert MAX_NAME_LENGTH == 20
    assert Player("  Zoë  ").name == "Zoë"
    assert Player("y" * 20).name == "y" * 20
