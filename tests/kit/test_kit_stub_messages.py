"""No starter stub and no point-bearing message hands the student the reference's code.

A stub's ``NotImplementedError`` (the text after ``# BEGIN SOLUTION mN:``) and a failing
test's message say what the function must do and what went wrong (given, expected, got,
the concept) and may name the given building blocks a student calls (``use
Hand.total_text``, ``start_round``), but never write the body. :func:`code_in` reads a
text as code when it holds

* a statement or expression of a reference body (:func:`code_units`: every statement, the
  header of every ``if``/``while``/``for`` with its keyword, every value assigned or
  returned and every call with two arguments or an argument that is not a plain name,
  squashed: no whitespace, one kind of quote), of any region, since a test message may
  teach any of them;
* an assignment, ``name = value`` (spaces around ``=``; a keyword argument in a call the
  test made, ``rules=Rules(...)``, is a given, not an answer);
* a call chain, a call whose result is used further (``rnd.view().seats``), or a call
  two attributes deep (``self.game.start_round(``);
* statements in a row, ``...; then`` or ``f(); g(``, or method calls in order,
  ``self.finish_if_settled() and self.refresh()``.

The stub texts come from :func:`milestones.regions.scan`; the messages are the string
literals (f-strings with their ``{...}`` left out) of every point test and suite helper,
found as ``test_kit_assert_messages.py`` finds them, and of the suite modules'
constants (a table of what each handler does, quoted into messages).

The line ``check`` prints as "what it checks" (a test's recorded ``doc``) is whole too:
the first paragraph of the docstring, never its first line cut mid-sentence.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Iterable, Iterator

import pytest
from test_kit_assert_messages import _checked_functions, _suite_modules

from milestones import REPO_ROOT
from milestones.config import load_course, suite_path
from milestones.grader.plugin import doc_summary
from milestones.regions import Region, scan
from milestones.grader.runner import Limits, run_suite

#: Shapes of code in prose, by name (see the module docstring).
PATTERNS = {
    "an assignment": re.compile(r"(?<![\w.])[A-Za-z_][\w.]*(?:\[[^\]]*\])?\s+[-+*/]?=\s+(?!=)"),
    "a call chain": re.compile(r"[\w.]*\w\([^()]*\)\.\w+"),
    "a call two attributes deep": re.compile(r"\b[A-Za-z_]\w*(?:\.\w+){2,}\("),
    "statements in a row": re.compile(r";\s*then\b|[\w.]*\w\([^()]*\)\s*;\s*[\w.]+\("),
    "method calls in order": re.compile(r"\w+(?:\.\w+)+\([^()]*\)(?:\s*,)?\s+(?:and|then)\s+(?:calls?\s+)?"
                                        r"\w+(?:\.\w+)+\("),
}


def squash(text: str) -> str:
    """``text`` without whitespace and with ``'`` as ``"``, so code matches however it is spaced or quoted."""
    return re.sub(r"\s+", "", text.replace("'", '"'))


def _is_a_name(node: ast.expr) -> bool:
    """True for a name, a constant, a field or item of one, or a call without arguments: naming, not code."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return isinstance(node, (ast.Name, ast.Constant)) or (
        isinstance(node, ast.Call) and not node.args and not node.keywords and _is_a_name(node.func))


def code_units(body: str) -> set[str]:
    """The squashed pieces of a reference body that would give it away if a message quoted them.

    Statements, the headers of ``if``/``while``/``for`` (with the keyword, so a message may
    still say what a condition is), the values assigned, returned or raised, and every call
    with two arguments or a non-name argument; a bare name, field or call without
    arguments is a name a message may use, and so is a piece shorter than 10 characters or
    without an operator, bracket or dot (``return total``).
    """
    found: set[str] = set()
    for node in ast.walk(ast.parse(textwrap.dedent(body))):
        if isinstance(node, ast.If):
            found.add("if " + ast.unparse(node.test))
        elif isinstance(node, ast.While):
            found.add("while " + ast.unparse(node.test))
        elif isinstance(node, ast.For):
            found.add(f"for {ast.unparse(node.target)} in {ast.unparse(node.iter)}")
        elif isinstance(node, ast.Expr) and not _is_a_name(node.value):
            found.add(ast.unparse(node.value))
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.Raise)):
            found.add(ast.unparse(node))
            value = node.exc if isinstance(node, ast.Raise) else node.value
            if value is not None and not _is_a_name(value):
                found.add(ast.unparse(value))
        if (isinstance(node, ast.Call) and not _is_a_name(node)
                and (len(node.args) + len(node.keywords) >= 2
                     or any(not isinstance(a, (ast.Name, ast.Constant)) for a in node.args))):
            found.add(ast.unparse(node))
    return {s for s in map(squash, found) if len(s) >= 10 and re.search(r"[-(=\[.*/+<>]", s)}


def reference_units(regions: Iterable[Region]) -> set[str]:
    """The :func:`code_units` of every region's body."""
    return set().union(*(code_units(r.body) for r in regions))


