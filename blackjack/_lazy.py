"""Names a package loads on first use (PEP 562): importing the package itself then loads nothing else.

``python -m blackjack`` and ``python -m blackjack.sim`` import their packages before their
own first line runs; with lazy names that costs almost nothing, so the quiet Ctrl-C handler
(:func:`blackjack.cli.exit_on_interrupt`) is in place at once. Standard library only.
"""

from __future__ import annotations

import importlib
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up stays instant)
if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["lazy_names"]


def lazy_names(package: str, exports: dict[str, str]) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """Return a package's module ``__getattr__`` and ``__dir__`` for names loaded on first use.

    Args:
        package: the package's ``__name__``.
        exports: each public name and the submodule it comes from, relative (``".hand"``).

    Returns:
        ``(__getattr__, __dir__)``: the first imports a public name's submodule (or a submodule
        itself, ``blackjack.round``) on first use and keeps the value in the package (AttributeError
        for any other name); the second lists the package's names, the ones not loaded yet included.
    """

    def __getattr__(name: str) -> object:
        if name in exports:
            value = getattr(importlib.import_module(exports[name], package), name)
        else:
            try:
                value = importlib.import_module(f".{name}", package)
            except ModuleNotFoundError as err:
                if err.name != f"{package}.{name}":
                    raise  # the submodule exists but an import inside it failed: show that
                raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        setattr(sys.modules[package], name, value)  # later uses find it at once
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(exports))

    return __getattr__, __dir__
