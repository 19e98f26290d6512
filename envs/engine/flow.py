"""A resumable flow of play: named tasks on a stack, and the decisions that pause it.

Rules push plain-data tasks (`("reveal", marker, target, drm)`) onto the game's `tasks` list; the
game runs them until one asks a side for a decision (the game's `decision` is set). Tasks and
decisions are plain tuples and dicts, so a game paused in the middle of a move or of the other
side's activation clones and saves like any other state. Each ruleset owns one `Flow` registry.
"""
from __future__ import annotations


class Flow:
    """The task and decision-answer handlers of one ruleset."""

    def __init__(self) -> None:
        self.tasks: dict = {}
        self.answers: dict = {}

    def task(self, name: str):
        """Register the function that runs task `name` (called as fn(game, *args))."""
        def register(fn):
            self.tasks[name] = fn
            return fn
        return register

    def answer(self, kind: str):
        """Register the function that applies an answer to decision `kind` (fn(game, ctx, *args))."""
        def register(fn):
            self.answers[kind] = fn
            return fn
        return register

