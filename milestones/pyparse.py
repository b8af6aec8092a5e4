"""``ast.parse`` for the grader's threads, one at a time.

The grader grades several submissions at once in threads (``--jobs``), and each run reads
the suites' hidden tests and the kit's regions with :func:`ast.parse`. CPython before
3.11.8 and 3.12.1 keeps the parser's recursion depth in a global, so two threads parsing at
once can fail with ``SystemError: AST constructor recursion depth mismatch``
(python/cpython#106905); a lock makes the calls take turns. It only ever parses the kit's
own files: a student's files are parsed in a child process (:func:`milestones.starter.write_hybrid`).
"""

from __future__ import annotations

import ast
import threading

__all__ = ["parse"]

_LOCK = threading.Lock()


def parse(source: str, filename: str = "<unknown>") -> ast.Module:
    """``ast.parse(source, filename)``, never at the same time as another thread's.

    Raises:
        SyntaxError: ``source`` is not Python.
    """
    with _LOCK:
        return ast.parse(source, filename=filename)
