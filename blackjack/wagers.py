"""Settlement rules: who won a hand, and what it pays.

The round calls these for every hand it deals and settles, so each rule lives in one
place: ``take_stake`` when it deals a bet (and for every extra stake: a double, a split
hand, an insurance bet), ``payout`` and ``pay`` when it settles a hand or an insurance
bet. Between the two the stake is on the table: in neither the bankroll nor the house's.
"""

from __future__ import annotations

from fractions import Fraction

from .actions import Result
from .errors import InvalidBetError
from .money import Account, Money, format_money
from .rules import Rules

__all__ = ["compare_scores", "pay", "payout", "take_stake"]

# The results as module constants: the round settles every hand through these two functions, and on
# Python 3.11 each ``Result.X`` costs a trip through EnumType.__getattr__ (about 0.1 microsecond).
_WIN, _LOSE, _PUSH, _BUST, _BLACKJACK, _THUNDERJACK, _BLITZ = (
    Result.WIN, Result.LOSE, Result.PUSH, Result.BUST, Result.BLACKJACK, Result.THUNDERJACK, Result.BLITZ)
_ZERO = Fraction(0)  # a push nets nothing; Fractions are immutable, so one zero serves every push


def compare_scores(score: int, dealer_score: int) -> Result:
    """Return WIN, LOSE or PUSH for a player total that did not bust against the dealer's final total.

    cs111 spec: "If the dealer busts, any players who did not bust earlier win this
    round. Otherwise ... a player wins if he has a higher score than the dealer, loses
    if he has a lower score, and pushes (ties) if he has the same score."

    Args:
        score: the player's best total, 21 or less (a bust hand is settled as BUST before).
        dealer_score: the dealer's final total; over 21 means the dealer busted.
    """
    # BEGIN SOLUTION m1: the player wins when the dealer busts or the player's score is higher, loses when it is lower, and pushes on a tie
    if dealer_score > 21 or score > dealer_score:
        return _WIN
    if score < dealer_score:
        return _LOSE
    return _PUSH
    # END SOLUTION


def payout(result: Result, bet: Money, rules: Rules) -> Money:
    """Return the player's net gain in credits on a hand staked with ``bet`` that ended in ``result``.

    Payouts: a win pays 1:1; a natural ``rules.blackjack_pays`` (3:2, or 6:5 on some
    single-deck games); a Thunderjack ``rules.thunderjack_pays`` and Blitz
    ``rules.charlie_pays`` (3:1 and 5:1, Thunderjack design data); a push returns the
    bet (net 0); a surrender loses half the bet; a loss or a bust loses the bet.

    Args:
        result: how the hand ended.
        bet: credits staked on the hand, a double included (a ``Fraction``, or an
            ``int`` in the simulator).
        rules: the payout odds.

    Returns:
        The net gain as an exact ``Fraction`` (negative for a loss): 3:2 on a bet of 5 is 15/2.

    Raises:
        ValueError: THUNDERJACK under rules without the Thunderjack payout.
    """
    # BEGIN SOLUTION m2: return the player's net gain on a settled hand of this bet: a loss or a bust loses the bet, a win pays 1:1, a natural (BLACKJACK) pays rules.blackjack_pays to 1, a THUNDERJACK rules.thunderjack_pays and a BLITZ rules.charlie_pays, a push nothing, and a SURRENDER loses half the bet; keep it exact (an int or a Fraction, never a float)
    if result is _LOSE or result is _BUST:
        return -bet
    if result is _WIN:
        return bet
    if result is _BLACKJACK:
        return bet * rules.blackjack_pays
    if result is _THUNDERJACK:
        if rules.thunderjack_pays is None:
            raise ValueError("these rules pay no Thunderjack")
        return bet * rules.thunderjack_pays
    if result is _BLITZ:
        return bet * rules.charlie_pays
    if result is _PUSH:
        return _ZERO
    return -Fraction(bet) / 2  # SURRENDER, the one result left
    # END SOLUTION


def take_stake(player: Account, amount: Money) -> None:
    """Move a stake of ``amount`` credits from ``player``'s bankroll to the table, exactly once.

    The round calls this once for every stake it takes: each bet when the cards are
    dealt (not when the bet is placed: a bet can still be changed then), and each extra
    stake of the advanced play (a double, a split hand, an insurance bet). The money
    stays exact: a stake of ``Fraction(15, 2)`` leaves 1000 at ``Fraction(1985, 2)``.

    Args:
        player: whose bankroll pays the stake.
        amount: the stake in credits, exact money (a ``Fraction``, or an ``int`` in the simulator).

    Raises:
        InvalidBetError: ``amount`` is 0 or less, or more than ``player.bankroll``; the
            one-line message says which, and the bankroll is left as it was.
    """
    # BEGIN SOLUTION m2: take the stake off the player's bankroll, exactly once and exactly (no float); refuse a stake of 0 or less, or one bigger than the bankroll, with an InvalidBetError whose message says why, leaving the bankroll as it was
    if amount <= 0:
        raise InvalidBetError(f"{player.name}: a stake must be more than 0, got {format_money(amount)}", amount)
    if amount > player.bankroll:
        raise InvalidBetError(f"{player.name}: cannot stake {format_money(amount)} with a bankroll of "
                              f"{format_money(player.bankroll)}", amount)
    player.bankroll -= amount
    # END SOLUTION


def pay(player: Account, stake: Money, net: Money = 0) -> None:
    """Give a settled stake back to ``player``'s bankroll together with its net gain.

    The stake left the bankroll when it was taken (:func:`take_stake`), so settling a
    hand returns ``stake + net`` (``net`` from :func:`payout`): a win of 10 on a stake of
    10 returns 20, a push returns the 10, a loss (net -10) returns nothing, a surrender
    (net -5) returns 5, a natural paid 3:2 on a stake of 5 returns ``Fraction(25, 2)``.
    The money stays exact (never a float). ``pay(player, amount)`` returns ``amount``.

    Args:
        player: whose bankroll is paid.
        stake: the credits the hand (or insurance bet) had on the table.
        net: the net gain on it, negative for a loss (default 0).
    """
    # BEGIN SOLUTION m2: add to the player's bankroll the stake that comes back together with the net gain on it (a win: the stake and its winnings; a push: just the stake; a loss: nothing), keeping the money exact
    player.bankroll += stake + net
    # END SOLUTION
