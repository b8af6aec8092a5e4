"""Blackjack Kit's classroom kit: milestone specs, starter code, graded test suites and the grader.

docs/design/layout.md lists its modules and the process each runs in; ``docs/instructor.md`` and
``docs/student.md`` walk through its commands (``python -m milestones --help``).
"""

from pathlib import Path

__all__ = ["REPO_ROOT"]

#: The folder holding ``blackjack/``, ``gui/``, ``milestones/`` and ``tests/``.
REPO_ROOT = Path(__file__).resolve().parents[1]
