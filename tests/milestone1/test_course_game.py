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

import re
from typing import Any

import pytest

from milestones.grader.judge import Student

#: What the student's process says when code under test reads the keyboard (input() or sys.stdin).
READS_STDIN = "reading from stdin while the tests run"

SUIT_SYMBOLS = {"s": "♠", "d": "♦", "c": "♣", "h": "♥"}


def symbol(code: str) -> str:
    """The display form of a card code: "Th" -> "10♥", "As" -> "A♠"."""
    rank = code[:-1].upper()
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[code[-1].lower()]


def input_message(prompt: str, where: str) -> str:
    """The failure for a course function that called input() instead of ask()."""
    return (f"your code called input({prompt!r}){where}: the course game's functions read answers only with "
            f"ask(prompt), the ask function they are given (ask works like input), and write lines only with "
            f"say(line); the tests answer through ask and read say, and python -m blackjack --rules cs111 passes "
            f"them input and print")


def printed_note(printed: str) -> str:
    """What the code printed with print(), which the tests (and say) never see; "" when nothing."""
    lines = printed.splitlines()
    if not lines:
        return ""
    shown = "\n".join(f"   {line}" for line in lines[:3]) + (f"\n   ... ({len(lines)} lines)" if len(lines) > 3 else "")
    return (f"\n  your code printed with print(), where the tests cannot read it (write every line with say(line), "
            f"or return it when the function returns a line):\n{shown}")


class Played:
    """One scripted call of a course function as the student's process saw it: ``log`` holds everything in
    order, ``("ask", prompt)``, ``("say", line)``, and ``("not text", repr(value))`` when ``say`` was given
    something that is not a str; ``returned``, ``failure`` (None, or what went wrong) and ``printed``."""

    def __init__(self, reply: dict[str, Any], script: list[str] | tuple[str, ...]) -> None:
        self.script = list(script)
        self.log: list[tuple[str, str]] = [(kind, text) for kind, text in reply["log"]]
        self.skipped: int = reply["skipped"]
        self.returned: Any = reply["returned"]
        self.failure: dict[str, Any] | None = reply["failure"]
        self.printed: str = reply["printed"]

    @property
    def lines(self) -> list[str]:
        return [text for kind, text in self.log if kind != "ask"]

    @property
    def prompts(self) -> list[str]:
        return [text for kind, text in self.log if kind == "ask"]

    def transcript(self) -> str:
        """Everything the game showed, prompts marked with '?', for a failure message; print()ed lines first."""
        log, total = self.log, len(self.log) + self.skipped
        if total > 60:  # a runaway loop: its start and its end
            log = [*log[:24], ("say", f"... {total - 30} more lines ..."), *log[-6:]]
        notes = {"ask": "? {}", "say": "{}", "not text": "{}   <- say() was given this, not a str: does the function "
                                                               "that makes the line return it?"}
        shown = "\n".join("   " + notes[kind].format(text) for kind, text in log)
        return printed_note(self.printed) + f"\n  what the game showed (? marks a prompt):\n{shown or '   (nothing)'}"


def run_scripted(played: Played, name: str, extra_question: str = "") -> None:
    """Fail the test when the scripted call ``played`` of ``name`` went wrong: a question past the script, a loop
    without end, an illegal move, input() or any other exception, with one message, where it happened and the
    transcript. (A stub's NotImplementedError and a RecursionError came back raised: the grader words them.)

    Args:
        extra_question: the usual cause of a question past the script in this test, for its message.
    """
    failure = played.failure
    if failure is None:
        return
    kind = failure["kind"]
    if kind == "input":
        pytest.fail(input_message(played.printed.rsplit("\n", 1)[-1], failure["where"]), pytrace=False)
    if kind == "out of answers":
        text = (f"{name}: the game asked {failure['prompt']!r} after the scripted answers {played.script} were all "
                f"used. The script answers every question the game should ask; "
                + (extra_question or "an extra question is often a player asked again after a bust or after "
                                     "the turn passed"))
    elif kind == "runaway":
        text = (f"{name}: the game said {failure['said']} lines without asking anything (the last one: "
                f"{failure['last']!r}): a loop that never ends. After refusing an answer, ask again inside the "
                f"loop, so that the next answer is read{failure['where']}")
    elif kind == "illegal":
        text = (f"{name} made a move the round does not allow now: IllegalActionError: {failure['message']}"
                f"{failure['where']}. A player whose turn has passed, after a stand or a bust, must not be asked "
                f"or played again: loop only while rnd.current_player is still that player")
    else:  # any other mistake: one line, where it happened, not a traceback into the engine
        text = f"{name} raised {failure['type']}: {failure['message']}{failure['where']}"
    pytest.fail(text + played.transcript(), pytrace=False)


