"""Rules: the validation table, presets and their aliases, files, summaries (not graded)."""

from __future__ import annotations

import dataclasses
import random
import re
from fractions import Fraction
from pathlib import Path

import pytest

from blackjack import Action, Blackjack, PresetError, Rules, RulesError, Shoe

PRESETS = ["cs111", "cs111_money", "vegas", "atlantic_city", "downtown", "single_deck", "european", "justblackjack", "thunderjack"]


@pytest.mark.parametrize("changes, words", [
    ({"decks": 0}, "decks must be 1..8"),
    ({"decks": 9}, "decks must be 1..8"),
    ({"double_on": "8-11"}, "double_on"),
    ({"surrender": "sometimes"}, "surrender"),
    ({"split_by": "suit"}, "split_by"),
    ({"max_split_hands": 0}, "max_split_hands"),
    ({"max_players": 8}, "max_players"),
    ({"blackjack_pays": 0}, "blackjack_pays"),
    ({"charlie_pays": -1}, "charlie_pays"),
    ({"resplit_aces": True, "max_split_hands": 2}, "resplit_aces"),
    ({"double_on": "none"}, "double_after_split"),
    ({"max_split_hands": 1}, "double_after_split"),
    ({"hole_card": False}, "dealer_peeks needs a hole card"),
    ({"naturals": False}, "needs naturals"),
    ({"naturals": False, "dealer_peeks": False}, "insurance needs naturals"),
    ({"wagering": False}, "insurance is a side bet of money"),
    ({"naturals": False, "dealer_peeks": False, "insurance": False, "thunderjack_pays": 3}, "thunderjack_pays"),
    ({"thunderjack_pays": 0}, "thunderjack_pays"),
    ({"charlie_cards": 2}, "charlie_cards"),
    ({"charlie_cards": 12}, "charlie_cards"),
    ({"cut_card_from_back": (61, 75)}, "either penetration or cut_card_from_back"),
    ({"penetration": None}, "give penetration or cut_card_from_back"),
    ({"penetration": None, "cut_card_from_back": (75, 61)}, "cut_card_from_back"),
    ({"penetration": None, "cut_card_from_back": (0, 10)}, "cut_card_from_back"),
    ({"decks": 1, "penetration": None, "cut_card_from_back": (10, 52)}, "cut_card_from_back"),
    ({"decks": 1, "penetration": None, "cut_card_from_back": (61, 75)}, "(the cards in 1 deck), got (61, 75)"),
    ({"penetration": 0}, "penetration"),
    ({"penetration": 1}, "penetration"),
    ({"penetration": "5/4"}, "penetration"),
    ({"min_bet": 0}, "min_bet"),
    ({"min_bet": 10, "max_bet": 5}, "max_bet"),
    ({"starting_bankroll": -1}, "starting_bankroll"),
    ({"blackjack_pays": "three halves"}, "not a number"),
    ({"max_bet": "1e999999"}, "more than 30 digits"),
])
def test_impossible_rules_are_rejected_at_construction(changes: dict[str, object], words: str) -> None:
    """Each impossible value or contradiction raises RulesError (a ValueError) naming the problem."""
    with pytest.raises(RulesError) as info:
        Rules(**changes)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)
    assert words in str(info.value), f"{changes}: message {str(info.value)!r} should mention {words!r}"


def test_a_huge_rules_value_is_quoted_short() -> None:
    """A 5000-character value gets a one-line message that quotes only its start."""
    with pytest.raises(RulesError, match=r"'9{30,}\.\.\.$") as info:
        Rules(max_bet="9" * 5000)
    assert len(str(info.value)) < 150


@pytest.mark.parametrize("changes", [
    {"blackjack_pays": 1.5}, {"min_bet": 2.0}, {"penetration": 0.75}, {"dealer_hits_soft_17": 1},
    {"naturals": "yes"}, {"blackjack_pays": True}, {"max_bet": [500]},
])
def test_wrong_types_are_type_errors(changes: dict[str, object]) -> None:
    """A float payout or a non-bool switch is a TypeError: money and odds are never floats."""
    with pytest.raises(TypeError):
        Rules(**changes)  # type: ignore[arg-type]


def test_replace_rechecks() -> None:
    """dataclasses.replace runs the checks again, so a contradiction cannot sneak in later."""
    with pytest.raises(RulesError):
        dataclasses.replace(Rules.preset("vegas"), hole_card=False)


