"""Milestone 3 (extra credit, 15 points): the base GUI: the player can choose hit or stand; the GUI reports the result.

You write the milestone-3 bodies of ``gui/shell.py`` (``milestones/specs/milestone3.md``):

* ``button_states(view)`` and ``round_result(view)``: plain functions, tested first
  without a window (5 points);
* the shell window's ``deal``, ``hit``, ``stand``, ``finish_if_settled`` and ``render``:
  tested in the real window (10 points). Each test stacks the shoe, presses the buttons
  with ``invoke()`` and reads back what the canvas shows (``Shell.shown`` for the cards,
  ``Shell.text`` for the totals and the result) and which buttons are enabled. These need
  a display; see ``tests/milestone3/conftest.py``.

The window is opened, pressed and read in the process that runs your code
(``observe_gui.py``); this module only judges what it showed.

Cards are stacked in deal order: the player's first card, the dealer's upcard, the
player's second card, the dealer's hole card, then the cards play calls for.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

import pytest

from milestones.grader.judge import Raised, Student

#: Rules as the observations build them: a preset, with some of its fields replaced.
CS111: dict[str, Any] = {"preset": "cs111"}
#: The course's game with naturals and the dealer's peek: a dealer natural ends the round at the deal.
#: No money (so no week-2 code is needed) and no insurance, which the shell has no button for.
NATURALS: dict[str, Any] = {**CS111, "name": "cs111 with naturals", "naturals": True, "dealer_peeks": True}

T = TypeVar("T")


def explained(concept: str, call: Callable[[], T]) -> T:
    """Run ``call``; an error other than a starter stub gets ``concept`` added as a note (the grader prints notes)."""
    try:
        return call()
    except Raised as err:
        if not err.imported and not err.is_a("NotImplementedError"):
            err.add_note(concept)
        raise


def with_money(view: dict[str, Any], result: str, bet: int, net: int) -> dict[str, Any]:
    """A settled cs111 view as a table with money would show it: wagering on, the hand's outcome replaced.

    It needs no week-2 code of yours (bets, payouts): only the view's fields change.
    """
    return {**view, "rules": {**view["rules"], "wagering": True}, "outcome": {"result": result, "bet": bet, "net": net}}


def round_view(rules: dict[str, Any], player: str, dealer: str, phase: str, legal: list[str],
               outcome: dict[str, Any] | None = None) -> dict[str, Any]:
    """A round's view for the observations to build from the given view classes (none of your week-1 code):
    the player's and the dealer's cards (``??`` face down), the phase and the legal actions by name, and
    a settled hand's ``outcome``, as the engine would show them."""
    return {"rules": rules, "player": player, "dealer": dealer, "phase": phase, "legal": legal, "outcome": outcome}


def soft_total_mistake(shown: str) -> str:
    """What a player's total other than '7 / 17' for A-2-4 says about the code: the display or the scoring."""
    numbers = [int(n) for n in re.findall(r"-?\d+", shown)]
    if shown == "17":
        return ("17 is the hand's total, only the best of its two totals: the player's total is the hand's "
                "total_text, which writes a soft hand as both")
    if numbers and max(numbers) == 7:
        return ("The hand scored 7, so the ace counted 1 although 11 would not bust it: an ace counts 11 when that "
                "does not bust the hand, else 1 (week 1's Hand.get_score and Hand.is_soft, which total_text reads)")
    return "The player's total is the hand's total_text, which writes a soft hand's two totals"


class Window:
    """The shell window as the student's process saw it, replayed press by press (the window itself lived and was
    destroyed there): :func:`press` moves on to what it showed after each press."""

    def __init__(self, presses: list[dict[str, Any]]) -> None:
        self.presses = presses
        self.now: dict[str, Any] = {}

    def shown(self, row: str) -> Any:
        """The cards drawn in a row after the last press, left to right (``"??"`` face down)."""
        return self.now.get(row, [])

    def text(self, place: str) -> Any:
        """What was written at a place of the canvas after the last press ("" if nothing)."""
        return self.now.get(place, "")

    def enabled(self) -> Any:
        """The enabled buttons after the last press."""
        return self.now.get("enabled", [])

    @property
    def rounds_played(self) -> Any:
        """The table's ``rounds_played`` after the last press."""
        return self.now.get("rounds_played")

    @property
    def table_round_is_none(self) -> Any:
        """The table's ``round`` was None after the last press (its ``finish_round()`` recorded it)."""
        return self.now.get("table_round_none")

    @property
    def error(self) -> str:
        """The last error the window reported after the last press ("" when nothing went wrong)."""
        return str(self.now.get("error") or "")


