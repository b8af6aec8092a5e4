"""Garbage scripts for the terminal game: random options, random stdin bytes, odd locales, run as a user would.

Each script is one ``python -m blackjack`` process (now and then ``python -m blackjack.sim``)
with options drawn from what people mistype, rules files that are broken in every way a
file can be (nested 1000 deep, a FIFO, ``/dev/zero``, a byte-order mark, values of the wrong
type), and stdin made of moves, junk, bytes that are not UTF-8 and floods of empty lines,
under strict UTF-8, ASCII and Latin-1 stdio. A script passes when it ends, within the time
limit, with status 0, 1, 2 or 130 and no ``Traceback`` anywhere.

``test_garbage_scripts.py`` runs a few dozen of these; run many from the shell::

    python tests/text_game/garbage.py --count 500           # prints the tally; status 1 on any failure
    python tests/text_game/garbage.py --count 50 --seed 7 --show   # the failing scripts' commands and output

The same ``--seed`` draws the same scripts.
"""

from __future__ import annotations

import argparse
import os
import random
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Exit statuses a script may end with: played, stopped (starter code), bad options, interrupted.
GOOD_STATUSES = frozenset((0, 1, 2, 130))

if __name__ == "__main__" and str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run as a script: the fuzz test below imports blackjack from this checkout
from test_text_game_fuzz import COMMON as TYPED_COMMON, WORDS as TYPED_WORDS  # noqa: E402

#: Typed lines: the hypothesis test's words (test_text_game_fuzz.py), as bytes, and a few more.
MOVES = [w.encode() for w in TYPED_WORDS] + [b"?", b"stats", b"i 1/3", b"i 2.5", b"i -1", b"i nan", b"i 1e99",
                                             b"s h", b"hit me", b"y y", b"no", b"yes"]
COMMON = [w.encode() for w in TYPED_COMMON]
JUNK = [b"\xff", b"\xfe\xfe", b"\xc3", b"\xed\xa0\x80", b"caf\xe9", b"\x00", b"\x00h", b"\x1b[A", b"\x1b[2J", b"\r",
        b"h\r", b"\x7f", b"\x08\x08", b"\xef\xbb\xbfh", "１０".encode(), "٣".encode(), "Ⅻ".encode(), "①".encode(),
        "\u202eh".encode(), "\u200bs".encode(), "ｈ".encode(), "ß".encode(), "🂡".encode(), b"%s%n", b"{}", b"'",
        b"\\", b"h" * 5000, b"1" * 400, b"-" * 300, b"1/3", b"10/3", b"1e-9", b"0.5", b"NaN", b"inf", b"-0",
        b"0x10", b"1_0", b"\xe2\x80\xa8", b"\x0c", b"\x0b"]
PRESETS = ["cs111", "vegas", "atlantic_city", "downtown", "single_deck", "european", "justblackjack", "thunderjack"]
WORD_OPTIONS = [b"", b"-1", b"0", b"1", b"2", b"3", b"7", b"8", b"99", b"1e3", b"1.5", b"x", b"\xff", b"9" * 50,
                b"-" * 3, b"1/3", b"10/3", b"2.5", b"nan", b"inf", b" 5", "٣".encode()]
BANKROLLS = WORD_OPTIONS + [b"1000", b"500", b"0.5", b"7.5", b"1e999999", b"1e-30", b"-0", b"1_000", b"100/3"]
NAMES = [b"Ann", b"Ann,Bob", b"Ann,Ann", b",,,", b"", b" ", b"A" * 200, b"\xff", b"Ann,\xffBob", b"\x1b[31mRed",
         "Zoë,Jürgen".encode(), b"a,b,c,d,e,f,g,h", b"Dealer", b"House", "\u202eevil".encode(), b"tab\there"]
STACKS = [b"Ah,Kd,7c,9s", b"As,9h,Kd,7c", b"Ah", b"Zz", b"10h,10d", b"Ah," * 400, b",,", b"\xff", b"AhAh",
          b"Th,As,8d,Kc", b"Js,Ah,Qs,Kc", b"Jh,Ah,Js,As,Kd,7c", b"2c,3c,2d,3d,2h,3h,2s,3s,4c,4d"]
