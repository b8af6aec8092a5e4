"""Blackjack Kit's classroom kit: milestone specs, starter code, graded test suites and the grader.

=========================  ===========================================================
module                     what it holds
=========================  ===========================================================
``config``                 the course's milestones and points (``points.toml``)
``regions``                ``# BEGIN SOLUTION`` regions: find, stub, restore
``starter``                write a student starter package (``python -m milestones starter``)
``grader/``                the grader, from a submission to ``results.json`` (its own package)
``report``                 text, JSON, Gradescope ``results.json`` and CSV output
``check``                  the student's progress check and diary line
``ten_rounds``             the course's "10 rounds" experiment for the diary
``defend``                 defend a hint policy: house edge and EV lost beside basic strategy
``demo``                   the Program Demo (``demo_scenes``, ``demo_judge``)
``host``, ``plays/``       the student's process of these tools, and what they run there
``honesty``                prove every point test fails on the starter and passes on the reference
``tracing``                where in the student's files an exception came from
``pyparse``                ``ast.parse`` that takes turns across the grader's threads
``specs/``                 the milestone specs handed to students
=========================  ===========================================================

docs/design/layout.md draws which process runs each module.

Command line: ``python -m milestones {starter,grade,autograder,check,demo,defend,honesty} --help``;
``docs/instructor.md`` and ``docs/student.md`` walk through them.
"""

from pathlib import Path

__all__ = ["REPO_ROOT"]

#: The folder holding ``blackjack/``, ``gui/``, ``milestones/`` and ``tests/``.
REPO_ROOT = Path(__file__).resolve().parents[1]
