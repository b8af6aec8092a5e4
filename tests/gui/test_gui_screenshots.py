"""Screenshots of the key screens, saved under test-output/screenshots/ for people to look at (docs/gui.md checklist).

Each test plays to one screen, checks what the canvas shows there, and saves the
picture; the README's ``docs/images/table.png`` is the showcase scene of
:mod:`gui.screenshot`, saved here as ``showcase.png``.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from blackjack import Action

pytestmark = pytest.mark.gui

MakeApp = Callable[..., Any]
Shot = Callable[[Any, str], Path]


def saved(path: Path) -> bool:
    """The file is a PNG (or the PostScript fallback) with content."""
    head = path.read_bytes()[:8]
    return head.startswith(b"\x89PNG") or head.startswith(b"%!PS")


@pytest.fixture
def showcase(display: str) -> Iterator[Any]:
    """The README's showcase scene (three seats, Ann has split and doubled, Bob doubled, the dealer stands)."""
    from gui.screenshot import showcase as play
    root = tk.Tk()
    app = play(root)
    yield app
    errors = list(app.errors)
    app.close()
    assert not errors


def test_showcase(showcase: Any, shot: Shot) -> None:
    """The showcase: Ann's hands read 20 and 18, Bob's doubled soft 17 made 21, the dealer announces standing on
    20, each hand shows its result, and the chips: Cy's lost bet is swept, Ann keeps the doubled hand's push
    (her lost 25 is swept), and Bob's win is paid beside his bet."""
    table = showcase.table
    assert table.texts("total_0_0") == ["20"] and table.texts("total_0_1") == ["18"]
    assert table.texts("total_1_0") == ["21"] and table.texts("total_2_0") == ["19"]
    assert table.texts("dealer_says") == ["Dealer stands on 20"]
    assert [table.texts(f"result_{seat}_{j}") for seat, j in ((0, 0), (0, 1), (1, 0), (2, 0))] == [
        ["PUSH 0"], ["LOSE -25"], ["WIN +20"], ["LOSE -50"]]
    assert table.texts("bet_text0") == ["50"] and table.texts("bet_text1") == ["20"] and not table.texts("bet_text2")
    assert table.find_withtag("stacks0") and table.find_withtag("payout1") and not table.find_withtag("stacks2")
    assert not table.find_withtag("payout0") and not table.find_withtag("payout2")
    assert saved(shot(showcase, "showcase"))


def test_betting_screen(make_app: MakeApp, shot: Shot) -> None:
    """Betting for two players: Bob's circle holds 30 and his name is marked."""
    app = make_app(["Ann", "Bob"])
    app.place_bet(0, 10)
    app.choose_seat(1)
    app.place_bet(1, 30)
    assert app.table.texts("bet_text1") == ["30"] and app.table.find_withtag("betting_seat")
    assert saved(shot(app, "01_betting"))


def test_settled_screen(make_app: MakeApp, shot: Shot) -> None:
    """A settled two-seat round: a win and a bust, the dealer's hand turned over."""
    app = make_app(["Ann", "Bob"], stack="Ts 6c 6d 9h 4s Tc Kd 7s", hints=True)
    app.place_bet(0, 10)
    app.place_bet(1, 10)
    app.deal()
    app.act(Action.STAND)  # Ann stands on 19
    app.act(Action.HIT)    # Bob: 6 + 4 + K = 20
    app.act(Action.STAND)  # dealer 6 + T + 7 = 23
    assert app.table.texts("result_0_0") == ["WIN +10"] and app.table.texts("result_1_0") == ["WIN +10"]
    assert saved(shot(app, "02_settled"))


def test_thunderjack_screen(make_app: MakeApp, shot: Shot) -> None:
    """Three Thunderjack seats: a Thunderjack, a Blitz and a win on one table."""
    app = make_app(["Ann", "Bob", "Cy"], "thunderjack", stack="As 2c Th 7c Ks 3d 9h Jd 2h 3h 4c 2d")
    for seat in range(3):
        app.place_bet(seat, 10)
    app.deal()
    for action in (Action.HIT,) * 4 + (Action.STAND,):
        app.act(action)
    assert [app.table.texts(f"result_{i}_0")[0].split()[0] for i in range(3)] == ["THUNDERJACK", "BLITZ", "WIN"]
    assert saved(shot(app, "03_thunderjack"))


def test_stack_dialog_error_screen(make_app: MakeApp, shot: Shot) -> None:
    """The Stack the shoe dialog showing an unknown code's message."""
    app = make_app()
    app.open_stack()
    dialog = app.last_dialog
    dialog.codes.set("As Zx 9h")
    dialog.ok_button.invoke()
    dialog.update()
    assert "Zx" in dialog.error.cget("text")
    assert saved(shot(dialog, "04_stack_dialog"))


def test_strategy_chart_screen(make_app: MakeApp, shot: Shot) -> None:
    """The strategy chart with the cell of A-7 against a 9 marked."""
    app = make_app(stack="As 9d 7h 8c")
    app.place_bet(0, 10)
    app.deal()
    app.open_chart()
    app.settle()
    canvas = app.study.chart_window.canvas
    assert "cell_soft_A,7_7" in canvas.gettags(canvas.find_withtag("highlight")[0])
    assert saved(shot(app.study.chart_window, "05_strategy_chart"))


def test_session_screen(make_app: MakeApp, shot: Shot) -> None:
    """The session window after three rounds: three ledger rows and a bankroll line."""
    app = make_app(stack="Ts 9d 6h 8c Kd  Ts 6d 2h Tc 7s  As 9d Kh 8c")
    for actions in ([Action.HIT], [Action.STAND], []):
        app.place_bet(0, 10)
        app.deal()
        for action in actions:
            app.act(action)
        app.new_round()
    app.open_session()
    window = app.study.session_window
    window.update()
    window.draw_chart(app.study.series)
    assert [r.net for r in app.study.ledger_rows] == [-10, 10, 15] and app.study.series["Ann"][-1] == 1015
    assert saved(shot(window, "06_session"))


def test_insurance_screen(make_app: MakeApp, shot: Shot) -> None:
    """An ace up: Ann's 2.5 insurance chip and label beside her bet of 10 while Bob is asked."""
    app = make_app(["Ann", "Bob"], stack="Ts 9s As 9h Ts 7c")
    app.place_bet(0, 10)
    app.place_bet(1, 10)
    app.deal()
    app.act(Action.INSURANCE, "2.5")
    assert app.table.texts("insurance_text0") == ["Insurance 2.5"] and not app.table.find_withtag("insurance1")
    assert saved(shot(app, "07_insurance"))