COUNTING = [b"hi_lo", b"ko", b"zen", b"omega_2", b"hi_opt_1", b"nope", b"\xff", b""]
ENCODINGS = ["utf-8", "utf-8", "ascii", "latin-1", "utf-8:strict", "cp1252"]
#: How a script's streams are connected: pipes, or a shell redirection that closes one or fills the disk.
REDIRECTS = {"pipe": b"", "closed-stdin": b"<&-", "closed-stdout": b">&-", "full-stdout": b">/dev/full"}
PLUMBING = ["pipe"] * 30 + ["closed-stdin", "closed-stdout"] + (["full-stdout"] if Path("/dev/full").exists() else [])


@dataclass(frozen=True)
class Script:
    """One garbage script: the command line, the bytes on stdin, and the stdio encoding."""

    argv: tuple[bytes, ...]
    stdin: bytes
    encoding: str
    simulator: bool = False
    plumbing: str = "pipe"  # or "closed-stdin", "closed-stdout", "full-stdout" (a shell redirects them)

    def command(self) -> list[bytes]:
        """The full command line (through ``sh`` when a stream is closed or full)."""
        module = b"blackjack.sim" if self.simulator else b"blackjack"
        command = [os.fsencode(sys.executable), b"-m", module, *self.argv]
        redirect = REDIRECTS[self.plumbing]
        if redirect:
            return [b"sh", b"-c", b'exec "$0" "$@" ' + redirect, *command]
        return command

    def shell(self, limit: int = 400) -> str:
        """The script as one shell line, to replay it by hand (stdin cut to ``limit`` bytes)."""
        argv = " ".join(_shell_word(a) for a in self.command()[-len(self.argv) - 2:]) + " " + REDIRECTS[
            self.plumbing].decode()
        stdin = "".join(chr(b) if 32 <= b < 127 and chr(b) not in "'%\\" else f"\\x{b:02x}"
                        for b in self.stdin[:limit])
        more = f" (first {limit} of {len(self.stdin)} bytes)" if len(self.stdin) > limit else ""
        return f"printf '{stdin}' | PYTHONIOENCODING={self.encoding} python {argv}{more}"


def _shell_word(word: bytes) -> str:
    """One command-line word for a shell: quoted, with bytes that are not printable ASCII as ``$'\\xNN'``."""
    if all(32 <= b < 127 for b in word):
        return shlex.quote(word.decode("ascii"))
    return "$'" + "".join(chr(b) if 32 <= b < 127 and chr(b) not in "'\\" else f"\\x{b:02x}" for b in word) + "'"


@dataclass(frozen=True)
class Verdict:
    """How a script ended: ``kind`` is ``"ok"``, ``"traceback"``, ``"status"`` or ``"hang"``."""

    script: Script
    kind: str
    status: int | None
    output: str
    seconds: float


