"""``python -m milestones defend``: the student's hints played through the simulator beside basic strategy and
mimic-the-dealer on the same shoes, the table printed and kept in the diary; the starter ships no chart."""

from __future__ import annotations

import io
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest
from make_samples import replace_body

from milestones import REPO_ROOT
from milestones.defend import BEGIN_MARK, DIARY_HEADING, END_MARK, DefendResult, Row, run_defend, table_text, write_diary
from milestones.regions import restore_source, scan
from milestones.starter import LEFT_OUT, write_packages, write_starter

#: A hint policy that mimics the dealer, as a student might write basic_advice (hit below 17, never insure).
MIMIC = ["moves = fresh_moves(player_cards, rules) if legal is None else frozenset(legal)",
         "if Action.DECLINE in moves:",
         "    return Action.DECLINE, 'I never take insurance: the dealer does not.'",
         "values = [card_value(c) for c in player_cards]",
         "total = total_of(sum(values), 1 in values)",
         "if total < 17:",
         "    return Action.HIT, f'Hit: {total} is below 17, and the dealer hits below 17.'",
         "return Action.STAND, f'Stand: {total} is 17 or more, where the dealer stands.'"]

#: A table row: label, house edge, standard error, EV lost per decision, decisions, average bet.
ROW = re.compile(r"^\| (?P<label>[^|]+) \| (?P<edge>-?\d+\.\d\d%) \| (?P<se>\d+\.\d\d%) \| (?P<lost>\d+\.\d{3}%) "
                 r"\| (?P<decisions>[\d,]+) \| (?P<bet>\d+\.\d\d) \|$", re.M)