def shows_card(text: str, code: str) -> bool:
    """True when ``text`` shows the card ``code`` as its code ("Th") or symbol ("10♥")."""
    spellings = "|".join(re.escape(s) for s in (code, symbol(code)))
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


def outcomes_text(got: object) -> str:
    """``[(0, WIN), (1, BUST)]`` for the outcomes play_round returned as ``[[seat, result], ...]``; else the repr
    the student's process sent."""
    if isinstance(got, list):
        return "[" + ", ".join(f"({seat!r}, {result})" for seat, result in got) + "]"
    return str(got)


# ---------------------------------------------------------------- showing the hands

@pytest.mark.points(1)
def test_hand_text_shows_name_cards_score_and_bust(student: Student) -> None:
    """hand_text(name, hand) is one line with the name, every card and the score, and "bust" only over 21."""
    # Ann's hand as the round's view shows it: T 6 (16); after she hits an 8: 24, bust.
    got = student("hand_texts", "Ann", [["Th 6c", 16, False], ["Th 6c 8d", 24, True]])
    line, printed = got["lines"][0], got["printed"]
    assert isinstance(line, str), \
        (f"hand_text('Ann', <hand Th 6c>) should return the line as a str (play_round says it); it returned "
         f"{got['reprs'][0]}" + printed_note(printed))
    problem = hand_line_problem(line, "Ann", "Th 6c", 16, bust=False)
    assert problem is None, (f"hand_text('Ann', <hand Th 6c>) should show Ann, Th (or 10♥), 6c (or 6♣) and the "
                             f"score 16; it returned {line!r}: {problem}" + printed_note(printed))
    line = got["lines"][1]
    problem = hand_line_problem(line, "Ann", "Th 6c 8d", 24, bust=True)
    assert problem is None, (f"hand_text('Ann', <hand Th 6c 8d>) should show Ann, the three cards, the score 24 "
                             f"and the word bust (over 21); it returned {line!r}: {problem}")


@pytest.mark.points(1)
def test_dealer_text_hides_the_hole_card_until_the_dealer_plays(student: Student) -> None:
    """dealer_text shows "Dealer" and the upcard but not the hole card during the players' turns; after the
    round every card, the score, and "bust" over 21."""
    # The dealer as the round's view shows it: T up, 6 in the hole (hidden, total 10); after the dealer's
    # play, the hole card turned and a 9 drawn: 25, bust.
    got = student("dealer_texts", [["Td ??", 10, False], ["Td 6h 9s", 25, True]])
    shown = got["lines"][0]
    assert isinstance(shown, str), \
        (f"dealer_text(<dealer Td ??>) should return the line as a str (play_round says it); it returned "
         f"{got['reprs'][0]}" + printed_note(got["printed"]))
    line = shown
    assert shows_word(line, "Dealer") and shows_card(line, "Td"), \
        f"dealer_text during Ann's turn (dealer Td up, 6h down) should show Dealer and Td; it returned {line!r}"
    assert not shows_card(line, "6h") and not shows_number(line, 16), \
        (f"dealer_text during Ann's turn gives the hole card away: it returned {line!r}, which shows the 6h or "
         f"the total 16. Until dealer.revealed, the hole card is HIDDEN (shown as ??) and only the upcard counts")
    line = got["lines"][1]
    missing = [c for c in ("Td", "6h", "9s") if not shows_card(line, c)]
    assert shows_word(line, "Dealer") and not missing and shows_number(line, 25) and "bust" in line.lower(), \
        (f"after the dealer's play (T 6, drew 9: 25) dealer_text should show Dealer, Td 6h 9s, the score 25 and "
         f"bust; it returned {line!r}" + (f" (missing {', '.join(missing)})" if missing else ""))


# ---------------------------------------------------------------- asking

