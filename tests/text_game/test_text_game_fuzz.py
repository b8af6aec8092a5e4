"""Random typing at the terminal game, on every preset: no traceback ever, and the money adds up.

Hypothesis types lines drawn from what a player might type (moves, bets, commands, junk,
empty lines, huge numbers) and then closes the input. The game must end normally, and
the session summary must balance: what the players won, the house lost.
"""

from __future__ import annotations

import io
import re
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blackjack import Rules
from blackjack.__main__ import main

WORDS = ["h", "s", "d", "p", "r", "i", "n", "y", "hit", "stand", "double", "split", "surrender", "insurance",
         "hint", "count", "chart", "help", "i 1", "i 0", "i 99", "10", "5", "1", "25", "500", "0", "-5", "7.5",
         "1e9", "9" * 40, "ten", "", " ", "zz", "\t", "h s", "quit?", "Ann,Bob", "3", "7", "8"]
#: What players type most: moves, yes to another round, a bet, Enter for the same bet again.
COMMON = ["h", "s", "y", "10", "", "d", "p", "i", "n", "r"]
TYPED = COMMON * 5 + WORDS
NET = re.compile(r"^  (?P<name>.+?): \d+ rounds?; .* bankroll \S+ \((?P<net>[+-]?[\d.]+)\)", re.M)
HOUSE = re.compile(r"^  House: (?P<net>[+-]?[\d.]+)$", re.M)


@pytest.mark.parametrize("preset", Rules.preset_names())
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(st.sampled_from(TYPED), max_size=80), seed=st.integers(0, 10_000),
       players=st.integers(1, 3), rounds=st.sampled_from([None, 4, 8]))
def test_random_typing_never_crashes_and_the_money_balances(preset: str, lines: list[str], seed: int,
                                                             players: int, rounds: int | None) -> None:
    out = io.StringIO()
    args = ["--rules", preset, "--full", "--seed", str(seed), "--players", str(players), "--plain", "--no-tips"]
    if rounds is not None:  # play on without "another round?", so more rounds meet the junk
        args += ["--rounds", str(rounds)]
    status = main(args, stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out)
    text = out.getvalue()
    assert status == 0, text[-2000:]
    assert "Traceback" not in text and "Error" not in text, text[-2000:]
    assert "Session summary:" in text
    house = HOUSE.search(text)
    if house is not None:  # tables with money: every credit one side won, the other lost
        nets = [Decimal(m["net"]) for m in NET.finditer(text)]
        assert len(nets) == players, text[-2000:]
        assert sum(nets) == -Decimal(house["net"]), text[-2000:]
