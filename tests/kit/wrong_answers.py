"""A pytest plugin that gives every judge wrong answers, to render its failure message.

Loaded with ``-p wrong_answers`` (``tests/kit`` on the path) in a run of the milestone suites against the
reference: each value the student's process returns is replaced by one of the same shape with one kind of
part wrong (:func:`wrong`; the kinds in :data:`PASSES`, tried in turn until one fails the judge), and every
call the judge expects to raise returns instead, so the judges' asserts fail and their messages are built.
How each test failed, with the student's message, is written as JSON to the file named by
``$WRONG_ANSWERS_REPORT``. A message that starts "the test itself failed" means building it raised: a
message this Python cannot show (``test_kit_wrong_answers.py``).
"""

from __future__ import annotations

import itertools
import json
import os
import re
from collections.abc import Generator
from typing import Any

import pytest
from _pytest.runner import runtestprotocol

from milestones.grader.judge import Raised, Student
from milestones.grader.plugin import student_message

_FRACTION = re.compile(r"(-?\d+)(?:/(\d+))?")

#: The words of a round, each swapped for a wrong one: two tables, so that every move can become each kind of
#: mistake a judge looks for (a stand that should be a hit, and a hit that should be a split).
WORDS = {
    "words": {"hit": "stand", "stand": "hit", "double": "surrender", "split": "hit", "surrender": "hit",
              "win": "lose", "wins": "loses", "lose": "push", "loses": "pushes", "push": "win", "pushes": "wins"},
    "other words": {"hit": "double", "stand": "split", "double": "split", "split": "stand", "surrender": "split",
                    "win": "push", "wins": "pushes", "lose": "win", "loses": "wins", "push": "lose",
                    "pushes": "loses"},
}
_DIGITS = re.compile(r"\d+")
_WORD = re.compile(r"\b(" + "|".join(sorted(WORDS["words"], key=len, reverse=True)) + r")\b", re.IGNORECASE)


def _swap(match: re.Match[str], table: dict[str, str]) -> str:
    word = match.group(0)
    swapped = table[word.lower()]
    return swapped.upper() if word.isupper() else swapped.capitalize() if word[0].isupper() else swapped


_DECIMAL = re.compile(r"-?\d+(?:\.\d+)?")


def wrong(value: Any, what: str, step: int = 1) -> Any:
    """``value`` with every part of the kind ``what`` wrong by ``step``, lists, dicts and the rest keeping their shape:

    * ``"numbers"``: ``step`` more (exact numbers stay exact);
    * ``"flags"``: turned round;
    * ``"words"``, ``"other words"``: each move and result in text swapped for another (:data:`WORDS`);
    * ``"digits"``: every number written in text ``step`` more;
    * ``"text"``: question marks added, except to empty text (such as nothing printed) and to a list's first
      text (a tag such as ``["ask", prompt]`` says what the rest is);
    * ``"another error"``: nothing here; the call raises :data:`ANOTHER_ERROR` instead of the student's error.
    """
    if isinstance(value, bool):
        return (not value) if what == "flags" else value
    if isinstance(value, (int, float)):
        return value + step if what == "numbers" else value
    if isinstance(value, str):
        if what == "digits":
            return _DIGITS.sub(lambda match: str(int(match.group(0)) + step), value)
        if what in WORDS:
            return _WORD.sub(lambda match: _swap(match, WORDS[what]), value)
        return value + "?" * step if what == "text" and value else value
    if isinstance(value, list):
        if what == "text" and len(value) > 1 and isinstance(value[0], str):
            return [value[0], *(wrong(item, what, step) for item in value[1:])]  # a tag: says what the rest is
        return [wrong(item, what, step) for item in value]
    if isinstance(value, dict):
        if what == "numbers" and len(value) == 1:
            (kind, text), = value.items()
            if kind == "fraction" and isinstance(text, str) and (match := _FRACTION.fullmatch(text)):
                top, bottom = int(match.group(1)), int(match.group(2) or 1)
                return {"fraction": f"{top + step * bottom}/{bottom}"}
            if kind == "decimal" and isinstance(text, str) and _DECIMAL.fullmatch(text):
                return {"decimal": f"{text}{'' if '.' in text else '.'}{step}"}
        return {key: wrong(item, what, step) for key, item in value.items()}
    return value


#: What each try makes wrong, in turn: a judge is tried again with the next only while no try has failed it.
PASSES = ("numbers", "flags", "words", "other words", "text", "digits", "another error")

#: What the student's code raises instead in the "another error" try: the error a list gives, a common slip.
ANOTHER_ERROR = {"type": "IndexError", "bases": ["IndexError", "LookupError", "Exception", "BaseException"],
                 "message": "pop from empty list", "where": " (in deal, blackjack/deck.py:1)"}
_what = PASSES[0]
_real_call = Student.__call__
_calls = itertools.count(1)


def _wrong_call(self: Student, call: str, *args: Any) -> Any:
    # A yes/no answer is turned round in every try; each call is wrong by a different step, so a judge that
    # compares two calls (a replay) sees them differ.
    try:
        value = _real_call(self, call, *args)
    except Raised:
        if _what == "another error":
            raise Raised(ANOTHER_ERROR) from None
        raise
    return (not value) if isinstance(value, bool) else wrong(value, _what, next(_calls))


def _raised_nothing(self: Student, call: str, *args: Any) -> None:
    """The call the judge expects to raise returns instead: "it accepted what it must refuse"."""
    return None


Student.__call__ = _wrong_call  # type: ignore[method-assign]
Student.raised = _raised_nothing  # type: ignore[method-assign]

INTERNAL = "the test itself failed ("
_report: dict[str, dict[str, str]] = {}


def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> bool:
    """Run ``item`` with each kind of wrong answer in turn until one fails it; record how it failed.

    A KeyError while building the message means the wrong answer lost a key the judge reads (a flag or a tag
    that says which shape the rest has was changed: an answer no observation gives), so the next kind is tried.
    """
    global _what
    outcome = {"outcome": "passed", "message": "", "what": "", "judge": str("student" in item.fixturenames)}
    for what in PASSES:
        _what = what
        reports = runtestprotocol(item, log=False, nextitem=nextitem)
        failed = [r for r in reports if r.failed and r.when in ("setup", "call")]
        if failed:
            message = str(getattr(failed[0], "student_text", ""))
            outcome = {**outcome, "outcome": "failed", "message": message, "what": what}
            if not message.startswith(INTERNAL + "KeyError"):
                break
    _report[item.nodeid] = outcome
    return True


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    if call.excinfo is not None and report.failed:
        report.student_text = student_message(call.excinfo)


def pytest_sessionfinish(session: pytest.Session) -> None:
    path = os.environ.get("WRONG_ANSWERS_REPORT")
    if path:
        with open(path, "w", encoding="utf-8") as out:
            json.dump(_report, out, indent=1)
