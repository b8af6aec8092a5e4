"""Running sums of a simulation and the statistics derived from them.

Units: a *unit* is the table minimum bet (the betting unit). EV is per unit of initial
bet: the sum of the players' exact net results divided by the sum of their initial
bets (a ratio estimator, so bet-spread strategies get the EV per unit wagered). Its
standard error comes from the per-round pairs (net, initial bet) by the delta method;
with flat bets this is the usual ``sd / sqrt(n)``. A round with several seats is one
observation, so seats that share a dealer hand are not counted as independent.
The exact money totals stay ``Fraction``; the statistics are floats.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import Any

__all__ = ["FINAL_RATES", "HAND_RATES", "HAND_TYPES", "RATES", "Report", "Tally", "hand_type"]

#: Initial two-card hand classes for the composition table, in display order.
HAND_TYPES = ("natural", "pair", "soft", "hard 5-8", "hard 9-11", "hard 12-16", "hard 17-20")

#: The keys of ``Report.frequencies`` that are shares of the final hands (each a fraction of them).
FINAL_RATES = ("win", "push", "loss")
#: The keys of ``Report.frequencies`` counted per initial hand (each a fraction of the initial hands).
HAND_RATES = ("natural", "bust", "double", "split", "surrender", "insurance")
#: Every key of ``Report.frequencies``, in the order reports print them.
RATES = FINAL_RATES + HAND_RATES

#: z for a two-sided 95% normal confidence interval.
Z95 = 1.959963984540054


def hand_type(first: int, second: int) -> str:
    """Classify an initial hand by its two point values (ace 1) into one of :data:`HAND_TYPES`."""
    if first == second:
        return "pair"
    if first == 1 or second == 1:
        return "natural" if first + second == 11 else "soft"
    total = first + second
    if total <= 8:
        return "hard 5-8"
    if total <= 11:
        return "hard 9-11"
    return "hard 12-16" if total <= 16 else "hard 17-20"


@dataclass
class Tally:
    """The sums a block of simulated rounds adds up; tallies of blocks merge by addition.

    Attributes (counts are per seat-hand unless named per round; money in units):
        rounds: rounds played.
        seat_rounds: initial hands played (rounds x seats).
        net: the exact net result in credits (a Fraction).
        wagered: the exact initial bets in credits.
        sx, sb, sxx, sbb, sxb: per-round sums of net x and initial bet b (units) and their
            squares and product, for the EV's standard error.
        su, suu: per initial hand sums of net / initial bet and its square (the
            standard deviation per hand).
        results: final hands by outcome (win / push / loss) and event (bust, double,
            split, surrender, insurance); ``natural`` counts initial hands dealt an ace
            and a ten-card (a two-card 21), whatever the dealer had: the natural row of
            ``types``.
        types: hand type -> [hands, sum of net, sum of initial bets], both in units, so
            that the types' nets add up to ``sx`` (bet-spread strategies included).
        counts: floored true count -> [rounds, sum x, sum b] (counting strategies only).
        sessions: per session ``(lowest running net, final net)`` in units.
        paths: a few sessions' running net, sampled, for plots: entry ``j`` is the net after
            ``j * step`` rounds, for that path's ``step`` in ``path_steps``.
        path_steps: the rounds between two samples of each path in ``paths``.
        interrupted: the block was stopped early (Ctrl-C).
    """

    rounds: int = 0
    seat_rounds: int = 0
    net: Fraction = Fraction(0)
    wagered: Fraction = Fraction(0)
    sx: float = 0.0
    sb: float = 0.0
    sxx: float = 0.0
    sbb: float = 0.0
    sxb: float = 0.0
    su: float = 0.0
    suu: float = 0.0
    results: dict[str, int] = field(default_factory=dict)
    types: dict[str, list[float]] = field(default_factory=dict)
    counts: dict[int, list[float]] = field(default_factory=dict)
    sessions: list[tuple[float, float]] = field(default_factory=list)
    paths: list[list[float]] = field(default_factory=list)
    path_steps: list[int] = field(default_factory=list)
    interrupted: bool = False

    def merge(self, other: Tally) -> None:
        """Add ``other``'s sums to this tally (blocks are merged in block order)."""
        for name in ("rounds", "seat_rounds", "net", "wagered", "sx", "sb", "sxx", "sbb", "sxb", "su", "suu"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for key, n in other.results.items():
            self.results[key] = self.results.get(key, 0) + n
        _add_rows(self.types, other.types)
        _add_rows(self.counts, other.counts)
        self.sessions.extend(other.sessions)
        self.paths.extend(other.paths)
        self.path_steps.extend(other.path_steps)
        self.interrupted = self.interrupted or other.interrupted


def _add_rows(mine: dict[Any, list[float]], theirs: dict[Any, list[float]]) -> None:
    """Add each row of ``theirs`` to the row of the same key in ``mine`` (a new one starts at zeros)."""
    for key, triple in theirs.items():
        row = mine.setdefault(key, [0.0, 0.0, 0.0])
        for i, value in enumerate(triple):
            row[i] += value


def _ratio_se(n: float, sx: float, sb: float, sxx: float, sbb: float, sxb: float) -> float:
    """Standard error of ``sum x / sum b`` from per-observation sums (delta method)."""
    if n < 2 or sb <= 0:
        return math.nan
    r = sx / sb
    resid = max(sxx - 2 * r * sxb + r * r * sbb, 0.0)
    return math.sqrt(resid / (n * (n - 1))) / (sb / n)


@dataclass
class Report:
    """The statistics of one strategy's run. Money per unit of initial bet unless stated.

    Build with :meth:`from_tally`. ``as_dict()`` is what ``--json`` writes.

    ``frequencies``: ``win``, ``push`` and ``loss`` are shares of final hands; ``natural``,
    ``bust``, ``double``, ``split``, ``surrender`` and ``insurance`` are counts per initial
    hand. A natural is an initial hand dealt an ace and a ten-card, whatever the dealer
    had (paid, or pushed by a dealer natural), so ``frequencies["natural"]`` equals the
    ``share`` of the ``natural`` row of ``by_hand_type``.

    ``by_hand_type`` has one row per :data:`HAND_TYPES` entry: ``share`` of initial hands,
    ``ev`` (that type's net per unit of its own initial bets) and ``contribution`` (that
    type's net per unit of all initial bets). The contributions add up to ``ev``, also
    for bet-spread strategies.
    """

    strategy: str
    rules: str
    rounds: int
    hands: int
    ev: float
    se: float
    ci95: tuple[float, float]
    house_edge: float
    sd_per_hand: float
    average_bet: float
    ev_per_round: float
    net_credits: Fraction
    wagered_credits: Fraction
    frequencies: dict[str, float]
    by_hand_type: list[dict[str, float | str]]
    by_true_count: list[dict[str, float | int]]
    risk_of_ruin: dict[str, float] | None
    interrupted: bool
    paths: list[list[float]]
    session_results: list[float]
    path_steps: list[int] = field(default_factory=list)

    @classmethod
    def from_tally(cls, tally: Tally, strategy: str, rules: str, *, bankroll: float | None = None,
                   target_ror: float = 0.05) -> Report:
        """Compute the statistics of ``tally``.

        Args:
            tally: the merged sums.
            strategy: its name, for display.
            rules: the rules summary, for display.
            bankroll: starting bankroll in units for the risk of ruin (None: skip it).
            target_ror: the risk of ruin the "bankroll needed" figure aims at.
        """
        n = tally.rounds
        ev = tally.sx / tally.sb if tally.sb else math.nan
        se = _ratio_se(n, tally.sx, tally.sb, tally.sxx, tally.sbb, tally.sxb)
        hands = tally.seat_rounds
        mean_u = tally.su / hands if hands else math.nan
        sd = math.sqrt(max(tally.suu / hands - mean_u * mean_u, 0.0) * hands / (hands - 1)) if hands > 1 \
            else math.nan
        finals = sum(tally.results.get(k, 0) for k in FINAL_RATES) or 1
        freq = {k: tally.results.get(k, 0) / finals for k in FINAL_RATES}
        for key in HAND_RATES:
            freq[key] = tally.results.get(key, 0) / hands if hands else math.nan
        types: list[dict[str, float | str]] = []
        for name in HAND_TYPES:
            count, net, bet = tally.types.get(name, [0.0, 0.0, 0.0])
            types.append({"type": name, "share": count / hands if hands else math.nan,
                          "ev": net / bet if bet else math.nan,
                          "contribution": net / tally.sb if tally.sb else math.nan})
        by_tc = [{"true_count": tc, "rounds": int(row[0]), "share": row[0] / n,
                  "average_bet": row[2] / row[0], "ev": row[1] / row[2] if row[2] else math.nan}
                 for tc, row in sorted(tally.counts.items())]
        ror = None
        if bankroll is not None and tally.sessions:
            ror = _risk_of_ruin(tally.sessions, bankroll, target_ror, ev, se, sd, tally.sb / n if n else 1.0)
        return cls(strategy=strategy, rules=rules, rounds=n, hands=hands, ev=ev, se=se,
                   ci95=(ev - Z95 * se, ev + Z95 * se), house_edge=-ev, sd_per_hand=sd,
                   average_bet=tally.sb / n if n else math.nan,
                   ev_per_round=tally.sx / n if n else math.nan,
                   net_credits=tally.net, wagered_credits=tally.wagered, frequencies=freq,
                   by_hand_type=types, by_true_count=by_tc, risk_of_ruin=ror, interrupted=tally.interrupted,
                   paths=tally.paths, session_results=[final for _low, final in tally.sessions],
                   path_steps=tally.path_steps)

    def as_dict(self) -> dict[str, Any]:
        """The report as JSON-ready data, without the plot's data (exact money as strings like ``"-15/2"``)."""
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in _PLOT_ONLY}
        out.update(ci95=list(self.ci95), net_credits=str(self.net_credits), wagered_credits=str(self.wagered_credits))
        return out


