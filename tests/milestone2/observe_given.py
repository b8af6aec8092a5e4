"""The suite's own copies of the milestone-2 functions a test does not grade, run in the student's process (named
``observe_*`` so that the grader copies it there; it holds no observation a test calls).

A test grades one mechanic; the rest of the table runs on these given parts, so a mistake in
another function costs that function's points only (issue 37: a ``take_stake`` that forgot to
take the stake cost 11 points of advanced play). They ship with the suite, never with the kit's
reference (the student's process does not import the kit's ``blackjack``), and each one is the
rule as the spec states it, written for this purpose only:

========================  ===============================================================
given part                the rule (milestones/specs/milestone2.md)
========================  ===============================================================
``check_bet``             exact money (``to_money``), within the table's limits and the bankroll
``take_stake``            a stake leaves the bankroll once; a refused stake changes nothing
``payout``                a settled hand's net gain: 1:1, the natural's odds, half a surrender
``pay``                   the stake comes back with its net gain
``bust_probability``      the chance one more card busts the hand
``dealer_probabilities``  the dealer's final totals (``observe_odds.dealer_distribution``)
``double_down``           a second stake equal to the bet, one card, and the hand ends
``split``                 two hands of one card of the pair, both from a split, the new one staked with the bet
``deal_split_card``       a split hand's second card; split aces then end, unless they may hit or split again
``why_not_double``        two cards, a total ``double_on`` allows, after a split only with DAS, never on split aces,
                          the bankroll to match the bet
``why_not_split``         a two-card pair by ``split_by``, fewer hands than ``max_split_hands``, aces again only with
                          ``resplit_aces``, the bankroll to match the bet
``insurance_limit``       half the bet, or the whole bankroll if that is less
``insurance_net``         2:1 against a dealer natural, else the stake lost
``ask_bet``               asked until a whole number of credits that ``check_bet`` takes
``take_bets``             ``ask_bet`` of every player who covers the minimum, in seat order
``ask_move``              asked until the answer names a move offered
========================  ===============================================================

``python -m milestones defend`` plays its rows on the money moves and the advanced play's given
parts too, so that a row needs only the student's hints (``milestones/plays/defend_play.py``).

:func:`given` swaps some of them in for the student's functions, wherever a module of the
submission's ``blackjack`` package holds the student's function (the round calls them by the
names it imported), and puts the student's back when it ends.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from types import ModuleType
from typing import Any

from observe_odds import dealer_distribution

#: What each given part replaces: ``(module of the submission, name)``; ``Player.check_bet`` is a method.
STUDENT = {"check_bet": ("blackjack.player", "Player.check_bet"), "take_stake": ("blackjack.wagers", "take_stake"),
           "payout": ("blackjack.wagers", "payout"), "pay": ("blackjack.wagers", "pay"),
           "bust_probability": ("blackjack.hints.probability", "bust_probability"),
           "dealer_probabilities": ("blackjack.hints.probability", "dealer_probabilities"),
           "double_down": ("blackjack.plays", "double_down"), "split": ("blackjack.plays", "split"),
           "deal_split_card": ("blackjack.plays", "deal_split_card"),
           "why_not_double": ("blackjack.plays", "why_not_double"),
           "why_not_split": ("blackjack.plays", "why_not_split"),
           "insurance_limit": ("blackjack.plays", "insurance_limit"), "insurance_net": ("blackjack.plays", "insurance_net"),
           "ask_bet": ("blackjack.course_game", "ask_bet"), "take_bets": ("blackjack.course_game", "take_bets"),
           "ask_move": ("blackjack.course_game", "ask_move")}
#: The money moves a round needs besides the student's mechanics.
MONEY = ("check_bet", "take_stake", "payout", "pay")


def check_bet(player: Any, bet: object, rules: Any) -> Fraction:
    """The bet as exact money, refused (``InvalidBetError``) outside the table's limits or over the bankroll."""
    from blackjack.errors import InvalidBetError  # noqa: PLC0415 - the submission's given classes
    from blackjack.money import to_money  # noqa: PLC0415

    try:
        amount = to_money(bet)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidBetError(f"a bet must be an exact number of credits, got {bet!r}", bet) from None
    if not rules.min_bet <= amount <= rules.max_bet:
        raise InvalidBetError(f"the table takes bets from {rules.min_bet} to {rules.max_bet}", bet)
    if amount > player.bankroll:
        raise InvalidBetError(f"{player.name} has only {player.bankroll}", bet)
    return amount


