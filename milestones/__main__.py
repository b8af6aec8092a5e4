"""Command line of the classroom kit: ``python -m milestones {starter,grade,autograder,check,tenrounds,demo,defend,
honesty}``.

Errors a user can cause (a missing folder, a bad milestone number, an output that cannot
be written) print one line and exit with status 2; nothing else changes.
"""

from __future__ import annotations

if __name__ == "__main__":  # before anything else loads: Ctrl-C while the command starts ends it quietly, status 130
    import signal as _signal
    import sys as _sys

    if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:  # not when started with SIGINT ignored
        _signal.signal(_signal.SIGINT, lambda signum, frame: _sys.exit(130))

import argparse  # noqa: E402 (after the interrupt handler, on purpose)
import contextlib
import importlib.util
import math
import shutil
import signal
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from collections.abc import Callable
from typing import NoReturn

from . import REPO_ROOT
from .autograder import build_autograder
from .check import append_progress, check_diary, log_ten_rounds, run_check, write_whole
from .config import KIT_TEST_INSTALL, STUDENT_INSTALL, handout_dir, load_course, suites_dir
from .defend import add_parser as add_defend_parser
from .defend import main as defend_main
from .demo import run_demo
from .grader.grading import DEFAULT_JOBS, Grader
from .grader.cache import default_folder, untrusted
from .grader.intake import MAX_GROUP_DEPTH, find_submissions, holds_submission
from .grader.scores import read_inventory
from .grader.hidden import HiddenStripError
from .honesty import check_honesty
from .regions import RegionError
from .report import csv_gradebook, gradescope_failure, gradescope_results, json_report, shown, text_report
from .grader.runner import Limits
from .starter import write_starter

def _kit_file(name: str) -> ModuleType | None:
    """Load ``blackjack/<name>.py`` on its own, or return None when it cannot be loaded.

    The file is loaded by its path, not as ``blackjack.<name>``: importing the ``blackjack``
    package runs all of it, and in a student's folder that is the student's code, so a
    syntax error in their ``hand.py`` would stop ``check`` with a traceback before any test
    ran. The two files loaded so (``cli.py``, ``typed_numbers.py``) use only the standard library.
    """
    path = Path(__file__).resolve().parent.parent / "blackjack" / f"{name}.py"
    try:
        spec = importlib.util.spec_from_file_location(f"milestones._kit_{name}", path)
        if spec is None or spec.loader is None:
            return None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except Exception:  # noqa: BLE001 - a missing or edited copy in a student's folder: the caller falls back
        return None
    return module


def _kit_parser_class() -> type[argparse.ArgumentParser]:
    """Return the kit's ``OneLineParser`` (``blackjack/cli.py``): errors in one line, ``(see --help)``, status 2;
    where that file cannot be loaded (:func:`_kit_file`), a class that does the same."""
    parser_class = getattr(_kit_file("cli"), "OneLineParser", None)
    if isinstance(parser_class, type) and issubclass(parser_class, argparse.ArgumentParser):
        return parser_class
    return _OneLineParser


class _OneLineParser(argparse.ArgumentParser):
    """The fallback of :func:`_kit_parser_class`: ``prog: error: ... (see --help)`` in one line, status 2."""

    def error(self, message: str) -> NoReturn:
        """Print ``message`` as one line to stderr and exit with status 2."""
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


#: The command's name in its messages: ``python -m milestones: error: ...`` as argparse writes its own.
_PROG = "python -m milestones"

#: The runner's default limits: the defaults (and their help) of ``--timeout``, ``--test-timeout`` and ``--memory``.
_DEFAULT_LIMITS = Limits()

#: The kit's one grammar of typed numbers (``blackjack/typed_numbers.py``: ``10``, ``2.5``, ``1_000``, ``1e3``).
#: Where a student's copy of that file cannot be loaded, Python's own ``float`` and ``int`` read the
#: options, so that ``check`` still runs and reports the student's code.
_NUMBERS = _kit_file("typed_numbers")


