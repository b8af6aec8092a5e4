"""The student starter: stubbed packages that import, public tests without hidden ones, the tools."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from milestones import REPO_ROOT
from milestones.honesty import _mypy_errors
from milestones.regions import scan, split_functions
from milestones.starter import write_hybrid, write_packages, write_starter


#: The environment of a game run here: without a width (COLUMNS, which readline may have set in this
#: process, would wrap the game's one-line messages).
UNWRAPPED = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}


@pytest.fixture(scope="module")
def starter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The full milestone-1 starter written from the repository."""
    out = tmp_path_factory.mktemp("starter") / "project"
    write_starter(out)
    return out


def test_starter_stubs_every_region(starter: Path) -> None:
    """No reference body and no solution marker is left in the milestone-1 starter."""
    assert scan(starter) == []
    text = (starter / "blackjack" / "hand.py").read_text(encoding="utf-8")
    assert 'raise NotImplementedError("add up get_value() of every card' in text


def test_starter_imports_and_raises_not_implemented(starter: Path) -> None:
    """The starter's package imports, and a stubbed method raises NotImplementedError with its hint."""
    code = ("from blackjack import Hand, parse_cards\n"
            "try:\n    Hand(parse_cards('As 9d')).get_score()\n"
            "except NotImplementedError as e:\n    print('NIE', e)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=starter, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("NIE add up")


def test_starter_game_says_what_is_not_written_yet(starter: Path) -> None:
    """A week-1 student who runs the course game before writing the deck gets one line naming the first
    function to write, not a traceback."""
    done = subprocess.run([sys.executable, "-m", "blackjack", "--rules", "cs111", "--names", "Ann", "--rounds", "1"],
                          cwd=starter, input="\n", capture_output=True, text=True, check=False, timeout=60,
                          env=UNWRAPPED)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Stopped: create_card_array() is not written yet: return a new list of 52 cards" in done.stdout
    assert "(blackjack/cards.py:" in done.stdout and "--rules cs111)" not in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def test_starter_course_game_names_the_text_game_functions_next(tmp_path: Path) -> None:
    """With the deck, shuffle, deal and hand written, ``--rules cs111`` stops at the student's text game
    (play_game first), in one line."""
    write_packages(tmp_path, lambda r: r.module == "blackjack/course_game.py")  # only the text game stubbed
    done = subprocess.run([sys.executable, "-m", "blackjack", "--rules", "cs111", "--names", "Ann"],
                          cwd=tmp_path, input="", capture_output=True, text=True, check=False, timeout=60,
                          env=UNWRAPPED)
    assert done.returncode == 1 and "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    assert "Stopped: play_game() is not written yet: play_round, then ask whether to play again" in done.stdout
    assert "(blackjack/course_game.py:" in done.stdout


def test_starter_has_tools_docs_and_public_tests(starter: Path) -> None:
    """The starter ships the milestones package, tests/conftest.py, the diary and pyproject.toml."""
    for name in ("milestones/__main__.py", "milestones/specs/milestone1.md", "tests/conftest.py",
                 "pyproject.toml", "docs/diary.md", "README.md"):
        assert (starter / name).is_file(), name


def test_public_tests_hold_no_hidden_tests(starter: Path) -> None:
    """No file in the public tests mentions pytest.mark.hidden."""
    files = list((starter / "tests").rglob("*.py"))
    assert files
    assert not [f for f in files if "mark.hidden" in f.read_text(encoding="utf-8")]


def test_later_milestone_starter_keeps_earlier_bodies(tmp_path: Path) -> None:
    """A milestone-2 starter stubs m2 and later regions and ships m1 bodies solved."""
    stubbed, kept = write_packages(tmp_path, lambda r: r.milestone >= 2)
    assert {r.milestone for r in stubbed} >= {2} and all(r.milestone >= 2 for r in stubbed)
    assert kept and all(r.milestone == 1 for r in kept)
    assert {r.qualname for r in scan(tmp_path)} == {r.qualname for r in kept}


def test_starter_refuses_a_folder_that_is_not_empty(tmp_path: Path) -> None:
    """Writing into a folder with files raises FileExistsError and writes nothing."""
    (tmp_path / "mine.txt").write_text("keep me", encoding="utf-8")
    with pytest.raises(FileExistsError):
        write_starter(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["mine.txt"]


def test_hybrid_restores_earlier_milestones_only(tmp_path: Path) -> None:
    """A hybrid of the bare starter for milestone 2 has m1 bodies back and m2 bodies still stubbed."""
    write_packages(tmp_path / "sub", lambda r: True)
    summary = write_hybrid(tmp_path / "sub", tmp_path / "hybrid", 2)
    assert "blackjack/hand.py:Hand.get_score" in summary.restored
    hand = (tmp_path / "hybrid" / "blackjack" / "hand.py").read_text(encoding="utf-8")
    player = (tmp_path / "hybrid" / "blackjack" / "player.py").read_text(encoding="utf-8")
    assert "add up get_value()" not in hand and "NotImplementedError" not in hand
    assert 'raise NotImplementedError("turn the bet into exact money' in player


def test_hybrid_replaces_a_module_that_does_not_parse(tmp_path: Path) -> None:
    """A student module with a syntax error is replaced by the reference with later milestones stubbed."""
    write_packages(tmp_path / "sub", lambda r: False)
    (tmp_path / "sub" / "blackjack" / "hand.py").write_text("def broken(:\n", encoding="utf-8")
    summary = write_hybrid(tmp_path / "sub", tmp_path / "hybrid", 2)
    assert summary.replaced_modules == ["blackjack/hand.py"]
    compile((tmp_path / "hybrid" / "blackjack" / "hand.py").read_text(encoding="utf-8"), "hand.py", "exec")


@pytest.mark.slow  # mypy --strict on a starter, cold (about 12 s)
def test_starter_adds_no_mypy_strict_errors(tmp_path: Path) -> None:
    """mypy --strict finds no error in the full starter that it does not find in the reference."""
    write_packages(tmp_path, lambda r: True)

    def normalized(errors: list[str]) -> set[str]:
        return {e.split(":", 1)[0] + ":" + e.split(": error:", 1)[1] for e in errors}

    new = normalized(_mypy_errors(tmp_path)) - normalized(_mypy_errors(REPO_ROOT))
    assert not new, f"the starter adds mypy errors: {sorted(new)}"


def test_starter_lists_the_students_functions_its_markers_lost(starter: Path) -> None:
    """The starter's stubs carry no markers, so milestones/functions.json says which functions the student
    writes and which are the engine's: the plugin reads it to name the student's code in a failure."""
    student, engine = split_functions(starter)
    assert (student, engine) == split_functions(REPO_ROOT)
    assert {("blackjack/hand.py", "Hand.get_score"), ("blackjack/plays.py", "why_not_double")} <= student
    assert ("blackjack/hand.py", "Hand.add_card") in engine and not student & engine
