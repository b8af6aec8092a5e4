"""End-to-end tests of the terminal game, driven through stdin as a teacher's script would."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from blackjack.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


def play(args: list[str], keys: str) -> tuple[int, str]:
    """Run the game in-process with ``keys`` as the typed input; return (exit status, transcript)."""
    out = io.StringIO()
    status = main(args, stdin=io.StringIO(keys), stdout=out)
    return status, out.getvalue()


def test_hit_then_stand_wins_against_dealer_17() -> None:
    """Ann has T-5, hits a 3 for 18, stands; the dealer's 9-8 stands on 17: Ann wins her 10."""
    status, text = play(["--names", "Ann", "--stack", "Th,9c,5d,8s,3c", "--rounds", "1", "--plain"], "10\nh\ns\n")
    assert status == 0
    assert "Ann draws 3♣: 18." in text
    assert "Dealer stands on 17." in text
    assert "10♥ 5♦ 3♣ = 18  bet 10  WIN +10" in text
    assert "bankroll 1010 (+10)" in text


def test_hole_card_hidden_until_dealer_plays() -> None:
    """The dealer's hole card shows as ?? while Ann decides, and is named only when turned over."""
    _, text = play(["--names", "Ann", "--stack", "Th,9c,5d,8s", "--rounds", "1", "--plain"], "10\ns\n")
    before, after = text.split("Dealer turns over the hole card")
    assert "Dealer: 9♣ ?? = 9 showing" in before
    assert "8♠" not in before
    assert after.startswith(": 8♠.")


def test_soft_total_is_shown_both_ways() -> None:
    """A-6 is shown as 7 / 17, as justBlackjack shows soft totals."""
    _, text = play(["--names", "Ann", "--stack", "Ah,9c,6d,8s", "--rounds", "1", "--plain"], "10\ns\n")
    assert "A♥ 6♦ = 7 / 17" in text


def test_wrong_key_and_empty_line_ask_again() -> None:
    """A wrong key and an empty line each get a one-line message and the same question again."""
    _, text = play(["--names", "Ann", "--stack", "Th,9c,5d,8s", "--rounds", "1", "--plain"], "10\nx\n\ns\n")
    assert "Unknown move 'x'" in text
    assert "Please type a move" in text
    assert text.count("Ann (15): [h]it [s]tand [d]ouble su[r]render:") == 3
    assert "Traceback" not in text


@pytest.mark.parametrize("bad", ["ten", "0", "-5", "1e9", "2.5", "5000"])
def test_bad_bet_is_refused_and_asked_again(bad: str) -> None:
    """A malformed or out-of-range bet gets a one-line message; the next good bet is taken."""
    _, text = play(["--names", "Ann", "--stack", "Th,9c,5d,8s", "--rounds", "1", "--plain"], f"{bad}\n10\ns\n")
    assert text.count("Ann, your bet") == 2
    assert "bet 10" in text
    assert "Traceback" not in text


def test_enter_repeats_the_last_bet() -> None:
    """In the second round an empty bet line repeats the 25 of the first round."""
    _, text = play(["--names", "Ann", "--seed", "5", "--rounds", "2", "--plain"], "25\ns\n\ns\n")
    assert "Enter = 25" in text
    assert text.count("bet 25") >= 2


def test_end_of_input_mid_round_settles_and_exits_zero() -> None:
    """EOF while a decision is pending stands the open hands, prints the summary and exits 0."""
    status, text = play(["--names", "Ann", "--stack", "Th,9c,5d,8s"], "10\n")
    assert status == 0
    assert "Input ended." in text
    assert "finished by standing" in text
    assert "Session summary:" in text
    assert "  Ann: 1 round; hands won 0, lost 1, pushed 0; bankroll 990 (-10); biggest win 0\n" in text


def test_quit_command_ends_with_summary() -> None:
    """Typing quit at a prompt ends the game with the session summary."""
    status, text = play(["--names", "Ann", "--seed", "1"], "quit\n")
    assert status == 0
    assert "Quitting." in text and "Session summary:" in text


def test_players_and_names_are_asked_when_not_given() -> None:
    """Without --players and --names the game asks for both; a repeated name is refused."""
    _, text = play(["--seed", "2", "--rounds", "1", "--rules", "cs111", "--full", "--plain"],
                   "9\n2\nAnn\nAnn\nBob\ns\ns\n")
    assert "Please type a number from 1 to 7." in text
    assert "Ann is already at the table" in text
    assert "Ann:" in text and "Bob:" in text


