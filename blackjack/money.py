"""Exact money: every amount is a :class:`fractions.Fraction` (or an ``int``) of the table's credits.

Money is never a float: a 3:2 natural on a bet of 5 pays exactly 15/2 credits, and
the sum of all bankrolls and the house's result is conserved to the last fraction.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Protocol

from .errors import InvalidBetError, quoted
from .typed_numbers import parse_number

__all__ = ["MAX_DIGITS", "Account", "Money", "format_money", "match_stake", "parse_amount", "parse_bet", "show_money", "to_money"]

#: Exact credits: ``Fraction``, or ``int`` where the simulator stakes whole credits (:func:`match_stake`).
Money = Fraction | int


class Account(Protocol):
    """Whose bankroll a stake leaves and a settlement pays: a :class:`~blackjack.player.Player`."""

    name: str
    bankroll: Money

#: Typed amounts may have at most this many digits either side of the point: far beyond
#: any table's money, and small enough that reading one is instant.
MAX_DIGITS = 30

def match_stake(amount: Money, stake: Money) -> Money:
    """Return ``amount`` in the type of ``stake``: an ``int`` when the stake is an int and the amount is whole.

    The round settles in the stake's type, so ``int`` stakes keep ``int`` money (a 3:2 natural
    on 2 credits nets ``3``). Nothing is ever rounded.

    >>> match_stake(Fraction(3), 2), match_stake(Fraction(3), Fraction(2)), match_stake(Fraction(5, 2), 5)
    (3, Fraction(3, 1), Fraction(5, 2))
    """
    if type(stake) is int and type(amount) is not int and amount.denominator == 1:
        return amount.numerator
    return amount


def to_money(amount: int | Fraction | Decimal | str) -> Fraction:
    """Convert an exact amount to ``Money`` (a Fraction of credits).

    Args:
        amount: an int, Fraction, Decimal, or a string such as ``"12"``, ``"7.5"``, ``"15/2"``.

    Returns:
        The same amount as a ``Fraction``.

    Raises:
        TypeError: ``amount`` is a float or a bool (money is never a float).
        InvalidBetError: a string that is not an exact finite number.
    """
    if isinstance(amount, bool) or isinstance(amount, float):
        raise TypeError(f"money must be exact (int, Fraction, Decimal or str), not {type(amount).__name__}")
    if isinstance(amount, Fraction):
        return amount
    if isinstance(amount, int):
        return Fraction(amount)
    if isinstance(amount, Decimal):
        if not amount.is_finite():
            raise InvalidBetError(f"amount must be a finite number, got {amount}", amount)
        return Fraction(_in_range(amount, amount))
    if isinstance(amount, str):
        numerator, slash, denominator = amount.strip().partition("/")
        value = Fraction(_in_range(_decimal(numerator, amount), amount))
        if slash:
            divisor = Fraction(_in_range(_decimal(denominator, amount), amount))
            if not divisor:
                raise InvalidBetError(f"not an amount of credits: {quoted(amount)} divides by zero", amount)
            value /= divisor
        return value
    raise TypeError(f"money must be int, Fraction, Decimal or str, not {type(amount).__name__}")


def _decimal(text: str, amount: object) -> Decimal:
    """One decimal number (``"7.5"``, ``"1e3"``) of :func:`to_money`'s ``amount``; InvalidBetError if none."""
    try:
        return Decimal(text.strip())
    except (ValueError, InvalidOperation):
        raise InvalidBetError(f"not an amount of credits: {quoted(amount)}", amount) from None


def _in_range(value: Decimal, amount: object) -> Decimal:
    """``value`` when finite and within :data:`MAX_DIGITS` digits of the point (``"1e9999999"`` would take
    seconds to become a Fraction); else InvalidBetError."""
    if not value.is_finite():
        raise InvalidBetError(f"not an amount of credits: {quoted(amount)}", amount)
    if value and not -MAX_DIGITS <= value.adjusted() < MAX_DIGITS:
        raise InvalidBetError(f"amount out of range (at most {MAX_DIGITS} digits either side of the point): "
                              f"{quoted(amount)}", amount)
    return value


