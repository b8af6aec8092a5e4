"""Exceptions raised by the blackjack engine.

Every error the engine raises on purpose derives from :class:`BlackjackError`, so a
front end catches that one class and shows ``str(err)`` on one line; anything else
is a bug and should crash loudly in tests::

    BlackjackError
    ├── InvalidCardError      (also ValueError)   unknown card code
    ├── RulesError            (also ValueError)   contradictory or impossible Rules
    │   └── PresetError                           unknown preset name
    ├── InvalidBetError       (also ValueError)   bet below the minimum, above the bankroll ...
    ├── IllegalActionError    (also ValueError)   an action the round does not allow now
    └── EmptyShoeError        (also LookupError)  no card left to deal
"""

from __future__ import annotations

__all__ = [
    "BlackjackError", "EmptyShoeError", "IllegalActionError", "InvalidBetError", "InvalidCardError", "PresetError",
    "RulesError", "quoted", "unwritten"
]


class BlackjackError(Exception):
    """Root of every error the engine raises on purpose; its message is one line."""


class InvalidCardError(BlackjackError, ValueError):
    """A card code could not be read, e.g. ``Card.parse("Zx")``.

    Attributes:
        text: the text that was not understood.
    """

    def __init__(self, message: str, text: str = "") -> None:
        super().__init__(message)
        self.text = text


class RulesError(BlackjackError, ValueError):
    """A :class:`~blackjack.rules.Rules` value is impossible or contradicts itself."""


class PresetError(RulesError):
    """An unknown rules preset name, or a preset file that cannot be read."""


class InvalidBetError(BlackjackError, ValueError):
    """A bet or insurance stake that the table or the bankroll does not allow.

    Attributes:
        amount: the rejected amount as given (may be any object, e.g. the text "ten").
    """

    def __init__(self, message: str, amount: object = None) -> None:
        super().__init__(message)
        self.amount = amount


class IllegalActionError(BlackjackError, ValueError):
    """An action that is not legal in the round's current state; nothing was changed.

    Attributes:
        action: the rejected action (an :class:`~blackjack.actions.Action` or raw text).
    """

    def __init__(self, message: str, action: object = None) -> None:
        super().__init__(message)
        self.action = action


class EmptyShoeError(BlackjackError, LookupError):
    """A deck or shoe has no card left to deal and no discards to reshuffle."""


def quoted(value: object) -> str:
    """Return ``value`` as a one-line error message quotes it: its repr, cut to at most 40 characters.

    >>> quoted("ten"), quoted("9" * 100)
    ("'ten'", "'999999999999999999999999999999999999...")
    """
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def unwritten(err: NotImplementedError) -> str:
    """One line for a course function that is still a starter stub (the innermost frame of ``err``).

    >>> def get_score():
    ...     raise NotImplementedError("add up get_value() of every card")
    >>> try:
    ...     get_score()
    ... except NotImplementedError as err:
    ...     print(unwritten(err))  # doctest: +ELLIPSIS
    get_score() is not written yet: add up get_value() of every card (...:2)

    Returns:
        ``"<qualified name>() is not written yet: <what to write> (<file>:<line>)"``; the file
        from the package folder on (``blackjack/hand.py``).
    """
    name = where = ""
    tb = err.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        name, where = code.co_qualname, f" ({_from_package(code.co_filename)}:{tb.tb_lineno})"
        tb = tb.tb_next
    what = str(err).strip().splitlines()[0] if str(err).strip() else "see the milestone's spec"
    return f"{name + '()' if name else 'a function'} is not written yet: {what}{where}"


def _from_package(filename: str) -> str:
    """``.../blackjack/hand.py`` -> ``blackjack/hand.py``: from the last blackjack/ or gui/ on, else the file name."""
    parts = filename.replace("\\", "/").split("/")
    starts = [i for i, part in enumerate(parts[:-1]) if part in ("blackjack", "gui")]
    return "/".join(parts[starts[-1]:]) if starts else parts[-1]
