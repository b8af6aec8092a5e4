"""The felt's drawing as a player reads it: card faces, chip stacks, the dealer's announcement, split hands' size,
even money's wording and finished hands' totals, asked of the canvas of a real window (Xvfb when no display).

Rounds are dealt from a stacked shoe (deal order: one card to each seat, the dealer's
upcard, the second cards, the hole card, then hits in turn). Vegas rules unless said.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from blackjack import Action, Card, Phase, Rules, format_money
from gui.cards import CHANGE_CHIP, PIP_LAYOUTS, chip_stacks, draw_card, draw_chip_stacks
from gui.logic import CHIP_COLORS, Box, card_size

pytestmark = pytest.mark.gui

MakeApp = Callable[..., Any]


def card_items(canvas: Any, code: str, tag: str) -> list[int]:
    """The items of the one card ``code`` on ``canvas`` that carry ``tag``."""
    return [item for item in canvas.find_withtag(f"card_{code}") if tag in canvas.gettags(item)]


def signature(canvas: Any, code: str) -> list[tuple[str, str, str]]:
    """What a card's face is made of, position aside: each item's type, fill and text, in drawing order."""
    items = canvas.find_withtag(f"card_{code}")
    return [(canvas.type(item), str(canvas.itemcget(item, "fill")),
             str(canvas.itemcget(item, "text")) if canvas.type(item) == "text" else "") for item in items]


class TestCardFaces:
    @pytest.mark.parametrize("face", range(2, 11))
    @pytest.mark.parametrize("height", [50, 120])
    def test_each_rank_has_its_pips(self, make_app: MakeApp, face: int, height: int) -> None:
        """A 2..10 of every suit, small and large, draws as many suit pips as its rank, each the suit's symbol in
        the suit's colour, all inside the card; and two corner indices (rank and suit, top left and bottom right)."""
        canvas = make_app().table
        canvas.delete("all")
        for k, suit in enumerate("shdc"):
            card = Card.parse(f"{'T' if face == 10 else face}{suit}")
            box = Box(10 + k * 120, 10, height * 63 / 88, height)
            draw_card(canvas, box, card)
            pips = card_items(canvas, card.code, "pip")
            assert len(pips) == face == len(PIP_LAYOUTS[face]), (card.code, len(pips))
            colour = "#c62828" if suit in "hd" else "#1b1b1b"
            assert {canvas.itemcget(p, "text") for p in pips} == {card.suit.symbol}
            assert {canvas.itemcget(p, "fill") for p in pips} == {colour}
            for pip in pips:
                x1, y1, x2, y2 = canvas.bbox(pip)
                assert box.x <= x1 and x2 <= box.x + box.w and box.y <= y1 and y2 <= box.y + box.h, card.code
            index = [canvas.itemcget(i, "text") for i in card_items(canvas, card.code, "index")]
            assert sorted(index) == sorted([str(face), card.suit.symbol] * 2)

    def test_courts_are_distinct(self, make_app: MakeApp) -> None:
        """The jack, queen and king of one suit are each drawn differently (their own emblem and panel), with no
        pips, the letter large on a framed panel and the corner indices J, Q, K."""
        canvas = make_app().table
        canvas.delete("all")
        for k, code in enumerate(("Jh", "Qh", "Kh")):
            draw_card(canvas, Box(10 + k * 100, 10, 86, 120), Card.parse(code))
        shapes = {code: signature(canvas, code) for code in ("Jh", "Qh", "Kh")}
        assert len({tuple(shape) for shape in shapes.values()}) == 3
        for code in shapes:
            court = card_items(canvas, code, "court")
            assert not card_items(canvas, code, "pip") and court == card_items(canvas, code, f"emblem_{code[0]}")
            texts = [canvas.itemcget(i, "text") for i in court if canvas.type(i) == "text"]
            assert texts == [code[0], "♥"]
            assert [canvas.itemcget(i, "text") for i in card_items(canvas, code, "index")] == [code[0], "♥"] * 2
        emblems = {code: sorted(canvas.type(i) for i in card_items(canvas, code, "court")) for code in shapes}
        assert len({tuple(kinds) for kinds in emblems.values()}) == 3, emblems


