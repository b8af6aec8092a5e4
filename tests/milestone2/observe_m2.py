"""What the milestone-2 observations share, run in the student's process: tables stacked from plain data, and a
round told as plain data (docs/design/graded_test_shape.md).

Imported by ``observe_wagering.py``, ``observe_advanced_play.py`` and (the hints helpers) ``observe_hints_basic.py``,
``observe_counting.py`` and ``observe_probabilities.py``; nothing here is an observation itself (the
judge can call only the functions an ``observe_<name>.py`` defines). Everything is built from given classes
(``Blackjack``, ``Player``, ``Rules``, a stacked shoe); the student's code runs where the round calls it. Money
goes back through :func:`milestones.grader.observer.number`, so the judge reads it exact; cards as codes, enums by
value or name. No expected value lives here.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable, Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from blackjack import Action, Blackjack, Card, Outcome, Phase, Player, Round, Rules
from milestones.grader.observer import given_cards, number, plain


def rules_from(spec: str | dict[str, Any]) -> Rules:
    """A preset by name (``"vegas"``), or ``{"preset": "vegas", "min_bet": 5, ...}``: the preset with those fields."""
    if isinstance(spec, str):
        return Rules.preset(spec)
    fields = dict(spec)
    return dataclasses.replace(Rules.preset(str(fields.pop("preset", "vegas"))), **fields)


def hint_rules(spec: dict[str, Any] | None) -> Rules | None:
    """The rules a hints observation was sent: ``None`` (the function's default), or ``{"preset": "vegas", ...}``
    (``Rules()`` when no preset is named) with those fields changed."""
    if spec is None:
        return None
    changes = dict(spec)
    preset = changes.pop("preset", None)
    base = Rules.preset(preset) if preset else Rules()
    return dataclasses.replace(base, **changes) if changes else base


def card_arg(card: object) -> object:
    """A card the judge sent: a code (``"As"``) as a given ``Card``; a point value (an int) as it came."""
    return Card.parse(card) if isinstance(card, str) else card


def advice_data(got: object, printed: str) -> dict[str, object]:
    """A hint function's answer as data: ``{"pair": a 2-tuple came back, "action": the Action's name or None,
    "action_data": what came back in its place, "reason": data, "printed": text}``, or ``{"pair": False,
    "got": what came back, "printed": text}``."""
    if not (isinstance(got, tuple) and len(got) == 2):
        return {"pair": False, "got": plain(got), "printed": printed}
    action, reason = got
    return {"pair": True, "action": action.name if isinstance(action, Action) else None,
            "action_data": None if isinstance(action, Action) else plain(action),
            "reason": plain(reason), "printed": printed}


def money_arg(value: object) -> object:
    """An amount the judge sent: ``{"fraction": "-1/2"}`` as a Fraction, ``{"decimal": "7.5"}`` as a Decimal, anything
    else (an int, a float, text) as it came."""
    if isinstance(value, dict) and len(value) == 1:
        (kind, text), = value.items()
        if kind == "fraction":
            return Fraction(str(text))
        if kind == "decimal":
            return Decimal(str(text))
    return value


def table(codes: str, players: list[Any], rules: str | dict[str, Any], seed: int) -> Blackjack:
    """A table whose next cards are ``codes`` (space-separated), in deal order. ``players``: names, or
    ``[name, bankroll]`` pairs (none: Ann alone)."""
    seats = [Player(str(p[0]), p[1]) if isinstance(p, list) else str(p) for p in players] or ["Ann"]
    with given_cards():  # a shoe of given cards: the student's deck is graded by milestone 1, not here
        game = Blackjack(seats, rules_from(rules), seed=seed)
    if codes:
        game.shoe.stack(codes.split())
    return game


def bets_arg(bets: list[Any] | None) -> list[Any] | None:
    """The bets of ``start_round``: None for the default bets, else each as :func:`money_arg` reads it."""
    return None if bets is None else [None if b is None else money_arg(b) for b in bets]


def stand_all(rnd: Round) -> None:
    """Stand every open hand (declining any insurance) until the round is settled."""
    while rnd.turn is not None:
        rnd.apply(Action.DECLINE if rnd.phase is Phase.INSURANCE else Action.STAND)


def outcome_data(outcome: Outcome) -> dict[str, object]:
    """A settled hand: ``{"result": "WIN", "bet": 10, "net": 10}`` (money as :func:`number` sends it)."""
    result = outcome.result
    return {"result": result.name if isinstance(result, enum.Enum) else plain(result),
            "bet": number(outcome.bet), "net": number(outcome.net)}


def round_state(game: Blackjack, rnd: Round, *, legal: bool = False) -> dict[str, object]:
    """The round as the tests read it: its phase (by value, ``"settled"``), turn, every seat's hands (as card codes),
    bet, insurance gain and settled hands ``[seat, hand, outcome]``, and the bankrolls; with ``legal``, the legal
    actions (by value, sorted) when a decision is pending."""
    seats = range(len(rnd.players))
    state: dict[str, object] = {
        "phase": rnd.phase.value,
        "turn": None if rnd.turn is None else list(rnd.turn),
        "hands": [[str(hand) for hand in rnd.hands(seat)] for seat in seats],
        "bets": [number(rnd.bet(seat)) for seat in seats],
        "insurance": [number(rnd.insurance_net(seat)) for seat in seats],
        "outcomes": [[seat, hand, outcome_data(outcome)] for seat, hand, outcome in rnd.outcomes()],
        "bankrolls": [number(player.bankroll) for player in game.players],
    }
    if legal:
        state["legal"] = [] if rnd.turn is None else sorted(a.value for a in rnd.legal_actions())
    return state


def canonical(value: object, depth: int = 0) -> object:
    """``value`` as plain data that compares as the value does: dataclasses as dicts of their fields, enums by name,
    cards as codes, sets sorted, exact numbers through :func:`number`."""
    if depth > 12:
        return plain(value)
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, (Fraction, Decimal)) or type(value) in (int, float, bool, str) or value is None:
        return number(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: canonical(getattr(value, f.name), depth + 1) for f in dataclasses.fields(value)}
        return {"type": type(value).__name__, **fields}
    if isinstance(value, (set, frozenset)):
        return sorted((canonical(item, depth + 1) for item in value), key=repr)
    if isinstance(value, Mapping):
        return [[canonical(k, depth + 1), canonical(v, depth + 1)] for k, v in sorted(value.items(), key=repr)]
    if isinstance(value, (list, tuple)):
        return [canonical(item, depth + 1) for item in value]
    return plain(value)


def events_data(events: Iterable[object]) -> list[object]:
    """Events as :func:`canonical` data: ``{"type": "InsuranceSettled", "seat": 0, "stake": ..., "net": ...}``."""
    return [canonical(event) for event in events]


def snapshot(game: Blackjack, rnd: Round) -> dict[str, object]:
    """Everything a refused action must leave alone, as plain data: the table view, the history, the bankrolls,
    the shoe, the phase and the turn."""
    return {"view": canonical(rnd.view()), "history": canonical(list(rnd.history)),
            "bankrolls": [number(p.bankroll) for p in game.players], "shoe": [str(c) for c in game.shoe.cards],
            "phase": rnd.phase.value, "turn": None if rnd.turn is None else list(rnd.turn)}


class _Stop(Exception):
    """A scripted call went past its script, or said too much without asking."""


def scripted(function: Any, answers: list[str], *args: object, convert: Any = plain) -> dict[str, object]:
    """``function(*args, ask, say)`` with ``ask`` answering ``answers`` in order and ``say`` recording: ``{"returned":
    convert(its result), "failure": None or one line, "log": [["ask", prompt] or ["say", line], ...] (the first
    300), "printed": text}``. A stub's NotImplementedError propagates (the grader words it)."""
    from milestones.grader.observer import capture

    queue, log = list(answers), []

    def ask(prompt: object) -> str:
        log.append(["ask", str(prompt)[:300]])
        if not queue:
            raise _Stop(f"the game asked {str(prompt)[:200]!r} after the scripted answers {answers} were all used")
        return queue.pop(0)

    def say(line: object) -> None:
        log.append(["say", line[:300] if isinstance(line, str) else f"(not a str: {line!r:.200})"])
        if len(log) > 2000:
            raise _Stop("the game said 2000 lines: a loop that never ends?")

    def call() -> dict[str, object]:
        try:
            return {"returned": convert(function(*args, ask, say)), "failure": None}
        except NotImplementedError:
            raise
        except Exception as err:  # noqa: BLE001 - the judge words it
            return {"returned": None, "failure": str(err) if isinstance(err, _Stop) else f"{type(err).__name__}: {err}"}

    result, printed = capture(call)
    return {**result, "log": log[:300], "printed": printed}  # type: ignore[dict-item]
