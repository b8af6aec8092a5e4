"""The grader's two channels, defined once: both ends of each import this module.

* **The results stream** (plugin -> runner): one JSON object per line (:func:`record`) on the pipe named in
  :data:`RESULTS_FD_ENV`: ``begin``, ``session``, ``collected``/``collect_error``, then per test ``start`` and
  ``result``, then ``finished``; bounded by :data:`STREAM_LIMIT` and :data:`LINE_LIMIT`.
* **The student channel** (judge or a student's tool -> the student's process, on the descriptors named in
  :data:`FDS_ENV`): one :func:`request` per line, ``{"id", "call", "args"}`` (and a tool's own ``"timeout"``);
  one :func:`reply` each, ``{"id", "value"}`` or ``{"id", "raised"}`` (``"timed_out": true`` when stopped),
  after a tool's ``{"id", "say": line}`` lines. Values are plain data (:func:`plain`, :func:`number`), read by
  :func:`read_reply` within :data:`REPLY_LIMIT` bytes and :data:`READ_DEPTH_LIMIT` levels.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

__all__ = ["DEPTH_LIMIT", "FDS_ENV", "IMPORTS_CALL", "LINE_LIMIT", "MESSAGE_LIMIT", "OBJECT_KEY", "READS_STDIN",
           "READ_DEPTH_LIMIT", "REPLY_LIMIT", "REQUEST_LIMIT", "RESULTS_FD_ENV", "RUN_TAG_ENV", "STREAM_LIMIT",
           "TEXT_LIMIT", "Opaque", "clip", "TestTimeout", "as_number", "number", "observation_error", "plain",
           "read_reply", "record", "reply", "request", "text"]

#: The environment variable holding the results pipe's descriptor (the runner sets it, the plugin reads it).
RESULTS_FD_ENV = "MILESTONES_RESULTS_FD"
#: Every process of one run inherits this variable with the run's own value, so the processes
#: that left the run's process group (``setsid()``, a daemon) are found by it when the run ends.
RUN_TAG_ENV = "MILESTONES_RUN"
#: The most bytes of results read from one run; a longer stream is a stream tampered with.
STREAM_LIMIT = 16 * 1024 * 1024
#: The longest results line read: the longest the plugin writes is one test's record with its message
#: (at most :data:`MESSAGE_LIMIT` characters) and docstring.
LINE_LIMIT = 1024 * 1024
#: The most characters of a message for a student (a test's, an exception's).
MESSAGE_LIMIT = 2000


def record(kind: str, **fields: Any) -> str:
    """One results line (with its newline): ``{"kind": kind, **fields}``. The kinds and their fields: ``begin``;
    ``session``; ``collected`` (``nodeid``, ``name``, ``doc``, ``milestone``, ``part``, ``points``, ``hidden``);
    ``collect_error`` (``nodeid``, ``message``); ``start`` (``nodeid``); ``result`` (``nodeid``, ``outcome``:
    passed, failed, error or skipped, ``message``, ``timed_out``); ``finished`` (``exitstatus``)."""
    return json.dumps({"kind": kind, **fields}) + "\n"


#: The environment variable holding the request and reply descriptors, ``"<read>,<write>"``.
FDS_ENV = "MILESTONES_OBSERVE_FDS"
#: A value that is not plain data travels as ``{OBJECT_KEY: "<class name>", "repr": "<its repr>"}``.
OBJECT_KEY = "__object__"
#: What ``input()`` in student code raises, and the judge recognises.
READS_STDIN = "reading from stdin while the tests run"
#: The request that imports observation modules (and so the student's code) and says which failed.
IMPORTS_CALL = "__imports__"
#: The longest request line the student's process reads.
REQUEST_LIMIT = 1024 * 1024
#: The largest reply the reader takes, in bytes.
REPLY_LIMIT = 1024 * 1024
#: How deep :func:`plain` nests lists and dicts; deeper values travel as objects.
DEPTH_LIMIT = 32
#: How deep the reader accepts nesting: :data:`DEPTH_LIMIT` and the reply's own levels (the reply, ``raised``,
#: an object's dict) with room to spare.
READ_DEPTH_LIMIT = DEPTH_LIMIT + 8
#: The most characters of printed text a call's capture keeps.
TEXT_LIMIT = 64 * 1024


class TestTimeout(BaseException):
    """A call ran past its time limit (a ``BaseException``, so ``except Exception`` cannot swallow it)."""

    __test__ = False


def request(ident: int, call: str, args: list[Any], timeout: float | None = None) -> bytes:
    """One request line: run ``call(*args)``; ``timeout`` seconds for this call (None: the process's own)."""
    data: dict[str, Any] = {"id": ident, "call": call, "args": args}
    if timeout is not None:
        data["timeout"] = timeout
    return json.dumps(data).encode() + b"\n"


def reply(ident: object, answer: dict[str, Any]) -> str:
    """One reply line for request ``ident``: ``answer`` is ``{"value": ...}``, ``{"raised": ...}`` or ``{"say": ...}``.

    An answer that cannot be written as JSON (too deep for the encoder) becomes an ``ObservationError``.
    """
    try:
        return json.dumps({"id": ident, **answer}) + "\n"
    except (ValueError, TypeError, RecursionError):
        return json.dumps({"id": ident, **observation_error("the answer is too large to send")}) + "\n"


def observation_error(message: str) -> dict[str, Any]:
    """An answer for a request the suite's side got wrong (not the student's code): an ``ObservationError``."""
    return {"raised": {"type": "ObservationError", "bases": [], "message": message, "where": ""}}


def clip(value: object, limit: int = MESSAGE_LIMIT) -> str:
    """``value`` cut to ``limit`` characters (ending ``...``); ``"<not text>"`` if it is not a ``str``."""
    value = value if type(value) is str else "<not text>"
    return value if len(value) <= limit else value[:limit - 3] + "..."


def plain(value: object, depth: int = 0) -> object:
    """``value`` as JSON data: ``None``, ``bool``, ``int``, finite ``float``, ``str``, lists and ``str``-keyed
    dicts of those (tuples become lists). Anything else, subclasses of those types included (a student's
    ``int`` whose ``__eq__`` says yes to everything), becomes ``{OBJECT_KEY: class name, "repr": text}``."""
    kind = type(value)
    if value is None or kind in (bool, int, str):
        return value
    if kind is float and value == value and value not in (float("inf"), float("-inf")):  # noqa: PLR0124
        return value
    if depth < DEPTH_LIMIT:
        if kind in (list, tuple):
            return [plain(item, depth + 1) for item in value]  # type: ignore[attr-defined]
        if kind is dict and all(type(key) is str for key in value):  # type: ignore[attr-defined]
            return {key: plain(item, depth + 1) for key, item in value.items()}  # type: ignore[attr-defined]
    try:
        shown = repr(value)
    except Exception as err:  # noqa: BLE001 - a student's __repr__ may raise anything
        shown = f"<repr raised {type(err).__name__}>"
    return {OBJECT_KEY: kind.__name__[:100], "repr": clip(shown)}


def number(value: object) -> object:
    """A number as data that keeps its kind: an ``int`` as itself, a ``Fraction`` as ``{"fraction": "15/2"}``, a
    ``Decimal`` as ``{"decimal": "7.5"}``, a ``float`` as itself; anything else as :func:`plain` sends it.
    The reader reads it back with :func:`as_number` (money must stay exact)."""
    if type(value) is Fraction:
        return {"fraction": str(value)}
    if type(value) is Decimal:
        return {"decimal": str(value)}
    return plain(value)


_EXACT = re.compile(r"-?\d{1,60}(?:/\d{1,60}|\.\d{1,60})?")


def as_number(data: Any) -> Any:
    """A number the student's process sent with :func:`number`, as Python holds it: an ``int``, a ``Fraction``
    from ``{"fraction": "15/2"}``, a ``Decimal`` from ``{"decimal": "7.5"}``, a ``float``; anything else
    (``None``, an :class:`Opaque`, malformed text) is returned unchanged."""
    if isinstance(data, dict) and len(data) == 1:
        (kind, shown), = data.items()
        if isinstance(shown, str) and _EXACT.fullmatch(shown):
            if kind == "fraction" and "." not in shown:
                return Fraction(shown)
            if kind == "decimal" and "/" not in shown:
                return Decimal(shown)
    return data


@dataclass(frozen=True, slots=True)
class Opaque:
    """A value the student's code returned that is not plain data (an object, or an ``int`` subclass):
    its class name and its ``repr``, as text. It equals only an identical ``Opaque``."""

    type: str
    text: str

    def __repr__(self) -> str:
        return f"<{self.type} object: {self.text}>" if not self.text.startswith("<") else self.text


def text(value: object, limit: int = MESSAGE_LIMIT) -> str:
    """``value`` as one bounded line of text, control characters shown as escapes ("" for a non-string)."""
    if not isinstance(value, str):
        return ""
    return clip("".join(c if c.isprintable() or c in "\n" else repr(c)[1:-1] for c in value[:limit + 1]), limit)


def _bounded_int(digits: str) -> int:
    if len(digits) > 100:
        raise ValueError("a number of more than 100 digits")
    return int(digits)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a test can use")


def _finite(digits: str) -> float:
    value = float(digits)
    if value in (float("inf"), float("-inf")):
        _no_constant(digits)
    return value


def _checked(value: Any, depth: int = 0) -> Any:
    """``value`` (parsed JSON) with every ``{OBJECT_KEY: ...}`` made an :class:`Opaque`; ValueError when too deep."""
    if depth > READ_DEPTH_LIMIT:
        raise ValueError(f"data nested more than {READ_DEPTH_LIMIT} deep")
    if isinstance(value, list):
        return [_checked(item, depth + 1) for item in value]
    if isinstance(value, dict):
        if OBJECT_KEY in value:
            return Opaque(text(value.get(OBJECT_KEY), 100), text(value.get("repr"), 500))
        return {key: _checked(item, depth + 1) for key, item in value.items()}
    return value


def read_reply(line: bytes) -> dict[str, Any]:
    """Parse one reply line of the student's process.

    Raises:
        ValueError: the line is too long, not JSON, not an object, holds ``NaN``/``Infinity`` (or ``1e400``,
            which Python reads as one), a number of more than 100 digits, or nesting deeper than
            :data:`READ_DEPTH_LIMIT`.
    """
    if len(line) > REPLY_LIMIT:
        raise ValueError("a reply over 1 MiB")
    try:
        answer = json.loads(line, parse_int=_bounded_int, parse_float=_finite, parse_constant=_no_constant)
    except RecursionError:
        raise ValueError("data nested too deep") from None
    if not isinstance(answer, dict):
        raise ValueError("a reply that is not an object")
    return _checked(answer)  # type: ignore[no-any-return]
