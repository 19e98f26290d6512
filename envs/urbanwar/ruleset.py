"""Urban War as the suite sees it (envs.engine.contract): "urbanwar" / "rubble/UrbanWar-v0"."""
from __future__ import annotations

import itertools

import numpy as np

from envs.engine.contract import GameState, LiveUnit, ObservationLayout, Ruleset
from envs.engine.scenario import loadable

from . import config, hidden, public, render, turns
from .actions import NUM_ACTIONS
from .game import UrbanWarGame
from .observation import SIZE_OBS, bounds, layout

#: the options that change the map or the profiles, so the fixed features (UW-SCEN-5, UW-SCEN-6)
VARIANTS = ("heavy_armour", "dense_terrain")


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

    def public_facts(self, state: GameState) -> tuple:
        return public.public_facts(state)   # UW-HID-1, UW-HID-4, UW-HID-8

    def picture_key(self, state=None) -> list[tuple]:
        return render.picture_key(state)

    def standing(self, state: UrbanWarGame, side: int) -> float:
        """UW-WIN-3's measure as the game stands: enemy models removed minus own models lost, over a side's size."""
        removed = turns.enemies_removed(state)
        size = max(len(state.side_models(0)), len(state.side_models(1)))
        return (removed[side] - removed[1 - side]) / size

    def turn_limit(self, state: UrbanWarGame) -> int:
        return state.scenario.turns

    # What a playtest counts (the contract's live_units, cell_box, cell_name)
    def live_units(self, state: UrbanWarGame) -> dict:
        """Every model on the board with wounds left (UW-SHOOT-11 removes the rest), by its id; its type is its
        profile's name, its cell (y, x) on the 48 x 48 grid."""
        return {m.id: LiveUnit(m.side, m.profile.name, divmod(m.cell, config.SIZE)) for m in state.models if m.placed}

    def cell_box(self, cell) -> tuple[int, int, int, int]:
        y, x = cell
        return x * render.PX, y * render.PX, (x + 1) * render.PX - 1, (y + 1) * render.PX - 1

    def cell_name(self, state: UrbanWarGame, cell) -> str:
        y, x = cell
        terrain = state.scenario.tables.terrain[state.board.chars[y * config.SIZE + x]]
        return f"({x},{y}) {terrain.name}"

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Per feature, over every scenario and its terrain and profile variants (observation.bounds)."""
        low, high, _ = self.exact_bounds()
        return low.copy(), high.copy()

    def observation_layout(self) -> ObservationLayout:
        """The three terrain planes (envs.urbanwar.observation.layout)."""
        return layout()

    def loadable(self) -> list[str]:
        """The names of the scenarios that load (envs.engine.scenario.loadable): one broken file fails only where
        it is played, not every env's observation spaces."""
        return sorted(loadable(self.scenarios(), config.load_scenario))

    def exact_bounds(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(low, high, constant): `constant` marks the features no game changes, widened to the unit interval."""
        if "_bounds" not in self.__dict__:
            games = [self.new_game(name, seed=0, **dict(zip(VARIANTS, flags)))
                     for name in self.loadable() for flags in itertools.product((False, True), repeat=len(VARIANTS))]
            self._bounds = bounds(games)
        return self._bounds
