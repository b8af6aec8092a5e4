"""The demo's judge: a student's play of a scene against the rules' play, field by field, in the rule's words.

Runs in the demo's own process, with the kit's engine importable (:func:`milestones.demo.find_reference`):
card totals and the rules come from it, never from the student's code.
"""

from __future__ import annotations

from collections.abc import Sequence

from .demo_scenes import Record, Scene

__all__ = ["differences"]


def _ranks(cards: Sequence[str]) -> str:
    """``["Kh", "Qd"]`` -> ``"K-Q"``: the ranks, as the scenes name hands."""
    return "-".join(code[:-1] if code != "??" else "?" for code in cards)


def _hard_or_soft(cards: Sequence[str]) -> tuple[int, bool]:
    """The total of ``cards`` and whether an ace counts 11 in it, by the kit's ``Hand``."""
    from blackjack import Hand, parse_cards

    hand = Hand(parse_cards(" ".join(c for c in cards if c != "??")))
    return hand.get_score(), hand.is_soft()


def _total_words(cards: Sequence[str], mine: str, theirs: str) -> str:
    """Words for a hand whose total is shown as ``mine`` where the rules show ``theirs``."""
    ace = any(c.startswith("A") for c in cards)
    if ace and mine.rpartition("/")[2].strip() != theirs.rpartition("/")[2].strip():
        return (f"{_ranks(cards)} totals {mine or 'nothing'}: an ace counts 11 where that keeps the hand at 21 or "
                f"less, so under the rules it totals {theirs}")
    if "/" in mine and "/" not in theirs and ace:
        return f"{_ranks(cards)} was counted soft ({mine}): its ace can only count 1 there, a hard {theirs}"
    if "/" in theirs and "/" not in mine:
        return f"{_ranks(cards)} was counted hard ({mine}): its ace counts 11 there, a soft {theirs}"
    return f"{_ranks(cards)} totals {mine or 'nothing'}; under the rules it totals {theirs}"


def _step_differences(mine: Record, theirs: Record, split_by: str) -> list[str]:
    """Words for one decision where the student's play and the rules' differ."""
    from fractions import Fraction

    found = []
    who, cards = theirs["who"], theirs["cards"]
    if mine["cards"] != cards:
        return [f"{who}'s cards differ: yours are {_ranks(mine['cards'])}, the rules deal {_ranks(cards)}"]
    if mine["total"] != theirs["total"]:
        found.append(_total_words(cards, mine["total"], theirs["total"]))
    extra = sorted(set(mine["offered"]) - set(theirs["offered"]))
    for action in extra:
        if action == "double" and Fraction(mine.get("bankroll", "0")) < Fraction(mine.get("bet", "0")):
            found.append("a double was offered with no bankroll left to cover it")
        elif action == "split" and split_by == "rank" and len(cards) == 2 and cards[0][:-1] != cards[1][:-1]:
            found.append(f"{_ranks(cards)} was offered a split though the rules split by rank")
        else:
            found.append(f"{action} was offered on {_ranks(cards)}: the rules do not offer it there")
    for action in sorted(set(theirs["offered"]) - set(mine["offered"])):
        found.append(f"{action} was not offered on {_ranks(cards)}: the rules offer it there")
    if "hint" in theirs and mine.get("hint") != theirs["hint"]:
        total, soft = _hard_or_soft(cards)
        if mine.get("hint") == "hit" and total == 17 and not soft:
            found.append(f"the hint says hit on a hard 17; basic strategy says {theirs['hint']}")
        else:
            found.append(f"the hint for {_ranks(cards)} against the dealer's {_ranks([theirs['upcard']])} says "
                         f"{mine.get('hint')}; basic strategy says {theirs['hint']}")
    return found


def _dealer_differences(mine: Record, theirs: Record, hits_soft_17: bool) -> list[str]:
    """Words for a dealer's hand that the student's play and the rules' end differently."""
    got, want = mine["cards"], theirs["cards"]
    if got == want:
        if mine["total"] != theirs["total"]:
            return [f"the dealer's {_total_words(got, mine['total'], theirs['total'])}"]
        return []
    if len(got) > len(want) and got[:len(want)] == want:
        total, soft = _hard_or_soft(want)
        if total == 17 and soft and not hits_soft_17:
            return ["the dealer drew on soft 17 under S17 rules"]
        if total >= 17:
            return [f"the dealer drew on {'soft' if soft else 'hard'} {total}: the dealer stands on 17 or more"]
    if len(got) < len(want) and want[:len(got)] == got:
        total, soft = _hard_or_soft(got)
        if total == 17 and soft and hits_soft_17:
            return ["the dealer stood on soft 17 under H17 rules"]
        if total < 17:
            return [f"the dealer stood on {total}: the dealer draws below 17"]
    return [f"the dealer's cards differ: yours drew {_ranks(got)}, the rules draw {_ranks(want)}"]


