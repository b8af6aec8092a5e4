"""Exact EVs worked out ahead on a background thread (blackjack.hints.ahead) and hint(..., ahead=)."""

from __future__ import annotations

import doctest
import gc
import threading
from collections.abc import Iterator

import pytest

from blackjack import Action, Blackjack, EmptyShoeError, Rules
from blackjack.coach import Coach
from blackjack.hints import _player, _work, advice, ahead, expected_values, hint
from blackjack.hints.ahead import Ahead, Decision
from blackjack.hints.probability import full_shoe, without

VEGAS = Rules.preset("vegas")
ONE_DECK = {1: 4, 2: 4, 3: 4, 4: 4, 5: 4, 6: 4, 7: 4, 8: 2, 9: 4, 10: 15}  # 8-8 v 10 dealt from one deck


def view_for(codes: str, rules: Rules = VEGAS):  # type: ignore[no-untyped-def]
    """A one-seat round dealt from a stacked shoe: player, upcard, player, hole card."""
    game = Blackjack(["Ann"], rules, seed=1)
    game.shoe.stack(codes.split())
    return game.start_round([10]).view()


@pytest.fixture
def worker() -> Iterator[Ahead]:
    with Ahead() as it:
        yield it


class Gate:
    """Stands in for Decision.expected_values: spends work units until released (or stopped by its budget)."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()
        self.stopped = threading.Event()

    def __call__(self, *_args: object, **_kwargs: object) -> dict[Action, float]:
        """Set on the class, it is called without the Decision (not a function, so not bound)."""
        self.started.set()
        try:
            while not self.release.wait(0.001):
                _work.spend(1)  # raises OutOfWork once the worker's budget is stopped
        except _work.OutOfWork:
            self.stopped.set()
            raise
        return {Action.STAND: 0.25}


def test_the_module_example_runs() -> None:
    result = doctest.testmod(ahead)
    assert result.attempted >= 4 and result.failed == 0


@pytest.mark.parametrize("cards, up, unseen", [
    ((8, 8), 10, ONE_DECK),
    ((10, 6), 9, without(full_shoe(6), [10, 6, 9])),
    ((1, 7), 1, without(full_shoe(2), [1, 7, 1])),
    ((2, 2), 6, without(full_shoe(6), [2, 2, 6])),
])
def test_the_worker_gives_the_exact_evs(worker: Ahead, cards: tuple[int, int], up: int,
                                        unseen: dict[int, int]) -> None:
    decision = Decision.of(cards, up, unseen, VEGAS)
    worker.start(decision)
    got = worker.evs(decision, wait=None)
    assert got == expected_values(list(cards), up, unseen, VEGAS)
    assert not worker.pending(decision)


def test_a_view_and_its_inputs_make_the_same_decision() -> None:
    """Decision.from_view reads what hint() reads; the insurance question and the play after it are one decision."""
    view = view_for("8h Ac 8d 9s")
    decision = Decision.from_view(view)
    assert decision is not None
    assert decision == Decision.of(list(view.current_hand.cards), 1, view.unseen_counts, VEGAS)
    assert Decision.from_view(view_for("8h Ac 8d 9s")) == decision  # equal, so it can be found again
    assert Decision.from_view(view_for("Th 6c 6d 9s")) != decision


def test_hint_takes_the_worked_out_evs(worker: Ahead) -> None:
    view = view_for("2h 2c 2d 9s", Rules.preset("vegas"))
    worker.start(Decision.from_view(view))
    got = hint(view, ahead=worker, wait=None)
    want = hint(view, exact=True)
    assert got.exact and got.evs == want.evs and got.action is want.action


def test_another_decision_is_not_answered_from_the_worker(worker: Ahead) -> None:
    first = Decision.of((8, 8), 10, ONE_DECK)
    other = Decision.of((8, 8), 9, ONE_DECK)
    worker.start(first)
    assert worker.evs(other, wait=None) is None and not worker.pending(other)
    assert worker.evs(first, wait=None) is not None


def test_a_new_decision_stops_the_old_computation(worker: Ahead, monkeypatch: pytest.MonkeyPatch) -> None:
    gate = Gate()
    monkeypatch.setattr(Decision, "expected_values", gate)
    first = Decision.of((8, 8), 10, ONE_DECK)
    worker.start(first)
    assert gate.started.wait(5)
    assert worker.pending(first)
    second = Decision.of((8, 8), 9, ONE_DECK)
    worker.start(second)
    assert gate.stopped.wait(5), "the old computation went on after a new decision began"
    assert worker.evs(first, wait=None) is None
    gate.release.set()
    assert worker.evs(second, wait=None) == {Action.STAND: 0.25}


def test_starting_the_same_decision_again_keeps_its_computation(worker: Ahead,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    gate = Gate()
    monkeypatch.setattr(Decision, "expected_values", gate)
    decision = Decision.of((8, 8), 10, ONE_DECK)
    worker.start(decision)
    assert gate.started.wait(5)
    worker.start(Decision.of((8, 8), 10, dict(ONE_DECK)))
    assert not gate.stopped.is_set()
    gate.release.set()
    assert worker.evs(decision, wait=None) == {Action.STAND: 0.25}


def test_still_running_after_the_wait_the_approximation_answers(worker: Ahead,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    gate = Gate()
    monkeypatch.setattr(Decision, "expected_values", gate)
    cards = list(view_for("8h Tc 8d 9s").current_hand.cards)
    decision = Decision.of(cards, 10, ONE_DECK, VEGAS)
    worker.start(decision)
    assert gate.started.wait(5)
    evs, exact = advice.hint_evs(cards, 10, ONE_DECK, VEGAS, ahead=worker, wait=0.01)
    assert not exact
    assert evs == expected_values(cards, 10, ONE_DECK, VEGAS, exact=False)
    gate.release.set()
    assert worker.evs(decision, wait=None) == {Action.STAND: 0.25}  # and it went on for whoever waits


def test_a_decision_not_begun_gets_the_budgeted_answer(worker: Ahead) -> None:
    """Without a begun decision, ahead= changes nothing: the work budget decides, as without it."""
    cards = [8, 8]
    with_worker = advice.hint_evs(cards, 10, ONE_DECK, VEGAS, ahead=worker)
    _player.clear_caches()
    assert with_worker == advice.hint_evs(cards, 10, ONE_DECK, VEGAS)


def test_an_error_is_raised_by_the_callers_own_computation(worker: Ahead) -> None:
    """Cards that can run out: the worker's EmptyShoeError is not kept; the hint raises it as without a worker."""
    small = {2: 2}  # the dealer's 2 draws both and still needs cards
    decision = Decision.of((9, 7), 2, small, VEGAS)
    worker.start(decision)
    assert worker.evs(decision, wait=None) is None
    with pytest.raises(EmptyShoeError):
        advice.hint_evs([9, 7], 2, small, VEGAS, ahead=worker)
    with pytest.raises(EmptyShoeError):
        expected_values([9, 7], 2, small, VEGAS)


