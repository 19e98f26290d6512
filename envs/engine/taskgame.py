"""TaskGame: the task-loop plumbing every flow-driven ruleset shares, written once.

A game of Rubble runs as tasks on a stack (envs.engine.flow) that pause on a decision. Starting a
game, merging its options, running the tasks, answering a decision, caching the legal mask and
cloning are the same for every ruleset; only the rules themselves differ. Keeping that loop here
means a fix to it (say, when the mask is dropped) reaches every ruleset at once.
"""
from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar, Protocol, Self

import numpy as np

from .actions import ActionCodec
from .contract import GameOverError, GameState
from .dice import Dice, SeededDice
from .events import EventLog
from .flow import Flow


class ScenarioSource(Protocol):
    """Where a ruleset's scenarios come from (its config module)."""

    def scenario_path(self, name: str | None) -> str: ...
    def load_scenario(self, path: str) -> Any: ...


class Legality(Protocol):
    """The one source of legality of a ruleset (its legal module): the mask, why an action is out, its label."""

    def mask(self, game: Any) -> np.ndarray: ...
    def why(self, game: Any, action: int) -> str: ...
    def label(self, game: Any, action: int) -> str: ...


class Renderer(Protocol):
    """A ruleset's two renderings of a side's view (its render module)."""

    def text(self, game: Any, side: int | None) -> str: ...
    def rgb(self, game: Any, side: int | None) -> np.ndarray: ...


