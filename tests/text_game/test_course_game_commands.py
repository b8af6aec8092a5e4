"""The cs111 game's given run(): ``?``/``hint`` and ``help`` at any prompt, and a summary when play ends."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from blackjack import Blackjack, Rules, course_game, parse_cards
from blackjack.__main__ import main
from blackjack.course_game import HELP, run

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
                              "  player  rounds  won  lost  pushed  net",
                              "  Ann          1    1     0       0  0",
                              "  Bob          1    0     1       0  0"]


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
    assert ann[0] == "Ann" and ann[1] == "2" and sum(map(int, ann[2:5])) == 2 and ann[5] == "0"  # no money: net 0


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


def test_the_summary_at_a_table_with_money_gives_each_players_net() -> None:
    """The course game at a table with money (cs111_money: the week-2 game, each seat asked for a bet, 10):
    Ann's 20 beats the dealer's 17 and Bob's 16 loses, so Ann is +10 and Bob -10, exactly."""
    game = Blackjack(["Ann", "Bob"], Rules.preset("cs111_money"), seed=1)
    game.shoe.stack(parse_cards("Th 9h 9s 6c 7s 8h 4d"))
    said: list[str] = []
    answers = iter(["10", "10", "h", "s", "s"])
    assert run(game, lambda prompt: next(answers), said.append, rounds=1) == 0
    assert summary(said) == ["Session summary: 1 round played.",
                             "  player  rounds  won  lost  pushed  net",
                             "  Ann          1    1     0       0  +10",
                             "  Bob          1    0     1       0  -10"]
    assert [p.bankroll for p in game.players] == [1010, 990]


def test_an_unwritten_summary_still_ends_the_game_with_the_rounds_played(monkeypatch: pytest.MonkeyPatch) -> None:
    """In a week-1 starter summary_lines (week 2's code) is a stub: the game still ends with status 0, the rounds
    played and one line naming the function to write."""
    def stub(game: Blackjack) -> list[str]:
        raise NotImplementedError("return the summary's lines")

    monkeypatch.setattr(course_game, "summary_lines", stub)
    status, lines = play(ARGS, "h\ns\ns\nn\n")
    assert status == 0
    assert summary(lines)[0] == "Session summary: 1 round played."
    assert summary(lines)[1].startswith("  (") and "stub() is not written yet: return the summary's lines" in \
        summary(lines)[1]
    assert "Traceback" not in "\n".join(lines)


@pytest.mark.parametrize("returned, words", [(None, "summary_lines() returned None, not a list of lines"),
                                             ([None], "say() was given None")], ids=["none", "not-a-line"])
def test_a_summary_that_returns_no_lines_stops_in_one_line(returned: object, words: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A summary_lines that returns None (a missing return), or a list holding something else than text, ends
    the game with status 1 and one Stopped: line that says so."""
    monkeypatch.setattr(course_game, "summary_lines", lambda game: returned)
    status, lines = play(ARGS, "h\ns\ns\nn\n")
    assert status == 1
    assert lines[-1].startswith("Stopped: ") and words in lines[-1], lines[-1]
    assert "_summarize" not in lines[-1]


def test_python_m_blackjack_rules_cs111_bankroll_plays_the_game_with_money() -> None:
    """``--rules cs111 --bankroll 100`` (issue 36's done-when), scripted on the reference: every player is asked for
    a bet every round, a bet over the bankroll is refused with the reason and asked again, a double is offered on 11
    and takes a second stake, insurance is offered against an ace, and the bankrolls move with the results."""
    # Round 1: Ann 6-5 v 9 doubles (20 more) and draws a 9 (20); Bob T-8 stands; the dealer's 9-7 draws 7: bust.
    # Round 2: Ann T-9 and Bob 8-8 against an ace: Ann insures 10, both stand; the dealer's A-9 (20) wins.
    cards = "6h,Th,9s,5c,8d,7h,9d,7s,Tc,8h,As,9c,8s,9h"
    status, lines = play(["--rules", "cs111", "--bankroll", "100", "--names", "Ann,Bob", "--stack", cards],
                         "150\n20\n10\nd\ns\ny\n20\n10\ni\nn\ns\ns\nn\n")
    assert status == 0, lines
    bets = [line for line in lines if "your bet" in line]
    assert [line.split(",")[0] for line in bets] == ["Ann", "Ann", "Bob", "Ann", "Bob"], lines
    assert "Not a bet: Ann: cannot bet 150 with a bankroll of 100." in lines
    assert "Ann: [h]it, [s]tand, [d]ouble? d" in lines and "Ann: 6h 5c 9d (20), bet 40" in lines
    assert "Ann wins (+40)" in lines and "Bankrolls: Ann 140, Bob 110" in lines
    assert "Ann: [i]nsurance, decli[n]e? i" in lines and "Bob: [i]nsurance, decli[n]e? n" in lines
    assert "Ann's insurance: -10" in lines and "Bankrolls: Ann 110, Bob 100" in lines
    assert summary(lines)[2:] == ["  Ann          2    1     1       0  +10", "  Bob          2    1     1       0  0"]


@pytest.mark.parametrize("args, error", [
    (["--rules", "cs111", "--plain"], "--plain: the course's game (blackjack/course_game.py) does not use it"),
    (["--rules", "cs111", "--bankroll", "100", "--hints"], "--hints: the course's game"),
    (["--rules", "NO_MONEY", "--bankroll", "100"], "--bankroll: the nomoney rules play for no money"),
])
def test_an_option_the_course_game_cannot_use_is_refused_in_one_line(args: list[str], error: str,
                                                                    tmp_path: Path) -> None:
    """An option the course's game does not use, or --bankroll at a table without money, is one line, status 2."""
    rules = tmp_path / "nomoney.toml"
    rules.write_text("wagering = false\ninsurance = false\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "blackjack", *[str(rules) if a == "NO_MONEY" else a for a in args]],
                          capture_output=True, text=True, timeout=60, check=False, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and error in done.stderr and done.stderr.count("\n") == 1, done.stderr


def test_the_week_one_starter_with_week_one_code_plays_the_week_one_game(tmp_path: Path) -> None:
    """A week-1 student's project (week 1 written, week 2 still stubs) plays ``--rules cs111`` unchanged: no bet is
    asked, the round is week 1's, and the summary names summary_lines as week 2's code; ``--bankroll`` there names
    the week-2 function it needs."""
    from milestones.starter import write_packages

    write_packages(tmp_path, lambda region: region.milestone >= 2)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    command = [sys.executable, "-I", "-c", "import sys; sys.path.insert(0, sys.argv[1]); from blackjack.__main__ "
               "import main; sys.exit(main(sys.argv[2:]))", str(tmp_path), *ARGS]
    done = subprocess.run(command, input="h\ns\ns\nn\n", capture_output=True, text=True, timeout=60, check=False,
                          env=env)
    assert done.returncode == 0 and "bet" not in done.stdout, done.stdout + done.stderr
    assert "Ann wins" in done.stdout and "(summary_lines() is not written yet" in done.stdout
    done = subprocess.run([*command, "--bankroll", "100"], input="20\n", capture_output=True, text=True, timeout=60,
                          check=False, env=env)
    assert done.returncode == 1 and "Stopped: play_money_round() is not written yet" in done.stdout, done.stdout
