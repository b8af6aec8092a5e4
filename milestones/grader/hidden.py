"""Take hidden grading tests out of a test module, for the students' public copy.

How a test, class, module or parametrized case is marked hidden, and why its data belongs inside it: tests/README.md
("Hidden"). :func:`strip_hidden` removes them from the source, so a student cannot read the hidden cases (and use
the grader as an answer oracle); the instructor's copy keeps them.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

from ..config import SUITE_PREFIX, suite_number, suites_dir
from ..pyparse import parse

__all__ = ["HIDDEN_FILE", "HiddenStripError", "has_hidden_mark", "hidden_counts", "hidden_json", "strip_hidden"]

#: In a starter's ``milestones/`` folder: how many hidden tests each milestone's suite kept
#: back, ``{"1": 0, "2": 3}`` (the starter's tests no longer hold them to count).
HIDDEN_FILE = "hidden.json"


class HiddenStripError(ValueError):
    """The hidden tests of a module could not be removed cleanly; the message says where."""


def has_hidden_mark(node: ast.AST) -> bool:
    """Return True when ``node`` mentions ``pytest.mark.hidden`` (or ``mark.hidden``)."""
    return any(isinstance(sub, ast.expr) and _is_hidden(sub) for sub in ast.walk(node))


def _is_hidden(expr: ast.expr) -> bool:
    """``pytest.mark.hidden`` itself, or a list or tuple holding it (not a call that mentions it)."""
    if isinstance(expr, (ast.List, ast.Tuple)):
        return any(_is_hidden(e) for e in expr.elts)
    if isinstance(expr, ast.Attribute) and expr.attr == "hidden":
        value = expr.value
        return (isinstance(value, ast.Attribute) and value.attr == "mark") or (
            isinstance(value, ast.Name) and value.id == "mark")
    return False


def _is_pytestmark(stmt: ast.stmt) -> bool:
    return (isinstance(stmt, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in stmt.targets)
            and _is_hidden(stmt.value))


def _hidden_definition(stmt: ast.stmt) -> bool:
    """A function or class marked hidden: by a decorator, or (a class) by its ``pytestmark``."""
    return isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and (
        any(_is_hidden(d) for d in stmt.decorator_list)
        or (isinstance(stmt, ast.ClassDef) and any(_is_pytestmark(s) for s in stmt.body)))


def _is_hidden_param(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    named_param = (isinstance(func, ast.Attribute) and func.attr == "param") or (
        isinstance(func, ast.Name) and func.id == "param")
    return named_param and any(k.arg == "marks" and _is_hidden(k.value) for k in node.keywords)


def strip_hidden(source: str, name: str) -> tuple[str | None, int]:
    """Remove the hidden tests from one test module's source.

    Args:
        source: the module's text.
        name: its path, for messages.

    Returns:
        ``(public source, number of hidden tests and cases removed)``; the source is
        ``None`` when the whole module is hidden (``pytestmark`` at module level).

    Raises:
        HiddenStripError: the result would not parse, or a hidden mark is left over
            (for example a hidden mark applied in a way this function does not know).
        SyntaxError: the module does not parse.
    """
    tree = parse(source, filename=name)
    if any(_is_pytestmark(stmt) for stmt in tree.body):
        return None, 1
    data = source.encode("utf-8")
    line_starts = [0, *(index + 1 for index, byte in enumerate(data) if byte == ord("\n")), len(data)]

    def offset(line: int, col: int) -> int:
        return line_starts[line - 1] + col

    spans: list[tuple[int, int]] = []
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for stmt in body:
                if isinstance(stmt, ast.stmt) and _hidden_definition(stmt):
                    first = min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", [])])
                    end = stmt.end_lineno or stmt.lineno
                    spans.append((line_starts[first - 1], line_starts[min(end, len(line_starts) - 1)]))
        if _is_hidden_param(node):
            assert isinstance(node, ast.Call)
            start = offset(node.lineno, node.col_offset)
            stop = offset(node.end_lineno or node.lineno, node.end_col_offset or 0)
            while stop < len(data) and data[stop:stop + 1] in (b" ", b"\t"):
                stop += 1
            if data[stop:stop + 1] == b",":
                stop += 1
            spans.append((start, stop))
    # drop spans inside other spans (a hidden param inside a hidden test)
    spans.sort()
    kept: list[tuple[int, int]] = []
    for start, stop in spans:
        if kept and start < kept[-1][1]:
            kept[-1] = (kept[-1][0], max(kept[-1][1], stop))
        else:
            kept.append((start, stop))
    out = data
    for start, stop in reversed(kept):
        out = out[:start] + out[stop:]
    text = out.decode("utf-8")
    text = "\n".join(line for line in text.split("\n") if line.strip() or not line) if kept else text
    try:
        new_tree = parse(text, filename=name)
    except SyntaxError as err:
        raise HiddenStripError(f"{name}: removing the hidden tests leaves broken code ({err.msg}, line "
                               f"{err.lineno}); put each hidden case on its own pytest.param line or "
                               f"in its own test") from None
    if has_hidden_mark(new_tree):
        raise HiddenStripError(f"{name}: a pytest.mark.hidden is used in a way the starter cannot strip; "
                               f"mark whole tests, classes, modules or pytest.param cases")
    return text, len(kept)


def hidden_json(counts: dict[int, int]) -> str:
    """``counts`` (hidden tests per milestone number) as :data:`HIDDEN_FILE` holds them."""
    return json.dumps({str(number): count for number, count in sorted(counts.items())}) + "\n"


def hidden_counts(root: Path) -> dict[int, int]:
    """How many hidden tests (and hidden cases) each milestone suite of the kit under ``root`` has.

    A starter is read from its ``milestones/`` :data:`HIDDEN_FILE`; the reference is
    counted from its suites with :func:`strip_hidden`. Never fails: what cannot be read or
    counted is left out, because the answer only helps ``check`` word its last line.

    Returns:
        ``{milestone number: hidden tests}``.
    """
    try:
        listed = json.loads((root / "milestones" / HIDDEN_FILE).read_text(encoding="utf-8"))
        return {int(number): int(count) for number, count in listed.items()}
    except FileNotFoundError:
        pass
    except (OSError, UnicodeDecodeError, ValueError, TypeError, AttributeError):
        return {}
    counts: dict[int, int] = {}
    for folder in sorted(suites_dir(root).glob(f"{SUITE_PREFIX}*")):
        number = suite_number(folder.name)
        if number is None or not folder.is_dir():
            continue
        try:
            counts[number] = sum(strip_hidden(file.read_text(encoding="utf-8"), file.name)[1]
                                 for file in folder.rglob("*.py"))
        except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
            continue
    return counts
