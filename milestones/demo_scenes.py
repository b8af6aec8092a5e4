"""The Program Demo's scenes: stacked rounds, each showing one situation a milestone covers.

:mod:`milestones.demo` shows them, and :mod:`milestones.plays.demo_play` plays them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["SCENES", "Record", "Scene"]

#: A scene's play as plain data (JSON-able): see ``_table_record`` in :mod:`milestones.plays.demo_play`.
Record = dict[str, Any]


@dataclass(frozen=True)
class Scene:
    """One stacked round of the demo.

    Attributes:
        title: the situation it shows, ``"A split"``.
        point_out: what the peer leader should look at, in one sentence.
        rules: the rules preset's name (``"cs111"``, ``"vegas"``).
        players: the seats' names.
        cards: the shoe's first cards in deal order: one to each seat, the dealer's upcard, a
            second to each seat, the hole card, then every card play calls for.
        bets: each seat's bet (ignored under rules without money), typed at the bet questions.
        decisions: the decisions in order, by ``Action`` value (``"hit"``, ``"split"``), typed by
            their letters; when they run out, every open hand stands (and insurance is declined).
        expect: how each hand should end, ``(seat, hand, result name, net)``; net is ``None``
            under rules without money.
        bankroll: each seat's bankroll before the round (None: the rules' starting bankroll).
        hint: show (and compare) the basic-strategy hint (``basic_advice``) at each decision.
        shell: play the round in the student's milestone-3 window (``gui.shell.Shell``): Deal,
            then the ``decisions`` (``"hit"``/``"stand"``) as button presses; one player.
    """

    title: str
    point_out: str
    rules: str
    players: tuple[str, ...]
    cards: str
    bets: tuple[int, ...] = ()
    decisions: tuple[str, ...] = ()
    expect: tuple[tuple[int, int, str, int | None], ...] = ()
    bankroll: int | None = None
    hint: bool = False
    shell: bool = False


#: The scenes of each milestone, in the order they are shown. Every stack and outcome below
#: is worked out by hand, as in the milestone tests (tests/kit/test_kit_demo.py plays them).
SCENES: dict[int, tuple[Scene, ...]] = {
    1: (
        Scene("Two players: a bust and a win",
              "Ann hits 16 and busts, and is not asked again; Bob stands on 18; the dealer stands on 17.",
              "cs111", ("Ann", "Bob"), "Th 9c 7d 6h 9s Ts Kc", decisions=("hit", "stand"),
              expect=((0, 0, "BUST", None), (1, 0, "WIN", None))),
        Scene("A push", "T-8 against the dealer's T-8: equal totals tie.",
              "cs111", ("Ann",), "Th Tc 8d 8s", decisions=("stand",), expect=((0, 0, "PUSH", None),)),
        Scene("An ace counts 1 or 11",
              "A-5 is a soft 16 (6 / 16); a 7 makes it a hard 13 (the ace drops to 1); an 8 makes 21.",
              "cs111", ("Ann",), "Ah Tc 5d 7s 7c 8d", decisions=("hit", "hit"), expect=((0, 0, "WIN", None),)),
        Scene("An ace with a ten-card", "A-K is 21 (the ace counts 11 with a ten-card); at the cs111 table a 21 "
              "ends the turn at once and beats the dealer's 19.",
              "cs111", ("Ann",), "Ah Tc Kd 9s", expect=((0, 0, "WIN", None),)),
        Scene("Three players, and the dealer busts",
              "The dealer must hit 16 and busts with 26: every hand still standing wins.",
              "cs111", ("Ann", "Bob", "Cy"), "Th 9c 5s 6h 2d 7s 8c Ts Kc", decisions=("stand", "stand", "stand"),
              expect=((0, 0, "WIN", None), (1, 0, "WIN", None), (2, 0, "WIN", None))),
        Scene("The dealer stands on soft 17",
              "The dealer's A-6 is a soft 17, and these rules (S17) stand on it: Ann's 18 wins. A dealer who drew "
              "would take the 4 and make 21.",
              "cs111", ("Ann",), "Th Ad 8s 6c 4h", decisions=("stand",), expect=((0, 0, "WIN", None),)),
    ),
    2: (
        Scene("A bust", "Ann hits 16 against a 7 and busts with 26: the bet of 10 is lost at once.",
              "vegas", ("Ann",), "Th 7c 6d Ts Kc", (10,), ("hit",), ((0, 0, "BUST", -10),)),
        Scene("A push", "T-8 against the dealer's T-8: the bet of 10 comes back, net 0.",
              "vegas", ("Ann",), "Th Tc 8d 8s", (10,), ("stand",), ((0, 0, "PUSH", 0),)),
        Scene("A natural", "A-K pays 3:2 at once: +15 on a bet of 10 (exact money: +7.5 on a bet of 5).",
              "vegas", ("Ann",), "Ah 9c Kd 7s", (10,), (), ((0, 0, "BLACKJACK", 15),)),
        Scene("A three-card 21", "5-6 hits a ten: 21 with three cards is not a natural; it beats the dealer's 17 "
              "and pays 1:1, +10.",
              "vegas", ("Ann",), "5h Tc 6d 7s Th", (10,), ("hit",), ((0, 0, "WIN", 10),)),
        Scene("A double down", "6-5 (11) doubles the bet to 20 and gets exactly one card (9: 20); "
              "the dealer's 16 draws a 2 (18), so the doubled bet wins +20.",
              "vegas", ("Ann",), "6h 6c 5d Td 9s 2h", (10,), ("double",), ((0, 0, "WIN", 20),)),
        Scene("No money left to double", "Ann bets her last 10 on 6-5: 11 is worth a double, but nothing is left "
              "to double with, so the game offers hit, stand and surrender only; she hits a 9 and wins +10.",
              "vegas", ("Ann",), "6h 6c 5d Td 9s 2h", (10,), ("hit", "stand"), ((0, 0, "WIN", 10),), bankroll=10),
        Scene("A split", "8-8 against a ten splits into two hands with a bet each; the first gets a K (18) and "
              "stands, the second a 3 (11) and doubles to 20; both beat the dealer's 17.",
              "vegas", ("Ann",), "8s Th 8d 7c Kc 3c 9d", (10,), ("split", "stand", "double"),
              ((0, 0, "WIN", 10), (0, 1, "WIN", 20))),
        Scene("K-Q is not a pair", "These rules split pairs of equal rank: K-Q (20) is two tens but not a pair, "
              "so no split is offered; Ann stands and the dealer's 16 busts with an 8.",
              "vegas", ("Ann",), "Kh 6c Qd Ts 8h", (10,), ("stand",), ((0, 0, "WIN", 10),)),
        Scene("A hint on a hard 17", "T-7 against a ten: the hint says stand (a hard 17 busts too often to hit); "
              "the dealer's 18 wins, -10.",
              "vegas", ("Ann",), "Th Tc 7d 8s", (10,), ("stand",), ((0, 0, "LOSE", -10),), hint=True),
        Scene("The dealer hits soft 17", "Downtown rules are H17: the dealer's A-6 (soft 17) draws, a 2 makes "
              "soft 19, and Ann's 18 loses its 10 (insurance is offered on the ace and declined).",
              "downtown", ("Ann",), "Th Ad 8s 6c 2h", (10,), ("stand",), ((0, 0, "LOSE", -10),)),
        Scene("Insurance", "An ace up: Ann insures for 5; the dealer has A-K, so the insurance pays 2:1 (+10) and "
              "the hand loses its 10: Ann breaks even.",
              "vegas", ("Ann",), "Th As 9d Kc", (10,), ("insurance",), ((0, 0, "LOSE", -10),)),
    ),
    3: (
        Scene("Deal, hit and stand", "Deal shows A-2 and the dealer's 9 with the hole card face down; Hit makes a "
              "soft 17 (7 / 17); Stand turns the hole card, the dealer's 16 draws a ten and busts: WIN.",
              "cs111", ("Ann",), "Ah 9c 2d 7s 4h Ts", decisions=("hit", "stand"),
              expect=((0, 0, "WIN", None),), shell=True),
        Scene("A bust in the window", "T-6 hits a king: 26, BUST; the hole card is shown and only Deal is enabled.",
              "cs111", ("Ann",), "Th 9c 6d 8s Kc", decisions=("hit",), expect=((0, 0, "BUST", None),), shell=True),
        Scene("A push in the window", "T-7 stands against the dealer's T-7: PUSH.",
              "cs111", ("Ann",), "Th Tc 7d 7s", decisions=("stand",), expect=((0, 0, "PUSH", None),), shell=True),
    ),
}
