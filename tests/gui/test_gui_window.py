"""The real window, driven as a person would: chips, buttons, keys; the canvas is checked after each step.

Every round is dealt from a stacked shoe (deal order: one card to each seat, the
dealer's upcard, the second cards, the hole card, then hits in turn) and its result
is worked out by hand in the test. Vegas rules unless said: 6 decks, S17, 3:2, DAS,
late surrender, 1000 credits.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from blackjack import Action, Phase, Rules
from gui.logic import CHIP_COLORS, CHIP_VALUES, dimmed, short_money
from gui.table import bet_radius

pytestmark = pytest.mark.gui

MakeApp = Callable[..., Any]


def click_chip(app: Any, value: int, button: int = 1) -> None:
    """Click a chip on the betting rail (button 3 takes it back)."""
    x1, y1, x2, y2 = app.chips.bbox(f"chip{value}")
    x, y = (x1 + x2) // 2, (y1 + y2) // 2
    app.chips.event_generate("<Motion>", x=x, y=y)
    app.chips.event_generate(f"<ButtonPress-{button}>", x=x, y=y)
    app.chips.event_generate(f"<ButtonRelease-{button}>", x=x, y=y)
    app.root.update()


def bet_and_deal(app: Any, *chips: int) -> None:
    """Click the chips for the marked seat, then press Deal."""
    for value in chips:
        click_chip(app, value)
    app.buttons["deal"].invoke()
    app.settle()


def enabled(app: Any) -> set[str]:
    """The names of the enabled action-bar buttons."""
    return {name for name, button in app.buttons.items() if button.instate(["!disabled"])}


class TestBetting:
    def test_chips_add_to_the_bet(self, make_app: MakeApp) -> None:
        """Clicking the 25 chip and the 5 chip puts 30 in the seat's bet circle."""
        app = make_app()
        click_chip(app, 25)
        click_chip(app, 5)
        assert app.table.texts("bet_text0") == ["30"]

    def test_right_click_takes_a_chip_back(self, make_app: MakeApp) -> None:
        """25 + 5, then a right-click on the 5, leaves 25."""
        app = make_app()
        click_chip(app, 25)
        click_chip(app, 5)
        click_chip(app, 5, button=3)
        assert app.table.texts("bet_text0") == ["25"]

    def test_bet_box_rejects_text(self, make_app: MakeApp) -> None:
        """Typing "abc" as a bet shows why next to the box and bets nothing."""
        app = make_app()
        app.bet_entry.set("abc")
        app.bet_button.invoke()
        assert app.bet_error.cget("text") == "a bet must be a whole number of credits, got 'abc'"
        assert app.table.texts("bet_text0") == []

    @pytest.mark.parametrize("typed", ["²", "①", "+-5", "٣²"])
    @pytest.mark.parametrize("how", ["button", "return"])
    def test_bet_box_rejects_number_look_alikes_in_one_line(self, make_app: MakeApp, typed: str, how: str) -> None:
        """A superscript, a circled digit or a doubled sign typed as a bet (Bet button, or Enter in the box) is
        refused next to the box in one line that quotes it; no message box, no bet (the fixture fails the test
        if a callback raised, which would be the "Unexpected error" box)."""
        app = make_app()
        app.bet_entry.set(typed)
        if how == "button":
            app.bet_button.invoke()
        else:
            entry = next(w for w in app.bet_button.master.winfo_children()
                         if str(w.cget("textvariable") if "textvariable" in w.keys() else "") == str(app.bet_entry))
            entry.focus_force()
            entry.event_generate("<Return>")
            app.root.update()
        error = app.bet_error.cget("text")
        assert error == f"a bet must be a whole number of credits, got {typed!r}"
        assert "\n" not in error and app.messages.shown == [] and app.errors == []
        assert app.table.texts("bet_text0") == [] and app.round_view.seats[0].bet == 0

    def test_bet_over_bankroll_shows_engine_message(self, make_app: MakeApp) -> None:
        """A 50 bet with 20 credits is refused with the engine's message."""
        app = make_app(bankroll=20)
        app.bet_entry.set("50")
        app.bet_button.invoke()
        assert "cannot bet 50 with a bankroll of 20" in app.bet_error.cget("text")

    def test_only_affordable_chips_are_active(self, make_app: MakeApp) -> None:
        """With 20 credits the 25, 100 and 500 chips are faded (their own colours, paler); 1 and 5 are bright."""
        app = make_app(bankroll=20)
        fills = {v: app.chips.itemcget(f"chip_face{v}", "fill") for v in CHIP_VALUES}
        assert {v for v in CHIP_VALUES if fills[v] == dimmed(CHIP_COLORS[v])} == {25, 100, 500}
        assert {v for v in CHIP_VALUES if fills[v] == CHIP_COLORS[v]} == {1, 5}

    def test_same_bet_again(self, make_app: MakeApp) -> None:
        """After a round bet with 10, "Same bet again" bets 10 again."""
        app = make_app(stack="Ts 9d 6h 8c Kd")
        bet_and_deal(app, 5, 5)
        app.buttons["hit"].invoke()
        app.buttons["new_round"].invoke()
        app.same_button.invoke()
        assert app.table.texts("bet_text0") == ["10"]

    def test_deal_without_a_bet_says_so(self, make_app: MakeApp) -> None:
        """With no bet Deal is off; Enter (or a call of deal()) keeps betting open and says, in red on the bet
        line, to put a chip in a bet circle first."""
        app = make_app()
        assert app.buttons["deal"].instate(["disabled"])
        app.deal()
        assert app.round_view.phase is Phase.BETTING
        assert "chip in a bet circle" in app.bet_error.cget("text")


