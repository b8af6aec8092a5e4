"""The week-1 shuffle tests against shuffles a student writes into the milestone-1 starter.

The course's own algorithm ("for each card c: choose a random position p in the deck,
swap c with the card at position p") must lose the uniformity points with a message that
names it and says why it is biased; Fisher-Yates with the given rng must earn every
shuffle point; a shuffle that draws from the ``random`` module loses the rng point.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from milestones import REPO_ROOT
from milestones.config import suite_path
from milestones.grader.runner import Limits, run_suite
from milestones.starter import write_packages

POINT_TESTS = ("test_shuffle_is_a_permutation_of_its_input_in_place",
               "test_shuffle_draws_only_from_the_rng_it_is_given",
               "test_shuffle_makes_every_order_equally_likely")

COURSE = """\
    rand = rng if rng is not None else random.Random()
    for i in range(len(cards)):
        p = rand.randrange(len(cards))
        cards[i], cards[p] = cards[p], cards[i]
"""

FISHER_YATES = """\
    rand = rng if rng is not None else random.Random()
    for i in range(len(cards) - 1, 0, -1):
        j = rand.randint(0, i)
        cards[i], cards[j] = cards[j], cards[i]
"""

MODULE_RANDOM = """\
    for i in range(len(cards) - 1, 0, -1):
        j = random.randint(0, i)
        cards[i], cards[j] = cards[j], cards[i]
"""


def shuffle_results(tmp_path: Path, body: str) -> dict[str, tuple[str, str]]:
    """Write ``body`` as shuffle() into a milestone-1 starter and run the shuffle point tests on it."""
    write_packages(tmp_path, lambda region: region.milestone >= 1, REPO_ROOT)
    cards = tmp_path / "blackjack" / "cards.py"
    lines = cards.read_text(encoding="utf-8").splitlines()
    [stub] = [i for i, line in enumerate(lines) if line.startswith('    raise NotImplementedError("shuffle cards')]
    lines[stub:stub + 1] = body.rstrip("\n").splitlines()
    cards.write_text("\n".join(lines) + "\n", encoding="utf-8")
    folder = REPO_ROOT / suite_path(1)
    nodeids = [f"{suite_path(1)}/test_shuffle.py::{name}" for name in POINT_TESTS]
    run = run_suite(folder, tmp_path, limits=Limits(timeout=120), select=nodeids)
    return {nodeid.rsplit("::", 1)[1]: run.results.get(nodeid, ("not run", "")) for nodeid in nodeids}


def test_the_course_shuffle_loses_the_uniformity_points_with_the_reason(tmp_path: Path) -> None:
    """The course's swap-with-any-position shuffle keeps the cards and the seed but fails the chi-square test,
    and the message names the algorithm and the n**n versus n! reason."""
    results = shuffle_results(tmp_path, COURSE)
    outcome, message = results["test_shuffle_makes_every_order_equally_likely"]
    assert outcome == "failed", results
    for words in ("the shuffle is biased", "These counts fit the course's algorithm",
                  "swap each card with any position", "4**4 = 256", "4! = 24", "Fisher-Yates"):
        assert words in message, f"{words!r} not in {message!r}"
    assert results["test_shuffle_is_a_permutation_of_its_input_in_place"][0] == "passed", results
    assert results["test_shuffle_draws_only_from_the_rng_it_is_given"][0] == "passed", results


def test_fisher_yates_with_the_given_rng_earns_every_shuffle_point(tmp_path: Path) -> None:
    """A student's Fisher-Yates, drawing with rng.randint (not the reference's draws), passes all three."""
    results = shuffle_results(tmp_path, FISHER_YATES)
    assert all(outcome == "passed" for outcome, _ in results.values()), results


MODULE_SHUFFLE = """\
    random.shuffle(cards)
"""

OFF_BY_ONE = """\
    rand = rng if rng is not None else random.Random()
    for i in range(len(cards) - 1, 0, -1):
        j = rand.randint(0, len(cards))
        cards[i], cards[j] = cards[j], cards[i]
"""


def test_a_shuffle_past_the_last_position_is_told_that_randint_includes_its_end(tmp_path: Path) -> None:
    """rng.randint(0, len(cards)) reaches one past the last card: the message says randint includes b."""
    results = shuffle_results(tmp_path, OFF_BY_ONE)
    outcome, message = results["test_shuffle_is_a_permutation_of_its_input_in_place"]
    assert outcome == "failed", results
    for words in ("raised IndexError", "rng.randint(a, b) can return b itself", "rng.randrange(n)"):
        assert words in message, f"{words!r} not in {message!r}"


LAST_NEVER_MOVES = """\
    rand = rng if rng is not None else random.Random()
    for i in range(len(cards) - 2, 0, -1):
        j = rand.randint(0, i)
        cards[i], cards[j] = cards[j], cards[i]
"""

NEVER_ITSELF = """\
    rand = rng if rng is not None else random.Random()
    for i in range(len(cards) - 1, 0, -1):
        j = rand.randint(0, i - 1)
        cards[i], cards[j] = cards[j], cards[i]
"""


@pytest.mark.parametrize("body, words, not_words", [
    (LAST_NEVER_MOVES, ("4s (the last card) never moved in 4800 shuffles",
                        "every position must be able to receive every card"), ("stay put",)),
    (NEVER_ITSELF, ("no card ever stayed in its place in 4800 shuffles", "a card must be allowed to stay put"),
     ("never moved",)),
], ids=["last-card-never-moves", "never-itself"])
def test_a_shuffle_that_cannot_make_every_order_is_told_what_never_happened(
        tmp_path: Path, body: str, words: tuple[str, ...], not_words: tuple[str, ...]) -> None:
    """A loop that stops before the last card and a swap that never picks the card's own place both leave orders
    out; the message names what the shuffles showed (the last card never moved; no card stayed put) and the
    concept it breaks, not the other mistake."""
    results = shuffle_results(tmp_path, body)
    outcome, message = results["test_shuffle_makes_every_order_equally_likely"]
    assert outcome == "failed" and "never came up" in message, results
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    for word in not_words:
        assert word not in message, f"{word!r} in {message!r}"


@pytest.mark.parametrize("body", [MODULE_RANDOM, MODULE_SHUFFLE], ids=["random-module", "random-shuffle"])
def test_a_shuffle_that_ignores_its_rng_loses_the_rng_point(tmp_path: Path, body: str) -> None:
    """Fisher-Yates drawing from random.randint (the module) is uniform, but a seed does not replay it."""
    results = shuffle_results(tmp_path, body)
    outcome, message = results["test_shuffle_draws_only_from_the_rng_it_is_given"]
    assert outcome == "failed" and "never from random.randint, random.shuffle" in message, results
    assert results["test_shuffle_makes_every_order_equally_likely"][0] == "passed", results
