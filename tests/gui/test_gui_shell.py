"""The given parts of the milestone 3 shell (``gui/shell.py``): rules it refuses, its command line, errors in
handlers, key bindings, the status prompt and the canvas's room. The student's parts are graded by
``tests/milestone3/``; here they run as the reference wrote them."""

from __future__ import annotations

import importlib.util
import re
import tkinter as tk
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from blackjack import HIDDEN, Blackjack, EmptyShoeError, IllegalActionError, Rules
import gui.shell as shell_module
from gui.shell import HEIGHT, WIDTH, Shell, button_states, check_rules, main
from milestones import REPO_ROOT
from milestones.grader.observer import TestTimeout
from milestones.runner import Limits, run_suite
from milestones.starter import write_packages


@pytest.fixture
def window(display: str) -> Iterator[Callable[..., Shell]]:
    """Build shells for player Ann with a stacked shoe: ``window("Th 9c 6d 8s")``; closed after the test."""
    roots: list[tk.Tk] = []

    def make(stack: str = "", rules: Rules | None = None) -> Shell:
        root = tk.Tk()
        roots.append(root)
        shell = Shell(root, rules, name="Ann", seed=1)
        if stack:
            shell.game.shoe.stack(stack.split())
        root.update()
        return shell

    yield make
    for root in roots:
        root.destroy()


@pytest.mark.parametrize("preset", ["vegas", "european", "justblackjack"])
def test_rules_with_insurance_are_refused(preset: str) -> None:
    """The shell has no Insurance button, so rules that offer insurance are refused, naming the full table."""
    with pytest.raises(ValueError, match=r"offer insurance: .*python -m gui\)"):
        check_rules(Rules.preset(preset))


@pytest.mark.parametrize("preset", ["cs111", "thunderjack"])
def test_rules_without_insurance_or_early_surrender_are_played(preset: str) -> None:
    """cs111 and Thunderjack (late surrender only, no insurance) are played: check_rules raises nothing."""
    check_rules(Rules.preset(preset))


def test_a_table_of_two_players_is_refused() -> None:
    """The shell shows one player; a ready table with two is refused before any window is built."""
    with pytest.raises(ValueError, match="one player, and this table has 2"):
        Shell(None, game=Blackjack(["Ann", "Bob"], Rules.preset("cs111")))  # type: ignore[arg-type]


@pytest.mark.parametrize("argv, words", [(["--rules", "vegas"], "offer insurance"),
                                         (["--stack", "Zz"], "unknown card code"),
                                         (["--rules", "nosuch"], "nosuch")])
