"""The event stream, the view boundary (the hole card stays hidden) and determinism (not graded)."""

from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Iterator, Mapping
from fractions import Fraction

import pytest

from blackjack import (HIDDEN, Action, ActionTaken, BetPlaced, Blackjack, Card, CardDealt, DealerPeeked, Event,
                       Hand, HandSettled, HoleCardRevealed, InsuranceSettled, Outcome, Phase, Result, RoundSettled,
                       Rules, ShoeShuffled, TableView)

VEGAS = Rules.preset("vegas")


def card(code: str) -> Card:
    """The card with this code."""
    return Card.parse(code)


def test_event_stream_of_a_stacked_round() -> None:
    """A stacked two-seat round with insurance, a split and a double emits exactly this list of events."""
    # Ann 8 8 bets 10; Bob T 9 bets 5; dealer A up, 7 in the hole (soft 18).
    # Ann declines insurance, Bob insures 2; no dealer natural. Ann splits: 8+3, doubles, gets T (21);
    # 8+K (18) stands. Bob stands on 19. The dealer stands on soft 18.
    events: list[Event] = []
    game = Blackjack(["Ann", "Bob"], VEGAS, seed=9, listeners=[events.append])
    game.shoe.stack("8s Th Ac 8d 9h 7d 3c Ts Kd".split())
    rnd = game.start_round([10, 5])
    rnd.apply(Action.DECLINE)
    rnd.apply(Action.INSURANCE, 2)
    rnd.apply(Action.SPLIT)
    rnd.apply(Action.DOUBLE)
    rnd.apply(Action.STAND)
    rnd.apply(Action.STAND)
    ten, five, two = Fraction(10), Fraction(5), Fraction(2)
    assert events == [
        BetPlaced(0, ten), BetPlaced(1, five),
        CardDealt(0, 0, card("8s")), CardDealt(1, 0, card("Th")), CardDealt(None, 0, card("Ac")),
        CardDealt(0, 0, card("8d")), CardDealt(1, 0, card("9h")), CardDealt(None, 0, None, face_up=False),
        ActionTaken(0, 0, Action.DECLINE),
        ActionTaken(1, 0, Action.INSURANCE, two),
        DealerPeeked(natural=False),
        InsuranceSettled(1, two, -two),
        ActionTaken(0, 0, Action.SPLIT), CardDealt(0, 0, card("3c")),
        ActionTaken(0, 0, Action.DOUBLE), CardDealt(0, 0, card("Ts")), CardDealt(0, 1, card("Kd")),
        ActionTaken(0, 1, Action.STAND),
        ActionTaken(1, 0, Action.STAND),
        HoleCardRevealed(card("7d")),
        HandSettled(0, 0, Outcome(Result.WIN, Fraction(20), Fraction(20))),
        HandSettled(0, 1, Outcome(Result.PUSH, ten, Fraction(0))),
        HandSettled(1, 0, Outcome(Result.WIN, five, five)),
        RoundSettled(18),
    ]
    assert [p.bankroll for p in game.players] == [1020, 1003]


def test_apply_returns_the_events_it_caused() -> None:
    """Each deal()/apply() returns its own events, and listeners get the same events in the same order."""
    heard: list[Event] = []
    game = Blackjack(["Ann"], VEGAS, seed=3, listeners=[heard.append])
    game.shoe.stack("Th 9c 6d 8s 5h".split())  # Ann T 6 hits 5 (21); dealer 9 up, 8 in the hole
    rnd = game.new_round()
    rnd.place_bet(0, 10)
    returned = list(rnd.deal())
    returned += rnd.apply(Action.HIT)
    assert returned == heard
    assert heard[-1] == RoundSettled(17)


def test_reshuffle_event_between_rounds() -> None:
    """A round that starts after the cut card begins with ShoeShuffled(mid_round=False)."""
    events: list[Event] = []
    rules = dataclasses.replace(VEGAS, decks=1, penetration=Fraction(1, 10))
    game = Blackjack(["Ann"], rules, seed=4, listeners=[events.append])
    for _ in range(60):
        events.clear()
        due = game.shoe.cut_card_reached
        game.play_round(lambda view: Action.DECLINE if Action.DECLINE in view.legal_actions else Action.STAND)
        assert (events[0] == ShoeShuffled(mid_round=False)) is due
        assert ShoeShuffled(mid_round=True) not in events