def test_close_ends_the_thread_and_leaves_an_inert_worker() -> None:
    before = {t.name for t in threading.enumerate()}
    worker = Ahead()
    decision = Decision.of((8, 8), 10, ONE_DECK)
    worker.start(decision)
    assert worker.evs(decision, wait=None) is not None
    worker.close()
    worker.close()  # twice is fine
    for thread in threading.enumerate():
        if thread.name.startswith("hint-ahead") and thread.name not in before:
            thread.join(5)
            assert not thread.is_alive()
    worker.start(decision)
    assert worker.evs(decision, wait=None) is None and not worker.pending(decision)
    assert advice.hint_evs([8, 8], 10, ONE_DECK, VEGAS, ahead=worker)[1]  # the caller still gets an answer


def test_the_collector_is_back_on_after_the_worker(worker: Ahead) -> None:
    assert gc.isenabled()
    decision = Decision.of((8, 8), 10, ONE_DECK)
    worker.start(decision)
    worker.evs(decision, wait=None)
    assert gc.isenabled()


class TestCoach:
    """The text game's coach prepares each decision and judges with the exact EVs."""

    def test_prepared_hint_and_verdict_are_exact(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(advice, "EXACT_WORK_BUDGET", 0)  # without the worker, every hint would fall back
        coach = Coach(VEGAS, tips=False)
        try:
            view = view_for("2h 2c 2d 9s")
            coach.prepare(view)
            exact = hint(view, exact=True)
            assert coach.judge(view, exact.action) == "Coach: good move."
            text = coach.hint_text(view)
            assert f"Hint: {exact.action.value}." in text and "(CDP1)" in text
        finally:
            coach.close()

    def test_without_prepare_the_budget_decides(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(advice, "EXACT_WORK_BUDGET", 0)
        coach = Coach(VEGAS, tips=False)
        try:
            text = coach.hint_text(view_for("2h 2c 2d 9s"))
            assert "approximate" in text
        finally:
            coach.close()


def test_prepare_with_unwritten_course_code_begins_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A student's starter whose Card.get_value is not written: prepare() leaves nothing begun, no error."""
    from blackjack.cards import Card
    view = view_for("2h 2c 2d 9s")

    def unwritten(self: Card) -> int:
        raise NotImplementedError("get_value: not written yet")

    monkeypatch.setattr(Card, "get_value", unwritten)
    coach = Coach(VEGAS, tips=False)
    try:
        coach.prepare(view)
        assert coach._ahead._job is None
    finally:
        coach.close()
