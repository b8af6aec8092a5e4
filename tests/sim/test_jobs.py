"""``--jobs``: a failed block stops the run without playing the blocks no worker has started."""

from __future__ import annotations

import multiprocessing
import os
import time
from pathlib import Path

import pytest

from blackjack import Rules
from blackjack.errors import BlackjackError
from blackjack.sim import runner
from blackjack.sim.stats import Tally

STARTED = "BJ_TEST_STARTED_BLOCKS"


def failing_first_block(block: runner.Block, progress: object = None) -> Tally:
    """Block 0 fails at once; every other block notes that it started and takes a moment."""
    if block.index == 0:
        raise BlackjackError("block 0 failed")
    with open(os.environ[STARTED], "a", encoding="utf-8") as log:
        log.write(f"{block.index}\n")
    time.sleep(0.05)
    return Tally(rounds=block.rounds)


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="the fake block needs fork")
def test_a_failed_block_cancels_the_blocks_not_yet_started(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before, the pool's exit reset shutdown(cancel_futures=True) and all 39 other blocks were played
    (about 20 s for 2 million hands) before the error was seen; now only those already running finish."""
    log = tmp_path / "started.txt"
    log.touch()
    monkeypatch.setenv(STARTED, str(log))
    monkeypatch.setattr(runner, "run_block", failing_first_block)
    rules = Rules.preset("vegas")
    blocks = [runner.Block(rules, "always-stand", k, 100, 1) for k in range(40)]
    with pytest.raises(BlackjackError, match="block 0 failed"):
        runner._run(iter(blocks), len(blocks), 2, None, {"always-stand": Tally()})
    started = log.read_text(encoding="utf-8").split()
    assert len(started) < 20, f"{len(started)} of the 39 other blocks were started after block 0 failed"