def _positive(text: str) -> float:
    """Read a number of seconds: more than 0 (``10``, ``2.5``, ``1_000``).

    Raises:
        argparse.ArgumentTypeError: not a number in the kit's grammar, or not more than 0.
    """
    try:
        value = float(_NUMBERS.parse_number(text, exponent=True) if _NUMBERS else float(text))
    except (ValueError, ArithmeticError) as err:
        raise argparse.ArgumentTypeError(f"{err}" if _NUMBERS else f"not a number: {text!r}") from None
    if not 0 < value < math.inf:  # also refuses nan in the fallback
        raise argparse.ArgumentTypeError(f"must be a number of seconds more than 0, got {text}")
    return value


#: The file each format is written to in an output folder (gradescope with several submissions: a folder of them).
_FILES = {"text": "grades.txt", "json": "grades.json", "gradescope": "results.json", "csv": "grades.csv"}
_FORMATS = tuple(_FILES)


def _formats(text: str) -> list[str]:
    """Read ``--format``: one format or several with commas (``text,csv,json``).

    Raises:
        argparse.ArgumentTypeError: a name that is not a format.
    """
    chosen = [f.strip() for f in text.split(",")]
    for name in chosen:
        if name not in _FORMATS:
            raise argparse.ArgumentTypeError(f"unknown format {name!r}: choose from {', '.join(_FORMATS)}")
    return list(dict.fromkeys(chosen))


def _at_least_one(text: str) -> int:
    """Read a whole number of 1 or more (``--jobs``, ``--memory``).

    Raises:
        argparse.ArgumentTypeError: not a whole number in the kit's grammar, or less than 1.
    """
    try:
        value = int(_NUMBERS.parse_count(text, sys.maxsize) if _NUMBERS else int(text))
    except ValueError as err:
        raise argparse.ArgumentTypeError(f"{err}" if _NUMBERS else f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text}")
    return value


def _limits(args: argparse.Namespace) -> Limits:
    return Limits(timeout=args.timeout, test_timeout=args.test_timeout, memory_mb=args.memory)


def _add_limits(parser: argparse.ArgumentParser, timeout: float = _DEFAULT_LIMITS.timeout) -> None:
    """Add ``--timeout`` (default ``timeout``), ``--test-timeout`` and ``--memory`` (the runner's defaults)."""
    parser.add_argument("--timeout", type=_positive, default=timeout, metavar="S",
                        help=f"seconds for one milestone's run on one submission (default {timeout:g})")
    parser.add_argument("--test-timeout", type=_positive, default=_DEFAULT_LIMITS.test_timeout, metavar="S",
                        help=f"seconds for one test (default {_DEFAULT_LIMITS.test_timeout:g})")
    parser.add_argument("--memory", type=_at_least_one, default=_DEFAULT_LIMITS.memory_mb, metavar="MB",
                        help=f"memory limit of a run in MiB, POSIX (default {_DEFAULT_LIMITS.memory_mb})")


