"""Observations for test_wagering.py, run in the student's process: tables stacked from given classes, bets placed
and rounds played (the student's ``Player.check_bet`` and ``wagers.payout`` run where the round calls them), the
money returned exact through ``number()`` (docs/design/graded_test_shape.md)."""

from __future__ import annotations

import random
from typing import Any

from blackjack import Action, Blackjack, Round, TableView
from milestones.observer import capture, number
from observe_m2 import bets_arg, money_arg, round_state, stand_all, table


def _betting(rules: str | dict[str, Any], seed: int, players: list[Any], earlier: list[Any]) -> tuple[Blackjack, Round]:
    """A new round at a table of ``players`` (Ann alone when empty), seat 0 having placed the bets ``earlier`` in turn."""
    game = table("", players, rules, seed)
    rnd = game.new_round()
    for bet in earlier:
        rnd.place_bet(0, money_arg(bet))  # type: ignore[arg-type]
    return game, rnd


def _bet_state(game: Blackjack, rnd: Round, bankroll_before: object) -> dict[str, object]:
    return {"bet": number(rnd.bet(0)), "bankroll_before": bankroll_before,
            "bankroll": number(game.players[0].bankroll), "phase": rnd.phase.value}


def seated(rules: str | dict[str, Any], seed: int, players: list[Any]) -> list[object]:
    """The bankrolls of the players at a new table."""
    return [number(p.bankroll) for p in table("", players, rules, seed).players]


def place_bet(rules: str | dict[str, Any], seed: int, players: list[Any], earlier: list[Any],
              bet: object) -> dict[str, object]:
    """``place_bet(0, bet)`` on a new round (after the bets ``earlier``); seat 0's bet, its bankroll before and after,
    and the phase. An exception (a refused bet) comes back as the student's."""
    game, rnd = _betting(rules, seed, players, earlier)
    before = number(game.players[0].bankroll)
    rnd.place_bet(0, money_arg(bet))  # type: ignore[arg-type]
    return _bet_state(game, rnd, before)


def after_refused_bet(rules: str | dict[str, Any], seed: int, players: list[Any], earlier: list[Any],
                      bet: object) -> dict[str, object]:
    """As :func:`place_bet`, the bet's exception swallowed: what the table holds after a refused bet."""
    game, rnd = _betting(rules, seed, players, earlier)
    before = number(game.players[0].bankroll)
    try:
        rnd.place_bet(0, money_arg(bet))  # type: ignore[arg-type]
    except Exception:  # noqa: BLE001, S110 - the judge has checked the refusal; this reads what it left
        pass
    return _bet_state(game, rnd, before)


def bet_then_deal(codes: str, rules: str | dict[str, Any], seed: int, bet: object) -> dict[str, object]:
    """``place_bet(0, bet)`` then ``deal()`` at a table stacked with ``codes``: the bet (and whether it is a
    Fraction), the bankroll once the bet is placed and once the cards are dealt."""
    game = table(codes, [], rules, seed)
    rnd = game.new_round()
    rnd.place_bet(0, money_arg(bet))  # type: ignore[arg-type]
    placed = rnd.bet(0)
    seen = {"bet": number(placed), "bankroll_at_bet": number(game.players[0].bankroll)}
    rnd.deal()
    return {**seen, "bankroll_after_deal": number(game.players[0].bankroll)}


def started(codes: str, players: list[Any], rules: str | dict[str, Any], seed: int,
            bets: list[Any] | None) -> dict[str, object]:
    """``start_round(bets)`` at a table stacked with ``codes``: the round as it stands (bets, hands, bankrolls ...)."""
    game = table(codes, players, rules, seed)
    rnd = game.start_round(bets_arg(bets))
    return round_state(game, rnd)


def stood(codes: str, players: list[Any], rules: str | dict[str, Any], seed: int,
          bets: list[Any] | None) -> dict[str, object]:
    """``start_round(bets)`` at a table stacked with ``codes``, every hand standing (insurance declined) until the
    round is settled: its settled hands and the bankrolls."""
    game = table(codes, players, rules, seed)
    rnd = game.start_round(bets_arg(bets))
    stand_all(rnd)
    state = round_state(game, rnd)
    state["table_holds_round"] = game.round is not None
    return state


def ledger(rules: str | dict[str, Any], seed: int, plan: list[str], bet: object) -> dict[str, object]:
    """Ann plays one round per entry of ``plan`` (the stacked cards), betting ``bet`` and standing, each round
    finished with ``finish_round``: her ledger afterwards."""
    game = table("", [], rules, seed)
    for codes in plan:
        game.shoe.stack(codes.split())
        stand_all(game.start_round([money_arg(bet)]))  # type: ignore[list-item]
        game.finish_round()
    kept = game.players[0].ledger
    return {"bankrolls": [number(b) for b in kept.bankrolls], "wins": kept.wins, "losses": kept.losses,
            "pushes": kept.pushes, "biggest_win": number(kept.biggest_win), "rounds": kept.rounds,
            "net": number(kept.net)}


def _random_policy(rng: random.Random) -> Any:
    """A policy choosing uniformly among the legal actions (sorted, so a seed replays)."""
    def decide(view: TableView) -> Action:
        return rng.choice(sorted(view.legal_actions, key=lambda a: a.value))
    return decide


def random_rounds(players: list[Any], rules: str | dict[str, Any], seed: int, rng_seed: int,
                  rounds: int) -> dict[str, object]:
    """``rounds`` seeded rounds of random legal play (random bets of 1, 5, 25 or none per seat), what they printed,
    and after each round played its number, the bankrolls and the house's result.

    Each round is started, decided action by action and finished with the given ``start_round``, ``apply`` and
    ``finish_round``, so the student's ``check_bet`` and ``payout`` are the only student code it needs."""
    def play() -> dict[str, object]:
        rng = random.Random(rng_seed)
        game = table("", players, rules, seed)
        decide = _random_policy(rng)
        total = sum((p.bankroll for p in game.players), 0)
        after: list[object] = []
        for number_ in range(rounds):
            bets: list[int | None] = [rng.choice([None, 1, 5, 25]) for _ in game.players]
            if not any(b is not None and b <= p.bankroll for b, p in zip(bets, game.players)):
                continue
            bets = [b if b is not None and b <= p.bankroll else None for b, p in zip(bets, game.players)]
            rnd = game.start_round(bets)
            while rnd.turn is not None:
                rnd.apply(decide(rnd.view()))
            game.finish_round()
            after.append({"round": number_ + 1, "bankrolls": [number(p.bankroll) for p in game.players],
                          "house": number(game.house_net)})
        return {"total": number(total), "after": after}

    seen, printed = capture(play)
    return {**seen, "printed": printed}  # type: ignore[dict-item]
