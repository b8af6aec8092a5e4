"""Show simulation reports: a text table, JSON, CSV, and an optional matplotlib plot."""

from __future__ import annotations

import csv
import errno
import io
import json
import math
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .runner import BLOCK_ROUNDS
from .stats import RATES, Report

__all__ = ["MIN_ROR_SESSIONS", "PLOT_NEEDS_MATPLOTLIB", "TC_LIMIT", "check_plot", "check_target", "plot", "reason",
           "shared_bins", "text_report", "to_csv", "to_json", "write_file"]


def _pct(value: float, digits: int = 2) -> str:
    return "n/a" if math.isnan(value) else f"{value * 100:+.{digits}f}%"


#: Rate rows whose label says more than "<key> rate".
_RATE_LABELS = {"natural": "natural rate (A+10 dealt)"}


def text_report(reports: Sequence[Report], *, exact: float | None = None) -> str:
    """Return the reports side by side as a plain-text table, then each one's details.

    Args:
        reports: one per strategy.
        exact: the hint library's basic-strategy EV to show next to the estimates.
    """
    first = reports[0]
    rows: list[tuple[str, ...]] = [("", *[r.strategy for r in reports])]

    def row(label: str, values: Sequence[str]) -> None:
        rows.append((label, *values))
    row("rounds", [f"{r.rounds:,}" for r in reports])
    row("EV per initial bet", [_pct(r.ev, 3) for r in reports])
    row("  standard error", [_pct(r.se, 3).lstrip("+") for r in reports])
    row("  95% interval", [f"{_pct(r.ci95[0])} .. {_pct(r.ci95[1])}" for r in reports])
    row("house edge", [_pct(r.house_edge, 3) for r in reports])
    row("sd per hand (bets)", [f"{r.sd_per_hand:.3f}" for r in reports])
    row("average bet (units)", [f"{r.average_bet:.3f}" for r in reports])
    row("EV per round (units)", [f"{r.ev_per_round:+.4f}" for r in reports])
    for key in RATES:
        row(_RATE_LABELS.get(key, f"{key} rate"), [f"{r.frequencies[key] * 100:.2f}%" for r in reports])
    widths = [max(len(cells[i]) for cells in rows) for i in range(len(rows[0]))]
    lines = [f"Rules: {first.rules}"]
    if any(r.interrupted for r in reports):
        lines.append("INTERRUPTED: results of the rounds finished so far")
    lines += ["  ".join(cell.rjust(w) if i else cell.ljust(w) for i, (cell, w) in enumerate(zip(cells, widths)))
              for cells in rows]
    if exact is not None:
        lines.append(f"Exact basic-strategy EV from the hint library: {_pct(exact, 3)} "
                     f"(house edge {_pct(-exact, 3)})")
    for r in reports:
        lines.append("")
        lines.append(f"{r.strategy}: result by initial hand (natural: A+10 dealt, whatever the dealer had)")
        lines.append(f"  {'hand':<11}{'share':>8}{'EV':>10}{'of total':>10}")
        for t in r.by_hand_type:
            lines.append(f"  {t['type']:<11}{float(t['share']) * 100:7.2f}%{_pct(float(t['ev']), 1):>10}"
                         f"{_pct(float(t['contribution']), 2):>10}")
        if r.by_true_count:
            lines.append(f"{r.strategy}: result by true count (floored, at the bet)")
            lines += _true_count_table(r.by_true_count)
        if r.risk_of_ruin:
            lines += _ror_lines(r)
    return "\n".join(lines)


#: The true-count buckets at the ends of the table hold every count beyond them (the runner clamps to these).
TC_LIMIT = 10