def test_rules_are_frozen_and_hashable() -> None:
    """Rules cannot be changed in place, and equal rules hash alike."""
    rules = Rules.preset("vegas")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.decks = 2  # type: ignore[misc]
    assert hash(rules) == hash(Rules.preset("vegas")) and rules == Rules.preset("vegas")


def test_exact_values_from_strings() -> None:
    """Payouts and money given as strings or ints become Fractions."""
    rules = Rules(blackjack_pays="6/5", min_bet=5, max_bet="100", starting_bankroll="250.5")  # type: ignore[arg-type]
    assert (rules.blackjack_pays, rules.min_bet, rules.max_bet, rules.starting_bankroll) == \
        (Fraction(6, 5), 5, 100, Fraction(501, 2))
    assert all(isinstance(v, Fraction) for v in (rules.blackjack_pays, rules.min_bet, rules.starting_bankroll))


def test_preset_names_in_file_order() -> None:
    """Rules.preset_names() lists the nine presets, cs111 first."""
    assert Rules.preset_names() == PRESETS


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_loads_and_builds_a_shoe(name: str) -> None:
    """Every preset loads, carries its name and description, and builds a shuffled shoe of its decks."""
    rules = Rules.preset(name)
    assert rules.name == name and rules.description
    shoe = Shoe.from_rules(rules, seed=1)
    assert len(shoe) == rules.decks * 52 == rules.total_cards
    assert rules.summary().startswith(f"{rules.decks}D ")


@pytest.mark.parametrize("alias, name", [
    ("strip", "vegas"), ("Vegas-Strip", "vegas"), ("las vegas", "vegas"), ("AC", "atlantic_city"),
    ("atlantic city", "atlantic_city"), ("double-deck", "downtown"), ("1d", "single_deck"),
    ("ENHC", "european"), ("no-hole-card", "european"), ("trainer", "justblackjack"),
    ("just blackjack", "justblackjack"), ("tj", "thunderjack"), ("course", "cs111"), ("  CS111 ", "cs111"),
])
def test_preset_aliases(alias: str, name: str) -> None:
    """Aliases and spellings with spaces, hyphens or capitals find the preset."""
    assert Rules.preset(alias) == Rules.preset(name)


def test_unknown_preset_lists_the_known_ones() -> None:
    """An unknown preset raises PresetError (a ValueError) naming it and listing every preset."""
    with pytest.raises(ValueError) as info:
        Rules.preset("vegs")
    assert isinstance(info.value, PresetError)
    message = str(info.value)
    assert "'vegs'" in message and all(name in message for name in PRESETS), message


@pytest.mark.parametrize("name, field, value", [
    ("cs111", "naturals", False), ("cs111", "reshuffle_every_round", True), ("cs111", "wagering", False),
    ("cs111", "decks", 1), ("vegas", "surrender", "late"), ("vegas", "decks", 6),
    ("atlantic_city", "decks", 8), ("downtown", "dealer_hits_soft_17", True),
    ("single_deck", "blackjack_pays", Fraction(6, 5)), ("single_deck", "double_after_split", False),
    ("european", "hole_card", False), ("european", "double_on", "9-11"),
    ("justblackjack", "cut_card_from_back", (61, 75)), ("justblackjack", "double_on", "9-11"),
    ("justblackjack", "split_by", "value"), ("thunderjack", "decks", 4),
    ("thunderjack", "penetration", Fraction(3, 5)), ("thunderjack", "thunderjack_pays", Fraction(3)),
    ("thunderjack", "charlie_cards", 6), ("thunderjack", "charlie_pays", Fraction(5)),
    ("thunderjack", "starting_bankroll", Fraction(500)), ("thunderjack", "max_players", 3),
    ("thunderjack", "max_split_hands", 2), ("thunderjack", "surrender", "late"),
])
def test_preset_values_match_the_sources(name: str, field: str, value: object) -> None:
    """Preset fields match the course spec, the Thunderjack design data and justBlackjack (issue 3)."""
    assert getattr(Rules.preset(name), field) == value


def test_from_file_reads_toml(tmp_path: Path) -> None:
    """Rules.from_file reads rule fields from a TOML file; the file's stem is the name."""
    path = tmp_path / "house.toml"
    path.write_text('decks = 2\nblackjack_pays = "6/5"\ncut_card_from_back = [20, 30]\n', encoding="utf-8")
    rules = Rules.from_file(path)
    assert (rules.name, rules.decks, rules.blackjack_pays, rules.penetration, rules.cut_card_from_back) == \
        ("house", 2, Fraction(6, 5), None, (20, 30))


