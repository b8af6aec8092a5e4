"""Level 3 hints: a basic-strategy chart derived from expected values for any :class:`Rules`.

Nothing is hard-coded: every cell compares the exact EVs of :func:`.expected_values` for the rules' full shoe
(``decks`` decks, less the upcard and the player's cards), as total-dependent basic strategy, the convention of
the published charts: a hard row averages each action's EV over the two-card non-pair hands of that total,
weighted by their chance (hard 4 and 20 read 2-2 and T-T unsplit). The charts of the presets are shipped in
``charts.json`` (:func:`shipped_rules`); docs/hints.md ("Level 3: the chart") gives the method, the codes
(:data:`CODES`) and the published charts they are tested against.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from importlib import resources
from collections.abc import Callable, Collection, Iterable, Mapping

from ..actions import Action
from ..cards import Card
from ..rules import Rules
from ._dealer import forbidden_hole
from ._player import before_peek, doubles_on, natural_chance, total_of
from .probability import card_value, expected_values, full_shoe, without

__all__ = ["CODES", "UPCARDS", "Chart", "basic_strategy", "chart_key", "code_for", "derive_chart", "moves_for"]

#: Dealer upcards in chart column order: 2..10, then the ace.
UPCARDS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)

#: Every chart code and its meaning (Wizard of Odds legend).
CODES = {
    "H": "hit",
    "S": "stand",
    "Dh": "double if allowed, otherwise hit",
    "Ds": "double if allowed, otherwise stand",
    "P": "split",
    "Ph": "split if double after split is allowed, otherwise hit",
    "Rh": "surrender if allowed, otherwise hit",
    "Rs": "surrender if allowed, otherwise stand",
    "Rp": "surrender if allowed, otherwise split",
}

# Enum members as module constants: on Python 3.11 each ``Action.X`` lookup costs about 0.1
# microsecond (EnumType.__getattr__), and the simulator asks the chart for every decision.
_HIT, _STAND, _DOUBLE, _SPLIT, _SURRENDER = Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER

_LETTER = {Action.HIT: "h", Action.STAND: "s", Action.SPLIT: "p", Action.DOUBLE: "d"}


def code_for(evs: Mapping[Action, float], *, das_helps: bool = False) -> str:
    """Return the chart code for one decision from its EVs.

    Args:
        evs: ``{Action: EV}`` as :func:`.expected_values` returns (INSURANCE is ignored).
        das_helps: splitting is best only because doubling after a split is allowed
            (then the code is ``"Ph"``).

    Returns:
        One of :data:`CODES`.
    """
    moves = {a: v for a, v in evs.items() if a in (Action.HIT, Action.STAND, Action.DOUBLE,
                                                   Action.SPLIT, Action.SURRENDER)}
    best = max(moves, key=lambda a: moves[a])
    if best is Action.HIT:
        return "H"
    if best is Action.STAND:
        return "S"
    if best is Action.SPLIT:
        return "Ph" if das_helps else "P"
    rest = {a: v for a, v in moves.items() if a not in (best, Action.DOUBLE, Action.SURRENDER)}
    if best is Action.DOUBLE:
        rest.pop(Action.SPLIT, None)
    fallback = max(rest, key=lambda a: rest[a])
    return ("D" if best is Action.DOUBLE else "R") + _LETTER[fallback]


def _unconditioned(evs: dict[Action, float], p_natural: float) -> dict[Action, float]:
    """EVs before the peek: a dealer natural costs one bet, except for a surrender (early)."""
    return {a: (v if a is Action.SURRENDER else before_peek(v, p_natural)) for a, v in evs.items()}


class Chart:
    """A basic-strategy chart for one rule set: rows of codes against upcards 2..10, A.

    Build it with :func:`basic_strategy`. Attributes ``hard`` (totals 4..20), ``soft``
    (13..20 for A-2..A-9) and ``pairs`` (pair value 1..10, ace 1) map a row to its ten
    codes in :data:`UPCARDS` order.

    :meth:`code` and :meth:`action` take cards; :meth:`total_code`, :meth:`pair_code`
    and :meth:`play` take the hand as numbers, for the simulator's inner loop. All of
    them read the same rows and apply the same fallbacks (:data:`CODES`).
    """

    def __init__(self, rules: Rules, hard: Mapping[int, tuple[str, ...]], soft: Mapping[int, tuple[str, ...]],
                 pairs: Mapping[int, tuple[str, ...]]) -> None:
        self.rules = rules
        self.hard, self.soft, self.pairs = dict(hard), dict(soft), dict(pairs)
        # The same rows indexed by upcard value (ace 1), so a lookup needs no column search.
        self._hard, self._soft, self._pairs = ({row: _by_upcard(codes) for row, codes in part.items()}
                                               for part in (self.hard, self.soft, self.pairs))

    def code(self, player_cards: Iterable[Card | int], upcard: Card | int, *, pair: bool | None = None) -> str:
        """Return the chart code for a hand against an upcard.

        Args:
            player_cards: Cards or point values (ace 1), any number of cards.
            upcard: the dealer's upcard.
            pair: read the pair row (default: the hand is two cards of equal value).

        Returns:
            A code from :data:`CODES`; ``"S"`` for 21 and more.
        """
        values = [card_value(c) for c in player_cards]
        up = card_value(upcard)
        total, soft, pair_value = _read(values)
        if pair is None:
            pair = pair_value is not None
        if pair:
            return self.pair_code(values[0], up)
        return self.total_code(total, soft, up)

    def total_code(self, total: int, soft: bool, upcard: int) -> str:
        """Return the code of the hard or soft row for a best total against an upcard value.

        Args:
            total: the hand's best total (:meth:`Hand.get_score`).
            soft: an ace counts 11 in ``total`` (:meth:`Hand.is_soft`).
            upcard: the upcard's point value, ace 1.

        Returns:
            The row's code; ``"S"`` for 21 and more, ``"H"`` for a soft 12 (two aces
            not split), the 4 row for a hard total below 4 (never dealt).
        """
        if total >= 21:
            return "S"
        if soft:
            return self._soft[total][upcard] if total >= 13 else "H"
        return self._hard[4 if total < 4 else total][upcard]

    def pair_code(self, value: int, upcard: int) -> str:
        """Return the code of the pair row for two cards of point value ``value`` (ace 1) against an upcard value."""
        return self._pairs[value][upcard]

    def play(self, total: int, soft: bool, pair: int | None, upcard: int,
             allowed: Callable[[Action], bool]) -> Action:
        """Return the chart's move for a hand given as numbers, falling back as its code says.

        Args:
            total: the hand's best total.
            soft: an ace counts 11 in ``total``.
            pair: the point value of a two-card pair to read the pair row for, else None.
            upcard: the upcard's point value, ace 1.
            allowed: tells whether a move may be taken now, such as ``Round.is_legal``
                or ``legal.__contains__``.

        Returns:
            HIT, STAND, DOUBLE, SPLIT or SURRENDER: a move ``allowed`` accepts, or STAND,
            which a hand in play may always take. A pair the seat may not split is
            played by its total row, as the Wizard of Odds advises.
        """
        if pair is not None:
            code = self._pairs[pair][upcard]
            if code[0] == "P" or code == "Rp":
                if code == "Rp" and allowed(_SURRENDER):
                    return _SURRENDER
                if allowed(_SPLIT) and (code != "Ph" or self.rules.double_after_split):
                    return _SPLIT
                if code == "Ph":
                    return _HIT if allowed(_HIT) else _STAND
                code = self.total_code(total, soft, upcard)
        else:
            code = self.total_code(total, soft, upcard)
        first = code[0]
        if first == "R" and allowed(_SURRENDER):
            return _SURRENDER
        if first == "D" and allowed(_DOUBLE):
            return _DOUBLE
        if first in "RD":
            first = "S" if code[1] == "s" else "H"
        if first == "H" and allowed(_HIT):
            return _HIT
        return _STAND

    def action(self, player_cards: Iterable[Card | int], upcard: Card | int, *,
               legal: Collection[Action] | None = None) -> Action:
        """Return the action the chart gives, falling back as its code says.

        Args:
            player_cards: Cards or point values (ace 1).
            upcard: the dealer's upcard.
            legal: the actions allowed now (e.g. ``view.legal_actions``). Default: what
                the rules allow a fresh hand of these cards (double and surrender only on
                two cards, split only a pair).

        Returns:
            HIT, STAND, DOUBLE, SPLIT or SURRENDER: one of ``legal``, or STAND, which a
            hand in play may always take.
        """
        cards = list(player_cards)
        total, soft, pair = _read([card_value(c) for c in cards])
        if legal is None:
            legal = moves_for(cards, self.rules)
        return self.play(total, soft, pair, card_value(upcard), legal.__contains__)

    def rows(self) -> list[tuple[str, str, tuple[str, ...]]]:
        """Return ``(section, label, codes)`` rows: hard 5..20, soft A-2..A-9, pairs 2-2..A-A."""
        out: list[tuple[str, str, tuple[str, ...]]] = []
        for total in range(5, 21):
            out.append(("hard", str(total), self.hard[total]))
        for total in range(13, 21):
            out.append(("soft", f"A,{total - 11}", self.soft[total]))
        for value in (2, 3, 4, 5, 6, 7, 8, 9, 10, 1):
            name = "A" if value == 1 else ("T" if value == 10 else str(value))
            out.append(("pairs", f"{name},{name}", self.pairs[value]))
        return out

    def __str__(self) -> str:
        head = "       " + "".join(f"{('A' if u == 1 else str(u)):>4}" for u in UPCARDS)
        lines = [f"Basic strategy for {self.rules.summary()} (derived from expected values)", head]
        section = ""
        for name, label, codes in self.rows():
            if name != section:
                section = name
                lines.append(name.capitalize())
            lines.append(f"  {label:<5}" + "".join(f"{c:>4}" for c in codes))
        used = sorted({c for _n, _l, codes in self.rows() for c in codes}, key=list(CODES).index)
        lines.append("  ".join(f"{c} = {CODES[c]}" for c in used))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<Chart {self.rules.summary()}>"


def moves_for(cards: list[Card | int], rules: Rules) -> frozenset[Action]:
    """The moves ``rules`` offer a hand of ``cards`` before any other play (:func:`.advice.fresh_moves`)."""
    legal = {Action.STAND, Action.HIT}
    if len(cards) == 2:
        total, _soft, pair = _read([card_value(c) for c in cards])
        if doubles_on(rules.double_on, total):
            legal.add(Action.DOUBLE)
        if rules.surrender != "none":
            legal.add(Action.SURRENDER)
        same = pair is not None
        first, second = cards
        if same and rules.split_by == "rank" and isinstance(first, Card) and isinstance(second, Card):
            same = first.face == second.face
        if same and rules.max_split_hands > 1:
            legal.add(Action.SPLIT)
    return frozenset(legal)


def _read(values: list[int]) -> tuple[int, bool, int | None]:
    """A hand's point values as the chart reads them: ``(best total, soft, pair value or None)``."""
    hard = sum(values)
    total = total_of(hard, 1 in values)
    pair = values[0] if len(values) == 2 and values[0] == values[1] else None
    return total, total != hard, pair


