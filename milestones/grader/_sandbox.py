"""Run a command confined and limited (POSIX): ``python milestones/grader/_sandbox.py`` (or ``-m`` its module).

Usage::

    python -m milestones.grader._sandbox CPU_SECONDS MEMORY_MB FILE_MB PROCESSES [--user NAME] [--write DIR]...
        [--read PATH]... [--list DIR]... [--expose DIR]... [--output FILE] [--space MB] [--namespaces off]
        [--landlock off] -- PROGRAM ARGS...
    python -m milestones.grader._sandbox --probe

This process stays behind as the run's **supervisor** and starts the program in a child (:func:`_start`),
which takes a process group of its own, drops to the user ``--user`` (root only), sets the limits as **hard**
rlimits (:func:`_limit`; 0 leaves a resource alone; the CPU's hard limit is one second above the soft one, so
``SIGXCPU`` comes first; ``PROCESSES`` on top of the tasks the user runs now, :func:`user_tasks`, so only where
``/proc`` counts them; ``RLIMIT_CORE`` 0), confines itself with Landlock (:func:`confine`: writes under
``--write``; given ``--read``, reads under ``--read`` and ``--write`` and names under ``--list``; ``--landlock
off`` leaves it out) and seccomp (:func:`refuse_keys`), sends its output to ``--output`` (opened as the user,
confined) and becomes PROGRAM.

Where the kernel allows (``--namespaces off`` turns them off), the supervisor takes private mount, IPC and
network namespaces (:func:`_private_mounts`: an empty read-only ``/dev/shm``; ``--space`` MiB of ``tmpfs`` over
the ``--write`` folders; ``--expose``) and starts the program in a new PID namespace under an init of its own
(:func:`_init`), so the kernel kills all that is left when it ends. Without one, the supervisor is a child
subreaper and kills what is left itself (:func:`_sweep`), when the program ends or on ``SIGTERM``. It never
runs a Python signal handler (:func:`_wait_for`) and ends the way the program ended (:func:`_end_as`).

``--probe`` prints which of the namespaces (:data:`NAMESPACES`) this process may take, as a JSON list, and
exits 0. What each protection prevents, and what is open without it: docs/instructor.md section 7.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import signal
import stat
import sys
import tempfile
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import dataclass, field

_USAGE = ("usage: python -m milestones.grader._sandbox CPU_SECONDS MEMORY_MB FILE_MB PROCESSES [--user NAME] "
          "[--write DIR]... [--read PATH]... [--list DIR]... [--expose DIR]... [--output FILE] [--space MB] "
          "[--namespaces off] [--landlock off] -- PROGRAM ARGS...")

#: ``prctl`` options (linux/prctl.h).
_PR_SET_PDEATHSIG = 1
_PR_SET_DUMPABLE = 4
_PR_SET_CHILD_SUBREAPER = 36
_PR_SET_NO_NEW_PRIVS = 38
#: Landlock system calls (the same number on every architecture) and filesystem rights (linux/landlock.h).
_SYS_CREATE_RULESET, _SYS_ADD_RULE, _SYS_RESTRICT_SELF = 444, 445, 446
_LANDLOCK_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1
_WRITE_FILE, _REMOVE_DIR, _REMOVE_FILE = 1 << 1, 1 << 4, 1 << 5
_MAKE_ALL = sum(1 << bit for bit in range(6, 13))  # char, dir, reg, sock, fifo, block, sym
_REFER, _TRUNCATE = 1 << 13, 1 << 14
_EXECUTE, _READ_FILE, _READ_DIR = 1 << 0, 1 << 2, 1 << 3
_READS = _EXECUTE | _READ_FILE | _READ_DIR
#: The rights a rule on a file (not a folder) may hold.
_FILE_RIGHTS = _EXECUTE | _WRITE_FILE | _READ_FILE | _TRUNCATE
#: Landlock scopes (ABI 6): no signal, no abstract Unix socket to a process outside the domain.
_SCOPES = 1 | 2
#: ``prctl(PR_SET_SECCOMP)``; per machine, the seccomp audit architecture and the number of ``add_key``
#: (``request_key`` and ``keyctl`` follow it).
_PR_SET_SECCOMP = 22
_KEY_SYSCALLS = {"x86_64": (0xC000003E, 248), "aarch64": (0xC00000B7, 217)}
#: The devices a confined program may still write to (Landlock): nothing else under ``/dev``.
WRITABLE_DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty")
#: Mount flags (linux/mount.h) and ``unshare`` flags (linux/sched.h).
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC = 1, 2, 4, 8
_MS_BIND, _MS_REC, _MS_PRIVATE = 4096, 16384, 1 << 18
_CLONE_NEWNS, _CLONE_NEWIPC, _CLONE_NEWNET, _CLONE_NEWPID = 0x00020000, 0x08000000, 0x40000000, 0x20000000
#: The namespaces the supervisor takes where it may, by the short name the grader reports a missing one by.
NAMESPACES = {"mount-namespace": _CLONE_NEWNS, "ipc-namespace": _CLONE_NEWIPC,
              "network-namespace": _CLONE_NEWNET, "pid-namespace": _CLONE_NEWPID}
#: Every protection of a graded run that may be unavailable, by short name, and what its absence leaves open
#: (the grader lists the missing ones in its reports; docs/instructor.md section 7 says the same).
PROTECTIONS = {
    "sandbox-user": "the grader is not root: student code runs as the grader's own user (without Landlock it reads "
                    "every file the grader can: the reference, the hidden tests in their run, other runs' folders)",
    "landlock": "no Landlock (Linux 5.13+): student code may read every file its user may and write wherever its "
                "user may (as root: world-writable folders such as /tmp, where files it leaves stay)",
    "landlock-scopes": "Landlock before ABI 6 (Linux 6.12): without a PID namespace, student code can signal "
                       "the grader's processes of its user (its supervisor, a classmate's run)",
    "pid-namespace": "no PID namespace: the run's processes are killed by a sweep that a chain of processes "
                     "that keeps forking can outrun, and /proc shows every process's command line",
    "ipc-namespace": "no IPC namespace: System V shared memory and message queues can carry data between runs",
    "network-namespace": "no network namespace: student code can use the network (send the tests out)",
    "mount-namespace": "no mount namespace: /dev/shm is shared, and a run's writes are not limited to a "
                       "space of its own (one run can fill the disk for the others)",
    "rlimits": "no resource limits and no supervisor (not POSIX): nothing bounds memory, files or processes",
}
#: The folder ``--expose`` and ``--space`` make their mount points in (the runner's private folder of the run).
STAGING_ENV = "MILESTONES_STAGING"
#: The signals that tell the supervisor to end the run, and the ones it takes with ``sigwait``.
_STOPS = frozenset({signal.SIGTERM, signal.SIGINT, signal.SIGHUP})
_WAITED = _STOPS | {signal.SIGCHLD}
#: Files the ``--space`` file system may hold (a million empty files would use memory outside its size).
_SPACE_INODES = 16384


def _limit(name: str, value: int, slack: int = 0) -> None:
    """Set the resource ``name`` to ``value`` as its soft limit and ``value + slack`` as its hard one (never above
    the hard limit the process has): an unprivileged process can then never raise it again."""
    import resource  # POSIX only; the grader runs without this module elsewhere

    kind = getattr(resource, name)
    _, hard = resource.getrlimit(kind)
    ceiling = value + slack
    if hard != resource.RLIM_INFINITY:
        value, ceiling = min(value, hard), min(ceiling, hard)
    resource.setrlimit(kind, (value, ceiling))


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


def user_tasks(proc: str = "/proc", uid: int | None = None) -> int | None:
    """The processes and threads of the user ``uid`` (default: this process's real user), what ``RLIMIT_NPROC``
    counts on Linux.

    Returns:
        The count, or ``None`` where it cannot be read (no ``/proc``: not Linux).
    """
    uid = os.getuid() if uid is None else uid
    try:  # the statuses in Linux's format
        linux = [f for _pid, f in proc_statuses(proc) if "Uid" in f and f.get("Threads", "").strip().isdigit()]
    except OSError:
        return None
    return sum(int(f["Threads"]) for f in linux if f["Uid"].split()[:1] == [str(uid)]) if linux else None


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


def undumpable() -> None:
    """Make this process non-dumpable (Linux ``prctl(PR_SET_DUMPABLE, 0)``; elsewhere nothing): a process of the
    same user but root cannot open its descriptors through ``/proc/<pid>/fd``, read its memory or trace it."""
    libc = _libc()
    if libc is not None:
        libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)


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


def confine(writable: list[str], readable: list[str] | None = None, listable: tuple[str, ...] | list[str] = ()) -> bool:
    """Allow this process and its descendants to write only under ``writable`` (and to :data:`WRITABLE_DEVICES`)
    and, given ``readable``, to read and run files only there and under ``writable``, and to list the folders
    under ``listable`` (their names only: a folder on the way to a readable one); where Landlock scopes
    them (ABI 6), also refuse signals and abstract Unix sockets to every process outside. Returns False (and
    changes nothing) where Landlock is not available.

    Raises:
        OSError: Landlock is there but refuses a rule or the restriction.
    """
    libc = _libc()
    abi = landlock_abi()
    if libc is None or abi < 1:
        return False
    writes = _WRITE_FILE | _REMOVE_DIR | _REMOVE_FILE | _MAKE_ALL | (_REFER if abi >= 2 else 0) \
        | (_TRUNCATE if abi >= 3 else 0)
    reads = _READS if readable is not None else 0
    attr = (ctypes.c_uint64 * 3)(writes | reads, 0, _SCOPES if abi >= 6 else 0)  # struct landlock_ruleset_attr
    size = 24 if abi >= 6 else 8
    ruleset = int(libc.syscall(_SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0)))
    if ruleset < 0:
        return False
    try:
        device = _WRITE_FILE | (writes & _TRUNCATE) | (reads & _READ_FILE)  # a file's rule holds a file's rights
        rules = [(folder, writes | reads) for folder in writable] + [(path, device) for path in WRITABLE_DEVICES]
        rules += [(path, reads) for path in readable or []] + [(path, reads & _READ_DIR) for path in listable]
        for folder, access in rules:
            try:
                fd = os.open(folder, os.O_PATH | getattr(os, "O_CLOEXEC", 0))
            except OSError:
                continue
            try:
                kind = os.fstat(fd).st_mode
                if folder in WRITABLE_DEVICES and not stat.S_ISCHR(kind):
                    continue  # a device, never a folder or a file someone put there
                beneath = _PathBeneath(access if stat.S_ISDIR(kind) else access & _FILE_RIGHTS, fd)
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


def refuse_keys() -> bool:
    """Refuse the kernel key syscalls (``add_key``, ``request_key``, ``keyctl``: ``EPERM``) to this process and
    its descendants (seccomp), so no keyring carries data from one run to the next. Needs
    ``PR_SET_NO_NEW_PRIVS`` (set here); False where the architecture is not known or seccomp refuses."""
    libc = _libc()
    known = _KEY_SYSCALLS.get(os.uname().machine)
    if libc is None or known is None:
        return False
    arch, first = known
    refuse = 0x00050000 | errno.EPERM  # SECCOMP_RET_ERRNO
    # load arch; not ours (i386 calls of an x86-64 process): refuse; load nr; an x32 call or one of the three:
    # refuse; else allow
    code = [(0x20, 0, 0, 4), (0x15, 1, 0, arch), (0x06, 0, 0, refuse), (0x20, 0, 0, 0),
            (0x35, 2, 0, 0x40000000), (0x35, 0, 2, first), (0x35, 1, 0, first + 3), (0x06, 0, 0, refuse),
            (0x06, 0, 0, 0x7FFF0000)]
    filters = (_SockFilter * len(code))(*[_SockFilter(*line) for line in code])
    program = _SockFprog(len(code), filters)
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        return False
    return int(libc.prctl(_PR_SET_SECCOMP, 2, ctypes.byref(program), 0, 0)) == 0


class _SockFilter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8), ("k", ctypes.c_uint32)]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_SockFilter))]


def _mount(libc: ctypes.CDLL, source: str, target: str, flags: int, kind: str | None = None,
           data: str | None = None) -> None:
    """``mount(2)``; OSError when it fails."""
    if libc.mount(source.encode(), target.encode(), kind.encode() if kind else None, ctypes.c_ulong(flags),
                  data.encode() if data else None) != 0:
        raise OSError(ctypes.get_errno(), f"mount {source} on {target}")


def _blocking_folder(path: str) -> str | None:
    """The outermost folder on the way to ``path`` that other users cannot enter (no ``o+x``), if any."""
    current = "/"
    for part in [p for p in os.path.realpath(path).split("/") if p]:
        current = os.path.join(current, part)
        if os.path.isdir(current) and not os.stat(current).st_mode & 0o001:
            return current
    return None


def _staging() -> str:
    """A new folder for mount points, in the run's private folder (:data:`STAGING_ENV`) when there is one."""
    staging = tempfile.mkdtemp(prefix="bj-mounts-", dir=os.environ.get(STAGING_ENV))
    os.chmod(staging, 0o711)
    return staging


def _expose(libc: ctypes.CDLL, needed: list[tuple[str, str]]) -> None:
    """``--expose`` (root with ``--user``): make each folder of ``needed`` (``(folder, its blocking ancestor)``:
    the interpreter under ``/root/.pyenv``) reachable for other users, in this process's private mount namespace,
    by laying over the ancestor an empty folder holding that folder alone. Needs ``CAP_SYS_ADMIN``."""
    staging = _staging()
    covers: dict[str, str] = {}
    kept: list[tuple[str, str]] = []
    for index, (folder, blocking) in enumerate(needed):
        real = os.path.realpath(folder)
        holder = os.path.join(staging, f"keep{index}")
        os.mkdir(holder)
        _mount(libc, real, holder, _MS_BIND | _MS_REC)  # reachable under its new name once its ancestor is covered
        cover = covers.setdefault(blocking, tempfile.mkdtemp(prefix="cover", dir=staging))
        inside = os.path.join(cover, os.path.relpath(real, blocking))
        os.makedirs(inside, exist_ok=True)
        kept.append((holder, real))
    for cover in covers.values():
        for folder, _dirs, _files in os.walk(cover):
            os.chmod(folder, 0o755)
    for blocking, cover in covers.items():
        _mount(libc, cover, blocking, _MS_BIND)
    for holder, real in kept:
        _mount(libc, holder, real, _MS_BIND | _MS_REC)


def _empty_read_only(libc: ctypes.CDLL, folder: str) -> None:
    """Cover ``folder`` (``/dev/shm``) with an empty read-only ``tmpfs``, if it is a folder; OSError if that fails."""
    if os.path.isdir(folder) and not os.path.islink(folder):
        _mount(libc, "tmpfs", folder, _MS_RDONLY | _MS_NOSUID | _MS_NODEV | _MS_NOEXEC, "tmpfs",
               "size=4k,nr_inodes=16,mode=0755")


def _limited_space(libc: ctypes.CDLL, folders: list[str], megabytes: int) -> None:
    """Lay a private ``tmpfs`` of ``megabytes`` MiB over each of ``folders`` (``overlayfs``: what they hold stays
    readable, what is written goes to the ``tmpfs``). A folder whose path ``mount`` cannot take (a ``,``, ``:``
    or ``\\`` in it) is left as it is. OSError when a mount fails."""
    top = tempfile.mkdtemp(prefix="space", dir=_staging())
    if any(c in top for c in ",:\\"):
        return
    _mount(libc, "tmpfs", top, _MS_NOSUID | _MS_NODEV, "tmpfs",
           f"size={megabytes}m,nr_inodes={_SPACE_INODES},mode=0711")
    for index, folder in enumerate(folders):
        real = os.path.realpath(folder)
        if any(c in real for c in ",:\\") or not os.path.isdir(real):
            continue
        upper, work = os.path.join(top, f"upper{index}"), os.path.join(top, f"work{index}")
        os.mkdir(upper, 0o700)
        os.mkdir(work, 0o700)
        info = os.stat(real)  # the merged folder shows the upper folder's owner and mode
        os.chown(upper, info.st_uid, info.st_gid)
        os.chmod(upper, stat.S_IMODE(info.st_mode))
        _mount(libc, "overlay", real, 0, "overlay", f"lowerdir={real},upperdir={upper},workdir={work}")


def _private_mounts(libc: ctypes.CDLL | None, exposed: list[str], writable: list[str], space: int,
                    namespaces: bool) -> bool:
    """Take a private mount namespace (where allowed, or where ``--expose`` needs one) and set it up: the
    ``exposed`` folders, an empty read-only ``/dev/shm`` and ``/dev/mqueue``, ``space`` MiB for the
    ``writable`` folders. Return whether the namespace was taken; OSError when ``--expose`` needs it and it
    cannot be had, or a mount for it fails."""
    needed = [(f, b) for f in exposed if (b := _blocking_folder(f)) is not None and b != os.path.realpath(f)]
    if not needed and not namespaces:
        return False
    try:
        if libc is None or libc.unshare(_CLONE_NEWNS) != 0:
            raise OSError(ctypes.get_errno() if libc else 0, "cannot make a private mount namespace (unshare)")
        _mount(libc, "none", "/", _MS_REC | _MS_PRIVATE)  # nothing mounted here reaches the other namespaces
    except OSError:
        if needed:
            raise
        return False
    if needed:
        _expose(libc, needed)
    if namespaces:  # each protection on its own: one the kernel refuses does not cost the others
        for folder in ("/dev/shm", "/dev/mqueue"):
            with suppress(OSError):
                _empty_read_only(libc, folder)
        if space and writable:
            with suppress(OSError):
                _limited_space(libc, writable, space)
    return True


def probe() -> list[str]:
    """The names of :data:`NAMESPACES` this process may take (it takes them, so run it in a process of its own),
    with a private mount namespace counted only where ``mount`` works in it (the empty ``/dev/shm``)."""
    libc = _libc()
    if libc is None:
        return []
    found = []
    for name, flag in NAMESPACES.items():
        if libc.unshare(flag) != 0:
            continue
        if flag == _CLONE_NEWNS:
            try:
                _mount(libc, "none", "/", _MS_REC | _MS_PRIVATE)
                _empty_read_only(libc, "/dev/shm")
            except OSError:
                continue
        found.append(name)
    return found


def _children(proc: str = "/proc") -> list[tuple[int, int]]:
    """``(pid, process group)`` of each process whose parent is this one, zombies included (Linux ``/proc``;
    empty elsewhere)."""
    me, found = os.getpid(), []
    try:
        entries = [e for e in os.listdir(proc) if e.isdigit()]
    except OSError:
        return []
    for entry in entries:
        try:
            with open(os.path.join(proc, entry, "stat"), "rb") as stat_file:
                fields = stat_file.read().rsplit(b")", 1)[1].split()
            if int(fields[1]) == me:
                found.append((int(entry), int(fields[2])))
        except (OSError, IndexError, ValueError):
            continue
    return found


def _sweep(group: int) -> None:
    """Kill the program's group and every descendant left (orphans come back to us), reaping them all.

    Each child's process group goes too, read even from a child that has ended and is not reaped yet: a
    chain that forks and exits keeps its group, and a group is killed at once, however fast it forks. The
    supervisor's signals are blocked (:func:`main`), so nothing interrupts this loop.
    """
    own = os.getpgrp()
    while True:
        for pid, their_group in [(0, group), *_children()]:
            with suppress(OSError):
                if their_group != own:
                    os.killpg(their_group, signal.SIGKILL)
                if pid:
                    os.kill(pid, signal.SIGKILL)
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return
        except InterruptedError:
            continue


def _wait_for(pid: int) -> int | None:
    """Reap children until ``pid`` ends (its wait status) or a stop signal comes (None); signals are blocked and
    taken here with ``sigwait``, so no Python signal handler ever runs."""
    while True:
        try:
            done, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return None
        if done == pid:
            return status
        if done == 0 and signal.sigwait(_WAITED) in _STOPS:
            return None


@dataclass
class _Options:
    """The command line (:data:`_USAGE`) and, set by :func:`main`, the signal mask to restore and the user's running
    tasks (counted in the machine's ``/proc``, before the PID namespace's own hides them)."""

    limits: tuple[int, int, int, int]
    program: list[str]
    user: str | None = None
    writable: list[str] = field(default_factory=list)
    readable: list[str] = field(default_factory=list)
    listable: list[str] = field(default_factory=list)
    exposed: list[str] = field(default_factory=list)
    output: str | None = None
    space: int = 0
    namespaces: bool = True
    landlock: bool = True
    mask: set[int | signal.Signals] = field(default_factory=set)
    tasks: int | None = None


def _start(options: _Options) -> None:
    """In the forked child: own group, drop to ``user``, set hard limits and confinement, send its output to
    ``--output``, become ``program``."""
    cpu, memory, files, processes = options.limits
    user, program = options.user, options.program
    os.setpgid(0, 0)
    for name in (*_STOPS, signal.SIGPIPE, signal.SIGXFSZ):
        signal.signal(name, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, options.mask)
    if user is not None:
        import pwd

        entry = pwd.getpwnam(user)
        os.setgroups([])
        os.setgid(entry.pw_gid)
        os.setuid(entry.pw_uid)
        if os.getuid() == 0 or os.geteuid() == 0:
            raise OSError(f"could not drop to the user {user}")
    if cpu:
        _limit("RLIMIT_CPU", cpu, slack=1)  # SIGXCPU at the soft limit, SIGKILL a second later
    if memory:
        _limit("RLIMIT_AS", memory * 1024 * 1024)
    if files:
        _limit("RLIMIT_FSIZE", files * 1024 * 1024)
    if processes and options.tasks is not None:  # Linux
        _limit("RLIMIT_NPROC", options.tasks + processes)
    _limit("RLIMIT_CORE", 0)
    if options.writable and options.landlock:
        confine(options.writable, options.readable or None, options.listable)
    refuse_keys()
    if options.output is not None:  # opened as the user, confined: a file in its own space
        output = os.open(options.output, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW, 0o600)
        os.dup2(output, 1)
        os.dup2(output, 2)
    os.execv(program[0], program)


def _run_program(options: _Options) -> None:
    """In a forked child: :func:`_start` the program; never return (127 when it cannot start)."""
    program = options.program
    try:
        _start(options)
    except BaseException as err:  # noqa: BLE001 - nothing of the supervisor may run in the child
        print(f"sandbox: cannot start {program[0]}: {err}", file=sys.stderr)
    os._exit(127)


def _init(libc: ctypes.CDLL | None, report: int, options: _Options) -> None:
    """Pid 1 of the new PID namespace: mount a ``/proc`` of the namespace's own (in a mount namespace of its
    own, where the kernel allows), start the program, reap every orphan, and when the program ends write its
    wait status to ``report`` and end, which makes the kernel kill everything left in the namespace. A stop
    signal (from the supervisor's group) ends it at once. Never returns."""
    try:
        if libc is not None:
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)  # a supervisor killed outright takes us along
            if libc.unshare(_CLONE_NEWNS) == 0:  # other processes' command lines and descriptors out of sight
                with suppress(OSError):
                    _mount(libc, "none", "/", _MS_REC | _MS_PRIVATE)
                    _mount(libc, "proc", "/proc", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC, "proc")
        program = os.fork()
        if program == 0:
            os.close(report)
            _run_program(options)
        status = _wait_for(program)
        if status is not None:
            os.write(report, str(status).encode())
    finally:
        os._exit(0)


