"""The Program Demo: ``python -m milestones demo`` plays the student's game through each situation the
milestone covers, in about two minutes, for the peer leader, and says where the play differs from the rules.

Each scene (:mod:`milestones.demo_scenes`) is a round dealt from a stacked shoe through the student's own
game, played in the student's process (:mod:`milestones.host`, :mod:`milestones.plays.demo_play`) and sent
back as plain data; this process plays the same scene on the kit's engine and compares the two records
field by field (:mod:`milestones.demo_judge`). docs/instructor.md section 8 ("Program demo") says what
each scene shows and what the demo says of a mistake, an unwritten function or a loop.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from contextlib import ExitStack, suppress
from functools import partial
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path
from typing import Any, TextIO

from .demo_judge import differences
from .demo_scenes import SCENES, Record, Scene
from .grader.judge import StudentError, StudentGone, StudentTimeout
from .grader.xvfb import NoDisplay, xvfb
from .host import Host
from .plays.demo_play import Say, reference_record, run_scene
from .regions import FUNCTIONS_FILE

__all__ = ["SCENES", "Scene", "differences", "find_reference", "play_demo", "run_demo"]

#: Seconds past a scene's time limit before the process playing it is ended (the scene swallowed its stop).
_GRACE = 7.0


def _numbers(milestones: list[int] | None) -> list[int]:
    """``milestones`` (None: all), after a ``KeyError`` for one without scenes (naming those with scenes)."""
    numbers = list(SCENES) if milestones is None else milestones
    for number in numbers:
        if number not in SCENES:
            raise KeyError(f"no demo for milestone {number}; there are scenes for milestones "
                           f"{', '.join(map(str, SCENES))}")
    return numbers


def play_demo(out: TextIO, milestones: list[int] | None = None, *, scene_timeout: float = 10.0, pause: Callable[[], None] | None = None) -> int:
    """Play the scenes of ``milestones`` (default: all) in this process, with the ``blackjack`` package
    importable now, checking only each scene's expected ends (not judged against the rules: see
    :func:`run_demo`). Milestone 3's scenes open windows: they need ``$DISPLAY``.

    Args:
        out: where the demo is written.
        milestones: the milestones whose scenes to play, in this order.
        scene_timeout: seconds a scene may run before it is stopped (0: no limit).
        pause: called between scenes (e.g. wait for Enter); None: go straight on.

    Returns:
        0 when every scene ran and ended as it should, 1 otherwise.

    Raises:
        KeyError: a milestone without scenes (the message names the ones with scenes).
    """
    numbers = _numbers(milestones)
    say = partial(print, file=out, flush=True)
    return _show(say, numbers, pause, lambda _number, _index, scene: run_scene(
        scene, say, scene_timeout=scene_timeout)[0],
        "  ok: every hand ended as it should")


def _show(say: Say, numbers: list[int], pause: Callable[[], None] | None, play: Callable[[int, int, Scene], str],
          ok: str) -> int:
    """Show each scene of ``numbers`` (header, ``play``'s lines, ``ok`` when its status is ``"ok"``), calling
    ``pause`` between scenes, then the summary; return 0 when every scene is ok, else 1."""
    results: list[tuple[str, str]] = []
    for count, (number, index, scene) in enumerate(_chosen(numbers)):
        if count and pause is not None:
            pause()
        say(f"\n=== Milestone {number}: {scene.title} ({scene.rules} rules) ===")
        say(f"Point out: {scene.point_out}")
        status = play(number, index, scene)
        if status == "ok":
            say(ok)
        results.append((f"milestone {number}: {scene.title}", status))
    say("\n=== Summary ===")
    for title, status in results:
        say(f"  {title}: {status}")
    return 0 if all(status == "ok" for _, status in results) else 1


def _chosen(numbers: list[int]) -> list[tuple[int, int, Scene]]:
    """``(milestone, index, scene)`` of every scene of ``numbers``, in order."""
    return [(number, index, scene) for number in numbers for index, scene in enumerate(SCENES[number])]


# ====================================================================== the judge: the kit's engine, here

def find_reference(project: Path) -> Path | None:
    """Return the folder holding the kit's own ``blackjack`` and ``gui`` (the reference), or None.

    The kit's clone or an installed kit: the folder beside this ``milestones`` package, unless this
    ``milestones`` is a copy in a student's starter (it lists the student's functions, ``functions.json``);
    else an installed ``blackjack-kit`` wheel's folder. ``project`` may be that folder itself (the kit played
    on its own code). None in a starter folder without the kit installed: nothing there is the reference.
    """
    candidates = [Path(__file__).resolve().parents[1]]
    with suppress(PackageNotFoundError):
        installed = Path(str(distribution("blackjack-kit").locate_file("blackjack/__init__.py")))
        candidates.append(installed.resolve().parents[1])
    for root in candidates:  # a starter's or autograder zip's milestones/ lists the student's functions
        if ((root / "blackjack" / "__init__.py").is_file() and (root / "gui" / "shell.py").is_file()
                and not (root / "milestones" / FUNCTIONS_FILE).exists()):
            return root
    return None


def _load_reference(root: Path) -> bool:
    """Make ``blackjack`` and ``gui`` in this process the kit's, from ``root``; True when they are."""
    for name in [m for m in sys.modules if m.split(".")[0] in ("blackjack", "gui")]:
        file = getattr(sys.modules[name], "__file__", None)
        if file is None or not Path(file).resolve().is_relative_to(root):
            del sys.modules[name]
    sys.path.insert(0, str(root))
    try:
        import blackjack
        import gui
    except Exception:  # noqa: BLE001 - a broken kit: the demo then plays without judging
        return False
    return all(Path(str(module.__file__)).resolve().is_relative_to(root) for module in (blackjack, gui))