def said(window: Window) -> str:
    """What the window reported in its status line about an error in a handler (empty when nothing went wrong)."""
    return f" The window reported: {window.error}" if window.error else ""


#: What each button's handler does, for a message when pressing it went wrong.
HANDLERS = {
    "deal": ("deal() starts a new round from the table (start_round), keeps it as the round on show (self.round), "
             "finishes it if it is already settled (finish_if_settled) and redraws the window (refresh)"),
    "hit": ("hit() applies Action.HIT to the round on show, finishes the round if that settled it "
            "(finish_if_settled) and redraws the window (refresh)"),
    "stand": ("stand() applies Action.STAND to the round on show, finishes the round if that settled it "
              "(finish_if_settled) and redraws the window (refresh)"),
}


def press(window: Window, *names: str) -> None:
    """Press the window's buttons in turn (``invoke()``), letting Tk process each click.

    The test fails with a message when the window reported an error before the press
    (opening it calls ``render(None)``), when a button the test needs is disabled (a
    disabled button ignores ``invoke()``, as it ignores a click), when the press made the
    window report an error (a handler raised, or ran so long the time limit stopped it),
    and when the press left no round on show (``self.round`` is None).
    """
    for name in names:
        if not window.presses:
            pytest.fail(f"the test's window stopped before it pressed {name.capitalize()}, with no reason recorded: "
                        f"please tell your instructor", pytrace=False)
        step = window.presses.pop(0)
        if step.get("press") != name:
            pytest.fail(f"the test's window pressed {step.get('press')!r} where the test presses {name!r}: please tell "
                        f"your instructor", pytrace=False)
        opened = step.get("opened") or ""
        assert not opened, (
            f"before the test pressed {name.capitalize()} the window already reported an error: {opened}" + (
                "" if "render(None)" in str(opened) else
                ". The window opens with no round and calls render(None): with no view, render only sets the "
                "buttons (self.set_buttons(button_states(None)), which enables only Deal)"))
        on = step.get("enabled_before")
        window.now = {"error": ""}
        assert isinstance(on, list) and name in on, (
            f"the test wants to press {name.capitalize()}, but the window left it disabled (enabled: {on}); after "
            f"each step render should set the buttons (set_buttons) from button_states(view), which enables Deal "
            f"when no round is played and Hit and Stand when the engine lists them in "
            f"view.legal_actions.{said(window)}")
        window.now = step
        error = str(step.get("error") or "")
        assert not error, (
            f"pressing {name.capitalize()} made the window report an error, so it did not finish the step: "
            f"{error}" + ("" if "is not written yet" in error else f". A handler must not raise: {HANDLERS[name]}") + (
                "; finish_if_settled() records the round with the table's finish_round() only once the round is "
                "settled (its phase is Phase.SETTLED)" if "finish_if_settled" in error else "") + (
                "; about the None: the table's round (self.game.round) is None once its finish_round() recorded "
                "the round (the window keeps it in self.round), and render draws the view it is given"
                if "'NoneType'" in error else ""))
        assert step.get("has_round") is True, (
            f"after pressing {name.capitalize()} self.round is None, so refresh() has no round to draw: deal() keeps "
            f"the round the table's start_round() returns in self.round, and finish_if_settled() leaves it there "
            f"(the window shows a finished round and its result until the next Deal)")
        drawn = window.shown("dealer") + window.shown("player")
        assert drawn, (
            f"after pressing {name.capitalize()} self.round holds a round, but the canvas shows no card: "
            f"{HANDLERS[name]}; refresh() clears the canvas and calls render(view), which draws each card with "
            f"draw_card at its row and place (printing them shows nothing in the window)")


#: ``shell(rules, stack, *steps)``: the window's presses, replayed (see the fixture).
Open = Callable[..., Window]


