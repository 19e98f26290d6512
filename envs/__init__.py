"""Rubble's environments: importing `envs` registers every ruleset and its Gymnasium id, and loads none of them.

    import gymnasium, envs
    env = gymnasium.make("rubble/RiflesUrban-v0", opponent="scripted")
    aec = envs.make_aec("rifles-urban")          # PettingZoo AEC env, every side an agent
    from envs.pettingzoo import rifles_urban_v0  # the same, PettingZoo's module convention

Registration is by entry-point string (the Gymnasium convention): a ruleset's modules, the adapters,
PettingZoo and the agents are imported on first use, not here.
"""
from __future__ import annotations

import gymnasium

from . import registry

#: name, Gymnasium id, the Ruleset class, and the modules that register agents for it.
RULESETS = (
    ("rifles-urban", "rubble/RiflesUrban-v0", "envs.rifles.ruleset:RiflesUrban", ("agents.scripted.rifles",)),
    ("rifles-darkness", "rubble/RiflesDarkness-v0", "envs.rifles.ruleset:RiflesDarkness", ("agents.scripted.rifles",)),
    ("cityfight", "rubble/Cityfight-v0", "envs.cityfight.ruleset:Cityfight", ("agents.scripted.cityfight",)),
    ("k47", "rubble/K47-v0", "envs.k47.ruleset:K47", ("agents.scripted.k47",)),
    ("urbanwar", "rubble/UrbanWar-v0", "envs.urbanwar.ruleset:UrbanWar", ("agents.scripted.urbanwar",)),
)


def register_gym_id(name: str, gym_id: str) -> None:
    """Make `gymnasium.make(gym_id)` build a RubbleEnv for ruleset `name` (idempotent)."""
    if gym_id not in gymnasium.registry:
        gymnasium.register(id=gym_id, entry_point="envs.gym_env:RubbleEnv", kwargs={"ruleset": name})


def register(name: str, gym_id: str, entry_point, agent_providers: tuple[str, ...] = ()) -> None:
    """Register a ruleset with the suite and its Gymnasium id with Gymnasium; nothing is imported."""
    registry.register(name, gym_id, entry_point, agent_providers)
    register_gym_id(name, gym_id)


def make_aec(name: str, **kwargs):
    """The PettingZoo AEC env of a registered ruleset, wrapped to enforce the call order."""
    from .pettingzoo_env import aec_env_factory  # lazy: importing pettingzoo is not free

    env, _ = aec_env_factory(name)
    return env(**kwargs)


for _entry in RULESETS:
    register(*_entry)
