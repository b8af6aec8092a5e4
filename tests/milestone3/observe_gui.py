"""Observations for test_gui.py, run in the student's process (docs/design/graded_test_shape.md).

* ``buttons(view)`` and ``result(view)``: the student's ``button_states`` / ``round_result`` of a
  view built here from given classes (``TableView`` and its parts), as the judge describes it,
  so that week 1's code (the hand's score, the dealer's play) never decides these tests.
* ``window(rules, stack, steps)``: open the shell window (``gui.shell.Shell``) for player Ann on
  ``$DISPLAY``, stack the shoe, press the buttons of ``steps`` in turn (``invoke()``) and read back
  what the window shows after each press: the cards drawn, the texts written, the enabled buttons,
  the errors it reported. The window is destroyed before the answer goes back.

Rules travel as ``{"preset": "cs111", <field>: <value>, ...}`` (a preset with some fields
replaced), cards as codes, actions and phases by name.
"""

from __future__ import annotations

import dataclasses
import os
import tkinter as tk
from collections import Counter
from fractions import Fraction
from typing import Any

from blackjack import (HIDDEN, Action, Card, DealerView, HandView, Hidden, Outcome, Phase, Result, Rules, SeatView,
                       TableView, parse_cards)
from gui import shell as _shell

from milestones.grader.observer import given_cards, plain


def _rules(spec: dict[str, Any]) -> Rules:
    """A preset with the fields ``spec`` names replaced: ``{"preset": "cs111", "naturals": True}``."""
    changes = {key: value for key, value in spec.items() if key != "preset"}
    return dataclasses.replace(Rules.preset(spec["preset"]), **changes)


def _cards(codes: str) -> tuple[Card | Hidden, ...]:
    """Cards from codes, ``??`` for a face-down card."""
    return tuple(HIDDEN if code == "??" else parse_cards(code)[0] for code in codes.split())


def _total(cards: tuple[Card | Hidden, ...]) -> tuple[int, bool, str]:
    """The best total of the face-up cards, whether it is soft, and its table text ("7 / 17" when soft)."""
    hard = sum(card.value for card in cards if isinstance(card, Card))
    soft = any(isinstance(card, Card) and card.value == 1 for card in cards) and hard + 10 <= 21
    return (hard + 10, True, f"{hard} / {hard + 10}") if soft else (hard, False, str(hard))


def _view(spec: dict[str, Any] | None) -> TableView | None:
    """The view of a one-player round as the judge describes it (None for None).

    ``spec``: ``rules`` (see :func:`_rules`), ``player`` and ``dealer`` (card codes, ``??`` for the
    hole card), ``phase`` and ``legal`` (names of ``Phase`` / ``Action``), and for a settled hand
    ``outcome``: ``{"result": "WIN", "bet": 10, "net": 10}``.
    """
    if spec is None:
        return None
    rules = _rules(spec["rules"])
    phase = Phase[spec["phase"]]
    player = _cards(spec["player"])
    dealer = _cards(spec["dealer"])
    outcome = spec.get("outcome")
    settled = None if outcome is None else Outcome(Result[outcome["result"]], Fraction(outcome["bet"]),
                                                   Fraction(outcome["net"]))
    bet = settled.bet if settled is not None else rules.min_bet
    total, soft, text = _total(player)
    up_total, _up_soft, up_text = _total(dealer)
    hand = HandView(cards=tuple(c for c in player if isinstance(c, Card)), total=total, soft=soft, total_text=text,
                    bet=bet, doubled=False, surrendered=False, from_split=False,
                    is_blackjack=rules.naturals and len(player) == 2 and total == 21, is_bust=total > 21,
                    finished=phase is Phase.SETTLED or total >= 21, outcome=settled)
    bankroll = rules.starting_bankroll + (settled.net if settled is not None else -bet)
    seat = SeatView(index=0, name="Ann", bankroll=bankroll, bet=bet, insurance=None, hands=(hand,))
    shown = [c for c in (*player, *dealer) if isinstance(c, Card)]
    upcard = dealer[0] if dealer and isinstance(dealer[0], Card) else None
    seen = Counter(card.value for card in shown)
    unseen = {value: rules.decks * (16 if value == 10 else 4) - seen[value] for value in range(1, 11)}
    return TableView(
        phase=phase, rules=rules,
        dealer=DealerView(cards=dealer, upcard=upcard, total=up_total, total_text=up_text,
                          revealed=HIDDEN not in dealer),
        seats=(seat,), turn=None if phase is Phase.SETTLED else (0, 0),
        legal_actions=frozenset(Action[name] for name in spec["legal"]),
        cards_remaining=rules.decks * 52 - len(player) - len(dealer), discards=0, unseen_counts=unseen,
        decks=rules.decks)


