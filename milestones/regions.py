"""Solution regions: the marked function bodies a student writes, and how to stub or restore them.

A region is the whole rest of one function body after its docstring, between ``# BEGIN SOLUTION mN: <what
to do>`` and ``# END SOLUTION``; tests/README.md shows the convention.
"""

from __future__ import annotations

import ast
import json
import re
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .pyparse import parse

__all__ = ["FUNCTIONS_FILE", "PACKAGES", "Function", "Region", "RegionError", "find_regions", "functions_json",
           "iter_modules", "restore_source", "scan", "split_functions", "stub_source"]

#: The packages a student's submission holds, in the order they are scanned.
PACKAGES = ("blackjack", "gui")

#: The list of the student's and the engine's functions in a starter's or autograder zip's
#: ``milestones/`` folder, where stubbing took the markers away (:func:`functions_json`).
FUNCTIONS_FILE = "functions.json"

_BEGIN = re.compile(r"^(?P<indent>[ \t]*)# BEGIN SOLUTION(?P<rest>.*)$")
_BEGIN_FULL = re.compile(r"^ m(?P<tag>\d+): (?P<hint>\S.*)$")
_END = re.compile(r"^(?P<indent>[ \t]*)# END SOLUTION\s*$")


class RegionError(ValueError):
    """A solution marker that breaks the convention; the message names the file and line."""


@dataclass(frozen=True, slots=True)
class Region:
    """One solution region.

    Attributes:
        module: the module's path relative to the package root's parent, ``"blackjack/hand.py"``.
        qualname: the enclosing function, ``"Hand.get_score"`` (dotted, nested names joined).
        milestone: the tag's number (``m2`` -> 2).
        hint: what to do, shown in the starter's ``NotImplementedError``.
        begin: line number (1-based) of the ``# BEGIN SOLUTION`` line.
        end: line number of the ``# END SOLUTION`` line.
        indent: the markers' indentation, which is the body's.
        body: the reference code between the markers, as written (indented).
    """

    module: str
    qualname: str
    milestone: int
    hint: str
    begin: int
    end: int
    indent: str
    body: str

    @property
    def stub(self) -> str:
        """The starter's line for this region: ``raise NotImplementedError("<hint>")``, indented."""
        text = self.hint.replace("\\", "\\\\").replace('"', '\\"')
        return f'{self.indent}raise NotImplementedError("{text}")'


def _functions(tree: ast.AST) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Yield ``(qualname, node)`` for every function in ``tree``, nested ones with dotted names."""
    def walk(node: ast.AST, prefix: str) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + child.name
                yield name, child
                yield from walk(child, name + ".")
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, prefix + child.name + ".")
            else:
                yield from walk(child, prefix)
    yield from walk(tree, "")


def _has_docstring(func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    first = func.body[0]
    return isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)


def _docstring_end(func: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Line number of the last line of the function's header and docstring (0 if none)."""
    first = func.body[0]
    return (first.end_lineno or first.lineno) if _has_docstring(func) else first.lineno - 1


def find_regions(source: str, module: str) -> list[Region]:
    """Find the solution regions of one module's source, in file order.

    Args:
        source: the module's text.
        module: its path for messages and :attr:`Region.module`, ``"blackjack/hand.py"``.

    Raises:
        RegionError: a BEGIN without END (or the reverse), nested regions, a BEGIN
            without ``mN: <what to do>``, a region outside a function, or code after the
            END inside the same function (a region must be the whole rest of the body).
        SyntaxError: the module does not parse.
    """
    lines = source.splitlines()
    markers: list[tuple[int, int, str, str, str]] = []  # begin, end, indent, tag, hint
    open_at: tuple[int, str, str, str] | None = None
    for number, line in enumerate(lines, start=1):
        begin = _BEGIN.match(line)
        if begin:
            if open_at is not None:
                raise RegionError(f"{module}:{number}: BEGIN SOLUTION inside the region opened at line {open_at[0]}")
            full = _BEGIN_FULL.match(begin["rest"])
            if not full:
                raise RegionError(f"{module}:{number}: write '# BEGIN SOLUTION m<N>: <what to do>'")
            open_at = (number, begin["indent"], full["tag"], full["hint"].strip())
            continue
        end = _END.match(line)
        if end:
            if open_at is None:
                raise RegionError(f"{module}:{number}: END SOLUTION without a BEGIN SOLUTION")
            if end["indent"] != open_at[1]:
                raise RegionError(f"{module}:{number}: END SOLUTION is not indented like its BEGIN "
                                  f"at line {open_at[0]}")
            markers.append((open_at[0], number, open_at[1], open_at[2], open_at[3]))
            open_at = None
    if open_at is not None:
        raise RegionError(f"{module}:{open_at[0]}: BEGIN SOLUTION without an END SOLUTION")
    if not markers:
        return []
    functions = list(_functions(parse(source, filename=module)))
    regions = []
    for begin_line, end_line, indent, tag, hint in markers:
        enclosing = [(name, f) for name, f in functions
                     if f.lineno < begin_line <= (f.end_lineno or f.lineno)]
        if not enclosing:
            raise RegionError(f"{module}:{begin_line}: a solution region must be inside a function body")
        qualname, func = max(enclosing, key=lambda pair: pair[1].lineno)  # the innermost
        if _has_docstring(func) and begin_line <= _docstring_end(func):
            raise RegionError(f"{module}:{begin_line}: the region must start after {qualname}'s docstring")
        code_after = [s for s in func.body if s.lineno > end_line]
        if code_after:
            raise RegionError(f"{module}:{code_after[0].lineno}: code after END SOLUTION in {qualname}; "
                              f"a region must be the whole rest of the function body")
        body = "\n".join(lines[begin_line:end_line - 1])
        regions.append(Region(module=module, qualname=qualname, milestone=int(tag), hint=hint,
                              begin=begin_line, end=end_line, indent=indent, body=body))
    return regions


