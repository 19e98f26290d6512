"""Cityfight as the suite sees it (envs.engine.contract): "cityfight" / "rubble/Cityfight-v0"."""
from __future__ import annotations

from envs.engine.contract import GameState, ObservationLayout, Ruleset
from envs.engine.scenario import loadable

from . import config, hidden, public, render
from .actions import NUM_ACTIONS
from .flow import Decision
from .game import CityfightGame
from .observation import SIZE, bounds, layout


class Cityfight(Ruleset):
    name = "cityfight"
    gym_id = "rubble/Cityfight-v0"
    sides = ("attacker", "defender")
    num_actions = NUM_ACTIONS
    observation_size = SIZE
    default_scenario = "office_block"
    state_type = CityfightGame
    rule_prefixes = ("CF-",)
    reaction_kinds = (Decision.RETURN_FIRE, Decision.OVERWATCH_FIRE)   # CF-HID-4

    def scenarios(self) -> dict[str, str]:
        return config.scenario_names()

    def new_game(self, scenario=None, seed=0, dice=None, **options) -> CityfightGame:
        return CityfightGame.new(scenario or self.default_scenario, seed=seed, dice=dice, **options)

    def build_position(self, spec: dict, dice=None, **options) -> CityfightGame:
        from .position import build_position
        return build_position(spec, dice, self.default_scenario, **options)

    def hidden_variants(self, state: GameState, side: int) -> list[GameState]:
        return hidden.hidden_variants(state, side)   # CF-HID-3, CF-HID-15

    def public_facts(self, state: GameState) -> tuple:
        return public.public_facts(state)   # CF-HID-1, CF-OW-1, CF-HID-9, CF-HID-11

    def observation_bounds(self):
        """Over every table file a scenario may name (envs.cityfight.observation.bounds)."""
        if "_bounds" not in self.__dict__:
            tables = list(loadable(config.table_files(), config.load_tables).values())
            self._bounds = bounds(tables)
        return self._bounds[0].copy(), self._bounds[1].copy()

    def observation_layout(self) -> ObservationLayout:
        """The squares' planes (envs.cityfight.observation.layout)."""
        return layout()

    def picture_key(self, state=None) -> list[tuple]:
        return render.picture_key(state)

    def turn_limit(self, state: CityfightGame) -> int:
        return state.scenario.turns
