"""The kit's one grammar of a number a person types: bets, stakes, ``--bankroll``, counts, seconds, shares.

Every place that reads a typed number reads it here, so ``1_000`` means the same at a bet
prompt, in ``--bankroll``, in the simulator's ``--hands`` and in ``milestones --timeout``:

* spaces around the number are ignored; an optional sign, ``+`` or ``-``;
* the digits 0-9, with single underscores between digit groups as Python allows
  (``1_000``; not ``_10``, ``10_`` or ``1__0``); other scripts' digits (a full-width
  ``１０``, an Arabic-Indic ``١٠``), which ``int()`` would read, are refused, so the number
  the table shows back is the one that was typed on the keys it names;
* an optional decimal part: a point and digits (``7.5``, ``10.0``; not ``.5`` or ``10.``);
* an exponent of at most three digits (``1e6``, ``2.5e5``, ``5e-2``), except in money:
  counts of hands are round and large, while at a bet prompt ``1e3`` is more likely a
  typo than a wish to stake a thousand;
* only where a share is read, also a fraction of two whole numbers (``3/4``).

Nothing else is a number: no ``nan``, ``inf``, hex or spaces inside, and nothing longer than
:data:`MAX_TYPED` characters (a line of 4,000 zeros is refused, not read). The module uses the
standard library only and no other module of the kit, so a command line can load it by
its file (``milestones`` does, to stay clear of a student's broken package).
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

__all__ = ["MAX_TYPED", "TYPED_NUMBER", "parse_count", "parse_number", "parse_share", "parse_whole"]

#: A typed number: sign, digit groups, decimal part, exponent (the module docstring says which are allowed where).
TYPED_NUMBER = re.compile(r"([+-]?)([0-9]+(?:_[0-9]+)*)(?:\.([0-9]+(?:_[0-9]+)*))?(?:[eE]([+-]?[0-9]{1,3}))?")

#: A share written as a fraction of two whole numbers, ``3/4``.
_TYPED_RATIO = re.compile(r"([0-9]+(?:_[0-9]+)*)/([0-9]+(?:_[0-9]+)*)")

#: The longest text read as a number: far beyond any amount or count, short enough to read at once.
MAX_TYPED = 200


def _shown(text: str) -> str:
    """``text`` quoted for a one-line message, cut to 40 characters."""
    quoted = repr(text)
    return quoted if len(quoted) <= 40 else quoted[:37] + "..."


def parse_number(text: str, *, exponent: bool = False) -> Decimal:
    """Read a typed number in the kit's grammar (the module docstring).

    Args:
        text: what was typed, e.g. ``"7.5"``, ``"1_000"``, ``"1e6"``.
        exponent: accept an exponent (``1e6``): for every number but money.

    Returns:
        The exact value, sign kept; the caller checks its range.

    Raises:
        ValueError: the text is not a number in the grammar, or is longer than :data:`MAX_TYPED`
            characters; the one-line message quotes its start.
    """
    typed = text.strip()
    match = TYPED_NUMBER.fullmatch(typed) if len(typed) <= MAX_TYPED else None
    if match is None or (match[4] is not None and not exponent):
        example = "1000, 1_000, 7.5 or 1e3" if exponent else "1000, 1_000 or 7.5"
        raise ValueError(f"not a number such as {example}: {_shown(text)}")
    return Decimal(typed.replace("_", ""))


def parse_count(text: str, most: int, *, least: int = 1) -> int:
    """Read a whole count from ``least`` to ``most``: ``1000000``, ``1_000_000``, ``1e6``, ``2.5e5``, ``10.0``.

    Raises:
        ValueError: not a number in the grammar, not whole (``0.5``, ``1e-3``), or out of range.
    """
    try:
        value = parse_number(text, exponent=True)
    except ValueError:
        raise ValueError(f"not a whole number such as 1000, 1_000 or 1e6: {_shown(text)}") from None
    return _whole(value, text, least, most)


def parse_whole(text: str, *, least: int | None = None, most: int | None = None) -> int:
    """Read a whole number from ``least`` to ``most`` (None: no bound) as typed: ``12``, ``+3``, ``1_000``, ``10.0``.

    No exponent.

    Raises:
        ValueError: not a number in the grammar, not whole (``2.5``), or out of range; the
            one-line message quotes the start of the text.
    """
    try:
        value = parse_number(text)
    except ValueError:
        raise ValueError(f"not a whole number such as 12, +3 or -2: {_shown(text)}") from None
    return _whole(value, text, least, most)


def _whole(value: Decimal, text: str, least: int | None, most: int | None) -> int:
    """``value`` (read from ``text``) as an ``int`` from ``least`` to ``most``; else ValueError."""
    if value != value.to_integral_value():
        raise ValueError(f"not a whole number: {_shown(text)}")
    if (least is not None and value < least) or (most is not None and value > most):
        bounds = " and ".join(part for part in (
            f"at least {least:,}" if least is not None else "", f"at most {most:,}" if most is not None else "") if part)
        raise ValueError(f"must be {bounds}, got {_shown(text)}")
    return int(value)


def parse_share(text: str) -> Fraction:
    """Read a share from 0 to 1: a number in the grammar (``0.25``, ``5e-2``) or a fraction of whole numbers (``1/4``).

    Raises:
        ValueError: neither form, a zero denominator, or outside 0..1.
    """
    typed = text.strip()
    ratio = _TYPED_RATIO.fullmatch(typed) if len(typed) <= MAX_TYPED else None
    if ratio is not None:
        numerator, denominator = (int(group.replace("_", "")) for group in ratio.groups())
        if not denominator:
            raise ValueError(f"divides by zero: {_shown(text)}")
        value = Fraction(numerator, denominator)
    else:
        try:
            value = Fraction(parse_number(typed, exponent=True))
        except ValueError:
            raise ValueError(f"not a share such as 0.25 or 1/4: {_shown(text)}") from None
    if not 0 <= value <= 1:
        raise ValueError(f"must be between 0 and 1, got {_shown(text)}")
    return value