def _hand_differences(mine: Record, theirs: Record) -> list[str]:
    """Words for a hand that ends differently."""
    def end(record: Record) -> str:
        net = record["net"]
        return str(record["result"]) + ("" if net is None else f" {'' if str(net)[0] in '-0' else '+'}{net}")

    cards = theirs["cards"]
    if mine["result"] == "BLACKJACK" and theirs["result"] != "BLACKJACK" and len(cards) >= 3:
        return [f"a three-card 21 was paid as a natural ({_ranks(cards)}: {end(mine)}; the rules: {end(theirs)})"]
    found = []
    if mine.get("natural") != theirs.get("natural"):
        if mine.get("natural") and len(cards) >= 3:
            found.append(f"a three-card 21 was counted as a natural ({_ranks(cards)} is shown as blackjack)")
        elif mine.get("natural"):
            found.append(f"{_ranks(cards)} was counted as a natural: the rules do not count it as one")
        else:
            found.append(f"the natural {_ranks(cards)} was not counted as one")
    if end(mine) == end(theirs):
        return found
    if mine["result"] == theirs["result"] == "BLACKJACK":
        return [*found, f"{theirs['who']}'s natural was paid {mine['net']}; the rules pay {theirs['net']}"]
    return [*found, f"{theirs['who']}'s {_ranks(mine['cards'])} ended {end(mine)}; under the rules "
            f"{_ranks(cards)} ends {end(theirs)}"]


def _shown(value: object) -> str:
    """A value the window shows, in words: a list's items, a text quoted, ``nothing`` for none."""
    if isinstance(value, list):
        return " ".join(map(str, value)) or "nothing"
    return repr(value) if value else "nothing"


def _shell_differences(mine: Record, theirs: Record) -> list[str]:
    """Words for the first press after which the student's window shows other than the round."""
    fields = (("error", "the window reported"), ("dealer", "the dealer's cards"), ("player", "the player's cards"),
              ("dealer_total", "the dealer's total"), ("player_total", "the player's total"),
              ("result", "the result"), ("buttons", "the enabled buttons"))
    for index, want in enumerate(theirs["presses"]):
        press = want["press"].capitalize()
        if index >= len(mine["presses"]):
            return [f"the {press} button was disabled when the round needed it"]
        got = mine["presses"][index]
        found = []
        for key, name in fields:
            if got[key] == want[key]:
                continue
            if key == "error":
                found.append(f"after {press} the window reported an error: {got[key]}")
            elif key == "dealer" and "??" in want[key] and "??" not in got[key]:
                found.append(f"after {press} the hole card is shown face up before the dealer's turn")
            else:
                verb = "are" if key in ("dealer", "player", "buttons") else "is"
                found.append(f"after {press} the window shows {name} as {_shown(got[key])}; "
                             f"the round's {verb} {_shown(want[key])}")
        if found:
            return found
    return []


def differences(scene: Scene, mine: Record, theirs: Record) -> list[str]:
    """Compare the student's record of ``scene`` with the reference's, field by field; return the differences
    in words (empty when the plays agree). Needs the kit's ``blackjack`` importable (card totals, the rules).

    A decision's differences are those of the first decision that differs (the play after it follows from
    it); then the dealer's hand, then each hand's end. Known differences get the rule's words ("the dealer
    drew on soft 17 under S17 rules"); others a plain comparison ("the dealer's cards differ: ...").
    """
    from itertools import zip_longest

    from blackjack import Rules

    if mine.get("kind") != theirs.get("kind"):
        return ["the play could not be compared with the rules' play"]
    if theirs["kind"] == "shell":
        return _shell_differences(mine, theirs)
    rules = Rules.preset(scene.rules)
    found: list[str] = []
    for got, want in zip_longest(mine["steps"], theirs["steps"]):
        if got is None:
            found.append(f"{want['who']} was not asked to play {_ranks(want['cards'])} ({want['total']}): "
                         f"the rules offer {', '.join(want['offered'])}")
        elif want is None:
            found.append(f"{got['who']} was asked to play {_ranks(got['cards'])} ({got['total']}): under the "
                         f"rules that turn is over")
        else:
            found.extend(_step_differences(got, want, rules.split_by))
        if found:
            break
    found.extend(_dealer_differences(mine["dealer"], theirs["dealer"], rules.dealer_hits_soft_17))
    for got, want in zip_longest(mine["hands"], theirs["hands"]):
        if got is None or want is None:
            found.append("the round settled a different number of hands")
            break
        if got["cards"] == want["cards"] and got["total"] != want["total"]:
            found.append(_total_words(want["cards"], got["total"], want["total"]))
        found.extend(_hand_differences(got, want))
    return list(dict.fromkeys(found))