def stacked(canvas: Any, seat: int) -> dict[Fraction, int]:
    """Seat ``seat``'s chip stacks as drawn: denomination -> chips, read from each stack's chips and count label."""
    found: dict[Fraction, int] = {}
    for item in canvas.find_withtag(f"stacks{seat}"):
        for tag in canvas.gettags(item):
            if tag.startswith("stackchip_"):
                value = Fraction(tag.removeprefix("stackchip_"))
                found[value] = found.get(value, 0) + 1
    for item in canvas.find_withtag(f"stacks{seat}"):
        for tag in canvas.gettags(item):
            if tag.startswith("stackcount_"):
                found[Fraction(tag.removeprefix("stackcount_"))] = int(canvas.itemcget(item, "text").lstrip("×"))
    return found


class TestChipStacks:
    @pytest.mark.parametrize(("bet", "chips"), [
        ("10", {5: 2}),
        ("30", {25: 1, 5: 1}),
        ("75", {25: 3}),
        ("536", {500: 1, 25: 1, 5: 2, 1: 1}),
        ("20000", {500: 40}),
        ("1234567", {500: 2469, 25: 2, 5: 3, 1: 2}),
    ])
    def test_stacks_add_up_to_the_bet(self, make_app: MakeApp, bet: str, chips: dict[Fraction, int]) -> None:
        """A typed bet is drawn beside its circle as stacks by denomination, largest first, in the rail's colours
        (change below 1 in its own); the chips drawn, or a tall stack's count, add up to the bet."""
        rules = dataclasses.replace(Rules.preset("vegas"), max_bet=Fraction(10 ** 7))
        app = make_app(["Ann"], rules, bankroll=10 ** 7)
        app.bet_entry.set(bet)
        app.bet_button.invoke()
        assert app.round_view.seats[0].bet == Fraction(bet)
        drawn = stacked(app.table, 0)
        assert drawn == {Fraction(k): v for k, v in chips.items()}
        assert sum(value * count for value, count in drawn.items()) == Fraction(bet)
        assert chip_stacks(Fraction(bet)) == list(chips.items())
        for value in drawn:
            face = next(i for i in app.table.find_withtag(f"stackchip_{format_money(value)}"))
            want = CHIP_COLORS[int(value)] if value.denominator == 1 else CHANGE_CHIP
            assert app.table.itemcget(face, "fill") == want

    def test_change_below_one_credit_has_its_own_chip(self, make_app: MakeApp) -> None:
        """2.5 credits (a stake the table may hold, like half of 5) are two 1 chips and one 0.5 chip of its own
        colour: the stacks add up to the amount exactly."""
        canvas = make_app().table
        canvas.delete("all")
        draw_chip_stacks(canvas, Fraction(5, 2), 300, 200, 12, ("stacks0",))
        assert stacked(canvas, 0) == {Fraction(1): 2, Fraction(1, 2): 1}
        face = canvas.find_withtag("stackchip_0.5")[0]
        assert canvas.itemcget(face, "fill") == CHANGE_CHIP

    def test_no_bet_no_stacks(self, make_app: MakeApp) -> None:
        """An empty bet circle has no chips beside it."""
        app = make_app()
        assert app.table.find_withtag("bet_circle0") and not app.table.find_withtag("chipstack")


def deal(make_app: MakeApp, stack: str, names: tuple[str, ...] = ("Ann",), geometry: str = "1200x700",
         actions: tuple[Action, ...] = ()) -> Any:
    """A window of ``geometry`` with a stacked shoe, a bet of 10 for each seat, dealt, then ``actions`` taken."""
    app = make_app(list(names), stack=stack)
    app.root.geometry(geometry)
    app.root.update()
    for seat in range(len(names)):
        app.place_bet(seat, 10)
    app.deal()
    for action in actions:
        app.act(action)
    app.settle()
    return app


