"""The old name of :mod:`milestones.grader.runner`, kept for one term (docs/instructor.md, "Old import paths")."""
import importlib, sys  # noqa: E401
sys.modules[__name__] = importlib.import_module("milestones.grader.runner")