@pytest.fixture
def shell(display: str, student: Student) -> Open:
    """Open the shell window for player Ann at a table whose next cards are stacked, in the student's process.

    ``shell(rules, "Th 9c 6d 8s", "deal", "hit")``: the cards in deal order (player, dealer's
    upcard, player, dealer's hole card, then the cards play calls for), then the steps: the
    buttons to press in turn, or ``"stack <codes>"`` to stack the shoe again. The student's
    process opens the window on ``$DISPLAY``, presses, reads back what it shows after each
    press and destroys it; the returned :class:`Window` replays that with :func:`press`.
    """
    def make(rules: dict[str, Any], stack: str, *steps: str) -> Window:
        seen = student("window", rules, stack, list(steps))
        if not isinstance(seen, dict) or not seen.get("display"):
            pytest.fail(f"the tests' set-up: the process running your code has no $DISPLAY (the tests' display is "
                        f"{display}), so it cannot open the window: please tell your instructor", pytrace=False)
        presses = seen.get("presses")
        return Window([step if isinstance(step, dict) else {} for step in presses] if isinstance(presses, list) else [])

    return make


# ======================================================================= without a window
@pytest.mark.points(1)
def test_button_states_before_the_first_deal(student: Student) -> None:
    """Before the first Deal there is no round: the view is None, and only Deal is enabled."""
    got = explained("button_states(None) is the window before the first Deal: there is no round yet, so check "
                    "`view is None` before reading view.phase or view.legal_actions, and enable only Deal",
                    lambda: student("buttons", None))
    expected = {"deal": True, "hit": False, "stand": False}
    assert got == expected, (
        f"button_states(None) (no round yet, before the first Deal) should be {expected}: only Deal, because "
        f"there is nothing to hit or stand on; got {got}")


@pytest.mark.points(2)
def test_button_states_follow_the_legal_actions(student: Student) -> None:
    """During play Hit and Stand follow view.legal_actions and Deal is off; once settled only Deal is on."""
    playing = round_view(CS111, "Th 6d", "9c ??", "PLAYER_TURN", ["HIT", "STAND"])  # T 6 = 16 against a 9
    got = explained("button_states(view) during the player's turn: read view.legal_actions (a set of Action) and "
                    "view.phase (a Phase)", lambda: student("buttons", playing))
    expected = {"deal": False, "hit": True, "stand": True}
    assert got == expected, (
        f"T-6 against a 9, the player's turn (view.legal_actions holds hit and stand): button_states should be "
        f"{expected} (Hit and Stand exactly when the engine lists Action.HIT / Action.STAND; no Deal while a round is "
        f"played); got {got}")
    settled = round_view(CS111, "Th 6d Kc", "9c 8s", "SETTLED", [],  # T 6 K = 26: bust, the round is settled
                         {"result": "BUST", "bet": 1, "net": 0})
    got = explained("button_states(view) for a settled round (view.phase is Phase.SETTLED)",
                    lambda: student("buttons", settled))
    expected = {"deal": True, "hit": False, "stand": False}
    assert got == expected, (
        f"T-6 hits a K (26, bust), so the round is settled (view.phase is Phase.SETTLED, view.legal_actions is "
        f"empty): button_states should be {expected}, Deal for the next round only; got {got}")


@pytest.mark.points(1)
def test_round_result_without_money(student: Student) -> None:
    """At the cs111 table (no money) the result is the table word alone: "" while playing, then "BUST"."""
    got = explained("round_result(None) is the window before the first Deal: return \"\"",
                    lambda: student("result", None))
    assert got == "", f"round_result(None) (no round yet) should be \"\", got {got!r}"
    playing = round_view(CS111, "Th 6d", "9c ??", "PLAYER_TURN", ["HIT", "STAND"])
    got = explained("round_result(view) while the player still decides: the hand's outcome is None until the round "
                    "is settled, so check view.phase is Phase.SETTLED first and return \"\" before it",
                    lambda: student("result", playing))
    assert got == "", (f"while the player still decides (view.phase is Phase.PLAYER_TURN) there is no result to "
                       f"report: round_result should return \"\", got {got!r}")
    bust = round_view(CS111, "Th 6d Kc", "9c 8s", "SETTLED", [], {"result": "BUST", "bet": 1, "net": 0})
    got = explained("round_result(view) for a settled round: the table word is "
                    "view.seats[0].hands[0].outcome.result.label", lambda: student("result", bust))
    assert got == "BUST", (
        f"T-6 hits a K (26) at the cs111 table: round_result should be \"BUST\", the result's table word "
        f"(outcome.result.label), with no money because the cs111 rules have no wagering; got {got!r}")


