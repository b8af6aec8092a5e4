"""The grader on the course's own suites: the reference earns every point of a milestone that opens windows."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

import milestones
from milestones.config import suites_dir
from milestones.grader.grading import Grader, find_submissions
from milestones.grader.runner import Limits

SUITES = suites_dir(milestones.REPO_ROOT)
IMPLEMENTATION = ("blackjack", "gui")


def _module_level_imports(tree: ast.Module) -> list[str]:
    """Modules imported when the file is imported (``if TYPE_CHECKING:`` blocks excepted)."""
    found: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.Import):
                found += [alias.name for alias in inner.names]
            elif isinstance(inner, ast.ImportFrom) and inner.module and not inner.level:
                found.append(inner.module)
            elif isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)):
                break
    return found


@pytest.mark.parametrize("conftest", sorted(SUITES.glob("milestone*/conftest.py")), ids=lambda p: p.parent.name)
def test_suite_conftests_import_no_implementation_at_import_time(conftest: Path) -> None:
    """pytest imports a suite's conftest before ``--impl`` is on ``sys.path``: an implementation import there
    would take the reference outside the grader and fail inside it (where there is no reference)."""
    tree = ast.parse(conftest.read_text(encoding="utf-8"))
    early = [name for name in _module_level_imports(tree) if name.split(".")[0] in IMPLEMENTATION]
    assert not early, (f"{conftest.parent.name}/conftest.py imports {', '.join(early)} when pytest loads it; "
                       "import inside the fixtures (or under TYPE_CHECKING for annotations)")


def test_the_reference_earns_milestone_3_in_the_isolated_grader(display: str, tmp_path: Path) -> None:
    """Milestone 3 opens Tk windows: graded isolated (private copy, sandbox user, its own Xvfb when root),
    a copy of the reference earns all 15 extra-credit points."""
    submission = tmp_path / "reference"
    submission.mkdir()
    for package in IMPLEMENTATION:
        shutil.copytree(Path(milestones.REPO_ROOT) / package, submission / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    grader = Grader(tests=SUITES, limits=Limits(timeout=300, test_timeout=30))
    [grade] = grader.grade(find_submissions([submission], tmp_path / "scratch"), [3])
    [milestone] = grade.milestones
    assert not milestone.notes, f"the run left notes: {milestone.notes}"
    assert (milestone.regular, milestone.extra) == (0, milestone.milestone.extra_points) == (0, 15), (
        f"the reference scored {milestone.regular} + {milestone.extra} extra on milestone 3, not 0 + 15")
