"""Rules files that are broken in every way a file can be, and bad seats and seeds: one line, never a hang.

The game, the GUI and the simulator all read ``--rules`` through :meth:`Rules.load`, so
each case here is checked once, in that shared loader (the simulator's command line is
checked in ``tests/sim/test_cli_input.py``, the text game's in ``tests/text_game``).
"""

from __future__ import annotations

import os
import threading
from fractions import Fraction
from pathlib import Path

import pytest

from blackjack import Blackjack, BlackjackError, InvalidBetError, PresetError, Rules, RulesError
from blackjack import rules as rules_module

MAX_RULES_FILE_BYTES: int = getattr(rules_module, "MAX_RULES_FILE_BYTES", 64 * 1024)


def load_in_thread(path: Path, seconds: float = 10.0) -> BaseException | Rules | None:
    """``Rules.load(path)`` in a daemon thread; its result or error, or None when it is still running
    after ``seconds`` (a hang: the old loader read a FIFO or /dev/zero for ever)."""
    box: list[BaseException | Rules] = []

    def load() -> None:
        try:
            box.append(Rules.load(str(path)))
        except BaseException as err:  # noqa: BLE001 - the test inspects whatever came out
            box.append(err)

    worker = threading.Thread(target=load, daemon=True)
    worker.start()
    worker.join(seconds)
    return box[0] if box else None


def one_line(err: BaseException) -> str:
    text = str(err)
    assert "\n" not in text and len(text) < 300, text
    return text


@pytest.mark.parametrize("nesting", ["[" * 1000 + "]" * 1000, "{a = " * 1000 + "1" + "}" * 1000])
def test_rules_nested_1000_deep_is_one_line(tmp_path: Path, nesting: str) -> None:
    """A list or table nested 1000 deep raised RecursionError in the game, the GUI and the simulator."""
    path = tmp_path / "deep.toml"
    path.write_text(f"decks = {nesting}\n", encoding="utf-8")
    with pytest.raises(PresetError) as caught:
        Rules.load(str(path))
    assert "too deeply" in one_line(caught.value)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_rules_fifo_is_refused_at_once(tmp_path: Path) -> None:
    """A FIFO named as the rules file used to block for ever waiting for a writer."""
    fifo = tmp_path / "rules.toml"
    os.mkfifo(fifo)
    result = load_in_thread(fifo)
    if result is None:  # unblock the old loader's open() so the thread can end
        with open(fifo, "w", encoding="utf-8"):
            pass
    assert isinstance(result, PresetError), result
    assert "not a regular file" in one_line(result)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero on this system")
def test_rules_dev_zero_is_refused_at_once(tmp_path: Path) -> None:
    """A rules path that is /dev/zero (here behind a .toml symlink) used to be read until memory ran out."""
    link = tmp_path / "zero.toml"
    link.symlink_to("/dev/zero")
    for path in (link, Path("/dev/zero")):
        result = load_in_thread(path, seconds=5)
        assert isinstance(result, PresetError), (path, result)
        assert "not a regular file" in one_line(result)


def test_rules_file_larger_than_the_cap_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_bytes(b"# " + b"x" * MAX_RULES_FILE_BYTES + b"\ndecks = 2\n")
    with pytest.raises(PresetError, match="larger than"):
        Rules.load(str(path))


def test_a_folder_is_not_a_rules_file(tmp_path: Path) -> None:
    folder = tmp_path / "rules.toml"
    folder.mkdir()
    with pytest.raises(PresetError, match="a folder, not a regular file"):
        Rules.load(str(folder))


def test_rules_file_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    """Notepad's UTF-8 byte-order mark made the file 'not valid TOML'; it is skipped."""
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbfdecks = 2\n")
    assert Rules.load(str(path)).decks == 2


