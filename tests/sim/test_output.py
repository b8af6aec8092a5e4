"""The text report a person reads: the true-count table past a million rounds, and the risk of ruin's error."""

from __future__ import annotations

import math

from blackjack.sim import simulate
from blackjack.sim.output import _true_count_table, text_report
from blackjack.sim.stats import Report, Tally


def big_count_report() -> Report:
    """A hi-lo-like tally of 40 million rounds, with counts at both clamped ends."""
    tally = Tally(rounds=40_000_000, seat_rounds=40_000_000, sx=-1e5, sb=6e7, sxx=6e7, sbb=2e8, sxb=1e5,
                  su=-1e5, suu=5e7)
    tally.counts = {-10: [12_345, -100.0, 12_345.0], -1: [9_876_543, -5e4, 9.9e6], 0: [23_456_789, -9e4, 2.4e7],
                    3: [6_000_000, 2e4, 2.4e7], 10: [311_323, 3e3, 2.5e6]}
    return Report.from_tally(tally, "hi-lo", "vegas")


def test_true_count_columns_stay_aligned_past_a_million_rounds() -> None:
    lines = _true_count_table(big_count_report().by_true_count)
    assert len({len(line) for line in lines}) == 1, "\n".join(lines)
    header = lines[0]
    for name in ("rounds", "share", "avg bet", "EV"):  # each column's entries end where its heading ends
        end = header.index(name) + len(name)
        assert all(line[end - 1] != " " and (end == len(line) or line[end] == " ") for line in lines), name
    assert "23,456,789" in lines[3]


def test_the_end_buckets_say_or_less_and_or_more() -> None:
    lines = _true_count_table(big_count_report().by_true_count)
    assert lines[1].split()[:3] == ["-10", "or", "less"]
    assert lines[-1].split()[:3] == ["+10", "or", "more"]
    assert lines[2].split()[0] == "-1" and lines[3].split()[0] == "+0"


def test_risk_of_ruin_names_the_sessions_its_error_needs() -> None:
    """Too few sessions: the report says the error is over a quarter of the risk and how many would do."""
    [report] = simulate("basic", "vegas", hands=20_000, seed=1, sessions=40, bankroll=40)
    ror = report.risk_of_ruin
    assert ror is not None and 0 < ror["risk"] < 1
    p = ror["risk"]
    assert ror["risk_se"] == math.sqrt(p * (1 - p) / 40)
    needed = math.ceil(16 * (1 - p) / p)
    assert ror["sessions_for_quarter_se"] == needed
    assert math.sqrt(p * (1 - p) / needed) <= p / 4 < math.sqrt(p * (1 - p) / (needed - 1))
    text = text_report([report])
    assert f"(standard error {ror['risk_se'] * 100:.2f}%)" in text
    assert ror["risk_se"] > p / 4 and "too few sessions" in text and f"--sessions {needed:,} or more" in text


def test_enough_sessions_give_no_warning_and_no_ruin_says_the_rule_of_three() -> None:
    [tight] = simulate("always-stand", "vegas", hands=20_000, seed=1, sessions=400, bankroll=10)
    assert tight.risk_of_ruin is not None and tight.risk_of_ruin["risk_se"] * 4 <= tight.risk_of_ruin["risk"]
    assert "too few sessions" not in text_report([tight])
    [safe] = simulate("basic", "vegas", hands=4_000, seed=1, sessions=40, bankroll=500)
    assert safe.risk_of_ruin is not None and safe.risk_of_ruin["risk"] == 0
    assert "no session was ruined: the risk is likely under 7.50%" in text_report([safe])
