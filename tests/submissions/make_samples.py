"""Build the sample submissions the grader is tested against, from the reference at test time.

``python tests/submissions/make_samples.py OUT_DIR`` writes them for a look by hand;
the kit tests call :func:`make_samples` on a temporary folder. Each sample is the
reference or the bare starter plus one small patch, so none is committed as a copy:

===================  ===========================================================
sample               what it is
===================  ===========================================================
``full``             the reference solution (markers and all)
``starter``          the bare milestone-1 starter: every region stubbed
``partial``          the starter with ``blackjack/deck.py`` done (Deck.deal, is_empty)
``week2_only``       the reference with ``Hand.get_score`` broken (A counts 1) but
                     all milestone-2 code right: layered grading's case
``infinite_loop``    the reference with ``Hand.get_score`` looping forever
``hang_at_import``   the reference with a loop that never ends in ``blackjack/hand.py``'s import
``exit_at_import``   the reference whose ``blackjack/__init__.py`` calls ``sys.exit()``
``syntax_error``     the reference with a syntax error in ``blackjack/hand.py``
``noisy``            the reference printing 3 MB when imported
``no_package``       a folder with a stray file and no ``blackjack`` package
===================  ===========================================================
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from milestones import REPO_ROOT
from milestones.regions import find_regions
from milestones.starter import write_packages

__all__ = ["SAMPLES", "make_samples"]

SAMPLES = ("full", "starter", "partial", "week2_only", "infinite_loop", "hang_at_import", "exit_at_import",
           "syntax_error", "noisy", "no_package")


def replace_body(folder: Path, module: str, qualname: str, body: list[str]) -> None:
    """Replace the solution region of ``qualname`` in ``folder/module`` (markers kept) by ``body`` lines.

    Raises:
        LookupError: the module has no region in that function.
    """
    file = folder / module
    source = file.read_text(encoding="utf-8")
    for region in find_regions(source, module):
        if region.qualname == qualname:
            lines = source.splitlines()
            lines[region.begin:region.end - 1] = [region.indent + line for line in body]
            file.write_text("\n".join(lines) + "\n", encoding="utf-8")
            return
    raise LookupError(f"no solution region in {module}:{qualname}")


def make_samples(out: Path, root: Path = REPO_ROOT, only: tuple[str, ...] = SAMPLES) -> dict[str, Path]:
    """Write the samples named in ``only`` under ``out`` and return ``name -> folder``."""
    made: dict[str, Path] = {}
    for name in only:
        folder = out / name
        folder.mkdir(parents=True)
        made[name] = folder
        if name == "no_package":
            (folder / "notes.txt").write_text("I forgot to upload my code\n", encoding="utf-8")
            continue
        if name == "starter":
            write_packages(folder, lambda r: True, root)
        elif name == "partial":
            write_packages(folder, lambda r: r.module != "blackjack/deck.py", root)
        else:
            write_packages(folder, lambda r: False, root)
        hand = folder / "blackjack" / "hand.py"
        if name == "week2_only":
            replace_body(folder, "blackjack/hand.py", "Hand.get_score",
                         ["return sum(card.get_value() for card in self._cards)  # forgot the ace"])
        elif name == "infinite_loop":
            replace_body(folder, "blackjack/hand.py", "Hand.get_score", ["while True:", "    pass"])
        elif name == "hang_at_import":
            hand.write_text(hand.read_text(encoding="utf-8") + "\nwhile True:\n    pass\n", encoding="utf-8")
        elif name == "exit_at_import":
            init = folder / "blackjack" / "__init__.py"
            init.write_text('import sys\nsys.exit("bye")\n' + init.read_text(encoding="utf-8"), encoding="utf-8")
        elif name == "syntax_error":
            replace_body(folder, "blackjack/hand.py", "Hand.get_score", ["return total +"])
        elif name == "noisy":
            init = folder / "blackjack" / "__init__.py"
            init.write_text('print("x" * 3_000_000)\n' + init.read_text(encoding="utf-8"), encoding="utf-8")
    return made


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python tests/submissions/make_samples.py OUT_DIR")
    for sample, path in make_samples(Path(sys.argv[1])).items():
        print(f"{sample:15} {path}")
