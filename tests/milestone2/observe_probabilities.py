"""Observations for test_probabilities.py, run in the student's process: the student's dealer_probabilities,
bust_probability and expected_values called on shoes and rules built from given classes, their answers sent as
plain data (numbers with ``number()``, so a float stays a float and a Fraction a Fraction), with what they printed
(docs/design/graded_test_shape.md).

Arguments from the judge: cards are point values (ace 1) or card codes ("Kd", made Cards with ``Card.parse``);
a shoe is ``None`` or a list of ``[point value, count]`` pairs (a dict is rebuilt from them); rules are ``None``
or ``{"preset": name, field: value, ...}`` (``Rules.preset(name)``, or ``Rules()`` without a preset, with the
fields replaced).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

from blackjack import Action
from blackjack.hints import bust_probability, dealer_probabilities, expected_values
from milestones.grader.observer import capture, number
from observe_m2 import card_arg, hint_rules

#: The hint engine's dealer code (blackjack/hints/_dealer.py), which dealer_probabilities must not call.
_DEALER_ENGINE = ("dealer_float", "dealer_numerators", "_table")


class _EngineCalled(BaseException):
    """Raised by a blocked engine function (a BaseException, so ``except Exception`` in the student's code lets
    it through; the observation catches it)."""


def _quiet(function: Callable[..., object], *args: object, **kwargs: object) -> tuple[object, str]:
    """``function(*args, **kwargs)`` and what it printed on stdout and stderr."""
    return capture(lambda: function(*args, **kwargs), stderr=True)


def _shoe(pairs: list[list[int]] | None) -> dict[int, int] | None:
    return None if pairs is None else {int(value): int(count) for value, count in pairs}


def _key(key: object) -> str:
    try:
        return str(key)[:200]
    except Exception:  # noqa: BLE001 - a student's __str__
        return f"<a {type(key).__name__}>"


def _chances(got: object) -> dict[str, object]:
    """A dict of chances as ``{"dict": [[str(key), key is a str, number(value)], ...]}``, anything else as
    ``{"other": its data}``."""
    if not isinstance(got, dict):
        return {"other": number(got)}
    return {"dict": [[_key(key), type(key) is str, number(value)] for key, value in got.items()]}


def _evs(got: object) -> dict[str, object]:
    """A dict of EVs as ``{"dict": [[Action name or repr of the key, key is an Action, number(EV)], ...]}``."""
    if not isinstance(got, dict):
        return {"other": number(got)}
    return {"dict": [[key.name if isinstance(key, Action) else repr(key)[:200], isinstance(key, Action), number(value)]
                     for key, value in got.items()]}


def _blocked(name: str, called: list[str]) -> Callable[..., object]:
    def blocked(*args: object, **kwargs: object) -> object:
        called.append(name)
        raise _EngineCalled(name)
    return blocked


@contextlib.contextmanager
def _no_dealer_engine(called: list[str]) -> Iterator[None]:
    """Replace the engine's dealer functions, wherever a blackjack module holds them, by ones that record their
    name in ``called`` and stop the call; put them back afterwards."""
    from blackjack.hints import _dealer  # noqa: PLC0415 - given code

    patched: list[tuple[ModuleType, str, object]] = []
    modules = [m for key, m in list(sys.modules.items())
               if isinstance(m, ModuleType) and (key == "blackjack" or key.startswith("blackjack."))]
    try:
        for name in _DEALER_ENGINE:
            real = getattr(_dealer, name, None)
            if real is None:
                continue
            for module in modules:
                for attr, value in list(vars(module).items()):
                    if value is real:
                        patched.append((module, attr, value))
                        setattr(module, attr, _blocked(name, called))
        yield
    finally:
        for module, attr, value in reversed(patched):
            setattr(module, attr, value)


def dealer(upcard: int, shoe: list[list[int]] | None, rules: dict[str, Any] | None,
           keywords: dict[str, Any]) -> dict[str, object]:
    """``dealer_probabilities(upcard, shoe, rules=..., **keywords)`` with the engine's dealer code blocked:
    ``{"got": its chances, "printed": text, "engine": the blocked function it called, or None}``."""
    called: list[str] = []
    extra = dict(keywords)
    if rules is not None:
        extra["rules"] = hint_rules(rules)
    with _no_dealer_engine(called):
        try:
            got, printed = _quiet(dealer_probabilities, card_arg(upcard), _shoe(shoe), **extra)
        except BaseException:
            if called:
                return {"got": None, "printed": "", "engine": called[0]}
            raise
    return {"got": _chances(got), "printed": printed, "engine": called[0] if called else None}


def bust(cards: list[object], shoe: list[list[int]] | None, keywords: dict[str, Any]) -> dict[str, object]:
    """``bust_probability(cards, shoe, **keywords)`` (``upcard``, ``rules``): ``{"got": number, "printed": text}``."""
    extra = dict(keywords)
    if "rules" in extra:
        extra["rules"] = hint_rules(extra["rules"])
    if "upcard" in extra:
        extra["upcard"] = card_arg(extra["upcard"])
    got, printed = _quiet(bust_probability, [card_arg(c) for c in cards], _shoe(shoe), **extra)
    return {"got": number(got), "printed": printed}


def evs(cards: list[object], upcard: object, shoe: list[list[int]] | None, rules: dict[str, Any] | None,
        keywords: dict[str, Any]) -> dict[str, object]:
    """``expected_values(cards, upcard, shoe, rules, **keywords)`` (``from_split``, ``hands``):
    ``{"got": its EVs, "printed": text}``."""
    got, printed = _quiet(expected_values, [card_arg(c) for c in cards], card_arg(upcard), _shoe(shoe), hint_rules(rules),
                          **keywords)
    return {"got": _evs(got), "printed": printed}
