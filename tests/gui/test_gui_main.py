"""The command line of ``python -m gui``: bad options give a one-line message and exit status 2, before any window."""

from __future__ import annotations

import pytest

from gui.__main__ import build_parser, main


@pytest.mark.parametrize("argv, message", [
    (["--rules", "vegs"], "unknown preset: 'vegs'"),
    (["--stack", "As Zx"], "Zx"),
    (["--bankroll", "abc"], "a bet must be a whole number of credits"),
    (["--players", "4"], "invalid choice: 4"),
    (["--counting", "red_seven"], "unknown counting system: 'red_seven'"),
])
def test_bad_option_exits_with_a_message(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A bad option stops with status 2 and one line naming the bad value (no usage block)."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err


def test_names_and_players() -> None:
    """--names and --players are read as given."""
    args = build_parser().parse_args(["--players", "2", "--names", "Ann", "Bob", "--no-animation"])
    assert (args.players, args.names, args.no_animation) == (2, ["Ann", "Bob"], True)


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
