"""The cs111 game's given run(): ``?``/``hint`` and ``help`` at any prompt, and a summary when play ends."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from blackjack.__main__ import main
from blackjack.course_game import HELP

#: Ann T-6 and Bob 9-7 against the dealer's 9 (hole 8); then Ann's hit is a 4.
ARGS = ["--rules", "cs111", "--names", "Ann,Bob", "--stack", "Th,9h,9s,6c,7s,8h,4d"]


def play(args: list[str], keys: str) -> tuple[int, list[str]]:
    """The course game in-process with ``keys`` typed; return (status, the lines written)."""
    out = io.StringIO()
    status = main(args, stdin=io.StringIO(keys), stdout=out)
    return status, out.getvalue().splitlines()


def summary(lines: list[str]) -> list[str]:
    """The summary's lines: from "Session summary:" to the end."""
    start = next(i for i, line in enumerate(lines) if line.startswith("Session summary:"))
    return lines[start:]


def test_hint_and_help_are_answered_and_the_question_asked_again() -> None:
    """'?' and 'hint' at Ann's question give the recommended move (hit on 16 v 9); 'help' the help; the game then
    reads Ann's and Bob's answers as before: Ann wins, Bob loses."""
    status, lines = play(ARGS, "?\nhelp\nh\nhint\ns\ns\nn\n")
    assert status == 0
    hints = [line for line in lines if line.startswith("Hint: ")]
    assert hints == ["Hint: hit.", "Hint: stand."]
    assert HELP in lines
    assert lines.count("Ann, hit or stand? [h/s] ?") == 1  # then asked again, not counted as a wrong answer
    assert not any(line.startswith("Please type h") for line in lines)
    assert "Ann wins" in lines and "Bob loses" in lines


def test_hint_between_rounds_says_no_decision_waits() -> None:
    """At "Play again?" there is no decision to advise on: one line says so and the question is asked again."""
    status, lines = play(ARGS, "h\ns\ns\n?\nn\n")
    assert status == 0
    assert "No decision is waiting: a hint is for a hit-or-stand question." in lines
    assert not any(line.startswith("Please answer") for line in lines)


@pytest.mark.parametrize("keys, why", [("h\ns\ns\nn\n", None), ("h\ns\ns\n", "Input ended."),
                                       ("h\ns\ns\nquit\n", "Quitting.")], ids=["no", "eof", "quit"])
def test_the_game_ends_with_a_summary(keys: str, why: str | None) -> None:
    """After the last round, at the end of input and at quit: rounds played, and each player's hands won, lost and
    pushed (Ann won her round, Bob lost his)."""
    status, lines = play(ARGS, keys)
    assert status == 0
    if why is not None:
        assert lines[lines.index(why) + 1].startswith("Session summary:")
    assert summary(lines) == ["Session summary: 1 round played.",
                              "  player  won  lost  pushed",
                              "  Ann       1     0       0",
                              "  Bob       0     1       0"]


def test_a_round_cut_short_is_not_counted_and_the_summary_says_so() -> None:
    """Quit in the second round: one round counted, and a line says the round in play is not."""
    status, lines = play(ARGS, "h\ns\ns\ny\nquit\n")
    assert status == 0
    assert summary(lines)[0] == "Session summary: 1 round played."
    assert summary(lines)[-1] == "  (The round in play when the game stopped is not counted.)"


def test_rounds_option_ends_with_a_summary() -> None:
    """--rounds 2 plays two rounds without asking, then the summary counts both."""
    status, lines = play(["--rules", "cs111", "--names", "Ann", "--seed", "5", "--rounds", "2"], "s\ns\n")
    assert status == 0
    assert summary(lines)[0] == "Session summary: 2 rounds played."
    ann = summary(lines)[2].split()
    assert ann[0] == "Ann" and sum(map(int, ann[1:])) == 2


def test_a_week1_starter_hint_says_week_2_is_missing_in_one_line(tmp_path: Path) -> None:
    """A starter with week 1 written and week 2 not: '?' is one line naming the unwritten week-2 function, and the
    game goes on to its result and summary."""
    from milestones.starter import write_packages

    copy = tmp_path / "student"
    write_packages(copy, lambda region: region.milestone >= 2)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "LC_", "LANG", "COLUMNS", "LINES"))}
    env.update(PYTHONIOENCODING="utf-8", LC_ALL="C.UTF-8")
    done = subprocess.run([sys.executable, "-m", "blackjack", "--rules", "cs111", "--names", "Ann", "--stack",
                           "Th,9s,6c,8h"], input="?\ns\nn\n", capture_output=True, text=True, encoding="utf-8",
                          cwd=copy, env=env, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    missing = [line for line in lines if line.startswith("No hint:")]
    assert len(missing) == 1 and "hints build on week 2's code, and " in missing[0], done.stdout
    assert "is not written yet: " in missing[0] and "blackjack/hints/" in missing[0], done.stdout
    assert "Ann loses" in lines and "Session summary: 1 round played." in lines
    assert "Traceback" not in done.stdout + done.stderr
