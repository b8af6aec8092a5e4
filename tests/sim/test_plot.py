"""``--plot``: the one-line message without matplotlib, and what plot() draws (a fake matplotlib records it)."""

from __future__ import annotations

import os
import subprocess
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from blackjack.sim import Report, simulate
from blackjack.sim.__main__ import main
from blackjack.sim.output import plot

ROOT = Path(__file__).resolve().parents[2]
INSTALL = 'pip install "blackjack-kit[plot]"'  # quoted: a shell would glob the brackets
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def no_matplotlib(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``import matplotlib`` fail, even where matplotlib is installed (None in sys.modules blocks it)."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)


class Recorder:
    """Stands for a figure or an axes: every method call is recorded as ``(name, args, kwargs)``."""

    def __init__(self, calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]]) -> None:
        self.calls = calls

    def __getattr__(self, name: str) -> Any:
        def method(*args: Any, **kwargs: Any) -> None:
            self.calls.append((name, args, kwargs))
        return method

    def called(self, name: str) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
        """The (args, kwargs) of every call of ``name``."""
        return [(args, kwargs) for called, args, kwargs in self.calls if called == name]


class FakeFigure(Recorder):
    """A figure whose ``savefig`` is recorded and writes a few bytes to the file it is given."""

    def savefig(self, fname: Any, *args: Any, **kwargs: Any) -> None:
        self.calls.append(("savefig", (fname, *args), kwargs))
        Path(fname).write_bytes(b"fake image")


class FakePyplot(types.ModuleType):
    """A ``matplotlib.pyplot`` that draws nothing and records the figure, its axes and the calls."""

    def __init__(self) -> None:
        super().__init__("matplotlib.pyplot")
        self.figures: list[tuple[Recorder, list[Recorder]]] = []
        self.closed: list[object] = []

    def subplots(self, nrows: int = 1, ncols: int = 1, **_kwargs: Any) -> tuple[Recorder, Any]:
        fig = FakeFigure([])
        axes = [Recorder([]) for _ in range(nrows * ncols)]
        self.figures.append((fig, axes))
        return fig, (axes[0] if len(axes) == 1 else tuple(axes))

    def close(self, fig: object = None) -> None:
        self.closed.append(fig)


@pytest.fixture
def fake_pyplot(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakePyplot]:
    """Install a fake ``matplotlib`` package whose ``pyplot`` is a :class:`FakePyplot` (and that writes PNG)."""
    pyplot = FakePyplot()
    package = types.ModuleType("matplotlib")
    backends: list[str] = []
    package.use = backends.append  # type: ignore[attr-defined]
    package.pyplot = pyplot  # type: ignore[attr-defined]
    package.backends = backends  # type: ignore[attr-defined]
    backend_bases = types.ModuleType("matplotlib.backend_bases")
    backend_bases.FigureCanvasBase = types.SimpleNamespace(  # type: ignore[attr-defined]
        get_supported_filetypes=lambda: {"png": "Portable Network Graphics"})
    monkeypatch.setitem(sys.modules, "matplotlib", package)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", pyplot)
    monkeypatch.setitem(sys.modules, "matplotlib.backend_bases", backend_bases)
    yield pyplot


def reports() -> list[Report]:
    """Two strategies, four sessions each: four kept bankroll paths and four session results per report."""
    return simulate(["basic", "always-stand"], "vegas", hands=2000, seed=3, sessions=4)