def build_parser() -> argparse.ArgumentParser:
    """Return the parser with its seven sub-commands: a ``OneLineParser``, so a mistake is one line, status 2."""
    parser = _kit_parser_class()(prog=_PROG, description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)

    starter = sub.add_parser("starter", help="write a student starter package")
    starter.add_argument("out", type=Path, metavar="OUT_DIR",
                         help="the folder to write the package into (made if missing; must be empty unless --force)")
    starter.add_argument("--milestone", type=int, default=1, metavar="N",
                         help="stub milestone N and later; earlier milestones ship solved (default 1: all stubbed)")
    starter.add_argument("--force", action="store_true", help="write into a folder that is not empty")

    grade = sub.add_parser("grade", help="grade submissions")
    grade.add_argument("submissions", type=Path, nargs="+", metavar="SUBMISSION",
                       help="a folder holding blackjack/, a .zip of one, or a class folder (sections too)")
    grade.add_argument("--milestone", type=int, action="append", metavar="N",
                       help="grade milestone N (repeat for several; default: all)")
    grade.add_argument("--format", type=_formats, default=["text"], metavar="F[,F...]",
                       help="text for people (default), json or csv for spreadsheets and scripts, "
                            "gradescope for Gradescope's results.json; several with commas, from one grading")
    grade.add_argument("--output", "-o", type=Path, metavar="PATH",
                       help="write here instead of stdout; a folder (several formats, or gradescope with several "
                            "submissions) gets grades.txt, grades.csv, grades.json, <student>/results.json")
    grade.add_argument("--fresh", action="store_true",
                       help="grade every submission again, whatever the cache of earlier grades holds")
    grade.add_argument("--cache", type=Path, default=default_folder(), metavar="DIR",
                       help="where grades are kept between runs (default: $XDG_CACHE_HOME/blackjack-kit/grades)")
    grade.add_argument("--single", action="store_true",
                       help="each SUBMISSION is one student's work, never a class folder (Gradescope)")
    grade.add_argument("--layered", action="store_true",
                       help="also grade milestone N on the reference's earlier milestones; the better score counts")
    grade.add_argument("--visible-only", action="store_true", help="leave the hidden tests out")
    grade.add_argument("--failed-only", action="store_true", help="text format: list only tests that lost points")
    grade.add_argument("--tests", type=Path, default=suites_dir(REPO_ROOT), metavar="DIR",
                       help="folder holding milestone1/, milestone2/ ... (default: the kit's own suites)")
    grade.add_argument("--inventory", type=Path, metavar="FILE",
                       help="the tests and weights collected on the reference, as the autograder zip ships them "
                            "(default: collect them on the reference packages here)")
    grade.add_argument("--jobs", "-j", type=_at_least_one, default=DEFAULT_JOBS, metavar="N",
                       help=f"runs at the same time (default {DEFAULT_JOBS})")
    _add_limits(grade)

    autograder = sub.add_parser("autograder", help="build the Gradescope autograder zip for one milestone")
    autograder.add_argument("--milestone", type=int, required=True, metavar="N", help="the milestone it grades")
    autograder.add_argument("--output", "-o", type=Path, default=Path("autograder.zip"), metavar="ZIP",
                            help="the zip to write (default: autograder.zip)")
    autograder.add_argument("--layered", action=argparse.BooleanOptionalAction, default=True,
                            help="grade milestones after the first with --layered (default: yes)")
    _add_limits(autograder)

    check = sub.add_parser("check", help="run your milestone's visible tests and log your progress")
    check.add_argument("--milestone", type=int, metavar="N", help="default: the first one not complete")
    check.add_argument("--project", type=Path, default=Path.cwd(), metavar="DIR",
                       help="your project folder, holding blackjack/ and tests/ (default: here)")
    check.add_argument("--diary", type=Path, metavar="PATH", help="default: docs/diary.md in the project")
    check.add_argument("--no-diary", action="store_true", help="do not write the diary line")
    only = check.add_mutually_exclusive_group()
    only.add_argument("--part", metavar="KEY", help="run only this part's tests (wagering, advanced ...); not logged")
    only.add_argument("--test", metavar="NAME", help="run only this test (test_win_pays_one_to_one); not logged")
    _add_limits(check, 300.0)

    ten = sub.add_parser("tenrounds", help="play ten rounds of your course game with money (week 2) for the diary")
    ten.add_argument("--script", type=Path, metavar="FILE", help="answer the game's questions from this file, one "
                     "answer a line (default: type them)")
    ten.add_argument("--names", default="You", metavar="A,B,..", help="your players' names (default: You)")
    ten.add_argument("--project", type=Path, default=Path.cwd(), metavar="DIR",
                     help="your project folder, holding blackjack/ (default: here)")
    ten.add_argument("--diary", type=Path, metavar="PATH", help="default: docs/diary.md in the project")

    demo = sub.add_parser("demo", help="the Program Demo: play your game through each situation of a milestone")
    demo.add_argument("--milestone", type=int, action="append", metavar="N",
                      help="the milestone whose scenes to play (repeat for several; default: all)")
    demo.add_argument("--project", type=Path, default=Path.cwd(), metavar="DIR",
                      help="the project folder holding blackjack/ (default: here)")
    demo.add_argument("--step", action="store_true", help="wait for Enter before each scene")
    demo.add_argument("--scene-timeout", type=_positive, default=10.0, metavar="S",
                      help="seconds a scene may run before it is stopped (default 10)")

    add_defend_parser(sub)

    honesty = sub.add_parser("honesty", help="prove every point test passes on the reference and fails on the starter")
    honesty.add_argument("--milestone", type=int, action="append", metavar="N", help="default: all")
    honesty.add_argument("--mypy", action="store_true", help="also compare mypy --strict on starter and reference")
    _add_limits(honesty, 600.0)
    return parser


