"""``simulate(executor=...)`` and ``--dask``: any ``concurrent.futures.Executor`` runs the blocks, with the
same figures as ``--jobs 1`` for a seed, and tallies merged as they come back."""

from __future__ import annotations

import concurrent.futures
import sys
from collections.abc import Callable
from typing import Any

import pytest

from blackjack import Rules
from blackjack.sim import simulate
from blackjack.sim import runner
from blackjack.sim.__main__ import main
from blackjack.sim.stats import Tally

#: Small but several blocks per strategy, sessions of unequal size, a counting strategy.
RUN: dict[str, Any] = dict(strategies=["basic", "hi-lo"], rules="vegas", hands=3_001, seed=12, sessions=7,
                           bankroll=40)


def dicts(reports: list[Any]) -> list[dict[str, Any]]:
    return [{**r.as_dict(), "paths": r.paths, "sessions": r.session_results} for r in reports]


class CountingExecutor(concurrent.futures.Executor):
    """Runs each block at once in this thread and notes how many were sent before their results were taken."""

    def __init__(self) -> None:
        self.sent = 0
        self.futures: list[concurrent.futures.Future[Any]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        self.sent += 1
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        future.set_result(fn(*args, **kwargs))
        self.futures.append(future)
        return future


def test_a_thread_pool_gives_the_figures_of_one_job() -> None:
    one = simulate(**RUN)
    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        pooled = simulate(**RUN, executor=pool)
    assert dicts(pooled) == dicts(one)


def test_blocks_are_sent_a_few_at_a_time_not_all_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """200,000 blocks at 1e9 hands: the executor gets a window of them, refilled as results come back."""
    outstanding: list[int] = []
    real_wait = concurrent.futures.wait

    def wait(futures: Any, **kwargs: Any) -> Any:
        outstanding.append(len(futures))
        return real_wait(futures, **kwargs)
    monkeypatch.setattr(concurrent.futures, "wait", wait)
    executor = CountingExecutor()
    executor._max_workers = 2  # type: ignore[attr-defined]
    simulate("always-stand", hands=30 * 100, sessions=30, executor=executor)
    assert executor.sent == 30
    assert max(outstanding) <= 8  # four per worker


def test_tallies_arriving_out_of_order_are_merged_in_block_order() -> None:
    """Float sums are added in block order whatever order the blocks finish in: the same bits for any jobs."""
    rules = Rules.preset("vegas")
    blocks = [runner.Block(rules, "basic", k, 300, 5) for k in range(4)]
    tallies = [runner.run_block(b) for b in blocks]
    in_order: dict[str, Tally] = {"basic": Tally()}
    shuffled: dict[str, Tally] = {"basic": Tally()}
    ordered, jumbled = runner._Merger(in_order, 4), runner._Merger(shuffled, 4)
    for k in range(4):
        ordered.add(blocks[k], tallies[k])
    for k in (2, 3, 0, 1):
        jumbled.add(blocks[k], tallies[k])
        assert len(jumbled.waiting) <= 2
    jumbled.close()
    assert shuffled == in_order and not shuffled["basic"].interrupted


def test_a_dask_local_cluster_gives_the_figures_of_one_job() -> None:
    distributed = pytest.importorskip("distributed")
    one = simulate(**RUN)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) \
            as cluster, distributed.Client(cluster) as client:
        on_dask = simulate(**RUN, executor=client.get_executor(pure=False))
    assert dicts(on_dask) == dicts(one)


def test_cli_without_dask_says_so_in_one_line(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(SystemExit) as done:  # refused before the run, as a usage mistake
        main(["--hands", "100", "--quiet", "--dask", "tcp://127.0.0.1:8786"])
    assert done.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith("blackjack-kit-sim: error: --dask needs dask.distributed") and 'pip install "blackjack-kit[dask]"' in err


def test_cli_refuses_jobs_with_dask(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--hands", "100", "--quiet", "--jobs", "2", "--dask", "tcp://127.0.0.1:8786"])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert "not both" in err and err.endswith("(see --help)\n") and err.count("\n") == 1


def test_cli_runs_on_a_dask_scheduler(capsys: pytest.CaptureFixture[str]) -> None:
    """``--dask ADDRESS`` prints the same report as ``--jobs 1``."""
    distributed = pytest.importorskip("distributed")
    args = ["--hands", "2000", "--quiet", "--strategy", "basic", "never-bust", "--seed", "4"]
    assert main(args) == 0
    alone = capsys.readouterr().out
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None,
                                  scheduler_port=0) as cluster:
        assert main([*args, "--dask", cluster.scheduler_address]) == 0
    assert capsys.readouterr().out == alone


def test_cli_a_bad_scheduler_address_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed")
    assert main(["--hands", "100", "--quiet", "--dask", "nonsense"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith("blackjack-kit-sim: error: cannot reach the Dask scheduler at nonsense")


def test_ctrl_c_on_an_executor_reports_the_blocks_finished_in_order() -> None:
    """Ctrl-C while blocks are out: the blocks finished before the first missing one are reported, marked
    interrupted; nothing is merged past a gap."""
    class Interrupting(CountingExecutor):
        def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
            if self.sent == 3:
                raise KeyboardInterrupt
            return super().submit(fn, *args, **kwargs)
    executor = Interrupting()
    executor._max_workers = 4  # type: ignore[attr-defined]  # a window of 16: the 4th submit comes first
    [report] = simulate("always-stand", hands=10 * 200, sessions=10, executor=executor)
    assert report.interrupted and report.rounds == 3 * 200


def test_ctrl_c_in_one_job_keeps_the_rounds_finished() -> None:
    """Ctrl-C inside a block (here raised by the progress callback): that block's finished rounds are kept, the
    strategies not reached are reported empty, all marked interrupted."""
    calls = []

    def progress(rounds: int) -> None:
        calls.append(rounds)
        if sum(calls) == 3000 and len(calls) == 3:
            raise KeyboardInterrupt
    basic, stand = simulate(["basic", "always-stand"], hands=20_000, progress=progress)
    assert basic.interrupted and basic.rounds == 3000
    assert stand.interrupted and stand.rounds == 0
