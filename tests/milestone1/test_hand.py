"""Milestone 1, Hand: scoring a hand the course's way, aces 1 or 11 (cs111 week 1; 5.5 points).

Hand.getScore (cs111): add up the values of the cards; if there is an ace and
counting it as 11 instead of 1 does not take the score over 21, add 10.
"""

from __future__ import annotations

import pytest

from milestones.grader.judge import Student


def check_scores(student: Student, cases: dict[str, int], hint: str) -> None:
    """Assert get_score() for every hand in ``cases``; the message lists every wrong one."""
    got = student("scores", list(cases))
    wrong = [f"[{codes}] should score {want}, got {score!r}"
             for (codes, want), score in zip(cases.items(), got, strict=True) if score != want]
    assert not wrong, "get_score(): " + "; ".join(wrong) + f" ({hint})"


def check_each(student: Student, observation: str, method: str, cases: dict[str, bool], concept: str) -> None:
    """Assert a yes/no method for every hand in ``cases``; the message lists every wrong one."""
    got = student(observation, list(cases))
    wrong = [f"[{codes}] should be {want}, got {answer!r}"
             for (codes, want), answer in zip(cases.items(), got, strict=True) if answer is not want]
    assert not wrong, f"{method}: " + "; ".join(wrong) + f" ({concept})"


@pytest.mark.points(1)
def test_score_adds_card_values(student: Student) -> None:
    """Without aces, get_score() is the sum of the card values, J/Q/K counting 10."""
    check_scores(student, {"2c 3d": 5, "9h 8s": 17, "Kd Qs": 20, "Th Js 2c": 22, "5c 5d 5h 5s": 20},
                 "add up get_value() of every card")


@pytest.mark.points(1)
def test_score_counts_an_ace_as_11_when_it_fits(student: Student) -> None:
    """One ace counts 11 when that keeps the hand at 21 or under: A-6 is 17, A-K is 21."""
    check_scores(student, {"As 6d": 17, "As Kd": 21, "Ah 9c": 20, "2c As": 13, "3d 4h Ac": 18},
                 "an ace counts 11 when adding 10 does not go over 21")


@pytest.mark.points(1)
def test_score_counts_an_ace_as_1_when_11_would_bust(student: Student) -> None:
    """An ace counts 1 when 11 would go over 21: A-6-9 is 16, K-5-A is 16."""
    check_scores(student, {"As 6d 9h": 16, "Kd 5c As": 16, "As Kd Qh": 21, "9c 2d Ah": 12, "As Kd Qh 5s": 26},
                 "an ace counts 1 when 11 would take the hand over 21")


@pytest.mark.points(1)
def test_score_counts_at_most_one_ace_as_11(student: Student) -> None:
    """With several aces only one can count 11: A-A is 12, A-A-9 is 21, four aces and a 7 are 21."""
    check_scores(student, {"As Ad": 12, "As Ad 9h": 21, "As Ad Ah Ac": 14, "As Ad Kh": 12, "As Ad Ah Ac 7s": 21},
                 "two aces at 11 would be 22, so count one ace as 11 at most")


@pytest.mark.points(0)
def test_score_follows_cards_as_they_are_added(student: Student) -> None:
    """get_score() is recomputed after each add_card: empty 0, then A 11, A-6 17, A-6-9 16."""
    scores = student("scores_as_cards_arrive", "As 6d 9h")
    assert scores == [0, 11, 17, 16], f"scores of [], [A], [A 6], [A 6 9] should be [0, 11, 17, 16]; got {scores}"


@pytest.mark.points(0.5)
def test_is_soft_when_an_ace_counts_11(student: Student) -> None:
    """is_soft() is True exactly when an ace is being counted as 11 (A-6 yes, A-6-9 and 10-7 no)."""
    cases = {"As 6d": True, "As Ad": True, "As 2d 3c": True, "As 6d 9h": False, "Td 7c": False,
             "As Kd": True, "As Kd Qh": False, "As 5d 7c": False, "Ac": True}
    check_each(student, "softness", "is_soft()", cases,
               "a hand is soft only while one of its aces is counted as 11: A-6 is a soft 17, but in A-6-9 or "
               "A-5-7 the ace can only count 1 (11 would go over 21), so the hand is hard; holding an ace is not "
               "enough")


