"""The resumable flow of play: named tasks on a stack, and the decisions that pause it.

Rules push plain-data tasks (`("reveal", marker, target, drm)`); the game runs them until one
asks a side for a decision. Tasks and decisions are plain tuples and dicts, so a game in the middle
of a move or an enemy activation clones and saves like any other.
"""
from __future__ import annotations

TASKS: dict = {}
ANSWERS: dict = {}


def task(name: str):
    """Register the function that runs task `name` (called as fn(game, *args))."""
    def register(fn):
        TASKS[name] = fn
        return fn
    return register


def answer(kind: str):
    """Register the function that applies an answer to decision `kind` (fn(game, ctx, *args))."""
    def register(fn):
        ANSWERS[kind] = fn
        return fn
    return register
