"""The closed vocabularies of a round: player actions, round phases and hand results."""

from __future__ import annotations

import enum

from .errors import quoted

__all__ = ["Action", "Phase", "Result"]


class Action(enum.Enum):
    """A decision a player takes; the round lists the legal ones for the current turn.

    Each member has a one-letter ``key`` for keyboard front ends and a ``label``. The
    members are in table order, the order menus and buttons list them in:
    ``[a for a in Action if a in legal]``.
    """

    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"
    INSURANCE = "insurance"
    DECLINE = "decline"

    @property
    def key(self) -> str:
        """The one-letter shortcut: h, s, d, p, r, i, n."""
        return _KEYS[self]

    @property
    def label(self) -> str:
        """The display name with its shortcut letter in brackets, e.g. ``"s[p]lit"``."""
        name = self.value
        i = name.index(self.key)
        return f"{name[:i]}[{self.key}]{name[i + 1:]}"

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read an action from its name or its one-letter key, case-insensitively: ``"h"``, ``"Hit"``, ``"p"``.

        ``"no"`` also declines an offer.

        Raises:
            ValueError: ``text`` names no action.
        """
        word = text.strip().lower()
        for action in cls:
            if word in (action.value, action.key):
                return action
        if word == "no":  # the answer to "Insurance?" or "Surrender early?"
            return cls.DECLINE
        names = ", ".join(a.value for a in cls)
        raise ValueError(f"unknown action: {quoted(text)} (choose from {names})")


_KEYS = {Action.HIT: "h", Action.STAND: "s", Action.DOUBLE: "d", Action.SPLIT: "p", Action.SURRENDER: "r",
         Action.INSURANCE: "i", Action.DECLINE: "n"}


class Phase(enum.Enum):
    """The stage a round is in; the round moves forward only, BETTING to SETTLED."""

    BETTING = "betting"
    INSURANCE = "insurance"
    EARLY_SURRENDER = "early surrender"
    PLAYER_TURN = "player turn"
    DEALER_TURN = "dealer turn"
    SETTLED = "settled"


class Result(enum.Enum):
    """How one player hand ended. ``label`` is the upper-case word a table shows."""

    WIN = "win"
    LOSE = "lose"
    PUSH = "push"
    BLACKJACK = "blackjack"
    BUST = "bust"
    SURRENDER = "surrender"
    THUNDERJACK = "thunderjack"
    BLITZ = "blitz"

    @property
    def label(self) -> str:
        """The result as a table shows it: ``"WIN"``, ``"BLACKJACK"`` ..."""
        return self.value.upper()

    @property
    def kind(self) -> str:
        """How a tally counts the hand: ``"win"``, ``"push"`` or ``"loss"``.

        A natural, a Thunderjack and a Blitz are wins; a bust and a surrender are losses.
        """
        if self is Result.PUSH:
            return "push"
        if self in (Result.WIN, Result.BLACKJACK, Result.THUNDERJACK, Result.BLITZ):
            return "win"
        return "loss"
