"""``python -m milestones demo``: the Program Demo plays the student's own game through each situation."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from make_samples import replace_body

from milestones import REPO_ROOT
from milestones.demo import SCENES, play_demo
from milestones.starter import write_packages


def demo(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m milestones demo --project PROJECT --plain ARGS`` in a fresh process."""
    return subprocess.run([sys.executable, "-m", "milestones", "demo", "--project", str(project), "--plain", *args],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=120, check=False)


def test_the_reference_plays_every_scene_as_it_should() -> None:
    """On the reference every scene ends as its stacked cards say, and the summary says ok for each."""
    out = io.StringIO()
    assert play_demo(out, plain=True) == 0, out.getvalue()
    text = out.getvalue()
    scenes = [scene for number in SCENES for scene in SCENES[number]]
    assert text.count("  ok: every hand ended as it should") == len(scenes), text
    assert all(f"{scene.title}: ok" in text for scene in scenes), text


def test_milestone_two_shows_the_situations_the_course_names() -> None:
    """Milestone 2's scenes show a bust, a push, a natural, a double down, a split and insurance."""
    titles = [scene.title for scene in SCENES[2]]
    assert titles == ["A bust", "A push", "A natural", "A double down", "A split", "Insurance"]
    out = io.StringIO()
    play_demo(out, [2], plain=True)
    for line in ("Ann: BUST -10", "Ann: PUSH", "Ann: BLACKJACK +15", "Ann: double", "Ann: split",
                 "Ann's insurance wins 10."):
        assert line in out.getvalue(), line


def test_a_starter_demo_says_what_is_not_written_yet(tmp_path: Path) -> None:
    """On a milestone-2 starter the week-1 scenes play and each week-2 scene stops with the one line naming the
    function to write; no traceback; exit status 1."""
    project = tmp_path / "week2"
    write_packages(project, lambda r: r.milestone >= 2)
    done = demo(project)
    assert done.returncode == 1 and "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    assert "milestone 1: Three players, and the dealer busts: ok" in done.stdout
    assert ("milestone 2: A split: stopped: Player.check_bet() is not written yet: turn the bet into exact money"
            in done.stdout), done.stdout


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
    (["--milestone", "3"], "error: no demo for milestone 3"),
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
