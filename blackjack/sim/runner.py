"""Run strategies through the real engine: :func:`simulate` and its unit of work, :func:`run_block`.

Every simulated round is a real :class:`~blackjack.round.Round` on a real
:class:`~blackjack.deck.Shoe` (finite, with its cut card), played through the engine's
unchecked tier (``Round(events=False)``, ``Round._apply_unchecked``): the same rule and
settlement code as the text game, minus the legality checks and event objects. Money is
exact ``int`` chips (:func:`chips_per_unit`).

Reproducibility: block ``k`` shuffles with ``random.Random(f"{seed}:{k}")`` and makes its
random choices with ``random.Random(f"{seed}:{k}:play")``, and blocks are merged in block
order (:class:`_Merger`), so a seed gives the same result, to the last bit, for any number
of jobs and on any executor. Every strategy in one call sees the same shoes (common random
numbers): a whole-shoe shuffle starts from the shoe's fixed order (:meth:`.Shoe.shuffle`).
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import gc
import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from ..actions import Action, Phase, Result
from ..player import Player
from ..rules import Rules
from ..table import Blackjack
from .stats import HAND_TYPES, Report, Tally, hand_type
from .strategies import ChartStrategy, Strategy, make_strategy, random_action

if TYPE_CHECKING:
    from ..hints.strategy import Chart

__all__ = ["BLOCK_ROUNDS", "MAX_HANDS", "MAX_JOBS", "Block", "check_simulation", "chips_per_unit", "no_money_note",
           "run_block", "simulate"]

#: Rounds per block when no sessions are asked for.
BLOCK_ROUNDS = 5_000
#: The most rounds one call plays per strategy: about six hours on one core of the test
#: machine, and 200,000 blocks. The blocks are made up front, so a limit keeps a typo
#: such as ``1e99`` from exhausting memory.
MAX_HANDS = 10 ** 9
#: The most worker processes: ``concurrent.futures`` on Linux starts them all at once,
#: so a typo such as ``--jobs 10000`` would otherwise fork ten thousand interpreters.
MAX_JOBS = 256
#: Sessions whose running net is kept (sampled) for plots.
PATHS_KEPT = 20
#: A bankroll no simulated seat can exhaust; ruin is tracked on the running net instead.
_ENDLESS = 10 ** 15

#: Final-hand events read off the result. Naturals are not among them: a natural pushed
#: by a dealer natural ends as a push, so they are counted at the deal (hand type "natural").
_TAG = {Result.BUST: "bust", Result.SURRENDER: "surrender"}
_OUTCOME = {result: (result.kind, _TAG.get(result)) for result in Result}
_EVENTS = {Action.DOUBLE: "double", Action.SPLIT: "split", Action.INSURANCE: "insurance"}


@dataclass(frozen=True)
class Block:
    """One unit of work: ``rounds`` rounds of one strategy on a fresh table and shoe.

    Attributes:
        rules: the table rules; a table for no money is played as flat one-unit bets
            (see :func:`no_money_note`).
        strategy: a strategy name (see :mod:`.strategies`).
        index: the block number; it picks the random streams.
        rounds: rounds to play.
        seed: the run's seed.
        players: seats, all playing ``strategy``.
        player_error: share of playing decisions taken at random instead.
        keep_path: record the running net for plots.
        chart: the strategy's basic-strategy chart, derived once by :func:`simulate` so
            that worker processes started by spawn or forkserver (macOS, Windows, Python
            3.14 on Linux) do not each spend a second deriving it again.
    """

    rules: Rules
    strategy: str
    index: int
    rounds: int
    seed: int
    players: int = 1
    player_error: float = 0.0
    keep_path: bool = False
    chart: Chart | None = field(default=None, compare=False, repr=False)


def run_block(block: Block, progress: Callable[[int], None] | None = None) -> Tally:
    """Play one block and return its :class:`Tally`.

    The garbage collector is paused while the block runs (a round makes no reference cycles
    that outlive it, and its passes cost about 2% of the time), and switched back on after.

    Args:
        block: what to play.
        progress: called now and then with the number of rounds just finished.

    Returns:
        The sums; ``interrupted`` is set when Ctrl-C stopped the block early (the
        rounds finished so far are kept).
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _play_block(block, progress)
    finally:
        if collecting:
            gc.enable()