@pytest.mark.points(1)
def test_round_result_with_money(student: Student) -> None:
    """At a table with money the result is followed by the signed net: "WIN +10", "PUSH 0", "LOSE -10"."""
    cases = (("WIN", 10, "WIN +10"), ("PUSH", 0, "PUSH 0"), ("LOSE", -10, "LOSE -10"))
    stood = round_view(CS111, "Th 7d", "9c 8s", "SETTLED", [])  # T-7 stands against 9-8
    for result, net, expected in cases:
        view = with_money(stood, result, 10, net)
        got = explained("round_result(view) at a table with money: the label, a space and the hand's net gain as "
                        "signed_money (from gui/logic.py) writes it", lambda: student("result", view))
        assert got == expected, (
            f"a settled {result.lower()} of a 10-credit bet at a table with money (view.rules.wagering is True): "
            f"round_result should be {expected!r}, the label, a space and the net with its sign (no + on zero: "
            f"gui.logic.signed_money writes it); got {got!r}")


# ============================================================================ in the window
@pytest.mark.gui
@pytest.mark.points(3)
def test_deal_shows_the_cards_with_the_hole_card_face_down(shell: Open) -> None:
    """Deal: Ann's T-6 and the dealer's 9 face up, the hole card (8s) face down; totals 16 and 9; Hit and Stand on."""
    window = shell(CS111, "Th 9c 6d 8s", "deal")
    press(window, "deal")
    player = window.shown("player")
    assert player == ["Th", "6d"], (
        f"after Deal on a shoe stacked Th 9c 6d 8s the player's row should show ['Th', '6d'] (deal() starts a "
        f"round from the table, and render draws each card of the player's hand, view.seats[0].hands[0], with "
        f"draw_card in the row 'player'); it shows {player}.{said(window)}")
    dealer = window.shown("dealer")
    assert dealer == ["9c", "??"], (
        f"after Deal the dealer's row should show ['9c', '??']: the upcard face up and the hole card face down "
        f"('??'), because the view hides it (HIDDEN) until the dealer's turn: draw the view's cards, "
        f"view.dealer.cards, not the engine's own dealer (self.round.dealer or self.game.dealer holds the real "
        f"hole card); it shows {dealer}.{said(window)}")
    totals = (window.text("player_total"), window.text("dealer_total"))
    assert totals == ("16", "9"), (
        f"after Deal the totals should read player 16 (hand.total_text) and dealer 9 (view.dealer.total_text, "
        f"the face-up card only, so the hole card's value stays secret); they read {totals}.{said(window)}")
    assert window.text("result") == "", (
        f"while Ann decides there is no result yet: the result place should be empty, "
        f"it reads {window.text('result')!r}")
    on = window.enabled()
    assert on == ["hit", "stand"], (
        f"during Ann's turn the engine's legal actions are hit and stand: exactly Hit and Stand should be "
        f"enabled (render ends by setting the buttons from button_states(view)), Deal off; "
        f"enabled: {on}.{said(window)}")


@pytest.mark.gui
@pytest.mark.points(2)
def test_hit_then_stand_the_dealer_busts(shell: Open) -> None:
    """A-2 hits a 4 (soft 17, "7 / 17") and stands; the hole card turns over, the dealer's 9-7 draws a K and busts."""
    window = shell(CS111, "Ah 9c 2d 7s 4h Kc", "deal", "hit", "stand")
    press(window, "deal", "hit")
    player = window.shown("player")
    assert player == ["Ah", "2d", "4h"], (
        f"A-2 presses Hit on a shoe whose next card is 4h: the player's row should show ['Ah', '2d', '4h'] "
        f"(hit() applies Action.HIT to the round, then redraws); it shows {player}.{said(window)}")
    total = window.text("player_total")
    assert total == "7 / 17", (
        f"after the hit the player holds A-2-4, a soft total: 7 with the ace as 1, 17 with it as 11, so the total "
        f"should read '7 / 17' as the table writes a soft hand; it reads {total!r}. {soft_total_mistake(total)}"
        f"{said(window)}")
    press(window, "stand")
    dealer = window.shown("dealer")
    assert dealer == ["9c", "7s", "Kc"], (
        f"after Stand the engine plays the dealer's turn: the hole card 7s turns over and 9-7 (16) must draw, "
        f"a Kc: the dealer's row should show ['9c', '7s', 'Kc'] (stand() applies Action.STAND, then redraws); "
        f"it shows {dealer}.{said(window)}")
    shown = (window.text("dealer_total"), window.text("result"))
    assert shown == ("26", "WIN"), (
        f"the dealer busts with 26 and Ann's soft 17 wins: the dealer's total should read 26 and the result \"WIN\" "
        f"(round_result(view) written at \"result\"); they read {shown}.{said(window)}")