def buttons(view: dict[str, Any] | None) -> object:
    """button_states(view) of the student's gui/shell.py, for the view ``view`` describes (None: no round yet)."""
    return plain(_shell.button_states(_view(view)))


def result(view: dict[str, Any] | None) -> object:
    """round_result(view) of the student's gui/shell.py, for the view ``view`` describes (None: no round yet)."""
    return plain(_shell.round_result(_view(view)))


def _read(window: _shell.Shell) -> dict[str, object]:
    """What the window shows now, as the given ``Shell.shown`` / ``text`` / ``enabled`` read it, and the table's count."""
    return {"dealer": window.shown("dealer"), "player": window.shown("player"),
            "dealer_total": window.text("dealer_total"), "player_total": window.text("player_total"),
            "result": window.text("result"), "enabled": window.enabled(),
            "rounds_played": window.game.rounds_played, "table_round_none": window.game.round is None}


def _press(window: _shell.Shell, name: str) -> dict[str, object]:
    """Press one button (unless the window already reported an error, or the button is disabled) and read the window.

    ``opened``: the first error the window reported before the press ("" if none); ``enabled_before``;
    ``pressed``; after a press, ``error`` (the last error reported, "" if none), ``has_round`` (the
    window's ``round`` is not None) and what :func:`_read` reads.
    """
    record: dict[str, object] = {"press": name, "opened": window.errors[0] if window.errors else "",
                                 "enabled_before": window.enabled(), "pressed": False}
    if record["opened"] or name not in window.enabled():
        return record
    window.buttons[name].invoke()
    window.root.update()
    record.update(pressed=True, error=window.errors[-1] if window.errors else "", has_round=window.round is not None)
    record.update(_read(window))
    return record


def window(rules: dict[str, Any], stack: str, steps: list[str]) -> dict[str, object]:
    """Open the shell window for Ann at a table whose next cards are ``stack`` (deal order), then run ``steps``.

    A step is a button's name (``"deal"``, ``"hit"``, ``"stand"``), pressed as :func:`_press` does, or
    ``"stack <codes>"``, which stacks the shoe again. The steps stop after a press that could not be
    made or made the window report an error.

    Returns:
        ``{"display": $DISPLAY, "presses": [one record per press]}``; without ``$DISPLAY``, no window
        is opened and ``presses`` is empty.
    """
    display = os.environ.get("DISPLAY")
    presses: list[dict[str, object]] = []
    if not display:
        return {"display": display, "presses": presses}
    root = tk.Tk()
    try:
        with given_cards():  # a shoe of given cards: the student's deck is graded by milestone 1, not here
            shell = _shell.Shell(root, _rules(rules), name="Ann", seed=1)
        shell.game.shoe.stack(stack.split())
        root.update()
        for step in steps:
            if step.startswith("stack "):
                shell.game.shoe.stack(step.split()[1:])
                continue
            record = _press(shell, step)
            presses.append(record)
            if not record["pressed"] or record["error"]:
                break
    finally:
        try:
            root.destroy()
        except tk.TclError:
            pass
    return {"display": display, "presses": plain(presses)}
