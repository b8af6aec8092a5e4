"""Blackjack Kit's Tk table: play the whole game in a window (``python -m gui``).

The window only renders the engine's :class:`~blackjack.TableView` and sends it
actions; every rule lives in :mod:`blackjack`. Standard library only (tkinter/ttk).

==================  ================================================================
module              what it holds
==================  ================================================================
``app``             :class:`~gui.app.App`, the main window and its controller
``shell``           milestone 3's shell: Deal, Hit, Stand (``python -m gui.shell``)
``table``           the green table canvas: ``render(view)``
``cards``           card art from canvas shapes and Unicode suit symbols
``panels``          hint, count and coach panels; strategy chart and session windows
``dialogs``         new game, rule switches, stack the shoe, help texts
``logic``           pure helpers: button enablement, label texts, chip colours, layout math
``advice``          hint, count, coach and chart contents from :mod:`blackjack.hints`
``coach``           coach mode's score
``drills``          opening cards for drills by hand type (stacked on the shoe)
``jobs``            slow work in a worker thread, results delivered with ``after``
``launch``          opening a window from the command line, stopping in one line
``testing``         message-box recorder, virtual display, screenshots
``xvfb``            a private Xvfb screen (tkinter-free: the grader uses it too)
``screenshot``      regenerates ``docs/images/table.png``
==================  ================================================================
"""

__all__: list[str] = []