def test_cs111_rules_play_for_no_money() -> None:
    """The cs111 preset asks no bets and shows no money: Ann's 19 beats the dealer's 17, Bob's 13 loses."""
    _, text = play(["--names", "Ann,Bob", "--stack", "Th,5c,9c,9d,8s,8d", "--rounds", "1", "--rules", "cs111", "--full",
                    "--plain"], "s\ns\n")
    assert "bet" not in text.lower()
    assert "bankroll" not in text
    assert "10♥ 9♦ = 19  WIN" in text
    assert "5♣ 8♠ = 13  LOSE" in text
    assert "  Ann: 1 round; hands won 1, lost 0, pushed 0\n" in text


def test_split_shows_every_hand() -> None:
    """After splitting 8s both hands are shown and played left to right."""
    _, text = play(["--names", "Ann", "--stack", "8h,6c,8d,Ts,2c,9h", "--rounds", "1", "--plain"], "10\np\ns\ns\n")
    assert "hand 1: 8♥ 2♣ = 10" in text
    assert "hand 2: 8♦ 9♥ = 17" in text


def test_insurance_is_offered_against_an_ace() -> None:
    """With an ace up the game asks about insurance first; declining goes on to the hand."""
    _, text = play(["--names", "Ann", "--stack", "Th,Ac,7d,8s", "--rounds", "1", "--plain"], "10\nn\ns\n")
    assert "Dealer shows an ace. Ann, insurance (up to 5; 'i 2' for less)? [i]nsurance [n]o:" in text
    assert "Dealer checks for blackjack... no blackjack." in text


def test_broke_player_sits_out() -> None:
    """A player whose bankroll falls below the table minimum sits out with a message."""
    _, text = play(["--names", "Ann", "--bankroll", "10", "--stack", "Th,9c,5d,8s", "--rounds", "2"], "10\ns\n")
    assert "Bankrolls: Ann 0" in text
    assert "Ann cannot cover the table minimum of 1 and sits out." in text
    assert "Nobody can cover the table minimum" in text


def test_same_seed_and_keys_replay_the_same_game() -> None:
    """Two runs with one seed and one script print the same transcript."""
    args = ["--names", "Ann,Bob", "--seed", "11", "--rounds", "3"]
    keys = "5\n5\ns\ns\n\n\ns\ns\n\n\ns\ns\n"
    assert play(args, keys) == play(args, keys)