def rich(seats: int = 1) -> dict[str, Any]:
    """make_app options for seats with 10 million credits each at a table whose maximum bet is 10 million."""
    rules = dataclasses.replace(Rules.preset("vegas"), max_bet=Fraction(10 ** 7))
    return {"names": ["Ann", "Bob", "Cy"][:seats], "rules": rules, "bankroll": 10 ** 7}


def inside_circle(app: Any, seat: int) -> bool:
    """The bet text's bbox lies within the bet circle's bbox, and its corners within the circle itself."""
    table = app.table
    x1, y1, x2, y2 = table.coords(table.find_withtag(f"bet_circle{seat}")[0])
    tx1, ty1, tx2, ty2 = table.bbox(f"bet_text{seat}")
    cx, cy, r = (x1 + x2) / 2, (y1 + y2) / 2, (x2 - x1) / 2
    in_box = x1 <= tx1 and tx2 <= x2 and y1 <= ty1 and ty2 <= y2
    return in_box and all(math.hypot(x - cx, y - cy) <= r for x in (tx1, tx2) for y in (ty1, ty2))


class TestBigBets:
    """A bet of many digits stays inside its circle: a smaller font first, then an abbreviation, with the
    exact amount in the seat's money line whenever the circle abbreviates."""

    @pytest.mark.parametrize(("geometry", "seats"), [("1200x700", 1), ("980x620", 3)])
    @pytest.mark.parametrize("bet", [20000, 999999, 1234567, 10 ** 7])
    def test_bet_text_fits_and_the_exact_bet_is_shown(self, make_app: MakeApp, geometry: str, seats: int,
                                                      bet: int) -> None:
        """At the first and the smallest window size, the amount's bbox is inside the circle, and the exact
        amount is on the table: in the circle, or else after the bankroll under the player's name (the
        bankroll less the chips in the circle, as they left it when placed)."""
        options = rich(seats)
        app = make_app(options.pop("names"), **options)
        app.root.geometry(geometry)
        app.root.update()
        app.place_bet(seats - 1, bet)
        app.root.update()
        seat = seats - 1
        shown = app.table.texts(f"bet_text{seat}")
        money = app.table.texts(f"bankroll{seat}")
        assert inside_circle(app, seat), (shown, app.table.bbox(f"bet_text{seat}"))
        if shown == [str(bet)]:
            assert money == [f"bankroll {10 ** 7 - bet}"]
        else:
            assert shown == [short_money(bet)] and money == [f"bankroll {10 ** 7 - bet} · bet {bet}"]

    def test_many_digits_abbreviate_at_the_smallest_window(self, make_app: MakeApp) -> None:
        """Seven digits cannot fit a circle of the smallest window: 1234567 shows as 1.2M, exact below."""
        options = rich(3)
        app = make_app(options.pop("names"), **options)
        app.root.geometry("980x620")
        app.root.update()
        app.place_bet(1, 1234567)
        app.root.update()
        assert app.table.texts("bet_text1") == ["1.2M"] and inside_circle(app, 1)
        assert app.table.texts("bankroll1") == [f"bankroll {10 ** 7 - 1234567} · bet 1234567"]

    def test_a_wide_circle_shrinks_before_it_abbreviates(self, make_app: MakeApp) -> None:
        """With room for the digits at a smaller font (radius 40), 20000 is written in full, below 0.8 r."""
        app = make_app()
        text, size = app.table.bet_text(20000, 40)
        assert text == "20000" and 8 <= size < 32

    def test_a_short_bet_keeps_the_full_font(self, make_app: MakeApp) -> None:
        """A bet of 30 is written as is at 0.8 of the radius, and the money line shows only the bankroll (less the
        30 in the circle)."""
        app = make_app()
        click_chip(app, 25)
        click_chip(app, 5)
        r = bet_radius(app.table.winfo_height())
        font = app.table.itemcget(app.table.find_withtag("bet_text0")[0], "font")
        assert app.table.bet_text(30, r) == ("30", round(0.8 * r)) and str(-round(0.8 * r)) in str(font)
        assert app.table.texts("bankroll0") == ["bankroll 970"] and inside_circle(app, 0)