#: The :class:`Report` fields only ``--plot`` reads, left out of :meth:`Report.as_dict`.
_PLOT_ONLY = ("paths", "session_results", "path_steps")


def _risk_of_ruin(sessions: list[tuple[float, float]], bankroll: float, target: float, ev: float, se: float,
                  sd: float, bet: float) -> dict[str, float]:
    """Risk of ruin over the simulated sessions, its standard error, and the bankroll a target risk needs.

    A session is ruined when its running net falls below ``1 - bankroll`` units (the
    bankroll can no longer cover a one-unit bet). The risk is the share of ruined
    sessions, with the binomial standard error ``sqrt(p (1 - p) / n)``;
    ``sessions_for_quarter_se`` is the fewest sessions that bring that error under a
    quarter of the risk, ``16 (1 - p) / p`` (NaN when no session was ruined). The bankroll
    needed for ``target`` is the (1 - target) quantile of the sessions' deepest drawdown
    plus one unit, and, for a positive EV, the classic infinite-play formula
    ``-ln(target) * var / (2 * ev)`` (per-round variance ``(sd * bet)**2`` and EV
    ``ev * bet``; Wizard of Odds, "Risk of Ruin").
    """
    count = len(sessions)
    ruined = sum(1 for low, _final in sessions if bankroll + low < 1)
    p = ruined / count
    drawdowns = sorted(-low for low, _final in sessions)
    k = min(count - 1, max(0, math.ceil((1 - target) * count) - 1))
    out = {"bankroll_units": bankroll, "sessions": float(count), "risk": p,
           "risk_se": math.sqrt(p * (1 - p) / count), "target": target,
           "sessions_for_quarter_se": float(math.ceil(16 * (1 - p) / p)) if p > 0 else math.nan,
           "bankroll_for_target": drawdowns[k] + 1}
    if ev > 0 and sd == sd:
        out["bankroll_for_target_formula"] = -math.log(target) * (sd * bet) ** 2 / (2 * ev * bet)
    return out