def iter_modules(root: Path) -> Iterator[tuple[str, Path]]:
    """Yield ``(relative posix path, file)`` for every ``.py`` file of the packages under ``root``."""
    for package in PACKAGES:
        folder = root / package
        if not folder.is_dir():
            continue
        for file in sorted(folder.rglob("*.py")):
            if "__pycache__" in file.parts:
                continue
            yield file.relative_to(root).as_posix(), file


def scan(root: Path) -> list[Region]:
    """Return every solution region of the packages under ``root`` (the reference: the repo root).

    Raises:
        RegionError: a malformed marker.
        SyntaxError: a module does not parse.
    """
    regions: list[Region] = []
    for module, file in iter_modules(root):
        regions.extend(find_regions(file.read_text(encoding="utf-8"), module))
    return regions


def stub_source(source: str, module: str, stub: Callable[[Region], bool]) -> str:
    """Replace each region for which ``stub(region)`` is true by its ``raise NotImplementedError``.

    The signature, docstring, type hints and the rest of the module stay as they are;
    the markers of a stubbed region go, those of a kept region stay.

    Raises:
        RegionError, SyntaxError: as :func:`find_regions`.
    """
    lines = source.splitlines()
    for region in reversed(find_regions(source, module)):
        if stub(region):
            lines[region.begin - 1:region.end] = [region.stub]
    return "\n".join(lines) + ("\n" if source.endswith("\n") else "")


def restore_source(source: str, regions: list[Region]) -> tuple[str, list[str]]:
    """Put reference bodies back into a student's module, function by function.

    Each region's body replaces the whole body (after the docstring) of the student's
    function with the same qualname, re-indented to the student's indentation.

    Args:
        source: the student's module.
        regions: reference regions of this module to restore.

    Returns:
        ``(new source, qualnames that were not found)``; a missing function is left
        missing, and the source comes back unchanged when it does not parse.
    """
    try:
        tree = parse(source)
    except SyntaxError:
        return source, [r.qualname for r in regions]
    functions = dict(_functions(tree))
    lines = source.splitlines()
    missing = []
    edits = []
    for region in regions:
        func = functions.get(region.qualname)
        if func is None:
            missing.append(region.qualname)
            continue
        start = _docstring_end(func)  # replace lines start+1 .. end_lineno
        indent = " " * func.body[0].col_offset
        body = textwrap.indent(textwrap.dedent(region.body), indent)
        edits.append((start, func.end_lineno or func.lineno, body.splitlines()))
    for start, end, body_lines in sorted(edits, reverse=True):  # only a docstring (start == end): the body after it
        lines[start:end] = body_lines
    return "\n".join(lines) + "\n", missing


Function = tuple[str, str]
"""A function of the packages: ``(module, qualname)``, ``("blackjack/hand.py", "Hand.get_score")``."""


def _computed(root: Path) -> tuple[frozenset[Function], frozenset[Function]]:
    """The student's functions (the regions) and the engine's (every other function) of the packages under ``root``."""
    student: set[Function] = set()
    defined: set[Function] = set()
    for module, file in iter_modules(root):
        try:
            source = file.read_text(encoding="utf-8")
            defined.update((module, name) for name, _func in _functions(parse(source, filename=module)))
            student.update((r.module, r.qualname) for r in find_regions(source, module))
        except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
            continue
    return frozenset(student), frozenset(defined - student)


def functions_json(root: Path) -> str:
    """The student's and the engine's functions of the kit under ``root`` (:func:`split_functions`),
    as :data:`FUNCTIONS_FILE` holds them.

    Returns:
        ``{"student": [[module, qualname], ...], "engine": [...]}`` as JSON text.
    """
    student, engine = split_functions(root)
    return json.dumps({"student": sorted(student), "engine": sorted(engine)}, indent=1) + "\n"


def split_functions(root: Path) -> tuple[frozenset[Function], frozenset[Function]]:
    """Return the functions a student writes and the engine's functions (all the others), as
    ``(student, engine)`` sets of ``(module, qualname)``; nested functions have dotted names, ``"f.g"``.

    A kit that ships ``milestones/`` :data:`FUNCTIONS_FILE` (a starter or an autograder zip,
    whose stubbed regions lost their markers and whose packages may be a student's) is read
    from it; the reference is read from its packages' regions. A function a student adds is
    in neither set. Never fails: an unreadable list or module adds nothing, because the
    answer only helps a failure message name the student's code.
    """
    try:
        listed = json.loads((root / "milestones" / FUNCTIONS_FILE).read_text(encoding="utf-8"))
        return (frozenset((str(m), str(q)) for m, q in listed["student"]),
                frozenset((str(m), str(q)) for m, q in listed["engine"]))
    except FileNotFoundError:
        return _computed(root)
    except (OSError, UnicodeDecodeError, ValueError, TypeError, KeyError):
        return frozenset(), frozenset()
