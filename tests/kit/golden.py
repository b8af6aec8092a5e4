"""Golden outputs of the grader and the student's tools, to show a change of layout changes no behaviour.

Usage::

    python tests/kit/golden.py record [--kit DIR]     # write tests/kit/golden/*.txt from DIR's kit
    python tests/kit/golden.py compare [--kit DIR]    # say which outputs of DIR's kit differ from them

``DIR`` (default: this checkout) is any checkout of the kit: ``git worktree add /tmp/bj-base <commit>``
records the outputs of an older commit. Every output is made by the kit's command line run in ``DIR``
(``python -m milestones ...``), on the sample submissions of ``tests/submissions/make_samples.py``:

==================  ==============================================================================
file                what it holds
==================  ==============================================================================
``grade.json.txt``      ``grade --format json`` of every sample, every milestone
``gradescope.txt``      ``grade --format gradescope --output FOLDER``: each sample's ``results.json``
``demo.txt``            ``demo`` on the reference and on ``week2_only`` (differences)
``defend.txt``          ``defend --hands 400 --seed 1 --no-diary`` on the reference and the starter
``ten_rounds.txt``      ``play_ten_rounds`` on the reference and the starter (bets of 10, every hand stands)
==================  ==============================================================================

What may differ from run to run or machine to machine is taken out (:func:`normalized`): the
samples' temporary folder, seconds and dates, the line numbers of the samples' (the reference's) code, and
the sandbox's protections a machine lacks (``unprotected``, ``extra_data``). When a change of scores is meant (a suite gains a test), record
again and commit the new files with the change: ``python tests/kit/golden.py record``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

KIT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"
sys.path.insert(0, str(KIT / "tests" / "submissions"))

from make_samples import SAMPLES, make_samples  # noqa: E402

__all__ = ["GOLDEN", "outputs", "normalized"]

_SECONDS = re.compile(r"\d+(?:\.\d+)? (m?s)\b")
_DATE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d")
#: A line of the samples' code in a message (``blackjack/hand.py:88``, ``(cards.py, line 238)``): the samples
#: are the reference's code, so an edit of the engine moves them without changing any behaviour.
_LINE = re.compile(r"(\.py:|\.py, line )\d+")


def normalized(text: str, samples: Path) -> str:
    """``text`` with the samples' folder as ``<samples>``, seconds as ``N s`` (and ``N ms``), dates as ``<date>`` and
    lines of the samples' code as ``N``."""
    for path in {str(samples), os.path.realpath(samples)}:
        text = text.replace(path, "<samples>")
    return _LINE.sub(r"\1N", _DATE.sub("<date>", _SECONDS.sub(r"N \1", text)))


def _drop(data: object, keys: tuple[str, ...]) -> object:
    """``data`` (parsed JSON) without the dict entries named ``keys``, at any depth."""
    if isinstance(data, list):
        return [_drop(item, keys) for item in data]
    if isinstance(data, dict):
        return {k: _drop(v, keys) for k, v in data.items() if k not in keys}
    return data


def _run(kit: Path, *args: str) -> str:
    """The stdout of ``python -m milestones ARGS`` run in ``kit`` (its exit status is not checked)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    done = subprocess.run([sys.executable, *args], cwd=kit, env=env, capture_output=True, text=True,
                          encoding="utf-8", check=False)
    return done.stdout


def outputs(kit: Path = KIT) -> dict[str, str]:
    """Every golden output of the kit checked out in ``kit``, normalized: file name -> text."""
    kit = kit.resolve()
    with tempfile.TemporaryDirectory(prefix="bj-golden-") as scratch:
        samples = Path(scratch) / "samples"
        made = make_samples(samples, KIT)
        paths = [str(made[name]) for name in SAMPLES]
        found: dict[str, str] = {}
        grades = json.loads(_run(kit, "-m", "milestones", "grade", *paths, "--format", "json"))
        # a submission's id is a digest of its (temporary) path
        found["grade.json.txt"] = json.dumps(_drop(grades, ("unprotected", "id")), indent=1) + "\n"
        folder = Path(scratch) / "gradescope"
        _run(kit, "-m", "milestones", "grade", *paths, "--format", "gradescope", "--output", str(folder))
        results = {name: _drop(json.loads((folder / name / "results.json").read_text(encoding="utf-8")),
                               ("extra_data",)) for name in SAMPLES}
        found["gradescope.txt"] = json.dumps(results, indent=1) + "\n"
        found["demo.txt"] = "".join(
            f"### demo on {name}\n" + _run(kit, "-m", "milestones", "demo", "--project", str(made[name]))
            for name in ("full", "week2_only"))
        found["defend.txt"] = "".join(
            f"### defend on {name}\n" + _run(kit, "-m", "milestones", "defend", "--project", str(made[name]),
                                             "--hands", "400", "--seed", "1", "--no-diary")
            for name in ("full", "starter"))
        play = ("import dataclasses, json, sys; from milestones.ten_rounds import play_ten_rounds; "
                "ask = lambda p: '10' if 'bet' in p else 'n' if 'insurance' in p else 's'; "
                "print(json.dumps(dataclasses.asdict(play_ten_rounds(__import__('pathlib').Path(sys.argv[1]), ask, "
                "lambda line: None))))")
        found["ten_rounds.txt"] = "".join(f"### ten rounds on {name}\n" + _run(kit, "-c", play, str(made[name]))
                                          for name in ("full", "starter"))
        return {name: normalized(text, samples) for name, text in found.items()}


def main() -> int:
    """``record`` or ``compare`` (see the module's docstring); 1 when ``compare`` finds a difference."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["record", "compare"])
    parser.add_argument("--kit", type=Path, default=KIT, help="the kit checkout to run (default: this one)")
    args = parser.parse_args()
    found = outputs(args.kit)
    if args.action == "record":
        GOLDEN.mkdir(exist_ok=True)
        for name, text in found.items():
            (GOLDEN / name).write_text(text, encoding="utf-8")
        print(f"wrote {len(found)} files in {GOLDEN}")
        return 0
    differ = [name for name, text in found.items() if (GOLDEN / name).read_text(encoding="utf-8") != text]
    print("identical" if not differ else f"differ: {', '.join(differ)}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
