"""The one agent interface: every policy (random, scripted, trained) chooses from the same inputs.

An agent sees only its side's observation vector, the legal-action mask, and its side's `view`
(the read-only object the ruleset gives that side); it draws randomness only from the seeded
numpy Generator it was given.
"""
from __future__ import annotations

import numpy as np

from envs import registry
from envs.engine.contract import Agent, decide  # noqa: F401  (the one agent interface, declared with the contract)


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


registry.register_agent("random", RandomAgent)
