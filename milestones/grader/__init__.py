"""The grader: everything from a submission handed in to its ``results.json``, in the process each part runs in.

=================  ==================  ============================================================
module             runs in             what it holds
=================  ==================  ============================================================
``intake``         the grader          submissions and zips -> the folders holding ``blackjack/``
``grading``        the grader          ``Grader``: the runs of each submission and milestone, in parallel
``scores``         the grader          the score model: a run's results in course points
``isolation``      the grader          a graded run isolated: private copies, sandbox user, display
``runner``         the grader          start the judge (pytest) and read its results stream
``xvfb``           the grader          a private virtual X screen for a suite that opens windows
``hidden``         the grader          find and strip the hidden tests
``_sandbox``       its own process     the supervisor of the student's process: limits, namespaces
``plugin``         the judge           the pytest plugin: points, the ``student`` fixture, results
``judge``          the judge           ask the student's process, read its answers as data
``observer``       the student's       run observations (and the tools' plays) on the student's code
``protocol``       both ends           the channels' message shapes, limits and ids
=================  ==================  ============================================================

docs/design/layout.md draws the processes and the way a submission travels to ``results.json``.
The package imports nothing from ``gui``; no module of it imports one that imports it back.
"""
