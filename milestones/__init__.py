"""Blackjack Kit's classroom kit: milestone specs, starter code, graded test suites and the grader.

=========================  ===========================================================
module                     what it holds
=========================  ===========================================================
``config``                 the course's milestones and points (``points.toml``)
``regions``                ``# BEGIN SOLUTION`` regions: find, stub, restore
``hidden``                 strip hidden tests for the students' public copy
``starter``                write a student starter package (``python -m milestones starter``)
``pytest_plugin``          points/hidden/PART markers, the student fixture, messages, the results stream
``judge``                  the judge's side: ask the student's process, read its answers as data
``observer``               the student's process: run the suites' observations on a submission
``runner``                 run one suite (the judge) against one submission and read its results
``isolation``              a graded run isolated: private copies, sandbox user, namespaces
``grading``                grade submissions, layered grading, rubric totals
``report``                 text, JSON, Gradescope ``results.json`` and CSV output
``check``                  the student's progress check and diary line
``ten_rounds``             the course's "10 rounds" experiment for the diary
``defend``                 defend a hint policy: house edge and EV lost beside basic strategy
``demo``                   the Program Demo: play the student's game through each scene
``honesty``                prove every point test fails on the starter and passes on the reference
``tracing``                where in the student's files an exception came from
``pyparse``                ``ast.parse`` that takes turns across the grader's threads
``specs/``                 the milestone specs handed to students
=========================  ===========================================================

Command line: ``python -m milestones {starter,grade,autograder,check,demo,defend,honesty} --help``;
``docs/instructor.md`` and ``docs/student.md`` walk through them.
"""

from pathlib import Path

__all__ = ["REPO_ROOT"]

#: The folder holding ``blackjack/``, ``gui/``, ``milestones/`` and ``tests/``.
REPO_ROOT = Path(__file__).resolve().parents[1]
