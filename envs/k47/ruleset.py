"""Konflikt '47 (buildings chapter) as the suite sees it (envs.engine.contract)."""
from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np

from envs.engine.contract import GameState, LiveUnit, ObservationLayout, Ruleset
from envs.engine.scenario import loadable, yaml_files

from . import config, hidden, public, render
from .actions import NUM_ACTIONS
from .game import K47Game
from .observation import PREFIX_SIZES, SIZE, bounds, layout

#: the scenario options (KC-SCN-11, KC-SCN-12): each may change where units start and what the flags show
OPTIONS = ("no_building_entry", "hidden_occupants", "pinned_out")


class K47(Ruleset):
    name = "k47"
    gym_id = "rubble/K47-v0"
    sides = ("A", "B")
    num_actions = NUM_ACTIONS
    observation_size = SIZE
    #: version 1 of the observation ended before the ranging-in planes (KC-HID-3): its actors read that prefix
    prefix_observation_sizes = PREFIX_SIZES
    default_scenario = "village_crossroads"
    state_type = K47Game
    rule_prefixes = ("KB-", "KC-", "KV-")
    #: KC-DEC-2: the non-acting side's reactions (offered on public facts only: the target's or ambusher's order
    #: die, ranges and LOS; nothing in a default game is hidden from the acting side)
    reaction_kinds = ("down", "react_fire", "ambush")

    def scenarios(self) -> dict[str, str]:
        return yaml_files(config.CONFIG_DIR / "scenarios")

    def new_game(self, scenario=None, seed=0, dice=None, **options) -> K47Game:
        scenario = scenario or self.default_scenario
        if str(scenario).endswith(".yaml"):   # a path (the contract): config.scenario_path names a file by its stem
            scenario = str(Path(scenario).resolve().with_suffix(""))
        return K47Game.new(scenario, seed=seed, dice=dice, **options)

    def build_position(self, spec: dict, dice=None, **options) -> K47Game:
        from .position import build_position
        return build_position(spec, dice, self.default_scenario, **options)

    def hidden_variants(self, state: GameState, side: int) -> list[GameState]:
        return hidden.hidden_variants(state, side)

    def public_facts(self, state: GameState) -> tuple:
        return public.public_facts(state)   # KC-HID-1/2/3/5

    def picture_key(self, state=None) -> list[tuple]:
        return render.picture_key(state)

    def turn_limit(self, state: K47Game) -> int:
        return state.scenario.turns + 1        # KC-TURN-7: a possible 7th turn

    # What a playtest counts (the contract's live_units, cell_box, cell_name)
    def live_units(self, state: K47Game) -> dict:
        """Every unit not destroyed, by its id; its type is its kind and quality (a vehicle's class), its cell (y, x):
        a unit inside stands in the middle cell of its section."""
        found = {}
        for u in state.living():
            if u.cell is not None:
                x, y = u.cell
            else:
                s = state.board.sections[u.section]
                x, y = (s.x0 + s.x1) // 2, (s.y0 + s.y1) // 2
            kind = f"{u.quality} {u.vclass or u.kind}"
            found[u.uid] = LiveUnit(u.side, kind, (y, x))
        return found

    def cell_box(self, cell) -> tuple[int, int, int, int]:
        y, x = cell
        return x * render.PX, y * render.PX, (x + 1) * render.PX - 1, (y + 1) * render.PX - 1

    def cell_name(self, state: K47Game, cell) -> str:
        y, x = cell
        inside = [s.name for s in state.board.sections if s.x0 <= x <= s.x1 and s.y0 <= y <= s.y1]
        return f"({x},{y})" + (f" section {inside[0]}" if inside else "")

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Per feature, over every scenario and option set (observation.bounds)."""
        low, high, _ = self.exact_bounds()
        return low.copy(), high.copy()

    def observation_layout(self) -> ObservationLayout:
        """The terrain of the board's cells as a plane (envs.k47.observation.layout)."""
        return layout()

    def exact_bounds(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(low, high, constant): `constant` marks the features no game changes, widened to the unit interval."""
        if "_bounds" not in self.__dict__:
            games = [self.new_game(name, seed=0, **dict(zip(OPTIONS, flags)))
                     for name in sorted(self.loadable()) for flags in itertools.product((False, True), repeat=len(OPTIONS))]
            self._bounds = bounds(games)
        return self._bounds

    def loadable(self) -> list[str]:
        """The names of the scenarios that load (envs.engine.scenario.loadable)."""
        return sorted(loadable(self.scenarios(), config.load_scenario))