class TestWithoutMatplotlib:
    def test_cli_prints_one_line_naming_the_install(self, no_matplotlib: None, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
        """--plot without matplotlib: exit 2, one stderr line with the pip command, before simulating anything."""
        target = tmp_path / "x.png"
        with pytest.raises(SystemExit) as done:
            main(["--hands", "200", "--plot", str(target)])
        assert done.value.code == 2
        out, err = capsys.readouterr()
        assert err.count("\n") == 1 and INSTALL in err and err.startswith("blackjack-kit-sim: error:")
        assert "Traceback" not in err
        assert out == ""  # failed fast: no report was printed after a wasted run
        assert not target.exists()

    def test_python_dash_m_exits_without_traceback(self, tmp_path: Path) -> None:
        """``python -m blackjack.sim --hands 200 --plot x.png`` in a fresh interpreter without matplotlib."""
        code = ("import runpy, sys; sys.modules['matplotlib'] = None; "
                "sys.argv = ['blackjack-kit-sim', '--hands', '200', '--plot', 'x.png']; "
                "runpy.run_module('blackjack.sim', run_name='__main__', alter_sys=True)")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
        done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 2, done.stderr
        assert done.stderr.count("\n") == 1 and INSTALL in done.stderr and "Traceback" not in done.stderr
        assert not (tmp_path / "x.png").exists()

    def test_plot_raises_import_error_with_the_install(self, no_matplotlib: None, tmp_path: Path) -> None:
        """plot() itself raises ImportError naming the pip command (the CLI turns it into the line above)."""
        with pytest.raises(ImportError, match=r'pip install "blackjack-kit\[plot\]"'):
            plot(reports(), tmp_path / "x.png")


class TestDrawing:
    def test_one_line_per_path_a_histogram_per_report_and_a_saved_file(self, fake_pyplot: FakePyplot,
                                                                       tmp_path: Path) -> None:
        """Each kept bankroll path is one line, each report's session results one histogram; saved to the path."""
        runs = reports()
        assert all(len(r.paths) == 4 and len(r.session_results) == 4 for r in runs)
        target = tmp_path / "bankroll.png"
        plot(runs, target)
        assert sys.modules["matplotlib"].backends == ["Agg"]  # type: ignore[union-attr]
        [(fig, axes)] = fake_pyplot.figures
        lines = [args[1] for ax in axes for args, _ in ax.called("plot")]
        assert lines == [path for r in runs for path in r.paths]
        hists = [args[0] for ax in axes for args, _ in ax.called("hist")]
        assert hists == [r.session_results for r in runs]
        [(saved, options)] = fig.called("savefig")
        assert options == {"format": "png"} and saved[0].parent == target.parent
        assert target.read_bytes() == b"fake image", "written beside the target, then moved onto it"
        assert [f.name for f in tmp_path.iterdir()] == ["bankroll.png"], "no temporary file is left"
        assert fake_pyplot.closed == [fig]

    def test_legend_names_each_strategy_once(self, fake_pyplot: FakePyplot, tmp_path: Path) -> None:
        """Only a report's first path carries its strategy's label, so the legend lists each strategy once."""
        plot(reports(), tmp_path / "x.png")
        [(_fig, axes)] = fake_pyplot.figures
        labels = [kwargs.get("label") for ax in axes for _, kwargs in ax.called("plot")]
        assert [label for label in labels if label is not None] == ["basic", "always-stand"]

    def test_x_axis_counts_rounds_not_samples(self, fake_pyplot: FakePyplot, tmp_path: Path) -> None:
        """A path sampled every k rounds is drawn at rounds 0, k, 2k ...: its last point sits near the session's
        length (500 rounds), not at the number of samples."""
        runs = reports()
        plot(runs, tmp_path / "x.png")
        [(_fig, axes)] = fake_pyplot.figures
        for (xs, ys), _kwargs in [(args, kwargs) for ax in axes for args, kwargs in ax.called("plot")]:
            assert len(xs) == len(ys) and xs[0] == 0
            assert 490 <= xs[-1] <= 500 and xs[1] - xs[0] == 1  # 500-round sessions: every round kept
        longer = simulate("basic", "vegas", hands=20_000, seed=3, sessions=2)
        plot(longer, tmp_path / "y.png")
        [(xs, _ys)] = [args for args, _ in fake_pyplot.figures[1][1][0].called("plot")][:1]
        assert xs[1] == 20 and xs[-1] == 10_000  # sampled every 20 rounds of 10,000

    def test_one_colour_per_strategy_and_one_set_of_bins(self, fake_pyplot: FakePyplot, tmp_path: Path) -> None:
        """Every line and bar of a strategy has its colour, no two strategies share one, and every histogram
        uses the same bin edges, which cover every session result."""
        runs = simulate(["basic", "always-stand", "never-bust"], "vegas", hands=3000, seed=3, sessions=6)
        plot(runs, tmp_path / "x.png")
        [(_fig, (paths_ax, hist_ax))] = fake_pyplot.figures
        line_colours = [kwargs["color"] for _, kwargs in paths_ax.called("plot")]
        assert line_colours == [f"C{n}" for n, r in enumerate(runs) for _ in r.paths]
        hists = hist_ax.called("hist")
        assert [kwargs["color"] for _, kwargs in hists] == ["C0", "C1", "C2"]
        edges = [kwargs["bins"] for _, kwargs in hists]
        assert edges[0] == edges[1] == edges[2] and len(edges[0]) == 31
        results = [v for r in runs for v in r.session_results]
        assert edges[0][0] == min(results) and edges[0][-1] == max(results)
        assert [kwargs["label"] for _, kwargs in hists] == ["basic", "always-stand", "never-bust"]
        assert all(ax.called("legend") for ax in (paths_ax, hist_ax))

    def test_cli_plots_to_the_given_file(self, fake_pyplot: FakePyplot, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
        """``--plot FILE`` hands the simulated reports and FILE to plot(): exit 0, saved to FILE."""
        target = tmp_path / "out.png"
        assert main(["--hands", "2000", "--sessions", "4", "--quiet", "--plot", str(target)]) == 0
        [(fig, axes)] = fake_pyplot.figures
        assert len(fig.called("savefig")) == 1 and target.read_bytes() == b"fake image"
        assert len([call for ax in axes for call in ax.called("plot")]) == 4
        assert "EV per initial bet" in capsys.readouterr().out


def test_real_matplotlib_writes_a_png(tmp_path: Path) -> None:
    """With matplotlib installed (the ``plot`` extra), plot() writes a real PNG file."""
    pytest.importorskip("matplotlib")
    target = tmp_path / "real.png"
    plot(reports(), target)
    assert target.read_bytes()[:8] == PNG_SIGNATURE
