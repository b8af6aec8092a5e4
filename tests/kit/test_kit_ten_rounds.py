"""The diary's "Ten rounds" table: check plays ten rounds of the student's course game with money and writes
each player's line of its session summary (issue 25 item 2, the course's "see how much you win/lose over 10
rounds")."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import write_course
from make_samples import replace_body

from milestones import REPO_ROOT
from milestones.check import TEN_ROUNDS_HEADING, append_ten_rounds, log_ten_rounds
from milestones.starter import write_packages
from milestones.ten_rounds import PLAYERS, TenRounds, play_ten_rounds, summary_rows

ROWS = [["Mimic", PLAYERS[0][1], "10", "5", "4", "1", "+10"], ["Cautious", PLAYERS[1][1], "10", "5", "5", "0", "0"]]


def test_the_reference_plays_ten_rounds_and_its_summary_gives_the_rows() -> None:
    """On the kit's own code: the summary says 10 rounds, and each player's row adds up: 10 rounds, won + lost +
    pushed = 10 hands (cs111 has no split), net = 10 x (won - lost) (every bet 10, paid even money)."""
    ten = play_ten_rounds(REPO_ROOT)
    assert ten.problem == "" and ten.lines[0] == "Session summary: 10 rounds played."
    assert [row[:2] for row in ten.rows] == [[name, strategy] for name, strategy in PLAYERS]
    for _name, _strategy, rounds, won, lost, pushed, net in ten.rows:
        assert rounds == "10" and int(won) + int(lost) + int(pushed) == 10
        assert Fraction(net) == 10 * (int(won) - int(lost))
    assert play_ten_rounds(REPO_ROOT).rows == ten.rows  # seeded: the same code plays the same rounds


def test_summary_rows_reads_the_five_numbers_after_each_name() -> None:
    """Any layout that keeps a player's name and then rounds, won, lost, pushed and net on one line is read; the
    net keeps its exact value and sign."""
    lines = ["Session summary: 10 rounds played.", "  who: rounds/won/lost/pushed/net",
             "  Mimic 10 5 4 1 +7.5", "  Cautious -> 10, 3, 6, 1, -25/2"]
    assert [row[2:] for row in summary_rows(lines)] == [["10", "5", "4", "1", "+7.5"], ["10", "3", "6", "1", "-12.5"]]
    with pytest.raises(ValueError, match="five numbers"):
        summary_rows(["Session summary: 10 rounds", "  Mimic 10 5 4 1", "  Cautious 10 5 5 0 0"])
    with pytest.raises(ValueError, match="'Session summary'"):
        summary_rows(["Mimic 10 5 4 1 0", "Cautious 10 5 5 0 0"])


def test_a_summary_without_the_net_is_reported(tmp_path: Path) -> None:
    """A summary whose player lines lack the net: no rows, and the problem names the five numbers."""
    write_packages(tmp_path, lambda region: False)
    replace_body(tmp_path, "blackjack/course_game.py", "summary_lines",
                 ["return ['Session summary'] + [f'{p.name} {p.ledger.rounds} {p.ledger.wins} {p.ledger.losses} '",
                  "                                f'{p.ledger.pushes}' for p in game.players]"])
    ten = play_ten_rounds(tmp_path)
    assert ten.rows == [] and "Mimic's summary line should hold five numbers" in ten.problem
    assert ten.lines[0] == "Session summary"


def test_a_mistake_in_the_wagering_code_is_one_line(tmp_path: Path) -> None:
    """A take_stake that raises: the game stops, and the problem is its Stopped: line naming the student's line."""
    write_packages(tmp_path, lambda region: False)
    replace_body(tmp_path, "blackjack/wagers.py", "take_stake", ["raise KeyError('oops')"])
    ten = play_ten_rounds(tmp_path)
    assert ten.rows == [] and ten.problem.startswith("Stopped: KeyError: 'oops'") and "blackjack/wagers.py" in ten.problem


