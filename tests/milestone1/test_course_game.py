"""Milestone 1, the text game you write: blackjack/course_game.py (cs111 week 1; 7 points).

The course: "Create a simple game engine that deals cards to 2 players ... show the
player's cards and ask if the user wants to hit or stand. You should not ask if the user
has already busted. Determine the outcome of the game and print who won. Expand this
game to N players." Every function gets ``ask`` (prompt in, answer out, like ``input``)
and ``say`` (one line out, like ``print``); these tests answer from a script and read
every line, dealt from a stacked shoe so every card is known.

Only what ``milestones/specs/milestone1.md`` lists is checked: a player's line holds the
name, every card (``"Th"`` or ``"10♥"``) and the score, and "bust" over 21; the dealer's
line holds "Dealer" and hides the hole card until the dealer plays; a hit-or-stand
prompt names the player; a result line holds the name and "win", "lose" or "push"
("wins", "loses", "pushes", "lost" ... all do). The rest of the wording is yours.
"""

from __future__ import annotations

import builtins
import io
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType, TracebackType

import pytest

import blackjack
from blackjack import Action, Blackjack, Card, IllegalActionError, Round, Rules
from blackjack.__main__ import main
from blackjack.course_game import (ask_hit_or_stand, dealer_text, hand_text, play_game, play_round, play_turn,
                                   result_text)
from blackjack.events import Outcome
from blackjack.actions import Result

CS111 = Rules.preset("cs111")


class OutOfAnswers(Exception):
    """The game asked a question after the scripted answers ran out."""


class Runaway(Exception):
    """The game said many lines without asking anything: a loop that does not end."""


#: Lines a game may say between two questions before the test calls it a loop without end.
LINE_LIMIT = 1000

#: What the code under test printed with print() during the test (print itself is replaced).
PRINTED: list[str] = []


