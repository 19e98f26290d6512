"""A resumable flow of play: typed tasks on a stack, and the decisions that pause them.

Rules push tasks onto the game's `tasks` list; the game runs them until one asks a side for a decision
(the game's `decision` is set). A task is a typed record, a NamedTuple a ruleset declares in its
`tasks.py` (`Reveal(marker_slot=3, target_slot=1, drm=0)`), and its handler is registered for that record
type (`@task(Reveal)`; called as fn(game, *record)). Records and decisions are plain data, so a game paused
in the middle of a move or of the other side's activation saves (`save`: [tag, *fields], JSON-ready) and
restores (`load`) like any other state. Each ruleset owns one `Flow` registry.
"""
from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from enum import StrEnum
from typing import NamedTuple


class DecisionKind(StrEnum):
    """Base of a ruleset's decision kinds (an enum of the decisions its rules can ask a side for).

    Members are strings, so a saved game and an observation read the same as before the enum existed.
    """


def tag(record: type) -> str:
    """The saved name of a task record: its class name in snake case (RevealSweep -> "reveal_sweep")."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", record.__name__).lower()


class Flow:
    """The task and decision-answer handlers of one ruleset."""

    def __init__(self) -> None:
        self.tasks: dict[type, Callable] = {}       # record type -> handler(game, *fields)
        self.records: dict[str, type] = {}          # tag -> record type, for `load`
        self.answers: dict[str, Callable] = {}      # decision kind -> handler(game, ctx, name, *args)

    def task(self, record: type[NamedTuple]):
        """Register the function that runs tasks of type `record`; its parameters after `game` must be the
        record's fields, in order (checked here, so a record and its handler never drift apart)."""
        def register(fn):
            params = list(inspect.signature(fn).parameters)[1:]
            if params != list(record._fields):
                raise TypeError(f"task handler {fn.__name__}{tuple(params)} does not take the fields of "
                                f"{record.__name__}{record._fields}")
            self.tasks[record] = fn
            self.records[tag(record)] = record
            return fn
        return register

    def answer(self, kind: str):
        """Register the function that applies an answer to decision `kind` (fn(game, ctx, *args))."""
        def register(fn):
            self.answers[kind] = fn
            return fn
        return register

    def save(self, task: tuple) -> list:
        """A task as JSON-ready data: [tag, *fields]."""
        return [tag(type(task)), *task]

    def load(self, data: list) -> tuple:
        """The task record saved as `data` by `save`."""
        return self.records[data[0]](*data[1:])