def _parse(argv: list[str]) -> _Options | None:
    if len(argv) < 6 or "--" not in argv[4:]:
        return None
    try:
        cpu, memory, files, processes = (int(a) for a in argv[:4])
    except ValueError:
        return None
    end = argv.index("--", 4)
    arguments, program = argv[4:end], argv[end + 1:]
    options = _Options((cpu, memory, files, processes), program)
    if len(arguments) % 2 or not program:
        return None
    lists = {"--write": options.writable, "--read": options.readable, "--list": options.listable,
             "--expose": options.exposed}
    for key, value in zip(arguments[::2], arguments[1::2], strict=True):
        if key in lists:
            lists[key].append(value)
        elif key in ("--user", "--output"):
            setattr(options, key[2:], value)
        elif key == "--space" and value.isdigit():
            options.space = int(value)
        elif key in ("--namespaces", "--landlock") and value in ("on", "off"):
            setattr(options, key[2:], value == "on")
        else:
            return None
    return options


def _private(libc: ctypes.CDLL | None, flag: int) -> bool:
    return libc is not None and libc.unshare(flag) == 0


def main(argv: list[str]) -> int:
    """Start the program confined and limited, supervise it, and end as it ended; 2 on a usage error."""
    if argv == ["--probe"]:
        print(json.dumps(probe()))
        return 0
    parsed = _parse(argv)
    if parsed is None:
        print(_USAGE, file=sys.stderr)
        return 2
    user, namespaces = parsed.user, parsed.namespaces
    if user is not None and os.geteuid() != 0:
        print("sandbox: --user needs root", file=sys.stderr)
        return 2
    parsed.mask = signal.pthread_sigmask(signal.SIG_BLOCK, _WAITED)  # from here on sigwait, never a handler
    if parsed.limits[3]:
        import pwd

        parsed.tasks = user_tasks(uid=pwd.getpwnam(user).pw_uid if user is not None else None)
    libc = _libc()
    try:
        _private_mounts(libc, parsed.exposed, parsed.writable, parsed.space, namespaces)
    except OSError as err:
        print(f"sandbox: the user {user} cannot reach the interpreter and it cannot be exposed: {err}",
              file=sys.stderr)
        return 126
    own_pids = False
    if namespaces:
        _private(libc, _CLONE_NEWIPC)
        _private(libc, _CLONE_NEWNET)
        own_pids = _private(libc, _CLONE_NEWPID)
    if libc is not None:
        libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    report, reported = os.pipe()  # the program's wait status, from the namespace's init
    pid = os.fork()
    if pid == 0:
        os.close(report)
        if own_pids:
            _init(libc, reported, parsed)
        os.close(reported)
        _run_program(parsed)
    os.close(reported)
    status = _wait_for(pid)
    if own_pids:  # init ends the namespace; a stop kills init, and the kernel every process in it
        with suppress(OSError):
            os.kill(pid, signal.SIGKILL)
        with os.fdopen(report, "rb") as pipe:
            _sweep(pid)
            text = pipe.read(32).decode(errors="replace")
        status = int(text) if text.lstrip("-").isdigit() else None
    else:
        os.close(report)
        _sweep(pid)
    return _end_as(status)


def _end_as(status: int | None) -> int:
    """End this process the way the program ended (wait ``status``): the same signal, or return its exit status
    (``128 + SIGKILL`` when it was stopped)."""
    if status is None:
        return 128 + signal.SIGKILL
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        _limit("RLIMIT_CORE", 0)
        signal.signal(number, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {number})
        os.kill(os.getpid(), number)
        return 128 + number
    return os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
