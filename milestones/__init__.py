"""Blackjack Kit's classroom kit: milestone specs, starter code, graded test suites and the grader.

=========================  ===========================================================
module                     what it holds
=========================  ===========================================================
``config``                 the course's milestones and points (``points.toml``)
``regions``                ``# BEGIN SOLUTION`` regions: find, stub, restore
``hidden``                 strip hidden tests for the students' public copy
``starter``                write a student starter package (``python -m milestones starter``)
``pytest_plugin``          points/hidden/PART markers, student messages, the results stream
``runner``                 run one suite against one submission in a limited child process
``isolation``              a graded run isolated: private copies, canaries, sandbox user
``grading``                grade submissions, layered grading, rubric totals
``report``                 text, JSON, Gradescope ``results.json`` and CSV output
``check``                  the student's progress check and diary line
``honesty``                prove every point test fails on the starter and passes on the reference
``specs/``                 the milestone specs handed to students
=========================  ===========================================================

Command line: ``python -m milestones {starter,grade,autograder,check,honesty} --help``;
``docs/instructor.md`` and ``docs/student.md`` walk through them.
"""

from pathlib import Path

__all__ = ["REPO_ROOT"]

#: The folder holding ``blackjack/``, ``gui/``, ``milestones/`` and ``tests/``.
REPO_ROOT = Path(__file__).resolve().parents[1]