class TestDealerSays:
    @pytest.mark.parametrize(("stack", "actions", "says", "total"), [
        ("Ts As 9h Kd", (Action.DECLINE,), "BLACKJACK", "Dealer  21"),       # A-K under the ace: a natural
        ("Ts 6d 2h Tc 7s", (Action.STAND,), "BUST 23", "Dealer  23"),          # 6-T draws a 7
        ("Ts 9d 9h 8c", (Action.STAND,), "Dealer stands on 17", "Dealer  17"),  # 9-8 stands
        ("Ts 7d 6h Ac", (Action.STAND,), "Dealer stands on 18", "Dealer  18"),  # soft 18: one total
        ("Ts 9d 6h 8c Kd", (Action.HIT,), "Dealer has 17", "Dealer  17"),     # Ann busts: nothing to play for
    ])
    def test_the_dealer_announces_the_end_of_the_round(self, make_app: MakeApp, stack: str,
                                                        actions: tuple[Action, ...], says: str, total: str) -> None:
        """At the end of a round the felt says what the dealer's hand came to (the engine's RoundSettled), in
        place of the total (one line, not "Dealer  18" and "Dealer has 18"); nothing is announced while the
        round is played, when the total shows."""
        app = make_app(stack=stack)
        app.place_bet(0, 10)
        app.deal()
        app.settle()
        assert not app.table.find_withtag("dealer_says") and app.table.texts("dealer_total")
        for action in actions:
            app.act(action)
        app.settle()
        assert app.round_view.phase is Phase.SETTLED
        assert app.table.texts("dealer_says") == [says] and app.table.texts("dealer_total") == []
        assert app.table.find_withtag("dealer_says_bg")

    def test_the_announcement_waits_for_the_dealers_last_card(self, make_app: MakeApp) -> None:
        """With animations on, the bust is announced only once the card that busts the dealer is on the felt."""
        app = make_app(stack="Ts 6d 2h Tc 7s", animations=True)
        app.place_bet(0, 10)
        app.deal()
        app.settle()
        app.act(Action.STAND)
        assert app.round_view.phase is Phase.SETTLED and app.events
        assert not app.table.find_withtag("dealer_says")
        app.settle()
        assert app.table.texts("dealer_says") == ["BUST 23"]
        assert app.table.card_codes("dealer") == ["6d", "Tc", "7s"]

    def test_the_announcement_keeps_off_the_shoe(self, make_app: MakeApp) -> None:
        """At the smallest window, a dealer who stands on 17 in six cards: the announcement ends left of the shoe
        and right of the dealer's last card."""
        app = deal(make_app, "Ts Ac 9h Ad Ah 2c 2d 2h 7s", geometry="980x620", actions=(Action.DECLINE, Action.STAND))
        table = app.table
        assert table.texts("dealer_says") == ["Dealer stands on 17"]
        says, shoe = table.bbox("dealer_says_bg"), table.bbox("shoe")
        cards = [table.bbox(item) for item in table.find_withtag("dealer")]
        assert says[2] <= shoe[0] and says[0] >= max(box[2] for box in cards)


class TestSplitHands:
    def test_a_resplit_hand_keeps_most_of_its_size(self, make_app: MakeApp) -> None:
        """Three seats at the smallest window; Ann splits 8-8 and resplits to three hands and then four: each of
        her cards is at least 70% as wide as a normal card, the same size as Bob's (one card size on the
        table), and every hand stays in her share of the table, its cards in order and each showing its corner."""
        app = deal(make_app, "8s Ts Tc 6d 8h 9h 8c Th 8d 8c 3c 4d 5h 6c", ("Ann", "Bob", "Cy"), "980x620",
                   (Action.SPLIT, Action.SPLIT, Action.SPLIT))
        table = app.table
        assert len(app.round_view.seats[0].hands) == 4
        normal = card_size(table.winfo_width(), table.winfo_height())[0]
        bob = width_of(table, "hand_1_0")
        share = table.winfo_width() / 3
        for j in range(4):
            assert width_of(table, f"hand_0_{j}") >= 0.7 * normal - 0.01, j
            assert width_of(table, f"hand_0_{j}") == pytest.approx(bob, abs=1), j
            x1, _, x2, _ = table.bbox(f"hand_0_{j}")
            assert -1 <= x1 and x2 <= share + 4
        stakes = [table.bbox(f"stake_0_{j}") for j in range(4)]
        assert len({box[1] for box in stakes}) == 1, stakes  # the bet labels stand on one line

    def test_split_totals_stand_on_one_line(self, make_app: MakeApp) -> None:
        """8-8 split, the first hand drawing to three cards: both hands' totals and bets are on one line."""
        app = deal(make_app, "8s 6d 8h Th 2c 2d 5s", actions=(Action.SPLIT, Action.HIT))
        table = app.table
        assert len(table.card_codes("hand_0_0")) == 3 and len(table.card_codes("hand_0_1")) == 1
        assert table.bbox("total_0_0")[1] == table.bbox("total_0_1")[1]
        assert table.bbox("stake_0_0")[1] == table.bbox("stake_0_1")[1]


