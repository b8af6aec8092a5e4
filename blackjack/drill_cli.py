"""The counting drill in the terminal: cards flash by, the student types the running count.

The drill itself (dealing, scoring) is :class:`blackjack.hints.CountingDrill`; this
module only shows its cards and reads the answers.
"""

from __future__ import annotations

import time

from .errors import BlackjackError
from .hints import CountingDrill, CountingSystem
from .text_game import QUIT_WORDS, Console, QuitGame

__all__ = ["run_drill"]


def run_drill(console: Console, counting: CountingSystem, *, decks: int = 1, rounds: int = 10,
              cards_per_round: int = 4, seed: int | None = None, flash: bool = False,
              delay: float = 0.7) -> int:
    """Run a counting drill at the terminal; return the exit status 0.

    Args:
        console: where cards are shown and answers read.
        counting: the counting system to practise.
        decks: decks in the drill shoe (an unbalanced system's start depends on it).
        rounds: answers asked for.
        cards_per_round: cards shown before each answer.
        seed: replays the same cards.
        flash: show each card alone for ``delay`` seconds and then wipe it (on a
            terminal); otherwise the round's cards are printed on one line.
        delay: seconds each flashed card stays up.
    """
    drill = CountingDrill(counting, decks=decks, rounds=rounds, cards_per_round=cards_per_round, seed=seed)
    start = counting.initial_count(decks)
    console.say(f"Counting drill: {counting.name}, {decks} deck(s). After each group of cards, type the "
                f"running count of every card so far, starting from {start:+d} (quit to stop).")
    try:
        while not drill.finished:
            cards = drill.next_cards()
            if flash:
                for card in cards:
                    console.stdout.write(f"\r   {card.symbol:<4}")
                    console.stdout.flush()
                    time.sleep(delay)
                console.stdout.write("\r" + " " * 10 + "\r")
            else:
                console.say("Cards: " + " ".join(card.symbol for card in cards))
            while True:
                answer = console.ask(f"Round {drill.round + 1} of {drill.rounds}, running count? ")
                if answer.lower() in QUIT_WORDS:
                    raise QuitGame
                try:
                    result = drill.answer(answer)
                except BlackjackError as err:
                    console.say(str(err))
                    continue
                console.say(result.message().capitalize() + ".")
                break
    except (EOFError, QuitGame):
        console.say("Drill stopped.")
    console.say(drill.summary())
    return 0
