"""Build step: derive the shipped basic-strategy charts and write ``charts.json``.

Run ``python -m blackjack.hints._build [path]`` after changing the EV engine or the
presets; ``tests/hints/test_hints_charts.py`` derives each chart again and compares.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from .strategy import CHARTS_FILE, chart_key, chart_rows, derive_chart, shipped_rules


def main(argv: list[str] | None = None) -> int:
    """Derive the shipped charts and write ``charts.json`` next to this module (a build step).

    ``python -m blackjack.hints._build [path]``: derives every preset's chart (several
    minutes) and writes them; the test suite checks the file against fresh derivations.
    """
    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0]) if args else Path(__file__).with_name(CHARTS_FILE)
    charts = []
    for rules in shipped_rules():
        start = time.perf_counter()
        chart = derive_chart(rules)
        charts.append({"preset": rules.name, "key": chart_key(rules), "rows": chart_rows(chart)})
        print(f"derived {rules.name} in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    data = {"about": "Basic-strategy charts derived from exact EVs by blackjack.hints.strategy.derive_chart; "
                     "regenerate with `python -m blackjack.hints._build`.", "charts": charts}
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
