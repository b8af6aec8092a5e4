"""Every point-bearing check in the milestone suites carries a message for the student.

The grader shows a student only an assert's own message (pytest's explanation, a raw
``assert ('8s 8h' == ...)`` diff or "Use -v to get more diff", only when the assert has
none), and a bare ``pytest.raises`` that fails reads "DID NOT RAISE InvalidBetError",
which names neither the input that was accepted nor the rule. So, in every suite the
course lists (found through :mod:`milestones.config`, wherever the suites live):

* each ``assert`` in a test worth points, or in a helper function of a suite module
  (helpers check on behalf of point tests), has a message;
* no such test or helper uses ``with pytest.raises(...)``: a helper that raises an
  ``AssertionError`` naming what was accepted does the job (``raises`` in
  ``tests/milestone2/test_wagering.py``).

Tests marked ``points(0)`` are left alone: they are ungraded checks for the curious.
Each failure lists the file and line of every check without a message.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from milestones import REPO_ROOT
from milestones.config import load_course, suite_path


def _points(decorators: list[ast.expr]) -> float | None:
    """The n of a ``@pytest.mark.points(n)`` decorator among ``decorators`` (None: no such marker)."""
    for decorator in decorators:
        if (isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Attribute)
                and decorator.func.attr == "points" and decorator.args
                and isinstance(decorator.args[0], ast.Constant)
                and isinstance(decorator.args[0].value, (int, float))):
            return float(decorator.args[0].value)
    return None


def _module_points(tree: ast.Module) -> float | None:
    """The points of a module-level ``pytestmark = pytest.mark.points(n)`` (or a list holding it)."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark"
                                                for t in node.targets):
            values = node.value.elts if isinstance(node.value, (ast.List, ast.Tuple)) else [node.value]
            return _points(list(values))
    return None


def _checked_functions(tree: ast.Module) -> Iterator[ast.FunctionDef]:
    """The functions whose checks a student may read: point tests and every helper (not ``points(0)`` tests)."""
    default = _module_points(tree)

    def visit(body: list[ast.stmt], inherited: float | None) -> Iterator[ast.FunctionDef]:
        for node in body:
            if isinstance(node, ast.ClassDef):
                own = _points(node.decorator_list)
                yield from visit(node.body, own if own is not None else inherited)
            elif isinstance(node, ast.FunctionDef):
                if not node.name.startswith("test"):
                    yield node  # a helper or fixture
                    continue
                points = _points(node.decorator_list)
                points = points if points is not None else inherited
                if points is None or points > 0:  # no marker: the plugin fails it; count it anyway
                    yield node

    yield from visit(tree.body, default)


def _is_raises(item: ast.withitem) -> bool:
    call = item.context_expr
    return (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "raises"
            and isinstance(call.func.value, ast.Name) and call.func.value.id == "pytest")


def unexplained_checks(source: str) -> list[tuple[int, str]]:
    """``(line, what)`` of every point-bearing check in a suite module's ``source`` that gives no message."""
    tree = ast.parse(source)
    found: set[tuple[int, str]] = set()
    for function in _checked_functions(tree):
        for node in ast.walk(function):
            if isinstance(node, ast.Assert) and node.msg is None:
                found.add((node.lineno, f"assert {ast.unparse(node.test)[:70]}"))
            elif isinstance(node, ast.With) and any(_is_raises(item) for item in node.items):
                found.add((node.lineno, "with pytest.raises(...) (a failure reads 'DID NOT RAISE ...')"))
    return sorted(found)


def test_the_counter_finds_what_a_student_would_see_raw() -> None:
    """The counter flags a bare assert and a bare pytest.raises in a point test and in a helper, and leaves
    asserts with messages and points(0) tests alone."""
    source = '''
import pytest

def helper(x):
    assert x, "x should be true"
    assert x > 1

@pytest.mark.points(2)
def test_graded():
    assert 1 == 1, "fine"
    assert 2 == 2
    with pytest.raises(ValueError):
        int("x")

@pytest.mark.points(0)
def test_ungraded():
    assert 3 == 3

@pytest.mark.points(1)
class TestGroup:
    def test_in_class(self):
        assert 4 == 4
'''
    assert [line for line, _ in unexplained_checks(source)] == [6, 11, 12, 22]


def _suite_modules(number: int) -> list[Path]:
    folder = REPO_ROOT / suite_path(number)
    return sorted(folder.rglob("*.py")) if folder.is_dir() else []


@pytest.mark.parametrize("number", load_course().numbers, ids=lambda n: f"milestone{n}")
def test_every_point_bearing_check_has_a_message(number: int) -> None:
    """No assert (or pytest.raises) in a graded test or a suite helper leaves the student with pytest's raw
    diff: each says what was given, what was expected and what came back. Lists each file:line that does not."""
    modules = _suite_modules(number)
    if not modules:
        pytest.skip(f"no suite folder {suite_path(number)}")
    missing = [f"{module.relative_to(REPO_ROOT).as_posix()}:{line}: {what}"
               for module in modules for line, what in unexplained_checks(module.read_text(encoding="utf-8"))]
    assert not missing, (f"{len(missing)} point-bearing checks in {suite_path(number)} give the student no "
                         f"message:\n" + "\n".join(missing))