def _by_upcard(codes: tuple[str, ...]) -> tuple[str, ...]:
    """A row's codes indexed by upcard value 1..10 (index 0 unused) instead of in :data:`UPCARDS` order."""
    by_up = [""] * 11
    for up, code in zip(UPCARDS, codes):
        by_up[up] = code
    return tuple(by_up)


#: The rule fields a chart depends on (the key of a shipped chart).
CHART_FIELDS = ("decks", "dealer_hits_soft_17", "naturals", "double_on", "double_after_split", "split_by",
                "max_split_hands", "resplit_aces", "hit_split_aces", "surrender", "hole_card", "dealer_peeks",
                "charlie_cards", "charlie_pays")

#: The shipped charts' file, next to this module.
CHARTS_FILE = "charts.json"


def chart_key(rules: Rules) -> str:
    """The rule fields a chart depends on (:data:`CHART_FIELDS`) as one canonical JSON string."""
    fields = {}
    for name in CHART_FIELDS:
        value = getattr(rules, name)
        fields[name] = value if value is None or isinstance(value, (bool, int, str)) else str(value)
    return json.dumps(fields, sort_keys=True)


@functools.lru_cache(maxsize=1)
def _shipped() -> dict[str, dict[str, dict[str, list[str]]]]:
    """The charts in ``charts.json`` by :func:`chart_key` (empty if the file is missing)."""
    try:
        text = resources.files(__package__).joinpath(CHARTS_FILE).read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return {}
    data = json.loads(text)
    return {entry["key"]: entry["rows"] for entry in data["charts"]}


