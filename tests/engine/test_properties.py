"""Property tests (hypothesis) of the engine's invariants: shuffle, scoring, card codes, conservation.

Not part of grading. The conservation test plays thousands of seeded rounds over every
preset with random bets and random legal actions, trying an illegal bet or action now
and then, and checks at every step that no card and no credit appears or disappears.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blackjack import (Action, Blackjack, Card, Hand, IllegalActionError, InvalidBetError, Phase, Round, Rules,
                       Suit, create_card_array, shuffle)

cards = st.builds(Card, st.sampled_from(list(Suit)), st.integers(1, 13))


# ------------------------------------------------------------------------------------ shuffle

@settings(max_examples=200, deadline=None)
@given(items=st.lists(st.integers()), seed=st.integers())
def test_shuffle_is_a_permutation(items: list[int], seed: int) -> None:
    """Any shuffle keeps exactly the same items, each as often as before."""
    mixed = list(items)
    shuffle(mixed, random.Random(seed))
    assert Counter(mixed) == Counter(items)


@settings(max_examples=50, deadline=None)
@given(seed=st.integers())
def test_shuffle_of_a_deck_keeps_52_distinct_cards(seed: int) -> None:
    """A shuffled create_card_array() still holds the 52 different cards."""
    deck = create_card_array()
    shuffle(deck, random.Random(seed))
    assert len(deck) == 52 and set(deck) == set(create_card_array())


@settings(max_examples=100, deadline=None)
@given(size=st.integers(0, 320), seed=st.integers())
def test_shuffle_is_the_textbook_fisher_yates(size: int, seed: int) -> None:
    """shuffle() (random.shuffle underneath) gives exactly what the textbook loop gives with the same seed:
    for i from n-1 down to 1, swap item i with a position drawn uniformly from 0..i."""
    ours = list(range(size))
    shuffle(ours, random.Random(seed))
    textbook = list(range(size))
    rng = random.Random(seed)
    for i in range(size - 1, 0, -1):
        j = rng.randrange(i + 1)
        textbook[i], textbook[j] = textbook[j], textbook[i]
    assert ours == textbook


# ------------------------------------------------------------------------------------ scoring

def best_total(values: list[int]) -> int:
    """Brute force: try every choice of 1 or 11 for each ace; the best total not over 21, else the least."""
    aces = values.count(1)
    rest = sum(v for v in values if v != 1)
    totals = {rest + sum(choice) for choice in itertools.product((1, 11), repeat=aces)}
    legal = [t for t in totals if t <= 21]
    return max(legal) if legal else min(totals)


@settings(max_examples=500, deadline=None)
@given(hand=st.lists(cards, max_size=12))
def test_score_is_best_legal_total(hand: list[Card]) -> None:
    """Hand.get_score() is the best total over all ace choices (the least one if every choice busts)."""
    values = [c.get_value() for c in hand]
    assert Hand(hand).get_score() == best_total(values)


@settings(max_examples=300, deadline=None)
@given(hand=st.lists(cards, max_size=12))
def test_soft_means_an_ace_counts_eleven(hand: list[Card]) -> None:
    """is_soft() is True exactly when the best total counts an ace as 11."""
    h = Hand(hand)
    hard = sum(c.get_value() for c in hand)
    assert h.is_soft() == (h.get_score() == hard + 10)


# --------------------------------------------------------------------------------- card codes

@pytest.mark.parametrize("card", create_card_array(), ids=str)
def test_card_round_trip_all_52(card: Card) -> None:
    """Card.parse(str(card)) == card, and the symbol and Thunderjack id forms parse back too."""
    assert Card.parse(str(card)) == card
    assert Card.parse(card.symbol) == card
    assert Card.parse(f"{str(card)[0].lower()}_{card.suit.code}_3") == card
    assert eval(repr(card), {"Card": Card}) == card


@given(card=cards)
def test_card_round_trip_hypothesis(card: Card) -> None:
    """Card.parse(str(c)) == c for any card, in upper or lower case."""
    assert Card.parse(str(card)) == card
    assert Card.parse(str(card).upper()) == card
    assert Card.parse(str(card).lower()) == card


@given(text=st.text(max_size=6))
def test_parse_accepts_or_raises_invalid_card_error(text: str) -> None:
    """Card.parse of any text returns a card that round-trips, or raises InvalidCardError (never another error)."""
    from blackjack import InvalidCardError
    from blackjack.errors import quoted
    try:
        card = Card.parse(text)
    except InvalidCardError as err:
        assert quoted(text) in str(err)  # the text as messages quote it: its repr, cut to 40 characters
    else:
        assert Card.parse(str(card)) == card


@pytest.mark.parametrize("suit", list(Suit))
def test_suit_parse_and_code_round_trip(suit: Suit) -> None:
    """Suit.parse(suit.code), Suit.parse(suit.symbol) and Suit.parse(name) give the suit back."""
    assert Suit.parse(suit.code) is suit
    assert Suit.parse(suit.symbol) is suit
    assert Suit.parse(suit.name) is suit


@pytest.mark.parametrize("action", list(Action))
def test_action_parse_and_key_round_trip(action: Action) -> None:
    """Action.parse(action.key) and Action.parse(action.value) give the action back; keys differ."""
    assert Action.parse(action.key) is action
    assert Action.parse(action.value.upper()) is action
    assert len({a.key for a in Action}) == len(Action)


# ------------------------------------------------------------------------------- conservation

def full_shoe(decks: int) -> Counter[Card]:
    """The cards of ``decks`` full decks."""
    counter: Counter[Card] = Counter()
    for _ in range(decks):
        counter.update(create_card_array())
    return counter


class Checker:
    """Checks a table's card and money invariants after every step."""

    def __init__(self, game: Blackjack) -> None:
        self.game = game
        self.cards = full_shoe(game.rules.decks)
        self.money = sum((p.bankroll for p in game.players), Fraction(0))

    def check(self, where: str) -> None:
        game, rnd = self.game, self.game.round
        on_table = rnd.cards_on_table() if rnd is not None else list(game.dealer.hand)
        held = Counter(game.shoe.cards) + Counter(game.shoe.discards) + Counter(on_table)
        assert held == self.cards, f"{where}: cards appeared {held - self.cards} or vanished {self.cards - held}"
        assert len(game.shoe) + len(game.shoe.discards) + len(on_table) == game.rules.total_cards
        money = sum((p.bankroll for p in game.players), Fraction(0)) + game.house_net
        if rnd is not None:
            money += rnd.house_net + rnd.on_table
        assert money == self.money, f"{where}: bankrolls + house + on the table = {money}, not {self.money}"
        assert all(p.bankroll >= 0 for p in game.players), f"{where}: negative bankroll {game.players}"