def run_demo(project: Path, out: TextIO, milestones: list[int] | None = None, *, scene_timeout: float = 10.0,
              pause: Callable[[], None] | None = None) -> int:
    """Play the demo on the packages in ``project`` in the student's process, judging each scene against the kit.

    After each scene it says ``ok: every hand ended as it should`` or ``differs: <how, in the rule's words>``;
    without the kit's engine (:func:`find_reference`) it says so once and only checks each scene's expected
    ends. Milestone 3's scenes open the student's window on ``$DISPLAY``, or on a private Xvfb started here
    when there is none. Other arguments as :func:`play_demo`.

    Returns:
        0 when every scene ran and ended as it should (and as the rules play it, when judged), 1 otherwise.

    Raises:
        FileNotFoundError: ``project`` has no ``blackjack/__init__.py``.
        KeyError: a milestone without scenes.
    """
    project = project.resolve()
    if not (project / "blackjack" / "__init__.py").is_file():
        raise FileNotFoundError(f"{project} has no blackjack/__init__.py; run the demo from the project folder "
                                f"or give --project DIR")
    numbers = _numbers(milestones)
    say = partial(print, file=out, flush=True)
    root = find_reference(project)
    judged = root is not None and _load_reference(root)
    if not judged:
        say("(the kit's own engine is not reachable from here, so the play is shown without comparing it with "
            "the rules: run the demo from the kit's folder, python -m milestones demo --project DIR)")
    env = dict(os.environ)
    no_display = ""
    with ExitStack() as stack:
        if any(scene.shell for _n, _i, scene in _chosen(numbers)) and not env.get("DISPLAY"):
            try:
                env["DISPLAY"] = stack.enter_context(xvfb())
            except NoDisplay as err:  # the window scenes say so
                no_display = str(err)
        host = stack.enter_context(Host(project, "demo_play", env=env))
        options = {"scene_timeout": scene_timeout}

        def play(number: int, index: int, scene: Scene) -> str:
            if scene.shell and no_display:
                status, record = f"stopped: no display for the window ({no_display})", None
                say(f"  {status}")
            else:
                status, record = _play_there(host, f"{number}:{index}", options, say)
            found = differences(scene, record, reference_record(scene)) if record is not None and judged else []
            if found:
                status = "differs: " + "; ".join(found)
                say(f"  {status}")
            return status

        return _show(say, numbers, pause, play,
                     "  ok: every hand ended as it should" + ("" if judged else " (not compared with the rules)"))


def _play_there(host: Host, key: str, options: dict[str, Any], say: Say) -> tuple[str, Record | None]:
    """Play the scene ``key`` in the student's process; return its status and record (None when it did not end).
    A scene that swallows its stop is ended :data:`_GRACE` seconds after its time limit."""
    limit = float(options["scene_timeout"])
    try:
        answer = host("play_scene", key, options, timeout=limit + _GRACE if limit > 0 else 0, say=say)
    except StudentTimeout:
        status = f"stopped after {limit:g} s: a loop that never ends?"
    except StudentGone as gone:
        status = f"stopped: {host.ended(gone)}"
    except StudentError as err:
        status = f"stopped: {err.text}"
    else:
        record = answer.get("record") if isinstance(answer, dict) else None
        if isinstance(answer, dict) and isinstance(answer.get("status"), str):
            return answer["status"], record if isinstance(record, dict) else None
        status = "stopped: the process playing your code answered with no status"
    say(f"  {status}")
    return status, None