def test_a_game_that_never_ends_is_stopped(tmp_path: Path) -> None:
    """A play_round that loops forever is stopped after the time limit, in one line."""
    write_packages(tmp_path, lambda region: False)
    replace_body(tmp_path, "blackjack/course_game.py", "play_round", ["while True:", "    pass"])
    ten = play_ten_rounds(tmp_path, timeout=2)
    assert ten.rows == [] and ten.problem == "the game did not end within 2 s (a loop that never ends?)"


def test_the_rows_go_into_the_templates_table_and_are_replaced_when_they_change(tmp_path: Path) -> None:
    """A diary made from the template gets the rows in its Ten rounds table; the same rows again change nothing;
    other rows replace them (the table holds the latest ten rounds), and the text around stays."""
    diary = tmp_path / "docs" / "diary.md"
    template = REPO_ROOT / "docs" / "diary_template.md"
    written = append_ten_rounds(diary, TenRounds(rows=ROWS), template=template, now=dt.datetime(2024, 10, 7, 9, 0))
    assert written == ["| 2024-10-07 09:00 | Mimic | hits below 17, as the dealer must | 10 | 5 | 4 | 1 | +10 |",
                       "| 2024-10-07 09:00 | Cautious | hits hard 11 or less and soft 17 or less: never busts | 10 | 5 "
                       "| 5 | 0 | 0 |"]
    lines = diary.read_text(encoding="utf-8").splitlines()
    header = lines.index("| date | player | strategy | rounds | won | lost | pushed | net |")
    assert lines[header + 2:header + 4] == written and lines[header + 4] == ""
    assert lines.index(TEN_ROUNDS_HEADING + ": how much do you win or lose?") < header
    assert append_ten_rounds(diary, TenRounds(rows=ROWS), now=dt.datetime(2024, 10, 8, 9, 0)) == []
    changed = [ROWS[0][:6] + ["-20"], ROWS[1]]
    [first, _] = append_ten_rounds(diary, TenRounds(rows=changed), now=dt.datetime(2024, 10, 9, 9, 0))
    after = diary.read_text(encoding="utf-8").splitlines()
    assert after[header + 2] == first and first.endswith("| -20 |") and len(after) == len(lines)
    assert "2024-10-07" not in diary.read_text(encoding="utf-8")
    assert append_ten_rounds(diary, TenRounds(problem="not written"), now=dt.datetime(2024, 10, 9, 9, 0)) == []


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


def test_check_of_milestone_2_writes_the_ten_rounds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`python -m milestones check --milestone 2` prints the summary of the ten rounds and writes its rows into
    the project's diary; a check of milestone 1 plays no rounds."""
    from milestones.__main__ import main

    project = write_course(tmp_path / "project")
    assert main(["check", "--project", str(project), "--milestone", "1"]) == 0
    assert "rounds of your course game" not in capsys.readouterr().out
    assert main(["check", "--project", str(project), "--milestone", "2"]) == 0
    out = capsys.readouterr().out
    assert "10 rounds of your course game with money (seed 2012), for the diary:" in out
    assert "  Session summary: 10 rounds played." in out and "Ten rounds table of" in out
    diary = (project / "docs" / "diary.md").read_text(encoding="utf-8")
    assert diary.count("| Mimic | hits below 17, as the dealer must | 10 |") == 1


def test_in_a_milestone_2_starter_check_says_what_the_table_waits_for(tmp_path: Path) -> None:
    """In a milestone-2 starter, check's ten rounds say in one line that the table waits for summary_lines, and
    the diary is left alone."""
    write_packages(tmp_path, lambda region: region.milestone >= 2)
    said: list[str] = []
    diary = tmp_path / "docs" / "diary.md"
    log_ten_rounds(tmp_path, diary, said.append)
    assert len(said) == 1 and said[0].startswith("(no ten rounds in the diary yet: summary_lines() is not written")
    assert not diary.exists()
