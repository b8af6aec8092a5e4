"""The wheel is the product: what pyproject.toml packs, and the tools on a kit that lacks its suites.

The full check (build the wheel, install it in a fresh venv, play, simulate, open the table,
grade from another folder) is ``.ci/wheel-check``, which ``.ci/run`` runs; these tests keep the
packing list honest between runs and cover the kit's answers when the suites are missing.
"""

from __future__ import annotations

import fnmatch
import shutil
import tomllib
from pathlib import Path

import pytest

from milestones import REPO_ROOT
from milestones.config import handout_dir, require_suites, suites_dir
from milestones.grader.grading import Grader
from milestones.honesty import check_honesty
from milestones.starter import _ignore_in_milestones, write_starter

SETUPTOOLS = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
RUNTIME_PACKAGES = ("blackjack", "gui", "milestones")


def _package_folder(package: str) -> Path:
    """The clone's folder of a package listed in pyproject (through its package-dir mapping)."""
    mapping: dict[str, str] = SETUPTOOLS.get("package-dir", {})
    for name in sorted(mapping, key=len, reverse=True):
        if package == name or package.startswith(name + "."):
            return REPO_ROOT / mapping[name] / Path(*package[len(name) + 1:].split(".") if package != name else ())
    return REPO_ROOT / Path(*package.split("."))


def test_every_package_of_the_kit_is_listed() -> None:
    """A new subpackage (a folder with __init__.py) that pyproject does not list would be left out of the wheel."""
    listed = set(SETUPTOOLS["packages"])
    for top in RUNTIME_PACKAGES:
        for init in (REPO_ROOT / top).rglob("__init__.py"):
            package = ".".join(init.parent.relative_to(REPO_ROOT).parts)
            assert package in listed, f"{package} is not in [tool.setuptools] packages, so the wheel leaves it out"
    for package in listed:
        assert _package_folder(package).is_dir(), f"pyproject lists {package}, but {_package_folder(package)} is missing"


def test_every_data_file_the_packages_read_is_packed() -> None:
    """Every .toml, .md and .json beside the kit's code matches a package-data pattern (counting.toml was left out)."""
    data: dict[str, list[str]] = SETUPTOOLS["package-data"]
    for package in SETUPTOOLS["packages"]:
        folder = _package_folder(package)
        for file in folder.iterdir():
            if file.suffix not in (".toml", ".md", ".json", ".typed"):
                continue
            if package == "milestones.suites" or package == "milestones.handout":
                continue  # tests/README.md and the other docs are the clone's, not the product's
            patterns = data.get(package, [])
            assert any(fnmatch.fnmatch(file.name, p) for p in patterns), (
                f"{file.relative_to(REPO_ROOT)} is not in package-data for {package}, so the wheel leaves it out")
    handout = data["milestones.handout"]
    for name in handout:
        assert (_package_folder("milestones.handout") / name).is_file(), f"the handout lists {name}, which is missing"


def test_the_suites_and_handout_the_wheel_packs_are_the_ones_the_tools_use() -> None:
    """In the clone the tools read tests/ and docs/; pyproject maps exactly those into the wheel."""
    assert SETUPTOOLS["package-dir"]["milestones.suites"] == "tests"
    assert SETUPTOOLS["package-dir"]["milestones.handout"] == "docs"
    assert suites_dir(REPO_ROOT) == REPO_ROOT / "tests"
    assert handout_dir(REPO_ROOT) == REPO_ROOT / "docs"
    for number in (1, 2, 3):
        assert f"milestones.suites.milestone{number}" in SETUPTOOLS["packages"]


def test_an_installed_layout_is_found(tmp_path: Path) -> None:
    """Under site-packages the suites are milestones/suites and the handout milestones/handout."""
    (tmp_path / "milestones" / "suites" / "milestone1").mkdir(parents=True)
    (tmp_path / "milestones" / "handout").mkdir()
    assert suites_dir(tmp_path) == tmp_path / "milestones" / "suites"
    assert handout_dir(tmp_path) == tmp_path / "milestones" / "handout"
    assert require_suites(tmp_path, [1]) == tmp_path / "milestones" / "suites"
    with pytest.raises(FileNotFoundError, match="milestone2"):
        require_suites(tmp_path, [2])


def _kit_without_suites(tmp_path: Path) -> Path:
    """A copy of the reference packages with no suites (a wheel built without them)."""
    root = tmp_path / "kit"
    for package in ("blackjack", "gui"):
        shutil.copytree(REPO_ROOT / package, root / package, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def test_starter_from_a_kit_without_suites_fails_with_a_message(tmp_path: Path) -> None:
    """It used to write a starter with an empty tests/ and exit 0 ("0 public test modules")."""
    root = _kit_without_suites(tmp_path)
    with pytest.raises(FileNotFoundError, match="test suites are missing"):
        write_starter(tmp_path / "out", root=root)


def test_honesty_on_a_kit_without_suites_fails_instead_of_passing_on_nothing(tmp_path: Path) -> None:
    """It used to pass on "0 point tests"."""
    root = _kit_without_suites(tmp_path)
    with pytest.raises(FileNotFoundError, match="test suites are missing"):
        check_honesty(root)


def test_grading_a_milestone_with_no_suite_fails_instead_of_scoring_nothing(tmp_path: Path) -> None:
    """A Grader pointed at a folder without the milestone's suite refuses, naming the folder."""
    with pytest.raises(FileNotFoundError, match="no such suite"):
        Grader(tests=tmp_path, reference=REPO_ROOT).inventory(1)


def test_the_starter_never_copies_the_installed_suites_or_handout(tmp_path: Path) -> None:
    """An installed milestones package holds suites/ (hidden tests too) and handout/; a starter copies neither."""
    package = tmp_path / "milestones"
    ignore = _ignore_in_milestones(package)
    assert ignore(str(package), ["suites", "handout", "specs", "check.py"]) == {"suites", "handout"}
    assert ignore(str(package / "specs"), ["suites", "milestone1.md"]) == set(), "only the package's own folders"
    assert "__pycache__" in ignore(str(package), ["__pycache__"])
