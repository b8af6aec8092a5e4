"""Fixtures for the classroom kit's own tests: a small course and the sample submissions.

The mini course is a folder shaped like the repository (reference packages, ``tests/``
with ``conftest.py`` and two milestone suites, ``pyproject.toml``), so the grader, the
check and the honesty check run on a handful of fast tests instead of the real suites.
"""

from __future__ import annotations

import gc
import shutil
import sys
from pathlib import Path

import pytest

from milestones import REPO_ROOT
from milestones.starter import _student_pyproject, write_packages

sys.path.insert(0, str(REPO_ROOT / "tests" / "submissions"))

from make_samples import make_samples  # noqa: E402

MINI_M1 = '''"""Mini milestone-1 suite for the grader's own tests (the judge: it never imports the submission)."""

import pytest


@pytest.mark.points(2)
def test_two_aces_and_nine(student):
    """A, A, 9 scores 21."""
    got = student("score", "As Ad 9h")
    assert got == 21, f"get_score() of [A, A, 9] should be 21: count one ace as 11, the other as 1; got {got}"


@pytest.mark.points(1)
def test_deal_takes_top_card(student):
    """deal() returns the top card."""
    got = student("deal", "Kh 2c")
    assert got == "Kh", f"deal() of a deck Kh 2c should return Kh; got {got}"


@pytest.mark.points(1)
@pytest.mark.hidden
def test_hidden_bust(student):
    """K, Q, 5 is bust."""
    assert student("bust", "Kh Qd 5c") is True, "is_bust() of [K, Q, 5] (25) should be True"


@pytest.mark.points(1)
@pytest.mark.parametrize("codes, total", [
    ("Kh 7d", 17),
    pytest.param("As 6d", 17, marks=pytest.mark.hidden),
])
def test_totals(student, codes, total):
    """A hand's total."""
    got = student("score", codes)
    assert got == total, f"get_score() of {codes} should be {total}; got {got}"
'''

#: The mini milestone 1's observations: they run in the student's process.
OBSERVE_M1 = '''"""Mini milestone-1 observations."""

from blackjack import Card, Deck, Hand, parse_cards
from milestones.grader.observer import plain


def score(codes):
    return Hand(parse_cards(codes)).get_score()


def deal(codes):
    card = Deck(parse_cards(codes)).deal()
    return str(card) if type(card) is Card else plain(card)  # a card by its given code, never the student's str()


def bust(codes):
    return Hand(parse_cards(codes)).is_bust()
'''

MINI_M2 = '''"""Mini milestone-2 suite for the grader's own tests."""

import pytest

from milestones.grader.judge import as_number

PART = "wagering"


@pytest.mark.points(2)
def test_bet_over_bankroll_is_rejected(student):
    """A bet over the bankroll raises InvalidBetError."""
    raised = student.raised("bet", 50, 60)
    assert raised is not None and raised.is_a("InvalidBetError"), "a bet of 60 from a bankroll of 50 must be refused"


@pytest.mark.points(2)
def test_stand_on_soft_20_wins(student):
    """A-9 standing against the dealer's 17 wins the bet."""
    got = as_number(student("stand_net", "As Th 9d 7c", 10))
    assert got == 10, f"A-9 (soft 20) against the dealer's 17 should win 10 credits; got {got}"
'''

OBSERVE_M2 = '''"""Mini milestone-2 observations."""

from blackjack import Action, Blackjack, Player, Rules
from milestones.grader.observer import number


def bet(bankroll, amount):
    return Player("Ann", bankroll=bankroll).start_round(amount, Rules.preset("vegas"))


def stand_net(stack, amount):
    table = Blackjack(["Ann"], Rules.preset("vegas"), seed=1)
    table.shoe.stack(stack.split())
    [(_, _, outcome)] = table.play_round(lambda view: Action.STAND, bets=[amount])
    return number(outcome.net)
'''


def write_course(root: Path, m1: str = MINI_M1, m2: str | None = MINI_M2, *, o1: str = OBSERVE_M1,
                 o2: str = OBSERVE_M2) -> Path:
    """Write a mini course under ``root``: reference packages, tests (judges ``m1``/``m2`` in ``test_mini.py``,
    their observations ``o1``/``o2`` in ``observe_mini.py``), pyproject; return ``root``."""
    write_packages(root, lambda r: False, REPO_ROOT)
    (root / "tests" / "milestone1").mkdir(parents=True)
    shutil.copy2(REPO_ROOT / "tests" / "conftest.py", root / "tests" / "conftest.py")
    (root / "tests" / "milestone1" / "test_mini.py").write_text(m1, encoding="utf-8")
    (root / "tests" / "milestone1" / "observe_mini.py").write_text(o1, encoding="utf-8")
    if m2 is not None:
        (root / "tests" / "milestone2").mkdir()
        (root / "tests" / "milestone2" / "test_mini.py").write_text(m2, encoding="utf-8")
        (root / "tests" / "milestone2" / "observe_mini.py").write_text(o2, encoding="utf-8")
    (root / "pyproject.toml").write_text(_student_pyproject(REPO_ROOT), encoding="utf-8")
    (root / "requirements").mkdir()
    shutil.copy2(REPO_ROOT / "requirements" / "test.txt", root / "requirements" / "test.txt")
    return root


@pytest.fixture(autouse=True)
def _grade_cache_of_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's ``grade`` commands keep their grades in a cache of that test's own (never the user's, never
    another test's), so a grade is reused only where a test asks for it."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


@pytest.fixture(scope="module", autouse=True)
def _tk_garbage_collected_here() -> None:
    """Collect the garbage earlier tests left, Tk windows included, on the main thread before a module runs.

    The grader runs submissions from worker threads; a Tk object finalized by a garbage
    collection that happens to start in one of them aborts the whole test process (Tcl).
    """
    gc.collect()


@pytest.fixture(scope="session")
def mini_course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A mini course folder (shared; do not change it)."""
    return write_course(tmp_path_factory.mktemp("course"))


@pytest.fixture(scope="session")
def samples(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every sample submission (shared; do not change them)."""
    return make_samples(tmp_path_factory.mktemp("samples"))
