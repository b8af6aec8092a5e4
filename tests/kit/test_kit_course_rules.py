"""Every rule of the course and of the kit's rules is worth points (issue 29 item 1).

Tried as a student would, these mistakes once lost 0 points: their only tests carried
``points(0)`` or did not exist. Each is planted here in a copy of the reference (one
solution region's body replaced with :func:`make_samples.replace_body`), the copy is graded
on its milestone's whole suite by the grader (:class:`milestones.grader.grading.Grader`, hidden
tests included), and the test asserts that

* the mistake loses course points, all of them in the part the rule belongs to (one
  mistake costs its own points, not another part's);
* the test named in the table, which carries points, fails, with a message that names the
  rule: what was given, what it should be, what came back, and the concept, in the words
  listed (never a line of pytest's own explanation).

A later change that drops a rule's points or its test fails here. The demo's judgement of
the same mistakes (``differs: the dealer drew on soft 17 under S17 rules``) is
``tests/kit/test_kit_demo.py``'s.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest
from make_samples import replace_body

from milestones import REPO_ROOT
from milestones.grader.grading import Grader, TestScore, find_submissions
from milestones.regions import scan
from milestones.grader.runner import Limits
from milestones.starter import write_packages

pytestmark = pytest.mark.slow  # seven grades of a whole milestone: about 35 s in all, up to 9 s each

#: An edit of the reference body: ``(old, new)``, ``old`` found exactly once in the region's body.
Edit = tuple[str, str]


class Mistake(NamedTuple):
    """A mistake planted in ``module``'s ``function``; ``test`` (``file::name`` in milestone ``milestone``'s suite)
    must fail with every one of ``words`` in its message.

    The region's body is replaced by ``body`` (lines, unindented) or, with ``edit``, by the reference body with
    that one edit made.
    """

    milestone: int
    module: str
    function: str
    test: str
    words: tuple[str, ...]
    body: tuple[str, ...] = ()
    edit: Edit | None = None


MISTAKES: dict[str, Mistake] = {
    "the dealer hits soft 17 under S17 rules": Mistake(
        1, "blackjack/player.py", "Dealer.should_hit", "test_player.py::test_dealer_soft_17_follows_the_rules",
        ("under S17 [As 6d] should be False, got True", "must stand on 17 or more"),
        body=("score = self.hand.get_score()", "return score < 17 or (score == 17 and self.hand.is_soft())")),
    "the dealer stands on soft 17 under H17 rules": Mistake(
        1, "blackjack/player.py", "Dealer.should_hit", "test_player.py::test_dealer_soft_17_follows_the_rules",
        ("under H17 [As 6d] should be True, got False", "must hit a soft 17"),
        body=("return self.hand.get_score() < 17",)),
    "a three-card 21 counted as a natural": Mistake(
        1, "blackjack/hand.py", "Hand.is_blackjack",
        "test_hand.py::test_is_blackjack_only_for_two_card_21_not_from_split",
        ("[5s 6d Th] should be False, got True", "a 21 of three cards", "not a natural"),
        body=("return not self.from_split and self.get_score() == 21",)),
    "any hand with an ace counted soft": Mistake(
        1, "blackjack/hand.py", "Hand.is_soft", "test_hand.py::test_is_soft_when_an_ace_counts_11",
        ("[As 6d 9h] should be False, got True", "soft only while one of its aces is counted as 11"),
        body=("return any(card.value == 1 for card in self._cards)",)),
    "a double offered with no bankroll left": Mistake(
        2, "blackjack/plays.py", "why_not_double",
        "test_advanced_play.py::test_double_and_split_need_the_bankroll_to_match_the_bet",
        ("a double down needs a second stake equal to the bet", "DOUBLE should not be offered"),
        edit=("if bankroll < bet:\n    return f\"doubling", "if False:\n    return f\"doubling")),
    "a K-Q split under rank rules": Mistake(
        2, "blackjack/plays.py", "why_not_split", "test_advanced_play.py::test_a_k_q_split_only_when_the_rules_split_by_value",
        ("vegas splits by rank", "K-Q is no pair"),
        edit=("if not hand.is_pair(by=rules.split_by):", "if hand[0].value != hand[1].value:")),
    "a hint that says hit on a hard 17": Mistake(
        2, "blackjack/hints/advice.py", "basic_advice", "test_hints_basic.py::test_hint_never_hits_a_hard_17_or_more",
        ("hard 17", "said HIT"),
        edit=("elif total >= 17:\n    action = Action.STAND\n",
              "elif total >= 17:\n    action = Action.HIT if total == 17 else Action.STAND\n")),
}


def planted_body(mistake: Mistake) -> list[str]:
    """The lines (unindented) that replace the region's body: the mistake's own, or the reference body edited."""
    if mistake.edit is None:
        return list(mistake.body)
    [region] = [r for r in scan(REPO_ROOT) if r.module == mistake.module and r.qualname == mistake.function]
    body = "\n".join(line[len(region.indent):] for line in region.body.splitlines())
    old, new = mistake.edit
    assert body.count(old) == 1, f"{old!r} should occur once in the reference's {mistake.function}"
    return body.replace(old, new).splitlines()


@pytest.fixture(scope="module")
def grader() -> Grader:
    """One grader for the module: each milestone's tests are collected on the reference once."""
    return Grader(limits=Limits(timeout=300, test_timeout=20))


@pytest.mark.parametrize("name", MISTAKES)
def test_a_course_rule_broken_loses_points_with_a_message_naming_it(name: str, grader: Grader,
                                                                      tmp_path: Path) -> None:
    """The planted mistake loses course points, only in its rule's part, and the rule's test says which rule."""
    mistake = MISTAKES[name]
    folder = tmp_path / "submission"
    write_packages(folder, lambda region: False, REPO_ROOT)
    replace_body(folder, mistake.module, mistake.function, planted_body(mistake))
    [grade] = grader.grade(find_submissions([folder], tmp_path / "scratch"), [mistake.milestone])
    [milestone] = grade.milestones
    tests: dict[str, TestScore] = {t.record.name: t for t in milestone.tests}
    assert mistake.test in tests, f"{name}: {mistake.test} is not in milestone {mistake.milestone}'s suite"
    graded = tests[mistake.test]
    assert graded.max_score > 0, f"{name}: {mistake.test} carries no points"
    assert graded.outcome == "failed", f"{name}: {mistake.test} {graded.outcome}: {graded.message}"
    missing = [words for words in mistake.words if words not in graded.message]
    assert not missing, f"{name}: {missing} not in {mistake.test}'s message: {graded.message}"
    assert "\nassert " not in graded.message and "Traceback" not in graded.message, graded.message
    lost = {t.record.name: t.max_score - t.score for t in milestone.tests if t.score < t.max_score}
    assert sum(lost.values()) > 0, f"{name} lost no points"
    elsewhere = [test for test in lost if tests[test].record.part != graded.record.part]
    assert not elsewhere, f"{name} is a {graded.record.part} rule but cost points in other parts: {elsewhere}"
