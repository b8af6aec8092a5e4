"""The command line of ``python -m gui``: bad options give a one-line message and exit status 2, before any window."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from gui.__main__ import build_parser, main


@pytest.mark.parametrize("argv, message", [
    (["--rules", "vegs"], "unknown preset: 'vegs'"),
    (["--stack", "As Zx"], "Zx"),
    (["--bankroll", "abc"], "bankroll: an amount must be a number of credits such as 25 or 7.5, got 'abc'"),
    (["--bankroll", "0"], "the bankroll must cover the table minimum of 1, got 0"),
    (["--bankroll", "1/0"], "bankroll: an amount must be a number of credits such as 25 or 7.5, got '1/0'"),
    (["--players", "4"], "invalid choice: 4"),
    (["--names", "A", "B", "C", "D"], "--names: the table has 1 to 3 seats, got 4 names"),
    (["--players", "2", "--names", "A", "B", "C"], "--players 2 but 3 names given"),
    (["--players", "3", "--names", "A"], "--players 3 but 1 name given"),
    (["--counting", "red_seven"], "unknown counting system: 'red_seven'"),
    (["--names", "A,B,C,D"], "--names: the table has 1 to 3 seats, got 4 names"),
    (["--names", ",", " "], "--names: give at least one name"),
    (["--names", "Ann,B\tob"], "a player's name may hold only printable characters"),
    (["--players", "1", "--names", "Ann,Bob"], "--players 1 but 2 names given"),
])
def test_bad_option_exits_with_a_message(argv: list[str], message: str, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A bad option stops with status 2 and one line naming the bad value (no usage block)."""
    with pytest.raises(SystemExit) as stop:
        started_with(argv, monkeypatch)  # a stand-in window, so an option let through fails instead of waiting
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err


def test_names_and_players() -> None:
    """--names and --players are read as given."""
    args = build_parser().parse_args(["--players", "2", "--names", "Ann", "Bob", "--no-animation"])
    assert (args.players, args.names, args.no_animation) == (2, ["Ann", "Bob"], True)


def started_with(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """Run ``main(argv)`` with a stand-in window; return what the window was opened with (names, options)."""
    import tkinter as tk

    import gui.app
    started: dict[str, object] = {}

    class FakeApp:
        def __init__(self, _root: object, names: list[str], *args: object, **options: object) -> None:
            started.update(options, names=names)

    class FakeRoot:
        def mainloop(self) -> None:
            pass

    monkeypatch.setattr(gui.app, "App", FakeApp)
    monkeypatch.setattr(tk, "Tk", FakeRoot)
    status = main(argv)
    assert status == 0
    return started


@pytest.mark.parametrize("given, bankroll", [("2.5", Fraction(5, 2)), ("1_000", 1000), ("200", 200),
                                             ("1", 1)])
def test_bankroll_reads_like_the_new_game_dialog(given: str, bankroll: Fraction,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """--bankroll takes a typed amount (the kit's one grammar) that covers the table minimum, as the New game
    dialog and the text game do: 2.5 credits is a bankroll, not a bet."""
    assert started_with(["--bankroll", given], monkeypatch)["bankroll"] == bankroll


@pytest.mark.parametrize("argv, names", [
    ([], ["Player 1"]),
    (["--players", "2"], ["Player 1", "Player 2"]),
    (["--names", "Ann", "Bob", "Cy"], ["Ann", "Bob", "Cy"]),
    (["--players", "2", "--names", "Ann", "Bob"], ["Ann", "Bob"]),
])
def test_seats_from_players_and_names(argv: list[str], names: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """One seat per name, or --players unnamed seats; both together when they agree."""
    assert started_with(argv, monkeypatch)["names"] == names


@pytest.mark.gui
@pytest.mark.parametrize("names", [["Ann,Bob"], ["Ann, Bob"], ["Ann", "Bob"], ["Ann,", ",Bob"]])
def test_names_take_commas_like_the_text_game(names: list[str], display: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """``--names Ann,Bob`` (the text game's form) opens a real table with two seats, Ann and Bob, as
    ``--names Ann Bob`` does; spaces round a comma and empty pieces are dropped."""
    import tkinter as tk

    import gui.app
    opened: list[gui.app.App] = []

    class Opened(gui.app.App):
        def __init__(self, *args: Any, **options: Any) -> None:
            super().__init__(*args, **options)
            opened.append(self)

    monkeypatch.setattr(gui.app, "App", Opened)
    monkeypatch.setattr(tk.Tk, "mainloop", lambda self, n=0: self.update())
    assert main(["--names", *names, "--no-animation"]) == 0
    app = opened[0]
    try:
        assert [player.name for player in app.game.players] == ["Ann", "Bob"]
        assert app.table.texts("name0") == ["Ann"] and app.table.texts("name1") == ["Bob"]
        assert list(app.seat_box.cget("values")) == ["Ann", "Bob"]
    finally:
        app.close()


@pytest.mark.parametrize("given, key", [("zen", "zen"), ("KO", "ko"), ("hi-lo", "hi_lo")])
def test_counting_system(given: str, key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """--counting takes a system's key (any case, - for _) and the window counts in it; Hi-Lo by default."""
    import tkinter as tk

    import gui.app
    started: dict[str, object] = {}

    class FakeApp:
        def __init__(self, *args: object, **options: object) -> None:
            started.update(options)

    class FakeRoot:
        def mainloop(self) -> None:
            pass

    monkeypatch.setattr(gui.app, "App", FakeApp)
    monkeypatch.setattr(tk, "Tk", FakeRoot)
    assert main(["--counting", given]) == 0 and started["counting"] == key
    assert build_parser().parse_args([]).counting == "hi_lo"


def test_unwritten_course_code_stops_in_one_line(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """On a student's starter the table cannot be drawn: one line names the stub, status 1, no traceback."""
    import tkinter as tk

    import gui.app

    class Starter:
        def __init__(self, *args: object, **options: object) -> None:
            raise NotImplementedError("add up get_value() of every card")

    class FakeRoot:
        destroyed = False

        def destroy(self) -> None:
            FakeRoot.destroyed = True

    monkeypatch.setattr(gui.app, "App", Starter)
    monkeypatch.setattr(tk, "Tk", FakeRoot)
    assert main([]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not written yet: add up get_value() of every card" in err
    assert FakeRoot.destroyed
