"""Fixtures for the milestone 3 tests: a real (or virtual) display, in force before the student's process starts.

The window tests need a display. Without ``$DISPLAY`` the session starts its own
``Xvfb`` (``sudo apt-get install xvfb``); where neither works they are skipped with that
reason (the ``display`` fixture of ``tests/conftest.py``), except under CI (``$CI``
set), where a missing display is an error.

The windows open in the process that runs the student's code (``observe_gui.py``), which
takes its environment from this process when the module's ``student`` fixture is made: the
display (``$DISPLAY``, which the ``display`` fixture sets when it starts Xvfb) must be in
force before that, even when the module's first tests need no window.
"""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module", autouse=True)
def display_before_the_student(request: pytest.FixtureRequest) -> str | None:
    """The ``display`` fixture, set up before the module's ``student`` fixture (an autouse fixture comes first).

    Returns:
        The display's name, or None where there is none: the tests of the plain functions still
        run, and each window test is skipped (or, under CI, fails) as the ``display`` fixture says.
    """
    try:
        return str(request.getfixturevalue("display"))
    except (pytest.skip.Exception, pytest.fail.Exception):
        return None  # pytest keeps the outcome: every test that asks for ``display`` gets it again