def width_of(table: Any, tag: str) -> float:
    """The width of the first card drawn with ``tag`` (its face, without the shadow)."""
    uid = next(t for t in table.gettags(table.find_withtag(tag)[0]) if t.startswith("cardid"))
    xs = table.coords(table.find_withtag(uid)[1])[0::2]  # the face's outline polygon
    return float(max(xs) - min(xs))


class TestWords:
    def test_even_money_is_called_even_money(self, make_app: MakeApp) -> None:
        """A-K against an ace: the offer reads even money in the status line and on the button; taken, the felt
        says "Even money 5" beside the bet, and the engine's action is still insurance for half the bet."""
        app = deal(make_app, "As Ac Kh 9d")
        status = app.status.cget("text")
        assert "Take even money" in status and "no even money" in status and "nsurance" not in status
        assert app.buttons["insurance"].cget("text") == "Even money"
        app.buttons["insurance"].invoke()
        app.settle()
        seat = app.round_view.seats[0]
        assert seat.insurance == 5 and any(a is Action.INSURANCE for _, _, a in app.game.round.history)
        assert app.table.texts("insurance_text0")[0].startswith("Even money")

    def test_plain_insurance_keeps_its_name(self, make_app: MakeApp) -> None:
        """T-9 against an ace is offered insurance, and the stake, lost at the peek, reads "Insurance lost -5"."""
        app = deal(make_app, "Ts As 9h 7c")
        assert "Insurance?" in app.status.cget("text")
        app.buttons["insurance"].invoke()
        app.settle()
        assert app.table.texts("insurance_text0") == ["Insurance lost -5"]

    def test_a_finished_soft_hand_shows_one_total(self, make_app: MakeApp) -> None:
        """A-6 reads "7 / 17" while it is played and "17" once it stands; a split hand standing on a soft
        total shows one total while its neighbour is still played both ways."""
        app = deal(make_app, "As 9d 6h 8c")
        assert app.table.texts("total_0_0") == ["7 / 17"]
        app.act(Action.STAND)
        app.settle()
        assert app.table.texts("total_0_0") == ["17"]
        split = deal(make_app, "8s 6d 8h Th As Ac", actions=(Action.SPLIT,))
        assert split.table.texts("total_0_0") == ["9 / 19"]
        split.act(Action.STAND)
        split.settle()
        assert split.table.texts("total_0_0") == ["19"] and split.table.texts("total_0_1") == ["9 / 19"]


class TestSeatLabels:
    @pytest.mark.parametrize("geometry", ["980x620", "1920x1080"])
    def test_chips_go_here_keeps_off_the_name(self, make_app: MakeApp, geometry: str) -> None:
        """Betting for Bob, small and maximised: "▼ chips go here", his name and his money line do not overlap,
        and all three lie inside the canvas."""
        app = make_app(["Ann", "Bob", "Cy"])
        app.root.geometry(geometry)
        app.root.update()
        app.choose_seat(1)
        app.root.update()
        table = app.table
        boxes = [table.bbox(tag) for tag in ("betting_seat", "name1", "bankroll1")]
        assert boxes[0][3] <= boxes[1][1] and boxes[1][3] <= boxes[2][1], boxes
        assert boxes[2][3] <= table.winfo_height()