@pytest.mark.points(1)
def test_ask_hit_or_stand_reads_h_s_and_asks_again_after_anything_else(student: Student) -> None:
    """h/hit give HIT and s/stand give STAND in any case; any other answer gets a line and the question again."""
    for answers, want in [(("h",), "HIT"), (("HIT",), "HIT"), ((" s ",), "STAND"),
                          (("Stand",), "STAND"), (("x", "", "h"), "HIT")]:
        table = Played(student("ask_hit_or_stand", "Ann", list(answers)), answers)
        run_scripted(table, "ask_hit_or_stand")
        got = table.returned
        assert got["action"] == want, (f"ask_hit_or_stand('Ann', ...) answered {list(answers)} should return "
                                       f"Action.{want}; it returned {got['repr']}{table.transcript()}")
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
def test_play_turn_asks_until_stand_and_never_after_a_bust(student: Student) -> None:
    """play_turn asks one player until stand (showing the hand after each hit); a player who busts is not asked."""
    # Ann T 2 (12), Bob 9 7 (16), dealer 5 up, 8 down. Ann hits 4 (16), stands. Bob hits K (26): bust.
    scripts = [["h", "s"], ["h", "h", "h"]]
    turns = student("play_turns", ["Ann", "Bob"], "Th 9h 5s 2c 7s 8h 4d Kd", scripts)
    ann = Played(turns[0], scripts[0])
    run_scripted(ann, "play_turn")
    assert len(ann.prompts) == 2 and all(shows_word(p, "Ann") for p in ann.prompts), \
        (f"Ann (T 2) answers hit, then stand: play_turn should ask her twice, naming her; it asked "
         f"{ann.prompts}{ann.transcript()}")
    assert find(ann.lines, "Ann", "Th 2c 4d", 16) is not None, \
        (f"after Ann's hit play_turn should show her hand: Ann, Th 2c 4d and the score 16{ann.transcript()}")
    turn = turns[0]["turn_after"]
    assert turn == "Bob", f"after Ann stands play_turn should return with Bob's turn next; the turn is {turn}"
    bob = Played(turns[1], scripts[1])
    run_scripted(bob, "play_turn")
    assert len(bob.prompts) == 1, \
        (f"Bob (9 7) hits a K: 26, bust. play_turn must not ask a busted player again (the course: 'you should "
         f"not ask if the user has already busted'); it asked {len(bob.prompts)} times: {bob.prompts}"
         f"{bob.transcript()}")
    assert find(bob.lines, "Bob", "9h 7s Kd", 26, bust=True) is not None, \
        f"after Bob's hit play_turn should show Bob, 9h 7s Kd, the score 26 and bust{bob.transcript()}"


@pytest.mark.points(0)
def test_result_text_words(student: Student) -> None:
    """result_text gives the name and wins / loses / pushes."""
    cases = (("WIN", "win"), ("BUST", "lose"), ("LOSE", "lose"), ("PUSH", "push"))
    got = student("result_texts", "Cy", [result for result, _word in cases])
    for (result, word), line in zip(cases, got["lines"], strict=True):
        assert shows_word(line, "Cy") and kind_of(line) == {word}, \
            (f"result_text('Cy', <outcome {result}>) should hold Cy and the word {word} (wins, loses or pushes"
             + (": a busted player loses, so write loses, not only bust" if result == "BUST" else "")
             + f"); it returned {line!r}" + printed_note(got["printed"]))


# ---------------------------------------------------------------- rounds and games

@pytest.mark.points(1)
def test_play_round_for_two_players_shows_hands_dealer_play_and_who_won(student: Student) -> None:
    """One round for Ann and Bob: both hands and the dealer's upcard, each turn, the dealer's play, who won."""
    # Ann T 6 (16) hits 4 (20), stands; Bob 9 7 (16) hits K (26), bust; dealer 9 up, 8 down: 17, stands.
    script = ["h", "s", "h"]
    table = Played(student("play_round", ["Ann", "Bob"], "Th 9h 9s 6c 7s 8h 4d Kd", script), script)
    run_scripted(table, "play_round")
    outcomes = table.returned
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
    assert outcomes == [[0, "WIN"], [1, "BUST"]], \
        (f"play_round should return game.finish_round()'s list: [(0, WIN), (1, BUST)]; it returned "
         f"{outcomes_text(outcomes)}")


