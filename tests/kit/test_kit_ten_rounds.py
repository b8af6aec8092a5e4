"""The diary's "Ten rounds" table: ``python -m milestones tenrounds`` plays ten rounds of the student's own course game
with money, typed or from a script, and writes each round of that session, each player's ten rounds and two bots'
(issue 25 item 2, issue 36 item 2: the course's "see how much you win/lose over 10 rounds")."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from pathlib import Path

import pytest
from make_samples import replace_body

from milestones import REPO_ROOT
from milestones.check import TEN_ROUNDS_HEADING, TEN_ROUNDS_HEADER, append_ten_rounds, log_ten_rounds
from milestones.starter import write_packages
from milestones.ten_rounds import PLAYERS, TenRounds, play_ten_rounds

ROWS = [["1", "You", "20", "stand", "win", "+20"], ["1-10", "You", "", "", "5 won, 4 lost, 1 pushed", "+10"]]


def scripted(answers: list[str]) -> tuple[list[str], list[str]]:
    """An ask that answers from ``answers`` (EOFError after them), and the list of the prompts it was asked."""
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        if not answers:
            raise EOFError
        return answers.pop(0)
    return prompts, ask  # type: ignore[return-value]


def player(prompts: list[str], answers: list[str]) -> object:
    """A student at the keyboard: bets 20 the first time and 10 after, declines insurance, stands; every prompt
    and answer recorded."""
    def ask(prompt: str) -> str:
        prompts.append(prompt)
        answer = ("20" if not answers else "10") if "bet" in prompt else "n" if "insurance" in prompt else "s"
        answers.append(answer)
        return answer
    return ask


def test_the_diarys_ten_rounds_come_from_the_students_own_session() -> None:
    """On the kit's own code, played as a student would: every round asks for a bet, the student's answers play
    the rounds (a bet of 20, then 10, standing), and the rows are that session's: each round's bet, moves, result
    and net, the ten nets adding up to the student's total (and to the student's own summary), then the two bots'
    rows for comparison."""
    prompts: list[str] = []
    said: list[str] = []
    ten = play_ten_rounds(REPO_ROOT, player(prompts, []), said.append, names=["Ann"])  # type: ignore[arg-type]
    assert ten.problem == "" and ten.lines[0] == "Session summary: 10 rounds played.", said
    bets = [prompt for prompt in prompts if "bet" in prompt]
    assert len(bets) == 10 and all(prompt.startswith("Ann") for prompt in bets)
    rounds, (total, mimic, cautious) = ten.rows[:-3], ten.rows[-3:]
    assert [row[:3] for row in rounds] == [[str(n), "Ann", "20" if n == 1 else "10"] for n in range(1, 11)]
    assert all(row[3] in ("stand", "decline stand", "") and row[4] for row in rounds)
    assert sum(Fraction(row[5]) for row in rounds) == Fraction(total[5]) and total[:2] == ["1-10", "Ann"]
    assert total[5] in ten.lines[-1]  # the student's own summary says the same net
    assert [row[1].split(" ")[0] for row in (mimic, cautious)] == [name for name, _ in PLAYERS]
    assert any("Ann" in line and "Session" not in line for line in said)  # the game was shown as it was played


def test_answers_that_run_out_and_a_quit_say_so_and_write_nothing(tmp_path: Path) -> None:
    """A script that ends before the ten rounds, or a quit, gives no rows and one line saying why."""
    _prompts, ask = scripted(["20", "s"])
    ten = play_ten_rounds(REPO_ROOT, ask, lambda line: None)  # type: ignore[arg-type]
    assert ten.rows == [] and ten.problem == "the answers ended after 2, before the ten rounds did"
    _prompts, ask = scripted(["20", "s", "quit"])
    ten = play_ten_rounds(REPO_ROOT, ask, lambda line: None)  # type: ignore[arg-type]
    assert ten.rows == [] and ten.problem == "the game ended after 1 rounds, not 10"


def test_a_mistake_in_the_wagering_code_is_one_line(tmp_path: Path) -> None:
    """A take_stake that raises: the game stops, and the problem is its Stopped: line naming the student's line."""
    write_packages(tmp_path, lambda region: False)
    replace_body(tmp_path, "blackjack/wagers.py", "take_stake", ["raise KeyError('oops')"])
    _prompts, ask = scripted(["20"])
    ten = play_ten_rounds(tmp_path, ask, lambda line: None)  # type: ignore[arg-type]
    assert ten.rows == [] and ten.problem.startswith("Stopped: KeyError: 'oops'") and "blackjack/wagers.py" in ten.problem


def test_a_game_that_never_ends_is_stopped(tmp_path: Path) -> None:
    """A play_money_round that loops forever is stopped after the time limit, in one line."""
    write_packages(tmp_path, lambda region: False)
    replace_body(tmp_path, "blackjack/course_game.py", "play_money_round", ["while True:", "    pass"])
    ten = play_ten_rounds(tmp_path, lambda prompt: "s", lambda line: None, timeout=2)
    assert ten.rows == [] and ten.problem == "the game did not end within 2 s (a loop that never ends?)"