class TestDeal:
    def test_dealer_hole_card_is_face_down(self, make_app: MakeApp) -> None:
        """After the deal the dealer shows the 6 and a face-down card, and a total of 6."""
        app = make_app(stack="8s 6d 8h Th")
        bet_and_deal(app, 5, 5)
        assert app.table.card_codes("dealer") == ["6d", "??"]
        assert app.table.texts("dealer_total") == ["Dealer  6"]

    def test_player_cards_drawn(self, make_app: MakeApp) -> None:
        """The player's two cards are on the canvas under the hand's tag."""
        app = make_app(stack="8s 6d 8h Th")
        bet_and_deal(app, 5)
        assert app.table.card_codes("hand_0_0") == ["8s", "8h"]

    def test_soft_total_shows_both_values(self, make_app: MakeApp) -> None:
        """Ace-six is shown as "7 / 17"."""
        app = make_app(stack="As 9d 6h 8c")
        bet_and_deal(app, 5)
        assert app.table.texts("total_0_0") == ["7 / 17"]

    def test_soft_21_shows_plain(self, make_app: MakeApp) -> None:
        """Ace-five hits a five: the soft 21 is shown as the engine writes it, "21"."""
        app = make_app(stack="As 9d 5h 8c 5s")
        bet_and_deal(app, 5)
        assert app.table.texts("total_0_0") == ["6 / 16"]
        app.buttons["hit"].invoke()
        app.settle()
        assert app.table.texts("total_0_0") == ["21"]

    def test_buttons_are_the_legal_actions(self, make_app: MakeApp) -> None:
        """8-8 against a 6 lights exactly Hit, Stand, Double, Split and Surrender."""
        app = make_app(stack="8s 6d 8h Th")
        bet_and_deal(app, 5)
        assert enabled(app) == {"hit", "stand", "double", "split", "surrender"}

    def test_shortcut_letters_are_underlined(self, make_app: MakeApp) -> None:
        """Hit underlines H, Split underlines p, Surrender underlines r."""
        app = make_app()
        marks = {name: app.buttons[name].cget("text")[int(app.buttons[name].cget("underline"))]
                 for name in ("hit", "split", "surrender")}
        assert marks == {"hit": "H", "split": "p", "surrender": "r"}