def _write(text: str, output: Path | None) -> None:
    """Write ``text`` to stdout, or to ``output`` all at once (a temporary file renamed over it: a grader killed
    while writing leaves the earlier file whole, never half a report)."""
    if output is None:
        sys.stdout.write(text)
        return
    output.parent.mkdir(parents=True, exist_ok=True)
    write_whole(output, text)


#: What results.json says while grading runs: it stays if the grader itself is killed (Gradescope's time limit,
#: the kernel's out-of-memory killer, SIGKILL), so the student sees why there is no grade.
_UNFINISHED = ("grading was stopped before it finished (the grader was killed, or ran out of time or memory); "
               "nothing you wrote was graded")


def _folder_output(formats: list[str], output: Path | None, count: int) -> bool:
    """Whether the reports go into the folder ``output`` (several formats, an existing folder, or gradescope with
    several submissions), after refusing an ``--output`` that cannot take them, before any grading.

    Raises:
        ValueError: several formats, or gradescope for several submissions, without ``--output FOLDER``,
            or with a file there.
    """
    folder = len(formats) > 1 or (output is not None and output.is_dir()) or ("gradescope" in formats and count > 1)
    if folder and output is None:
        reason = f"{count} submissions in gradescope format" if len(formats) == 1 else "several formats"
        raise ValueError(f"{reason} need --output FOLDER (it writes {', '.join(_FILES[f] for f in formats)} there)")
    if folder and output is not None and output.exists() and not output.is_dir():
        raise ValueError(f"--output {output} is a file; {' and '.join(formats)} for {count} submissions needs a "
                         f"folder")
    return folder


def _grade(args: argparse.Namespace) -> int:
    if (args.format == ["gradescope"] and args.output is not None and not args.output.is_dir()
            and (args.single or args.output.suffix == ".json")):  # one results.json, not a folder of them
        _write(gradescope_failure(_UNFINISHED), args.output)  # replaced by the grade when there is one
    try:
        return _grade_all(args)
    except Exception as err:  # noqa: BLE001 - whatever stopped grading, Gradescope gets a results.json
        if args.format == ["gradescope"] and args.output is not None and not args.output.is_dir():
            # Gradescope wants a results.json whatever happens: score 0 and the reason (a broken autograder)
            reason = err.args[0] if isinstance(err, KeyError) and err.args else err
            _write(gradescope_failure(str(reason)), args.output)
        raise


def _progress(done: int, total: int, elapsed: float, running: str) -> None:
    """One progress line on stderr, rewritten in place: gradings done of all, time taken and left, who now."""
    left = f", about {_clock(elapsed / done * (total - done))} left" if done else ""
    line = f"graded {done}/{total}, {_clock(elapsed)}{left}" + (f": {shown(running)}" if running else "")
    width = shutil.get_terminal_size().columns - 1
    sys.stderr.write("\r" + line[:width].ljust(width) + ("\n" if done == total else ""))
    sys.stderr.flush()