def code_in(text: str, units: Iterable[str]) -> list[str]:
    """What in ``text`` reads as code: each quoted body piece and each code shape, as ``"kind: piece"``."""
    squashed = squash(text)
    found = [f"a line of the reference: {unit}" for unit in sorted(units) if unit in squashed]
    found += [f"{kind}: {match.group(0)}" for kind, pattern in PATTERNS.items() for match in pattern.finditer(text)]
    return found


def _text(node: ast.expr) -> str | None:
    """The words of a string expression (literal, f-string, ``+`` of them, ``a if c else b``), ``{}`` for a value."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else None
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            inner = _text(value.value) if isinstance(value, ast.FormattedValue) else _text(value)
            parts.append("{}" if inner is None else inner)
        return "".join(parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _text(node.left), _text(node.right)
        return None if left is None and right is None else (left or "{}") + (right or "{}")
    if isinstance(node, ast.IfExp):
        body, orelse = _text(node.body), _text(node.orelse)
        return None if body is None and orelse is None else f"{body or '{}'} | {orelse or '{}'}"
    return None


def _strings(node: ast.AST, skip: ast.AST | None) -> Iterator[tuple[int, str]]:
    """``(line, words)`` of every outermost string expression under ``node`` (``skip``: a docstring's node)."""
    if node is skip:
        return
    if isinstance(node, ast.expr):
        words = _text(node)
        if words is not None:
            yield node.lineno, words
            return
    for child in ast.iter_child_nodes(node):
        yield from _strings(child, skip)


def message_texts(source: str) -> list[tuple[int, str]]:
    """``(line, words)`` of every message a student may read in a suite module: the strings of point tests and
    helpers (docstrings aside) and of the module's constants."""
    tree = ast.parse(source)
    found: list[tuple[int, str]] = []
    for function in _checked_functions(tree):
        first = function.body[0]
        doc = first if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) else None
        found.extend(_strings(function, doc))
    for statement in tree.body:
        if isinstance(statement, (ast.Assign, ast.AnnAssign)):
            found.extend(_strings(statement, None))
    return sorted(found)


def test_code_in_tells_teaching_from_code() -> None:
    """Words, names of given functions and the calls a test made pass; a body's line, an assignment, a call chain,
    statements in a row and method calls in order are caught."""
    units = code_units("        self.round = self.game.start_round()\n        self.finish_if_settled()\n"
                       "        self.refresh()\n        return total\n"
                       "        if self.round is None:\n            return\n")
    good = ["start a new round from the game and show it; if it is already settled (a natural), finish it",
            "use Hand.total_text, which writes a soft total as '7 / 17'; the round is settled when view.phase is "
            "Phase.SETTLED; self.round is None after the press",
            "dealer_probabilities(10, rules=Rules(dealer_peeks=False)) should be 0.2143; 4**4 = 256, 4! = 24",
            "refresh() redraws the window; start_round() deals; return the total"]
    for text in good:
        assert code_in(text, units) == [], (text, code_in(text, units))
    bad = {"self.round = self.game.start_round(); then self.finish_if_settled() and self.refresh()":
           {"a line of the reference", "an assignment", "a call two attributes deep", "statements in a row",
            "method calls in order"},
           "call self.finish_if_settled() and self.refresh()": {"method calls in order"},
           "tree = tree_for(counts, game)": {"an assignment"},
           "show dealer_text(rnd.view().dealer)": {"a call chain"},
           "if self.round is None, return": {"a line of the reference"},
           "deal(); refresh()": {"statements in a row"}}
    for text, kinds in bad.items():
        assert {found.split(":")[0] for found in code_in(text, units)} == kinds, (text, code_in(text, units))


