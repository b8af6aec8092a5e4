"""The old name of :mod:`milestones.grader.xvfb` (a private Xvfb screen), kept for one term (docs/instructor.md)."""
from milestones.grader.xvfb import NoDisplay, xvfb  # type: ignore[import-not-found,unused-ignore]  # gui alone
__all__ = ["NoDisplay", "xvfb"]
