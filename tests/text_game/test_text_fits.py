"""The text game reads well in any terminal (issue 27, item 6).

Widths are counted with ``len()``: every character these games write (the suits ♠♥♦♣,
box drawing, ``…``, ASCII names) is one terminal cell wide, so a line's ``len()`` is its
width on the screen.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from blackjack import Blackjack, Rules
from blackjack.__main__ import main
from blackjack.actions import Action
from blackjack.coach import SCREEN_ROWS, chart_lines
from blackjack.hints import basic_strategy
from blackjack.text_game import MIN_WIDTH, Console, terminal_width
from blackjack.text_render import card_art, shown_total, table_text

ROOT = Path(__file__).resolve().parents[2]

#: The upcards as a chart header names them.
UPCARD_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "A")


def run_game(args: list[str], keys: str, columns: int | None) -> str:
    """``python -m blackjack ARGS`` in a subprocess, its output a pipe, with ``COLUMNS`` set (or unset for None)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "LC_", "LANG", "COLUMNS", "LINES"))}
    env.update(PYTHONIOENCODING="utf-8", LC_ALL="C.UTF-8")
    if columns is not None:
        env["COLUMNS"] = str(columns)
    done = subprocess.run([sys.executable, "-m", "blackjack", *args], input=keys, capture_output=True, text=True,
                          encoding="utf-8", cwd=ROOT, env=env, timeout=120)
    assert done.returncode == 0 and done.stderr == "", done.stdout + done.stderr
    return done.stdout


def too_wide(text: str, columns: int) -> list[str]:
    """The lines of ``text`` wider than ``columns`` cells (``len()``: see the module docstring)."""
    return [line for line in text.splitlines() if len(line) > columns]


def is_header(line: str) -> bool:
    """A chart header: an optional section name, then a run of upcards in order."""
    words = line.split()
    if words and words[0] in ("Hard", "Soft", "Pairs"):
        words = words[1:]
    if not words or any(w not in UPCARD_NAMES for w in words):
        return False
    start = UPCARD_NAMES.index(words[0])
    return tuple(words) == UPCARD_NAMES[start:start + len(words)]


def chart_block(text: str) -> list[str]:
    """The chart's lines in a transcript: after the prompt line that ends in ``chart``, up to the next prompt."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.endswith(": chart")) + 1
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("Ann ("))
    return lines[start:end]


def every_screenful_has_a_header(lines: list[str], rows: int = SCREEN_ROWS) -> bool:
    """True when the chart fits ``rows`` or every ``rows`` consecutive lines of it hold a header line."""
    if len(lines) <= rows:
        return True
    return all(any(is_header(line) for line in lines[i:i + rows]) for i in range(len(lines) - rows + 1))


# ------------------------------------------------------------------ how the width is decided
def test_terminal_width_reads_columns_then_the_terminal_else_none() -> None:
    """COLUMNS decides when it is a positive whole number, whatever the output; a pipe or a StringIO
    without it is not wrapped; COLUMNS such as 0, -1 or x is ignored."""
    out = io.StringIO()
    assert terminal_width(out, {"COLUMNS": "60"}) == 60
    assert terminal_width(out, {"COLUMNS": " 100 "}) == 100
    for bad in ("0", "-1", "x", "", "6O", "٦٠"):
        assert terminal_width(out, {"COLUMNS": bad}) is None, bad
    assert terminal_width(out, {}) is None


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_terminal_width_of_a_terminal_is_its_own_width() -> None:
    """On a terminal with no COLUMNS, the terminal's own width (a pseudo-terminal set to 57 columns)."""
    import fcntl
    import struct
    import termios

    leader, follower = os.openpty()
    try:
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 57, 0, 0))
        with open(follower, "w", closefd=False) as tty:
            assert terminal_width(tty, {}) == 57
            assert terminal_width(tty, {"COLUMNS": "90"}) == 90
    finally:
        os.close(leader)
        os.close(follower)


