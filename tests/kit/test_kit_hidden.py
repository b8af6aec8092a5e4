"""Stripping hidden tests from the students' public copy."""

from __future__ import annotations

import pytest

from milestones.grader.hidden import HiddenStripError, strip_hidden

MODULE = '''import pytest

@pytest.mark.points(1)
def test_visible():
    """Shown."""
    assert 1 + 1 == 2

@pytest.mark.points(2)
@pytest.mark.hidden
def test_secret():
    """Hidden."""
    assert SECRET_ANSWER_42

@pytest.mark.hidden
class TestSecrets:
    def test_a(self):
        assert SECRET_CLASS

@pytest.mark.parametrize("x", [
    1,
    pytest.param(SECRET_PARAM, marks=pytest.mark.hidden),
    3,
])
@pytest.mark.points(1)
def test_cases(x):
    """Cases."""
'''


def test_strip_removes_hidden_functions_classes_and_params() -> None:
    """Hidden tests, classes and parametrized cases vanish; visible ones stay."""
    text, removed = strip_hidden(MODULE, "test_x.py")
    assert text is not None
    assert removed == 3
    assert "SECRET" not in text and "hidden" not in text
    assert "def test_visible" in text and "def test_cases" in text and "    3," in text


def test_module_marked_hidden_is_dropped() -> None:
    """A module with pytestmark = pytest.mark.hidden is left out entirely."""
    assert strip_hidden("import pytest\npytestmark = [pytest.mark.hidden]\n", "t.py") == (None, 1)


def test_hidden_mark_used_another_way_is_refused() -> None:
    """A hidden mark the stripper cannot remove raises instead of leaking the test."""
    with pytest.raises(HiddenStripError):
        strip_hidden("import pytest\nHIDE = pytest.mark.hidden\n", "t.py")