def rules_files(folder: Path) -> list[bytes]:
    """Write rules files that are broken in every way a file can be; return their paths (and special files)."""
    files = {
        "deep.toml": "a = " + "[" * 1000 + "]" * 1000 + "\n",
        "deep_table.toml": "a = " + "{b = " * 600 + "1" + "}" * 600 + "\n",
        "deep_key.toml": "decks = " + "[" * 300 + "2" + "]" * 300 + "\n",
        "cut_int.toml": "cut_card_from_back = 5\npenetration = 0.5\n",
        "cut_strings.toml": 'cut_card_from_back = ["a", "b"]\n',
        "date.toml": "decks = 1979-05-27\n",
        "time.toml": "min_bet = 07:32:00\n",
        "float.toml": "penetration = 0.75\nblackjack_pays = 1.5\n",
        "description.toml": "description = 5\n",
        "name_table.toml": "name = {a = 1}\n",
        "bools.toml": 'naturals = "yes"\ndecks = true\n',
        "huge_int.toml": "decks = " + "9" * 4000 + "\n",
        "huge_money.toml": 'min_bet = "' + "9" * 4000 + '"\n',
        "unknown.toml": "colour = 'red'\n",
        "table.toml": "[vegas]\ndecks = 6\n",
        "good.toml": "decks = 2\nmin_bet = 5\nstarting_bankroll = '100'\n",
        "fraction_bankroll.toml": "starting_bankroll = '1000/3'\n",
        "not_toml.toml": "this is not toml\n",
        "empty.toml": "",
    }
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    (folder / "bom.toml").write_bytes(b"\xef\xbb\xbfdecks = 2\n")
    (folder / "latin1.toml").write_bytes(b"description = 'caf\xe9'\n")
    (folder / "nul.toml").write_bytes(b"decks = 2\x00\n")
    (folder / "big.toml").write_bytes(b"# " + b"x" * 3_000_000 + b"\n")
    (folder / "folder.toml").mkdir(exist_ok=True)
    paths = [os.fsencode(folder / name) for name in
             [*files, "bom.toml", "latin1.toml", "nul.toml", "big.toml", "folder.toml"]]
    if hasattr(os, "mkfifo"):
        fifo = folder / "fifo.toml"
        if not fifo.exists():
            os.mkfifo(fifo)
        paths.append(os.fsencode(fifo))
    if Path("/dev/zero").exists():
        zero = folder / "zero.toml"
        if not zero.is_symlink():
            zero.symlink_to("/dev/zero")
        paths += [os.fsencode(zero), b"/dev/zero", b"/dev/null", b"/dev/stdin"]
    paths += [b"missing.toml", b"", b".toml", b"x" * 5000, b"x" * 5000 + b".toml", b"\xff.toml", b"/", b"-"]
    return paths


def make_script(rng: random.Random, files: list[bytes]) -> Script:
    """Draw one script: a handful of options (some garbage) and some stdin (often garbage)."""
    argv: list[bytes] = []

    def maybe(chance: float, option: bytes, values: list[bytes]) -> None:
        if rng.random() < chance:
            argv.extend([option, rng.choice(values)])

    simulator = rng.random() < 0.05
    if rng.random() < 0.75:
        argv += [b"--rules", rng.choice([p.encode() for p in PRESETS] * 3 + files + [b"nope", b"VEGAS", b"strip"])]
    if simulator:
        argv += [b"--hands", rng.choice([b"200", b"1", b"0", b"x", b"1e99"]), b"--quiet"]
        maybe(0.3, b"--decks", WORD_OPTIONS)
        return Script(tuple(argv), b"", rng.choice(ENCODINGS), simulator=True)
    if rng.random() < 0.7:
        argv += [b"--names", rng.choice(NAMES[:2] * 6 + NAMES)]
    maybe(0.25, b"--players", WORD_OPTIONS)
    maybe(0.3, b"--bankroll", BANKROLLS)
    maybe(0.4, b"--seed", [str(rng.randrange(10_000)).encode()] * 6 + WORD_OPTIONS)
    maybe(0.15, b"--stack", STACKS)
    maybe(0.5, b"--rounds", [b"1", b"2", b"3", b"5"] * 3 + WORD_OPTIONS)
    maybe(0.1, b"--decks", WORD_OPTIONS)
    maybe(0.1, b"--counting", COUNTING)
    for flag, chance in ((b"--plain", 0.5), (b"--ascii", 0.2), (b"--hints", 0.2), (b"--no-tips", 0.3),
                         (b"--drill", 0.06)):
        if rng.random() < chance:
            argv.append(flag)
    if rng.random() < 0.03:
        argv.append(rng.choice([b"--nope", b"--rules", b"-x", b"\xff", b"--plain=1"]))
    return Script(tuple(argv), make_stdin(rng), rng.choice(ENCODINGS), plumbing=rng.choice(PLUMBING))


