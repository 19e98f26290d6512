"""The exact per-feature observation bounds (envs/k47/observation.py `bounds`): no observation of 1,000 seeded random
games leaves them, and every bound is reached by some game or documented as a cap."""
from __future__ import annotations

from fnmatch import fnmatchcase

import numpy as np

from envs import registry
from envs.k47 import geometry
from envs.k47.board import RUINED
from envs.k47.observation import CELLS_AT, GLOBAL_FEATURES, PIN_CAP, SIZE, UNIT, UNIT_FEATURES, UNITS_AT, encode, feature_names, terrain_cells
from tests import checkers

RULESET = registry.get("k47")
GAMES = checkers.env_int("RUBBLE_REACH_GAMES", 1000)
#: the scenario options played in turn (KC-SCN-11, KC-SCN-12)
VARIANTS = ({}, {"no_building_entry": True}, {"hidden_occupants": True}, {"pinned_out": False})
NAMES = feature_names()


def test_bounds_are_exact_where_the_scenario_fixes_a_feature():
    low, high = RULESET.observation_bounds()
    game = RULESET.new_game(seed=0)
    side_a = sum(1 for u in game.units if u.side == 0)
    assert high[GLOBAL_FEATURES.index("bag_a")] == np.float32(side_a / 16)          # KC-TURN-1: a die per unit
    assert (low[0], high[0]) == (np.float32(1 / 7), np.float32((game.scenario.turns + 1) / 7))   # KC-TURN-7
    pins = UNITS_AT + UNIT_FEATURES.index("pins")
    assert high[pins] == np.float32(PIN_CAP / 10)
    vehicle = next(u for u in game.units if u.vehicle)                                # KB-ENTER-1: never inside
    x = UNITS_AT + vehicle.uid * UNIT + UNIT_FEATURES.index("x")
    assert (low[x], high[x]) == (np.float32(0.5 / game.board.width), np.float32(1 - 0.5 / game.board.width))


def test_pins_past_the_cap_read_as_the_cap():
    game = RULESET.new_game(seed=0)
    unit = game.units[0]
    unit.pins = PIN_CAP + 7
    assert encode(game, 0)[UNITS_AT + unit.uid * UNIT + UNIT_FEATURES.index("pins")] == np.float32(PIN_CAP / 10)


def test_KB_RUIN_1_the_terrain_plane_reads_a_collapsed_section_as_rubble_cell_by_cell():
    game = RULESET.new_game(seed=0)
    for section in game.board.sections:
        game.section_state[section.index] = RUINED
    cells = [geometry.terrain_at(game, (x, y)) / 4 for y in range(game.board.height) for x in range(game.board.width)]
    assert np.array_equal(terrain_cells(game), np.array(cells, dtype=np.float32))
    assert np.array_equal(encode(game, 1)[CELLS_AT:CELLS_AT + len(cells)], np.array(cells, dtype=np.float32))


def test_observations_of_random_games_stay_inside_the_bounds_and_reach_every_bound_but_the_caps():
    _, _, constant = RULESET.exact_bounds()
    seen = checkers.SeenRange(RULESET, NAMES).play_games(RULESET, GAMES, VARIANTS)
    if GAMES >= 1000:
        low_caps, high_caps = caps()
        assert seen.unreached(constant | low_caps, constant | high_caps) == []


#: Bounds the rules allow but 1,000 random games do not reach, as name patterns. (pattern, end): why.
CAPS = {
    ("unit[[]*].x", "low"): "a vehicle on the west edge",
    ("unit[[]*].x", "high"): "a unit on the east edge",
    ("unit[[]*].y", "high"): "a unit on the south edge",
    ("unit[[]*].section", "high"): "infantry in the last section (KB-ENTER-1)",
    ("unit[[]*].floor", "high"): "infantry on the top floor",
    ("unit[[]*].pins", "high"): "PIN_CAP pins",
    **{(f"unit[[]*].{name}", "low"): "a unit wiped out by casualties (KC-SHOOT-9)"
       for name in ("models", "team", "heavy_weapon", "flamethrower", "indirect", "shots", "range")},
    ("vp_[ab]", "high"): "every objective held and every enemy unit destroyed (KC-SCN-9)",
    ("section[[]*].intact", "low"): "a section set alight or collapsed",
    ("section[[]*].burning", "high"): "a section set alight (KB-FLAME)",
    ("section[[]*].rubble", "high"): "a section collapsed (KB-RUIN-1)",
    ("terrain[[]*]", "low"): "a building cell after its section collapsed (KB-RUIN-1: the test above)",
    ("unit[[]0].inside", "high"): "A1 going inside: no random game takes it in (any infantry may, KB-ENTER-1)",
    ("unit[[]0].y", "low"): "A1 inside a building (its y reads 0 there), as above",
    # A4 starts in the south-west corner, far from a door: the 1,000 random games took it in before a hidden
    # occupant's impossible shots were rolled (KC-HID-9), which changed the dice of the hidden-variant games, and not since
    ("unit[[]3].inside", "high"): "A4 going inside (as A1)",
    ("unit[[]3].y", "low"): "A4 inside a building (its y reads 0 there)",
    ("declared_sides", "high"): "a unit inside declaring targets through all four sides of its section (KB-FROM-3)",
    ("declared_he", "high"): "a unit inside declaring HE through all four sides of its section (KB-FROM-3, KC-HE-1)",
    ("unit[[]*].fixed_opening", "high"): "a Fixed weapon designating its building's last opening (KB-FROM-5)",
}


def caps() -> tuple[np.ndarray, np.ndarray]:
    """CAPS as (low, high) bool arrays over the features."""
    ends = {"low": np.zeros(SIZE, dtype=bool), "high": np.zeros(SIZE, dtype=bool)}
    for (pattern, end), _ in CAPS.items():
        ends[end] |= np.array([fnmatchcase(name, pattern) for name in NAMES])
    return ends["low"], ends["high"]
