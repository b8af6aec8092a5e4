"""``milestones/specs/milestone2.md`` names each test of the static probabilities, basic hints and card counting parts
with its points (issue 36): those are the suites' ``@pytest.mark.points`` weights, hidden where the suite hides the
test, and each part's weights add up to its points in ``milestones/points.toml``."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

from milestones import REPO_ROOT

SPEC = REPO_ROOT / "milestones" / "specs" / "milestone2.md"
SUITES = ("test_probabilities.py", "test_hints_basic.py", "test_counting.py")
#: A row of a spec's tests table: ``| `test_name` (hidden) | points | what it checks |``.
ROW = re.compile(r"^\s*\| `(test_\w+)`( \(hidden\))? \| (\d+(?:\.\d+)?) \|", re.M)


def weights(path: Path) -> tuple[str, dict[str, tuple[float | None, bool]]]:
    """The module's ``PART`` and each test's ``(points, hidden)``, read from its source."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    part = next(ast.literal_eval(node.value) for node in tree.body
                if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "PART")
    found: dict[str, tuple[float | None, bool]] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
            marks = [ast.unparse(decorator) for decorator in node.decorator_list]
            points = next((float(ast.literal_eval(mark[len("pytest.mark.points("):-1])) for mark in marks
                           if mark.startswith("pytest.mark.points(")), None)
            found[node.name] = (points, "pytest.mark.hidden" in marks)
    return part, found


def test_the_spec_gives_each_test_the_points_the_suite_weighs_it() -> None:
    """Every test of the three parts is in the spec's table with the suite's weight, hidden as the suite hides it,
    and the weights of a part add up to the part's points."""
    spec = {m[1]: (float(m[3]), bool(m[2])) for m in ROW.finditer(SPEC.read_text(encoding="utf-8"))}
    parts = {part["key"]: part["points"]
             for milestone in tomllib.loads((REPO_ROOT / "milestones" / "points.toml").read_text(encoding="utf-8"))
             ["milestone"] if milestone["number"] == 2 for part in milestone["part"]}
    for name in SUITES:
        part, tests = weights(REPO_ROOT / "tests" / "milestone2" / name)
        assert {test: spec.get(test) for test in tests} == tests, f"{name}: the spec's table and the suite differ"
        assert sum(points or 0 for points, _hidden in tests.values()) == parts[part], part