def defend(cwd: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m milestones defend ARGS`` run in ``cwd``."""
    return subprocess.run([sys.executable, "-m", "milestones", "defend", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600, check=False, env=env)


def rows(text: str) -> dict[str, dict[str, str]]:
    """The table's rows that have numbers, by the row's name (its label before the brackets)."""
    return {m["label"].split(" (")[0]: m.groupdict() for m in ROW.finditer(text)}


@pytest.mark.slow
def test_the_reference_defends_its_hints(tmp_path: Path) -> None:
    """On the reference: four rows with numbers; basic strategy loses nothing against the exact EVs, the kit's
    hand-written hints almost nothing, mimic-the-dealer more than 1% of a bet per decision and more edge; the
    counting row bets more than one unit on average; the diary holds the same table."""
    diary = tmp_path / "diary.md"
    done = defend(REPO_ROOT, "--project", str(REPO_ROOT), "--hands", "3000", "--diary", str(diary))
    assert done.returncode == 0 and "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    found = rows(done.stdout)
    assert list(found) == ["my hints", "my hints + counting", "basic strategy", "mimic the dealer"], done.stdout
    assert found["basic strategy"]["lost"] == "0.000%"
    assert float(found["my hints"]["lost"][:-1]) < 0.05
    assert float(found["mimic the dealer"]["lost"][:-1]) > 1
    assert float(found["mimic the dealer"]["edge"][:-1]) > float(found["basic strategy"]["edge"][:-1])
    assert float(found["my hints + counting"]["bet"]) > 1 and found["my hints"]["bet"] == "1.00"
    assert "3,000 rounds per row on the same shuffled shoes (seed 1), Rules(): 6D S17 3:2 DAS peek" in done.stdout
    text = diary.read_text(encoding="utf-8")
    assert rows(text) == found and text.count(BEGIN_MARK) == 1 and DIARY_HEADING in text
    assert done.stderr == "", done.stderr  # no progress line in a pipe
    assert re.search(r"^- my hints: \S.* v (\d|A): you \w", text, re.M) and "Where your hints lose the most EV" in text
    for name in ("basic_advice", "count_advice", "true_count", "bet_ramp"):
        assert re.search(rf"^- {name}: [\d,]+ calls, \d+\.\d+ ms per call$", text, re.M), text  # the kit: no "kit's"


def _mimic_starter(project: Path) -> None:
    """A real milestone-2 starter (no chart) in which the student wrote every milestone-2 function but the counting
    ones, with a basic_advice that mimics the dealer."""
    write_starter(project, milestone=2)
    written = [r for r in scan(REPO_ROOT)
               if r.milestone == 2 and r.qualname not in ("basic_advice", "count_advice", "bet_ramp")]
    for module in {r.module for r in written}:
        file = project / module
        source, missing = restore_source(file.read_text(encoding="utf-8"), [r for r in written if r.module == module])
        assert not missing
        file.write_text(source, encoding="utf-8")
    stub = 'raise NotImplementedError("choose the play'
    assert stub in (project / "blackjack/hints/advice.py").read_text(encoding="utf-8")
    text = (project / "blackjack/hints/advice.py").read_text(encoding="utf-8")
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if stub in line)
    indent = lines[at][:len(lines[at]) - len(lines[at].lstrip())]
    lines[at:at + 1] = [indent + line for line in MIMIC]
    (project / "blackjack/hints/advice.py").write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.slow
def test_a_starter_whose_hints_mimic_the_dealer(tmp_path: Path) -> None:
    """In a milestone-2 starter (run from the starter's own folder and its copy of the tools) whose basic_advice
    mimics the dealer: the 'my hints' row is the mimic-the-dealer row to the last digit (the same play on the same
    shoes), the counting row says what is not written yet, basic strategy is there without a chart, and the
    starter's diary holds the table once, however often defend runs."""
    project = tmp_path / "starter"
    _mimic_starter(project)
    assert not (project / "blackjack/hints/charts.json").exists()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    for _run in range(2):
        done = defend(project, "--hands", "2000", env=env)
        assert done.returncode == 0 and "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    found = rows(done.stdout)
    assert list(found) == ["my hints", "basic strategy", "mimic the dealer"], done.stdout
    mine, mimic = dict(found["my hints"]), dict(found["mimic the dealer"])
    assert mine.pop("label") != mimic.pop("label") and mine == mimic
    assert float(found["basic strategy"]["edge"][:-1]) < float(mimic["edge"][:-1])
    assert re.search(r"\| my hints \+ counting \(count_advice, bet_ramp\) \| bet_ramp\(\) is not written yet "
                     r"\(counting.py, line \d+\) \|", done.stdout), done.stdout
    assert re.search(r"^- my hints: 1[2-6] v [2-6]: you hit, basic stands, ", done.stdout, re.M), done.stdout
    assert "here to compare with" in done.stdout and re.search(r"^- basic_advice: [\d,]+ calls, ", done.stdout, re.M)
    diary = (project / "docs" / "diary.md").read_text(encoding="utf-8")
    assert diary.count(BEGIN_MARK) == diary.count(END_MARK) == diary.count(DIARY_HEADING) == 1
    assert rows(diary) == found
    assert diary.index(DIARY_HEADING) < diary.index("## Progress log")


def test_a_short_run_in_a_process_of_its_own() -> None:
    """run_defend on the reference, 200 rounds of one deck: every row ran, each took its decisions, basic
    strategy lost nothing against the exact EVs, and the rows all played the same number of rounds; the kit's rows
    were played first, each showing its rounds on the progress line, which is rubbed out at the end; the student's
    rows timed their functions (no kit to compare: the project is the kit)."""
    status = io.StringIO()
    said: list[str] = []
    result = run_defend(REPO_ROOT, rules="single_deck", hands=200, seed=3, status=status, progress=said.append)
    assert not result.stopped and [row.key for row in result.rows] == ["hints", "counting", "basic", "mimic"]
    assert all(row.status == "ok" and row.rounds == 200 and row.decisions > 100 for row in result.rows), result.rows
    assert result.rows[2].ev_lost == 0 and result.rules.startswith("single_deck: 1D H17 6:5")
    assert [line for line in said if "rounds ..." in line][:2] == ["basic strategy: 200 rounds ...",
                                                                  "mimic the dealer: 200 rounds ..."]
    shown = status.getvalue()
    for name in ("basic strategy", "mimic the dealer", "my hints", "my hints + counting"):
        assert re.search(rf"\r{re.escape(name)}: 200 of 200 rounds; \d+ s, about 0 s left", shown) \
            or name != "my hints + counting", shown
    assert shown.endswith("\r\x1b[K") and not result.kit and not result.kit_note
    assert set(result.rows[0].calls) == {"basic_advice"} and result.rows[0].calls["basic_advice"][0] > 50
    assert set(result.rows[1].calls) == {"count_advice", "true_count", "bet_ramp"}
    assert sum(lost for *_where, lost in result.rows[0].situations) <= result.rows[0].lost + 1e-12


def test_a_row_names_a_hint_that_is_not_legal(tmp_path: Path) -> None:
    """A basic_advice that doubles after a hit: its row, and the counting row that starts from it, say what it said,
    for which cards, and what was legal; the other rows still run, and defend exits 1 without a traceback."""
    project = tmp_path / "project"
    write_packages(project, lambda r: False)
    replace_body(project, "blackjack/hints/advice.py", "basic_advice", [
        "values = [card_value(c) for c in player_cards]",
        "if legal is not None and Action.DECLINE in legal:", "    return Action.DECLINE, 'No.'",
        "if len(values) > 2:", "    return Action.DOUBLE, 'Always double a third card.'",
        "return (Action.HIT if sum(values) < 13 else Action.STAND), 'Hit below 13.'"])
    done = defend(REPO_ROOT, "--project", str(project), "--hands", "300", "--rules", "single_deck", "--no-diary")
    assert done.returncode == 1 and "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    assert re.search(r"\| my hints \(basic_advice\) \| basic_advice said DOUBLE for \[\w\w, \w\w, \w\w\] against "
                     r"\w\w, which is not one of the legal moves there \(HIT, STAND\) \|", done.stdout), done.stdout
    assert re.search(r"\| my hints \+ counting \(count_advice, bet_ramp\) \| count_advice said DOUBLE for ",
                     done.stdout), done.stdout
    assert set(rows(done.stdout)) == {"basic strategy", "mimic the dealer"}


def test_with_only_basic_advice_every_row_but_counting_plays(tmp_path: Path) -> None:
    """Issue 39: a milestone-2 project where only basic_advice is written (no wagering, no advanced play, no
    probabilities, no counting): the kit's rows and the student's hints play on the suite's given parts, the
    counting row alone names the function it needs, the table says whose chances the reasons quoted, and
    basic_advice's time per call stands beside the kit's."""
    project = tmp_path / "project"
    write_packages(project, lambda r: r.milestone == 2 and r.qualname != "basic_advice")
    done = defend(REPO_ROOT, "--project", str(project), "--hands", "300", "--no-diary")
    assert done.returncode == 0 and "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    assert set(rows(done.stdout)) == {"my hints", "basic strategy", "mimic the dealer"}, done.stdout
    assert re.search(r"\| my hints \+ counting \(count_advice, bet_ramp\) \| true_count\(\) is not written yet "
                     r"\(counting.py, line \d+\) \|", done.stdout), done.stdout
    assert "Your bust_probability and dealer_probabilities are not written yet" in done.stdout
    assert re.search(r"^- basic_advice: [\d,]+ calls, \d+\.\d+ ms per call; the kit's \d+\.\d+ ms$", done.stdout,
                     re.M), done.stdout


def test_the_text_says_where_the_hints_lose_and_what_each_call_costs() -> None:
    """Under the table: each situation where a student's row lost EV, as a player says it, its share of the row's
    loss; and each student's function's calls and time per call beside the kit's, in milliseconds."""
    result = _result()
    result.rows[0].lost = 12.5
    result.rows[0].situations = [("16 v 10", "STAND", "HIT", 412, 7.828),
                                 ("insurance v A", "INSURANCE", "DECLINE", 1, 0.04)]
    result.rows[0].calls = {"basic_advice": (40_000, 64.0)}
    result.kit = {"basic_advice": 0.00002}
    text = table_text(result)
    assert ("- my hints: 16 v 10: you stand, basic hits, 1.90% of a bet lost per decision over 412 decisions, 63% of "
            "all this row lost") in text, text
    assert ("- my hints: insurance v A: you take insurance, basic declines it, 4.00% of a bet lost per decision over "
            "1 decision, 0% of all this row lost") in text, text
    assert "- basic_advice: 40,000 calls, 1.60 ms per call; the kit's 0.0200 ms" in text
    assert text.index("Where your hints lose") < text.index("Time per call") and "count_advice:" not in text


@pytest.mark.slow
def test_a_slow_implementation_shows_progress_and_stops_with_figures(tmp_path: Path) -> None:
    """A count_advice that takes 0.2 s a call (the counting row would take minutes): on a terminal the progress line
    shows the row, its rounds and the time left; at the time limit the row stops with the rounds it finished and its
    figures, the kit's rows and the hints have theirs, count_advice's time per call says where the time went, and
    a last line says the run reached its time limit (status 1)."""
    project = tmp_path / "slow"
    write_packages(project, lambda r: False)
    replace_body(project, "blackjack/hints/counting.py", "count_advice", [
        "import time", "time.sleep(0.2)", "from .advice import basic_advice",
        "return basic_advice(player_cards, upcard, rules, legal=legal)"])
    terminal, stderr = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "milestones", "defend", "--project", str(project), "--hands",
                               "500", "--rules", "single_deck", "--timeout", "40", "--no-diary"], cwd=REPO_ROOT,
                              stdout=subprocess.PIPE, stderr=stderr, text=True, timeout=300, check=False)
        os.close(stderr)
        shown = b""
        while chunk := _read(terminal):
            shown += chunk
    finally:
        os.close(terminal)
    assert done.returncode == 1 and "Traceback" not in done.stdout, done.stdout
    assert list(rows(done.stdout)) == ["my hints", "my hints + counting", "basic strategy", "mimic the dealer"]
    stopped = re.search(r"^\| my hints \+ counting \(count_advice, bet_ramp\), stopped after (\d+) rounds "
                        r"\| -?\d+\.\d\d% ", done.stdout, re.M)
    assert stopped and 0 < int(stopped[1]) < 500, done.stdout
    assert done.stdout.rstrip().endswith(f"Stopped early: the run reached its time limit of 40 s (--timeout): my hints "
                                         f"+ counting stopped after {stopped[1]} of 500 rounds"), done.stdout
    slow = re.search(r"^- count_advice: [\d,]+ calls, (\d+)\.\d\d ms per call; the kit's", done.stdout, re.M)
    assert slow and int(slow[1]) >= 200, done.stdout
    assert re.search(rb"\rmy hints \+ counting: \d+ of 500 rounds; \d+ s, about \d+ s left", shown), shown[-500:]


