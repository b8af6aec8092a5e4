"""Hostile input to ``python -m blackjack.sim`` (issue 28): each one gets one line, and usage mistakes exit 2.

A usage mistake (a bad option value, found by the parser or by the checks made before the
run) exits with status 2 and one ``blackjack-kit-sim: error: ... (see --help)`` line; status 1
is for a failure while running; nothing is simulated for a mistake.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from blackjack.sim import simulate
from blackjack.sim.__main__ import DASK_NEEDS_DISTRIBUTED, main
from blackjack.sim.output import CSV_FIELDS, MIN_ROR_SESSIONS, PLOT_NEEDS_MATPLOTLIB, text_report, to_csv

ROOT = Path(__file__).resolve().parents[2]
HAS_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None
QUICK = ["--hands", "100", "--quiet", "--strategy", "always-stand"]


def sim(*args: str, stdout: object = subprocess.PIPE) -> subprocess.CompletedProcess[str]:
    """Run ``python -m blackjack.sim ARGS`` from the worktree in a fresh interpreter."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "blackjack.sim", *args], cwd=ROOT, env=env, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=120, check=False)


def usage_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run ``main(argv)``; check it is a usage mistake refused before the run; return its stderr line."""
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2
    out, err = capsys.readouterr()
    assert out == "", "a usage mistake is refused before anything is simulated"
    assert err.count("\n") == 1 and "Traceback" not in err and "[Errno" not in err, err
    assert err.startswith("blackjack-kit-sim: error: ") and err.endswith(" (see --help)\n"), err
    return err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_a_full_stdout_ends_with_one_line_and_status_1() -> None:
    """``> /dev/full`` used to end with "Exception ignored ..." and status 120 from the interpreter's last flush."""
    with open("/dev/full", "w", encoding="utf-8") as full:
        done = sim(*QUICK, stdout=full)
    assert done.returncode == 1, done.stderr
    assert done.stderr == "blackjack-kit-sim: error: cannot write the report to stdout: no space left on device\n"


