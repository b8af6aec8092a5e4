"""Week 1's typical mistakes, planted one at a time in the reference, and what the check says about each.

Each case changes a few lines of the reference (a student's slip in ``create_card_array``,
``Deck.deal``, ``shuffle``, ``compare_scores`` or the course game), runs one milestone-1
test the way ``python -m milestones check`` does, and asserts that the test fails with a
message that says what is wrong and what to do in the course's words, not pytest's advice
or a bare exception. (The shuffle's own mistakes are in ``test_kit_shuffle.py``.)
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest

from milestones import REPO_ROOT
from milestones.config import suite_path
from milestones.grader.runner import Limits, run_suite
from milestones.starter import write_packages


class Mistake(NamedTuple):
    """A slip: in ``file`` replace ``old`` by ``new``; ``test`` (file::name) must fail with all of ``words``."""

    file: str
    old: str
    new: str
    test: str
    words: tuple[str, ...]


MISTAKES = {
    "faces-from-0": Mistake(
        "blackjack/cards.py", "for face in range(1, 14)]", "for face in range(13)]",
        "test_deck.py::test_create_card_array_is_ace_to_king_of_each_suit_in_course_order",
        ("made a card the Card class refuses", "range(13) counts 0 to 12", "start at 1 and end with 13")),
    "suits-in-constructor-order": Mistake(
        "blackjack/cards.py", "for suit in Suit for face in range(1, 14)]",
        "for suit in (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS) for face in range(1, 14)]",
        "test_deck.py::test_create_card_array_is_ace_to_king_of_each_suit_in_course_order",
        ("card 14 should be Ad, got Ah", "the suits came as spades, hearts, clubs, diamonds")),
    "deal-from-the-front": Mistake(
        "blackjack/deck.py", "        return self._cards.pop()\n", "        return self._cards.pop(0)\n",
        "test_deck.py::test_deal_gives_cards_top_first",
        ("should deal As, then 7d, then Kh; got Kh, 7d, As", "takes the card from the end")),
    "is-empty-returns-none": Mistake(
        "blackjack/deck.py", "False otherwise\n        return not self._cards\n",
        "False otherwise\n        if not self._cards:\n            return True\n",
        "test_deck.py::test_is_empty_only_after_the_last_card",
        ("got [None, None, True]", "return True or False on every path")),
    "deal-without-a-check": Mistake(
        "blackjack/deck.py", '        if not self._cards:\n            raise EmptyShoeError("cannot deal: the deck is empty")\n',
        "", "test_deck.py::test_deal_from_empty_deck_raises_clear_error",
        ("raised IndexError('pop from empty list')", "EmptyShoeError", "check for an empty deck first")),
    "shuffle-without-a-default-rng": Mistake(
        "blackjack/cards.py", "    rand = rng if rng is not None else random.Random()\n",
        "    rand = rng\n", "test_shuffle.py::test_shuffle_without_rng_works",
        ("with no rng raised AttributeError", "When rng is None, draw from a fresh random.Random()")),
    "dealer-bust-forgotten": Mistake(
        "blackjack/wagers.py", "    if dealer_score > 21 or score > dealer_score:", "    if score > dealer_score:",
        "test_blackjack.py::test_dealer_bust_pays_everyone_who_did_not_bust",
        ("seat 1 lose", "compare_scores(12, 25) returns lose", "If the dealer busts")),
    "player-asks-forever": Mistake(
        "blackjack/player.py", "        while rnd.current_player is self:\n            rnd.apply(decide(rnd.view()))",
        "        while True:\n            rnd.apply(decide(rnd.view()))",
        "test_blackjack.py::test_round_results_win_lose_push",
        ("decide() was called with no player's turn open", "rnd.current_player is self")),
    "input-instead-of-ask": Mistake(
        "blackjack/course_game.py", 'answer = ask("Play again? [y/n] ")', 'answer = input("Play again? [y/n] ")',
        "test_course_game.py::test_play_game_for_three_players_asks_to_play_again",
        ("your code called input('Play again? [y/n] ') (in play_game, blackjack/course_game.py:", "ask(prompt)")),
    "print-instead-of-return": Mistake(
        "blackjack/course_game.py", 'return f"{name}: {cards} ({hand.total})" + (" bust" if hand.is_bust else "")',
        'print(f"{name}: {cards} ({hand.total})" + (" bust" if hand.is_bust else ""))',
        "test_course_game.py::test_hand_text_shows_name_cards_score_and_bust",
        ("it returned None", "printed with print()", "Ann: Th 6c (16)")),
    "print-instead-of-say": Mistake(
        "blackjack/course_game.py", "        say(hand_text(seat.name, seat.hands[0]))",
        "        print(hand_text(seat.name, seat.hands[0]))",
        "test_course_game.py::test_play_round_for_two_players_shows_hands_dealer_play_and_who_won",
        ("should show Ann's hand", "your code printed with print()", "say(line)", "Ann: Th 6c (16)")),
    "print-instead-of-say-on-the-command-line": Mistake(
        "blackjack/course_game.py", "        say(hand_text(seat.name, seat.hands[0]))",
        "        print(hand_text(seat.name, seat.hands[0]))",
        "test_course_game.py::test_python_m_blackjack_rules_cs111_plays_your_game_on_stdin_and_stdout",
        ("(Th 6c 4d, 20) and Bob's (9h 7s, 16)", "your code printed with print()", "Ann: Th 6c (16)")),
    "refusal-without-asking-again": Mistake(
        "blackjack/course_game.py", '            say("Please answer y or n.")',
        '            while answer not in ("y", "yes", "n", "no"):\n                say("Please answer y or n.")',
        "test_course_game.py::test_play_game_for_three_players_asks_to_play_again",
        ("said 1000 lines without asking anything", "ask again inside the loop", "(in play_game")),
    "answers-in-lower-case-only": Mistake(
        "blackjack/course_game.py", 'answer = ask("Play again? [y/n] ").strip().lower()',
        'answer = ask("Play again? [y/n] ").strip()',
        "test_course_game.py::test_play_game_for_three_players_asks_to_play_again",
        ("after the scripted answers", "'N' is no")),
    "no-play-again": Mistake(
        "blackjack/course_game.py", "        rounds += 1\n", "        rounds += 1\n        return rounds\n",
        "test_course_game.py::test_play_game_for_three_players_asks_to_play_again",
        ("should ask whether to play again",)),
    "two-players-only": Mistake(
        "blackjack/course_game.py", "    for seat in view.seats:\n        say(hand_text(seat.name, seat.hands[0]))",
        "    for seat in view.seats[:2]:\n        say(hand_text(seat.name, seat.hands[0]))",
        "test_course_game.py::test_play_game_for_three_players_asks_to_play_again",
        ("N players", "never shown: Cy 8s 9d (17), Cy Qh Jh (20)")),
    "bust-is-not-a-result-word": Mistake(
        "blackjack/course_game.py", 'word = {"win": "wins", "loss": "loses", "push": "pushes"}[outcome.result.kind]',
        'word = outcome.result.value',
        "test_course_game.py::test_result_text_words",
        ("result_text('Cy', <outcome BUST>)", "a busted player loses", "it returned 'Cy bust'")),
    "no-results": Mistake(
        "blackjack/course_game.py", "        say(result_text(game.players[seat_index].name, outcome))\n",
        "        pass\n",
        "test_course_game.py::test_play_round_for_two_players_shows_hands_dealer_play_and_who_won",
        ("No line after it says who won", "game.finish_round()", "result_text(name, outcome)")),
    "no-dealer-play": Mistake(
        "blackjack/course_game.py", "    say(dealer_text(rnd.view().dealer))\n", "",
        "test_course_game.py::test_play_round_for_two_players_shows_hands_dealer_play_and_who_won",
        ("should show the dealer's play", "the lines naming the dealer were ['Dealer: 9s ??']")),
    "bust-is-not-a-result-word-in-a-round": Mistake(
        "blackjack/course_game.py", 'word = {"win": "wins", "loss": "loses", "push": "pushes"}[outcome.result.kind]',
        'word = outcome.result.value',
        "test_course_game.py::test_play_round_for_two_players_shows_hands_dealer_play_and_who_won",
        ("The line 'Bob bust' has none of win, lose or push", "'Bob loses'")),
}


def planted_result(tmp_path: Path, mistake: Mistake) -> tuple[str, str]:
    """Copy the reference to ``tmp_path`` with ``mistake`` in it and run its one test as the check does."""
    write_packages(tmp_path, lambda region: False, REPO_ROOT)
    path = tmp_path / mistake.file
    source = path.read_text(encoding="utf-8")
    assert source.count(mistake.old) == 1, f"{mistake.old!r} should occur once in {mistake.file}"
    path.write_text(source.replace(mistake.old, mistake.new), encoding="utf-8")
    nodeid = f"{suite_path(1)}/{mistake.test}"
    run = run_suite(REPO_ROOT / suite_path(1), tmp_path, limits=Limits(timeout=60), select=[nodeid])
    return run.results.get(nodeid, ("not run", ""))


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_a_week1_mistake_gets_a_message_that_says_what_to_do(tmp_path: Path, name: str) -> None:
    """The planted mistake fails its test, and the check's message holds the words that explain it."""
    outcome, message = planted_result(tmp_path, MISTAKES[name])
    assert outcome == "failed", f"{name}: {MISTAKES[name].test} {outcome}: {message}"
    missing = [words for words in MISTAKES[name].words if words not in message]
    assert not missing, f"{name}: {missing} not in the message:\n{message}"
    assert "Consider using `-s`" not in message and "Traceback" not in message, message
    if "your code printed with print()" in MISTAKES[name].words:  # check shows a message's first lines only
        assert "your code printed with print()" in "\n".join(message.splitlines()[:2]), message


def test_an_unwritten_course_function_is_still_not_written_yet(tmp_path: Path) -> None:
    """The course-game tests turn a mistake into one message but leave a stub's NotImplementedError to the grader,
    which says "not written yet: <what to do>"."""
    write_packages(tmp_path, lambda region: region.milestone >= 1, REPO_ROOT)
    nodeid = f"{suite_path(1)}/test_course_game.py::test_ask_hit_or_stand_reads_h_s_and_asks_again_after_anything_else"
    run = run_suite(REPO_ROOT / suite_path(1), tmp_path, limits=Limits(timeout=60), select=[nodeid])
    outcome, message = run.results.get(nodeid, ("not run", ""))
    assert outcome == "failed" and message.startswith("not written yet: ask (the prompt names the player)"), message