def _read(descriptor: int) -> bytes:
    """What a terminal's other end has written, b"" once it is closed."""
    try:
        return os.read(descriptor, 1 << 16)
    except OSError:  # Linux: EIO once every writer has closed
        return b""


@pytest.mark.parametrize(("args", "words"), [
    (["--hands", "0"], "the hands must be 100 to 5,000,000, got 0"),
    (["--hands", "many"], "the hands must be a whole number, got 'many'"),
    (["--project", "{tmp}"], "has no blackjack/__init__.py; run defend from your project folder"),
    (["--rules", "no_such_rules", "--no-diary"], "cannot load the rules 'no_such_rules'"),
    (["--diary", "{tmp}"], "is a folder; give the diary's file"),
])
def test_a_mistake_is_one_line_and_status_2(args: list[str], words: str, tmp_path: Path) -> None:
    """A bad option, a folder without the package, unknown rules or a diary that is a folder: one line on stderr,
    status 2, before any simulation."""
    done = defend(REPO_ROOT, *[arg.replace("{tmp}", str(tmp_path)) for arg in args])
    assert done.returncode == 2, done.stdout + done.stderr
    assert words in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stdout + done.stderr and "rounds ..." not in done.stdout


def _result() -> DefendResult:
    return DefendResult(rows=[Row("hints", edge=0.0061, se=0.0081, rounds=100, decisions=140, ev_lost=0.00002,
                                  average_bet=1.0),
                              Row("counting", status="not written", message="count_advice is not written yet")],
                        rules="Rules(): 6D S17 3:2 DAS peek", hands=100, seed=1, seconds=3.0)