@functools.lru_cache(maxsize=32)
def basic_strategy(rules: Rules) -> Chart:
    """Return the basic-strategy chart for ``rules``: shipped data for the presets, else derived (cached per rules).

    The shipped charts (:func:`shipped_rules`) are read from ``charts.json`` at once; any
    other rule set is derived by :func:`derive_chart` on first use.

    Args:
        rules: the table rules; the shoe is ``rules.decks`` full decks.

    Returns:
        The :class:`Chart`.
    """
    rows = _shipped().get(chart_key(rules))
    if rows is not None:
        return Chart(rules, *(({int(k): tuple(v) for k, v in rows[part].items()}) for part in ("hard", "soft", "pairs")))
    chart = derive_chart(rules)
    _DERIVED[rules] = chart
    while len(_DERIVED) > 32:
        del _DERIVED[next(iter(_DERIVED))]
    return chart


#: Charts :func:`basic_strategy` derived in this process, the 32 most recent (for :func:`chart_if_ready`).
_DERIVED: dict[Rules, Chart] = {}


def chart_if_ready(rules: Rules) -> Chart | None:
    """The chart for ``rules`` if it can be had at once (shipped, or derived before in this process); else None.

    Never derives one (that takes 6-16 s here): a hint shows basic strategy's play only
    when this gives a chart.
    """
    if chart_key(rules) in _shipped():
        return basic_strategy(rules)
    return _DERIVED.get(rules)


