"""The plays: what the student's tools (demo, defend, ten rounds) run in the student's process, through
:mod:`milestones.host`, on the student's code; each call returns plain data (docs/design/layout.md).
"""