def test_main_wraps_a_given_stream_only_at_its_width() -> None:
    """main() with its own stdout wraps at width= and not otherwise, whatever COLUMNS says (the process's
    stdout follows terminal_width)."""
    args = ["--names", "Ann", "--stack", "Th,9c,6d,8s", "--rounds", "1", "--plain"]
    wide = io.StringIO()
    main(args, stdin=io.StringIO("10\nhelp\ns\n"), stdout=wide)
    assert too_wide(wide.getvalue(), 60), "the help text is one long line when nothing asks for a width"
    narrow = io.StringIO()
    main(args, stdin=io.StringIO("10\nhelp\ns\n"), stdout=narrow, width=60)
    assert too_wide(narrow.getvalue(), 60) == []
    assert "Commands: a move by its letter or name" in narrow.getvalue()


def test_console_wraps_long_lines_keeps_fitting_ones_and_indents_continuations() -> None:
    """A line that fits is kept exactly (spaces included); one too wide is cut between words, its
    continuation indented two more than the line; a width under MIN_WIDTH is taken as MIN_WIDTH."""
    console = Console(io.StringIO(), io.StringIO(), width=32)
    assert console.wrap("  a  b   c") == ["  a  b   c"]
    wrapped = console.wrap("  EV per unit bet: hit -0.147, double -0.392, stand -0.421")
    assert wrapped == ["  EV per unit bet: hit -0.147,", "    double -0.392, stand -0.421"]
    assert Console(io.StringIO(), io.StringIO(), width=5).width == MIN_WIDTH
    assert Console(io.StringIO(), io.StringIO()).wrap("x" * 500) == ["x" * 500]


# ------------------------------------------------------------------ nothing wider than the terminal
#: help, a hint, an unknown move (an error printed in the game), the chart, stats, a tip (on by
#: default: the first ace, doubling, surrender), the coach's verdicts (--hints), the summary.
SESSION = "10\nhelp\n?\nx\nchart\nstats\nh\ns\nn\n"


@pytest.mark.parametrize("columns", [60, 100])
def test_the_game_prints_no_line_wider_than_columns(columns: int) -> None:
    """With COLUMNS set and the output a pipe: help, hints, tips, the coach, an error, stats, the chart and the
    summary all fit; the chart shows its header in every 24-line screenful."""
    text = run_game(["--names", "Ann", "--stack", "Ah,9c,6d,8s,5h,4c", "--hints"], SESSION, columns)
    for seen in ("Commands: a move", "Hint: hit.", "Tip - Your first ace", "Unknown move 'x'", "Coach: good move.",
                 "Coach: the recommended move was hit, not stand", "Session summary:", "Dh = double"):
        assert seen in text, seen
    assert too_wide(text, columns) == []
    chart = chart_block(text)
    assert sum(is_header(line) for line in chart) >= 3 and len(chart) > SCREEN_ROWS
    assert every_screenful_has_a_header(chart)


@pytest.mark.parametrize("columns", [60, 100])
def test_the_drill_and_the_course_game_fit(columns: int) -> None:
    """The counting drill's lines and the cs111 game's (help, a hint, the summary) fit too."""
    drill = run_game(["--drill", "--seed", "3"], "1\nquit\n", columns)
    assert "Counting drill:" in drill and too_wide(drill, columns) == []
    course = run_game(["--rules", "cs111", "--names", "Ann", "--stack", "Th,9s,6c,8h"], "help\n?\ns\nn\n", columns)
    assert "Hint: " in course and "At a hit-or-stand question" in course and "Session summary" in course
    assert too_wide(course, columns) == []


def test_many_cards_are_drawn_in_rows_that_fit() -> None:
    """Ann's eight cards (67 columns on one row, with the indent) are drawn on two rows of boxes at 60 columns
    when the table is drawn again for Bob's turn."""
    keys = "10\n10\n" + "h\n" * 6 + "s\ns\n"
    text = run_game(["--names", "Ann,Bob", "--stack", "2c,Th,Kd,2d,9h,9s,2h,2s,3c,3d,Ac,Ad", "--rounds", "1"],
                    keys, 60)
    assert too_wide(text, 60) == []
    lines = text.splitlines()
    ann = lines.index("  2♣ 2♦ 2♥ 2♠ 3♣ 3♦ A♣ A♦ = 16  bet 10")
    boxes = [line for line in lines[ann + 1:ann + 11] if line.startswith("    ┌")]
    assert len(boxes) == 2 and boxes[0].count("┌") == 7 and boxes[1].count("┌") == 1, "\n".join(lines[ann:ann + 11])