def test_mid_round_shuffle_when_the_shoe_runs_dry() -> None:
    """If the shoe runs out in mid-round, the discards (not the cards on the table) are shuffled back in."""
    events: list[Event] = []
    game = Blackjack(["Ann", "Bob"], Rules.preset("cs111"), seed=5, listeners=[events.append])
    game.play_round(lambda view: Action.STAND)
    rnd = game.start_round()
    while len(game.shoe) > 0:  # drain the shoe into the discards, as if many cards had been played
        game.shoe.discard([game.shoe.deal()])
    on_table = rnd.cards_on_table()
    while rnd.turn is not None:
        rnd.apply(Action.HIT)
    assert ShoeShuffled(mid_round=True) in events
    assert all(c in rnd.cards_on_table() for c in on_table)
    assert game.cards_in_play() == 52


# ------------------------------------------------------------------------------- the view boundary

def reachable(obj: object, seen: set[int] | None = None) -> Iterator[object]:
    """Every object reachable from ``obj`` through dataclass fields, containers, mappings and properties."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return
    seen.add(id(obj))
    yield obj
    if isinstance(obj, (str, int, Fraction, float, bool, type(None), enum.Enum)):
        return
    if isinstance(obj, Mapping):
        children: list[object] = [*obj.keys(), *obj.values()]
    elif isinstance(obj, (tuple, list, set, frozenset)):
        children = list(obj)
    elif dataclasses.is_dataclass(obj):
        children = [getattr(obj, f.name) for f in dataclasses.fields(obj)]
        children += [getattr(obj, name) for name in dir(type(obj))
                     if isinstance(getattr(type(obj), name, None), property)]
    else:
        children = [getattr(obj, name) for name in getattr(obj, "__slots__", ())] + list(vars(obj).values()) \
            if hasattr(obj, "__dict__") else [getattr(obj, name) for name in getattr(obj, "__slots__", ())]
    for child in children:
        yield from reachable(child, seen)


@pytest.mark.parametrize("preset", [n for n in Rules.preset_names() if Rules.preset(n).hole_card])
@pytest.mark.parametrize("seed", range(8))
def test_view_never_holds_the_hole_card(preset: str, seed: int) -> None:
    """While players decide, the hole card is HIDDEN and nothing reachable from the view is that card."""
    rules = Rules.preset(preset)
    game = Blackjack(["Ann", "Bob"][:rules.max_players], rules, seed=seed)
    rnd = game.start_round()
    rng = random.Random(seed)
    checked = 0
    while rnd.turn is not None:
        hole = game.dealer.hand[1]
        view = rnd.view()
        assert view.dealer.cards[1] is HIDDEN and not view.dealer.revealed
        assert view.dealer.upcard is not None and view.dealer.total == Hand([view.dealer.upcard]).get_score()
        visible = [c for c in (*[c for s in view.seats for h in s.hands for c in h.cards], view.dealer.upcard)]
        for obj in reachable(view):
            if obj is hole:
                pytest.fail(f"the view exposes the hole card object {hole!r} in phase {view.phase}")
            if isinstance(obj, Card) and obj == hole and obj not in visible:
                pytest.fail(f"the view holds a copy of the hole card {hole!r} that is not a visible card")
        checked += 1
        rnd.apply(rng.choice(sorted(rnd.legal_actions(), key=lambda a: a.value)))
    if rnd.phase is Phase.SETTLED and len(game.dealer.hand) > 1:
        assert rnd.view().dealer.cards[1] == game.dealer.hand[1], "after the round the hole card is shown"


def test_view_totals_count_only_the_upcard() -> None:
    """The dealer's visible total counts the upcard only; unseen_counts include the hole card as unseen."""
    game = Blackjack(["Ann"], Rules.preset("single_deck"), seed=1)
    game.shoe.stack("Th 9c 7d Kc".split())
    rnd = game.start_round([10])
    view = rnd.view()
    assert (view.dealer.total, view.dealer.total_text) == (9, "9")
    shoe = game.shoe.counts()
    assert view.unseen_counts[10] == shoe[10] + 1 and view.unseen_counts[9] == shoe[9]
    assert sum(view.unseen_counts.values()) == len(game.shoe) + 1 == view.cards_remaining + 1


def test_hole_card_event_is_face_down() -> None:
    """The CardDealt event for the hole card carries no card."""
    events: list[Event] = []
    game = Blackjack(["Ann"], VEGAS, seed=1, listeners=[events.append])
    game.start_round([10])
    dealer_cards = [e for e in events if isinstance(e, CardDealt) and e.seat is None]
    assert dealer_cards[1].card is None and dealer_cards[1].face_up is False


def test_view_is_frozen() -> None:
    """A view cannot be changed: it is a snapshot, not the round."""
    game = Blackjack(["Ann"], VEGAS, seed=1)
    view = game.start_round([10]).view()
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.phase = Phase.SETTLED  # type: ignore[misc]


# ------------------------------------------------------------------------------------ determinism