class TaskGame(GameState):
    """One game whose play is a stack of flow tasks paused by decisions.

    A ruleset sets the class attributes below (its flow registry, codec, and the modules that meet the
    protocols above) and overrides the hooks its rules need: `game_over` (required), `coerce_option`,
    `check_options`, `after_task`, `take_prepared_mask`, `answer`. Its `__init__(scenario, dice, options, *,
    _setup=True)` calls this one, then sets its own fields and, if `_setup`, plays the set-up. Its own
    `decide(kind, ...)` sets `decision`, since who decides differs.
    """

    #: the task and answer handlers `run` and `answer` call
    FLOW: ClassVar[Flow]
    #: action number <-> name and arguments
    CODEC: ClassVar[ActionCodec]
    config: ClassVar[ScenarioSource]
    legal: ClassVar[Legality]
    render: ClassVar[Renderer]
    #: fn(game, side) -> the observation vector (wrap it in staticmethod)
    encode: ClassVar[Callable[[Any, int], np.ndarray]]
    #: fn(game, side) -> that side's view (wrap it in staticmethod)
    view_of: ClassVar[Callable[[Any, int], Any]]
    #: the decision in progress, (kind, context), or None while tasks run
    decision: tuple[str, dict] | None
    #: the task stack, last in first out
    tasks: list

    #: the class attributes a concrete TaskGame must set
    PARTS: ClassVar[tuple[str, ...]] = ("FLOW", "CODEC", "config", "legal", "render", "encode", "view_of")

    def __init__(self, scenario, dice: Dice, options: dict | None = None) -> None:
        missing = [part for part in self.PARTS if getattr(type(self), part, None) is None]
        if missing:
            raise TypeError(f"{type(self).__name__} must set {', '.join(missing)} (see envs.engine.taskgame.TaskGame)")
        self.scenario, self.tables, self.dice = scenario, scenario.tables, dice
        self.options = self.merged_options(options)
        self.log = EventLog()
        self.setup_events: list = []
        self._mask = None

    @classmethod
    def new(cls, scenario: str | None = None, seed: int | None = 0, dice: Dice | None = None, **options) -> Self:
        """A new game of the named scenario (None: the ruleset's default) with seeded dice (or the dice given)."""
        spec = cls.config.load_scenario(cls.config.scenario_path(scenario))
        game = cls(spec, dice if dice is not None else SeededDice(seed), options)
        game.setup_events = game.log.take()   # the set-up's rolls are not the first action's events
        return game

    # Options -------------------------------------------------------------------------------------
    def merged_options(self, options: dict | None) -> dict:
        """The scenario's options overridden by the keyword options; an unknown name is an error, so a typo
        never silently plays the default."""
        merged = dict(self.scenario.options)
        for key, value in (options or {}).items():
            if key not in merged:
                raise ValueError(f"unknown option {key!r}; known: {', '.join(sorted(merged))}")
            merged[key] = self.coerce_option(key, value)
        self.check_options(merged)
        return merged

    def coerce_option(self, key: str, value):
        """The value option `key` keeps: options are toggles unless the ruleset says otherwise."""
        return bool(value)

    def check_options(self, options: dict) -> None:
        """Raise ValueError for option values the rules cannot play; every toggle is playable."""

    # The flow ------------------------------------------------------------------------------------
    @property
    @abstractmethod
    def game_over(self) -> bool:
        """True once the rules have ended the game (`is_over` asks who decides, which needs a decision)."""

    def push(self, *tasks) -> None:
        """Schedule tasks to run next, in the order given."""
        self.tasks.extend(tasks[::-1])   # a reversed copy of the few tasks costs less than a reversed() iterator

    def run(self) -> None:
        """Run tasks until a side must decide or the game is over."""
        handlers, after_task = self.FLOW.tasks, self.after_task
        while self.decision is None and not self.game_over:
            task = self.tasks.pop()
            handlers[task.__class__](self, *task)
            after_task()
        self._mask = self.take_prepared_mask()

    def after_task(self) -> None:
        """What the rules check between tasks (e.g. a side that won at once); nothing by default."""

    def take_prepared_mask(self) -> np.ndarray | None:
        """The legal mask of the new decision if the rules already built it; None: build it when asked."""
        return None

    def decision_kind(self) -> str | None:
        return None if self.decision is None else self.decision[0]

    def refresh(self) -> None:
        """Drop every derived cache, after a position was set up by hand (a ruleset's `build_position`): the
        next mask, observation and check are computed afresh. Rulesets with more caches extend it."""
        self._mask = None

    def legal_action_mask(self) -> np.ndarray:
        if self.game_over:
            raise GameOverError("the game is over: it has no legal actions")
        mask = self._mask
        if mask is None:
            mask = self._mask = self.legal.mask(self)
        return mask

    def apply(self, action: int) -> list:
        """Play `action` (atomic: see GameState.atomically)."""
        if self.game_over:
            raise GameOverError(f"action {action!r}: the game is over")
        mask = self._mask if self._mask is not None else self.legal_action_mask()
        # A plain int the mask allows, asked by a decision, is legal; anything else gets the full check, which names
        # what is wrong.
        if action.__class__ is not int or not 0 <= action < mask.shape[0] or not mask[action] or self.decision is None:
            self.check_legal(action, mask, lambda a: self.legal.why(self, a))
            action = int(action)
        if self.dice.finite:
            return self.atomically(lambda: self._resolve(action))
        return self._resolve(action)   # seeded dice never run out: nothing to save (GameState.atomically)

    def _resolve(self, action: int) -> list:
        name, args = self.CODEC.decoded[action]   # in range: `apply` checked it against the mask
        kind, ctx = self.decision
        self.decision, self._mask = None, None
        self.answer(kind, ctx, name, args)
        self.run()
        return self.log.take()

    def answer(self, kind: str, ctx: dict, name: str, args: tuple) -> None:
        """Apply the action `name(*args)` as the answer to decision `kind` (its context `ctx`)."""
        self.FLOW.answers[kind](self, ctx, name, *args)

    # Protocol: observation, views, rendering -----------------------------------------------------------
    def observation(self, side: int) -> np.ndarray:
        return self.encode(self, side)

    def view(self, side: int):
        return self.view_of(self, side)

    def action_label(self, action: int) -> str:
        return self.legal.label(self, action)

    def render_text(self, side: int | None = None) -> str:
        return self.render.text(self, side)

    def render_rgb(self, side: int | None = None) -> np.ndarray:
        return self.render.rgb(self, side)

    # Copy and save -------------------------------------------------------------------------------------
    def clone(self) -> Self:
        """A deep copy whose dice stream is branched."""
        return self.from_dict(self.to_dict(), dice=self.dice.branch())

    @classmethod
    def _without_setup(cls, data: dict, dice: Dice | None) -> Self:
        """The saved game's scenario, options and dice (or the dice given), not set up: from_dict fills in the rest."""
        return cls(cls.config.load_scenario(data["scenario"]), dice or Dice.from_dict(data["dice"]), data["options"],
                   _setup=False)
