"""Solution regions: finding, stubbing and restoring marked function bodies."""

from __future__ import annotations

from pathlib import Path

import pytest

from milestones import REPO_ROOT
from milestones.regions import (FUNCTIONS_FILE, RegionError, find_regions, functions_json, restore_source, scan,
                                split_functions, stub_source)

SOURCE = '''class Hand:
    def get_score(self) -> int:
        """Return the best total."""
        # BEGIN SOLUTION m1: add up the card values
        total = 21
        return total
        # END SOLUTION

    def bet(self, amount: int) -> int:
        """Check a bet."""
        # BEGIN SOLUTION m2: reject a "bad" bet
        return amount
        # END SOLUTION
'''


def test_find_regions_reads_tag_hint_and_qualname() -> None:
    """Each region gives its function's qualname, its milestone and what to do."""
    regions = find_regions(SOURCE, "hand.py")
    assert [(r.qualname, r.milestone, r.hint) for r in regions] == [
        ("Hand.get_score", 1, "add up the card values"), ("Hand.bet", 2, 'reject a "bad" bet')]


def test_stub_keeps_signature_and_docstring() -> None:
    """A stubbed body becomes one raise line after the untouched signature and docstring."""
    stubbed = stub_source(SOURCE, "hand.py", lambda r: r.milestone == 1)
    assert ('    def get_score(self) -> int:\n        """Return the best total."""\n'
            '        raise NotImplementedError("add up the card values")\n') in stubbed
    assert "total = 21" not in stubbed
    assert "# BEGIN SOLUTION m2" in stubbed and "return amount" in stubbed


def test_stub_escapes_quotes_in_the_hint() -> None:
    """A hint with double quotes still gives valid Python with the same message."""
    stubbed = stub_source(SOURCE, "hand.py", lambda r: True)
    namespace: dict[str, object] = {}
    exec(compile(stubbed, "hand.py", "exec"), namespace)
    hand = namespace["Hand"]()  # type: ignore[operator]
    with pytest.raises(NotImplementedError, match='reject a "bad" bet'):
        hand.bet(5)


def test_restore_puts_reference_bodies_into_student_functions() -> None:
    """Restoring into a stubbed module brings back the reference body of the chosen function only."""
    stubbed = stub_source(SOURCE, "hand.py", lambda r: True)
    regions = [r for r in find_regions(SOURCE, "hand.py") if r.milestone == 1]
    restored, missing = restore_source(stubbed, regions)
    namespace: dict[str, object] = {}
    exec(compile(restored, "hand.py", "exec"), namespace)
    hand = namespace["Hand"]()  # type: ignore[operator]
    assert missing == []
    assert hand.get_score() == 21
    with pytest.raises(NotImplementedError):
        hand.bet(5)


def test_restore_reports_a_missing_function() -> None:
    """A student module without the function leaves it missing and says so."""
    regions = find_regions(SOURCE, "hand.py")
    _, missing = restore_source("class Hand:\n    pass\n", regions)
    assert missing == ["Hand.get_score", "Hand.bet"]


@pytest.mark.parametrize("source, problem", [
    ("def f():\n    # BEGIN SOLUTION m1: x\n    return 1\n", "without an END"),
    ("def f():\n    return 1\n    # END SOLUTION\n", "without a BEGIN"),
    ("def f():\n    # BEGIN SOLUTION: x\n    return 1\n    # END SOLUTION\n", "m<N>"),
    ("# BEGIN SOLUTION m1: x\nX = 1\n# END SOLUTION\n", "inside a function"),
    ("def f():\n    # BEGIN SOLUTION m1: x\n    y = 1\n    # END SOLUTION\n    return y\n", "whole rest"),
])
def test_malformed_markers_are_rejected(source: str, problem: str) -> None:
    """A marker that breaks the convention raises RegionError naming the problem."""
    with pytest.raises(RegionError, match=problem):
        find_regions(source, "bad.py")


def test_reference_regions_all_follow_the_convention() -> None:
    """Every region in the reference parses, has a hint, and a milestone the course knows."""
    regions = scan(REPO_ROOT)
    assert regions, "the reference has no solution regions"
    assert all(r.hint and r.milestone in (1, 2, 3) for r in regions)


def test_split_functions_reads_the_kits_list_or_the_reference(tmp_path: Path) -> None:
    """A kit with milestones/functions.json is read from it; without one the regions decide; a corrupt list
    gives empty sets (it only helps a message) instead of stopping the test run."""
    (tmp_path / "blackjack").mkdir()
    (tmp_path / "blackjack" / "hand.py").write_text(SOURCE + "\n    def add(self):\n        def inner():\n"
                                                    "            pass\n", encoding="utf-8")
    student = {("blackjack/hand.py", "Hand.get_score"), ("blackjack/hand.py", "Hand.bet")}
    assert split_functions(tmp_path) == (student, {("blackjack/hand.py", "Hand.add"),
                                                   ("blackjack/hand.py", "Hand.add.inner")})
    (tmp_path / "milestones").mkdir()
    listed = tmp_path / "milestones" / FUNCTIONS_FILE
    listed.write_text(functions_json(tmp_path), encoding="utf-8")
    (tmp_path / "blackjack" / "hand.py").write_text("class Hand:\n    pass\n", encoding="utf-8")  # markers gone
    assert split_functions(tmp_path)[0] == student
    listed.write_text("{not json", encoding="utf-8")
    assert split_functions(tmp_path) == (frozenset(), frozenset())