@pytest.mark.gui
@pytest.mark.points(2)
def test_hit_to_a_bust_ends_the_round(shell: Open) -> None:
    """T-6 hits a K (26): "BUST", the hole card is shown, and only Deal is enabled."""
    window = shell(CS111, "Th 9c 6d 8s Kc", "deal", "hit")
    press(window, "deal", "hit")
    shown = (window.shown("player"), window.text("player_total"), window.text("result"))
    assert shown == (["Th", "6d", "Kc"], "26", "BUST"), (
        f"T-6 hits a Kc: 26 is a bust and the round is over, so the player's row, total and result should be "
        f"(['Th', '6d', 'Kc'], '26', 'BUST'); they are {shown}.{said(window)}")
    dealer = window.shown("dealer")
    assert dealer == ["9c", "8s"], (
        f"once the round is over the engine has turned the hole card over: the dealer's row should show "
        f"['9c', '8s'] (draw what the view holds; only a HIDDEN card is drawn face down); it shows {dealer}")
    on = window.enabled()
    assert on == ["deal"], (
        f"after a bust the round is settled and the engine lists no legal action: only Deal should be enabled "
        f"(Hit and Stand off, so a busted player is never asked again); enabled: {on}.{said(window)}")


@pytest.mark.gui
@pytest.mark.points(1)
def test_stand_on_a_tie_is_a_push(shell: Open) -> None:
    """T-7 stands against the dealer's 9-8: 17 each, "PUSH"."""
    window = shell(CS111, "Th 9c 7d 8s", "deal", "stand")
    press(window, "deal", "stand")
    shown = (window.shown("dealer"), window.text("dealer_total"), window.text("result"))
    assert shown == (["9c", "8s"], "17", "PUSH"), (
        f"T-7 (17) stands; the dealer turns 9-8 (17) and must stand on 17: a tie is a push, so the dealer's row, "
        f"total and result should be (['9c', '8s'], '17', 'PUSH'); they are {shown}.{said(window)}")


@pytest.mark.gui
@pytest.mark.points(1)
def test_a_dealer_natural_ends_the_round_at_the_deal(shell: Open) -> None:
    """With naturals and the peek, the dealer's T-A ends the round at the deal: "LOSE", only Deal enabled."""
    window = shell(NATURALS, "Th Tc 6d As", "deal")
    press(window, "deal")
    shown = (window.shown("dealer"), window.text("result"))
    assert shown == (["Tc", "As"], "LOSE"), (
        f"under rules with naturals the dealer peeks under a ten: T-A is a natural, the engine turns it over and "
        f"settles at once, so after Deal on a shoe stacked Th Tc 6d As the dealer's row and result should be "
        f"(['Tc', 'As'], 'LOSE') (deal() redraws whatever the engine did: the round may be over already); "
        f"they are {shown}.{said(window)}")
    on = window.enabled()
    assert on == ["deal"], (
        f"a dealer natural settles the round before Ann's turn: Hit and Stand must stay disabled (the engine "
        f"lists no legal action), only Deal enabled; enabled: {on}.{said(window)}")


@pytest.mark.gui
@pytest.mark.points(1)
def test_a_settled_round_is_finished_through_the_engine(shell: Open) -> None:
    """Once settled, the round is recorded (game.finish_round()): rounds_played is 1, and Deal starts round 2."""
    window = shell(CS111, "Th 9c 6d 8s Kc", "deal", "hit", "stack 5c 4h 3d 2s", "deal")
    press(window, "deal", "hit")
    played = (window.rounds_played, window.table_round_is_none)
    assert played == (1, True), (
        f"after T-6 busts the round is settled: hit() (like deal() and stand()) should call "
        f"finish_if_settled() after the engine's step, and finish_if_settled() should then record the round with "
        f"the table's finish_round() (the course's finishRound), which clears the table, so "
        f"(game.rounds_played, game.round is None) should be (1, True); got {played}.{said(window)}")
    press(window, "deal")  # the shoe stacked again: 5c 4h 3d 2s
    shown = (window.shown("player"), window.shown("dealer"))
    assert shown == (["5c", "3d"], ["4h", "??"]), (
        f"Deal after a finished round starts the next one on a shoe stacked 5c 4h 3d 2s: the rows should show "
        f"(['5c', '3d'], ['4h', '??']); they show {shown}.{said(window)}")