def derive_chart(rules: Rules) -> Chart:
    """Derive the basic-strategy chart for ``rules`` from exact expected values (no cache, no shipped data).

    Every cell compares exact EVs (:func:`.expected_values`, ``exact=True``) for the
    rules' full shoe less the upcard and the player's cards. Takes 6-16 s for the
    shipped rule sets here (benchmarks/README.md).

    Args:
        rules: the table rules.

    Returns:
        The :class:`Chart`.
    """
    shoe = full_shoe(rules.decks)
    no_das = dataclasses.replace(rules, double_after_split=False) if rules.double_after_split else None
    hard: dict[int, tuple[str, ...]] = {}
    soft: dict[int, tuple[str, ...]] = {}
    pairs: dict[int, tuple[str, ...]] = {}

    def evs_for(cards: tuple[int, int], up: int, use: Rules = rules, split: bool = True) -> dict[Action, float]:
        counts = without(shoe, (*cards, up))
        if not split:  # a hard row reads a pair as its total: no split EV to compute
            use = dataclasses.replace(use, max_split_hands=1, double_after_split=False, resplit_aces=False)
        evs = expected_values(cards, up, counts, use, exact=True)
        evs.pop(Action.INSURANCE, None)
        if use.surrender == "early" and use.dealer_peeks and forbidden_hole(up) is not None:
            evs = _unconditioned(evs, natural_chance(counts, up))
        return evs

    for total in range(4, 21):
        row = []
        for up in UPCARDS:
            combos = [(a, total - a) for a in range(2, 11) if a < total - a <= 10]
            if not combos:
                combos = [(total // 2, total // 2)]
            counts = without(shoe, (up,))
            summed: dict[Action, float] = {}
            weight_sum = 0.0
            for a, b in combos:
                weight = counts[a - 1] * (counts[b - 1] - (a == b))
                evs = evs_for((a, b), up, split=False)
                evs.pop(Action.SPLIT, None)
                for action, value in evs.items():
                    summed[action] = summed.get(action, 0.0) + weight * value
                weight_sum += weight
            row.append(code_for({a: v / weight_sum for a, v in summed.items()}))
        hard[total] = tuple(row)
    for total in range(13, 21):
        soft[total] = tuple(code_for(evs_for((1, total - 11), up)) for up in UPCARDS)
    for value in range(1, 11):
        row = []
        for up in UPCARDS:
            evs = evs_for((value, value), up)
            code = code_for(evs)
            if code == "P" and no_das is not None:
                plain = evs_for((value, value), up, no_das)
                if code_for(plain) != "P":
                    code = "Ph" if code_for({a: v for a, v in plain.items() if a is not Action.SPLIT})[0] in "HD" \
                        else "P"
            row.append(code)
        pairs[value] = tuple(row)
    return Chart(rules, hard, soft, pairs)


def shipped_rules() -> list[Rules]:
    """The rule sets whose charts are shipped in ``charts.json``.

    Every preset, ``Rules()`` (6 decks S17 DAS), 6 decks S17 without DAS and H17 with
    late surrender (the Wizard of Odds charts' games), two decks S17 DAS, and one deck
    S17 and H17 without DAS (the published single-deck charts' games).
    """
    found: dict[str, Rules] = {}
    extra = [Rules(), Rules(decks=2), Rules(decks=1, double_after_split=False),
             Rules(decks=1, dealer_hits_soft_17=True, double_after_split=False),
             Rules(double_after_split=False), Rules(dealer_hits_soft_17=True, surrender="late")]
    for rules in [Rules.preset(name) for name in Rules.preset_names()] + extra:
        found.setdefault(chart_key(rules), rules)
    return list(found.values())


def chart_rows(chart: Chart) -> dict[str, dict[str, list[str]]]:
    """A chart's rows as JSON-ready data (the layout of ``charts.json``)."""
    return {part: {str(k): list(v) for k, v in sorted(getattr(chart, part).items())}
            for part in ("hard", "soft", "pairs")}
