"""Table rules: one frozen :class:`Rules` value, passed explicitly to everything that needs it.

Presets are data in ``presets.toml`` (read with :mod:`tomllib`): ``Rules.preset("vegas")``.
Change one rule with :func:`dataclasses.replace`, which re-runs the checks::

    >>> import dataclasses
    >>> h17 = dataclasses.replace(Rules.preset("vegas"), dealer_hits_soft_17=True)
    >>> h17.decks, h17.dealer_hits_soft_17, h17.blackjack_pays
    (6, True, Fraction(3, 2))

Every rule has exactly one field, one name and one default; a value that contradicts
another (``resplit_aces`` without splitting, a peek without a hole card) raises
:class:`~blackjack.errors.RulesError` at construction, never later.
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import os
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any

from .actions import Action
from .errors import InvalidBetError, PresetError, RulesError, quoted
from .money import MAX_DIGITS, format_money, to_money

__all__ = ["Rules"]

#: The largest rules file :meth:`Rules.from_file` reads, in bytes. A rules file is a few
#: hundred bytes; the cap keeps a huge file from being read into memory.
MAX_RULES_FILE_BYTES = 64 * 1024

#: The longest rules name, in characters: it is shown in banners, title bars and one-line messages.
MAX_NAME_LENGTH = 40

#: The longest rules description, in characters: one sentence (the presets' longest is under 200).
MAX_DESCRIPTION_LENGTH = 300

DOUBLE_ON = ("any", "9-11", "10-11", "none")
SURRENDER = ("none", "late", "early")
SPLIT_BY = ("rank", "value")


@dataclass(frozen=True)
class Rules:
    """The rules of one blackjack table. Immutable; compare and hash by value.

    Money fields are credits (the table's currency units); payout fields are
    ``Fraction`` odds paid per unit bet (``Fraction(3, 2)`` is "3:2").

    Attributes:
        name: the preset's name, or ``"custom"``; for display only: at most
            :data:`MAX_NAME_LENGTH` printable characters (no tab, newline or terminal escape).
        description: one sentence describing the table; for display only: at most
            :data:`MAX_DESCRIPTION_LENGTH` printable characters.
        decks: decks in the shoe, 1..8.
        dealer_hits_soft_17: True for H17 (dealer hits A-6), False for S17. The cs111
            dealer "hits until his score is 17 or higher", i.e. S17.
        naturals: True when a two-card 21 is a natural that beats other 21s and pays
            ``blackjack_pays``. The cs111 game has no naturals: a 21 is a 21.
        blackjack_pays: odds on a player natural: 3:2 classic, 6:5 on many single-deck games.
        double_on: which two-card totals may double down: ``"any"``, ``"9-11"``
            (European, justBlackjack), ``"10-11"``, or ``"none"``.
        double_after_split: may a hand that came from a split double down (DAS).
        split_by: pairs are equal ``"rank"`` (K-K, not K-Q) or equal ``"value"`` (any two tens).
        max_split_hands: the most hands one seat may hold by splitting; 1 means no split.
        resplit_aces: may split aces be split again.
        hit_split_aces: may split aces take more than one card each.
        surrender: ``"none"``, ``"late"`` (after the dealer checks for a natural) or
            ``"early"`` (before the check, against an ace or ten upcard too).
        hole_card: the dealer takes a face-down second card in the opening deal (US,
            cs111). False is the European no-hole-card game: the second card comes
            after the players, and a dealer natural takes doubled and split bets too.
        dealer_peeks: the dealer checks an ace or ten upcard for a natural before the
            players act, ending the round at once if there is one (US rules).
        insurance: insurance (and even money) is offered when the dealer shows an ace;
            it pays 2:1 and may be up to half the bet.
        penetration: share of the shoe dealt before the cut card, in (0, 1); None when
            ``cut_card_from_back`` places the cut card instead.
        cut_card_from_back: ``(low, high)``: the cut card is placed a random number of
            cards from the back in that inclusive range (justBlackjack: 61-75).
        reshuffle_every_round: shuffle all cards before every round (cs111).
        charlie_cards: a hand reaching this many cards without busting wins at once
            (Thunderjack's Blitz is a six-card Charlie); None for no Charlie rule.
        charlie_pays: odds on a Charlie win (Blitz pays 5:1, Thunderjack design data).
        thunderjack_pays: odds on a Thunderjack, a suited natural whose other card is
            J, Q or K, paid at once and winning even against a dealer natural; two or
            more at the table push each other (3:1, Thunderjack design data). None turns
            the rule off.
        max_players: seats at the table (1..7; Thunderjack has three).
        wagering: front ends take bets; False plays for no money (cs111 week 1), with
            every hand staked at ``min_bet`` so results are still recorded.
        min_bet: the table minimum, credits.
        max_bet: the table maximum, credits.
        starting_bankroll: credits a new player sits down with (Thunderjack: 500).

    Raises:
        RulesError: (a ``ValueError``) a field has an impossible value or contradicts another.
        TypeError: a field has the wrong type (a float payout, say).
    """

    name: str = "custom"
    description: str = ""
    decks: int = 6
    dealer_hits_soft_17: bool = False
    naturals: bool = True
    blackjack_pays: Fraction = Fraction(3, 2)
    double_on: str = "any"
    double_after_split: bool = True
    split_by: str = "rank"
    max_split_hands: int = 4
    resplit_aces: bool = False
    hit_split_aces: bool = False
    surrender: str = "none"
    hole_card: bool = True
    dealer_peeks: bool = True
    insurance: bool = True
    penetration: Fraction | None = Fraction(3, 4)
    cut_card_from_back: tuple[int, int] | None = None
    reshuffle_every_round: bool = False
    charlie_cards: int | None = None
    charlie_pays: Fraction = Fraction(1)
    thunderjack_pays: Fraction | None = None
    max_players: int = 7
    wagering: bool = True
    min_bet: Fraction = Fraction(1)
    max_bet: Fraction = Fraction(500)
    starting_bankroll: Fraction = Fraction(1000)

    def __post_init__(self) -> None:
        for field in ("blackjack_pays", "charlie_pays", "min_bet", "max_bet", "starting_bankroll"):
            _set(self, field, _exact(field, getattr(self, field)))
        for field in ("penetration", "thunderjack_pays"):
            if getattr(self, field) is not None:
                _set(self, field, _exact(field, getattr(self, field)))
        if self.cut_card_from_back is not None:
            _need(isinstance(self.cut_card_from_back, (tuple, list)),
                  f"cut_card_from_back must be (low, high), two whole numbers of cards, "
                  f"got {_shown(self.cut_card_from_back)}")
            _set(self, "cut_card_from_back", tuple(self.cut_card_from_back))
        self._check()

    def _check(self) -> None:
        for field in ("dealer_hits_soft_17", "naturals", "double_after_split", "resplit_aces",
                      "hit_split_aces", "hole_card", "dealer_peeks", "insurance",
                      "reshuffle_every_round", "wagering"):
            if not isinstance(getattr(self, field), bool):
                raise TypeError(f"Rules.{field} must be True or False, got {_shown(getattr(self, field))}")
        _need(isinstance(self.name, str) and self.name.strip() != "", f"name must be text, got {quoted(self.name)}")
        _need(isinstance(self.description, str), f"description must be text, got {_shown(self.description)}")
        _check_shown_text("name", self.name, MAX_NAME_LENGTH)
        _check_shown_text("description", self.description, MAX_DESCRIPTION_LENGTH)
        _need(_is_int(self.decks) and 1 <= self.decks <= 8, f"decks must be 1..8, got {_shown(self.decks)}")
        _need(self.double_on in DOUBLE_ON, f"double_on must be one of {DOUBLE_ON}, got {_shown(self.double_on)}")
        _need(self.surrender in SURRENDER, f"surrender must be one of {SURRENDER}, got {_shown(self.surrender)}")
        _need(self.split_by in SPLIT_BY, f"split_by must be one of {SPLIT_BY}, got {_shown(self.split_by)}")
        _need(_is_int(self.max_split_hands) and 1 <= self.max_split_hands <= 8,
              f"max_split_hands must be 1..8 (1 = no split), got {_shown(self.max_split_hands)}")
        _need(_is_int(self.max_players) and 1 <= self.max_players <= 7,
              f"max_players must be 1..7, got {_shown(self.max_players)}")
        _need(self.blackjack_pays > 0, "blackjack_pays must be more than 0")
        _need(self.charlie_pays > 0, "charlie_pays must be more than 0")
        _need(not (self.resplit_aces and self.max_split_hands < 3),
              "resplit_aces needs max_split_hands of 3 or more")
        _need(not (self.double_after_split and (self.double_on == "none" or self.max_split_hands == 1)),
              "double_after_split needs doubling (double_on != 'none') and splitting (max_split_hands > 1)")
        _need(not (self.dealer_peeks and not self.hole_card),
              "dealer_peeks needs a hole card: a dealer with no hole card cannot peek")
        _need(not (self.dealer_peeks and not self.naturals), "dealer_peeks needs naturals")
        _need(not (self.thunderjack_pays is not None and not self.naturals), "thunderjack_pays needs naturals")
        _need(not (self.insurance and not self.naturals), "insurance needs naturals")
        _need(not (self.insurance and not self.wagering),
              "insurance is a side bet of money: it needs wagering (set insurance = false to play for no money)")
        _need(self.thunderjack_pays is None or self.thunderjack_pays > 0, "thunderjack_pays must be more than 0")
        _need(self.charlie_cards is None or (_is_int(self.charlie_cards) and 3 <= self.charlie_cards <= 11),
              f"charlie_cards must be 3..11 or None, got {_shown(self.charlie_cards)}")
        if self.cut_card_from_back is not None:
            _need(self.penetration is None,
                  "give either penetration or cut_card_from_back, not both (set the other to None)")
            low_high = self.cut_card_from_back
            _need(len(low_high) == 2 and all(_is_int(n) for n in low_high)
                  and 0 < low_high[0] <= low_high[1] < self.decks * 52,
                  f"cut_card_from_back must be (low, high) with 0 < low <= high < {self.decks * 52} "
                  f"(the cards in {self.decks} deck{'s' if self.decks > 1 else ''}), got {quoted(low_high)}")
        else:
            _need(self.penetration is not None, "give penetration or cut_card_from_back")
            assert self.penetration is not None
            _need(0 < self.penetration < 1, f"penetration must be between 0 and 1, got {self.penetration}")
        _need(self.min_bet > 0, f"min_bet must be more than 0, got {self.min_bet}")
        _need(self.max_bet >= self.min_bet, "max_bet must be at least min_bet")
        for name in ("min_bet", "max_bet"):  # players bet whole credits (parse_bet), so the limits are whole too
            value = getattr(self, name)
            _need(value.denominator == 1, f"{name} must be a whole number of credits, got {format_money(value)}")
        _need(self.starting_bankroll >= 0, "starting_bankroll must not be negative")

    # --- presets ------------------------------------------------------------------------
    @classmethod
    def preset(cls, name: str) -> Rules:
        """Return the named preset from ``presets.toml``.

        Names are case-insensitive; ``-`` and spaces count as ``_``; aliases such as
        ``"strip"`` for ``"vegas"`` work.

        Raises:
            PresetError: (a ``ValueError``) no preset has that name; the message lists them.
        """
        table = _presets()
        key = _aliases(table).get(name.strip().lower().replace("-", "_").replace(" ", "_"))
        if key is None:
            raise PresetError(f"unknown preset: {quoted(name)}; choose from: {', '.join(table)}")
        return cls.from_mapping(table[key], name=key)

    @staticmethod
    def preset_names() -> list[str]:
        """Return the preset names in the order of ``presets.toml`` (cs111 first)."""
        return list(_presets())

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *, name: str = "custom", source: str | None = None) -> Rules:
        """Build rules from a mapping of field names to TOML values (fractions as ``"3/2"`` strings).

        A mapping that gives ``cut_card_from_back`` and no ``penetration`` gets
        ``penetration=None``, since TOML cannot write None.

        Args:
            data: the rule fields; a ``name`` field there replaces ``name``.
            name: the rules' name.
            source: where the mapping came from, for messages (default ``"preset '<name>'"``).

        Raises:
            RulesError: an unknown field name, a value of the wrong kind (a number where
                text belongs, a date, a table), or a value the checks reject; the message
                names the source and the field.
        """
        where = source or f"preset {name!r}"
        known = {f.name for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {"name": name}
        for key, value in data.items():
            if key == "aliases":
                continue
            if key not in known:
                raise RulesError(f"unknown rule {quoted(key)} in {where}")
            problem = _kind_problem(key, value)
            if problem:
                raise RulesError(f"{where}: {problem}")
            values[key] = value
        if "cut_card_from_back" in values and "penetration" not in values:
            values["penetration"] = None  # TOML has no None; a cut card replaces penetration
        try:
            return cls(**values)
        except (TypeError, RulesError) as err:
            raise RulesError(f"{where}: {err}") from None

    @classmethod
    def from_file(cls, path: str | Path) -> Rules:
        """Load rules from a TOML file holding rule fields at the top level.

        Only a regular file of at most :data:`MAX_RULES_FILE_BYTES` bytes of UTF-8 is read (a
        byte-order mark allowed): a FIFO or a device such as ``/dev/zero`` would never end.

        Raises:
            PresetError: the file cannot be read, is not a regular file, is too large, is
                not UTF-8 text, is not valid TOML, or nests too deeply to be rules.
            RulesError: a field is unknown or has a bad value (a ``name`` or ``description``
                too long or holding control characters, say); the message names the field.
                A file with no ``name`` is named after the file (``"custom"`` when the file's
                name could not be shown).
        """
        file = Path(path)
        where = f"rules file {_path_text(file)}"
        text = _read_text(file, where)
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as err:
            raise PresetError(f"{where} is not valid TOML: {err}") from None
        except ValueError:  # int() refuses a number of more than 4300 digits
            raise PresetError(f"{where} holds a number too long to read") from None
        except RecursionError:
            raise PresetError(f"{where} nests lists or tables too deeply: rules are a flat list of "
                              "'name = value' lines") from None
        return cls.from_mapping(data, name=_file_name(file.stem), source=where)

    @classmethod
    def load(cls, name_or_path: str | Path) -> Rules:
        """Return a preset by name, or the rules in a TOML file: what every front end's ``--rules`` takes.

        A name that ends in ``.toml``, or names an existing file (or folder, device ...), is read with
        :meth:`from_file`; anything else is a preset name for :meth:`preset`.

        Raises:
            PresetError: no preset has that name, or the file cannot be read or is not TOML.
            RulesError: the file has an unknown field or a bad value.
        """
        text = str(name_or_path)
        if text.lower().endswith(".toml") or _exists(text):
            return cls.from_file(text)
        return cls.preset(text)

    # --- derived facts ------------------------------------------------------------------
    @property
    def total_cards(self) -> int:
        """Cards in a full shoe: ``decks * 52``."""
        return self.decks * 52

    @functools.cached_property
    def optional_moves(self) -> tuple[Action, ...]:
        """The two-card moves these rules offer at all, of DOUBLE, SPLIT and SURRENDER (cs111 offers none)."""
        moves = []
        if self.double_on != "none":
            moves.append(Action.DOUBLE)
        if self.max_split_hands > 1:
            moves.append(Action.SPLIT)
        if self.surrender != "none":
            moves.append(Action.SURRENDER)
        return tuple(moves)

    def summary(self) -> str:
        """One line in the usual shorthand, e.g. ``"6D S17 3:2 DAS LS peek"``."""
        parts = [f"{self.decks}D", "H17" if self.dealer_hits_soft_17 else "S17"]
        if self.naturals:
            parts.append(f"{self.blackjack_pays.numerator}:{self.blackjack_pays.denominator}")
        if self.double_on != "any":
            parts.append("no double" if self.double_on == "none" else f"D{self.double_on}")
        if self.double_after_split:
            parts.append("DAS")
        if self.max_split_hands == 1:
            parts.append("no split")
        parts.append({"none": "", "late": "LS", "early": "ES"}[self.surrender])
        if self.naturals:
            parts.append("peek" if self.dealer_peeks else ("no peek" if self.hole_card else "ENHC"))
        else:
            parts.append("no naturals")
        if not self.wagering:
            parts.append("no money")
        if self.thunderjack_pays is not None:
            parts.append("Thunderjack")
        if self.charlie_cards is not None:
            parts.append(f"{self.charlie_cards}-card Charlie")
        return " ".join(p for p in parts if p)


def _check_shown_text(field: str, text: str, most: int) -> None:
    """Refuse (RulesError) text longer than ``most`` or not ``str.isprintable``: it could garble a terminal."""
    _need(len(text) <= most, f"{field} may have at most {most} characters, got {len(text)}")
    _need(text.isprintable(), f"{field} may hold only printable characters (no tab, newline or terminal "
                              f"escape), got {quoted(text)}")


def _file_name(stem: str) -> str:
    """The name of rules from a file that gives none: the file's stem when it can be a name, else ``"custom"``."""
    usable = stem.strip() and len(stem) <= MAX_NAME_LENGTH and stem.isprintable()
    return stem if usable else "custom"


def _set(rules: Rules, field: str, value: object) -> None:
    object.__setattr__(rules, field, value)


def _need(condition: bool, message: str) -> None:
    if not condition:
        raise RulesError(message)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _path_text(file: Path) -> str:
    """A path quoted for a message; a very long one keeps its start and its end (the file's name)."""
    text = repr(str(file))
    return text if len(text) <= 160 else f"{text[:60]}...{text[-80:]}"


def _exists(text: str) -> bool:
    """True when ``text`` names something on disk; False for names no file can have (too long, a NUL)."""
    try:
        return os.path.lexists(text)
    except (OSError, ValueError):
        return False


def _read_text(file: Path, where: str) -> str:
    """The text of :meth:`Rules.from_file`'s file; opened without blocking, so a FIFO is refused at once.

    Raises:
        PresetError: the file cannot be opened, is not a regular file, is too large or is not UTF-8.
    """
    try:
        fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except (OSError, ValueError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise PresetError(f"cannot read {where}: {reason}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "a device, pipe or other special file"
            raise PresetError(f"cannot read {where}: it is {kind}, not a regular file")
        with open(fd, "rb", closefd=False) as stream:
            data = stream.read(MAX_RULES_FILE_BYTES + 1)  # buffered: reads on until that many bytes or the end
    except OSError as err:
        raise PresetError(f"cannot read {where}: {err.strerror or err}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_RULES_FILE_BYTES:
        raise PresetError(f"cannot read {where}: it is larger than {MAX_RULES_FILE_BYTES // 1024} KiB, "
                          "far more than any rules file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise PresetError(f"cannot read {where}: it is not UTF-8 text (byte {err.start + 1} is "
                          f"{data[err.start:err.start + 1]!r}); save it as UTF-8") from None


#: What each kind of field takes from a rules file, in words, and the Python types that carry it.
_KINDS: dict[str, tuple[str, tuple[type, ...]]] = {
    "str": ("text in quotes", (str,)),
    "bool": ("true or false", (bool,)),
    "int": ("a whole number", (int,)),
    "int | None": ("a whole number", (int,)),
    "Fraction": ('a whole number or a string such as "3/2" or "7.5"', (int, str, Fraction)),
    "Fraction | None": ('a whole number or a string such as "3/4" or "0.75"', (int, str, Fraction)),
    "tuple[int, int] | None": ("a list of two whole numbers of cards, e.g. [61, 75]", (list, tuple)),
}
_FIELD_KINDS = {f.name: str(f.type) for f in dataclasses.fields(Rules)}


def _kind_problem(field: str, value: object) -> str | None:
    """What is wrong when a rules file gives ``field`` a value of the wrong kind; None for the right kind."""
    words, types = _KINDS[_FIELD_KINDS[field]]
    ok = isinstance(value, types) and not (isinstance(value, bool) and bool not in types)
    if ok and isinstance(value, (list, tuple)):
        ok = len(value) == 2 and all(_is_int(n) for n in value)
    if ok:
        return None
    hint = " (money and odds are exact: write a decimal in quotes, e.g. \"0.75\")" if isinstance(value, float) else ""
    return f"{field} must be {words}, got {_shown(value)}{hint}"


def _shown(value: object) -> str:
    """A value as a rules file would write it, short enough for a one-line message."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (datetime.date, datetime.time)):  # datetime is a date
        return f"the {'time' if isinstance(value, datetime.time) else 'date'} {value.isoformat()}"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, (list, tuple)):
        if len(value) <= 4 and all(isinstance(v, (bool, int, float, str)) for v in value):
            return "[" + ", ".join(_shown(v) for v in value) + "]"
        return f"a list of {len(value)} item{'s' if len(value) != 1 else ''}"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** 36:  # (repr of a 5000-digit int raises ValueError)
        return "a number of more than 36 digits"
    return quoted(value)


def _exact(field: str, value: object) -> Fraction:
    if isinstance(value, bool) or isinstance(value, float):
        raise TypeError(f"Rules.{field} must be exact (int, Fraction or a string like '3/2'), not {value!r}")
    if isinstance(value, (int, Fraction)):
        return Fraction(value)
    if isinstance(value, str):
        try:
            return to_money(value)  # the same reading (and range) as typed money: "3/2", "0.75", "500"
        except InvalidBetError:
            raise RulesError(f"Rules.{field}: not a number, or more than {MAX_DIGITS} digits either side of "
                             f"the point: {quoted(value)}") from None
    raise TypeError(f"Rules.{field} must be an int, Fraction or str, not {type(value).__name__}")


@functools.cache
def _presets() -> dict[str, dict[str, Any]]:
    try:
        text = resources.files(__package__).joinpath("presets.toml").read_text(encoding="utf-8")
        return tomllib.loads(text)
    except (OSError, tomllib.TOMLDecodeError) as err:  # pragma: no cover - a broken install
        raise PresetError(f"cannot read the presets file: {err}") from None


def _aliases(table: dict[str, dict[str, Any]]) -> dict[str, str]:
    names: dict[str, str] = {}
    for key, data in table.items():
        names[key] = key
        for alias in data.get("aliases", []):
            names[str(alias).lower().replace("-", "_")] = key
    return names
