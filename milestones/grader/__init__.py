"""The grader: everything from a submission handed in to its ``results.json``.

docs/design/layout.md lists its modules with the process each runs in (the grader's, the judge's, the
student's), and the way a submission travels; :mod:`.protocol` defines the channels between them.
"""
