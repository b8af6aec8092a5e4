"""Observations for test_advanced_play.py, run in the student's process: rounds dealt from stacked shoes and played
step by step with the given ``Round.apply`` (which calls the student's ``blackjack/plays.py`` for what the rules
allow and for the double down, the split and insurance),
told back as plain data, money exact through ``number()`` (docs/design/graded_test_shape.md).

A round is described by the same arguments everywhere: ``codes`` (the stacked cards, in deal order), ``players``
(names; none: Ann alone), ``rules`` (a preset's name, or ``{"preset": ..., field: value}``), ``seed``, ``bets``
(None: the default bets), ``parts`` (the mechanics of ``blackjack/plays.py`` this test does not grade, played by
the suite's given parts: ``"split"``, ``"deal_split_card"``, ``"double_down"``) and ``steps``, each ``[action, amount]`` (an action's value, ``"hit"``; the amount only
for insurance) or ``["finish"]`` (stand every open hand, declining insurance, until the round is settled).

Every round here settles its money with the suite's given money moves (``observe_given``: ``check_bet``,
``take_stake``, ``payout`` and ``pay``), not the student's wagering: a mistake in wagering costs wagering's
points, and these tests see only the mechanics of ``blackjack/plays.py``.
"""

from __future__ import annotations

from typing import Any

from blackjack import Action, Blackjack, Round
from blackjack.plays import insurance_limit
from observe_given import MONEY, given
from milestones.grader.observer import capture, number
from observe_m2 import bets_arg, events_data, money_arg, round_state, rules_from, scripted, snapshot, stand_all, table


def _take(rnd: Round, step: list[Any]) -> tuple[object, ...]:
    """Take one step; the events it caused."""
    if step[0] == "finish":
        stand_all(rnd)
        return ()
    amount = step[1] if len(step) > 1 else None
    return rnd.apply(Action(step[0]), None if amount is None else money_arg(amount))  # type: ignore[arg-type]


def _round(codes: str, players: list[Any], rules: Any, seed: int, bets: list[Any] | None,
           steps: list[list[Any]]) -> tuple[Blackjack, Round]:  # called inside given(...)
    game = table(codes, players, rules, seed)
    rnd = game.start_round(bets_arg(bets))
    for step in steps:
        _take(rnd, step)
    return game, rnd


def play(codes: str, players: list[Any], rules: Any, seed: int, bets: list[Any] | None, parts: list[str],
         steps: list[list[Any]]) -> list[dict[str, object]]:
    """The round after ``start_round`` and after each step: phase, turn, legal actions (when a decision is pending),
    hands, bets, insurance, settled hands, bankrolls, and the events of the step."""
    with given(*MONEY, *parts):
        game = table(codes, players, rules, seed)
        rnd = game.start_round(bets_arg(bets))
        states = [{**round_state(game, rnd, legal=True), "events": []}]
        for step in steps:
            events = _take(rnd, step)
            states.append({**round_state(game, rnd, legal=True), "events": events_data(events)})
        return states


def refuse(codes: str, players: list[Any], rules: Any, seed: int, bets: list[Any] | None, parts: list[str],
           steps: list[list[Any]], action: str, amount: object = None) -> dict[str, object]:
    """After the steps, ``apply(action, amount)`` (which should be refused: its exception comes back as the student's);
    if it is accepted, the round after it."""
    with given(*MONEY, *parts):
        game, rnd = _round(codes, players, rules, seed, bets, steps)
        rnd.apply(Action(action), None if amount is None else money_arg(amount))  # type: ignore[arg-type]
        return round_state(game, rnd)


def around_refusal(codes: str, players: list[Any], rules: Any, seed: int, bets: list[Any] | None, parts: list[str],
                   steps: list[list[Any]], action: str, amount: object = None) -> dict[str, object]:
    """As :func:`refuse`, the action's exception swallowed: the table (view, history, bankrolls, shoe, phase, turn)
    just before the refused action and just after it."""
    with given(*MONEY, *parts):
        game, rnd = _round(codes, players, rules, seed, bets, steps)
        before = snapshot(game, rnd)
        try:
            rnd.apply(Action(action), None if amount is None else money_arg(amount))  # type: ignore[arg-type]
        except Exception:  # noqa: BLE001, S110 - the judge has checked the refusal; this reads what it left
            pass
        return {"before": before, "after": snapshot(game, rnd)}


