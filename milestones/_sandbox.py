"""Run a command confined and limited (POSIX): ``python milestones/_sandbox.py`` (or ``-m milestones._sandbox``).

Usage::

    python -m milestones._sandbox CPU_SECONDS MEMORY_MB FILE_MB PROCESSES [--user NAME] [--write DIR]...
        [--expose DIR]... -- PROGRAM ARGS...

This process stays behind as the run's **supervisor** and starts the program in a child:

* the child gets its own process group, drops to the user ``--user`` (only as root: its
  groups cleared, then ``setgid``/``setuid``), sets ``RLIMIT_CPU``, ``RLIMIT_AS``,
  ``RLIMIT_FSIZE``, ``RLIMIT_CORE`` (0) and (Linux) ``RLIMIT_NPROC``, and, where Linux
  Landlock is available (kernel 5.13+), confines every write, delete, rename and new file
  of itself and of everything it starts to the ``--write`` folders (and ``/dev``'s
  devices such as ``/dev/null``), so no file elsewhere can be changed whatever the user's
  rights; then it becomes PROGRAM (``os.execv``). A limit of 0 leaves that resource alone.
* the supervisor is a Linux *child subreaper* (``PR_SET_CHILD_SUBREAPER``): every process
  the program starts that loses its parent (a daemon's double fork, ``setsid()``) becomes
  the supervisor's child instead of init's. When the program ends, or the supervisor is
  sent ``SIGTERM`` (the runner's time limit), it kills the program's group and every
  process that is still its descendant, until none is left, and then ends the way the
  program ended (the same exit status, or the same signal).
* ``--expose DIR`` (root with ``--user``): DIR, which holds the interpreter, sits under a
  folder the user cannot enter (``/root/.pyenv``): the supervisor takes a private mount
  namespace in which that folder is replaced by an empty one holding DIR alone, so the
  user can run Python from DIR and sees nothing else there. Needs ``CAP_SYS_ADMIN``.

``PROCESSES`` caps ``RLIMIT_NPROC`` at the number of processes and threads the (new) user
runs now plus ``PROCESSES``, so a fork bomb stops there. ``RLIMIT_NPROC`` counts every
process of the user, not only this program's, so it is set only where that count can be
read (Linux ``/proc``); the kernel does not apply it to root.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import tempfile
from collections.abc import Iterator

_USAGE = ("usage: python -m milestones._sandbox CPU_SECONDS MEMORY_MB FILE_MB PROCESSES [--user NAME] "
          "[--write DIR]... [--expose DIR]... -- PROGRAM ARGS...")

#: ``prctl`` options (linux/prctl.h).
_PR_SET_CHILD_SUBREAPER = 36
_PR_SET_NO_NEW_PRIVS = 38
#: Landlock system calls (the same number on every architecture) and filesystem rights (linux/landlock.h).
_SYS_CREATE_RULESET, _SYS_ADD_RULE, _SYS_RESTRICT_SELF = 444, 445, 446
_LANDLOCK_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1
_WRITE_FILE, _REMOVE_DIR, _REMOVE_FILE = 1 << 1, 1 << 4, 1 << 5
_MAKE_ALL = sum(1 << bit for bit in range(6, 13))  # char, dir, reg, sock, fifo, block, sym
_REFER, _TRUNCATE = 1 << 13, 1 << 14
#: Mount flags (linux/mount.h) and ``unshare`` flags (linux/sched.h).
_MS_BIND, _MS_REC, _MS_PRIVATE = 4096, 16384, 1 << 18
_CLONE_NEWNS = 0x00020000
#: The folder ``--expose`` makes its mount points in (the runner's private folder of the run).
STAGING_ENV = "MILESTONES_STAGING"


def _limit(name: str, value: int) -> None:
    import resource  # POSIX only; the grader runs without this module elsewhere

    kind = getattr(resource, name)
    _, hard = resource.getrlimit(kind)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    resource.setrlimit(kind, (value, hard))


def proc_statuses(proc: str = "/proc") -> Iterator[tuple[int, dict[str, str]]]:
    """Yield ``(pid, fields)`` for every process in ``proc``: its ``status`` file as ``{"Uid": "0 0 0 0", ...}``.

    A process that ends while it is read is left out.

    Raises:
        OSError: ``proc`` cannot be listed (no ``/proc``: not Linux).
    """
    for entry in os.listdir(proc):
        if not entry.isdigit():
            continue
        try:
            with open(os.path.join(proc, entry, "status"), encoding="utf-8", errors="replace") as status:
                yield int(entry), dict(line.split(":", 1) for line in status if ":" in line)
        except OSError:
            continue  # ended while we looked


def user_tasks(proc: str = "/proc") -> int | None:
    """The processes and threads of this process's real user (what ``RLIMIT_NPROC`` counts on Linux).

    Returns:
        The count, or ``None`` where it cannot be read (no ``/proc``: not Linux).
    """
    uid, total, seen = os.getuid(), 0, False
    try:
        statuses = list(proc_statuses(proc))
    except OSError:
        return None
    for _pid, fields in statuses:
        if "Uid" not in fields or not fields.get("Threads", "").strip().isdigit():
            continue  # not Linux's format
        seen = True
        if fields["Uid"].split()[:1] == [str(uid)]:
            total += int(fields["Threads"])
    return total if seen else None


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


def landlock_abi() -> int:
    """The Landlock ABI version this kernel offers (0: none, not Linux, or turned off)."""
    libc = _libc()
    if libc is None:
        return 0
    version = int(libc.syscall(_SYS_CREATE_RULESET, None, ctypes.c_size_t(0),
                               ctypes.c_uint32(_LANDLOCK_CREATE_RULESET_VERSION)))
    return max(version, 0)


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def confine_writes(folders: list[str]) -> bool:
    """Allow this process and its descendants to write only under ``folders`` (and to ``/dev``'s devices).

    Reading and running programs stay allowed everywhere. Returns False (and changes nothing)
    where Landlock is not available.
    """
    libc = _libc()
    abi = landlock_abi()
    if libc is None or abi < 1:
        return False
    handled = _WRITE_FILE | _REMOVE_DIR | _REMOVE_FILE | _MAKE_ALL
    if abi >= 2:
        handled |= _REFER
    if abi >= 3:
        handled |= _TRUNCATE
    attr = ctypes.c_uint64(handled)  # struct landlock_ruleset_attr's first field; the rest left out
    ruleset = int(libc.syscall(_SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(8), ctypes.c_uint32(0)))
    if ruleset < 0:
        return False
    try:
        rules = [(folder, handled) for folder in folders] + [("/dev", _WRITE_FILE | (handled & _TRUNCATE))]
        for folder, access in rules:
            try:
                fd = os.open(folder, os.O_PATH | getattr(os, "O_CLOEXEC", 0))
            except OSError:
                continue
            try:
                beneath = _PathBeneath(access, fd)
                if libc.syscall(_SYS_ADD_RULE, ruleset, _RULE_PATH_BENEATH, ctypes.byref(beneath), 0) != 0:
                    raise OSError(ctypes.get_errno(), f"landlock_add_rule({folder})")
            finally:
                os.close(fd)
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
        if libc.syscall(_SYS_RESTRICT_SELF, ruleset, 0) != 0:
            raise OSError(ctypes.get_errno(), "landlock_restrict_self")
    finally:
        os.close(ruleset)
    return True


def _blocking_folder(path: str) -> str | None:
    """The outermost folder on the way to ``path`` that other users cannot enter (no ``o+x``), if any."""
    current = "/"
    for part in [p for p in os.path.realpath(path).split("/") if p]:
        current = os.path.join(current, part)
        if os.path.isdir(current) and not os.stat(current).st_mode & 0o001:
            return current
    return None


def _expose(folders: list[str]) -> None:
    """Make each of ``folders`` reachable for other users in a private mount namespace (see the module doc)."""
    libc = _libc()
    needed = [(f, b) for f in folders if (b := _blocking_folder(f)) is not None and b != os.path.realpath(f)]
    if not needed:
        return
    if libc is None or libc.unshare(_CLONE_NEWNS) != 0:
        raise OSError(ctypes.get_errno() if libc else 0, "cannot make a private mount namespace (unshare)")

    def mount(source: str, target: str, flags: int) -> None:
        if libc.mount(source.encode(), target.encode(), None, ctypes.c_ulong(flags), None) != 0:
            raise OSError(ctypes.get_errno(), f"mount {source} on {target}")

    mount("none", "/", _MS_REC | _MS_PRIVATE)
    staging = tempfile.mkdtemp(prefix="bj-expose-", dir=os.environ.get(STAGING_ENV))
    os.chmod(staging, 0o711)
    covers: dict[str, str] = {}
    kept: list[tuple[str, str]] = []
    for index, (folder, blocking) in enumerate(needed):
        real = os.path.realpath(folder)
        holder = os.path.join(staging, f"keep{index}")
        os.mkdir(holder)
        mount(real, holder, _MS_BIND | _MS_REC)  # reachable under its new name once its ancestor is covered
        cover = covers.setdefault(blocking, tempfile.mkdtemp(prefix="cover", dir=staging))
        inside = os.path.join(cover, os.path.relpath(real, blocking))
        os.makedirs(inside, exist_ok=True)
        kept.append((holder, real))
    for cover in covers.values():
        for folder, _dirs, _files in os.walk(cover):
            os.chmod(folder, 0o755)
    for blocking, cover in covers.items():
        mount(cover, blocking, _MS_BIND)
    for holder, real in kept:
        mount(holder, real, _MS_BIND | _MS_REC)


def _children(proc: str = "/proc") -> list[int]:
    """The pids whose parent is this process (Linux ``/proc``; empty elsewhere)."""
    me, found = os.getpid(), []
    try:
        entries = [e for e in os.listdir(proc) if e.isdigit()]
    except OSError:
        return []
    for entry in entries:
        try:
            with open(os.path.join(proc, entry, "stat"), "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
            if int(fields[1]) == me:
                found.append(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    return found


class _Stop(Exception):
    """The supervisor was told to end the run (``SIGTERM``, ``SIGINT``, ``SIGHUP``)."""


def _stop(signum: int, frame: object) -> None:
    raise _Stop


def _cleanup(group: int) -> None:
    """Kill the program's group and every descendant left (orphans come back to us), reaping them all."""
    while True:
        try:
            os.killpg(group, signal.SIGKILL)
        except OSError:
            pass
        for pid in _children():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return
        except _Stop:
            continue


def _child(limits: tuple[int, int, int, int], user: str | None, writable: list[str], program: list[str]) -> None:
    """In the forked child: own group, drop to ``user``, set limits and confinement, become ``program``."""
    cpu, memory, files, processes = limits
    os.setpgid(0, 0)
    for name in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(name, signal.SIG_DFL)
    if user is not None:
        import pwd

        entry = pwd.getpwnam(user)
        os.setgroups([])
        os.setgid(entry.pw_gid)
        os.setuid(entry.pw_uid)
        if os.getuid() == 0 or os.geteuid() == 0:
            raise OSError(f"could not drop to the user {user}")
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
    if writable:
        confine_writes(writable)
    os.execv(program[0], program)


def _parse(argv: list[str]) -> tuple[tuple[int, int, int, int], str | None, list[str], list[str], list[str]] | None:
    if len(argv) < 6 or "--" not in argv[4:]:
        return None
    try:
        limits = tuple(int(a) for a in argv[:4])
    except ValueError:
        return None
    end = argv.index("--", 4)
    options, program = argv[4:end], argv[end + 1:]
    user, writable, exposed = None, [], []
    if len(options) % 2 or not program:
        return None
    for key, value in zip(options[::2], options[1::2], strict=True):
        if key == "--user":
            user = value
        elif key == "--write":
            writable.append(value)
        elif key == "--expose":
            exposed.append(value)
        else:
            return None
    cpu, memory, files, processes = limits
    return (cpu, memory, files, processes), user, writable, exposed, program


def main(argv: list[str]) -> int:
    """Start the program confined and limited, supervise it, and end as it ended; 2 on a usage error."""
    parsed = _parse(argv)
    if parsed is None:
        print(_USAGE, file=sys.stderr)
        return 2
    limits, user, writable, exposed, program = parsed
    if user is not None and os.geteuid() != 0:
        print("sandbox: --user needs root", file=sys.stderr)
        return 2
    if exposed:
        try:
            _expose(exposed)
        except OSError as err:
            print(f"sandbox: the user {user} cannot reach the interpreter and it cannot be exposed: {err}",
                  file=sys.stderr)
            return 126
    libc = _libc()
    if libc is not None:
        libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    for name in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(name, _stop)
    pid = os.fork()
    if pid == 0:
        try:
            _child(limits, user, writable, program)
        except BaseException as err:  # noqa: BLE001 - nothing of the supervisor may run in the child
            print(f"sandbox: cannot start {program[0]}: {err}", file=sys.stderr)
        os._exit(127)
    status: int | None = None
    try:
        while status is None:
            done, code = os.waitpid(-1, 0)
            if done == pid:
                status = code
    except (_Stop, ChildProcessError):
        pass
    _cleanup(pid)
    if status is None:
        return 128 + signal.SIGKILL
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        _limit("RLIMIT_CORE", 0)
        signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)
        return 128 + number
    return os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