def test_the_diary_gets_the_section_before_its_progress_log(tmp_path: Path) -> None:
    """A diary without the section gets the heading, the table between the markers and a prompt, before the
    progress log; a second run replaces the table and keeps the student's words around it."""
    diary = tmp_path / "diary.md"
    diary.write_text("# Diary\n\nMy notes.\n\n## Progress log\n\n| date | milestone |\n|---|---|\n", encoding="utf-8")
    write_diary(diary, table_text(_result()))
    text = diary.read_text(encoding="utf-8")
    assert text.index("My notes.") < text.index(DIARY_HEADING) < text.index(BEGIN_MARK) < text.index(END_MARK) \
        < text.index("*Which strategy") < text.index("## Progress log")
    assert "| my hints (basic_advice) | 0.61% | 0.81% | 0.002% | 140 | 1.00 |" in text
    assert "| my hints + counting (count_advice, bet_ramp) | count_advice is not written yet | | | | |" in text
    diary.write_text(text.replace("*Which strategy", "I chose basic strategy. *Which strategy"), encoding="utf-8")
    again = _result()
    again.rows[0].edge = 0.0123
    write_diary(diary, table_text(again))
    text = diary.read_text(encoding="utf-8")
    assert text.count(BEGIN_MARK) == 1 and "| 1.23% |" in text and "| 0.61% |" not in text
    assert "I chose basic strategy." in text and "My notes." in text