def printed(codes: str, players: list[Any], rules: Any, seed: int, bets: list[Any] | None, parts: list[str],
            steps: list[list[Any]]) -> str:
    """What dealing the round and taking the steps printed."""
    with given(*MONEY, *parts):
        return capture(_round, codes, players, rules, seed, bets, steps)[1]


def seat(names: list[str], rules: Any) -> int:
    """Seat ``names`` at a new table of ``rules``: how many players it holds (an exception comes back as it is)."""
    with given(*MONEY):
        return len(Blackjack(names, rules_from(rules)).players)


def limit(codes: str, players: list[Any], rules: Any, seed: int, bets: list[Any] | None, parts: list[str]) -> object:
    """``Round.insurance_limit()`` once the round is dealt (None when no insurance offer is open)."""
    with given(*MONEY, *parts):
        _game, rnd = _round(codes, players, rules, seed, bets, [])
        return number(rnd.insurance_limit())


def insurance_limits(cases: list[list[Any]]) -> list[object]:
    """The student's ``insurance_limit(bet, bankroll)`` of each ``[bet, bankroll]`` as sent (ints stay ints, as the
    simulator stakes them)."""
    return [number(insurance_limit(money_arg(bet), money_arg(bankroll))) for bet, bankroll in cases]  # type: ignore[arg-type]


#: The given parts under the course game's round with money: every function but ``play_money_round`` and the
#: rules of ``blackjack/plays.py`` (``why_not_double``, ``why_not_split``), which make the offers.
GAME_PARTS = (*MONEY, "double_down", "split", "deal_split_card", "insurance_limit", "insurance_net", "ask_bet",
              "take_bets", "ask_move")


def moves_asked(offered: list[str], answers: list[str]) -> dict[str, object]:
    """``course_game.ask_move("Ann", offered, ask, say)`` answered ``answers``; ``returned``: the Action's value."""
    import blackjack.course_game as course_game

    return scripted(course_game.ask_move, answers, "Ann", frozenset(Action(a) for a in offered),
                    convert=lambda a: a.value if isinstance(a, Action) else f"(not an Action: {a!r:.100})")


def _ends(value: object) -> object:
    """``[[seat, hand, result name, net], ...]`` of finish_round's list; a repr of anything else."""
    try:
        return [[seat, hand, outcome.result.name, number(outcome.net)] for seat, hand, outcome in value]  # type: ignore[attr-defined]
    except (TypeError, ValueError, AttributeError):
        return repr(value)[:200]


def money_round(codes: str, players: list[Any], answers: list[str]) -> dict[str, object]:
    """``course_game.play_money_round`` at the course's table with money (``cs111_money``) dealt from ``codes``,
    answered ``answers``, :data:`GAME_PARTS` given; ``returned``: the hands' ends; ``bankrolls`` after it."""
    import blackjack.course_game as course_game

    with given(*GAME_PARTS):
        game = table(codes, players, "cs111_money", 1)
        got = scripted(course_game.play_money_round, answers, game, convert=_ends)
        return {**got, "bankrolls": [number(player.bankroll) for player in game.players]}


def money_command_line(argv: list[str], typed: str) -> dict[str, object]:
    """``python -m blackjack ARGV`` (``main(argv, stdin, stdout)``) with ``typed`` on stdin, the shoe of given
    cards, :data:`GAME_PARTS` given: the status and what it wrote."""
    import io

    from blackjack.__main__ import main
    from milestones.grader.observer import given_cards

    stdin, stdout = io.StringIO(typed), io.StringIO()
    with given(*GAME_PARTS), given_cards():
        status, printed = capture(main, argv, stdin, stdout)
    return {"status": status, "out": stdout.getvalue()[:20000], "printed": printed}
