"""Blackjack Kit's Tk table: play the whole game in a window (``python -m gui``).

The window only renders the engine's :class:`~blackjack.TableView` and sends it
actions; every rule lives in :mod:`blackjack`. Standard library only (tkinter/ttk).
Which module does what: docs/gui.md, "For developers".
"""

__all__: list[str] = []