@pytest.mark.points(1)
def test_play_game_for_three_players_asks_to_play_again(student: Student) -> None:
    """N players: play_game plays rounds for three players until the answer to "play again?" is no."""
    # Round 1: Ann T 9 (19) stands, Bob 5 5 hits 6 (16) stands, Cy 8 9 (17) stands; dealer T 7 (17).
    # Round 2: Ann K 8 (18), Bob K 2 (12), Cy Q J (20) stand; dealer 6 A (soft 17) stands.
    script = ["s", "h", "s", "s", "maybe", "y", "s", "s", "s", "N"]
    table = Played(student("play_game", ["Ann", "Bob", "Cy"], "Th 5d 8s Td 9c 5c 9d 7h 6h  Kc Ks Qh 6d 8c 2s Jh Ad",
                           script), script)
    run_scripted(table, "play_game",
                 extra_question="answers to play again are y, yes, n or no in any case ('N' is no: stop "
                                "and return the number of rounds), and a player is never asked after a "
                                "stand or a bust")
    rounds = table.returned
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
def test_python_m_blackjack_rules_cs111_plays_your_game_on_stdin_and_stdout(student: Student) -> None:
    """``python -m blackjack --rules cs111`` runs your play_game: typed answers in, your lines out."""
    # Ann T 6 hits 4 (20) stands; Bob 9 7 stands; dealer 9 8 (17): Ann wins, Bob loses.
    argv = ["--rules", "cs111", "--names", "Ann,Bob", "--stack", "Th,9h,9s,6c,7s,8h,4d"]
    got = student("command_line", argv, "h\ns\ns\nn\n")
    status, out, printed = got["status"], got["out"], got["printed"]
    if READS_STDIN in out:
        stopped = next(line for line in out.splitlines() if READS_STDIN in line)
        where = stopped[stopped.index(" (in "):] if " (in " in stopped else ""
        pytest.fail(input_message(printed.rsplit("\n", 1)[-1], where), pytrace=False)
    shown = printed_note(printed) + "\n  the game wrote:\n" + "\n".join("   " + line for line in out.splitlines())
    assert status == 0, f"python -m blackjack {' '.join(argv)} with the answers h s s n should end with status " \
                        f"0; it ended with {status}{shown}"
    lines = out.splitlines()
    assert find(lines, "Ann", "Th 6c 4d", 20) is not None and find(lines, "Bob", "9h 7s", 16) is not None, \
        f"the game should show Ann's hand after her hit (Th 6c 4d, 20) and Bob's (9h 7s, 16){shown}"
    results = {name: sorted(set().union(*[kind_of(line) for line in lines if shows_word(line, name)]))
               for name in ("Ann", "Bob")}
    assert results == {"Ann": ["win"], "Bob": ["lose"]}, \
        f"the game should print that Ann wins (20 v 17) and Bob loses (16 v 17); result words found: {results}{shown}"
    left = got["unread"]
    ann_results = sum(bool(kind_of(line)) and shows_word(line, "Ann") for line in lines)
    assert left == "" and ann_results == 1, \
        (f"after one round the game should ask whether to play again, read the n and stop: one result line for "
         f"Ann expected, {ann_results} found; unread input {left!r}{shown}")


# ---------------------------------------------------------------- no points: the given run()

@pytest.mark.points(0)
def test_end_of_input_and_quit_end_the_course_game_quietly(student: Student) -> None:
    """EOF on stdin or 'quit' at any prompt ends the course game with status 0, one line saying why and the
    session summary (given code), no traceback."""
    for text in ("", "h\n", "quit\n"):
        got = student("command_line", ["--rules", "cs111", "--names", "Ann", "--seed", "1"], text)
        status, out = got["status"], got["out"]
        lines = out.splitlines()
        ends = [i for i, line in enumerate(lines) if line in ("Input ended.", "Quitting.")]
        assert status == 0 and "Traceback" not in out and len(ends) == 1 \
            and lines[ends[0] + 1].startswith("Session summary:"), \
            (f"python -m blackjack --rules cs111 --names Ann with the input {text!r} should end quietly with status 0, "
             f"the line 'Input ended.' (end of input) or 'Quitting.' (quit) and then the session summary; it ended "
             f"with status {status} and wrote:\n{out}")


@pytest.mark.points(0)
def test_a_mistake_in_the_course_game_stops_it_with_one_line_naming_your_line(student: Student) -> None:
    """An exception from a course function ends ``python -m blackjack --rules cs111`` with status 1 and one
    "Stopped:" line naming the exception and the course function's line; say() given a non-str says so."""
    # play_game replaced, in the student's process, by one that applies the text "h", or one that says None
    for broken, words in (("wrong_action", ["TypeError", "apply() takes an Action", "Round.apply"]),
                          ("no_line", ["say() was given None", "return it"])):
        got = student("broken_command_line", broken, ["--rules", "cs111", "--names", "Ann", "--seed", "1"], "s\nn\n")
        status, out = got["status"], got["out"]
        last = out.rstrip().splitlines()[-1]
        missing = [w for w in words if w not in last]
        assert status == 1 and "Traceback" not in out and last.startswith("Stopped: ") and not missing, \
            (f"a play_game that {broken.replace('_', ' ')} should stop the game with status 1 and one "
             f"line 'Stopped: ...' naming {words}; status {status}, missing {missing}, the game wrote:\n{out}")


@pytest.mark.points(0)
def test_full_flag_keeps_the_full_text_game_for_cs111_rules(student: Student) -> None:
    """``--rules cs111 --full`` plays the kit's full text game (card drawings, commands), not the course game."""
    got = student("command_line", ["--rules", "cs111", "--full", "--names", "Ann", "--seed", "1", "--rounds", "1",
                                   "--plain"], "s\n")
    assert got["status"] == 0 and "Type help for commands" in got["out"], got["out"]