def take_stake(player: Any, amount: Any) -> None:
    """Move ``amount`` from the bankroll to the table; 0 or less, or more than the bankroll, is refused."""
    from blackjack.errors import InvalidBetError  # noqa: PLC0415

    if not 0 < amount <= player.bankroll:
        raise InvalidBetError(f"{player.name} cannot stake {amount} with a bankroll of {player.bankroll}", amount)
    player.bankroll -= amount


def payout(result: Any, bet: Any, rules: Any) -> Fraction:
    """The net gain of a hand staked ``bet`` that ended in ``result``, exact."""
    odds = {"WIN": 1, "PUSH": 0, "LOSE": -1, "BUST": -1, "SURRENDER": Fraction(-1, 2),
            "BLACKJACK": rules.blackjack_pays, "THUNDERJACK": rules.thunderjack_pays, "BLITZ": rules.charlie_pays}
    if odds[result.name] is None:
        raise ValueError("these rules pay no Thunderjack")
    return Fraction(bet) * Fraction(odds[result.name])


def pay(player: Any, stake: Any, net: Any = 0) -> None:
    """Give ``stake`` back to the bankroll with its net gain."""
    player.bankroll += stake + net


def _values(cards: Iterable[object]) -> list[int]:
    from blackjack.hints.probability import card_value  # noqa: PLC0415 - given code

    return [card_value(card) for card in cards]


def _shoe(shoe: object) -> dict[int, int] | None:
    from blackjack.hints.probability import counts_from  # noqa: PLC0415 - given code

    counts = counts_from(shoe)  # type: ignore[arg-type]
    return None if counts is None else dict(enumerate(counts, 1))


def bust_probability(player_cards: Iterable[object], shoe: object = None, *, upcard: object = None,
                     rules: Any = None) -> float:
    """The chance one more card (from ``shoe``, or an infinite deck) takes the hand's best total over 21."""
    values = _values(player_cards)
    counts = _shoe(shoe) or {value: 4 if value == 10 else 1 for value in range(1, 11)}
    total = sum(counts.values())
    hard = sum(values)
    return sum(count for value, count in counts.items() if hard + value > 21) / total


def dealer_probabilities(upcard: object, shoe: object = None, rules: Any = None, peeked: bool | None = None, *,
                         exact: bool = False) -> dict[str, Any]:
    """The dealer's final-total chances (``"17"`` ... ``"21"``, ``"bust"``, ``"blackjack"``) for ``upcard``."""
    up = _values([upcard])[0]
    hits = bool(rules is not None and rules.dealer_hits_soft_17)
    peek = (rules is None or rules.dealer_peeks) if peeked is None else peeked
    chances = dealer_distribution(up, _shoe(shoe), hits_soft_17=hits, peeked=bool(peek))
    return dict(chances) if exact else {key: float(value) for key, value in chances.items()}


def double_down(play: Any) -> None:
    """A second stake equal to the bet, exactly one card, and the hand ends."""
    play.take_stake(play.bet)
    play.draw()
    play.end_hand()


def split(play: Any) -> None:
    """Two hands of one card each, both made by a split; the new one after this one, staked with the bet."""
    from blackjack import Hand  # noqa: PLC0415 - the submission's given class

    first, second = play.hand.cards
    play.replace_hand(Hand([first], from_split=True))
    play.add_hand(Hand([second], from_split=True), play.bet)


def deal_split_card(play: Any) -> None:
    """The split hand's second card; split aces end there unless the rules let them hit or they may split again
    (the student's ``why_not_split`` says whether they may)."""
    from blackjack import plays  # noqa: PLC0415 - the submission's module: why_not_split is the student's

    play.draw()
    if plays.split_aces(play.hand) and not play.rules.hit_split_aces and plays.why_not_split(play) is not None:
        play.end_hand()


def why_not_double(play: Any) -> str | None:
    """Why the rules or the bankroll forbid doubling this hand, or None."""
    from blackjack import plays  # noqa: PLC0415 - the submission's module: split_aces is given

    hand, rules = play.hand, play.rules
    totals = {"9-11": (9, 10, 11), "10-11": (10, 11), "none": ()}.get(rules.double_on)  # None: any total
    if len(hand) != 2 or totals is not None and hand.get_score() not in totals:
        return "these rules do not allow doubling this hand"
    if hand.from_split and (not rules.double_after_split or plays.split_aces(hand)):
        return "these rules do not allow doubling this hand after a split"
    return "the bankroll cannot match the bet" if play.bankroll < play.bet else None