def test_a_closed_stdout_still_ends_quietly() -> None:
    """A reader that goes away (``| head``) is not a failure: status 0 and nothing on stderr, as before."""
    process = subprocess.Popen([sys.executable, "-m", "blackjack.sim", *QUICK], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    err = process.stderr.read().decode()
    assert process.wait(timeout=120) == 0 and err == "", err


@pytest.mark.skipif(not HAS_MATPLOTLIB, reason="needs the plot extra")
class TestPlotTarget:
    @pytest.mark.parametrize(("target", "words"), [
        ("", "--plot: no file name given"),
        ("/dev/full", "--plot: cannot write /dev/full: it is not a regular file"),
        ("{tmp}/no such folder/x.png", "--plot: cannot write {tmp}/no such folder/x.png: there is no folder"),
        ("{tmp}", "--plot: cannot write {tmp}: it is a folder"),
    ])
    def test_a_bad_target_is_refused_before_the_run(self, target: str, words: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
        """'' and /dev/full used to run and exit 0 with no plot; each is now one line naming --plot and the file."""
        if target == "/dev/full" and not Path(target).exists():
            pytest.skip("no /dev/full on this system")
        target, words = target.replace("{tmp}", str(tmp_path)), words.replace("{tmp}", str(tmp_path))
        assert words in usage_error([*QUICK, "--plot", target], capsys)
        assert not (tmp_path / "no such folder").exists()

    @pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="no /proc on this system")
    def test_a_folder_that_takes_no_files_is_refused_in_words(self, capsys: pytest.CaptureFixture[str]) -> None:
        """--plot /proc/x.png ran the whole simulation, then printed a raw "[Errno 2]"; now it is refused at once."""
        err = usage_error([*QUICK, "--plot", "/proc/x.png"], capsys)
        assert "--plot: cannot write /proc/x.png: " in err and not Path("/proc/x.png").exists()

    def test_the_process_exits_2(self, tmp_path: Path) -> None:
        done = sim(*QUICK, "--plot", str(tmp_path / "missing" / "x.png"))
        assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1, done.stderr

    def test_a_good_target_gets_its_plot_and_no_temporary_file(self, tmp_path: Path) -> None:
        target = tmp_path / "paths.png"
        done = sim(*QUICK, "--plot", str(target))
        assert done.returncode == 0, done.stderr
        assert target.read_bytes().startswith(b"\x89PNG") and [p.name for p in tmp_path.iterdir()] == ["paths.png"]


@pytest.mark.parametrize(("argv", "words"), [
    (["--rules", "vegs"], "--rules: unknown preset: 'vegs'"),
    (["--rules-file", "/no/such/rules.toml"], "--rules-file: "),
    (["--decks", "99"], "error: decks must be 1..8, got 99"),
    (["--jobs", "2", "--dask", "tcp://127.0.0.1:8786"], "give --jobs or --dask, not both"),
    (["--json", "/no/such/folder/r.json"], "--json: cannot write /no/such/folder/r.json: there is no folder"),
    (["--csv", ""], "--csv: no file name given"),
    (["--strategy", "nope"], "unknown strategy: 'nope'"),
    (["--players", "99"], "players must be 1.."),
    (["--sessions", "200"], "sessions must be 1..hands"),
    (["--jobs", "0"], "jobs must be 1 to"),
    (["--bankroll", "0"], "bankroll must be a positive number"),
])
def test_mistakes_found_after_parsing_exit_2_like_the_parsers(argv: list[str], words: str,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """These exited 1 without "(see --help)" while argparse's own errors exit 2: now the same form and status."""
    assert words in usage_error([*QUICK, *argv], capsys)


def test_a_failure_while_running_is_status_1_without_see_help(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Status 1 is kept for a failure during the run: here a module:function policy that raises."""
    (tmp_path / "crashing_policy.py").write_text("def play(view):\n    raise RuntimeError('oops')\n",
                                                 encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        assert main(["--hands", "100", "--quiet", "--strategy", "crashing_policy:play"]) == 1
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("crashing_policy", None)
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "oops" in err and "see --help" not in err, err


MALFORMED = ["_10", "10_", "1__0", "nan", "inf", "-inf", "", " ", "1e", "0x10", ".5", "1 0"]


@pytest.mark.parametrize("text", MALFORMED)
@pytest.mark.parametrize("option", ["--hands", "--sessions", "--penetration", "--player-error", "--target-ror"])
def test_malformed_numbers_are_refused_in_one_line(option: str, text: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """One grammar for every count and share: an underscore only between digits, ASCII digits, no nan or inf
    (``--hands _10`` and ``1__0`` were read as 10)."""
    err = usage_error(["--quiet", f"{option}={text}"], capsys)  # = so that argparse reads -inf as a value
    assert f"argument {option}: not a" in err and repr(text) in err, err


@pytest.mark.parametrize(("option", "text", "shown"), [
    ("--hands", "1_000", "1,000"), ("--hands", "1e3", "1,000"), ("--hands", "2.5e2", "250"),
])
def test_well_formed_counts_still_read(option: str, text: str, shown: str,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--quiet", "--strategy", "always-stand", option, text]) == 0
    assert re.search(rf"^rounds +{shown}$", capsys.readouterr().out, re.MULTILINE)


def test_shares_read_fractions_and_decimals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*QUICK, "--penetration", "3/4", "--player-error", "0.1", "--target-ror", "1_0e-2"]) == 0
    assert "always-stand (10% errors)" in capsys.readouterr().out


class TestRiskOfRuin:
    def test_the_csv_gives_no_figure_from_too_few_sessions(self) -> None:
        """The CSV's risk_of_ruin column said 1.0 from one session, as the text report did before."""
        few = to_csv(simulate("basic", hands=1000, seed=1, bankroll=1))
        enough = to_csv(simulate("basic", hands=2000, seed=1, bankroll=1, sessions=MIN_ROR_SESSIONS))
        column = CSV_FIELDS.index("risk_of_ruin")
        assert few.splitlines()[1].split(",")[column] == ""
        assert 0 <= float(enough.splitlines()[1].split(",")[column]) <= 1

    def test_too_few_sessions_give_no_figure(self, capsys: pytest.CaptureFixture[str]) -> None:
        """--bankroll with --hands 1000 made 1 session and reported "1 sessions ... 100.00% (standard error 0.00%)"."""
        assert main(["--hands", "1000", "--quiet", "--bankroll", "1"]) == 0
        lines = [line for line in capsys.readouterr().out.splitlines() if "risk" in line]
        assert lines == [f"basic: risk of ruin with 1 unit: not estimated, it needs at least {MIN_ROR_SESSIONS} "
                         f"sessions and this run has 1 session of 1,000 rounds; give --sessions {MIN_ROR_SESSIONS} "
                         f"or more, or more --hands (a session per 5,000 rounds by default)"], lines

    def test_enough_sessions_give_the_figure_in_good_grammar(self) -> None:
        reports = simulate("basic", hands=2000, seed=1, bankroll=1, sessions=MIN_ROR_SESSIONS)
        text = text_report(reports)
        assert f"risk of ruin with 1 unit over {MIN_ROR_SESSIONS} sessions of 200 rounds: 100.00%" in text
        # every session ruined: the standard error of 0 is not the whole story
        assert "every session was ruined: the risk is likely over 70.00% (the rule of three)" in text

    def test_plural_units(self) -> None:
        reports = simulate("basic", hands=2000, seed=1, bankroll=500, sessions=MIN_ROR_SESSIONS)
        assert "risk of ruin with 500 units over 10 sessions" in text_report(reports)


def test_install_commands_survive_a_shell() -> None:
    """Pasted into a shell, ``pip install blackjack-kit[plot]`` unquoted is a glob; both extras are quoted alike."""
    for message, extra in ((PLOT_NEEDS_MATPLOTLIB, "plot"), (DASK_NEEDS_DISTRIBUTED, "dask")):
        command = message.split(": ", 1)[1].split(" (in a clone: ")[0]
        assert shlex.split(command) == ["pip", "install", f"blackjack-kit[{extra}]"], message
        assert message.endswith(f'(in a clone: pip install -e ".[{extra}]")'), message


def test_a_closed_stdout_is_said_before_the_run() -> None:
    """Started with stdout closed (``>&-``), the simulator ran and then raised AttributeError on ``None.flush``."""
    done = subprocess.run(["sh", "-c", 'exec "$0" "$@" >&-', sys.executable, "-m", "blackjack.sim", "--hands", "300",
                           "--quiet"], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip() == ("blackjack-kit-sim: error: standard output is closed: there is nowhere to write "
                                   "the report"), done.stderr


@pytest.mark.parametrize("source, raised", [("raise RuntimeError('not ready')\n", "RuntimeError: not ready"),
                                            ("def play(view) oops\n", "SyntaxError")])
def test_a_strategy_module_that_fails_to_load_is_one_line(source: str, raised: str, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """A module:function strategy whose module raises while it loads (not an ImportError) printed a traceback."""
    (tmp_path / "broken_policy.py").write_text(source, encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        err = usage_error(["--hands", "100", "--quiet", "--strategy", "broken_policy:play"], capsys)
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("broken_policy", None)
    assert "cannot load strategy 'broken_policy:play': its module raised " + raised in err, err
