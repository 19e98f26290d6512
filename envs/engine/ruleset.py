"""The protocol every ruleset implements, and the errors the suite raises.

Rules know *sides* (0, 1, ...); the adapters map agents to sides. One game in progress is a
`GameState`; a `Ruleset` describes a registered environment (sizes, scenarios, how to start a game).
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .events import Event


class IllegalActionError(ValueError):
    """An action outside the legal mask; the state is left unchanged."""


class GameState(ABC):
    """One game in progress."""

    #: who decides now; None when the game is over
    current_side: int | None

    @abstractmethod
    def legal_action_mask(self) -> np.ndarray:
        """Bool array of shape (num_actions,); never all false while the game is not over."""

    @abstractmethod
    def apply(self, action: int) -> list[Event]:
        """Play `action` for `current_side`; raise IllegalActionError (changing nothing) if it is not legal."""

    @abstractmethod
    def observation(self, side: int) -> np.ndarray:
        """Float32 vector of what `side` may know, nothing more."""

    @abstractmethod
    def view(self, side: int):
        """A read-only view of what `side` may know, for scripted agents and renderers."""

    @abstractmethod
    def returns(self) -> tuple[float, ...]:
        """Per-side result: +1 win, -1 loss, 0 draw or not over."""

    @abstractmethod
    def clone(self) -> "GameState":
        """An independent copy whose dice stream is branched (rollouts never shift this game's dice)."""

    @abstractmethod
    def to_dict(self) -> dict:
        """Everything needed to continue this game identically (JSON-compatible)."""

    @classmethod
    @abstractmethod
    def from_dict(cls, data: dict) -> "GameState":
        """Restore a game saved with `to_dict`."""

    @abstractmethod
    def action_label(self, action: int) -> str:
        """The action in the game's own words, for people."""

    @abstractmethod
    def render_text(self, side: int | None = None) -> str:
        """A text map as `side` sees it (None: the umpire's view)."""

    @abstractmethod
    def render_rgb(self, side: int | None = None) -> np.ndarray:
        """An (H, W, 3) uint8 picture as `side` sees it (None: the umpire's view)."""

    # Shared conveniences -------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.current_side is None

    def check_legal(self, action: int, mask: np.ndarray, why: Callable[[int], str]) -> None:
        """Raise IllegalActionError naming the action and the reason unless mask[action]."""
        if not isinstance(action, (int, np.integer)) or not 0 <= int(action) < mask.shape[0]:
            raise IllegalActionError(f"action {action!r} is not an integer in 0..{mask.shape[0] - 1}")
        if self.current_side is None:
            raise IllegalActionError(f"action {action}: the game is over")
        if not mask[action]:
            raise IllegalActionError(f"action {action} ({self.action_label(int(action))}) is illegal: {why(int(action))}")


@dataclass(frozen=True)
class Ruleset:
    """A registered environment: what the adapters, the CLI and the generic tests need to know."""

    name: str                       # CLI name, e.g. "rifles-urban"
    gym_id: str                     # e.g. "rubble/RiflesUrban-v0"
    sides: tuple[str, ...]          # side names, index = side number; also the PettingZoo agent names
    num_actions: int
    observation_size: int
    default_scenario: str
    scenarios: Callable[[], dict[str, str]]          # name -> path
    new_game: Callable[..., GameState]               # new_game(scenario=None, seed=0, dice=None, **options)
    agents: Callable[[], dict[str, Callable]] = field(default=dict)  # agent name -> factory(side, seed)
    turn_limit: Callable[[GameState], int] | None = None
    default_learner_side: int = 0