@pytest.fixture(autouse=True)
def keyboard_and_screen_are_ask_and_say(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """input() fails with the course's advice (use ask); print() is recorded for the failure messages (use say),
    and still printed, to pytest's captured output.

    Without this a call to input() fails with pytest's "reading from stdin while output is
    captured! Consider using -s", which does not tell a student to use ``ask``.
    """
    def no_input(prompt: object = "") -> str:
        pytest.fail(f"your code called input({str(prompt)!r}){_called_from()}: the course game's functions read "
                    f"answers only with ask(prompt), the ask function they are given (ask works like input), and "
                    f"write lines only with say(line); the tests answer through ask and read say, and "
                    f"python -m blackjack --rules cs111 passes them input and print", pytrace=False)

    real_print = builtins.print

    def record_print(*values: object, sep: str | None = " ", end: str | None = "\n", **kwargs: object) -> None:
        PRINTED.append((" " if sep is None else sep).join(map(str, values)))
        real_print(*values, sep=sep, end=end, **kwargs)  # type: ignore[call-overload]  # pytest's captured stdout

    PRINTED.clear()
    monkeypatch.setattr(builtins, "input", no_input)
    monkeypatch.setattr(builtins, "print", record_print)
    yield
    PRINTED.clear()


PACKAGE = Path(blackjack.__file__).resolve().parent


def _in_package(filename: str) -> str | None:
    """``blackjack/round.py`` for a file of the blackjack package under test, else None."""
    path = Path(filename).resolve()
    if not path.is_relative_to(PACKAGE):
        return None
    return "/".join(("blackjack", *path.relative_to(PACKAGE).parts))


def _frames(tb: TracebackType | None) -> list[tuple[str, str, int]]:
    """(qualified name, file from blackjack/ on, line) of every frame of ``tb`` in the blackjack package."""
    frames = []
    while tb is not None:
        code = tb.tb_frame.f_code
        where = _in_package(code.co_filename)
        if where is not None:
            frames.append((getattr(code, "co_qualname", code.co_name), where, tb.tb_lineno))
        tb = tb.tb_next
    return frames


def _place(frames: list[tuple[str, str, int]]) -> str:
    """`` (in play_turn, blackjack/course_game.py:131)``, or the engine's frame and the course game's that called it."""
    if not frames:
        return ""
    deepest = frames[-1]
    yours = next((f for f in reversed(frames) if f[1] == "blackjack/course_game.py"), None)
    if yours is None or yours == deepest:
        return f" (in {deepest[0]}, {deepest[1]}:{deepest[2]})"
    return f" (in {deepest[0]}, {deepest[1]}:{deepest[2]}, called from {yours[0]}, {yours[1]}:{yours[2]})"


def _called_from() -> str:
    """`` (in play_game, blackjack/course_game.py:210)``: the innermost blackjack frame running now."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        where = _in_package(frame.f_code.co_filename)
        if where is not None:
            return _place([(getattr(frame.f_code, "co_qualname", frame.f_code.co_name), where, frame.f_lineno)])
        frame = frame.f_back
    return ""


class Table:
    """A scripted keyboard and a screen: ``ask`` answers from the script, ``say`` records the line.

    ``log`` holds everything in order: ``("ask", prompt)``, ``("say", line)``, and ``("not text",
    repr(value))`` when ``say`` was given something that is not a str. More than
    :data:`LINE_LIMIT` lines in a row without a question raise :class:`Runaway`.
    """

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.script = list(answers)
        self.log: list[tuple[str, str]] = []
        self.said_since_asked = 0

    def ask(self, prompt: str) -> str:
        self.log.append(("ask", str(prompt)))
        self.said_since_asked = 0
        if not self.answers:
            raise OutOfAnswers(f"the game asked {str(prompt)!r} after the scripted answers {self.script} were all "
                               f"used")
        return self.answers.pop(0)

    def say(self, line: str) -> None:
        self.log.append(("say", line) if isinstance(line, str) else ("not text", repr(line)))
        self.said_since_asked += 1
        if self.said_since_asked > LINE_LIMIT:
            raise Runaway(f"the game said {LINE_LIMIT} lines without asking anything (the last one: {str(line)!r}): "
                          f"a loop that never ends. After refusing an answer, ask again inside the loop, so that "
                          f"the next answer is read")

    @property
    def lines(self) -> list[str]:
        return [text for kind, text in self.log if kind != "ask"]

    @property
    def prompts(self) -> list[str]:
        return [text for kind, text in self.log if kind == "ask"]

    def transcript(self) -> str:
        """Everything the game showed, prompts marked with '?', for a failure message; print()ed lines first."""
        log = self.log
        if len(log) > 60:  # a runaway loop: its start and its end
            log = [*log[:24], ("say", f"... {len(log) - 30} more lines ..."), *log[-6:]]
        notes = {"ask": "? {}", "say": "{}", "not text": "{}   <- say() was given this, not a str: does the function "
                                                               "that makes the line return it?"}
        shown = "\n".join("   " + notes[kind].format(text) for kind, text in log)
        return printed_note() + f"\n  what the game showed (? marks a prompt):\n{shown or '   (nothing)'}"


def printed_note() -> str:
    """What the code printed with print(), which the tests (and say) never see; "" when nothing."""
    if not PRINTED:
        return ""
    lines = "\n".join(f"   {line}" for line in PRINTED[:3]) + (f"\n   ... ({len(PRINTED)} lines)" if len(PRINTED) > 3 else "")
    return (f"\n  your code printed with print(), where the tests cannot read it (write every line with say(line), "
            f"or return it when the function returns a line):\n{lines}")


def shows_card(text: str, code: str) -> bool:
    """True when ``text`` shows the card ``code`` as its code ("Th") or symbol ("10♥")."""
    card = Card.parse(code)
    spellings = "|".join(re.escape(s) for s in (card.code, card.symbol))
    return re.search(rf"(?<!\w)({spellings})(?!\w)", text) is not None


def shows_number(text: str, number: int) -> bool:
    """True when ``text`` holds ``number`` as a number of its own (16 in "(16)", not in "160")."""
    return re.search(rf"(?<!\d){number}(?!\d)", text) is not None


def shows_word(text: str, word: str) -> bool:
    """True when ``text`` holds ``word`` as a word (any case)."""
    return re.search(rf"\b{re.escape(word)}\b", text, re.IGNORECASE) is not None


def hand_line_problem(line: str, name: str, codes: str, score: int, bust: bool) -> str | None:
    """What is missing from one player's line, or None when it shows all the spec asks for."""
    missing = [what for what, ok in [(f"the name {name}", shows_word(line, name)),
                                     *[(f"the card {c}", shows_card(line, c)) for c in codes.split()],
                                     (f"the score {score}", shows_number(line, score))] if not ok]
    if missing:
        return "it lacks " + ", ".join(missing)
    if bust != ("bust" in line.lower()):
        return f"it should {'' if bust else 'not '}say bust (the score {score} is {'over' if bust else 'not over'} 21)"
    return None


def find(lines: list[str], name: str, codes: str, score: int, bust: bool = False) -> int | None:
    """The index of the first line that shows this hand as the spec asks, or None."""
    for i, line in enumerate(lines):
        if hand_line_problem(line, name, codes, score, bust) is None:
            return i
    return None


def kind_of(line: str) -> set[str]:
    """The result words in a line: win, lose (lose/loses/lost), push."""
    low = line.lower()
    return {word for word, stem in (("win", "win"), ("win", "won"), ("lose", "los"), ("push", "push"))
            if stem in low}


def round_with(names: list[str], codes: str) -> tuple[Blackjack, Round]:
    """A cs111 table for ``names`` whose first round is dealt from ``codes`` (table order, then hits)."""
    game = Blackjack(names, CS111, seed=1)
    game.shoe.stack(codes.split())
    return game, game.start_round()


def run_scripted(function: object, table: Table, *args: object, extra_question: str = "") -> object:
    """Call ``function(*args, table.ask, table.say)``; a question past the script, a loop without end, an
    illegal move or any other exception fails the test with one message, where it happened and the transcript.

    Args:
        extra_question: the usual cause of a question past the script in this test, for its message.
    """
    name = getattr(function, "__name__", "the function")
    try:
        return function(*args, table.ask, table.say)  # type: ignore[operator]
    except OutOfAnswers as err:
        failure = (f"{name}: {err}. The script answers every question the game should ask; "
                   + (extra_question or "an extra question is often a player asked again after a bust or after "
                                        "the turn passed"))
    except Runaway as err:
        failure = f"{name}: {err}{_place(_frames(err.__traceback__))}"
    except IllegalActionError as err:
        failure = (f"{name} made a move the round does not allow now: IllegalActionError: {err}"
                   f"{_place(_frames(err.__traceback__))}. A player whose turn has passed, after a stand or a "
                   f"bust, must not be asked or played again: loop only while rnd.current_player is still that "
                   f"player")
    except (NotImplementedError, RecursionError):
        raise  # "not written yet: ..." and the functions that call each other: the grader words these itself
    except Exception as err:  # any other mistake: one line, where it happened, not a traceback into the engine
        failure = f"{name} raised {type(err).__name__}: {err}{_place(_frames(err.__traceback__))}"
    pytest.fail(failure + table.transcript(), pytrace=False)


# ---------------------------------------------------------------- showing the hands

@pytest.mark.points(1)
def test_hand_text_shows_name_cards_score_and_bust() -> None:
    """hand_text(name, hand) is one line with the name, every card and the score, and "bust" only over 21."""
    # Ann T 6 (16); dealer 9 up; Ann hits an 8: 24, bust.
    _game, rnd = round_with(["Ann"], "Th 9s 6c 8h 8d")
    line = hand_text("Ann", rnd.view().seats[0].hands[0])
    assert isinstance(line, str), \
        (f"hand_text('Ann', <hand Th 6c>) should return the line as a str (play_round says it); it returned "
         f"{line!r}" + printed_note())
    problem = hand_line_problem(line, "Ann", "Th 6c", 16, bust=False)
    assert problem is None, (f"hand_text('Ann', <hand Th 6c>) should show Ann, Th (or 10♥), 6c (or 6♣) and the "
                             f"score 16; it returned {line!r}: {problem}" + printed_note())
    rnd.apply(Action.HIT)
    line = hand_text("Ann", rnd.view().seats[0].hands[0])
    problem = hand_line_problem(str(line), "Ann", "Th 6c 8d", 24, bust=True)
    assert problem is None, (f"hand_text('Ann', <hand Th 6c 8d>) should show Ann, the three cards, the score 24 "
                             f"and the word bust (over 21); it returned {line!r}: {problem}")


@pytest.mark.points(1)
def test_dealer_text_hides_the_hole_card_until_the_dealer_plays() -> None:
    """dealer_text shows "Dealer" and the upcard but not the hole card during the players' turns; after the
    round every card, the score, and "bust" over 21."""
    # Ann T 6 stands; dealer T up, 6 in the hole, draws 9: 25, bust.
    _game, rnd = round_with(["Ann"], "Th Td 6c 6h 9s")
    shown = dealer_text(rnd.view().dealer)
    assert isinstance(shown, str), \
        (f"dealer_text(<dealer Td ??>) should return the line as a str (play_round says it); it returned "
         f"{shown!r}" + printed_note())
    line = shown
    assert shows_word(line, "Dealer") and shows_card(line, "Td"), \
        f"dealer_text during Ann's turn (dealer Td up, 6h down) should show Dealer and Td; it returned {line!r}"
    assert not shows_card(line, "6h") and not shows_number(line, 16), \
        (f"dealer_text during Ann's turn gives the hole card away: it returned {line!r}, which shows the 6h or "
         f"the total 16. Until dealer.revealed, the hole card is HIDDEN (shown as ??) and only the upcard counts")
    rnd.apply(Action.STAND)
    line = str(dealer_text(rnd.view().dealer))
    missing = [c for c in ("Td", "6h", "9s") if not shows_card(line, c)]
    assert shows_word(line, "Dealer") and not missing and shows_number(line, 25) and "bust" in line.lower(), \
        (f"after the dealer's play (T 6, drew 9: 25) dealer_text should show Dealer, Td 6h 9s, the score 25 and "
         f"bust; it returned {line!r}" + (f" (missing {', '.join(missing)})" if missing else ""))


# ---------------------------------------------------------------- asking

@pytest.mark.points(1)
def test_ask_hit_or_stand_reads_h_s_and_asks_again_after_anything_else() -> None:
    """h/hit give HIT and s/stand give STAND in any case; any other answer gets a line and the question again."""
    for answers, want in [(("h",), Action.HIT), (("HIT",), Action.HIT), ((" s ",), Action.STAND),
                          (("Stand",), Action.STAND), (("x", "", "h"), Action.HIT)]:
        table = Table(*answers)
        got = run_scripted(ask_hit_or_stand, table, "Ann")
        assert got is want, (f"ask_hit_or_stand('Ann', ...) answered {list(answers)} should return {want}; it "
                             f"returned {got!r}{table.transcript()}")
        assert len(table.prompts) == len(answers), \
            (f"answered {list(answers)}, ask_hit_or_stand should ask {len(answers)} time(s) (once, and again after "
             f"each answer that is not h, hit, s or stand); it asked {len(table.prompts)}{table.transcript()}")
        assert all(shows_word(p, "Ann") for p in table.prompts), \
            f"every hit-or-stand prompt should name the player, Ann; it asked {table.prompts}"
        refused = len(answers) - 1
        assert len(table.lines) >= refused, \
            (f"after the answers {list(answers[:-1])} ask_hit_or_stand should say a line (e.g. 'Please type h or s') "
             f"before asking again; it said {table.lines}")


@pytest.mark.points(1)
def test_play_turn_asks_until_stand_and_never_after_a_bust() -> None:
    """play_turn asks one player until stand (showing the hand after each hit); a player who busts is not asked."""
    # Ann T 2 (12), Bob 9 7 (16), dealer 5 up, 8 down. Ann hits 4 (16), stands. Bob hits K (26): bust.
    _game, rnd = round_with(["Ann", "Bob"], "Th 9h 5s 2c 7s 8h 4d Kd")
    ann = Table("h", "s")
    run_scripted(play_turn, ann, rnd)
    assert len(ann.prompts) == 2 and all(shows_word(p, "Ann") for p in ann.prompts), \
        (f"Ann (T 2) answers hit, then stand: play_turn should ask her twice, naming her; it asked "
         f"{ann.prompts}{ann.transcript()}")
    assert find(ann.lines, "Ann", "Th 2c 4d", 16) is not None, \
        (f"after Ann's hit play_turn should show her hand: Ann, Th 2c 4d and the score 16{ann.transcript()}")
    turn = rnd.current_player.name if rnd.current_player else None
    assert turn == "Bob", f"after Ann stands play_turn should return with Bob's turn next; the turn is {turn}"
    bob = Table("h", "h", "h")
    run_scripted(play_turn, bob, rnd)
    assert len(bob.prompts) == 1, \
        (f"Bob (9 7) hits a K: 26, bust. play_turn must not ask a busted player again (the course: 'you should "
         f"not ask if the user has already busted'); it asked {len(bob.prompts)} times: {bob.prompts}"
         f"{bob.transcript()}")
    assert find(bob.lines, "Bob", "9h 7s Kd", 26, bust=True) is not None, \
        f"after Bob's hit play_turn should show Bob, 9h 7s Kd, the score 26 and bust{bob.transcript()}"


@pytest.mark.points(0)
def test_result_text_words() -> None:
    """result_text gives the name and wins / loses / pushes."""
    for result, word in ((Result.WIN, "win"), (Result.BUST, "lose"), (Result.LOSE, "lose"), (Result.PUSH, "push")):
        line = str(result_text("Cy", Outcome(result, 1, 0)))
        assert shows_word(line, "Cy") and kind_of(line) == {word}, \
            (f"result_text('Cy', <outcome {result.name}>) should hold Cy and the word {word} (wins, loses or pushes"
             + (": a busted player loses, so write loses, not only bust" if result is Result.BUST else "")
             + f"); it returned {line!r}" + printed_note())


# ---------------------------------------------------------------- rounds and games

@pytest.mark.points(1)
def test_play_round_for_two_players_shows_hands_dealer_play_and_who_won() -> None:
    """One round for Ann and Bob: both hands and the dealer's upcard, each turn, the dealer's play, who won."""
    # Ann T 6 (16) hits 4 (20), stands; Bob 9 7 (16) hits K (26), bust; dealer 9 up, 8 down: 17, stands.
    game = Blackjack(["Ann", "Bob"], CS111, seed=1)
    game.shoe.stack("Th 9h 9s 6c 7s 8h 4d Kd".split())
    table = Table("h", "s", "h")
    outcomes = run_scripted(play_round, table, game)
    lines, log = table.lines, table.log
    shown = table.transcript()
    first_prompt = next((i for i, (kind, _) in enumerate(log) if kind == "ask"), len(log))
    before = [text for kind, text in log[:first_prompt] if kind == "say"]
    for name, codes in (("Ann", "Th 6c"), ("Bob", "9h 7s")):
        assert find(before, name, codes, 16) is not None, \
            f"before the first question play_round should show {name}'s hand: {name}, {codes} and 16{shown}"
    dealer_up = [line for line in before if shows_word(line, "Dealer")]
    assert any(shows_card(line, "9s") for line in dealer_up), \
        f"before the first question play_round should show the dealer's upcard, 9s, on a Dealer line{shown}"
    assert not any(shows_card(line, "8h") for line in dealer_up), \
        (f"the dealer's hole card (8h) must stay hidden until the players are done: show the dealer as the "
         f"round's view holds it (dealer_text of the view's dealer, where the hole card is HIDDEN, ??), not the "
         f"table's own dealer hand (game.dealer.hand), which holds the real card{shown}")
    assert len(table.prompts) == 3 and [p for p in table.prompts if shows_word(p, "Bob")] == table.prompts[2:], \
        (f"Ann answers hit, stand and Bob hit (and busts): play_round should ask Ann twice, then Bob once; "
         f"it asked {table.prompts}{shown}")
    played = [i for i, line in enumerate(lines) if shows_word(line, "Dealer") and shows_card(line, "9s")
              and shows_card(line, "8h") and shows_number(line, 17)]
    dealer_lines = [line for line in lines if shows_word(line, "Dealer")]
    assert played, \
        (f"after the players, play_round should show the dealer's play: Dealer, 9s 8h and the score 17 (say "
         f"dealer_text again once the players are done, from the round's view as it is then, hole card turned "
         f"over); the lines naming the dealer were {dealer_lines}{shown}")
    results = {name: [kind_of(line) for line in lines[played[0]:] if shows_word(line, name) and kind_of(line)]
               for name in ("Ann", "Bob")}
    wordless = [line for line in lines[played[0] + 1:] if shows_word(line, "Bob") and not kind_of(line)]
    assert results == {"Ann": [{"win"}], "Bob": [{"lose"}]}, \
        (f"after the dealer's play play_round should say who won, one line per player: Ann wins (20 v 17), "
         f"Bob loses (bust); the result words found after the dealer's play were {results}"
         + (f". The line {wordless[0]!r} has none of win, lose or push: a busted player loses, so write "
            f"'Bob loses' (result_text)" if wordless and not results["Bob"] else "")
         + (". No line after it says who won: finish the round with game.finish_round() and say "
            "result_text(name, outcome) for each (seat, hand, outcome) it returns"
            if not results["Ann"] and not results["Bob"] and not wordless else "") + shown)
    got = [(seat, outcome.result) for seat, _hand, outcome in outcomes] if isinstance(outcomes, list) else outcomes
    assert got == [(0, Result.WIN), (1, Result.BUST)], \
        f"play_round should return game.finish_round()'s list: [(0, WIN), (1, BUST)]; it returned {got!r}"


@pytest.mark.points(1)
def test_play_game_for_three_players_asks_to_play_again() -> None:
    """N players: play_game plays rounds for three players until the answer to "play again?" is no."""
    # Round 1: Ann T 9 (19) stands, Bob 5 5 hits 6 (16) stands, Cy 8 9 (17) stands; dealer T 7 (17).
    # Round 2: Ann K 8 (18), Bob K 2 (12), Cy Q J (20) stand; dealer 6 A (soft 17) stands.
    game = Blackjack(["Ann", "Bob", "Cy"], CS111, seed=2)
    game.shoe.stack("Th 5d 8s Td 9c 5c 9d 7h 6h  Kc Ks Qh 6d 8c 2s Jh Ad".split())
    table = Table("s", "h", "s", "s", "maybe", "y", "s", "s", "s", "N")
    rounds = run_scripted(play_game, table, game,
                          extra_question="answers to play again are y, yes, n or no in any case ('N' is no: stop "
                                         "and return the number of rounds), and a player is never asked after a "
                                         "stand or a bust")
    shown = table.transcript()
    again = [p for p in table.prompts if not any(shows_word(p, name) for name in ("Ann", "Bob", "Cy"))]
    assert again or rounds == 2, \
        (f"after the round play_game should ask whether to play again (e.g. 'Play again? [y/n] '); it asked only "
         f"the players {table.prompts} and returned {rounds!r}{shown}")
    assert rounds == 2, (f"answered y, then N, to play again, play_game should play 2 rounds and return 2; it "
                         f"returned {rounds!r}{shown}")
    hands = [("Ann", "Th 9c", 19), ("Bob", "5d 5c", 10), ("Cy", "8s 9d", 17),
             ("Ann", "Kc 8c", 18), ("Bob", "Ks 2s", 12), ("Cy", "Qh Jh", 20)]
    unseen = [f"{name} {codes} ({score})" for name, codes, score in hands if find(table.lines, name, codes, score) is None]
    assert not unseen, (f"N players: every round should show every player's hand, however many players sit at the "
                        f"table (every seat of the round's view); these hands were never shown: {', '.join(unseen)}"
                        f"{shown}")
    assert len(table.prompts) == 10, \
        (f"play_game should ask the three players, then whether to play again (once more after the answer "
         f"'maybe'), then the three players, then again; it asked {table.prompts}{shown}")
    want = [{"win"}, {"lose"}, {"push"}, {"win"}, {"lose"}, {"win"}]
    results = [kind_of(line) for line in table.lines if kind_of(line) and
               any(shows_word(line, n) for n in ("Ann", "Bob", "Cy"))]
    assert results == want, \
        (f"who won, in seat order, round 1: Ann win (19 v 17), Bob lose (16), Cy push (17); round 2: Ann win "
         f"(18 v 17), Bob lose (12), Cy win (20). The result words found were {results}{shown}")


@pytest.mark.points(1)
def test_python_m_blackjack_rules_cs111_plays_your_game_on_stdin_and_stdout() -> None:
    """``python -m blackjack --rules cs111`` runs your play_game: typed answers in, your lines out."""
    # Ann T 6 hits 4 (20) stands; Bob 9 7 stands; dealer 9 8 (17): Ann wins, Bob loses.
    stdin, stdout = io.StringIO("h\ns\ns\nn\n"), io.StringIO()
    argv = ["--rules", "cs111", "--names", "Ann,Bob", "--stack", "Th,9h,9s,6c,7s,8h,4d"]
    status = main(argv, stdin=stdin, stdout=stdout)
    out = stdout.getvalue()
    shown = printed_note() + "\n  the game wrote:\n" + "\n".join("   " + line for line in out.splitlines())
    assert status == 0, f"python -m blackjack {' '.join(argv)} with the answers h s s n should end with status " \
                        f"0; it ended with {status}{shown}"
    lines = out.splitlines()
    assert find(lines, "Ann", "Th 6c 4d", 20) is not None and find(lines, "Bob", "9h 7s", 16) is not None, \
        f"the game should show Ann's hand after her hit (Th 6c 4d, 20) and Bob's (9h 7s, 16){shown}"
    results = {name: sorted(set().union(*[kind_of(line) for line in lines if shows_word(line, name)]))
               for name in ("Ann", "Bob")}
    assert results == {"Ann": ["win"], "Bob": ["lose"]}, \
        f"the game should print that Ann wins (20 v 17) and Bob loses (16 v 17); result words found: {results}{shown}"
    left = stdin.read()
    ann_results = sum(bool(kind_of(line)) and shows_word(line, "Ann") for line in lines)
    assert left == "" and ann_results == 1, \
        (f"after one round the game should ask whether to play again, read the n and stop: one result line for "
         f"Ann expected, {ann_results} found; unread input {left!r}{shown}")


# ---------------------------------------------------------------- no points: the given run()

@pytest.mark.points(0)
def test_end_of_input_and_quit_end_the_course_game_quietly() -> None:
    """EOF on stdin or 'quit' at any prompt ends the course game with status 0, one line saying why and the
    session summary (given code), no traceback."""
    for text in ("", "h\n", "quit\n"):
        stdout = io.StringIO()
        status = main(["--rules", "cs111", "--names", "Ann", "--seed", "1"], stdin=io.StringIO(text), stdout=stdout)
        out = stdout.getvalue()
        lines = out.splitlines()
        ends = [i for i, line in enumerate(lines) if line in ("Input ended.", "Quitting.")]
        assert status == 0 and "Traceback" not in out and len(ends) == 1 \
            and lines[ends[0] + 1].startswith("Session summary:"), \
            (f"python -m blackjack --rules cs111 --names Ann with the input {text!r} should end quietly with status 0, "
             f"the line 'Input ended.' (end of input) or 'Quitting.' (quit) and then the session summary; it ended "
             f"with status {status} and wrote:\n{out}")


@pytest.mark.points(0)
def test_a_mistake_in_the_course_game_stops_it_with_one_line_naming_your_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """An exception from a course function ends ``python -m blackjack --rules cs111`` with status 1 and one
    "Stopped:" line naming the exception and the course function's line; say() given a non-str says so."""
    import blackjack.course_game as course_game

    def wrong_action(game: Blackjack, ask: object, say: object) -> int:
        game.start_round().apply("h")  # type: ignore[arg-type]
        return 1

    def no_line(game: Blackjack, ask: object, say: object) -> int:
        say(None)  # type: ignore[operator]
        return 1

    for broken, words in ((wrong_action, ["TypeError", "apply() takes an Action", "Round.apply"]),
                          (no_line, ["say() was given None", "return it"])):
        monkeypatch.setattr(course_game, "play_game", broken)
        stdout = io.StringIO()
        status = main(["--rules", "cs111", "--names", "Ann", "--seed", "1"], stdin=io.StringIO("s\nn\n"),
                      stdout=stdout)
        out = stdout.getvalue()
        last = out.rstrip().splitlines()[-1]
        missing = [w for w in words if w not in last]
        assert status == 1 and "Traceback" not in out and last.startswith("Stopped: ") and not missing, \
            (f"a play_game that {broken.__name__.replace('_', ' ')} should stop the game with status 1 and one "
             f"line 'Stopped: ...' naming {words}; status {status}, missing {missing}, the game wrote:\n{out}")


@pytest.mark.points(0)
def test_full_flag_keeps_the_full_text_game_for_cs111_rules() -> None:
    """``--rules cs111 --full`` plays the kit's full text game (card drawings, commands), not the course game."""
    stdout = io.StringIO()
    status = main(["--rules", "cs111", "--full", "--names", "Ann", "--seed", "1", "--rounds", "1", "--plain"],
                  stdin=io.StringIO("s\n"), stdout=stdout)
    assert status == 0 and "Type help for commands" in stdout.getvalue(), stdout.getvalue()
