"""The Rifles rulesets as the suite sees them (envs.engine.contract): urban warfare and Rifles in the Darkness."""
from __future__ import annotations

from envs.engine.contract import GameState, LiveUnit, ObservationLayout, Ruleset
from envs.engine.scenario import loadable

from . import config, hidden, public, render
from .actions import NUM_ACTIONS
from .game import RiflesGame
from .observation import PREFIX_SIZES, SIZE, bounds, layout


class Rifles(Ruleset):
    """What both Rifles modules share: one engine, switched by the scenario's modules."""

    sides = ("player", "enemy")
    num_actions = NUM_ACTIONS
    observation_size = SIZE
    #: version 1 of the observation ended before the Exposed Movement block (RU-EXP-1): its actors read that prefix
    prefix_observation_sizes = PREFIX_SIZES
    state_type = RiflesGame
    rule_prefixes = ("RB-", "RU-", "RD-")
    #: the module a scenario must switch on to belong to this ruleset
    module: str

    def scenarios(self) -> dict[str, str]:
        return {name: path for name, path in config.scenario_files().items() if self.module in config.scenario_modules(path)}

    def new_game(self, scenario=None, seed=0, dice=None, **options) -> RiflesGame:
        return RiflesGame.new(scenario or self.default_scenario, seed=seed, dice=dice, **options)

    def build_position(self, spec: dict, dice=None, **options) -> RiflesGame:
        from .position import build_position
        return build_position(spec, dice, self.default_scenario, **options)

    def hidden_variants(self, state: GameState, side: int) -> list[GameState]:
        return hidden.hidden_variants(state, side)   # RB-HID-3..5

    def public_facts(self, state: GameState) -> tuple:
        return public.public_facts(state)   # RB-HID-1, RB-HID-3

    def observation_bounds(self):
        """Over every scenario of this ruleset (envs.rifles.observation.bounds)."""
        if "_bounds" not in self.__dict__:
            self._bounds = bounds(list(loadable(self.scenarios(), config.load_scenario).values()))
        return self._bounds[0].copy(), self._bounds[1].copy()

    def observation_layout(self) -> ObservationLayout:
        """The six Stripes of the map as a row of squares (envs.rifles.observation.layout)."""
        return layout()

    def picture_key(self, state=None) -> list[tuple]:
        return render.picture_key(state)

    def turn_limit(self, state: RiflesGame) -> int:
        return state.scenario.turns

    # What a playtest counts (the contract's live_units, cell_box, cell_name)
    def live_units(self, state: RiflesGame) -> dict:
        """Every soldier still on the table; his type is his weapon (leaders marked), his cell (Stripe, place)."""
        return {(group.side, unit.name): LiveUnit(group.side, unit.kind or unit.weapon + (" leader" if unit.leader else ""),
                                                  (group.stripe, group.place))
                for group in state.players + state.enemies for unit in group.units}

    def cell_box(self, cell) -> tuple[int, int, int, int]:
        stripe, place = cell
        top = render.HEADER + (render.STRIPES - stripe) * render.CELL_H   # as render draws it: Stripe 6 at the top
        return place * render.CELL_W, top, place * render.CELL_W + render.CELL_W - 1, top + render.CELL_H - 1

    def cell_name(self, state: RiflesGame, cell) -> str:
        stripe, place = cell
        feature = state.places[stripe][place]
        return f"Stripe {stripe} " + ("Open" if feature is None else f"{feature.fid} ({feature.kind})")


class RiflesUrban(Rifles):
    name = "rifles-urban"
    gym_id = "rubble/RiflesUrban-v0"
    default_scenario = "block_six"
    module = "urban"


class RiflesDarkness(Rifles):   # RD-GEN-1: the same engine with the Darkness module switched on
    name = "rifles-darkness"
    gym_id = "rubble/RiflesDarkness-v0"
    default_scenario = "night_crossing"
    module = "darkness"