def test_the_rows_go_into_the_templates_table_and_are_replaced_when_they_change(tmp_path: Path) -> None:
    """A diary made from the template gets the rows in its Ten rounds table; the same rows again change nothing;
    other rows replace them (the table holds the latest ten rounds), and the text around stays; an older diary's
    columns give way to the new ones."""
    diary = tmp_path / "docs" / "diary.md"
    template = REPO_ROOT / "docs" / "diary_template.md"
    written = append_ten_rounds(diary, TenRounds(rows=ROWS), template=template, now=dt.datetime(2024, 10, 7, 9, 0))
    assert written == ["| 2024-10-07 09:00 | 1 | You | 20 | stand | win | +20 |",
                       "| 2024-10-07 09:00 | 1-10 | You |  |  | 5 won, 4 lost, 1 pushed | +10 |"]
    lines = diary.read_text(encoding="utf-8").splitlines()
    header = lines.index(TEN_ROUNDS_HEADER.splitlines()[0])
    assert lines[header + 2:header + 4] == written and lines[header + 4] == ""
    assert lines.index(TEN_ROUNDS_HEADING + ": how much do you win or lose?") < header
    assert append_ten_rounds(diary, TenRounds(rows=ROWS), now=dt.datetime(2024, 10, 8, 9, 0)) == []
    changed = [ROWS[0][:5] + ["-20"], ROWS[1]]
    [first, _] = append_ten_rounds(diary, TenRounds(rows=changed), now=dt.datetime(2024, 10, 9, 9, 0))
    after = diary.read_text(encoding="utf-8").splitlines()
    assert after[header + 2] == first and first.endswith("| -20 |") and len(after) == len(lines)
    assert "2024-10-07" not in diary.read_text(encoding="utf-8")
    assert append_ten_rounds(diary, TenRounds(problem="not written"), now=dt.datetime(2024, 10, 9, 9, 0)) == []
    old = diary.read_text(encoding="utf-8").replace(TEN_ROUNDS_HEADER, "| date | player | net |\n|---|---|---|")
    diary.write_text(old, encoding="utf-8")
    append_ten_rounds(diary, TenRounds(rows=ROWS), now=dt.datetime(2024, 10, 10, 9, 0))
    assert diary.read_text(encoding="utf-8").count(TEN_ROUNDS_HEADER) == 1


def test_a_diary_without_the_table_gets_it_before_the_progress_log(tmp_path: Path) -> None:
    """An older diary (no Ten rounds heading) gets the section before its Progress log; one with neither at its
    end."""
    diary = tmp_path / "diary.md"
    diary.write_text("# Diary\n\nnotes\n\n## Progress log\n\n| date | milestone |\n|---|---|\n", encoding="utf-8")
    rows = append_ten_rounds(diary, TenRounds(rows=ROWS))
    lines = diary.read_text(encoding="utf-8").splitlines()
    assert lines.index(TEN_ROUNDS_HEADING) < lines.index(rows[1]) < lines.index("## Progress log")
    assert lines[lines.index("## Progress log") - 1] == ""
    bare = tmp_path / "bare.md"
    bare.write_text("# Diary\n", encoding="utf-8")
    rows = append_ten_rounds(bare, TenRounds(rows=ROWS))
    assert bare.read_text(encoding="utf-8").splitlines()[-2:] == rows


def test_the_tenrounds_command_writes_the_students_session_into_the_diary(tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m milestones tenrounds --script FILE`` plays the script's answers, echoing each after its
    question, and writes the session into the project's diary; a script that ends early is one line, status 1."""
    from milestones.__main__ import main

    project = tmp_path / "project"
    write_packages(project, lambda region: False)
    answers: list[str] = []
    play_ten_rounds(project, player([], answers), lambda line: None)  # type: ignore[arg-type]
    script = tmp_path / "answers.txt"
    script.write_text("\n".join(answers) + "\n", encoding="utf-8")
    assert main(["tenrounds", "--project", str(project), "--script", str(script), "--names", "Ann"]) == 0
    out = capsys.readouterr().out
    assert "Ann, you have 100: your bet (10-500)? 20" in out and "Ten rounds table of" in out
    diary = (project / "docs" / "diary.md").read_text(encoding="utf-8")
    assert "| 1 | Ann | 20 |" in diary and "| 10 | Ann | 10 |" in diary and "| 1-10 | Mimic (bot:" in diary
    script.write_text("20\n", encoding="utf-8")
    assert main(["tenrounds", "--project", str(project), "--script", str(script)]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == ("(no ten rounds in the diary: the answers ended after 1, "
                                                        "before the ten rounds did)")


def test_in_a_milestone_2_starter_the_ten_rounds_say_what_they_wait_for(tmp_path: Path) -> None:
    """In a milestone-2 starter, the ten rounds say in one line which function they wait for (the game with money),
    and the diary is left alone."""
    write_packages(tmp_path, lambda region: region.milestone >= 2)
    said: list[str] = []
    diary = tmp_path / "docs" / "diary.md"
    log_ten_rounds(tmp_path, diary, lambda prompt: "s", said.append)
    assert said[-1].startswith("(no ten rounds in the diary: play_money_round() is not written")
    assert not diary.exists()
