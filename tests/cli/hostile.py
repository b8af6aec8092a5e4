"""Hostile runs of the kit's command lines: bad options, hostile environments, unwritable output, Ctrl-C.

Where ``tests/text_game/garbage.py`` throws garbage at the game's *input*, this module attacks
the *process*: each run is one command (``python -m blackjack`` for now; add others to
:data:`COMMANDS`) drawn from one of the families in :data:`FAMILIES`:

==============  ==========================================================================
family          what it does
==============  ==========================================================================
``options``     option mistakes: a stack beyond the shoe, repeated or unprintable names,
                rules files whose text holds terminal escapes or runs to thousands of characters
``environment`` PYTHONIOENCODING utf-16, utf-32, ascii, latin-1, an unknown one; LANG=C;
                TERM=dumb; COLUMNS=0, -1, huge
``output``      stdout to /dev/full, into a pipe whose reader is gone, or closed
``interrupt``   SIGINT at a random moment: half in the first 0.08 s (start-up), half in 0.4 s
``stdin``       stdin closed, or at end of file at once
==============  ==========================================================================

Each run is judged: it ends within the time limit, with a status in its family's allowed
set, with no ``Traceback`` anywhere and no ``Stopped:`` (which blames the course code), at
most one line on stderr for a usage error (status 2), and no raw control character from a
file or an option echoed to the screen. A Ctrl-C
before the kit's first line (the interpreter's own start-up) may end the process by the
signal; that is counted as ``ok-before-kit``.

Run many from the shell (the same seed draws the same runs)::

    python tests/cli/hostile.py --count 300 --seed 1      # the tally by family; status 1 on any failure
    python tests/cli/hostile.py --count 50 --show          # each failing run's command and output
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: The command lines under attack: a name and the arguments after ``python -m``.
COMMANDS: dict[str, tuple[str, ...]] = {"game": ("blackjack",), "sim": ("blackjack.sim",),
                                        "milestones": ("milestones",)}

#: A short simulation (about a second): the simulator's ordinary run in the families below.
_SIM = ("--hands", "300", "--quiet", "--strategy", "basic")

#: Statuses any run may end with: played, stopped (a file cannot be written), bad options, interrupted.
STATUSES = frozenset((0, 1, 2, 130))

#: Control characters that must never reach the screen from a file or an option (tab, newline and CR aside).
_CONTROL = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")

#: A traceback frame in a kit file (``File ".../blackjack/x.py", line N, in f``).
_FRAME = re.compile(rb'File "([^"]*)", line (\d+), in (\S+)')


@dataclass(frozen=True)
class Run:
    """One hostile run: the command, its arguments, stdin, environment changes and how it is wired.

    Attributes:
        family: the family it was drawn from (see :data:`FAMILIES`).
        command: a key of :data:`COMMANDS`.
        argv: the arguments after the command.
        stdin: the bytes typed.
        env: environment variables set for the run.
        plumbing: ``"pipe"``, ``"full"`` (stdout to /dev/full), ``"gone"`` (stdout a pipe with no
            reader), ``"closed-stdout"`` or ``"closed-stdin"``.
        interrupt_after: seconds after the start to send SIGINT, or None.
        usage_error: the run must end with status 2 and one line on stderr.
    """

    family: str
    command: str
    argv: tuple[str, ...]
    stdin: bytes = b""
    env: tuple[tuple[str, str], ...] = ()
    plumbing: str = "pipe"
    interrupt_after: float | None = None
    usage_error: bool = False

    def shell(self) -> str:
        """The run as a shell line, to replay it by hand."""
        env = " ".join(f"{k}={shlex.quote(v)}" for k, v in self.env)
        words = " ".join(shlex.quote(a if len(a) < 80 else a[:60] + "...") for a in self.argv)
        wiring = {"pipe": "", "full": " >/dev/full", "gone": " | (exit 0)", "closed-stdout": " >&-",
                  "closed-stdin": " <&-"}[self.plumbing]
        signal_note = f"  # SIGINT after {self.interrupt_after:.3f} s" if self.interrupt_after is not None else ""
        return f"{env} python -m {' '.join(COMMANDS[self.command])} {words}{wiring}{signal_note}".strip()


@dataclass(frozen=True)
class Verdict:
    """How a run ended: ``kind`` is ``"ok"``, ``"ok-before-kit"`` or the first rule it broke."""

    run: Run
    kind: str
    status: int | None
    output: str
    seconds: float


@dataclass
class Files:
    """Rules files with hostile text, written once into a folder."""

    folder: Path
    paths: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        texts = {
            "escape_name": 'name = "\\u001b[31mRed"\n',
            "escape_description": 'description = "A table.\\u001b]0;pwned\\u0007"\n',
            "bell_name": 'name = "ding\\u0007"\n',
            "newline_name": 'name = "two\\nlines"\n',
            "rtl_name": 'name = "\\u202etable"\n',
            "long_name": f'name = "{"x" * 5000}"\n',
            "long_description": f'description = "{"y" * 5000}"\n',
            "good": 'name = "home"\ndecks = 2\n',
        }
        for stem, text in texts.items():
            path = self.folder / f"{stem}.toml"
            path.write_text(text, encoding="utf-8")
            self.paths[stem] = str(path)
        odd = self.folder / "odd\x1b[2Jname.toml"  # a file name with an escape and no name field
        odd.write_text("decks = 1\n", encoding="utf-8")
        self.paths["escape_file_name"] = str(odd)


# ------------------------------------------------------------------ the families
def bad_options(rng: random.Random, files: Files) -> Run:
    """An option mistake that must be a usage error (status 2, one line), or a run that must not echo escapes."""
    decks = rng.choice([1, 2, 6, 8])
    card = rng.choice(["Ah", "Ks", "2c", "Td", "10h", "Qd"])
    choices: list[tuple[tuple[str, ...], bool]] = [
        (("--names", "Ann", "--decks", str(decks), "--stack", ",".join([card] * (decks + rng.randrange(1, 4)))), True),
        (("--names", "Ann", "--rules", rng.choice(["single_deck", "cs111"]), "--stack", "Ah,Ah"), True),
        (("--names", "Ann", "--rules", "single_deck", "--stack", ",".join(["Ah"] * 500)), True),
        (("--names", "Ann", "--rules", "cs111", "--stack", ",".join(["Ah"] * 7)), True),
        (("--names", rng.choice(["Ann,Ann", "Bob,Ann,Bob", "A,B,A,B"])), True),
        (("--names", rng.choice(["\x1b[31mRed", "tab\there", "x" * rng.randrange(21, 300), "ok,\x07bell"])), True),
        (("--names", "Ann", "--bankroll", rng.choice(["1e3", "_10", "10_", "1__0", "15/2", "nan", "-5", "0"])), True),
        (("--names", "Ann", "--rules", files.paths[rng.choice(["escape_name", "escape_description", "bell_name",
                                                               "newline_name", "rtl_name", "long_name",
                                                               "long_description"])]), True),
        (("--names", "Ann", "--rules", files.paths["escape_file_name"], "--rounds", "1"), False),
        (("--names", "Ann", "--rules", files.paths["good"], "--stack", "Ah,Ah,Ah"), True),
    ]
    rules_file = files.paths[rng.choice(["escape_name", "escape_description", "bell_name", "newline_name",
                                         "rtl_name", "long_name", "long_description"])]
    by_command: dict[str, list[tuple[tuple[str, ...], bool]]] = {
        "game": choices,
        "sim": [
            ((*_SIM, "--hands", rng.choice(["_10", "10_", "1__0", "nan", "inf", "", ".5", "0", "1e99", "0x10"])), True),
            ((*_SIM, "--bankroll", rng.choice(["1e3", "_10", "15/2", "nan", "-5", "0", "ten"])), True),
            ((*_SIM, "--penetration", rng.choice(["2", "-0.5", "1/0", "nan", "3/4/5"])), True),
            ((*_SIM, "--plot", rng.choice(["", "/dev/full", "/proc/x.png", "/no/such/folder/x.png"])), True),
            ((*_SIM, "--rules", rules_file), True),
            ((*_SIM, "--rules", rng.choice(["nope", "/no/such.toml"])), True),
            ((*_SIM, "--dask", "tcp://127.0.0.1:1", "--jobs", "2"), True),
            ((*_SIM, "--strategy", rng.choice(["nope", "no.such.module:play"])), True),
            ((*_SIM, "--strategy", "os:system"), False),  # a function that exists and fails while running: status 1
            ((*_SIM, "--json", rng.choice(["/proc/x.json", "/no/such/x.json"])), True),
        ],
        "milestones": [
            (("grade", "/no/such/folder", "--milestone", "1"), True),
            (("autograder", "--milestone", "1", "-o", "/no/such/folder/x.zip"), True),
            (("honesty", "--milestone", rng.choice(["9", "0", "-1", "x"])), True),
            (("starter", files.paths["good"]), True),
            (("check", "--diary", str(files.folder)), True),
            ((rng.choice(["grade", "check", "autograder"]), "--timeout", rng.choice(["_1", "nan", "0", "-5", ".5"])), True),
            (("grade", "--jobs", rng.choice(["0", "1__0", "x"]), "/no/such"), True),
            ((rng.choice(["nope", "--nope", "grade --nope"]),), True),
            (("defend", rng.choice(["--hands", "--seed"]), rng.choice(["0", "-5", "x", "1e999", "nan"])), True),
            (("defend", "--project", rng.choice(["/no/such", str(files.folder)])), True),
        ],
    }
    command = rng.choice(list(COMMANDS))
    argv, usage = rng.choice(by_command[command])
    return Run("options", command, argv, b"10\ns\n", usage_error=usage)


def hostile_environment(rng: random.Random, files: Files) -> Run:
    """A normal short game under a hostile encoding, locale, terminal or width."""
    env = [rng.choice([("PYTHONIOENCODING", e) for e in ("utf-16", "utf-32", "ascii", "latin-1", "cp1252",
                                                           "utf-8:strict", "nope", "utf-16:replace")]
                      + [("LANG", "C"), ("TERM", "dumb")]
                      + [("COLUMNS", c) for c in ("0", "-1", "99999999999999999999", "x")])]
    if rng.random() < 0.3:
        env.append(("LANG", "C"))
    command = rng.choice(list(COMMANDS))
    argv = {"game": ("--names", "Ann", "--rounds", "1", "--seed", str(rng.randrange(100)), *rng.choice([(), ("--plain",)])),
            "sim": (*_SIM, "--seed", str(rng.randrange(100))),
            "milestones": rng.choice([("--help",), ("grade", "/no/such"), ("honesty", "--milestone", "9")])}[command]
    return Run("environment", command, argv, b"10\ns\nh\ns\n", env=tuple(env))


def unwritable_output(rng: random.Random, files: Files) -> Run:
    """Output to a full disk, to a pipe with no reader, or to a closed stdout; the game, --help or a usage error."""
    command = rng.choice(list(COMMANDS))
    argv = rng.choice({"game": [("--help",), ("--names", "Ann", "--rounds", "1"), ("--names", "Ann", "--drill"),
                                ("--nope",), ("--names", "Ann", "--rules", "cs111")],
                       "sim": [("--help",), _SIM, (*_SIM, "--json", "-"), (*_SIM, "--csv", "-"), ("--nope",)],
                       "milestones": [("--help",), ("grade", "--help"), ("--nope",)]}[command])
    plumbing = rng.choice(["full", "gone", "closed-stdout"] if Path("/dev/full").exists() else ["gone", "closed-stdout"])
    env = rng.choice([(), (("PYTHONUNBUFFERED", "1"),)])
    return Run("output", command, argv, b"10\ns\n", env=env, plumbing=plumbing)


def interrupted(rng: random.Random, files: Files) -> Run:
    """SIGINT at a random moment of the first 0.4 s, while the game starts or waits at a prompt."""
    command = rng.choice(list(COMMANDS))
    argv = rng.choice({"game": [("--names", "Ann"), ("--names", "Ann", "--hints"), (), ("--names", "Ann", "--drill")],
                       "sim": [("--hands", "1e9", "--quiet"), ("--hands", "1e9")],
                       "milestones": [("honesty", "--milestone", "1")]}[command])
    moment = rng.uniform(0, 0.08) if rng.random() < 0.5 else rng.uniform(0, 0.4)  # half of them in start-up
    return Run("interrupt", command, argv, b"", interrupt_after=moment)


def no_stdin(rng: random.Random, files: Files) -> Run:
    """Stdin closed, or empty: the game must end with its summary (or 'No game played.')."""
    command = rng.choice(list(COMMANDS))
    argv = rng.choice({"game": [("--names", "Ann"), (), ("--names", "Ann", "--drill"), ("--names", "Ann", "--rules", "cs111")],
                       "sim": [_SIM],
                       "milestones": [("--help",), ("honesty", "--milestone", "9")]}[command])
    return Run("stdin", command, argv, b"", plumbing=rng.choice(["closed-stdin", "pipe"]))


#: The families and their weights (how often each is drawn).
FAMILIES: dict[str, tuple[Callable[[random.Random, Files], Run], int]] = {
    "options": (bad_options, 3),
    "environment": (hostile_environment, 2),
    "output": (unwritable_output, 2),
    "interrupt": (interrupted, 2),
    "stdin": (no_stdin, 1),
}


def runs(count: int, seed: int, files: Files) -> Iterator[Run]:
    """``count`` runs drawn from ``seed``: the same seed draws the same runs."""
    rng = random.Random(seed)
    names = list(FAMILIES)
    weights = [FAMILIES[name][1] for name in names]
    for _ in range(count):
        yield FAMILIES[rng.choices(names, weights)[0]][0](rng, files)


# ------------------------------------------------------------------ running and judging
def sigint_default() -> None:
    """Run in a child before it starts: Ctrl-C's default action, as a terminal gives a program. A test run
    started in the background (``cmd &``) has SIGINT ignored, and a child would inherit that and keep it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def execute(run: Run, *, timeout: float = 30.0, root: Path = ROOT) -> Verdict:
    """Run one hostile run in a subprocess (in ``root``, so ``-m`` finds its packages first) and judge it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "LC_", "LANG", "COLUMNS", "LINES"))}
    env.update({"PYTHONIOENCODING": "utf-8", "LC_ALL": "C.UTF-8"})
    env.update(dict(run.env))
    if "LANG" in dict(run.env):
        env.pop("LC_ALL")
    command = [sys.executable, "-m", *COMMANDS[run.command], *run.argv]
    if run.plumbing in ("closed-stdout", "closed-stdin"):
        command = ["sh", "-c", 'exec "$0" "$@" ' + (">&-" if run.plumbing == "closed-stdout" else "<&-"), *command]
    started = time.perf_counter()
    stdout_target: int | object = subprocess.PIPE
    opened: list[int] = []
    if run.plumbing == "full":
        stdout_target = os.open("/dev/full", os.O_WRONLY)
        opened.append(stdout_target)  # type: ignore[arg-type]
    elif run.plumbing == "gone":
        read, write = os.pipe()
        os.close(read)
        stdout_target = write
        opened.append(write)
    try:
        child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=stdout_target, stderr=subprocess.PIPE,
                                 cwd=root, env=env, preexec_fn=sigint_default)
    finally:
        for fd in opened:
            os.close(fd)
    try:
        if run.interrupt_after is not None:
            time.sleep(run.interrupt_after)
            child.send_signal(signal.SIGINT)
            out, err = child.communicate(timeout=timeout)
        else:
            out, err = child.communicate(run.stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        child.kill()
        out, err = child.communicate()
        return Verdict(run, "hang", None, _text(out, err), time.perf_counter() - started)
    except BrokenPipeError:  # the child closed its stdin early (the closed-stdin wiring): nothing to type
        out, err = child.communicate()
    return judge(run, child.returncode, out or b"", err or b"", time.perf_counter() - started, root)


def judge(run: Run, status: int, out: bytes, err: bytes, seconds: float, root: Path = ROOT) -> Verdict:
    """The rules every run must keep (see the module's docstring); the first one broken names the verdict."""
    output = _text(out, err)
    encoding = dict(run.env).get("PYTHONIOENCODING", "utf-8").split(":")[0]
    if encoding == "nope":  # the interpreter refuses an unknown encoding before any of the kit's code runs
        ok = status == 1 and b"unknown encoding: nope" in err and b"Traceback" not in err
        return Verdict(run, "ok-before-kit" if ok else "status", status, output, seconds)
    if b"Traceback" in out + err or _decoded(out, encoding).count("Traceback"):
        if run.interrupt_after is not None and not _kit_frames(out + err, root):
            return Verdict(run, "ok-before-kit", status, output, seconds)
        return Verdict(run, "traceback", status, output, seconds)
    if run.interrupt_after is not None and status == -signal.SIGINT:
        return Verdict(run, "ok-before-kit", status, output, seconds)  # died of the signal, printing nothing
    if status not in STATUSES:
        return Verdict(run, "status", status, output, seconds)
    err_lines = _decoded(err, encoding).splitlines()  # stderr is written in the run's encoding too
    if run.usage_error and (status != 2 or len(err_lines) != 1):
        return Verdict(run, "usage", status, output, seconds)
    if status == 2 and len(err_lines) > 1:
        return Verdict(run, "usage", status, output, seconds)
    if "Stopped:" in _decoded(out, encoding) + err.decode("utf-8", "replace"):
        return Verdict(run, "stopped", status, output, seconds)  # 'Stopped:' blames the code: none of these is a code fault
    shown = _decoded(out, encoding).encode("utf-8", "replace") + err
    if run.family == "options" and _CONTROL.search(shown):
        return Verdict(run, "control-chars", status, output, seconds)
    return Verdict(run, "ok", status, output, seconds)


def _kit_frames(output: bytes, root: Path) -> list[bytes]:
    """The traceback frames that run through the kit's own files (under ``root``) past the loading of the quiet
    Ctrl-C handler (the package's lazy ``__init__``, ``blackjack/cli.py``, ``__main__`` up to the handler's line)."""
    handler_lines = {}
    for main in ("blackjack/__main__.py", "blackjack/sim/__main__.py", "milestones/__main__.py"):
        path = root / main
        lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
        handler_lines[os.fsencode(main)] = next((n for n, line in enumerate(lines, 1)
                                                 if "exit_on_interrupt()" in line or "_signal.signal(" in line), 0)
    prefix = os.fsencode(str(root) + os.sep)
    late = []
    for path, line, function in _FRAME.findall(output):
        if not path.startswith(prefix):
            continue
        main_line = next((n for name, n in handler_lines.items() if path.endswith(name)), None)
        loading = (path.endswith((b"blackjack/__init__.py", b"milestones/__init__.py", b"blackjack/sim/__init__.py"))
                   or (path.endswith((b"blackjack/cli.py", b"blackjack/_lazy.py")) and function == b"<module>")
                   or (main_line is not None and function == b"<module>" and int(line) <= main_line))
        if not loading:
            late.append(path)
    return late


def _decoded(out: bytes, encoding: str) -> str:
    try:
        return out.decode(encoding, "replace")
    except LookupError:
        return out.decode("utf-8", "replace")


def _text(out: bytes | None, err: bytes | None) -> str:
    return ((out or b"")[-2000:] + b"\n--- stderr ---\n" + (err or b"")[-2000:]).decode("utf-8", "replace")


def main(argv: list[str] | None = None) -> int:
    """Run hostile runs and print the tally by family; return 1 when any run broke a rule."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--count", type=int, default=300, help="runs (default 300)")
    parser.add_argument("--seed", type=int, default=1, help="draws the runs (default 1)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds before a run counts as hung")
    parser.add_argument("--show", action="store_true", help="print each failing run's output")
    parser.add_argument("--root", type=Path, default=ROOT, metavar="DIR", help="the checkout to run (default: this)")
    args = parser.parse_args(argv)
    tally: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, run in enumerate(runs(args.count, args.seed, Files(Path(tmp)))):
            verdict = execute(run, timeout=args.timeout, root=args.root.resolve())
            tally[run.family][verdict.kind] += 1
            if not verdict.kind.startswith("ok"):
                failed += 1
                print(f"[{i}] {verdict.kind} (status {verdict.status}): {run.shell()}")
                if args.show:
                    print(verdict.output[-1500:])
    for family in FAMILIES:
        counts = tally.get(family, collections.Counter())
        print(f"{family:12} {sum(counts.values()):4} runs: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())))
    print(f"{args.count} runs (seed {args.seed}): {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