def test_card_art_breaks_rows_and_the_table_falls_back_to_plain() -> None:
    """card_art puts as many cards on a row as fit; table_text below one indented card gives the plain form."""
    game = Blackjack(["Ann"], Rules.preset("vegas"), seed=1)
    game.shoe.stack(["Ah", "Kd", "Ac", "9s"])
    rnd = game.start_round()
    view = rnd.view()
    cards = view.seats[0].hands[0].cards * 3
    art = card_art(cards, width=20).splitlines()
    assert len(art) == 15 and max(map(len, art)) <= 20  # 2 cards a row (15 columns), 3 rows
    assert len(card_art(cards).splitlines()) == 5
    narrow = table_text(view, width=10)
    assert "┌" not in narrow and "Ann: A♥ A♣" in narrow
    assert "┌" in table_text(view, width=11)


def test_the_chart_fits_any_width_and_repeats_its_header() -> None:
    """chart_lines at 20 to 120 columns: no line wider, a header in every 24 lines (and in every 10 on a 10-row
    screen), every upcard's column shown."""
    chart = basic_strategy(Rules.preset("vegas"))
    for width in (20, 25, 36, 37, 46, 47, 60, 80, 120):
        lines = chart_lines(chart, width)
        assert too_wide("\n".join(lines), width) == [], width
        assert every_screenful_has_a_header(lines), width
        shown = {w for line in lines if is_header(line) for w in line.split()}
        assert shown >= set(UPCARD_NAMES), width
    assert every_screenful_has_a_header(chart_lines(chart, 60, rows=10), rows=10)


# ------------------------------------------------------------------ a finished hand shows one total
def test_a_finished_hand_shows_its_final_total_only() -> None:
    """A-9 reads 10 / 20 while it is played and 20 once it stands; the dealer's soft 17 reads 17 in the results."""
    text = main_text(["--names", "Ann", "--stack", "Ah,As,9d,6h", "--rounds", "1", "--plain"], "10\nn\ns\n")
    played, results = text.split("Results:")
    assert "Ann: A♥ 9♦ = 10 / 20  bet 10" in played
    assert "Dealer: A♠ 6♥ = 17" in results and "Ann: A♥ 9♦ = 20  bet 10  WIN +10" in results
    assert " / " not in results


def test_a_doubled_hand_shows_one_total_as_it_draws() -> None:
    """A-6 doubled draws a 2: the draw line says 19 (the hand is finished), not 9 / 19."""
    text = main_text(["--names", "Ann", "--stack", "Ah,9c,6d,8s,2c", "--rounds", "1", "--plain"], "10\nd\n")
    assert "Ann draws 2♣: 19." in text
    assert "9 / 19" not in text


def test_shown_total_follows_the_hand_being_finished() -> None:
    """shown_total: both totals while the hand takes decisions, the engine's best total once it is finished."""
    game = Blackjack(["Ann"], Rules.preset("vegas"), seed=1)
    game.shoe.stack(["Ah", "9c", "6d", "8s", "2c"])
    rnd = game.start_round()
    hand = rnd.view().seats[0].hands[0]
    assert not hand.finished and shown_total(hand) == hand.total_text == "7 / 17"
    rnd.apply(Action.STAND)
    hand = rnd.view().seats[0].hands[0]
    assert hand.finished and shown_total(hand) == str(hand.total) == "17"


def main_text(args: list[str], keys: str) -> str:
    """The transcript of an in-process game (no wrapping)."""
    out = io.StringIO()
    assert main(args, stdin=io.StringIO(keys), stdout=out) == 0
    return out.getvalue()


def test_no_soft_pair_left_in_a_settled_table() -> None:
    """Across seeded games, no results table shows a soft pair of totals ("n / m")."""
    for seed in range(6):
        text = main_text(["--names", "Ann,Bob", "--seed", str(seed), "--rounds", "3", "--plain"],
                         "10\n10\ns\ns\n\n\ns\ns\n\n\ns\ns\n")
        for block in text.split("Results:")[1:]:
            settled = block.split("Bankrolls:")[0]
            assert not re.search(r"\d+ / \d+", settled), settled