@pytest.mark.parametrize("text, error, words", [
    ("decks = [", PresetError, "is not valid TOML"), ("colour = 'red'\n", RulesError, "unknown rule 'colour' in rules file"),
    ("decks = 12\n", RulesError, "decks must be 1..8"),
    ("blackjack_pays = 1.5\n", RulesError, "rules file '"),
    ("name = 5\n", RulesError, "name must be text in quotes, got 5"), ("name = ''\n", RulesError, "name must be text"),
])
def test_from_file_errors(tmp_path: Path, text: str, error: type[Exception], words: str) -> None:
    """Bad TOML, an unknown field, a bad value, a float payout or a name that is not text in a rules file
    raise a RulesError kind whose message says what and, for an unknown field, which file."""
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(error, match=re.escape(words)):
        Rules.from_file(path)


def test_from_file_missing(tmp_path: Path) -> None:
    """A missing rules file raises PresetError naming the path."""
    with pytest.raises(PresetError, match="nope.toml"):
        Rules.from_file(tmp_path / "nope.toml")


def test_load_takes_a_preset_name_or_a_rules_file(tmp_path: Path) -> None:
    """Rules.load, behind every front end's --rules: a preset name, a .toml path, or any existing file."""
    assert Rules.load("Vegas") == Rules.preset("vegas")
    toml_file = tmp_path / "house.toml"
    toml_file.write_text('decks = 2\nblackjack_pays = "6/5"\n', encoding="utf-8")
    plain_file = tmp_path / "house_rules"
    plain_file.write_text("decks = 1\n", encoding="utf-8")
    assert (Rules.load(toml_file).decks, Rules.load(str(toml_file)).blackjack_pays) == (2, Fraction(6, 5))
    assert Rules.load(str(plain_file)).decks == 1
    with pytest.raises(PresetError, match="cannot read rules file"):
        Rules.load(str(tmp_path / "missing.toml"))
    with pytest.raises(PresetError, match="unknown preset"):
        Rules.load("vegass")


def test_justblackjack_cut_card_61_to_75_from_the_back() -> None:
    """The justblackjack shoe places its cut card 61-75 cards from the back at every shuffle."""
    shoe = Shoe.from_rules(Rules.preset("justblackjack"), rng=random.Random(5))
    places = set()
    for _ in range(200):
        places.add(shoe.cut_card_position)
        shoe.shuffle()
    assert min(places) >= 61 and max(places) <= 75 and len(places) > 5


def test_penetration_places_cut_card() -> None:
    """A 4-deck shoe at penetration 3/5 (Thunderjack) has its cut card 83 cards from the back (40% of 208)."""
    shoe = Shoe.from_rules(Rules.preset("thunderjack"), seed=1)
    assert shoe.cut_card_position == 208 - round(208 * Fraction(3, 5)) == 83


def test_table_seats_at_most_max_players() -> None:
    """A table refuses more players than rules.max_players, and duplicate names."""
    with pytest.raises(ValueError):
        Blackjack(["A", "B", "C", "D", "E"], Rules.preset("single_deck"))
    with pytest.raises(ValueError):
        Blackjack(["A", "A"], Rules.preset("vegas"))


@pytest.mark.parametrize(("preset", "moves"), [
    ("cs111", ()),
    ("vegas", (Action.DOUBLE, Action.SPLIT, Action.SURRENDER)),
    ("atlantic_city", (Action.DOUBLE, Action.SPLIT, Action.SURRENDER)),
    ("european", (Action.DOUBLE, Action.SPLIT)),
])
def test_optional_moves_lists_the_two_card_moves_offered(preset: str, moves: tuple[Action, ...]) -> None:
    """Rules.optional_moves: DOUBLE, SPLIT and SURRENDER as far as the rules offer them."""
    assert Rules.preset(preset).optional_moves == moves


def test_optional_moves_follow_a_replaced_rule() -> None:
    """A changed rule is a new Rules value with its own optional moves."""
    vegas = Rules.preset("vegas")
    assert vegas.optional_moves  # computed and cached on this value
    no_surrender = dataclasses.replace(vegas, surrender="none")
    assert no_surrender.optional_moves == (Action.DOUBLE, Action.SPLIT)
    assert no_surrender != vegas and vegas.optional_moves == (Action.DOUBLE, Action.SPLIT, Action.SURRENDER)
