"""Registers Cityfight with the suite (envs.registry) as "cityfight" / "rubble/Cityfight-v0"."""
from __future__ import annotations

from envs.engine.ruleset import Ruleset
from envs.registry import register

from . import config
from .actions import NUM_ACTIONS
from .game import CityfightGame
from .hidden import hidden_variants  # noqa: F401  (the generic suite's hook, tests/checkers.py; CF-HID-15)
from .observation import SIZE


def _agents() -> dict:
    from agents.scripted.cityfight import agent_factories
    return agent_factories()


def new_game(scenario=None, seed=0, dice=None, **options) -> CityfightGame:
    return CityfightGame.new(scenario or "office_block", seed=seed, dice=dice, **options)


CITYFIGHT = register(Ruleset(
    name="cityfight", gym_id="rubble/Cityfight-v0", sides=("attacker", "defender"),
    num_actions=NUM_ACTIONS, observation_size=SIZE, default_scenario="office_block",
    scenarios=config.scenario_names, new_game=new_game, agents=_agents,
    turn_limit=lambda game: game.scenario.turns,
))