class TestPlay:
    def test_key_h_hits(self, make_app: MakeApp) -> None:
        """Pressing H deals the next card to the hand."""
        app = make_app(stack="Ts 9d 6h 8c 2c")
        bet_and_deal(app, 5)
        app.root.event_generate("<KeyPress-h>")
        app.settle()
        assert app.table.card_codes("hand_0_0") == ["Ts", "6h", "2c"]

    def test_key_s_then_enter(self, make_app: MakeApp) -> None:
        """S stands (the round settles), then Enter opens the next round's betting."""
        app = make_app(stack="Ts 9d 9h 8c")
        bet_and_deal(app, 5)
        app.root.event_generate("<KeyPress-s>")
        app.settle()
        assert app.round_view.phase is Phase.SETTLED
        app.root.event_generate("<KeyPress-Return>")
        app.settle()
        assert app.round_view.phase is Phase.BETTING

    def test_bust_is_reported(self, make_app: MakeApp) -> None:
        """T-6 hits a K: 26, the hand shows "BUST -10" and the hole card is turned over."""
        app = make_app(stack="Ts 9d 6h 8c Kd")
        bet_and_deal(app, 5, 5)
        app.buttons["hit"].invoke()
        app.settle()
        assert app.table.texts("result_0_0") == ["BUST -10"]
        assert app.table.card_codes("dealer") == ["9d", "8c"]

    def test_stand_and_dealer_busts(self, make_app: MakeApp) -> None:
        """T-2 stands on 12; the dealer's 6-T draws a 7 and busts at 23: "WIN +10", bankroll 1010."""
        app = make_app(stack="Ts 6d 2h Tc 7s")
        bet_and_deal(app, 5, 5)
        app.buttons["stand"].invoke()
        app.settle()
        assert app.table.texts("result_0_0") == ["WIN +10"]
        assert app.table.texts("dealer_says") == ["BUST 23"]
        assert app.table.texts("bankroll0") == ["bankroll 1010"]

    def test_natural_pays_three_to_two(self, make_app: MakeApp) -> None:
        """A-K against a 9 is paid at once: 10 bet, "BLACKJACK +15"."""
        app = make_app(stack="As 9d Kh 8c")
        bet_and_deal(app, 5, 5)
        assert app.table.texts("result_0_0") == ["BLACKJACK +15"]

    def test_split_then_double_to_the_end(self, make_app: MakeApp) -> None:
        """8-8 v 6: split; 8-3 doubles and draws 9 (20); 8-K stands (18); dealer 6-T-7 busts: +20 and +10."""
        app = make_app(stack="8s 6d 8h Th 3c 9c Kd 7s")
        bet_and_deal(app, 5, 5)
        app.buttons["split"].invoke()
        app.settle()
        assert app.table.card_codes("hand_0_0") == ["8s", "3c"] and app.table.card_codes("hand_0_1") == ["8h"]
        app.buttons["double"].invoke()
        app.settle()
        assert app.table.card_codes("hand_0_1") == ["8h", "Kd"]
        app.buttons["stand"].invoke()
        app.settle()
        assert app.table.texts("result_0_0") == ["WIN +20"] and app.table.texts("result_0_1") == ["WIN +10"]
        assert app.table.texts("stake_0_0") == ["bet 20 (doubled)"]
        assert app.table.card_codes("dealer") == ["6d", "Th", "7s"]
        assert app.table.texts("bankroll0") == ["bankroll 1030"]

    def test_insurance_taken_and_lost(self, make_app: MakeApp) -> None:
        """T-9 v A: insurance (5) loses to the 7 in the hole; 19 beats 18: 1000 - 5 + 10 = 1005."""
        app = make_app(stack="Ts As 9h 7c")
        bet_and_deal(app, 5, 5)
        assert enabled(app) == {"insurance", "decline"} and app.buttons["insurance"].cget("text") == "Insurance"
        app.buttons["insurance"].invoke()
        app.buttons["stand"].invoke()
        app.settle()
        assert app.table.texts("result_0_0") == ["WIN +10"]
        assert app.table.texts("bankroll0") == ["bankroll 1005"]

    def test_even_money_offered_to_a_natural(self, make_app: MakeApp) -> None:
        """A-K against an ace is offered "Even money"."""
        app = make_app(stack="As Ac Kh 7c")
        bet_and_deal(app, 5)
        assert app.buttons["insurance"].cget("text") == "Even money"

    def test_surrender_gets_half_back(self, make_app: MakeApp) -> None:
        """T-6 v T surrenders after the peek: "SURRENDER -5"."""
        app = make_app(stack="Ts Td 6h 7c")
        bet_and_deal(app, 5, 5)
        app.buttons["surrender"].invoke()
        app.settle()
        assert app.table.texts("result_0_0") == ["SURRENDER -5"]

    def test_illegal_action_shows_the_engine_message(self, make_app: MakeApp) -> None:
        """Doubling a three-card hand is refused with the engine's one-line reason."""
        app = make_app(stack="2s 9d 3h 8c 4c")
        bet_and_deal(app, 5)
        app.buttons["hit"].invoke()
        app.act(Action.DOUBLE)
        assert app.status.cget("text").startswith("cannot double")

    def test_three_seats_thunderjack_blitz_and_win(self, make_app: MakeApp) -> None:
        """Thunderjack: Ann's A-K of spades pays 3:1, Bob's six cards to 16 are a Blitz (5:1), Carl's 19 beats 17."""
        app = make_app(["Ann", "Bob", "Carl"], "thunderjack", stack="As 2c Th 7c Ks 3d 9h Jd 2h 3h 4c 2d")
        for seat in range(3):
            app.choose_seat(seat)
            click_chip(app, 5)
            click_chip(app, 5)
        app.buttons["deal"].invoke()
        app.settle()
        for _ in range(4):
            app.buttons["hit"].invoke()
        app.buttons["stand"].invoke()
        app.settle()
        results = [app.table.texts(f"result_{seat}_0") for seat in range(3)]
        assert results == [["THUNDERJACK +30"], ["BLITZ +50"], ["WIN +10"]]
        assert len(app.table.card_codes("hand_1_0")) == 6

    def test_new_round_clears_the_table_and_keeps_the_ledger(self, make_app: MakeApp) -> None:
        """New round empties the table and adds the finished round to the ledger and the chart."""
        app = make_app(stack="Ts 9d 6h 8c Kd")
        bet_and_deal(app, 5, 5)
        app.buttons["hit"].invoke()
        app.buttons["new_round"].invoke()
        app.settle()
        assert app.table.card_codes("dealer") == [] and app.round_view.phase is Phase.BETTING
        assert [(r.round, r.name, r.results, r.net) for r in app.study.ledger_rows] == [(1, "Ann", "BUST", -10)]
        assert app.study.series["Ann"] == [1000, 990]


