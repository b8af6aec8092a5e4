"""The public surface: ``__all__``, no tkinter in the engine, and an engine that never prints or reads (not graded)."""

from __future__ import annotations

import ast
import builtins
import random
import subprocess
import sys
import types
from pathlib import Path

import pytest

import blackjack
from blackjack import Action, Blackjack, Card, Rules, Shoe, create_card_array, parse_cards, shuffle

PACKAGE = Path(blackjack.__file__).resolve().parent
#: The engine modules (issue 2): the round and everything under it. Front ends (``__main__``,
#: ``text_game``, ``text_render``, ``coach``) and tools (``sim``) print by design.
ENGINE = ["actions", "cards", "deck", "errors", "events", "hand", "money", "player", "round", "rules", "table",
          "view"]


def test_all_equals_the_public_names() -> None:
    """blackjack.__all__ lists exactly the public names the package defines (submodules aside), sorted.

    The package loads its names on first use (PEP 562), so they are read with ``dir()`` and
    ``getattr``, which load them, not from the names bound so far.
    """
    loaded = {name: getattr(blackjack, name) for name in dir(blackjack) if not name.startswith("_")}
    assert set(blackjack.__all__) == {name for name, value in loaded.items() if not isinstance(value, types.ModuleType)}
    assert blackjack.__all__ == sorted(blackjack.__all__)


@pytest.mark.parametrize("package", ["blackjack.hints", "blackjack.sim"])
def test_subpackage_all_equals_its_public_names(package: str) -> None:
    """A subpackage's __all__ names every public name it imports for its users (``from blackjack.hints import *``)."""
    mod = __import__(package, fromlist=["__all__"])
    assert set(mod.__all__) == public_names(mod)


def public_names(module: types.ModuleType) -> set[str]:
    """The names a module binds that do not start with ``_``, its submodules aside (names a package loads on
    first use, PEP 562, are read with ``dir()`` and ``getattr``, which load them)."""
    loaded = {name: getattr(module, name) for name in dir(module) if not name.startswith("_")}
    return {name for name, value in loaded.items() if not isinstance(value, types.ModuleType)}


@pytest.mark.parametrize("module", ENGINE)
def test_module_all_is_defined_and_exported(module: str) -> None:
    """Each engine module names its public surface in __all__, and every name there is documented."""
    mod = __import__(f"blackjack.{module}", fromlist=["__all__"])
    for name in mod.__all__:
        obj = getattr(mod, name)
        if isinstance(obj, (type, types.FunctionType)):
            assert (obj.__doc__ or "").strip(), f"blackjack.{module}.{name} has no docstring"


def python_files() -> list[Path]:
    """Every Python file of the blackjack package."""
    return sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", python_files(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_tkinter_import(path: Path) -> None:
    """No module of the blackjack package imports tkinter (the Tk table lives in gui/)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        assert not any(n.split(".")[0] in ("tkinter", "_tkinter", "gui") for n in names), \
            f"{path.name} line {node.lineno} imports {names}"


def test_importing_blackjack_loads_no_tkinter() -> None:
    """A fresh interpreter that imports blackjack and its hints has no tkinter module loaded."""
    code = ("import sys, blackjack, blackjack.hints; "
            "sys.exit(1 if any(m.split('.')[0] in ('tkinter', '_tkinter') for m in sys.modules) else 0)")
    done = subprocess.run([sys.executable, "-c", code], cwd=PACKAGE.parent, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr or "tkinter was imported"


@pytest.mark.parametrize("module", ENGINE)
def test_engine_module_has_no_print_or_input_call(module: str) -> None:
    """The engine modules never call print() or input(): front ends do the talking."""
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    calls = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Call)
             and isinstance(node.func, ast.Name) and node.func.id in ("print", "input")]
    assert not calls, f"blackjack/{module}.py calls print/input on lines {calls}"


def test_rounds_never_print_or_read(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """With print and input patched to raise, whole rounds of every preset run, and nothing reaches stdout/stderr."""
    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"the engine called print/input with {args}")
    monkeypatch.setattr(builtins, "print", forbidden)
    monkeypatch.setattr(builtins, "input", forbidden)
    rng = random.Random(11)
    for name in Rules.preset_names():
        rules = Rules.preset(name)
        game = Blackjack(["Ann", "Bob"], rules, seed=11, listeners=[lambda event: None])
        for _ in range(40):
            game.play_round(lambda view: rng.choice(sorted(view.legal_actions, key=lambda a: a.value)))
        rnd = game.start_round()
        while rnd.turn is not None:
            rnd.view()
            rnd.apply(sorted(rnd.legal_actions(), key=lambda a: a.value)[0])
        game.finish_round()
        game.players[0].ledger.summary()
    cards = create_card_array()
    shuffle(cards, rng)
    Shoe(2, seed=1).stack(parse_cards("As Kd"))
    str(Card.parse("Th"))
    Action.parse("h")
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == "", "the engine wrote to stdout/stderr"


def test_unwritten_names_the_stub_and_what_to_write() -> None:
    """errors.unwritten(err) names the innermost function (where the stub raised) and its one-line hint."""
    from blackjack.errors import unwritten

    class Hand:
        def get_score(self) -> int:
            raise NotImplementedError("add up get_value() of every card\nsecond line is dropped")

    def caller() -> int:
        return Hand().get_score()
    with pytest.raises(NotImplementedError) as caught:
        caller()
    line = unwritten(caught.value)
    assert "Hand.get_score() is not written yet: add up get_value() of every card (test_public_api.py:" in line
    assert line.endswith(f":{Hand.get_score.__code__.co_firstlineno + 1})")
    assert unwritten(NotImplementedError()) == "a function is not written yet: see the milestone's spec"
