"""``python -m milestones demo``: the Program Demo plays the student's own game through each situation."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from make_samples import replace_body

from milestones import REPO_ROOT
from milestones.demo import SCENES, play_demo
from milestones.regions import FUNCTIONS_FILE, functions_json
from milestones.starter import write_packages


def demo(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m milestones demo --project PROJECT ARGS`` in a fresh process."""
    return subprocess.run([sys.executable, "-m", "milestones", "demo", "--project", str(project), *args],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=120, check=False)


def test_the_reference_plays_every_scene_as_it_should() -> None:
    """On the reference (the kit played on itself, its code in a process of its own and judged against the
    kit's engine here) every scene ends as its stacked cards say and as the rules play it: ok for each."""
    done = demo(REPO_ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    scenes = [scene for number in SCENES for scene in SCENES[number]]
    assert done.stdout.count("  ok: every hand ended as it should\n") == len(scenes), done.stdout
    assert all(f"{scene.title}: ok" in done.stdout for scene in scenes), done.stdout
    assert "differs" not in done.stdout and "not reachable" not in done.stdout, done.stdout


def test_play_demo_plays_in_this_process() -> None:
    """play_demo plays the importable package here (milestones 1 and 2 need no window) and checks each scene's
    expected ends."""
    out = io.StringIO()
    assert play_demo(out, [1, 2]) == 0, out.getvalue()
    assert out.getvalue().count("  ok: every hand ended as it should") == len(SCENES[1]) + len(SCENES[2])


def _edit(folder: Path, module: str, old: str, new: str) -> None:
    """Replace the one occurrence of ``old`` in ``folder/module`` by ``new``."""
    file = folder / module
    text = file.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{module} should hold {old!r} once"
    file.write_text(text.replace(old, new), encoding="utf-8")


#: name -> (milestone, plant the mistake in a copy of the reference, the scene that differs, the demo's words)
PLANTED: dict[str, tuple[int, Callable[[Path], None], str, str]] = {
    "the dealer hits soft 17 under S17": (
        1, lambda f: replace_body(f, "blackjack/player.py", "Dealer.should_hit", [
            "score = self.hand.get_score()", "return score < 17 or (score == 17 and self.hand.is_soft())"]),
        "The dealer stands on soft 17", "the dealer drew on soft 17 under S17 rules"),
    "the dealer stands on soft 17 under H17": (
        2, lambda f: replace_body(f, "blackjack/player.py", "Dealer.should_hit", ["return self.hand.get_score() < 17"]),
        "The dealer hits soft 17", "the dealer stood on soft 17 under H17 rules"),
    "a three-card 21 counted as a natural": (
        2, lambda f: replace_body(f, "blackjack/hand.py", "Hand.is_blackjack",
                                  ["return not self.from_split and self.get_score() == 21"]),
        "A three-card 21", "a three-card 21 was counted as a natural (5-6-T is shown as blackjack)"),
    "any hand with an ace counted soft": (
        1, lambda f: replace_body(f, "blackjack/hand.py", "Hand.is_soft",
                                  ["return any(card.value == 1 for card in self._cards)"]),
        "An ace counts 1 or 11", "A-5-7 was counted soft (3 / 13): its ace can only count 1 there, a hard 13"),
    "A-K scored 11": (
        1, lambda f: _edit(f, "blackjack/hand.py", "if ace and total <= 11:\n            total += 10",
                           "if ace and total < 11:\n            total += 10"),
        "An ace with a ten-card", "Ann was asked to play A-K (1 / 11): under the rules that turn is over; "
        "A-K totals 1 / 11: an ace counts 11 where that keeps the hand at 21 or less, "
        "so under the rules it totals 21"),
    "a double offered with no bankroll left": (
        2, lambda f: _edit(f, "blackjack/plays.py", "if bankroll < bet:\n        return f\"doubling",
                           "if False:\n        return f\"doubling"),
        "No money left to double", "a double was offered with no bankroll left to cover it"),
    "a K-Q split under rank rules": (
        2, lambda f: _edit(f, "blackjack/plays.py", "if not hand.is_pair(by=rules.split_by):",
                           "if not hand.is_pair(by='value'):"),
        "K-Q is not a pair", "K-Q was offered a split though the rules split by rank"),
    "a hint that says hit on a hard 17": (
        2, lambda f: _edit(f, "blackjack/hints/advice.py",
                           "    bust = bust_probability(values)\n",
                           "    action = Action.HIT if sum(values) == 17 else action\n"
                           "    bust = bust_probability(values)\n"),
        "A hint on a hard 17", "the hint says hit on a hard 17; basic strategy says stand"),
    "the window shows a soft total as a number": (
        3, lambda f: _edit(f, "gui/shell.py", "            self.write(\"player_total\", hand.total_text)\n",
                           "            self.write(\"player_total\", str(hand.total))\n"),
        "Deal, hit and stand", "after Deal the window shows the player's total as '13'; the round's is '3 / 13'"),
}


@pytest.mark.parametrize("mistake", PLANTED)
def test_the_demo_names_the_scene_that_differs_and_how(mistake: str, tmp_path: Path) -> None:
    """A 0-point mistake planted in a copy of the reference: the demo (judging the copy against the kit's
    engine) says which scene differs and how, in the rule's words; the milestone's other scenes stay ok."""
    number, plant, title, words = PLANTED[mistake]
    folder = tmp_path / "submission"
    write_packages(folder, lambda r: False)
    plant(folder)
    done = demo(folder, "--milestone", str(number))
    assert done.returncode == 1 and "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    assert f"  differs: {words}" in done.stdout, done.stdout
    assert f"milestone {number}: {title}: differs: {words}" in done.stdout, done.stdout
    summary = done.stdout.split("=== Summary ===")[1].splitlines()
    assert [line for line in summary if "differs" in line] == [line for line in summary if title in line], summary


def test_a_starter_copy_without_the_kit_shows_the_play_unjudged(tmp_path: Path) -> None:
    """In a student's starter folder (its milestones/ a copy, no kit installed) the kit's engine is not
    reachable: the demo says so in one line and plays the scenes, checking only their expected ends; the
    student's process never imports the kit's packages (a project without gui/ cannot borrow the kit's)."""
    project = tmp_path / "starter"
    write_packages(project, lambda r: False)
    replace_body(project, "blackjack/player.py", "Dealer.should_hit",
                 ["score = self.hand.get_score()", "return score < 17 or (score == 17 and self.hand.is_soft())"])
    shutil.copytree(REPO_ROOT / "milestones", project / "milestones",
                    ignore=shutil.ignore_patterns("__pycache__", "suites", "handout"))
    (project / "milestones" / FUNCTIONS_FILE).write_text(functions_json(REPO_ROOT), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    done = subprocess.run([sys.executable, "-m", "milestones", "demo", "--milestone", "1",
                           "--milestone", "3"], cwd=project, capture_output=True, text=True, timeout=120,
                          check=False, env=env)
    assert done.stdout.count("not reachable") == 1 and "differs" not in done.stdout, done.stdout + done.stderr
    assert "Two players: a bust and a win: ok" in done.stdout and "(not compared with the rules)" in done.stdout
    assert "The dealer stands on soft 17: not as it should" in done.stdout, done.stdout
    assert "Deal, hit and stand: ok" in done.stdout, done.stdout
    shutil.rmtree(project / "gui")
    done = demo(project, "--milestone", "3")
    assert "Deal, hit and stand: stopped: ModuleNotFoundError: No module named 'gui'" in done.stdout, done.stdout


def test_milestone_two_shows_the_situations_the_course_names() -> None:
    """Milestone 2's scenes show a bust, a push, a natural, a double down, a split and insurance, played through
    the course's game with money (its bet and move questions answered from the scene)."""
    titles = [scene.title for scene in SCENES[2]]
    assert {"A bust", "A push", "A natural", "A double down", "A split", "Insurance"} <= set(titles)
    out = io.StringIO()
    play_demo(out, [2])
    for line in ("Ann loses (-10)", "Ann pushes (0)", "Ann wins (+15)", "ouble? d", "lit, su[r]render? p",
                 "decli[n]e? i", "Ann's insurance: +10", "(the hint says stand)"):
        assert line in out.getvalue(), line


def test_a_starter_demo_says_what_is_not_written_yet(tmp_path: Path) -> None:
    """On a milestone-2 starter the week-1 scenes play and each week-2 scene stops with the one line naming the
    function to write; no traceback; exit status 1."""
    project = tmp_path / "week2"
    write_packages(project, lambda r: r.milestone >= 2)
    done = demo(project)
    assert done.returncode == 1 and "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    assert "milestone 1: Three players, and the dealer busts: ok" in done.stdout
    assert "milestone 2: A split: stopped: play_money_round() is not written yet: start the round" in done.stdout, \
        done.stdout


def test_a_wrong_payout_and_a_loop_are_shown(tmp_path: Path) -> None:
    """A payout that pays a natural 1:1 makes the natural scene end 'NOT as it should' with the hand's line; a
    loop that never ends in check_bet is stopped after the scene's time limit, naming the function."""
    wrong = tmp_path / "wrong"
    write_packages(wrong, lambda r: False)
    replace_body(wrong, "blackjack/wagers.py", "payout",
                 ["if result in (Result.LOSE, Result.BUST):", "    return -bet",
                  "return Fraction(0) if result is Result.PUSH else Fraction(bet)"])
    done = demo(wrong, "--milestone", "2")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "NOT as it should: Ann should end BLACKJACK +15" in done.stdout and "BLACKJACK +10" in done.stdout
    loop = tmp_path / "loop"
    write_packages(loop, lambda r: False)
    replace_body(loop, "blackjack/player.py", "Player.check_bet", ["while True:", "    pass"])
    done = demo(loop, "--milestone", "2", "--scene-timeout", "0.5")
    assert done.returncode == 1
    assert "A bust: stopped after 0.5 s (in Player.check_bet, blackjack/player.py:" in done.stdout, done.stdout


@pytest.mark.parametrize("args, error", [
    (["--milestone", "9"], "error: no milestone 9"),
    (["--project", "/nonexistent/project"], "has no blackjack/__init__.py"),
])
def test_bad_demo_options_get_one_line(args: list[str], error: str) -> None:
    """A milestone without scenes or a folder without a project is one line on stderr and status 2."""
    done = subprocess.run([sys.executable, "-m", "milestones", "demo", *args], cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and error in done.stderr and done.stderr.count("\n") == 1, done.stderr


def test_week_one_scenes_play_the_students_own_text_game(tmp_path: Path) -> None:
    """Week 1's demo is the student's course text game (blackjack/course_game.py), its prompts answered h/s:
    a result line the student words differently shows as they wrote it, and a game that keeps asking a
    player whose turn is over is stopped with a line that says so."""
    own = tmp_path / "own"
    write_packages(own, lambda r: False)
    replace_body(own, "blackjack/course_game.py", "result_text",
                 ["return f'{name}: {outcome.result.kind.upper()}!'"])
    done = demo(own, "--milestone", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Ann, hit or stand? [h/s] h" in done.stdout and "Ann: LOSS!" in done.stdout, done.stdout
    nagging = tmp_path / "nagging"
    write_packages(nagging, lambda r: False)
    replace_body(nagging, "blackjack/course_game.py", "play_turn",
                 ["while True:", "    ask_hit_or_stand(rnd.current_player.name, ask, say)"])
    done = demo(nagging, "--milestone", "1", "--scene-timeout", "5")
    assert done.returncode == 1 and "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    assert "the game asked 30 questions in one round" in done.stdout, done.stdout


def test_week_two_scenes_play_the_students_own_game_with_money(tmp_path: Path) -> None:
    """Week 2's demo is the student's course game with money (play_money_round, ask_bet, ask_move): its bet and
    move questions are answered from the scene and shown as the student wrote them, and a game whose move
    question never offers a double differs from the rules where the scene doubles."""
    project = tmp_path / "nodouble"
    write_packages(project, lambda r: False)
    _edit(project, "blackjack/course_game.py", "moves = [action for action in Action if action in offered]",
          "moves = [action for action in Action if action in offered and action is not Action.DOUBLE]")
    done = demo(project, "--milestone", "2")
    assert done.returncode == 1 and "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    assert "Ann, you have 1000: your bet (1-500)? 10" in done.stdout
    assert "Please type one of hit, stand, surrender." in done.stdout, done.stdout
    summary = done.stdout.split("=== Summary ===")[1]
    assert ("A double down: differs: Ann was asked to play 6-5 (11): under the rules that turn is over" in summary
            and "A split: differs:" in summary and "A bust: ok" in summary), summary