def parse_amount(text: str, *, what: str = "amount", whole: bool = False) -> Fraction:
    """Read an amount of credits a person typed: bets, insurance stakes and every ``--bankroll``.

    The grammar is :mod:`blackjack.typed_numbers`' without an exponent (``1e3`` at a bet prompt
    is a typo, not a wish to stake a thousand) and with at most :data:`MAX_DIGITS` digits either
    side of the point (leading zeros of the whole part and trailing zeros of the decimal part do
    not count).

    Args:
        text: what was typed, e.g. ``"25"``, ``"7.5"``, ``"1_000"``.
        what: what the amount is, for the messages (``"bet"``, ``"bankroll"``).
        whole: refuse an amount that is not a whole number of credits (``"10.5"``; ``"10.0"`` is 10).

    Returns:
        The amount as an exact ``Fraction``, sign kept: the caller checks its range.

    Raises:
        InvalidBetError: the text is not an amount in this grammar, has too many digits, or
            (with ``whole``) is not whole; the one-line message quotes the start of the text.
    """
    thing = f"{'an' if what[:1] in 'aeiou' else 'a'} {what}"
    kind = "a whole number of credits" if whole else "a number of credits such as 25 or 7.5"
    typed = text.strip()
    units, _, decimals = typed.lstrip("+-").replace("_", "").partition(".")
    digits = (units + decimals).isascii() and (units + decimals).isdigit()
    if digits and (len(units.lstrip("0")) > MAX_DIGITS or len(decimals.rstrip("0")) > MAX_DIGITS):
        raise InvalidBetError(f"{thing} must have at most {MAX_DIGITS} digits either side of the point", text)
    try:
        value = parse_number(typed)  # the one grammar (at most 200 characters); money has no exponent
    except ValueError:
        raise InvalidBetError(f"{thing} must be {kind}, got {quoted(typed)}", text) from None
    amount = Fraction(value)
    if whole and amount.denominator != 1:
        raise InvalidBetError(f"{thing} must be a whole number of credits, got {quoted(typed)}", text)
    return amount


def parse_bet(text: str, *, what: str = "bet") -> Fraction:
    """Read a bet (or another stake) a player typed: a whole positive number of credits (:func:`parse_amount`).

    Args:
        text: e.g. ``"25"``.
        what: what the amount is, for the messages (``"insurance stake"``).

    Returns:
        The bet as ``Money``.

    Raises:
        InvalidBetError: the text is not a whole number of credits ("ten", "2.5", "1e3",
            "-5", "0", ""). Table limits and the bankroll are checked by the round, not here.
    """
    value = parse_amount(text, what=what, whole=True)
    if value <= 0:
        thing = f"{'an' if what[:1] in 'aeiou' else 'a'} {what}"
        raise InvalidBetError(f"{thing} must be more than 0, got {format_money(value)}", text)
    return value


def format_money(amount: Fraction | int) -> str:
    """Show an amount of credits: ``"12"``, ``"7.5"``, ``"-3.6"``; a non-decimal fraction as ``"10/3"``."""
    value = Fraction(amount)
    if value.denominator == 1:
        return str(value.numerator)
    denominator = value.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator != 1:
        return f"{value.numerator}/{value.denominator}"
    text = format(Decimal(value.numerator) / Decimal(value.denominator), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def show_money(amount: Fraction | int) -> str:
    """Show an amount of credits as a person reads it, for the text game's tables and messages.

    Like :func:`format_money`, except that an amount with no exact decimal (a third, a
    seventh) shows its first two decimals, cut (not rounded), and ``"…"`` to say more
    follow: ``Fraction(10, 3)`` is ``"3.33…"``, ``Fraction(-47, 6)`` is ``"-7.83…"``. The
    amount itself stays exact; only its display is cut.

    >>> show_money(Fraction(15, 2)), show_money(Fraction(10, 3)), show_money(Fraction(-2, 3)), show_money(12)
    ('7.5', '3.33…', '-0.66…', '12')
    """
    value = Fraction(amount)
    exact = format_money(value)
    if "/" not in exact:
        return exact
    sign = "-" if value < 0 else ""
    hundredths = abs(value.numerator) * 100 // value.denominator
    return f"{sign}{hundredths // 100}.{hundredths % 100:02d}…"
