"""Defects a reviewer found by playing the text game, each pinned by a test."""

from __future__ import annotations

import pytest

from blackjack import Rules, RulesError
from blackjack.player import Dealer
from test_text_game import play


@pytest.mark.parametrize("typed", ["²", "①", "+-5", "--5"])
def test_number_look_alikes_at_the_bet_prompt_are_asked_again(typed: str) -> None:
    """Superscripts, circled digits and doubled signs are not bets: one line, then the prompt again."""
    status, text = play(["--names", "Ann", "--seed", "3", "--rounds", "1", "--plain"], f"{typed}\n10\ns\n")
    assert status == 0 and "Traceback" not in text
    assert f"a bet must be a whole number of credits, got {typed!r}" in text
    assert text.count("Ann, your bet") == 2


def test_number_look_alike_at_the_players_prompt_is_asked_again() -> None:
    """'²' players is not a number: the question comes again, the game does not stop."""
    status, text = play(["--rounds", "1", "--plain"], "²\n1\nAnn\n10\ns\n")
    assert status == 0
    assert text.count("How many players") == 2 and "Ann, your bet" in text


def test_no_declines_insurance() -> None:
    """'no' answers the insurance offer, as the help says."""
    status, text = play(["--names", "Ann", "--stack", "9h,As,9d,7d", "--rounds", "1", "--plain"], "10\nno\ns\n")
    assert status == 0
    assert "Unknown move" not in text and "no blackjack" in text


def test_player_natural_needs_no_dealer_play() -> None:
    """A natural is paid without the dealer drawing: the dealer's 16 is not said to 'stand'."""
    status, text = play(["--names", "Ann", "--stack", "As,9h,Kd,7c", "--rounds", "1", "--plain"], "10\n")
    assert status == 0
    assert "Dealer stands on 16" not in text
    assert "Dealer has 16; no hand is left for the dealer to play against." in text


def test_dealer_natural_is_named() -> None:
    """A dealer natural found by the peek ends with 'Dealer has blackjack', not 'stands on 21'."""
    status, text = play(["--names", "Ann", "--stack", "Th,As,8d,Kc", "--rounds", "1", "--plain"], "10\nn\n")
    assert status == 0
    assert "Dealer stands on 21" not in text and "Dealer has blackjack." in text


def test_insurance_without_credits_is_not_offered_an_amount() -> None:
    """With the whole bankroll bet, the offer says there is nothing left to stake, not 'up to 0'."""
    status, text = play(["--names", "Ann", "--bankroll", "10", "--stack", "9h,As,9d,7d", "--rounds", "1",
                         "--plain"], "10\nn\ns\n")
    assert status == 0
    assert "up to 0" not in text and "Ann has no credits left for insurance." in text


def test_insurance_and_decline_out_of_turn_say_what_is_wrong() -> None:
    """'i' after the offer and 'n' with no offer get messages in plain English."""
    status, text = play(["--names", "Ann", "--stack", "9h,7s,9d,Kd", "--rounds", "1", "--plain"], "10\ni\nn\ns\n")
    assert status == 0
    assert "cannot insurance" not in text
    assert "cannot take insurance: the dealer's upcard is not an ace" in text
    assert "nothing to decline: no insurance or early surrender offer is open" in text


def test_unknown_move_quotes_at_most_forty_characters() -> None:
    """A 100,000-character answer is not echoed back whole in the message."""
    status, text = play(["--names", "Ann", "--seed", "3", "--rounds", "1", "--plain"], "10\n" + "x" * 100_000 + "\ns\n")
    assert status == 0
    message = next(line for line in text.splitlines() if line.startswith("Unknown move"))
    assert len(message) < 200


def test_fractional_table_limits_are_refused() -> None:
    """Bets are whole credits, so a table minimum of 2.5 could never be bet: the rules refuse it."""
    with pytest.raises(RulesError, match="min_bet must be a whole number of credits, got 2.5"):
        Rules.from_mapping({"min_bet": "2.5"})


def test_ko_drill_says_where_the_count_starts() -> None:
    """Knock-Out starts below zero; the drill says so before the first cards."""
    status, text = play(["--drill", "--counting", "ko", "--seed", "1"], "q\n")
    assert status == 0 and "starting from -4" in text


def test_a_dealer_that_never_adds_its_cards_stops_the_game_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Course code whose dealer draws without keeping the cards empties the shoe: one line, status 1."""
    def broken(self: Dealer, draw: object, rules: Rules) -> None:
        while self.should_hit(rules):
            draw()  # type: ignore[operator]  # the card is dropped, as in the student's bug

    monkeypatch.setattr(Dealer, "play_round", broken)
    status, text = play(["--names", "Ann", "--rules", "cs111", "--full", "--seed", "1", "--rounds", "1", "--plain"], "s\n")
    assert status == 1 and "Traceback" not in text
    assert text.rstrip().splitlines()[-1].startswith("Stopped: cannot deal")


def test_a_hint_command_on_unwritten_code_keeps_the_game_going(monkeypatch: pytest.MonkeyPatch) -> None:
    """In a week-1 starter '?' needs week-2 code: one line says so and the hand goes on."""
    import blackjack.coach

    def unwritten(self: object, word: str, view: object) -> str:
        raise NotImplementedError("add the tags of the seen cards")

    monkeypatch.setattr(blackjack.coach.Coach, "command", unwritten)
    status, text = play(["--names", "Ann", "--rules", "cs111", "--full", "--seed", "3", "--rounds", "1", "--plain"], "?\ns\n")
    assert status == 0
    assert "? needs code that is not written yet: " in text and "is not written yet: add the tags" in text
    assert "Session summary" in text


def test_a_refused_move_names_no_card_codes() -> None:
    """A refusal says "this hand", not the hand in card codes ("hand 8h 9d is not a pair") beside a table drawn
    in suit symbols; the double refused on three cards likewise."""
    status, text = play(["--names", "Ann", "--stack", "8h,7s,9d,6c,2c", "--rounds", "1"], "10\np\nh\nd\ns\n")
    assert status == 0
    assert "cannot split: this hand is not a pair (two cards of equal rank)" in text
    assert "cannot double: this hand has 3 cards; only a two-card hand may double" in text
    assert "8h" not in text and "9d" not in text