def _true_count_table(rows: Sequence[dict[str, float | int]]) -> list[str]:
    """The lines of the result-by-true-count table, columns as wide as their widest entry (the end buckets
    read "-10 or less" and "+10 or more": they hold every count past them)."""
    def label(tc: int) -> str:
        if tc <= -TC_LIMIT:
            return f"{-TC_LIMIT} or less"
        if tc >= TC_LIMIT:
            return f"+{TC_LIMIT} or more"
        return f"{tc:+d}"
    cells = [(label(int(c["true_count"])), f"{int(c['rounds']):,}", f"{float(c['share']) * 100:.2f}%",
              f"{float(c['average_bet']):.2f}", _pct(float(c["ev"]), 1)) for c in rows]
    header = ("TC", "rounds", "share", "avg bet", "EV")
    widths = [max(len(header[i]), *(len(row[i]) for row in cells)) for i in range(len(header))]
    return ["  " + "  ".join(cell.rjust(width) for cell, width in zip(row, widths)) for row in [header, *cells]]


#: The fewest sessions a risk of ruin is reported from: with fewer, each session moves the figure by
#: more than 10 points, and one session can only say 0% or 100%.
MIN_ROR_SESSIONS = 10


def _plural(count: int, word: str) -> str:
    """``1 session``, ``2 sessions``: ``count`` with ``word``, plural unless it is 1."""
    return f"{count:,} {word}" if count == 1 else f"{count:,} {word}s"