def _clock(seconds: float) -> str:
    """``75.2`` -> ``"1:15"``."""
    return f"{int(seconds) // 60}:{int(seconds) % 60:02d}"


def _grade_all(args: argparse.Namespace) -> int:
    course = load_course()  # _run has checked the milestone numbers
    for path in args.submissions:  # a mistyped path is a mistake, not a student's 0 points
        if not path.exists():
            raise FileNotFoundError(f"there is no submission {path}: give a folder holding blackjack/, "
                                    f"a .zip of one, or a class folder")
    empty = [p for p in args.submissions if p.is_dir() and not args.single and not holds_submission(p)]
    if empty and len(empty) == len(args.submissions):  # beside others, such a folder is a student with a note
        raise ValueError(f"{empty[0]} holds no submission: no blackjack/ and no .zip in it, {MAX_GROUP_DEPTH} "
                         f"folders down")
    inventories = read_inventory(args.inventory) if args.inventory is not None else None
    if (why := untrusted()) is not None and args.cache is not None:  # the Grader keeps none: say why
        print(why, file=sys.stderr)
    grader = Grader(course=course, tests=args.tests, limits=_limits(args), jobs=args.jobs,
                    layered=args.layered, hidden=not args.visible_only, inventories=inventories,
                    cache=args.cache, fresh=args.fresh)
    with tempfile.TemporaryDirectory(prefix="bj-submissions-") as scratch:
        submissions = find_submissions(args.submissions, Path(scratch), single=args.single)
        folder = _folder_output(args.format, args.output, len(submissions))
        grades = grader.grade(submissions, args.milestone, _progress if sys.stderr.isatty() else None)
    if args.format == ["gradescope"] and args.output is not None:  # stdout: what the instructor sees on Gradescope
        sys.stdout.write(text_report(grades))
    for format_ in args.format:
        where = args.output / _FILES[format_] if folder and args.output is not None else args.output
        if format_ == "text":
            _write(text_report(grades, passed_tests=not args.failed_only), where)
        elif format_ == "json":
            _write(json_report(grades), where)
        elif format_ == "csv":
            _write(csv_gradebook(grades), where)
        elif len(grades) == 1:
            _write(gradescope_results(grades[0], course.hidden_visibility), where)
        else:
            assert args.output is not None  # _folder_output
            for grade in grades:
                _write(gradescope_results(grade, course.hidden_visibility),
                       args.output / grade.submission.name / "results.json")
            print(f"wrote {len(grades)} results.json files under {args.output}", file=sys.stderr)
    return 0


def _check(args: argparse.Namespace) -> int:
    project = args.project.resolve()
    diary = args.diary or project / "docs" / "diary.md"
    if args.part is None and args.test is None and not args.no_diary:  # refused before the tests run, not after
        check_diary(diary)
    result = run_check(project, args.milestone, limits=_limits(args), progress=lambda line: print(line, flush=True),
                       part=args.part, test=args.test)
    print(result.describe())
    if result.selection:
        print("(a check of one part or one test is not logged in the diary)")
    elif not args.no_diary:
        if append_progress(diary, result, template=handout_dir(REPO_ROOT) / "diary_template.md"):
            print(f"(logged in {diary})")
        else:
            print(f"(nothing new since the last line in {diary})")
        if result.grade.milestone.number >= 2:  # the course's "see how much you win/lose over 10 rounds"
            print("(your ten rounds with money, for the diary: python -m milestones tenrounds)")
    return 0


def _ten_rounds(args: argparse.Namespace) -> int:
    project = args.project.resolve()
    if not (project / "blackjack" / "__init__.py").is_file():
        raise FileNotFoundError(f"{project} has no blackjack/__init__.py; give --project DIR")
    names = [name.strip() for name in args.names.split(",") if name.strip()] or ["You"]
    diary = args.diary or project / "docs" / "diary.md"
    check_diary(diary)
    script: list[str] = [] if args.script is None else args.script.read_text(encoding="utf-8").splitlines()

    def scripted(prompt: str) -> str:
        if not script:
            raise EOFError
        answer = script.pop(0)
        print(prompt + answer, flush=True)
        return answer
    ask: Callable[[str], str] = scripted if args.script is not None else input
    ten = log_ten_rounds(project, diary, ask, lambda line: print(line, flush=True), names=names,
                         template=handout_dir(REPO_ROOT) / "diary_template.md")
    return 1 if ten.problem else 0