def why_not_split(play: Any) -> str | None:
    """Why the rules or the bankroll forbid splitting this hand, or None."""
    from blackjack import plays  # noqa: PLC0415 - the submission's module: split_aces is given

    hand, rules = play.hand, play.rules
    if len(hand) != 2 or not hand.is_pair(by=rules.split_by) or play.seat_hands >= rules.max_split_hands:
        return "these rules do not allow splitting this hand"
    if plays.split_aces(hand) and not rules.resplit_aces:
        return "these rules do not allow resplitting aces"
    return "the bankroll cannot match the bet" if play.bankroll < play.bet else None


def insurance_limit(bet: Any, bankroll: Any) -> Fraction:
    """Half the bet, or the whole bankroll if that is less."""
    return min(Fraction(bet) / 2, Fraction(bankroll))


def insurance_net(stake: Any, dealer_natural: bool) -> Fraction:
    """2:1 against a dealer natural, else the stake lost."""
    return Fraction(stake) * 2 if dealer_natural else -Fraction(stake)


def ask_bet(player: Any, rules: Any, ask: Any, say: Any) -> Fraction:
    """Asked until a whole number of credits that ``check_bet`` takes; each refusal said."""
    from blackjack.errors import InvalidBetError  # noqa: PLC0415 - the submission's given class
    from blackjack.money import parse_bet  # noqa: PLC0415

    while True:
        try:
            return check_bet(player, parse_bet(ask(f"{player.name}'s bet? ")), rules)
        except InvalidBetError as err:
            say(str(err))


def take_bets(game: Any, ask: Any, say: Any) -> dict[int, Fraction]:
    """``ask_bet`` of every player who covers the table minimum, in seat order; the others sit out."""
    return {seat: ask_bet(player, game.rules, ask, say) for seat, player in enumerate(game.players)
            if player.bankroll >= game.rules.min_bet}


def ask_move(name: str, offered: Any, ask: Any, say: Any) -> Any:
    """Asked until the answer names a move offered."""
    from blackjack import Action  # noqa: PLC0415 - the submission's given class

    while True:
        answer = ask(f"{name}: {', '.join(a.value for a in Action if a in offered)}? ")
        move = next((a for a in Action if answer.strip().lower() in (a.value, a.key)), None)
        if move in offered:
            return move
        say("not offered")


_GIVEN: dict[str, Callable[..., Any]] = {"check_bet": check_bet, "take_stake": take_stake, "payout": payout,
                                         "pay": pay, "bust_probability": bust_probability,
                                         "dealer_probabilities": dealer_probabilities, "double_down": double_down,
                                         "split": split, "deal_split_card": deal_split_card,
                                         "why_not_double": why_not_double, "why_not_split": why_not_split,
                                         "insurance_limit": insurance_limit, "insurance_net": insurance_net,
                                         "ask_bet": ask_bet, "take_bets": take_bets, "ask_move": ask_move}


@contextlib.contextmanager
def given(*names: str) -> Iterator[None]:
    """While it lasts, the given parts ``names`` (keys of :data:`STUDENT`) stand in for the student's functions in
    every loaded module of the submission's ``blackjack`` package; the student's are back when it ends."""
    import importlib  # noqa: PLC0415

    saved: list[tuple[object, str, object]] = []
    try:
        for name in names:
            module_name, qualname = STUDENT[name]
            module = importlib.import_module(module_name)
            if "." in qualname:  # a method: replaced on its class
                owner_name, attr = qualname.split(".")
                owner = getattr(module, owner_name)
                saved.append((owner, attr, owner.__dict__[attr]))
                setattr(owner, attr, _GIVEN[name])
                continue
            student = getattr(module, qualname)
            for loaded in _package_modules():
                for attr, value in list(vars(loaded).items()):
                    if value is student:
                        saved.append((loaded, attr, value))
                        setattr(loaded, attr, _GIVEN[name])
        yield
    finally:
        for owner, attr, value in reversed(saved):
            setattr(owner, attr, value)


def _package_modules() -> list[ModuleType]:
    return [module for key, module in list(sys.modules.items())
            if isinstance(module, ModuleType) and (key == "blackjack" or key.startswith("blackjack."))]