def test_message_texts_reads_what_a_student_sees() -> None:
    """The strings of point tests, helpers and constants are read, with f-string values as {}; docstrings and
    points(0) tests are not."""
    source = '''
import pytest

HANDLERS = {"deal": "deal() starts a round"}


def helper(x):
    """A helper's docstring."""
    assert x, "x " + ("is" if x else "was") + f" {x} true"


@pytest.mark.points(2)
def test_graded(got):
    """The docstring is what it checks, not a message."""
    assert got == 1, f"should be 1; got {got!r}"


@pytest.mark.points(0)
def test_ungraded():
    assert 1, "never read"
'''
    assert message_texts(source) == [(4, "deal"), (4, "deal() starts a round"), (9, "x is | was {} true"),
                                     (15, "should be 1; got {}")]


def test_no_stub_text_holds_reference_code() -> None:
    """Every region's stub text (the starter's NotImplementedError) says what to do in words: no line of any
    reference body, no assignment, call chain or statements in a row. Lists each offending stub."""
    regions = scan(REPO_ROOT)
    units = reference_units(regions)
    found = [f"{r.module}:{r.begin} {r.qualname}: {', '.join(code_in(r.hint, units))}"
             for r in regions if code_in(r.hint, units)]
    assert not found, f"{len(found)} of {len(regions)} stub texts hand over code:\n" + "\n".join(found)


@pytest.mark.parametrize("number", load_course().numbers, ids=lambda n: f"milestone{n}")
def test_no_point_bearing_message_holds_reference_code(number: int) -> None:
    """No message of a graded test, suite helper or suite constant writes the reference's code for the student.
    Lists each file:line and what in it reads as code."""
    modules = _suite_modules(number)
    if not modules:
        pytest.skip(f"no suite folder {suite_path(number)}")
    units = reference_units(scan(REPO_ROOT))
    found = [f"{module.relative_to(REPO_ROOT).as_posix()}:{line}: {', '.join(code_in(words, units))}"
             for module in modules for line, words in message_texts(module.read_text(encoding="utf-8"))
             if code_in(words, units)]
    assert not found, (f"{len(found)} messages in {suite_path(number)} hand over code:\n" + "\n".join(found))


def test_doc_summary_keeps_the_whole_first_paragraph() -> None:
    """A first sentence wrapped onto a second line is read whole, and the paragraph after a blank line is left out."""
    doc = """Over 200 seeded rounds, bankrolls plus the house's result never change, and the
    engine prints nothing.

    Details for the reader of the code.
    """
    assert doc_summary(doc) == ("Over 200 seeded rounds, bankrolls plus the house's result never change, and the "
                                "engine prints nothing.")
    assert doc_summary(None) == "" and doc_summary("One line.") == "One line."


@pytest.mark.parametrize("number", load_course().numbers, ids=lambda n: f"milestone{n}")
def test_every_what_it_checks_line_is_a_whole_sentence(number: int) -> None:
    """Every test the suite's collection records (what check shows as "what it checks") has a docstring whose
    recorded line ends a sentence. Lists each test whose line is cut or missing."""
    folder = REPO_ROOT / suite_path(number)
    if not folder.is_dir():
        pytest.skip(f"no suite folder {suite_path(number)}")
    run = run_suite(folder, None, limits=Limits(timeout=120), collect_only=True)
    assert run.collected, f"collecting {suite_path(number)} recorded no test"
    cut = [f"{record.name}: {record.doc!r}" for record in run.collected.values()
           if not re.search(r"[.!?][\"')]*$", record.doc)]
    assert not cut, f"{len(cut)} tests' 'what it checks' line is cut or missing:\n" + "\n".join(cut)