def _demo(args: argparse.Namespace) -> int:
    def pause() -> None:
        with contextlib.suppress(EOFError):
            input("(press Enter for the next scene) ")

    return run_demo(args.project, sys.stdout, args.milestone, scene_timeout=args.scene_timeout,
                    pause=pause if args.step else None)


def _needs_pytest(command: str) -> str:
    """The one line ``command`` prints when pytest is missing: what to install, as the docs say it (``check``:
    a student, in the starter folder, docs/student.md's command)."""
    install = STUDENT_INSTALL if command == "check" else f"in the kit's folder, {KIT_TEST_INSTALL}"
    return f"error: {command} runs the course's tests with pytest, which is not installed: {install}"


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status.

    Returns:
        0 when done, 1 when ``honesty`` or the demo found a problem, 2 for a mistake the
        user can fix (one line on stderr, nothing changed), 130 when Ctrl-C stopped it
        (one line, no traceback).

    Raises:
        SystemExit: status 2 for a mistake the parser finds (one line, ``(see --help)``).
    """
    args = build_parser().parse_args(argv)
    if args.command in ("grade", "autograder", "check", "honesty") and importlib.util.find_spec("pytest") is None:
        print(_needs_pytest(args.command), file=sys.stderr)
        return 2
    try:
        _interrupts_raise()
        return _run(args)
    except KeyboardInterrupt:
        print(f"{args.command}: stopped (Ctrl-C)", file=sys.stderr)
        return 130
    except (KeyError, ValueError, OSError, RuntimeError, RegionError, HiddenStripError) as err:
        message = err.args[0] if isinstance(err, KeyError) and err.args else err
        print(f"{_PROG}: error: {message}", file=sys.stderr)
        return 2
    except Exception as err:  # noqa: BLE001 - a bug of the kit's own: one line, never a traceback
        print(f"{_PROG}: internal error, please report it: {type(err).__name__}: {err}", file=sys.stderr)
        return 1


def _interrupts_raise() -> None:
    """From now on, Ctrl-C raises ``KeyboardInterrupt`` (which :func:`main` reports in one line), in place of the
    quiet exit the module sets while it starts; SIGINT ignored, or another thread, is left alone."""
    with contextlib.suppress(ValueError):  # not the main thread
        if signal.getsignal(signal.SIGINT) not in (signal.SIG_IGN, None):
            signal.signal(signal.SIGINT, signal.default_int_handler)


def _run(args: argparse.Namespace) -> int:
    """Run the sub-command ``args.command``; return its exit status (errors are raised)."""
    chosen = getattr(args, "milestone", None)
    numbers = chosen if isinstance(chosen, list) else [] if chosen is None else [chosen]
    course = load_course()
    for number in numbers:  # a number the course lacks is named as such, before anything runs
        course.milestone(number)
    if args.command == "starter":
        print(write_starter(args.out, milestone=course.milestone(args.milestone).number,
                            overwrite=args.force).describe())
        return 0
    if args.command == "autograder":
        print(build_autograder(args.output, args.milestone, layered=args.layered, limits=_limits(args)).describe())
        return 0
    commands = {"grade": _grade, "check": _check, "demo": _demo, "tenrounds": _ten_rounds}
    if args.command in commands:
        return commands[args.command](args)
    if args.command == "defend":
        return defend_main(args, lambda line: print(line, flush=True))
    report = check_honesty(milestones=args.milestone, limits=_limits(args), mypy=args.mypy)
    print(report.describe())
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
