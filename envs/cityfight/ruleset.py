"""Cityfight as the suite sees it (envs.engine.contract): "cityfight" / "rubble/Cityfight-v0"."""
from __future__ import annotations

from envs.engine.contract import GameState, LiveUnit, ObservationLayout, Ruleset
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

    # What a playtest counts (the contract's live_units, cell_box, cell_name)
    def live_units(self, state: CityfightGame) -> dict:
        """Every element not dead, by its slot; its type is its element row's name, its cell (y, x)."""
        from .state import DEAD

        found = {}
        for side in (0, 1):
            for e in state.elements[side]:
                if e.square != DEAD:
                    x, y = state.board.xy(e.square)
                    found[(side, e.slot)] = LiveUnit(side, state.tables.elements[e.row].name, (y, x))
        return found

    def cell_box(self, cell) -> tuple[int, int, int, int]:
        y, x = cell
        c, top, left = render.CELL, render.HEADER, render.MARGIN
        return left + x * c, top + y * c, left + x * c + c - 1, top + y * c + c - 1

    def cell_name(self, state: CityfightGame, cell) -> str:
        y, x = cell
        return state.name(y * state.board.width + x)
