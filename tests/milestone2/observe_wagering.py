"""Observations for test_wagering.py, run in the student's process: tables stacked from given classes, bets placed
and rounds played (the student's ``Player.check_bet``, ``wagers.take_stake``, ``wagers.payout`` and ``wagers.pay`` run
where the round calls them), stakes taken and paid on a given ``Player``, and the course game's session summary of
ledgers filled by given code; the money returned exact through ``number()`` (docs/design/graded_test_shape.md)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from blackjack import Action, Blackjack, Player, Result, Round, TableView
from blackjack.course_game import summary_lines
from blackjack.events import make_outcome
from blackjack.wagers import pay, take_stake
from observe_given import given
from milestones.grader.observer import capture, number, plain
from observe_m2 import bets_arg, money_arg, round_state, rules_from, scripted, stand_all, table


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
    """``place_bet(0, bet)`` then ``deal()`` at a table stacked with ``codes``, the bet checked by the given
    ``check_bet``: the bet, the bankroll once the bet is placed and once the cards are dealt (the student's
    ``take_stake``)."""
    with given("check_bet"):
        game = table(codes, [], rules, seed)
        rnd = game.new_round()
        rnd.place_bet(0, money_arg(bet))  # type: ignore[arg-type]
        placed = rnd.bet(0)
        seen = {"bet": number(placed), "bankroll_at_bet": number(game.players[0].bankroll)}
        rnd.deal()
        return {**seen, "bankroll_after_deal": number(game.players[0].bankroll)}


def started(codes: str, players: list[Any], rules: str | dict[str, Any], seed: int,
            bets: list[Any] | None) -> dict[str, object]:
    """``start_round(bets)`` at a table stacked with ``codes`` (the student's ``check_bet``, the given
    ``take_stake``): the round as it stands (bets, hands, bankrolls ...)."""
    with given("take_stake"):
        game = table(codes, players, rules, seed)
        rnd = game.start_round(bets_arg(bets))
        return round_state(game, rnd)


def stood(codes: str, players: list[Any], rules: str | dict[str, Any], seed: int,
          bets: list[Any] | None, actions: list[str] | None = None) -> dict[str, object]:
    """``start_round(bets)`` at a table stacked with ``codes``, seat 0 taking ``actions`` (values: ``"hit"``,
    ``"surrender"``) while it has the turn, then every hand standing (insurance declined) until the round is
    settled: its settled hands and the bankrolls.

    The bets, the stakes and the payments are the given ``check_bet``, ``take_stake`` and ``pay``: the round
    settles each hand with the student's ``payout`` only."""
    with given("check_bet", "take_stake", "pay"):
        game = table(codes, players, rules, seed)
        rnd = game.start_round(bets_arg(bets))
        for action in actions or []:
            if rnd.turn is not None and rnd.turn[0] == 0:
                rnd.apply(Action(action))
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


def _player(bankroll: object) -> Player:
    """Ann with ``bankroll`` (as the judge sent it): a given ``Player``, whose constructor keeps money exact."""
    return Player("Ann", money_arg(bankroll))  # type: ignore[arg-type]


def stakes_taken(bankroll: object, amounts: list[Any]) -> dict[str, object]:
    """Ann, with ``bankroll``, stakes each of ``amounts`` in turn with ``take_stake``: her bankroll after each, and
    what the calls printed. An exception (a refused stake) comes back as the student's."""
    player = _player(bankroll)

    def take() -> list[object]:
        after = []
        for amount in amounts:
            take_stake(player, money_arg(amount))  # type: ignore[arg-type]
            after.append(number(player.bankroll))
        return after

    after, printed = capture(take)
    return {"after": after, "printed": printed}


def after_refused_stake(bankroll: object, amount: object) -> object:
    """As :func:`stakes_taken` with one amount, its exception swallowed: Ann's bankroll after a refused stake."""
    player = _player(bankroll)
    try:
        take_stake(player, money_arg(amount))  # type: ignore[arg-type]
    except Exception:  # noqa: BLE001, S110 - the judge has checked the refusal; this reads what it left
        pass
    return number(player.bankroll)


def paid(bankroll: object, payments: list[list[Any]]) -> dict[str, object]:
    """Ann, with ``bankroll``, is paid each ``[stake, net]`` of ``payments`` in turn with ``pay``: her bankroll after
    each, and what the calls printed."""
    player = _player(bankroll)

    def pay_all() -> list[object]:
        after = []
        for stake, net in payments:
            pay(player, money_arg(stake), money_arg(net))  # type: ignore[arg-type]
            after.append(number(player.bankroll))
        return after

    after, printed = capture(pay_all)
    return {"after": after, "printed": printed}


def summary(players: list[Any], rounds: list[list[Any]], rules: str | dict[str, Any]) -> dict[str, object]:
    """The course game's ``summary_lines`` at a table of ``players`` whose ledgers hold ``rounds``, and what it printed.

    Each round lists one entry per seat: None (the seat sat it out) or ``[result name, bet, net]``, recorded by
    given code (the bankroll moved by the net, then ``Player.finish_round``), and the table counts the round
    played; none of the student's wagering functions runs, only ``summary_lines``."""
    game = table("", players, rules, 1)
    for played in rounds:
        for player, entry in zip(game.players, played):
            if entry is not None:
                result, bet, net = entry[0], money_arg(entry[1]), money_arg(entry[2])
                player.bankroll += net  # type: ignore[operator]
                player.finish_round([make_outcome(Result[result], bet, net)])  # type: ignore[arg-type]
        game.rounds_played += 1
    lines, printed = capture(summary_lines, game)
    return {"lines": plain(lines), "printed": printed}


#: The table of the bet questions: bets of 10 to 500, as at the course's table with money.
BET_TABLE = {"preset": "vegas", "min_bet": 10, "max_bet": 500}


def bet_asked(bankroll: object, answers: list[str]) -> dict[str, object]:
    """``course_game.ask_bet`` of Ann (``bankroll``) at :data:`BET_TABLE`, answered ``answers``, the given
    ``check_bet`` under it, as ``observe_m2.scripted`` tells it; ``returned``: the bet (``number``) and whether
    it is a Fraction; ``reasons``: what the table says to each answer (the refusal's message, None when taken)."""
    import blackjack.course_game as course_game
    from blackjack.errors import InvalidBetError
    from blackjack.money import parse_bet

    rules = rules_from(BET_TABLE)
    with given("check_bet"):
        player = Player("Ann", money_arg(bankroll))
        got = scripted(course_game.ask_bet, answers, player, rules,
                       convert=lambda bet: {"bet": number(bet), "exact": isinstance(bet, Fraction)})
        reasons: list[str | None] = []
        for answer in answers:
            try:
                player.check_bet(parse_bet(answer), rules)
                reasons.append(None)
            except InvalidBetError as err:
                reasons.append(str(err))
    return {**got, "reasons": reasons}


def bets_taken(players: list[list[Any]], answers: list[str]) -> dict[str, object]:
    """``course_game.take_bets`` at :data:`BET_TABLE` for ``players`` (``[name, bankroll]``), answered ``answers``,
    the given ``check_bet`` and ``ask_bet`` under it; ``returned``: ``{seat: bet}`` (seats as text)."""
    import blackjack.course_game as course_game

    def bets(value: object) -> object:
        if not isinstance(value, dict):
            return {"not a dict": repr(value)[:200]}
        return {str(seat): number(bet) for seat, bet in value.items()}

    with given("check_bet", "ask_bet"):
        return scripted(course_game.take_bets, answers, table("", players, BET_TABLE, 1), convert=bets)
