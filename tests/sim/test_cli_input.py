"""Bad input to the simulator gets one line and no wasted run: counts, limits, output paths, a user's strategy."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pytest

from blackjack.errors import BlackjackError
from blackjack.sim import simulate
from blackjack.sim.__main__ import main
from blackjack.sim.runner import MAX_HANDS, MAX_JOBS


def one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    """The run's stderr, checked to be one ``blackjack-kit-sim: error:`` line, with nothing on stdout."""
    out, err = capsys.readouterr()
    assert out == "", "bad input must be refused before any simulation prints a report"
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def usage_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run ``main(argv)``, check it is refused as a usage mistake before any run, and return its stderr line.

    A usage mistake exits with status 2 and one ``blackjack-kit-sim: error: ... (see --help)`` line.
    """
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2
    err = one_line_error(capsys)
    assert err.startswith("blackjack-kit-sim: error: ") and err.endswith(" (see --help)\n"), err
    return err


class TestCounts:
    @pytest.mark.parametrize(("text", "value"), [("2000", 2000), ("2_000", 2000), ("2e3", 2000), ("1.5e3", 1500)])
    def test_counts_in_every_spelling(self, text: str, value: int, capsys: pytest.CaptureFixture[str]) -> None:
        """``--hands`` reads plain, underscored and exponent forms (shown back in the report's rounds line)."""
        assert main(["--hands", text, "--quiet", "--strategy", "always-stand"]) == 0
        assert f"{value:,}" in capsys.readouterr().out

    @pytest.mark.parametrize(("text", "words"), [
        ("1e99", "at most 1,000,000,000"), ("1e999999999", "not a whole number"), (str(MAX_HANDS + 1), "at most"),
        ("2.5e0", "not a whole number"), ("2.5", "not a whole number"), ("nan", "not a whole number"),
        ("0", "at least 1"), ("ten", "not a whole number"),
    ])
    def test_bad_counts_are_one_line(self, text: str, words: str, capsys: pytest.CaptureFixture[str]) -> None:
        """A count that is too big, fractional or not a number exits 2 at once (1e99 used to overflow)."""
        with pytest.raises(SystemExit) as done:
            main(["--hands", text])
        assert done.value.code == 2
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1 and "Traceback" not in err, err

    def test_simulate_refuses_more_than_max_hands(self) -> None:
        with pytest.raises(ValueError, match="hands must be 1 to 1,000,000,000"):
            simulate("basic", hands=MAX_HANDS + 1)


class TestLimits:
    @pytest.mark.parametrize("bankroll", [0.0, -1.0, math.nan, math.inf])
    def test_bankroll_must_be_positive_and_finite(self, bankroll: float) -> None:
        """A bankroll of 0, below 0 or not a number used to report a 100% (or 0%) risk of ruin."""
        with pytest.raises(ValueError, match="bankroll must be a positive number"):
            simulate("basic", hands=100, bankroll=bankroll)

    def test_cli_negative_bankroll_is_one_line(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert "bankroll must be a positive number" in usage_error(["--hands", "100", "--quiet", "--bankroll", "-1"],
                                                                   capsys)

    def test_jobs_are_limited(self, capsys: pytest.CaptureFixture[str]) -> None:
        """Thousands of jobs would fork thousands of interpreters at once; they are refused in one line."""
        with pytest.raises(ValueError, match=f"jobs must be 1 to {MAX_JOBS}"):
            simulate("basic", hands=100, jobs=MAX_JOBS + 1)
        assert "jobs must be 1 to" in usage_error(["--hands", "100", "--quiet", "--jobs", "10000"], capsys)


class TestOutputPaths:
    @pytest.mark.parametrize("option", ["--json", "--csv"])
    def test_missing_folder_fails_before_the_run(self, option: str, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
        """A results file in a folder that does not exist is refused before simulating, not after."""
        target = tmp_path / "no such folder" / "results.out"
        err = usage_error(["--hands", "100", "--quiet", option, str(target)], capsys)
        assert f"{option}: cannot write {target}: there is no folder" in err
        assert not target.parent.exists()

    def test_a_folder_is_not_a_results_file(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        assert "is a folder" in usage_error(["--hands", "100", "--quiet", "--json", str(tmp_path)], capsys)

    @pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="needs the plot extra")
    def test_plot_format_is_checked_before_the_run(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """``--plot x.txt`` names no image format: refused at once, listing the formats matplotlib writes."""
        target = tmp_path / "x.txt"
        err = usage_error(["--hands", "100", "--quiet", "--plot", str(target)], capsys)
        assert "not .txt" in err and "png" in err
        assert not target.exists()


class TestUserStrategy:
    @pytest.fixture
    def policies(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
        """A module ``my_policies`` on sys.path: ``crash`` raises inside the user's code, ``junk`` returns a str."""
        (tmp_path / "my_policies.py").write_text(
            "def crash(view):\n"
            "    table = {}\n"
            "    return table['hit']\n"
            "\n"
            "def junk(view):\n"
            "    return 'hit'\n", encoding="utf-8")
        monkeypatch.syspath_prepend(str(tmp_path))
        return "my_policies"

    def test_an_exception_in_the_users_code_is_one_line_with_where(self, policies: str,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
        """The user's KeyError reaches them as one line naming the error, their file and line, not a traceback."""
        assert main(["--hands", "100", "--quiet", "--strategy", f"{policies}:crash"]) == 1
        err = one_line_error(capsys)
        assert "my_policies:crash raised KeyError: 'hit' (my_policies.py, line 3)" in err

    def test_a_failing_worker_fails_the_run_in_one_line(self, policies: str,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
        """With --jobs 2 the error comes back from the worker process as the same one line."""
        assert main(["--hands", "20000", "--quiet", "--jobs", "2", "--strategy", f"{policies}:crash"]) == 1
        assert "raised KeyError: 'hit' (my_policies.py, line 3)" in one_line_error(capsys)

    def test_the_error_keeps_its_cause_for_a_debugger(self, policies: str) -> None:
        with pytest.raises(BlackjackError, match="raised KeyError") as caught:
            simulate(f"{policies}:crash", hands=10)
        assert isinstance(caught.value.__cause__, KeyError)

    def test_an_illegal_answer_is_one_line(self, policies: str, capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["--hands", "100", "--quiet", "--strategy", f"{policies}:junk"]) == 1
        assert "returned 'hit', which is not legal now" in one_line_error(capsys)


def test_rules_takes_a_file_as_in_the_game_and_the_gui(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--rules house.toml`` plays the file's rules, as ``python -m blackjack`` and ``python -m gui`` do."""
    house = tmp_path / "house.toml"
    house.write_text('decks = 2\nblackjack_pays = "6/5"\n', encoding="utf-8")
    assert main(["--hands", "100", "--quiet", "--rules", str(house)]) == 0
    assert "Rules: house: 2D" in capsys.readouterr().out


def test_simulate_takes_a_rules_file_too(tmp_path: Path) -> None:
    """``simulate(rules=...)`` reads a string the way ``--rules`` does (Rules.load): a preset or a TOML file."""
    house = tmp_path / "house.toml"
    house.write_text("decks = 2\n", encoding="utf-8")
    assert simulate("basic", str(house), hands=100)[0].rules.startswith("house: 2D")


def test_a_reader_that_stops_early_ends_the_run_quietly() -> None:
    """``blackjack-kit-sim ... | head -2``: the report's write to a closed pipe ends the run with status 0 and no
    "error: [Errno 32] Broken pipe" line, as the text game does."""
    import subprocess
    import sys
    process = subprocess.Popen([sys.executable, "-m", "blackjack.sim", "--hands", "500", "--quiet",
                                "--strategy", "always-stand"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # the reader is gone before the report is written
    err = process.stderr.read().decode()
    assert process.wait(timeout=120) == 0 and err == "", err


@pytest.mark.parametrize(("text", "words"), [
    ("a = " + "[" * 1000 + "]" * 1000 + "\n", "nests lists or tables too deeply"),
    ("cut_card_from_back = 5\n", "cut_card_from_back must be a list of two whole numbers"),
    ("decks = 1979-05-27\n", "decks must be a whole number, got the date 1979-05-27"),
])
@pytest.mark.parametrize("option", ["--rules", "--rules-file"])
def test_a_broken_rules_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str,
                                         text: str, words: str) -> None:
    """A rules file nested 1000 deep was a RecursionError traceback; wrong kinds of value spoke Python."""
    path = tmp_path / "broken.toml"
    path.write_text(text, encoding="utf-8")
    assert words in usage_error(["--hands", "100", "--quiet", option, str(path)], capsys)


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_as_the_rules_file_is_refused_at_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A FIFO named by --rules used to block the simulator for ever, waiting for a writer."""
    import os
    import threading
    fifo = tmp_path / "rules.toml"
    os.mkfifo(fifo)
    status: list[object] = []

    def run() -> None:
        try:
            status.append(main(["--hands", "100", "--quiet", "--rules", str(fifo)]))
        except SystemExit as done:
            status.append(done.code)
    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(20)
    if not status:  # the old loader is blocked in open(): give it a writer so the thread ends
        with open(fifo, "w", encoding="utf-8"):
            pass
        worker.join(20)
    assert status == [2]
    assert "not a regular file" in one_line_error(capsys)
