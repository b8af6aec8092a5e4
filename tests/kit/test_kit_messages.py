"""The one-line failure messages name the student's code, not the engine they were given.

The student's process describes an exception (:func:`milestones.grader.observer._describe`: class, message,
where in the student's files); the judge words it (:class:`milestones.grader.judge.Raised`). These tests run
both halves on real tracebacks from modules laid out like a submission."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from collections.abc import Callable
from types import ModuleType

import pytest

from make_samples import replace_body

from milestones import REPO_ROOT
from milestones.grader.judge import Raised, StudentTimeout
from milestones.grader.observer import TestTimeout, _describe
from milestones.grader.plugin import student_message
from milestones.grader.runner import Limits, run_suite

# Laid out like blackjack/hand.py: Hand.add_card is the engine's (no region), get_score and is_soft are
# the student's (regions in the reference), _count_aces is a helper the student added.
HAND = '''class Hand:
    error = ValueError

    def add_card(self, card):
        raise self.error(f"not a card: {card!r}")

    def get_score(self):
        return self.add_card("Zz")

    def is_soft(self):
        return _count_aces(self)


def _count_aces(hand):
    raise KeyError("ace")
'''


#: A get_score and an is_soft that each ask the other, and an add_card (the engine's) that asks get_score.
LOOPING_HAND = '''class Hand:
    def add_card(self, card):
        return self.get_score()

    def get_score(self):
        return 10 + self.is_soft()

    def is_soft(self):
        return any(score < 12 for score in [self.get_score()])
'''


def message_of(call: Callable[[], object]) -> str:
    """The student's message for the exception ``call`` raises, as the student's process describes it and the
    judge words it."""
    try:
        call()
    except TestTimeout as stop:
        data = _describe(stop, stopped=True)
        return str(StudentTimeout(data["message"] + data["where"]).text)
    except Exception as err:  # noqa: BLE001 - the exception is what is tested
        return Raised(_describe(err)).text
    raise AssertionError("the call raised nothing")


@pytest.fixture
def hand_module(tmp_path: Path) -> ModuleType:
    """The module above, loaded from a file at <tmp>/blackjack/hand.py (where a submission keeps it)."""
    return load_hand(tmp_path, HAND)


def load_hand(tmp_path: Path, source: str) -> ModuleType:
    """``source`` loaded from a file at <tmp>/blackjack/hand.py."""
    path = tmp_path / "blackjack" / "hand.py"
    path.parent.mkdir(parents=True)
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("fake_submission_hand", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_an_engine_error_names_the_students_caller_too(hand_module: ModuleType) -> None:
    """An exception raised in the engine (Hand.add_card) names it and the student's function that called it:
    the engine frame alone sent students to code they never wrote."""
    assert message_of(hand_module.Hand().get_score) == ("ValueError: not a card: 'Zz' (in Hand.add_card, blackjack/hand.py:5, "
                                        "called from Hand.get_score, blackjack/hand.py:8)")


def test_a_recursion_names_the_students_functions_that_call_each_other(tmp_path: Path) -> None:
    """A RecursionError names the student's two functions that call each other (in the order they were
    entered), not the frame, often given code or a generator expression, where Python gave up."""
    hand = load_hand(tmp_path, LOOPING_HAND).Hand()
    assert message_of(lambda: hand.add_card("Ks")) == (
        "RecursionError: Hand.get_score (blackjack/hand.py) and Hand.is_soft (blackjack/hand.py) call each other "
        "without end, until Python gave up; make sure one of them computes its answer without calling the other")
    alone = load_hand(tmp_path / "alone", "class Hand:\n    def get_score(self):\n        return self.get_score()\n")
    assert message_of(alone.Hand().get_score).startswith("RecursionError: Hand.get_score (blackjack/hand.py) calls itself")


def test_a_helper_the_student_added_is_their_code(hand_module: ModuleType) -> None:
    """A function that is not in the reference (the student's own helper) is the student's code: named alone."""
    assert message_of(hand_module.Hand().is_soft) == "KeyError: 'ace' (in _count_aces, blackjack/hand.py:15)"


def test_a_time_out_in_the_engine_names_the_students_loop(hand_module: ModuleType) -> None:
    """A test stopped while the clock was in engine code called from the student's loop names the student's
    function: that is where the loop that never ends is."""
    hand = hand_module.Hand()
    hand.error = lambda _text: TestTimeout("took longer than 10 s and was stopped: look for a loop that never ends")
    assert message_of(hand.get_score).endswith(
        "look for a loop that never ends (in Hand.get_score, blackjack/hand.py:8)")


def test_an_engine_error_with_no_student_code_below_the_test(hand_module: ModuleType) -> None:
    """A test that calls the engine directly gets the engine's frame: there is no student code to name."""
    assert message_of(lambda: hand_module.Hand().add_card("Qx")) == "ValueError: not a card: 'Qx' (in Hand.add_card, blackjack/hand.py:5)"


def test_input_in_graded_code_says_what_to_do_instead(mini_course: Path, samples: dict[str, Path],
                                                      tmp_path: Path) -> None:
    """A submission whose get_score calls input() fails those tests saying so, and where; pytest's own
    advice ("reading from stdin while output is captured! Consider using -s") does not apply to grading."""
    submission = tmp_path / "reads_input"
    shutil.copytree(samples["full"], submission)
    replace_body(submission, "blackjack/hand.py", "Hand.get_score", ['return int(input("score? "))'])
    run = run_suite(mini_course / "tests" / "milestone1", submission, limits=Limits(timeout=60, test_timeout=10))
    messages = {nodeid.split("::")[-1]: message for nodeid, (outcome, message) in run.results.items()
                if outcome == "failed"}
    assert run.finished and "test_deal_takes_top_card" not in messages, run.results
    message = messages["test_two_aces_and_nine"]
    assert message.startswith("your code called input() (or read sys.stdin) during the test (in Hand.get_score, "
                              "blackjack/hand.py:"), message
    assert "Consider using" not in message, message


def test_plain_pytest_names_the_students_loop_for_a_time_out(samples: dict[str, Path]) -> None:
    """A student who runs pytest themselves sees the time-out's one line, naming their loop; pytest's traceback
    ended wherever the clock stopped the test (often a given function) with a bare "TestTimeout"."""
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                           f"--impl={samples['infinite_loop']}", "--test-timeout=1",
                           "tests/milestone1/test_hand.py::test_score_adds_card_values"],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert ("StudentTimeout: took longer than 1 s and was stopped: look for a loop that never ends "
            "(in Hand.get_score, blackjack/hand.py:") in done.stdout, done.stdout + done.stderr