def random_script(seed: int) -> list[float]:
    """A fixed list of numbers in [0, 1) that picks each decision, the same for both tables."""
    rng = random.Random(seed)
    return [rng.random() for _ in range(2000)]


@pytest.mark.parametrize("preset", Rules.preset_names())
def test_same_seed_same_views_and_events_at_every_step(preset: str) -> None:
    """Two tables with one seed and one action script have equal views and events after every step."""
    rules = Rules.preset(preset)
    names = ["Ann", "Bob", "Cy"][:min(3, rules.max_players)]
    logs: tuple[list[Event], list[Event]] = ([], [])
    tables = [Blackjack(names, rules, seed=99, listeners=[log.append]) for log in logs]
    script = iter(random_script(7))
    step = 0
    for number in range(15):
        rounds = [t.start_round() for t in tables]
        while True:
            views = [r.view() for r in rounds]
            assert views[0] == views[1], f"{preset}: views differ at round {number}, step {step}"
            assert logs[0] == logs[1], f"{preset}: events differ at round {number}, step {step}"
            if rounds[0].turn is None:
                break
            legal = sorted(views[0].legal_actions, key=lambda a: a.value)
            action = legal[int(next(script) * len(legal))]
            for r in rounds:
                r.apply(action)
            step += 1
        assert tables[0].finish_round() == tables[1].finish_round()
    assert [p.bankroll for p in tables[0].players] == [p.bankroll for p in tables[1].players]


def test_different_seeds_differ() -> None:
    """Two different seeds deal different shoes."""
    assert Blackjack(["Ann"], VEGAS, seed=1).shoe.cards != Blackjack(["Ann"], VEGAS, seed=2).shoe.cards


def test_rng_or_seed_not_both() -> None:
    """A shoe takes an rng or a seed, not both."""
    with pytest.raises(ValueError):
        Blackjack(["Ann"], VEGAS, seed=1, rng=random.Random(1))


def test_policy_sees_only_views() -> None:
    """play_round hands the policy a TableView, never the round."""
    seen: list[object] = []

    def decide(view: TableView) -> Action:
        seen.append(view)
        return Action.STAND
    game = Blackjack(["Ann"], VEGAS, seed=2)
    game.shoe.stack("Th 9c 6d 8s".split())
    game.play_round(decide, [10])
    assert seen and all(isinstance(v, TableView) for v in seen)


def test_insurance_limit_is_half_the_bet_within_the_bankroll_and_only_during_the_offer() -> None:
    """Round.insurance_limit (also view.insurance_limit): half the bet, or the bankroll if less; None otherwise."""
    game = Blackjack(["Ann", "Bob"], Rules.preset("vegas"), seed=1)
    game.shoe.stack("Ts 9h As 9d 7c 8s")  # Ann T 9, Bob 9 7, dealer A up, 8 in the hole
    rnd = game.new_round()
    assert rnd.insurance_limit() is None and rnd.view().insurance_limit is None
    rnd.place_bet(0, 5)
    rnd.place_bet(1, 10)
    game.players[1].bankroll = Fraction(13)  # 3 left once the 10 is on the table
    rnd.deal()
    assert rnd.insurance_limit() == Fraction(5, 2) == rnd.view().insurance_limit
    rnd.apply(Action.DECLINE)
    assert rnd.insurance_limit() == 3 == rnd.view().insurance_limit
    rnd.apply(Action.INSURANCE)  # the default stake is the limit
    assert rnd.view().seats[1].insurance == 3 and game.players[1].bankroll == 0
    assert rnd.insurance_limit() is None and rnd.view().insurance_limit is None


def test_result_kind_is_how_tallies_count_a_hand() -> None:
    """Naturals, Thunderjacks and Blitzes count as wins; busts and surrenders as losses (ledger, simulator)."""
    kinds = {kind: {r for r in Result if r.kind == kind} for kind in ("win", "push", "loss")}
    assert kinds == {"win": {Result.WIN, Result.BLACKJACK, Result.THUNDERJACK, Result.BLITZ},
                     "push": {Result.PUSH},
                     "loss": {Result.LOSE, Result.BUST, Result.SURRENDER}}


@pytest.mark.parametrize("cards, even", [(["As", "Ah", "Kd", "5c"], True), (["9s", "Ah", "Kd", "5c"], False)])
def test_insurance_offer_is_even_money_only_for_a_natural(cards: list[str], even: bool) -> None:
    """Against an ace, a player natural is offered even money; any other hand insurance; no offer, neither."""
    game = Blackjack(["Ann"], Rules.preset("vegas"), seed=1)
    game.shoe.stack(cards)
    rnd = game.start_round([10])
    assert rnd.phase is Phase.INSURANCE and rnd.view().even_money is even
    rnd.apply(Action.DECLINE)
    assert rnd.view().even_money is False