@pytest.mark.points(0.5)
def test_is_blackjack_only_for_two_card_21_not_from_split(student: Student) -> None:
    """is_blackjack() is True for an ace and a ten-card; not for a three-card 21 or a 21 made after a split."""
    cases = [("As Kd", False, True), ("Td Ah", False, True), ("7s 7d 7h", False, False),
             ("5s 6d Th", False, False), ("As 5d 5h", False, False), ("As Kd", True, False), ("Ts 9d", False, False)]
    got = student("naturals", [[codes, split] for codes, split, _want in cases])
    wrong = [f"[{c}]{' (from a split)' if split else ''} should be {w}, got {answer!r}"
             for (c, split, w), answer in zip(cases, got, strict=True) if answer is not w]
    assert not wrong, "is_blackjack(): " + "; ".join(wrong) + " (a natural is an ace and a ten-card as the first two " \
        "cards of a hand that did not come from a split; a 21 of three cards, such as 5-6-T, is a plain 21, not a " \
        "natural)"


@pytest.mark.points(0.5)
def test_is_bust_over_21(student: Student) -> None:
    """is_bust() is True only over 21: K-Q-2 busts, K-Q-A (21) and A-A-...-A do not."""
    cases = {"Kd Qs 2c": True, "Kd Qs Ac": False, "Kd Qs": False, "As Ad Ah Ac Ks Kd": True,
             "As Ad Ah Ac 7s": False, "9c 9d 4h": True}
    check_each(student, "busts", "is_bust()", cases,
               "a hand is bust when its score, aces counted the best way, is over 21")


# ---------------------------------------------------------------- no points: helpers and protocols

@pytest.mark.points(0)
@pytest.mark.parametrize("codes, text", [("As 6d", "7 / 17"), ("Td 7c", "17"), ("As 6d 9h", "16"),
                                         ("As Kd", "21"), ("", "0")])
def test_total_text_shows_both_soft_totals(student: Student, codes: str, text: str) -> None:
    """total_text() shows a soft total as "7 / 17" (justBlackjack) and a hard one as "17"."""
    got = student("total_text", codes)
    assert got == text, (f"total_text() of [{codes}] should be {text!r}, got {got!r}; total_text is given and reads "
                         f"get_score() and is_soft(), so fix those first")


@pytest.mark.points(0)
@pytest.mark.parametrize("codes, by, pair", [("8s 8d", "rank", True), ("Ks Qd", "rank", False),
                                             ("Ks Qd", "value", True), ("8s 8d 8h", "rank", False),
                                             ("As Ad", "value", True), ("9s 8d", "value", False)])
def test_is_pair_by_rank_or_value(student: Student, codes: str, by: str, pair: bool) -> None:
    """is_pair(by="rank") needs equal faces; by="value" accepts any two tens; only two-card hands are pairs."""
    got = student("is_pair", codes, by)
    assert got is pair, f"is_pair(by={by!r}) of [{codes}] should be {pair}, got {got!r}"


@pytest.mark.points(0)
def test_is_pair_rejects_unknown_mode(student: Student) -> None:
    """is_pair(by=...) other than "rank"/"value" is a ValueError."""
    raised = student.raised("is_pair", "8s 8d", "suit")
    assert raised is not None and raised.is_a("ValueError"), \
        f"is_pair(by='suit') should raise ValueError; {'it returned' if raised is None else 'it raised ' + raised.type}"


@pytest.mark.points(0)
def test_add_card_rejects_non_cards(student: Student) -> None:
    """add_card("As") is a TypeError: a hand holds Card objects."""
    raised = student.raised("add_text", "", "As")
    assert raised is not None and raised.is_a("TypeError"), \
        f"add_card('As') should raise TypeError; {'it returned' if raised is None else 'it raised ' + raised.type}"


@pytest.mark.points(0)
def test_hand_speaks_container_protocols(student: Student) -> None:
    """A hand has len, indexing, iteration, membership by value, and str as card codes."""
    got = student("protocols", "As 7d", "7d", "7h")
    assert got == {"len": 2, "first": "As", "iterated": ["As", "7d"], "has_present": True, "has_absent": False,
                   "str": "As 7d", "cards": ["As", "7d"], "cards_is_tuple": True}, f"the hand [As 7d] gave {got}"
