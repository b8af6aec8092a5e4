"""Every number a person types goes through the kit's one reader (issue 33, item 4).

A bet, an insurance stake, the number of players, a drill's running count and the Tk dialogs'
numbers are read by ``blackjack.typed_numbers``; anything it refuses (too long, another
script's digits, an exponent where money is asked) is answered with a one-line reason and asked
again: no typed line ends the game.
"""

from __future__ import annotations

import io

import pytest

from blackjack import IllegalActionError
from blackjack.__main__ import main
from blackjack.hints.drill import CountingDrill
from blackjack.typed_numbers import parse_whole

#: What a person may type that is no number for the kit: a line of 4,000 zeros, a number too large for any
#: range, full-width and Arabic-Indic digits, and 10,000 characters.
NOT_NUMBERS = ["0" * 4000, "1e999", "１０", "١٠", "7" * 10_000]


def play(args: list[str], keys: str) -> tuple[int, str]:
    """Run the text game in-process with ``keys`` typed; return (exit status, transcript)."""
    out = io.StringIO()
    return main(args, stdin=io.StringIO(keys), stdout=out), out.getvalue()


@pytest.mark.parametrize("typed", NOT_NUMBERS, ids=["4000 zeros", "1e999", "full-width 10", "arabic-indic 10",
                                                    "10000 characters"])
def test_a_bet_that_is_no_number_is_asked_again(typed: str) -> None:
    status, text = play(["--names", "Ann", "--stack", "Th,9c,5d,8s", "--rounds", "1", "--plain"], f"{typed}\n10\ns\n")
    assert status == 0, text[-600:]
    assert text.count("Ann, your bet") == 2, text[-600:]
    assert "a bet must" in text and "Stopped" not in text and "Traceback" not in text
    assert "bet 10" in text
    assert max(len(line) for line in text.splitlines() if not line.startswith("Ann, your bet")) < 200


@pytest.mark.parametrize("typed", NOT_NUMBERS, ids=["4000 zeros", "1e999", "full-width 10", "arabic-indic 10",
                                                    "10000 characters"])
def test_an_insurance_stake_that_is_no_number_is_asked_again(typed: str) -> None:
    status, text = play(["--names", "Ann", "--stack", "Th,Ac,7d,8s", "--rounds", "1", "--plain"],
                        f"10\ni {typed}\ni 2\ns\n")
    assert status == 0, text[-600:]
    assert text.count("insurance (up to 5") == 2, text[-600:]
    assert "Stopped" not in text and "Traceback" not in text


@pytest.mark.parametrize("typed", NOT_NUMBERS + ["0", "8"], ids=["4000 zeros", "1e999", "full-width 1",
                                                               "arabic-indic 1", "10000 characters", "0", "8"])
def test_the_number_of_players_is_asked_again(typed: str) -> None:
    typed = {"１０": "１", "١٠": "١"}.get(typed, typed)
    status, text = play(["--seed", "1", "--rounds", "1", "--plain"], f"{typed}\n2\n\n\n10\n10\ns\ns\n")
    assert status == 0, text[-600:]
    assert text.count("How many players") == 2 and "Please type a number from 1 to 7." in text, text[:600]
    assert "Player 2, your bet" in text


@pytest.mark.parametrize("typed", NOT_NUMBERS + ["2.5"])
def test_a_drill_answer_that_is_no_whole_number_scores_nothing(typed: str) -> None:
    drill = CountingDrill(seed=1)
    drill.next_cards()
    with pytest.raises(IllegalActionError) as info:
        drill.answer(typed)
    assert "\n" not in str(info.value) and len(str(info.value)) < 200
    assert drill.results == []
    drill.answer(str(drill.expected))
    assert drill.results[-1].correct


@pytest.mark.parametrize("typed, value", [("12", 12), ("+3", 3), ("-2", -2), ("1_000", 1000), ("10.0", 10)])
def test_parse_whole_reads_whole_numbers(typed: str, value: int) -> None:
    assert parse_whole(typed) == value and type(parse_whole(typed)) is int


@pytest.mark.parametrize("typed", NOT_NUMBERS + ["2.5", "1e3", "", "three"])
def test_parse_whole_refuses_in_one_line(typed: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_whole(typed)
    assert "\n" not in str(info.value) and len(str(info.value)) < 120


def test_parse_whole_checks_its_range() -> None:
    assert parse_whole("3", least=1, most=3) == 3
    for typed in ("0", "4"):
        with pytest.raises(ValueError, match="at least 1 and at most 3"):
            parse_whole(typed, least=1, most=3)
