"""Run a command under CPU, memory, file-size and process limits (POSIX): ``python -m milestones._sandbox``.

Usage: ``python -m milestones._sandbox CPU_SECONDS MEMORY_MB FILE_MB PROCESSES -- PROGRAM ARGS...``.
The limits are set with ``resource.setrlimit`` in this process, which then becomes
the program (``os.execv``), so the grader needs no ``preexec_fn`` (unsafe with threads).
A limit of 0 leaves that resource alone.

``PROCESSES`` caps ``RLIMIT_NPROC`` at the number of processes and threads the user
runs now plus ``PROCESSES``, so a fork bomb stops there. ``RLIMIT_NPROC`` counts every
process of the user, not only this program's, so the limit is set only where that count
can be read (Linux ``/proc``); the kernel does not apply it to root.
"""

from __future__ import annotations

import os
import sys


def _limit(name: str, value: int) -> None:
    import resource  # POSIX only; the grader runs without this module elsewhere

    kind = getattr(resource, name)
    _, hard = resource.getrlimit(kind)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    resource.setrlimit(kind, (value, hard))


def user_tasks(proc: str = "/proc") -> int | None:
    """The processes and threads of this process's real user (what ``RLIMIT_NPROC`` counts on Linux).

    Returns:
        The count, or ``None`` where it cannot be read (no ``/proc``: not Linux).
    """
    try:
        entries = os.listdir(proc)
    except OSError:
        return None
    uid, total, seen = os.getuid(), 0, False
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(os.path.join(proc, entry, "status"), encoding="utf-8", errors="replace") as status:
                fields = dict(line.split(":", 1) for line in status if ":" in line)
        except OSError:
            continue  # ended while we looked
        if "Uid" not in fields or not fields.get("Threads", "").strip().isdigit():
            continue  # not Linux's format
        seen = True
        if fields["Uid"].split()[:1] == [str(uid)]:
            total += int(fields["Threads"])
    return total if seen else None


def main(argv: list[str]) -> int:
    """Apply the limits in ``argv`` and exec the program; return 2 on a usage error."""
    if len(argv) < 6 or argv[4] != "--":
        print("usage: python -m milestones._sandbox CPU_SECONDS MEMORY_MB FILE_MB PROCESSES -- PROGRAM ARGS...",
              file=sys.stderr)
        return 2
    cpu, memory, files, processes = (int(a) for a in argv[:4])
    if cpu:
        _limit("RLIMIT_CPU", cpu)
    if memory:
        _limit("RLIMIT_AS", memory * 1024 * 1024)
    if files:
        _limit("RLIMIT_FSIZE", files * 1024 * 1024)
    if processes:
        running = user_tasks()
        if running is not None:  # Linux
            _limit("RLIMIT_NPROC", running + processes)
    _limit("RLIMIT_CORE", 0)
    program = argv[5:]
    os.execv(program[0], program)
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