def make_stdin(rng: random.Random) -> bytes:
    """Draw what is typed: mostly moves and bets, with junk, bytes that are not UTF-8 and runs of empty lines."""
    lines: list[bytes] = []
    junk = rng.random()
    for _ in range(rng.randrange(0, 120)):
        roll = rng.random()
        if roll < junk * 0.5:
            lines.append(rng.choice(JUNK))
        elif roll < 0.15 + junk * 0.5:
            lines.append(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 12))).replace(b"\n", b""))
        elif roll < 0.55:
            lines.append(rng.choice(COMMON))
        else:
            lines.append(rng.choice(MOVES))
    if rng.random() < 0.05:
        lines.insert(rng.randrange(len(lines) + 1), b"\n" * rng.randrange(1_000, 20_000))
    text = b"\n".join(lines)
    ending = rng.random()
    if ending < 0.6:
        text += b"\n"
    elif ending < 0.7:
        text += b"\r\n"
    return text


def run(script: Script, *, timeout: float = 30.0, cwd: Path | None = None, root: Path = ROOT) -> Verdict:
    """Run one script in a subprocess and judge how it ended.

    Args:
        script: the script.
        timeout: seconds before it counts as hung.
        cwd: the folder it runs in (where its relative rules paths point); not one holding a
            ``blackjack`` package other than ``root``'s.
        root: the folder holding the ``blackjack`` package to run.
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "LC_", "LANG", "COLUMNS", "LINES"))}
    env.update(PYTHONIOENCODING=script.encoding, PYTHONPATH=str(root), LC_ALL="C.UTF-8")
    started = time.perf_counter()
    try:
        done = subprocess.run(script.command(), input=script.stdin, capture_output=True, timeout=timeout,
                              env=env, cwd=cwd)
    except subprocess.TimeoutExpired as err:
        output = (err.stdout or b"")[-2000:] + b"\n--- stderr ---\n" + (err.stderr or b"")[-2000:]
        return Verdict(script, "hang", None, output.decode("utf-8", "replace"), time.perf_counter() - started)
    seconds = time.perf_counter() - started
    output = (done.stdout[-3000:] + b"\n--- stderr ---\n" + done.stderr[-3000:]).decode("utf-8", "replace")
    if b"Traceback" in done.stdout or b"Traceback" in done.stderr:
        return Verdict(script, "traceback", done.returncode, output, seconds)
    if done.returncode not in GOOD_STATUSES:
        return Verdict(script, "status", done.returncode, output, seconds)
    return Verdict(script, "ok", done.returncode, output, seconds)


def scripts(count: int, seed: int, folder: Path) -> Iterator[Script]:
    """``count`` scripts drawn from ``seed``, using rules files written into ``folder``."""
    rng = random.Random(seed)
    files = rules_files(folder)
    for _ in range(count):
        yield make_script(rng, files)


def main(argv: list[str] | None = None) -> int:
    """Run garbage scripts and print the tally; return 1 when any traceback, bad status or hang was found."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--count", type=int, default=500, help="scripts to run (default 500)")
    parser.add_argument("--seed", type=int, default=2026, help="draws the scripts (default 2026)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds before a script counts as hung")
    parser.add_argument("--show", action="store_true", help="print each failing script and its output")
    parser.add_argument("--only", type=int, metavar="I", help="run only script number I (as numbered in a tally)")
    parser.add_argument("--root", type=Path, default=ROOT, metavar="DIR",
                        help="the folder holding the blackjack package to run (default: this checkout)")
    args = parser.parse_args(argv)
    tally: dict[str, int] = {}
    slowest = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for i, script in enumerate(scripts(args.count, args.seed, Path(tmp))):
            if args.only is not None and i != args.only:
                continue
            verdict = run(script, timeout=args.timeout, cwd=Path(tmp), root=args.root.resolve())
            tally[verdict.kind] = tally.get(verdict.kind, 0) + 1
            slowest = max(slowest, verdict.seconds)
            if verdict.kind != "ok":
                print(f"[{i}] {verdict.kind} (status {verdict.status}): {script.shell()}")
                if args.show:
                    print(verdict.output[-1500:])
    print(f"{sum(tally.values())} scripts (seed {args.seed}): " + ", ".join(f"{n} {k}" for k, n in sorted(tally.items()))
          + f"; slowest {slowest:.1f} s")
    return 0 if set(tally) <= {"ok"} else 1


if __name__ == "__main__":
    sys.exit(main())