def test_rules_file_not_utf8_says_so(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes(b"description = 'caf\xe9'\n")
    with pytest.raises(PresetError, match="not UTF-8 text"):
        Rules.load(str(path))


@pytest.mark.parametrize(("text", "words"), [
    ("cut_card_from_back = 5\n", "cut_card_from_back must be a list of two whole numbers of cards, e.g. [61, 75], got 5"),
    ('cut_card_from_back = ["a", "b"]\n', 'cut_card_from_back must be a list of two whole numbers'),
    ("cut_card_from_back = [1, 2, 3]\n", "cut_card_from_back must be a list of two whole numbers"),
    ("decks = 1979-05-27\n", "decks must be a whole number, got the date 1979-05-27"),
    ("min_bet = 07:32:00\n", "min_bet must be a whole number or a string such as"),
    ("description = 5\n", "description must be text in quotes, got 5"),
    ("name = {a = 1}\n", "name must be text in quotes, got a table"),
    ('naturals = "yes"\n', "naturals must be true or false, got 'yes'"),
    ("decks = true\n", "decks must be a whole number, got true"),
    ("penetration = 0.75\n", 'penetration must be a whole number or a string such as "3/4" or "0.75", got 0.75'),
    ("decks = " + "9" * 100 + "\n", "decks must be 1..8, got a number of more than 36 digits"),
    ("decks = " + "9" * 5000 + "\n", "holds a number too long to read"),
    ("decks = [2]\n", "decks must be a whole number, got [2]"),
])
def test_rules_values_of_the_wrong_kind_are_one_line_in_the_fields_words(tmp_path: Path, text: str,
                                                                         words: str) -> None:
    """A value of the wrong type is named with its field and shown as the file wrote it, not as a Python repr
    ("'int' object is not iterable", "datetime.date(1979, 5, 27)"); description = 5 was accepted."""
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesError) as caught:
        Rules.load(str(path))
    message = one_line(caught.value)
    assert words in message and "bad.toml" in message
    assert "datetime" not in message and "object is not" not in message


def test_rules_built_in_python_check_description_and_cut_card() -> None:
    with pytest.raises(RulesError, match="description must be text"):
        Rules(description=5)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="cut_card_from_back must be"):
        Rules(penetration=None, cut_card_from_back=5)  # type: ignore[arg-type]


def test_a_name_no_file_can_have_is_an_unknown_preset() -> None:
    """A 5000-character --rules is not a path to stat (the old is_file() raised 'File name too long')."""
    with pytest.raises(PresetError) as caught:
        Rules.load("x" * 5000)
    assert "unknown preset" in one_line(caught.value)


@pytest.mark.parametrize("seat", [-1, True, 5, "0", 0.0, None])
def test_start_round_checks_the_seat_numbers(seat: object) -> None:
    """{-1: 10} bet for the last seat, {True: 10} for seat 1, {5: 10} raised IndexError, {'0': 10} TypeError."""
    game = Blackjack(["Ann", "Bob"], seed=1)
    with pytest.raises(InvalidBetError) as caught:
        game.start_round({seat: 10})  # type: ignore[dict-item]
    assert "seats are numbered 0 to 1" in one_line(caught.value)
    assert all(game.round is None or game.round.bet(i) == 0 for i in range(2))


def test_place_bet_and_clear_bet_check_the_seat() -> None:
    game = Blackjack(["Ann"], seed=1)
    rnd = game.new_round()
    with pytest.raises(BlackjackError, match="no seat -1"):
        rnd.place_bet(-1, 10)
    with pytest.raises(BlackjackError, match="no seat 1"):
        rnd.clear_bet(1)
    rnd.place_bet(0, 10)
    assert rnd.bet(0) == Fraction(10)


@pytest.mark.parametrize("seed", ["7", 7.0, True, b"7"])
def test_seed_must_be_an_int(seed: object) -> None:
    """A str seed was hashed and a float one taken as is: '7' and 7 replayed different games."""
    with pytest.raises(TypeError, match="seed must be an int"):
        Blackjack(["Ann"], seed=seed)  # type: ignore[arg-type]
    assert Blackjack(["Ann"], seed=7).shoe is not None
