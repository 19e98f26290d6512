"""Urban War as the suite sees it (envs.engine.contract): "urbanwar" / "rubble/UrbanWar-v0"."""
from __future__ import annotations

from envs.engine.contract import GameState, Ruleset

from . import config, hidden
from .actions import NUM_ACTIONS
from .game import UrbanWarGame
from .observation import SIZE_OBS


class UrbanWar(Ruleset):
    name = "urbanwar"
    gym_id = "rubble/UrbanWar-v0"
    sides = ("team_a", "team_b")
    num_actions = NUM_ACTIONS
    observation_size = SIZE_OBS
    default_scenario = "block_7"
    state_type = UrbanWarGame
    rule_prefixes = ("UW-",)
    reaction_kinds = ("react",)          # UW-DEC-6, UW-HID-6

    def scenarios(self) -> dict[str, str]:
        return config.scenario_names()

    def new_game(self, scenario=None, seed=0, dice=None, **options) -> UrbanWarGame:
        return UrbanWarGame.new(scenario or self.default_scenario, seed=seed, dice=dice, **options)

    def build_position(self, spec: dict, dice=None, **options) -> UrbanWarGame:
        from .position import build_position
        return build_position(spec, dice, self.default_scenario, **options)

    def hidden_variants(self, state: GameState, side: int) -> list[GameState]:
        return hidden.hidden_variants(state, side)     # UW-HID-2, UW-HID-5, UW-HID-7

    def turn_limit(self, state: UrbanWarGame) -> int:
        return state.scenario.turns