@pytest.mark.parametrize("args, message", [
    (["--rules", "vegs"], "unknown preset: 'vegs'; choose from: cs111, cs111_money, vegas"),
    (["--stack", "Zx"], "unknown card code: 'Zx'"),
    (["--players", "9"], "--players must be 1..7"),
    (["--decks", "0"], "decks must be 1..8"),
    (["--bankroll", "lots"], "--bankroll: a bankroll must be a number of credits"),
    (["--rounds", "x"], "invalid int value"),
])
def test_bad_option_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    """A bad flag prints one line naming the problem, no traceback, and exits with status 2."""
    result = subprocess.run([sys.executable, "-m", "blackjack", *args], input="", capture_output=True,
                            text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_piped_game_through_python_m_blackjack() -> None:
    """The real command plays a scripted game from a pipe and exits 0 at end of input."""
    result = subprocess.run([sys.executable, "-m", "blackjack", "--names", "Ann", "--stack", "Th,9c,5d,8s,3c"],
                            input="10\nh\ns\nn\n", capture_output=True, text=True, cwd=ROOT, timeout=60,
                            env={"PYTHONIOENCODING": "utf-8", "PATH": ""})
    assert result.returncode == 0, result.stderr
    assert "WIN +10" in result.stdout
    assert "Session summary:" in result.stdout
    assert result.stderr == ""


def test_hint_command_recommends_from_exact_evs() -> None:
    """'?' on 16 against a 9 (vegas, late surrender) recommends surrender, with EVs and the bust chance."""
    _, text = play(["--names", "Ann", "--stack", "Th,9c,6d,8s", "--rounds", "1", "--plain"], "10\n?\ns\n")
    assert "Hint: surrender." in text
    assert "EV per unit bet: surrender -0.500" in text
    assert "Chance to bust if you hit:" in text


def test_count_command_counts_the_cards_seen() -> None:
    """Seen: 5 and 6 (+1 each) and the 9 upcard (0); the hole card is unseen: Hi-Lo running count +2."""
    _, text = play(["--names", "Ann", "--stack", "5h,9c,6d,8s", "--rounds", "1", "--plain"], "10\ncount\ns\n")
    assert "Hi-Lo running count +2, 309 cards unseen" in text


def test_count_command_gives_the_insurance_index_against_an_ace() -> None:
    """Hi-Lo against an ace: seen 9 and 7 (0 each) and the ace (-1); true count -0.2 is below +3: decline."""
    _, text = play(["--names", "Ann", "--stack", "9h,As,7d,8s", "--rounds", "1", "--plain"], "10\ncount\nn\ns\n")
    assert "Hi-Lo running count -1, 309 cards unseen, true count -0.2; suggested bet 1; insurance: decline" in text


def test_count_command_without_an_insurance_index_against_an_ace() -> None:
    """Zen has no insurance index in the kit: against an ace 'count' gives the count (9: 0, 7: +1, ace: -1)
    and no insurance advice, instead of failing."""
    status, text = play(["--names", "Ann", "--counting", "zen", "--stack", "9h,As,7d,8s", "--rounds", "1", "--plain"],
                        "10\ncount\nn\ns\n")
    assert status == 0
    assert "Zen Count running count +0, 309 cards unseen, true count +0.0; suggested bet 1\n" in text


def test_chart_command_prints_the_derived_chart() -> None:
    """'chart' prints the basic-strategy table with hard, soft and pair rows."""
    _, text = play(["--names", "Ann", "--stack", "Th,9c,6d,8s", "--rounds", "1", "--plain"], "10\nchart\ns\n")
    assert "Hard" in text and "Soft" in text and "Pairs" in text
    assert "  16      S   S   S   S   S   H   H  Rh  Rh  Rh" in text


def test_first_time_tips_show_once() -> None:
    """The stiff-hand tip appears at the first stiff hand and not again in the next round."""
    _, text = play(["--names", "Ann", "--stack", "Th,9c,6d,8s,Tc,9h,6s,8c", "--rounds", "2", "--plain"],
                   "10\ns\n\ns\n")
    assert text.count("Tip - A stiff hand") == 1


def test_trainer_mode_judges_a_departure_from_the_hint() -> None:
    """With --hints, standing on 16 against a 9 is flagged with its cost in EV."""
    _, text = play(["--names", "Ann", "--stack", "Th,9c,6d,8s", "--rounds", "1", "--plain", "--hints"], "10\ns\n")
    assert "Coach: the recommended move was surrender, not stand (costs 0.043 of the bet in EV)." in text


def test_counting_drill_scores_answers() -> None:
    """The drill shows cards, says right or wrong with the true count, and ends with a score."""
    out = io.StringIO()
    status = main(["--drill", "--seed", "3"], stdin=io.StringIO("1\nx\n2\n"), stdout=out)
    text = out.getvalue()
    assert status == 0
    assert "Wrong: you said +1, the count is +2." in text
    assert "the running count is a whole number" in text
    assert "Right: +2." in text
    assert "Hi-Lo drill: 1 of 2 right (50%)" in text


def test_insurance_for_less_than_half_the_bet() -> None:
    """'i 2' insures 2 credits; against the dealer's natural it wins 4 while the hand loses 10."""
    _, text = play(["--names", "Ann", "--stack", "Th,Ac,7d,Ks", "--rounds", "1", "--plain"], "10\ni 2\n")
    assert "Ann's insurance wins 4." in text
    assert "bankroll 994 (-6)" in text


def test_insurance_over_half_the_bet_is_refused() -> None:
    """Insuring 6 on a bet of 10 is refused with a message and asked again."""
    _, text = play(["--names", "Ann", "--stack", "Th,Ac,7d,8s", "--rounds", "1", "--plain"], "10\ni 6\nn\ns\n")
    assert "insurance must be more than 0 and at most 5" in text


def test_count_command_gives_ko_insurance_by_the_running_count() -> None:
    """KO (unbalanced) insures at running count +3: seen 2 3 4 5 6 2 (+1 each) and the ace (-1) on one deck
    (initial running count 0) make +5, so take it; KO gives no true count."""
    status, text = play(["--names", "Ann,Bob,Cy", "--counting", "ko", "--decks", "1", "--rounds", "1", "--plain",
                         "--stack", "2h,3h,4h,As,5h,6h,2d,Kc"], "10\n10\n10\ncount\nn\nn\nn\n")
    assert status == 0
    assert "Knock-Out (KO) running count +5, 45 cards unseen; insurance: take it" in text


def test_count_command_ko_declines_insurance_below_its_index() -> None:
    """Six decks start KO at running count -20 (4 - 4 x 6): after 9, 7 and the ace it is still -20: decline."""
    _, text = play(["--names", "Ann", "--counting", "ko", "--stack", "9h,As,7d,8s", "--rounds", "1", "--plain"],
                   "10\ncount\nn\ns\n")
    assert "Knock-Out (KO) running count -20, 309 cards unseen; insurance: decline" in text


class _Starter:
    """A stand-in for a student's starter code: the course function is still a stub."""

    def get_score(self) -> int:
        raise NotImplementedError("add up get_value() of every card")


def test_unwritten_starter_code_stops_the_game_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stub (NotImplementedError) ends the game with exit status 1 and one line naming the function."""
    from blackjack.hand import Hand
    monkeypatch.setattr(Hand, "get_score", _Starter.get_score)
    status, text = play(["--names", "Ann", "--rules", "cs111", "--full", "--rounds", "1", "--plain"], "\n")
    assert status == 1
    line = next(line for line in text.splitlines() if line.startswith("Stopped:"))
    assert line.startswith("Stopped: _Starter.get_score() is not written yet: add up get_value() of every card "
                           "(test_text_game.py:")
    assert text.rstrip().endswith(line)
    assert "Traceback" not in text
    status, text = play(["--names", "Ann", "--rounds", "1", "--plain"], "10\n")
    assert status == 1 and text.rstrip().endswith("python -m blackjack --rules cs111)")


def test_count_command_gives_no_insurance_advice_where_there_is_no_insurance() -> None:
    """Thunderjack offers no insurance, so 'count' against an ace says nothing about it."""
    _, text = play(["--names", "Ann", "--rules", "thunderjack", "--stack", "9h,As,7d,8s", "--rounds", "1", "--plain"],
                   "10\ncount\ns\n")
    assert "Hi-Lo running count -1, 205 cards unseen, true count -0.3; suggested bet 1\n" in text


class _CtrlC(io.StringIO):
    """Input where the user presses Ctrl-C at the first prompt."""

    def readline(self, size: int | None = -1) -> str:
        raise KeyboardInterrupt


@pytest.mark.parametrize("args", [[], ["--drill"], ["--names", "Ann", "--rounds", "1"]],
                         ids=["names-prompt", "drill", "bet-prompt"])
def test_ctrl_c_at_any_prompt_says_interrupted(args: list[str]) -> None:
    """Ctrl-C while setting up, in the drill or in the game ends with one line and status 130, no traceback."""
    out = io.StringIO()
    assert main(args, stdin=_CtrlC(), stdout=out) == 130
    assert out.getvalue().rstrip().endswith("Interrupted.")


def test_bad_name_at_the_prompt_is_asked_again() -> None:
    """A name too long for a seat gets a one-line reason and the question again; the game then starts."""
    status, text = play([], "1\n" + "x" * 500 + "\nAnn\nq\n")
    assert status == 0
    assert "That name will not do: a player's name may have at most 20 characters, got 500." in text
    assert text.count("Name of player 1") == 2 and "Ann, your bet" in text


def test_bad_name_in_options_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """--names with a name over 20 characters exits 2 with argparse's one-line message."""
    with pytest.raises(SystemExit) as done:
        main(["--names", "Ann," + "x" * 30], stdin=io.StringIO(""), stdout=io.StringIO())
    assert done.value.code == 2
    assert "at most 20 characters, got 30" in capsys.readouterr().err


def test_each_decision_is_prepared_for_the_hint_and_the_worker_ends_with_the_session(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The game starts the exact EVs of every decision as it appears, so '?' answers them at once (hints.ahead);
    the coach's background thread is closed when the session ends."""
    from blackjack.coach import Coach
    prepared: list[tuple[str, ...]] = []
    closed: list[bool] = []
    original_prepare, original_close = Coach.prepare, Coach.close

    def prepare(self: Coach, view):  # type: ignore[no-untyped-def]
        prepared.append(tuple(str(card) for card in view.current_hand.cards))
        original_prepare(self, view)

    def close(self: Coach) -> None:
        closed.append(True)
        original_close(self)

    monkeypatch.setattr(Coach, "prepare", prepare)
    monkeypatch.setattr(Coach, "close", close)
    status, text = play(["--names", "Ann", "--stack", "Th,9c,5d,8s,3c", "--rounds", "1", "--plain"], "10\nh\n?\ns\n")
    assert status == 0 and "Hint: stand." in text
    assert prepared[0] == ("Th", "5d") and ("Th", "5d", "3c") in prepared
    assert closed == [True]


def test_trainer_hint_and_verdict_agree_and_replay() -> None:
    """Single deck, 2-2 against a 3: the exact EVs split (the approximate ones hit). The trainer's hint, shown
    before the prompt, waits for the exact EVs, so the coach's verdict agrees with it and the transcript is the
    same every time, however fast the input comes."""
    args = ["--names", "A", "--rules", "single_deck", "--seed", "5", "--stack", "2h,3c,2d,9s", "--rounds", "1",
            "--plain", "--no-tips", "--hints"]
    _, text = play(args, "10\nh\ns\n")
    assert "Hint: split." in text and "EVs approximate" not in text
    assert "Coach: the recommended move was split, not hit" in text
    assert play(args, "10\nh\ns\n")[1] == text