def state(game: Blackjack) -> tuple[object, ...]:
    """What a refused bet or action must leave unchanged."""
    rnd = game.round
    assert rnd is not None
    return (rnd.view(), list(rnd.history), [p.bankroll for p in game.players], game.shoe.cards,
            game.shoe.discards, rnd.phase, rnd.turn, [rnd.bet(i) for i in range(len(game.players))])


BAD_BETS: list[object] = [0, -5, 10**9, "1e9", "ten", "", 2.5, Fraction(1, 3) - 1]


def place_bets(game: Blackjack, rnd: Round, rng: random.Random) -> bool:
    """Place random legal bets (and try an illegal one now and then); False when nobody could bet."""
    rules = game.rules
    for seat, player in enumerate(game.players):
        if rules.wagering and rng.random() < 0.2:  # without wagering there is no bet to refuse
            bad = rng.choice(BAD_BETS + [player.bankroll + 1, rules.max_bet + 1])
            if not (isinstance(bad, (int, Fraction)) and not isinstance(bad, bool)
                    and rules.min_bet <= bad <= min(rules.max_bet, player.bankroll)):
                before = state(game)
                with pytest.raises(InvalidBetError):
                    rnd.place_bet(seat, bad)  # type: ignore[arg-type]
                assert state(game) == before, f"a refused bet {bad!r} changed the table"
        top = min(rules.max_bet, player.bankroll)
        if top >= rules.min_bet and rng.random() < 0.85:
            bet = rng.choice([rules.min_bet, top, Fraction(rng.randint(int(rules.min_bet), int(top)))])
            rnd.place_bet(seat, bet)
            assert rnd.bet(seat) <= player.bankroll
    return any(rnd.bet(i) > 0 for i in range(len(game.players)))


def play_step(game: Blackjack, rnd: Round, rng: random.Random) -> None:
    """Maybe try an illegal action (it must change nothing), then apply a random legal one."""
    legal = sorted(rnd.legal_actions(), key=lambda a: a.value)
    assert legal, f"a turn {rnd.turn} with no legal action in {rnd.phase}"
    illegal = [a for a in Action if a not in legal]
    if illegal and rng.random() < 0.15:
        before = state(game)
        with pytest.raises(IllegalActionError):
            rnd.apply(rng.choice(illegal))
        assert state(game) == before, "a refused action changed the table"
    action = rng.choice(legal)
    if action is Action.INSURANCE and rng.random() < 0.5:
        seat = rnd.turn[0]  # type: ignore[index]
        most = min(rnd.bet(seat) / 2, game.players[seat].bankroll)
        rnd.apply(action, most * Fraction(rng.randint(1, 4), 4))
    else:
        rnd.apply(action)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(Rules.preset_names()), seed=st.integers(0, 2**32), rng=st.randoms(use_true_random=False))
def test_cards_and_money_are_conserved(preset: str, seed: int, rng: random.Random) -> None:
    """30 random rounds: cards are never lost or duplicated, money never appears or vanishes, no bankroll < 0."""
    rules = Rules.preset(preset)
    seats = rng.randint(1, min(rules.max_players, 3))
    game = Blackjack([f"P{i}" for i in range(seats)], rules, seed=seed)
    for player in game.players:
        player.bankroll = Fraction(rng.choice([5, 40, 500, 1000]))
    checker = Checker(game)
    checker.check("start")
    for number in range(30):
        rnd = game.new_round()
        if not place_bets(game, rnd, rng):
            continue
        rnd.deal()
        checker.check(f"round {number} deal")
        step = 0
        while rnd.turn is not None:
            play_step(game, rnd, rng)
            step += 1
            checker.check(f"round {number} step {step}")
        assert rnd.phase is Phase.SETTLED
        outcomes = game.finish_round()
        assert all(o.bet > 0 for _, _, o in outcomes)
        checker.check(f"round {number} finished")