def test_bad_options_stop_with_one_line(argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A refused preset, a bad card or an unknown preset stops with status 2 and one line naming the problem."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    err = capsys.readouterr().err
    assert stop.value.code == 2
    assert err.startswith("python -m gui.shell: error:") and words in err and err.count("\n") == 1, err


@pytest.mark.gui
def test_an_engine_error_in_a_handler_is_one_status_line(window: Callable[..., Shell],
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """An engine error raised by a handler shows its message in the status line; no traceback is printed."""
    def refuse(self: Shell) -> None:
        raise IllegalActionError("no seat has a bet: place at least one bet before dealing", "deal")
    monkeypatch.setattr(Shell, "deal", refuse)
    shell = window()
    shell.buttons["deal"].invoke()
    assert shell.status.cget("text") == "no seat has a bet: place at least one bet before dealing"
    assert shell.errors == ["no seat has a bet: place at least one bet before dealing"]
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.gui
def test_an_engine_error_names_the_line_of_the_shell_that_called(window: Callable[..., Shell],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine error raised below a handler of gui/shell.py names the handler and its line (the student's code)."""
    def empty(self: Blackjack, bets: object = None) -> None:
        raise EmptyShoeError("the shoe is empty")
    monkeypatch.setattr(Blackjack, "start_round", empty)
    shell = window()
    shell.buttons["deal"].invoke()
    text = str(shell.status.cget("text"))
    assert re.fullmatch(r"the shoe is empty \(in Shell\.deal, gui/shell\.py:\d+\)", text), text


@pytest.mark.gui
def test_a_stub_in_a_handler_names_the_body_to_write(window: Callable[..., Shell],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A starter's NotImplementedError in a handler names the function and what to write, in the status line."""
    def stub(self: Shell) -> None:
        raise NotImplementedError("self.round = self.game.start_round()")
    monkeypatch.setattr(Shell, "deal", stub)
    shell = window()
    shell.buttons["deal"].invoke()
    text = str(shell.status.cget("text"))
    assert text.startswith("test_a_stub_in_a_handler_names_the_body_to_write.<locals>.stub() is not written yet: "
                           "self.round = self.game.start_round()"), text


@pytest.mark.gui
def test_a_stubbed_render_leaves_the_window_open_and_says_so(display: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The starter's render is a stub: the window still opens, Deal is enabled, the status line names render."""
    def stub(self: Shell, view: object) -> None:
        raise NotImplementedError("draw the hands")
    monkeypatch.setattr(Shell, "render", stub)
    root = tk.Tk()
    try:
        shell = Shell(root, name="Ann")
        assert shell.enabled() == ["deal"]
        assert "is not written yet: draw the hands" in str(shell.status.cget("text"))
    finally:
        root.destroy()


@pytest.mark.gui
def test_keys_press_the_enabled_buttons_only(window: Callable[..., Shell]) -> None:
    """D deals; H does nothing while Hit is disabled; then H hits and S stands."""
    shell = window("Th 9c 2d 7s 5h Kc")
    shell.root.focus_force()  # key events go to the window with the focus
    shell.root.update()
    shell.root.event_generate("<KeyPress-h>")  # Hit is disabled before the deal
    shell.root.update()
    assert shell.round is None and shell.shown("player") == []
    for key in "dhs":
        shell.root.event_generate(f"<KeyPress-{key}>")
        shell.root.update()
    assert (shell.shown("player"), shell.text("result")) == (["Th", "2d", "5h"], "WIN")


@pytest.mark.gui
def test_the_status_line_prompts_for_the_enabled_buttons(window: Callable[..., Shell]) -> None:
    """The status line asks for Hit or Stand during play and for Deal between rounds."""
    shell = window("Th 9c 6d 8s")
    assert shell.status.cget("text") == "Press Deal (D) for a round."
    shell.buttons["deal"].invoke()
    assert shell.status.cget("text") == "Hit (H) or Stand (S)?"
    shell.buttons["stand"].invoke()
    assert shell.status.cget("text") == "Press Deal (D) for a round."


@pytest.mark.gui
def test_eleven_cards_fit_on_the_canvas(window: Callable[..., Shell]) -> None:
    """The longest hand one deck allows under 21 (four aces, four 2s, three 3s: 11 cards) stays on the canvas."""
    shell = window("Ac 9c Ad 7s Ah As 2c 2d 2h 2s 3c 3d 3h")
    shell.buttons["deal"].invoke()
    for _ in range(9):
        shell.buttons["hit"].invoke()
    assert len(shell.shown("player")) == 11, shell.shown("player")
    x1, y1, x2, y2 = shell.canvas.bbox("player")
    assert 0 <= x1 and x2 <= WIDTH and 0 <= y1 and y2 <= HEIGHT, (x1, y1, x2, y2)




@pytest.mark.gui
def test_a_render_that_fails_before_the_first_deal_leaves_the_window_open(display: str,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A render that reads ``view.dealer`` without checking for None fails as the window opens: the window still
    opens (``Shell()`` raises nothing), Deal is enabled, and the status line says that render(None) failed."""
    def careless(self: Shell, view: Any) -> None:
        self.draw_card("dealer", 0, view.dealer.cards[0])
    monkeypatch.setattr(Shell, "render", careless)
    root = tk.Tk()
    try:
        shell = Shell(root, name="Ann")
        text = str(shell.status.cget("text"))
        assert shell.enabled() == ["deal"], shell.enabled()
        assert text == ("the window opened with no round, and render(None) failed: AttributeError: 'NoneType' object "
                        "has no attribute 'dealer'; with no view, render only sets the buttons"), text
        assert shell.errors == [text]
    finally:
        root.destroy()


def test_an_error_in_a_generator_names_the_method_that_holds_it() -> None:
    """An error inside a generator expression of ``Shell.render`` names ``Shell.render``, not ``<genexpr>``."""
    import gui.shell
    source = ("class Shell:\n"
              "    def render(self, cards):\n"
              "        return sum(card.get_value() for card in cards)\n")
    namespace: dict[str, Any] = {}
    exec(compile(source, gui.shell.__file__, "exec"), namespace)
    try:
        namespace["Shell"]().render([object()])
    except AttributeError as err:
        where = gui.shell._where(err.__traceback__)
    assert where == " (in Shell.render, gui/shell.py:3)", where


@pytest.mark.gui
def test_an_error_in_a_given_helper_names_the_students_call(window: Callable[..., Shell]) -> None:
    """``draw_card("Dealer", ...)`` (an unknown row) and ``write("total", ...)`` fail in the given helpers, which
    say which rows and places there are; the status line names no line of the helper (the caller here is the
    test, so no line of gui/shell.py at all; in a submission it is the student's line)."""
    shell = window()

    def draw() -> None:
        shell.draw_card("Dealer", 0, HIDDEN)

    def write() -> None:
        shell.write("total", "16")
    shell.buttons["deal"].configure(command=draw)
    shell.buttons["deal"].invoke()
    text = str(shell.status.cget("text"))
    assert text == "KeyError: \"no row 'Dealer' on the table: the rows are 'dealer' and 'player'\"", text
    shell.buttons["deal"].configure(command=write)
    shell.buttons["deal"].invoke()
    text = str(shell.status.cget("text"))
    assert text == ("KeyError: \"no place 'total' to write at: the places are 'dealer_total', 'player_total', "
                    "'result'\""), text


@pytest.mark.gui
@pytest.mark.parametrize("states, presses, expected", [
    ({"deal": True}, ("deal",), "Hit and Stand should be enabled, as the engine offers them (view.legal_actions)"),
    ({"deal": False, "hit": True, "stand": True}, ("deal", "stand"), "Deal should be enabled, as the round is over"),
    ({}, (), "Deal should be enabled, as there is no round yet"),
])
def test_the_status_line_names_a_button_render_left_disabled(window: Callable[..., Shell],
                                                            monkeypatch: pytest.MonkeyPatch,
                                                            states: dict[str, bool], presses: tuple[str, ...],
                                                            expected: str) -> None:
    """A render that leaves a button off that the player needs now (Hit and Stand in play, Deal between rounds)
    gets a status line naming the button and the call that sets the buttons, not a prompt to press another one."""
    import gui.shell
    monkeypatch.setattr(gui.shell, "button_states", lambda view: states)
    shell = window("Th 9c 7d 8s")
    for name in presses:
        shell.buttons[name].state(["!disabled"])  # as a player would have pressed it with the right buttons
        shell.buttons[name].invoke()
    text = str(shell.status.cget("text"))
    assert text == f"{expected}: render should end with self.set_buttons(button_states(view))", text


# ============================================ the milestone-3 tests' messages for a student's typical mistakes
class Mistake(NamedTuple):
    """A student's typical mistake: the body of one solution region (``function`` in ``module``) of a submission that
    is otherwise the reference; ``body`` None is the starter's stub of that region."""

    doc: str
    module: str
    function: str
    body: tuple[str, ...] | None


#: The mistakes planted in submissions, by name (the parametrize ids name them).
MISTAKES: dict[str, Mistake] = {mistake_name: Mistake(*fields) for mistake_name, fields in {
    "record_always": (
        "A student's finish_if_settled that records the round at once, settled or not (an engine error at the deal).",
        "gui/shell.py", "Shell.finish_if_settled",
        ("self.game.finish_round()",)),
    "record_and_forget": (
        "A student's finish_if_settled that records a settled round, then forgets it (the result is never shown).",
        "gui/shell.py", "Shell.finish_if_settled",
        ("if self.round is not None and self.round.phase is Phase.SETTLED:",
         "    self.game.finish_round()",
         "    self.round = None")),
    "hit_then_loop": (
        "A student's hit that draws the card, then waits for a settlement that never comes: an endless loop, which "
        "the student's process stops at the test's time limit.",
        "gui/shell.py", "Shell.hit",
        ("assert self.round is not None",
         "self.round.apply(Action.HIT)",
         "self.refresh()",
         "while self.round.phase is not Phase.SETTLED:  # nothing in the loop settles it",
         "    pass")),
    "render_without_none": (
        "A student's render that forgets the window opens with no round (view None).",
        "gui/shell.py", "Shell.render",
        ("for i, card in enumerate(view.dealer.cards):",
         "    self.draw_card(\"dealer\", i, card)",
         "self.set_buttons(button_states(view))")),
    "render_a_hidden_value": (
        "A student's render that adds up the dealer's cards itself, the face-down HIDDEN one too.",
        "gui/shell.py", "Shell.render",
        ("if view is not None:",
         "    self.write(\"dealer_total\", str(sum(card.get_value() for card in view.dealer.cards)))",
         "self.set_buttons(button_states(view))")),
    "render_the_tables_round": (
        "A student's render that draws ``self.game.round`` instead of the view it is given (None once recorded).",
        "gui/shell.py", "Shell.render",
        ("if view is not None:",
         "    hand = self.game.round.view().seats[0].hands[0]",
         "    for i, card in enumerate(hand.cards):",
         "        self.draw_card(\"player\", i, card)",
         "self.set_buttons(button_states(view))")),
    "deal_without_refresh": (
        "A student's deal that starts the round but never redraws the window.",
        "gui/shell.py", "Shell.deal",
        ("self.round = self.game.start_round()",
         "self.finish_if_settled()")),
    "render_by_printing": (
        "A student's render that prints the hands to the terminal instead of drawing them.",
        "gui/shell.py", "Shell.render",
        ("if view is not None:",
         "    print(view.dealer.cards, view.seats[0].hands[0].cards)",
         "self.set_buttons(button_states(view))")),
    "render_the_best_total": (
        "A student's render that writes the hand's best total (``hand.total``), so a soft 17 reads \"17\".",
        "gui/shell.py", "Shell.render",
        ("if view is not None:",
         "    hand = view.seats[0].hands[0]",
         "    for i, card in enumerate(hand.cards):",
         "        self.draw_card(\"player\", i, card)",
         "    self.write(\"player_total\", str(hand.total))",
         "self.set_buttons(button_states(view))")),
    "hit_not_written": (
        "The starter's hit, a stub: the message names it as the body to write, without a hint that it raised.",
        "gui/shell.py", "Shell.hit",
        None),
    "render_the_engines_dealer": (
        "A student's render that draws the engine's dealer hand, hole card and all, instead of the view's.",
        "gui/shell.py", "Shell.render",
        ("if view is not None:",
         "    assert self.round is not None",
         "    for i, card in enumerate(self.round.dealer.hand):",
         "        self.draw_card(\"dealer\", i, card)",
         "    for i, card in enumerate(view.seats[0].hands[0].cards):",
         "        self.draw_card(\"player\", i, card)",
         "self.set_buttons(button_states(view))")),
    "hit_without_finishing": (
        "A student's hit that never records the round (no finish_if_settled).",
        "gui/shell.py", "Shell.hit",
        ("assert self.round is not None",
         "self.round.apply(Action.HIT)",
         "self.refresh()")),
    "score_every_ace_as_1": (
        "A student's week-1 get_score that never counts an ace as 11.",
        "blackjack/hand.py", "Hand.get_score",
        ("return sum(card.get_value() for card in self.cards)",)),
    "soft_never": (
        "A student's week-1 is_soft that never finds a soft hand.",
        "blackjack/hand.py", "Hand.is_soft",
        ("return False",)),
    "round_result_unchecked": (
        "A student's round_result that reads the outcome without checking that the round is settled.",
        "gui/shell.py", "round_result",
        ("return \"\" if view is None else str(view.seats[0].hands[0].outcome.result.label)",)),
}.items()}

MILESTONE3 = REPO_ROOT / "tests" / "milestone3"

#: ``graded(mistakes, test)``: the ``(outcome, message)`` of the milestone-3 test ``test`` on the reference with
#: the named mistakes planted.
Graded = Callable[[tuple[str, ...], str], tuple[str, str]]


def _replace_body() -> Callable[[Path, str, str, list[str]], None]:
    """``replace_body`` of ``tests/submissions/make_samples.py`` (loaded from its file: ``tests`` is no package)."""
    path = REPO_ROOT / "tests" / "submissions" / "make_samples.py"
    spec = importlib.util.spec_from_file_location("make_samples", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.replace_body  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def graded(display: str, tmp_path_factory: pytest.TempPathFactory) -> Graded:
    """Run one milestone-3 test through the runner on a submission with mistakes planted (runs are kept for the module).

    The submission is a copy of the reference packages with each mistake's region replaced (or stubbed as in
    the starter); the judge runs in its own pytest and the code in the student's process, on this display.
    """
    replace_body = _replace_body()
    runs: dict[tuple[tuple[str, ...], str], tuple[str, str]] = {}

    def grade(mistakes: tuple[str, ...], test: str) -> tuple[str, str]:
        if (mistakes, test) not in runs:
            planted = [MISTAKES[name] for name in mistakes]
            folder = tmp_path_factory.mktemp("m3-" + "-".join(mistakes))
            write_packages(folder, lambda region: any(
                m.body is None and (region.module, region.qualname) == (m.module, m.function) for m in planted),
                REPO_ROOT)
            for mistake in planted:
                if mistake.body is not None:
                    replace_body(folder, mistake.module, mistake.function, list(mistake.body))
            run = run_suite(MILESTONE3, folder, limits=Limits(timeout=60, test_timeout=3),
                            select=[f"{MILESTONE3 / 'test_gui.py'}::{test}"])
            found = [result for nodeid, result in run.results.items() if nodeid.endswith(f"::{test}")]
            assert len(found) == 1, (f"the run of {test} with {mistakes} gave no result for it: "
                                     f"{run.results} {run.collect_errors} {run.stop_reason(Limits())}\n{run.output}")
            runs[mistakes, test] = found[0]
        return runs[mistakes, test]

    return grade


def fails_with(graded: Graded, mistakes: tuple[str, ...], test: str, *words: str) -> str:
    """Run the milestone-3 test ``test`` on a submission with ``mistakes``: it must fail, its message naming ``words``.

    Returns:
        The failure's message, as the student reads it.
    """
    outcome, message = graded(mistakes, test)
    assert outcome == "failed", (outcome, message)
    for word in words:
        assert word in message, (word, message)
    if "is not written yet" in message:
        assert "must not raise" not in message, message
    return message


@pytest.mark.slow
@pytest.mark.gui
@pytest.mark.parametrize("mistake, test, words", [
    ("record_always", "test_deal_shows_the_cards_with_the_hole_card_face_down",
     ("pressing Deal made the window report an error", "the round is not over")),
    ("record_and_forget", "test_hit_to_a_bust_ends_the_round",
     ("after pressing Hit self.round is None", "finish_if_settled() leaves it there")),
    ("hit_then_loop", "test_hit_then_stand_the_dealer_busts",
     ("pressing Hit made the window report an error", "look for a loop that never ends")),
    ("render_without_none", "test_deal_shows_the_cards_with_the_hole_card_face_down",
     ("before the test pressed Deal", "render(None) failed", "with no view, render only sets the buttons")),
    ("render_a_hidden_value", "test_deal_shows_the_cards_with_the_hole_card_face_down",
     ("pressing Deal made the window report an error", "'Hidden' object has no attribute 'get_value'")),
    ("render_the_tables_round", "test_hit_to_a_bust_ends_the_round",
     ("pressing Hit made the window report an error", "self.game.round) is None once its finish_round()")),
    ("deal_without_refresh", "test_deal_shows_the_cards_with_the_hole_card_face_down",
     ("after pressing Deal self.round holds a round, but the canvas shows no card",
      "finishes it if it is already settled (finish_if_settled) and redraws the window (refresh)")),
    ("render_by_printing", "test_a_dealer_natural_ends_the_round_at_the_deal",
     ("the canvas shows no card", "printing them shows nothing in the window")),
    ("render_the_best_total", "test_hit_then_stand_the_dealer_busts",
     ("should read '7 / 17'", "it reads '17'", "17 is the hand's total, only the best",
      "the player's total is the hand's total_text")),
    ("hit_not_written", "test_hit_to_a_bust_ends_the_round",
     ("pressing Hit made the window report an error, so it did not finish the step: "
      "Shell.hit() is not written yet: apply Action.HIT to the round on show",
      "and redraw the window (refresh) (gui/shell.py:")),
    ("render_the_engines_dealer", "test_deal_shows_the_cards_with_the_hole_card_face_down",
     ("['9c', '8s']", "view.dealer.cards, not the engine's own dealer")),
    ("hit_without_finishing", "test_a_settled_round_is_finished_through_the_engine",
     ("hit() (like deal() and stand()) should call finish_if_settled()",)),
])
def test_milestone3_messages_name_the_mistake(graded: Graded, mistake: str, test: str, words: tuple[str, ...]) -> None:
    """A typical mistake in a handler or in render fails its milestone-3 test with a message naming it: a handler
    that raises (at the press, not as a disabled button later), a loop stopped by the time limit inside a handler
    (Tk would swallow it and the test pass), a round forgotten after it is recorded, a render that fails on None,
    the hole card drawn from the engine, a hit that never records the round."""
    fails_with(graded, (mistake,), test, *words)


@pytest.mark.slow
@pytest.mark.gui
@pytest.mark.parametrize("soft, reads", [(True, "'-3 / 7'"), (False, "'7'")], ids=["is_soft-right", "is_soft-never"])
def test_milestone3_an_ace_counted_1_is_told_the_scoring_rule(graded: Graded, soft: bool, reads: str) -> None:
    """A-2-4 whose total reads 7 because week 1's get_score counts every ace as 1 is a scoring mistake: the message
    names the ace rule and week 1's functions, not total_text (which the render already writes)."""
    mistakes = ("score_every_ace_as_1",) if soft else ("score_every_ace_as_1", "soft_never")
    message = fails_with(graded, mistakes, "test_hit_then_stand_the_dealer_busts", "should read '7 / 17'",
                         f"it reads {reads}", "The hand scored 7, so the ace counted 1",
                         "an ace counts 11 when that does not bust the hand, else 1", "Hand.get_score")
    assert "only the best" not in message, message


@pytest.mark.slow
@pytest.mark.gui
@pytest.mark.parametrize("mistake, test, repeated", [
    ("render_without_none", "test_deal_shows_the_cards_with_the_hole_card_face_down",
     "with no view, render only sets the buttons"),
    ("render_a_hidden_value", "test_deal_shows_the_cards_with_the_hole_card_face_down",
     "finish_if_settled() records the round with the table's finish_round() only once"),
])
def test_milestone3_messages_say_only_what_applies(graded: Graded, mistake: str, test: str, repeated: str) -> None:
    """The message for an error says a hint once, and only one that applies: the render(None) hint is not repeated
    after the window's own, and an error in render gets no hint about finish_if_settled."""
    outcome, text = graded((mistake,), test)
    assert outcome == "failed", (outcome, text)
    sources = (MILESTONE3 / "test_gui.py", Path(shell_module.__file__))
    hints = "".join(path.read_text(encoding="utf-8") for path in sources)
    assert repeated in hints, f"{repeated!r} is a hint neither the suite nor the window gives: this check tests nothing"
    assert text.count(repeated) == (1 if "no view" in repeated else 0), text


@pytest.mark.slow
def test_milestone3_round_result_before_the_settlement_is_explained(graded: Graded) -> None:
    """A round_result that reads the outcome while the player still decides fails with a note saying the outcome
    is None until the round is settled (the note is what ``milestones check`` prints)."""
    fails_with(graded, ("round_result_unchecked",), "test_round_result_without_money",
               "outcome is None until the round is settled")


def test_a_stop_from_outside_names_every_student_call_it_was_in() -> None:
    """A time limit (or Ctrl-C) stopping a loop in ``hit`` may land in ``render``, which the loop calls: the status
    line names both places, the handler's loop line first; an ordinary error names only the innermost."""
    import gui.shell
    source = ("class Shell:\n"
              "    def hit(self, error):\n"
              "        while True: self.render(error)\n"
              "    def render(self, error):\n"
              "        raise error\n")
    namespace: dict[str, Any] = {}
    exec(compile(source, gui.shell.__file__, "exec"), namespace)
    texts = []
    for error in (TestTimeout("took longer than 10 s"), KeyError("row")):
        try:
            namespace["Shell"]().hit(error)
        except BaseException as err:  # the TestTimeout too, as Tk's callback wrapper catches it
            texts.append(Shell._describe(err))
    assert texts == ["TestTimeout: took longer than 10 s (in Shell.hit, gui/shell.py:3, then Shell.render, "
                     "gui/shell.py:5)", "KeyError: 'row' (in Shell.render, gui/shell.py:5)"], texts


@pytest.mark.gui
def test_a_handler_that_does_not_redraw_is_named_in_the_status_line(window: Callable[..., Shell],
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A deal that starts the round but never calls refresh() leaves the window as it was; the status line says so
    instead of still asking for Deal."""
    def deal(self: Shell) -> None:
        self.round = self.game.start_round()
    monkeypatch.setattr(Shell, "deal", deal)
    shell = window("Th 9c 6d 8s")
    shell.buttons["deal"].invoke()
    text = str(shell.status.cget("text"))
    assert text == ("Shell.deal() returned without calling self.refresh(), so the window still shows what it showed "
                    "before: end it with self.refresh()"), text
    assert shell.shown("player") == [] and shell.errors == []


@pytest.mark.gui
def test_a_render_that_calls_refresh_is_named(display: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A render that ends with self.refresh() calls itself without end: the status line says what that is."""
    def again(self: Shell, view: Any) -> None:
        self.set_buttons(button_states(view))
        self.refresh()
    monkeypatch.setattr(Shell, "render", again)
    root = tk.Tk()
    try:
        shell = Shell(root, name="Ann")
        text = str(shell.status.cget("text"))
        assert text.startswith("the window opened with no round, and render(None) failed: RecursionError: "), text
        assert "a call that never ends, as a function that calls itself; render must not call self.refresh(), " \
               "which calls render" in text, text
    finally:
        root.destroy()


def test_an_unexpected_error_in_a_handler_prints_no_traceback(tmp_path: Path) -> None:
    """A handler that raises a TypeError shows one line in the status label; nothing is written to the
    terminal (the traceback went to stderr through logging's last-resort handler before)."""
    import subprocess
    import sys
    project = tmp_path / "p"
    from milestones.starter import write_packages
    write_packages(project, lambda r: False)
    shell = project / "gui" / "shell.py"
    text = shell.read_text(encoding="utf-8")
    text = text.replace("    def hit(self) -> None:\n", "    def hit(self) -> None:\n        raise TypeError('made up')\n", 1)
    shell.write_text(text, encoding="utf-8")
    code = ("import tkinter as tk\n"
            "from gui.shell import Shell\n"
            "root = tk.Tk()\n"
            "shell = Shell(root)\n"
            "shell.game.shoe.stack(['Th', '9c', '6d', '8s'])\n"
            "shell.buttons['deal'].invoke()\n"
            "shell.buttons['hit'].invoke()\n"
            "root.update()\n"
            "print(shell.status.cget('text'))\n"
            "root.destroy()\n")
    from gui.testing import virtual_display
    with virtual_display() as name:
        done = subprocess.run([sys.executable, "-c", code], cwd=project, capture_output=True, text=True,
                              timeout=60, env={**__import__("os").environ, "DISPLAY": name})
    assert "Traceback" not in done.stderr + done.stdout, done.stderr
    assert "TypeError: made up" in done.stdout, done.stdout + done.stderr