def test_a_section_without_markers_gets_them_under_its_heading(tmp_path: Path) -> None:
    """A diary whose template already has the heading: the table goes right under it, the rest stays."""
    diary = tmp_path / "diary.md"
    diary.write_text(f"# Diary\n\n{DIARY_HEADING}\n\nWhy I chose my hints.\n", encoding="utf-8")
    write_diary(diary, table_text(_result()))
    text = diary.read_text(encoding="utf-8")
    assert text.index(DIARY_HEADING) < text.index(BEGIN_MARK) < text.index(END_MARK) < text.index("Why I chose")
    assert text.count(DIARY_HEADING) == 1


def test_a_missing_diary_is_made_from_the_template(tmp_path: Path) -> None:
    """No diary yet: it is made from the template (as check makes it), with the section added."""
    template = REPO_ROOT / "docs" / "diary_template.md"
    diary = tmp_path / "docs" / "diary.md"
    write_diary(diary, table_text(_result()), template=template)
    text = diary.read_text(encoding="utf-8")
    assert text.startswith(template.read_text(encoding="utf-8").splitlines()[0]) and DIARY_HEADING in text


def test_the_starter_ships_no_chart(tmp_path: Path) -> None:
    """A starter leaves the shipped charts out; in a milestone-3 starter (the milestone-2 bodies given) the hints
    answer without one, and basic_strategy has none to read (it would derive one from expected_values)."""
    assert LEFT_OUT == ("blackjack/hints/charts.json",)
    project = tmp_path / "starter"
    write_starter(project, milestone=3)
    assert not (project / "blackjack/hints/charts.json").exists()
    assert (REPO_ROOT / "blackjack/hints/charts.json").is_file()
    code = ("from blackjack.hints import basic_advice\nfrom blackjack.hints.strategy import _shipped\n"
            "print(basic_advice([10, 6], 6)[0].name, basic_advice([8, 8], 10)[0].name, len(_shipped()))\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    done = subprocess.run([sys.executable, "-c", code], cwd=project, capture_output=True, text=True, timeout=60,
                          check=False, env=env)
    assert done.stdout.split() == ["STAND", "SPLIT", "0"], done.stdout + done.stderr
