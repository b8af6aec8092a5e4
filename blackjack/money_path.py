"""How money moves in a round, chosen once per round from ``rules.wagering`` (internal).

With wagering the round calls the student's :mod:`blackjack.wagers` (``take_stake``,
``pay``, ``payout``). Without it (the cs111 game, week 1) no money moves: each hand is
staked with a marker of ``rules.min_bet`` that comes back with net 0, so week-1 play
never runs week-2 code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from .actions import Result
from .errors import InvalidBetError
from .money import Account, Money, format_money
from .rules import Rules
from .wagers import pay, payout, take_stake

__all__ = ["MoneyPath", "money_path"]


class MoneyPath(NamedTuple):
    """The four money moves of a round.

    Attributes:
        take_bet: moves a seat's bet from the bankroll to the table at the deal.
        take_stake: moves an extra stake (a double, a split hand's, insurance) to the table;
            raises :class:`~blackjack.errors.InvalidBetError` when the bankroll is short.
        pay: gives a settled stake back with its net gain, ``pay(account, stake, net)``.
        payout: the net gain of a result on a stake, ``payout(result, bet, rules)``.
    """

    take_bet: Callable[[Account, Money], None]
    take_stake: Callable[[Account, Money], None]
    pay: Callable[[Account, Money, Money], None]
    payout: Callable[[Result, Money, Rules], Money]


def _move_marker(account: Account, amount: Money) -> None:
    account.bankroll -= amount


def _take_marker(account: Account, amount: Money) -> None:
    if amount > account.bankroll:
        raise InvalidBetError(f"{account.name} has {format_money(account.bankroll)}, not the "
                              f"{format_money(amount)} this stake needs", amount)
    account.bankroll -= amount


def _return_marker(account: Account, stake: Money, net: Money) -> None:
    account.bankroll += stake + net


def _no_payout(result: Result, bet: Money, rules: Rules) -> Money:
    return 0


_NO_MONEY = MoneyPath(_move_marker, _take_marker, _return_marker, _no_payout)


def money_path(rules: Rules) -> MoneyPath:
    """The student's wagering under ``rules.wagering``, else the no-money markers."""
    if not rules.wagering:
        return _NO_MONEY
    # Read from this module's names at each round, not bound once at import: the graded suites stand their
    # given parts in for a student's function wherever a module of the package holds it (observe_given.py).
    return MoneyPath(take_stake, take_stake, pay, payout)
