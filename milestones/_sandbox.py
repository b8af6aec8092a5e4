"""Run a command under CPU, memory and file-size limits (POSIX): ``python -m milestones._sandbox``.

Usage: ``python -m milestones._sandbox CPU_SECONDS MEMORY_MB FILE_MB -- PROGRAM ARGS...``.
The limits are set with ``resource.setrlimit`` in this process, which then becomes
the program (``os.execv``), so the grader needs no ``preexec_fn`` (unsafe with threads).
A limit of 0 leaves that resource alone.
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


def main(argv: list[str]) -> int:
    """Apply the limits in ``argv`` and exec the program; return 2 on a usage error."""
    if len(argv) < 5 or argv[3] != "--":
        print("usage: python -m milestones._sandbox CPU_SECONDS MEMORY_MB FILE_MB -- PROGRAM ARGS...",
              file=sys.stderr)
        return 2
    cpu, memory, files = (int(a) for a in argv[:3])
    if cpu:
        _limit("RLIMIT_CPU", cpu)
    if memory:
        _limit("RLIMIT_AS", memory * 1024 * 1024)
    if files:
        _limit("RLIMIT_FSIZE", files * 1024 * 1024)
    _limit("RLIMIT_CORE", 0)
    program = argv[4:]
    os.execv(program[0], program)
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
