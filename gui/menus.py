"""The main window's menu bar: Game, Rules, View, Practice, Help; every entry has its Alt letter.

The menus only call the window (:class:`MenuHost`); the window does the work.
"""

from __future__ import annotations

import tkinter as tk
from functools import partial
from typing import Protocol

from blackjack import Rules

from . import advice, drills
from .animation import SPEEDS
from .dialogs import HELP_KEYS, HELP_RULES
from .logic import mnemonics, preset_title
from .panels import CoachPanel, Toggle

__all__ = ["MenuHost", "build_menus"]

class MenuHost(Protocol):
    """What the menus need of the main window."""

    root: tk.Tk
    speed: tk.StringVar
    counting: tk.StringVar
    preset: tk.StringVar

    @property
    def hint_panel(self) -> Toggle: ...  # noqa: D102
    @property
    def count_panel(self) -> Toggle: ...  # noqa: D102
    @property
    def coach_panel(self) -> CoachPanel: ...  # noqa: D102

    def open_new_game(self) -> None: ...  # noqa: D102 - the window's own methods, documented there
    def open_stack(self) -> None: ...  # noqa: D102
    def open_rules(self) -> None: ...  # noqa: D102
    def open_chart(self) -> None: ...  # noqa: D102
    def open_session(self) -> None: ...  # noqa: D102
    def close(self) -> None: ...  # noqa: D102
    def set_rules(self, rules: Rules) -> None: ...  # noqa: D102
    def set_counting(self, key: str) -> None: ...  # noqa: D102
    def set_speed(self, name: str) -> None: ...  # noqa: D102
    def reset_score(self) -> None: ...  # noqa: D102
    def show_text(self, title: str, text: str) -> object: ...  # noqa: D102
    def show_about(self) -> None: ...  # noqa: D102


def build_menus(host: MenuHost) -> tuple[tk.Menu, tk.Menu]:
    """Build the menu bar and put it on ``host.root``; return it and its menu of counting systems."""
    root = host.root
    menubar = tk.Menu(root)
    game = tk.Menu(menubar, tearoff=False)
    game.add_command(label="New game…", command=host.open_new_game)
    game.add_command(label="Stack the shoe…", command=host.open_stack)
    game.add_separator()
    game.add_command(label="Quit", command=host.close)
    menubar.add_cascade(label="Game", menu=game)
    rules = tk.Menu(menubar, tearoff=False)
    for name in Rules.preset_names():  # the presets' human names, from their descriptions
        rules.add_radiobutton(label=preset_title(Rules.preset(name)), value=name, variable=host.preset,
                              command=partial(host.set_rules, Rules.preset(name)))
    rules.add_separator()
    rules.add_command(label="Switches…", command=host.open_rules)
    menubar.add_cascade(label="Rules", menu=rules)
    view = tk.Menu(menubar, tearoff=False)
    view.add_checkbutton(label="Hints", variable=host.hint_panel.shown, command=host.hint_panel._apply)
    view.add_checkbutton(label="Count", variable=host.count_panel.shown, command=host.count_panel._apply)
    speed = tk.Menu(view, tearoff=False)
    for name in SPEEDS:
        speed.add_radiobutton(label=name.capitalize(), value=name, variable=host.speed,
                              command=partial(host.set_speed, name))
    view.add_cascade(label="Animation speed", menu=speed)
    counting = tk.Menu(view, tearoff=False)
    for key, title in advice.counting_systems().items():
        counting.add_radiobutton(label=title, value=key, variable=host.counting,
                                 command=partial(host.set_counting, key))
    view.add_cascade(label="Counting system", menu=counting)
    view.add_separator()
    view.add_command(label="Strategy chart", command=host.open_chart)
    view.add_command(label="Session chart and ledger", command=host.open_session)
    menubar.add_cascade(label="View", menu=view)
    practice = tk.Menu(menubar, tearoff=False)
    practice.add_checkbutton(label="Coach mode", variable=host.coach_panel.enabled)
    drill = tk.Menu(practice, tearoff=False)
    for name in ("off", *drills.DRILLS):
        drill.add_radiobutton(label=name, value=name, variable=host.coach_panel.drill)
    practice.add_cascade(label="Drill", menu=drill)
    practice.add_command(label="Reset score", command=host.reset_score)
    menubar.add_cascade(label="Practice", menu=practice)
    helpmenu = tk.Menu(menubar, tearoff=False)
    helpmenu.add_command(label="Rules of blackjack", command=lambda: host.show_text("Rules of blackjack", HELP_RULES))
    helpmenu.add_command(label="Keyboard shortcuts", command=lambda: host.show_text("Keyboard shortcuts", HELP_KEYS))
    helpmenu.add_command(label="About", command=host.show_about)
    menubar.add_cascade(label="Help", menu=helpmenu)
    for menu in (menubar, game, rules, view, speed, counting, practice, drill, helpmenu):
        _underline(menu)
    root.configure(menu=menubar)
    return menubar, counting


def _underline(menu: tk.Menu) -> None:
    """Underline a letter of every entry of ``menu`` (:func:`gui.logic.mnemonics`): Alt plus the letter picks it."""
    last = menu.index("end")
    if last is None:
        return
    entries = [i for i in range(last + 1) if menu.type(i) not in ("separator", "tearoff")]
    for i, index in zip(entries, mnemonics([str(menu.entrycget(i, "label")) for i in entries])):
        menu.entryconfigure(i, underline=index)