class TestAnimation:
    def test_cards_arrive_one_by_one(self, make_app: MakeApp) -> None:
        """With animations on, the dealer's cards are not all shown right after Deal, and are after the queue drains."""
        app = make_app(stack="8s 6d 8h Th", animations=True)
        click_chip(app, 5)
        app.buttons["deal"].invoke()
        early = app.table.card_codes("dealer")
        app.settle()
        assert len(early) < 2 and app.table.card_codes("dealer") == ["6d", "??"]

    def test_turning_animations_off_shows_everything(self, make_app: MakeApp) -> None:
        """Switching animations off mid-deal shows the whole deal at the next step."""
        app = make_app(stack="8s 6d 8h Th", animations=True)
        click_chip(app, 5)
        app.buttons["deal"].invoke()
        app.animations.set(False)
        app.settle()
        assert app.table.card_codes("hand_0_0") == ["8s", "8h"] and not app.events

    def test_bigger_window_draws_bigger_cards(self, make_app: MakeApp) -> None:
        """Resizing the window redraws the cards at the new size."""
        app = make_app(stack="8s 6d 8h Th")
        bet_and_deal(app, 5)
        app.root.geometry("900x620")
        app.root.update()
        small = app.table.bbox(app.table.find_withtag("dealer")[1])
        app.root.geometry("1500x1000")
        app.root.update()
        big = app.table.bbox(app.table.find_withtag("dealer")[1])
        assert big[3] - big[1] > (small[3] - small[1]) * 1.3


class TestNoMoney:
    def test_cs111_shows_results_without_money(self, make_app: MakeApp) -> None:
        """The cs111 game plays for no money: Deal stakes every seat, and a bust reads just "BUST"."""
        app = make_app(rules="cs111", stack="Th 9c 6d 7s Kc")
        app.buttons["deal"].invoke()
        app.buttons["hit"].invoke()
        app.settle()
        assert app.table.texts("result_0_0") == ["BUST"] and app.table.texts("bankroll0") == []


class _Starter:
    """A stand-in for a student's starter code: the course function is still a stub."""

    def get_score(self) -> int:
        raise NotImplementedError("add up get_value() of every card")


def test_unwritten_starter_code_gets_a_not_written_yet_message(make_app: MakeApp,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A stub reached from a button names the function to write instead of showing an unexpected error."""
    from blackjack.hand import Hand
    app = make_app(rules="cs111")
    monkeypatch.setattr(Hand, "get_score", _Starter.get_score)
    app.buttons["deal"].invoke()
    app.settle()
    want = "_Starter.get_score() is not written yet: add up get_value() of every card (gui/test_gui_window.py:"
    assert [text for kind, title, text in app.messages.shown
            if (kind, title) == ("showerror", "Not written yet") and text.startswith(want)]
    assert len(app.errors) == 1 and app.errors[0].startswith(want)
    app.errors.clear()  # seen and checked: not a bug in the GUI
