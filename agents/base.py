"""The one agent interface: every policy (random, scripted, trained) chooses from the same inputs.

An agent sees only its side's observation vector, the legal-action mask, and its side's `view`
(the read-only object the ruleset gives that side); it draws randomness only from the seeded
numpy Generator it was given.
"""
from __future__ import annotations

from typing import Protocol

import numpy as np


class Agent(Protocol):
    name: str
    #: False for policies that read only the view and the mask; they are handed None for the observation
    needs_observation: bool

    def act(self, observation: np.ndarray, mask: np.ndarray, view) -> int:
        """The chosen action index; must be legal under `mask`."""


class RandomAgent:
    """Uniform over the legal actions."""

    name = "random"
    needs_observation = False

    def __init__(self, side: int = 0, seed: int | None = 0) -> None:
        self.side = side
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, mask: np.ndarray, view) -> int:
        legal = np.flatnonzero(mask)
        return int(legal[self.rng.integers(len(legal))])


def decide(agent, state, side: int) -> int:
    """Ask `agent` for `side`'s action in `state`, building the observation only if the agent reads it."""
    observation = state.observation(side) if getattr(agent, "needs_observation", True) else None
    return agent.act(observation, state.legal_action_mask(), state.view(side))