def test_an_assert_without_a_message_is_readable() -> None:
    """An assert with no message of its own (a suite bug the kit tests look for) still reads as one line a
    student can follow: pytest's first line and where the values differ, without object addresses or
    pytest's "Use -v to get more diff"."""
    class Round:
        pass

    rnd = Round()
    with pytest.raises(AssertionError) as excinfo:
        assert ("8s 8h", rnd) == ("8s 9h", rnd)  # noqa: PT017 (the message is what is tested)
    text = student_message(excinfo)
    assert text.startswith("a check with no explanation of its own failed: assert ('8s 8h', <"), text
    assert text.endswith("; At index 0 diff: '8s 8h' != '8s 9h'"), text
    assert "0x" not in text and "Use -v" not in text and "\n" not in text, text


def test_did_not_raise_names_the_error_in_words() -> None:
    """pytest's "DID NOT RAISE <class 'blackjack.errors.InvalidBetError'>" becomes a sentence naming the error
    the code should have raised."""
    from blackjack import InvalidBetError

    with pytest.raises(pytest.fail.Exception) as excinfo:
        with pytest.raises(InvalidBetError):
            pass
    assert student_message(excinfo) == ("the code under test should have raised InvalidBetError here, and it raised "
                                        "nothing: it accepted what the test's description says it must refuse")


@pytest.mark.parametrize("pytest_text, named", [
    ("DID NOT RAISE <class 'blackjack.errors.InvalidBetError'>", "InvalidBetError"),  # pytest 8
    ("DID NOT RAISE (<class 'blackjack.errors.InvalidBetError'>, <class 'ValueError'>)",
     "InvalidBetError or ValueError"),
    ("DID NOT RAISE InvalidBetError", "InvalidBetError"),  # pytest 9.2
    ("DID NOT RAISE any of (InvalidBetError, ValueError)", "InvalidBetError or ValueError"),
], ids=["8-one", "8-several", "9.2-one", "9.2-several"])
def test_did_not_raise_reads_both_pytest_forms(pytest_text: str, named: str) -> None:
    """Both of pytest's ways of writing "DID NOT RAISE" (8.x and 9.2) name the errors in words."""
    with pytest.raises(pytest.fail.Exception) as excinfo:
        pytest.fail(pytest_text)
    assert student_message(excinfo) == (f"the code under test should have raised {named} here, and it raised "
                                        "nothing: it accepted what the test's description says it must refuse")


def test_a_none_that_breaks_a_test_is_explained() -> None:
    """An AttributeError or TypeError on None (a function that forgot its return) says so."""
    def forgot() -> None:
        pass

    assert message_of(lambda: forgot().get_score()).endswith(  # type: ignore[func-returns-value]
"a value was None: does a function you wrote end without "
                                             "returning its result?")
