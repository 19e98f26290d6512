"""Registers the Rifles rulesets with the suite (envs.registry)."""
from __future__ import annotations

from envs.engine.ruleset import Ruleset
from envs.registry import register

from . import config
from .actions import NUM_ACTIONS
from .game import RiflesGame
from .hidden import hidden_variants  # noqa: F401  (the generic suite's hook, tests/checkers.py; RB-HID-3..5)
from .observation import SIZE


def _scenarios(modules: str):
    def scenarios() -> dict[str, str]:
        found = {}
        for path in sorted((config.CONFIG_DIR / "scenarios").glob("*.yaml")):
            if modules in config.load_scenario(str(path)).modules:
                found[path.stem] = str(path)
        return found
    return scenarios


def _agents() -> dict:
    from agents.scripted.rifles import agent_factories
    return agent_factories()


def _new_game(default: str):
    def new_game(scenario=None, seed=0, dice=None, **options):
        return RiflesGame.new(scenario or default, seed=seed, dice=dice, **options)
    return new_game


RIFLES_URBAN = register(Ruleset(
    name="rifles-urban", gym_id="rubble/RiflesUrban-v0", sides=("player", "enemy"),
    num_actions=NUM_ACTIONS, observation_size=SIZE, default_scenario="block_six",
    scenarios=_scenarios("urban"), new_game=_new_game("block_six"), agents=_agents,
    turn_limit=lambda game: game.scenario.turns,
))

RIFLES_DARKNESS = register(Ruleset(     # RD-GEN-1: the same engine with the Darkness module switched on
    name="rifles-darkness", gym_id="rubble/RiflesDarkness-v0", sides=("player", "enemy"),
    num_actions=NUM_ACTIONS, observation_size=SIZE, default_scenario="night_crossing",
    scenarios=_scenarios("darkness"), new_game=_new_game("night_crossing"), agents=_agents,
    turn_limit=lambda game: game.scenario.turns,
))