def _ror_lines(r: Report) -> list[str]:
    """The risk-of-ruin lines of a report that has one (``r.risk_of_ruin`` is set).

    With fewer than :data:`MIN_ROR_SESSIONS` sessions no figure is given: one line says
    the figure needs more sessions and how to get them.
    """
    ror = r.risk_of_ruin
    assert ror is not None
    sessions = int(ror["sessions"])
    bankroll = ror["bankroll_units"]
    units = f"{bankroll:g} unit" + ("" if bankroll == 1 else "s")
    length = _plural(r.rounds // max(sessions, 1), "round")
    if sessions < MIN_ROR_SESSIONS:
        return [f"{r.strategy}: risk of ruin with {units}: not estimated, it needs at least {MIN_ROR_SESSIONS} "
                f"sessions and this run has {_plural(sessions, 'session')} of {length}; give --sessions "
                f"{MIN_ROR_SESSIONS} or more, or more --hands (a session per {BLOCK_ROUNDS:,} rounds by default)"]
    lines = [f"{r.strategy}: risk of ruin with {units} over {_plural(sessions, 'session')} of {length}: "
             f"{ror['risk'] * 100:.2f}% (standard error {ror['risk_se'] * 100:.2f}%)"]
    note = _ror_precision(ror)
    if note:
        lines.append(f"  {note}")
    lines.append(f"  bankroll for a {ror['target']:.0%} risk over such a session: "
                 f"{ror['bankroll_for_target']:.0f} units")
    if "bankroll_for_target_formula" in ror:
        lines.append(f"  bankroll for a {ror['target']:.0%} risk playing forever (formula): "
                     f"{ror['bankroll_for_target_formula']:.0f} units")
    return lines


def _ror_precision(ror: dict[str, float]) -> str | None:
    """Say when the risk of ruin is too rough to lean on: its standard error is over a quarter of it,
    or no session (or every session) was ruined, where the standard error says 0.

    Returns None when the error is under a quarter of the figure.
    """
    sessions = int(ror["sessions"])
    if ror["risk"] == 0:
        return (f"no session was ruined: the risk is likely under {3 / sessions:.2%} (the rule of three); "
                f"more --sessions narrow it")
    if ror["risk"] == 1:
        return (f"every session was ruined: the risk is likely over {1 - 3 / sessions:.2%} (the rule of three); "
                f"more --sessions narrow it")
    if ror["risk_se"] * 4 <= ror["risk"]:
        return None
    return (f"too few sessions: the standard error is more than a quarter of the figure; "
            f"--sessions {int(ror['sessions_for_quarter_se']):,} or more would bring it under")


def to_json(reports: Sequence[Report]) -> str:
    """Return the reports as a JSON document: ``{"reports": [...]}``."""
    return json.dumps({"reports": [r.as_dict() for r in reports]}, indent=2, allow_nan=True)


CSV_FIELDS = ("strategy", "rules", "rounds", "hands", "ev", "se", "ci95_low", "ci95_high", "house_edge",
              "sd_per_hand", "average_bet", "ev_per_round", *RATES, "risk_of_ruin", "interrupted")


def to_csv(reports: Sequence[Report]) -> str:
    """Return one CSV row per strategy with the headline figures (columns :data:`CSV_FIELDS`).

    ``risk_of_ruin`` is empty without ``--bankroll`` and, as in the text report, when fewer than
    :data:`MIN_ROR_SESSIONS` sessions were played (the JSON keeps the raw figures with their count).
    """
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for r in reports:
        writer.writerow({
            "strategy": r.strategy, "rules": r.rules, "rounds": r.rounds, "hands": r.hands, "ev": r.ev,
            "se": r.se, "ci95_low": r.ci95[0], "ci95_high": r.ci95[1], "house_edge": r.house_edge,
            "sd_per_hand": r.sd_per_hand, "average_bet": r.average_bet, "ev_per_round": r.ev_per_round,
            **{k: r.frequencies[k] for k in RATES},
            "risk_of_ruin": "" if r.risk_of_ruin is None or r.risk_of_ruin["sessions"] < MIN_ROR_SESSIONS
                            else r.risk_of_ruin["risk"],
            "interrupted": r.interrupted})
    return out.getvalue()


#: The one-line reason ``--plot`` gives when matplotlib is missing.
PLOT_NEEDS_MATPLOTLIB = '--plot needs matplotlib: pip install "blackjack-kit[plot]" (in a clone: pip install -e ".[plot]")'


def _pyplot() -> Any:
    """Import matplotlib with the file-only Agg backend and return ``matplotlib.pyplot``.

    Raises:
        ImportError: matplotlib is missing (or blocked); the message is :data:`PLOT_NEEDS_MATPLOTLIB`.
    """
    try:
        import matplotlib  # type: ignore[import-not-found, unused-ignore]
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise ImportError(PLOT_NEEDS_MATPLOTLIB) from None
    return plt


def reason(err: OSError) -> str:
    """Return why an ``OSError`` happened in words (``no space left on device``), without ``[Errno N]``."""
    if err.strerror:
        return err.strerror[:1].lower() + err.strerror[1:]
    return str(err)


def check_target(path: str | Path) -> None:
    """Check that a results file can be written at ``path``, before a long simulation is started for it.

    ``path`` must name a regular file (or none yet) in a folder that exists and takes new
    files. Nothing is left behind: a file that does not exist yet is made and removed again
    to be sure the folder takes it (``/proc`` lets root pass every permission check and
    still refuses), and one that exists is opened to append, which changes nothing.

    Raises:
        OSError: ``path`` is empty, a folder or not a regular file (``/dev/full``), its
            folder does not exist, or the file cannot be made or written there; the
            message names the path and says why in words.
    """
    if str(path) == "":
        raise OSError("no file name given")
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        raise OSError(f"cannot write {path}: it is a folder")
    if target.exists() and not target.is_file():
        raise OSError(f"cannot write {path}: it is not a regular file")
    if not folder.is_dir():
        raise OSError(f"cannot write {path}: there is no folder {folder}")
    try:
        if target.exists():
            os.close(os.open(target, os.O_WRONLY | os.O_APPEND))
        else:
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
            os.unlink(target)
    except OSError as err:  # ENOENT in a folder that exists: /proc and its like make no new files
        why = f"the folder {folder} takes no new files" if err.errno == errno.ENOENT else reason(err)
        raise OSError(f"cannot write {path}: {why}") from None


def write_file(path: str | Path, text: str) -> None:
    """Write ``text`` to the file ``path`` whole or not at all.

    The text goes to a temporary file in the same folder, which then replaces ``path``:
    a full disk or an interruption never leaves a half-written results file.

    Raises:
        OSError: the file cannot be written; the message names ``path`` and says why in words.
    """
    _replace_with(Path(path), lambda part: part.write_text(text, encoding="utf-8"))


def _replace_with(target: Path, write: Callable[[Path], object]) -> None:
    """Call ``write`` on a temporary path beside ``target``, then move it onto ``target``.

    Raises:
        OSError: writing or moving failed (the temporary file is removed); the message names ``target``.
    """
    part = target.with_name(f".{target.name}.{os.getpid()}.part{target.suffix}")
    try:
        write(part)
        os.replace(part, target)
    except OSError as err:
        part.unlink(missing_ok=True)
        raise OSError(f"cannot write {target}: {reason(err)}") from None
    except BaseException:
        part.unlink(missing_ok=True)
        raise


def check_plot(path: str | Path | None = None) -> None:
    """Check that :func:`plot` can run, before a long simulation is started for it.

    Args:
        path: the image file to be written, if known: its folder must be writable (see
            :func:`check_target`) and its suffix a format matplotlib writes (``.png``,
            ``.svg``, ``.pdf`` ...; no suffix means PNG).

    Raises:
        ImportError: matplotlib is missing; the message gives ``pip install "blackjack-kit[plot]"``.
        OSError: the file cannot be written there.
        ValueError: matplotlib writes no format with that suffix.
    """
    _pyplot()
    if path is None:
        return
    check_target(path)
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix:
        from matplotlib.backend_bases import FigureCanvasBase  # type: ignore[import-not-found, unused-ignore]
        formats = FigureCanvasBase.get_supported_filetypes()
        if suffix not in formats:
            raise ValueError(f"cannot plot to {path}: matplotlib writes {', '.join(sorted(formats))}; "
                             f"not .{suffix}")


def plot(reports: Sequence[Report], path: str | Path) -> None:
    """Save bankroll paths and the distribution of session results to a PNG (needs matplotlib).

    The left panel draws each kept path (``Report.paths``) against the rounds played, the right one a histogram
    of each report's ``session_results`` on :func:`shared_bins` (docs/simulator.md, ``--plot``).

    Args:
        reports: one per strategy.
        path: the image file to write; its suffix picks the format (``.png``).

    Raises:
        ImportError: matplotlib is missing; the message gives ``pip install "blackjack-kit[plot]"``.
        OSError: the file cannot be written; the message names it and says why in words.
            The file is written whole or not at all.
    """
    plt = _pyplot()
    fig, (paths_ax, hist_ax) = plt.subplots(1, 2, figsize=(13, 5))
    bins = shared_bins([r.session_results for r in reports])
    for number, r in enumerate(reports):
        colour = f"C{number}"  # matplotlib's default cycle: ten colours that tell apart
        for k, path_values in enumerate(r.paths):
            step = r.path_steps[k] if k < len(r.path_steps) else 1
            paths_ax.plot([j * step for j in range(len(path_values))], path_values, color=colour, linewidth=0.9,
                          alpha=0.7, label=r.strategy if k == 0 else None)
        if r.session_results:
            hist_ax.hist(r.session_results, bins=bins, color=colour, alpha=0.45, label=r.strategy,
                         histtype="stepfilled", edgecolor=colour)
    paths_ax.axhline(0, color="0.5", linewidth=0.6)
    paths_ax.set(title="Running net of sample sessions", xlabel="rounds played", ylabel="net (units)")
    hist_ax.set(title="Session results", xlabel="net per session (units)", ylabel="sessions")
    paths_ax.legend(title="strategy")
    hist_ax.legend(title="strategy")
    fig.tight_layout()
    target = Path(path)
    try:
        _replace_with(target, lambda part: fig.savefig(part, format=target.suffix.lstrip(".").lower() or "png"))
    finally:
        plt.close(fig)


def shared_bins(samples: Sequence[Sequence[float]], count: int = 30) -> list[float]:
    """Return ``count + 1`` equal-width bin edges that cover every value of every sample.

    Every strategy's histogram uses these edges, so bars of one width line up across
    strategies (each on its own bins, a spread-out strategy got wide bars and a tight
    one narrow bars, and the heights could not be compared).

    >>> shared_bins([[0.0, 1.0], [3.0]], count=3)
    [0.0, 1.0, 2.0, 3.0]
    """
    values = [v for sample in samples for v in sample]
    if not values:
        return [0.0, 1.0]
    low, high = min(values), max(values)
    if low == high:
        low, high = low - 0.5, high + 0.5
    width = (high - low) / count
    return [low + i * width for i in range(count)] + [high]