def _play_block(block: Block, progress: Callable[[int], None] | None) -> Tally:
    """The body of :func:`run_block`."""
    rules = block.rules
    flat = not rules.wagering
    if flat:  # a table for no money: each hand is settled as a one-unit bet (see no_money_note)
        rules = dataclasses.replace(rules, wagering=True)
    play_rng = random.Random(f"{block.seed}:{block.index}:play")
    strategy = make_strategy(block.strategy, rules, play_rng, chart=block.chart)
    game = Blackjack([Player(f"seat {i + 1}") for i in range(block.players)], rules,
                     rng=random.Random(f"{block.seed}:{block.index}"))
    game.recycle_rounds = True  # one Round object serves every round of the block
    players = game.players
    for player in players:
        player.bankroll = _ENDLESS  # int money: see chips_per_unit
    seats = range(block.players)
    shoe = game.shoe
    unit = rules.min_bet
    chips = chips_per_unit(rules)
    most = int(rules.max_bet / unit * chips)  # the table maximum in chips, rounded down
    bets = {u: min(u * chips, most) for u in range(1, 65)}
    staked = {u: bet / chips for u, bet in bets.items()}  # the bet in units, after the table maximum
    counting = strategy.counting
    if counting:
        from ..hints.counting import count_from_unseen, true_count
    error = block.player_error
    tally = Tally()
    # Results are counted by their value: an Enum member hashes in Python code, its value string in C.
    by_result: dict[str, int] = {result.value: 0 for result in Result}
    by_action: dict[Action, int] = dict.fromkeys(Action, 0)
    types = tally.types
    for name in HAND_TYPES:
        types[name] = [0, 0.0, 0.0]
    # each pair of opening point values straight to its hand type's row [hands, net, bets]
    type_of = {(a, b): types[hand_type(a, b)] for a in range(1, 11) for b in range(1, 11)}
    by_count = tally.counts
    every = max(1, block.rounds // 500)
    path: list[float] = [0.0]
    cum = low = 0.0
    player_turn, insurance_phase = Phase.PLAYER_TURN, Phase.INSURANCE
    decide, insure, early_surrender = strategy.decide, strategy.insure, strategy.early_surrender
    insurance, decline, surrender = Action.INSURANCE, Action.DECLINE, Action.SURRENDER
    hit, stand = Action.HIT, Action.STAND
    keep_path = block.keep_path
    tc = 0.0
    bucket = 0
    sx = sb = sxx = sbb = sxb = su = suu = 0.0
    done = 0  # rounds finished and counted
    wagered = 0  # chips of one seat's initial bets
    before = [p.bankroll for p in players]
    seat_count = block.players
    one_seat = seat_count == 1
    first_player = players[0]
    money = before[0]
    one_row: list[float] = []
    rows: list[list[float]] = []
    units = 1
    bet = bets[1]
    size = staked[1]
    # One seat betting one unit every round: each round's bet b and each hand's stake are
    # 1.0, so u = x, b * b = b and x * b = x, and the sums su, suu, sxb, sb, sbb and the
    # types' bets follow from sx, sxx and the counts, to the last bit (every partial sum of
    # 1.0s is a whole number, exact in a float). The loop then keeps only those.
    lean = one_seat and not counting and size == 1.0
    try:
        for number in range(1, block.rounds + 1):
            if counting:
                if rules.reshuffle_every_round or shoe.cut_card_reached:
                    tc = 0.0  # the shoe is shuffled before this deal
                else:
                    tc = true_count(count_from_unseen(shoe.counts(), rules.decks), len(shoe))
                units = 1 if flat else strategy.units(tc)
                bucket = max(-10, min(10, math.floor(tc)))
                bet = bets[units]
                size = staked[units]
            rnd = game.new_round(events=False)
            if one_seat:
                rnd._place_bet_unchecked(0, bet)
                rnd.deal()
                opening = rnd.current_hand  # the seat's only hand, unless the deal settled it
                if opening is None:
                    opening = rnd.hands(0)[0]
                first, second = opening._cards  # the hand's own list: no Hand.__iter__ call
                one_row = type_of[first.value, second.value]
            else:
                for i in seats:
                    rnd._place_bet_unchecked(i, bet)
                rnd.deal()
                rows = []
                for i in seats:
                    first, second = rnd.hands(i)[0]
                    rows.append(type_of[first.value, second.value])
            up = rnd.dealer.hand._cards[0].value
            while (hand := rnd.current_hand) is not None:
                if counting:
                    unseen = rnd.unseen_counts()
                    tc = true_count(count_from_unseen(unseen, rules.decks), sum(unseen.values()))
                phase = rnd.phase
                if phase is player_turn:
                    action = decide(hand, up, rnd, tc)
                    if error and play_rng.random() < error:
                        action = random_action(rnd, play_rng)
                elif phase is insurance_phase:
                    action = insurance if insure(hand, up, rnd, tc) else decline
                else:
                    action = surrender if early_surrender(hand, up, rnd, tc) else decline
                rnd._apply_unchecked(action)
                if action is not hit and action is not stand:  # Enum hashing is Python code: skip the common two
                    by_action[action] += 1  # every action taken is counted here, as the round's history lists it
            for _seat, _hand, outcome in game.finish_round(record=False):
                by_result[outcome.result._value_] += 1
            if lean:  # the sums that differ from sx, sxx and the count when every bet is 1.0 (see lean above)
                money = first_player.bankroll
                x = (money - before[0]) / chips
                sx += x
                sxx += x * x
                one_row[0] += 1
                one_row[1] += x
                cum += x
                if cum < low:
                    low = cum
                done = number
                before[0] = money
                if keep_path and done % every == 0:
                    path.append(cum)
                if progress is not None and done % 1000 == 0:
                    progress(1000)
                continue
            if one_seat:
                money = first_player.bankroll
                net = (money - before[0]) / chips  # units; exact sums are kept in tally.net
                x = 0.0 + net
                u = net / size
                su += u
                suu += u * u
                row = one_row
                row[0] += 1
                row[1] += net
                row[2] += size
            else:
                x = 0.0
                for i in seats:
                    net = (players[i].bankroll - before[i]) / chips
                    x += net
                    u = net / size
                    su += u
                    suu += u * u
                    row = rows[i]
                    row[0] += 1
                    row[1] += net
                    row[2] += size
            b = size * seat_count
            sx += x
            sb += b
            sxx += x * x
            sbb += b * b
            sxb += x * b
            if counting:
                count_row = by_count.get(bucket)
                if count_row is None:
                    count_row = by_count[bucket] = [0, 0.0, 0.0]
                count_row[0] += 1
                count_row[1] += x
                count_row[2] += b
            cum += x
            if cum < low:
                low = cum
            done = number
            wagered += bet
            if one_seat:
                before[0] = money
            else:
                before = [p.bankroll for p in players]
            if keep_path and done % every == 0:
                path.append(cum)
            if progress is not None and done % 1000 == 0:
                progress(1000)
    except KeyboardInterrupt:
        tally.interrupted = True  # a round cut short is left out, money included
    if progress is not None:
        progress(done % 1000)
    if lean:
        su, suu, sxb = sx, sxx, sx
        sb = sbb = float(done)
        wagered = bet * done
        for row in types.values():
            row[2] = float(row[0])
    for kind in HAND_TYPES:
        if not types[kind][0]:
            del types[kind]  # a hand type never dealt has no row, as before the rows were made up front
    results = tally.results
    for result in Result:
        n = by_result[result.value]
        for tag in _OUTCOME[result]:
            if tag is not None and n:
                results[tag] = results.get(tag, 0) + n
    for action, name in _EVENTS.items():
        if by_action[action]:
            results[name] = by_action[action]
    naturals = types.get("natural")
    if naturals is not None:  # initial hands dealt ace and ten-card, paid or pushed
        results["natural"] = int(naturals[0])
    tally.rounds = done
    tally.seat_rounds = done * block.players
    tally.sx, tally.sb, tally.sxx, tally.sbb, tally.sxb, tally.su, tally.suu = sx, sb, sxx, sbb, sxb, su, suu
    tally.net = Fraction(sum(money - _ENDLESS for money in before), chips) * unit
    tally.wagered = Fraction(wagered * block.players, chips) * unit
    tally.sessions.append((low, cum))
    if keep_path:
        tally.paths.append(path)
        tally.path_steps.append(every)
    return tally


def no_money_note(rules: Rules) -> str | None:
    """Say how the simulator settles a table played for no money (``rules.wagering`` False), else None.

    Without money every result would be 0, so the simulator stakes each hand one unit
    (``rules.min_bet``, as the table does), bets flat whatever the strategy's ramp, and
    settles at the table's payouts. On a table with no naturals, doubles, splits or
    surrender (the ``cs111`` game) that is even money: a win is +1 unit, a loss -1, and
    the EV per initial bet is the win rate less the loss rate.

    >>> no_money_note(Rules.preset("cs111"))
    'settled as one-unit bets at even money'
    >>> no_money_note(Rules.preset("vegas")) is None
    True
    """
    if rules.wagering:
        return None
    even = (not rules.optional_moves
            and (not rules.naturals or (rules.blackjack_pays == 1 and rules.thunderjack_pays is None))
            and (rules.charlie_cards is None or rules.charlie_pays == 1))
    odds = "even money" if even else "the table's payouts"
    return f"settled as one-unit bets at {odds}"


def chips_per_unit(rules: Rules) -> int:
    """Return how many ``int`` chips the simulator stakes per betting unit (``rules.min_bet``).

    The simulator bets whole chips so that the round's money stays ``int`` (see
    :func:`blackjack.money.match_stake`), which is several times faster than
    ``Fraction`` arithmetic and just as exact. A chip is ``min_bet / chips`` credits,
    chosen so that every payout of a one-unit bet is a whole number of chips: halves
    for surrender and insurance, and the natural, Charlie and Thunderjack odds.

    >>> chips_per_unit(Rules.preset("vegas")), chips_per_unit(Rules.preset("single_deck"))
    (2, 10)
    """
    chips = 2
    for odds in (rules.blackjack_pays, rules.charlie_pays, rules.thunderjack_pays):
        if odds is not None:
            chips = math.lcm(chips, Fraction(odds).denominator)
    return chips


def _rules(rules: Rules | str, penetration: Fraction | float | str | None) -> Rules:
    chosen = Rules.load(rules) if isinstance(rules, str) else rules
    if penetration is not None:
        value = Fraction(str(penetration)) if isinstance(penetration, float) else Fraction(penetration)
        chosen = dataclasses.replace(chosen, penetration=value, cut_card_from_back=None)
    return chosen


def check_simulation(strategies: str | Sequence[str] = "basic", rules: Rules | str = "vegas", *,
                     hands: int = 100_000, jobs: int = 1, players: int = 1,
                     penetration: Fraction | float | str | None = None, bankroll: float | None = None,
                     sessions: int | None = None, player_error: float = 0.0,
                     target_ror: float = 0.05) -> tuple[list[str], Rules, dict[str, Strategy]]:
    """Check the arguments :func:`simulate` would get, without playing a round.

    The command line calls this before a run, so that a bad option is a usage error
    (exit status 2) and only a failure while playing is a run's failure. It takes the
    arguments of :func:`simulate` of the same names and builds each strategy once (a
    ``module:function`` policy is imported).

    Returns:
        The strategy names (each once, in order), the table's rules and each strategy built.

    Raises:
        ValueError: an unknown strategy or preset, or an argument out of range (the
            messages of :func:`simulate`).
        BlackjackError, OSError: a rules file that cannot be read or is not valid.
    """
    names = list(dict.fromkeys([strategies] if isinstance(strategies, str) else strategies))
    table_rules = _rules(rules, penetration)
    if not names:
        raise ValueError("give at least one strategy")
    if not 1 <= hands <= MAX_HANDS:
        raise ValueError(f"hands must be 1 to {MAX_HANDS:,}, got {hands:,}")
    if bankroll is not None and not 0 < bankroll < math.inf:
        raise ValueError(f"the bankroll must be a positive number of betting units, got {bankroll}")
    if not 1 <= players <= table_rules.max_players:
        raise ValueError(f"players must be 1..{table_rules.max_players} for these rules, got {players}")
    if not 1 <= jobs <= MAX_JOBS:
        raise ValueError(f"jobs must be 1 to {MAX_JOBS}, got {jobs}")
    if not 0 <= player_error <= 1:
        raise ValueError(f"player error must be between 0 and 1, got {player_error}")
    if sessions is not None and not 1 <= sessions <= hands:
        raise ValueError(f"sessions must be 1..hands, got {sessions}")
    if not 0 < target_ror < 1:
        raise ValueError(f"target risk of ruin must be between 0 and 1, got {target_ror}")
    built = {name: make_strategy(name, table_rules, random.Random(0)) for name in names}  # fail fast on a bad name
    return names, table_rules, built


def simulate(strategies: str | Sequence[str] = "basic", rules: Rules | str = "vegas", *, hands: int = 100_000,
             seed: int = 0, jobs: int = 1, players: int = 1, penetration: Fraction | float | str | None = None,
             bankroll: float | None = None, sessions: int | None = None, player_error: float = 0.0,
             target_ror: float = 0.05, progress: Callable[[int], None] | None = None,
             executor: concurrent.futures.Executor | None = None) -> list[Report]:
    """Simulate strategies on the engine and return one :class:`~.stats.Report` per strategy.

    Args:
        strategies: a strategy name or several (see :mod:`blackjack.sim.strategies`).
        rules: a :class:`Rules` value, a preset name or a rules TOML file (:meth:`Rules.load`).
        hands: rounds per strategy, 1 to :data:`MAX_HANDS`.
        seed: the run's seed; the same seed gives the same result for any ``jobs`` or executor.
        jobs: worker processes (``concurrent.futures``), 1 to :data:`MAX_JOBS`; 1 runs in
            this process. No more are started than there are blocks to play. Ignored when
            ``executor`` is given.
        players: seats at the table, all playing the strategy (1..rules.max_players).
        penetration: replace the rules' penetration (share of the shoe dealt, 0..1).
        bankroll: starting bankroll in betting units for the risk of ruin (more than 0).
        sessions: split the run into this many sessions of ``hands // sessions`` rounds,
            each with a fresh shoe and the full bankroll (default ``ceil(hands / 5000)``).
        player_error: share of playing decisions taken at random (0..1).
        target_ror: the risk of ruin the "bankroll needed" figure aims at.
        progress: called with rounds finished, for a progress bar.
        executor: any :class:`concurrent.futures.Executor` to run the blocks on, e.g. a
            Dask cluster's ``distributed.Client(address).get_executor()`` or a
            ``ThreadPoolExecutor``; its workers must be able to import ``blackjack``. The
            caller owns it: it is not shut down here. ``None`` (the default) runs the
            blocks in this process, or in ``jobs`` processes of a pool made for this call.

    Cost:
        Time grows linearly with ``hands``, ``players`` and the strategies given; with
        ``basic`` one core plays about 89,000 initial hands a second on the shared test
        machine, and ``jobs`` divide the time by up to their number. Memory stays flat:
        two floats a session and at most ``PATHS_KEPT`` bankroll paths are kept.
        docs/simulator.md ("Speed and cost", "Beyond one machine") gives the measurements.

    Returns:
        The reports, in the order of ``strategies``. When Ctrl-C interrupts the run the
        rounds finished so far are reported, with ``interrupted`` set.

    Raises:
        ValueError: an unknown strategy or preset, or an argument out of range.
    """
    names, table_rules, built = check_simulation(strategies, rules, hands=hands, jobs=jobs, players=players,
                                                 penetration=penetration, bankroll=bankroll, sessions=sessions,
                                                 player_error=player_error, target_ror=target_ror)
    charts: dict[str, Chart | None] = {
        name: strategy.chart if isinstance(strategy, ChartStrategy) else None for name, strategy in built.items()}
    if sessions is None:
        count = math.ceil(hands / BLOCK_ROUNDS)
        last = hands - BLOCK_ROUNDS * (count - 1)
    else:
        count = sessions

    def size(k: int) -> int:
        if sessions is None:
            return BLOCK_ROUNDS if k < count - 1 else last
        return hands // sessions + (1 if k < hands % sessions else 0)

    blocks = (Block(table_rules, name, k, size(k), seed, players, player_error, k < PATHS_KEPT, charts[name])
              for name in names for k in range(count))  # made as they are sent: 200,000 blocks at 1e9 hands
    merged = {name: Tally() for name in names}
    _run(blocks, count * len(names), jobs, progress, merged, executor)
    label = f"{table_rules.name}: {table_rules.summary()}"
    note = no_money_note(table_rules)
    if note is not None:
        label += f" ({note})"
    reports = []
    for name in names:
        strategy_name = built[name].name
        if player_error:
            strategy_name += f" ({player_error:.0%} errors)"
        reports.append(Report.from_tally(merged[name], strategy_name, label, bankroll=bankroll,
                                         target_ror=target_ror))
    return reports


class _Merger:
    """Merge block tallies into one tally per strategy, in block order, as they come in.

    A tally that arrives before the blocks ahead of it waits here until they are in, so
    the float sums are added in the same order for any number of jobs (the same seed
    gives the same figures to the last bit) while at most the blocks in flight are held.
    """

    def __init__(self, merged: dict[str, Tally], count: int) -> None:
        self.merged = merged
        self.count = count  # blocks per strategy
        self.next = dict.fromkeys(merged, 0)  # per strategy, the next block index to merge
        self.waiting: dict[tuple[str, int], Tally] = {}

    def add(self, block: Block, tally: Tally) -> None:
        """Take one block's tally; merge it and every waiting one that now follows in order."""
        name = block.strategy
        self.waiting[(name, block.index)] = tally
        while (ready := self.waiting.pop((name, self.next[name]), None)) is not None:
            self.merged[name].merge(ready)
            self.next[name] += 1

    def close(self) -> None:
        """Mark each strategy with a block not merged (Ctrl-C) interrupted."""
        for name, tally in self.merged.items():
            if self.next[name] < self.count:
                tally.interrupted = True


def _run(blocks: Iterable[Block], total: int, jobs: int, progress: Callable[[int], None] | None,
         merged: dict[str, Tally], executor: concurrent.futures.Executor | None = None) -> None:
    """Play ``total`` blocks here, in ``jobs`` processes, or on ``executor``; merge them into ``merged``.

    ``merged`` maps each strategy to the tally its blocks add up to. On Ctrl-C the
    blocks finished so far (up to the first one missing, for each strategy) are merged
    and every tally is marked interrupted.
    """
    merger = _Merger(merged, total // len(merged))
    if executor is None and jobs == 1:
        for block in blocks:
            tally = run_block(block, progress)
            merger.add(block, tally)
            if tally.interrupted:
                break
        merger.close()
        return
    if executor is not None:
        _run_on(executor, blocks, merger, progress, window=4 * _workers(executor, jobs))
        return
    with concurrent.futures.ProcessPoolExecutor(max_workers=min(jobs, total)) as pool:
        _run_on(pool, blocks, merger, progress, window=4 * min(jobs, total))


def _workers(executor: concurrent.futures.Executor, default: int) -> int:
    """How many blocks ``executor`` runs at once, as far as it says (a Dask cluster's threads); else ``default``."""
    count = getattr(executor, "_max_workers", None)  # ProcessPoolExecutor, ThreadPoolExecutor
    if isinstance(count, int) and count > 0:
        return count
    client = getattr(executor, "_client", None)  # distributed's ClientExecutor
    try:
        threads = sum(client.nthreads().values()) if client is not None else 0
    except Exception:  # a client that cannot say: fall back
        threads = 0
    return max(threads, default, 2)


def _run_on(executor: concurrent.futures.Executor, blocks: Iterable[Block], merger: _Merger,
            progress: Callable[[int], None] | None, window: int) -> None:
    """Send blocks to ``executor``, at most ``window`` at a time, and merge their tallies as they come back."""
    pending: dict[concurrent.futures.Future[Tally], Block] = {}
    todo = iter(blocks)
    try:
        while True:
            for block in todo:
                pending[executor.submit(run_block, block)] = block
                if len(pending) >= window:
                    break
            if not pending:
                break
            finished, _ = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in finished:
                block = pending.pop(future)
                merger.add(block, future.result())
                if progress is not None:
                    progress(block.rounds)
    except KeyboardInterrupt:
        _cancel_waiting(pending)
        for future, block in pending.items():
            if future.done() and not future.cancelled() and future.exception() is None:
                merger.add(block, future.result())
        merger.close()
        for tally in merger.merged.values():
            tally.interrupted = True
    except BaseException:  # a failed block fails the run: the blocks still waiting are not started
        _cancel_waiting(pending)
        raise
    else:
        merger.close()


def _cancel_waiting(futures: Iterable[concurrent.futures.Future[Tally]]) -> None:
    """Cancel the blocks no worker has started; the pool's exit then waits only for the running ones.

    ``pool.shutdown(cancel_futures=True)`` is not enough inside a ``with`` block: the exit's
    own ``shutdown()`` resets that flag before the pool's manager thread acts on it.
    """
    for future in futures:
        future.cancel()
