"""Konflikt '47 core: the board, its cells and its buildings (KC-MAP, KB-GRID), each rule by an exact outcome."""
from __future__ import annotations

import pytest
import yaml

from envs.engine.scenario import ScenarioError
from envs.k47 import config, geometry
from envs.k47.actions import CODEC
from envs.k47.board import BUILDING, BUNKER, OPEN, RUBBLE, SCRUB, inches
from envs.k47.shooting import firing_weapons, need
from tests.k47.core import A1, A2, B1, B2, B3, cell, game, names, order


def test_KC_MAP_1_board_is_24_by_18_cells_of_2_inches():
    b = game({"only": ["A1"]}).board
    assert (b.width, b.height, b.cell_in) == (24, 18, 2.0)
    assert inches((0, 0), (b.width, 0), b.cell_in) == 48.0 and inches((0, 0), (0, b.height), b.cell_in) == 36.0
    assert b.in_bounds((23, 17)) and not b.in_bounds((24, 17)) and not b.in_bounds((0, 18))


def test_KC_MAP_2_distance_is_cell_in_times_euclid_and_a_limit_holds_at_equality():
    assert inches((0.5, 0.5), (3.5, 4.5), 2.0) == 10.0
    at_24 = game({"only": ["A1", "B2"], "units": {"A1": {"at": [2, 16]}, "B2": {"at": [2, 4]}}})
    fired = firing_weapons(at_24, at_24.units[A1], at_24.units[B2], False)
    assert set(names(fired)) == {"lmg", "rifle"} and {d for *_, d, _ in fired} == {24.0}   # rifles at exactly 24"
    at_26 = game({"only": ["A1", "B2"], "units": {"A1": {"at": [2, 16]}, "B2": {"at": [2, 3]}}})
    assert names(firing_weapons(at_26, at_26.units[A1], at_26.units[B2], False)) == ["lmg"]


def test_KC_MAP_2_height_is_ignored():
    # B1 on floor 1 and on floor 2 of T1 measure from the same window point S(9,7): 5" to A1 at (9,10)
    low = game({"only": ["A1", "B1"], "units": {"A1": {"at": [9, 10]}, "B1": {"in": ["T1", 1]}}})
    high = game({"only": ["A1", "B1"], "units": {"A1": {"at": [9, 10]}, "B1": {"in": ["T1", 2]}}})
    assert geometry.sight(low, low.units[B1], "rifle", low.units[A1])[0] == 5.0
    assert geometry.sight(high, high.units[B1], "rifle", high.units[A1])[0] == 5.0


def test_KC_MAP_3_one_unit_per_cell_a_move_never_ends_on_a_friend():
    g = game({"only": ["A1", "A2", "B2"], "units": {"A1": {"at": [2, 16]}, "A2": {"at": [2, 15]}, "B2": {"at": [20, 2]}},
              "decide": ["order", "A1"]}, [1])
    g.apply(order("advance"))
    mask = g.legal_action_mask()
    assert not mask[cell(2, 15)] and mask[cell(2, 14)]
    g.apply(cell(2, 14))
    assert g.units[A1].cell == (2, 14) and (g.units[A1].section, g.units[A2].cell) == (None, (2, 15))


def test_KC_MAP_3_a_unit_inside_has_no_cell():
    g = game({"only": ["B1", "A1"]})
    b1 = g.units[B1]
    assert b1.cell is None and (g.board.sections[b1.section].name, b1.floor) == ("T1", 1)


def test_KC_MAP_5_a_path_crosses_friends_but_not_enemies():
    # (2,13) is 6" straight north of A1 through (2,15); any way round costs 8"
    friend = game({"only": ["A1", "A2"], "units": {"A1": {"at": [2, 16]}, "A2": {"at": [2, 15]}}})
    enemy = game({"only": ["A1", "B2"], "units": {"A1": {"at": [2, 16]}, "B2": {"at": [2, 15]}}})
    assert geometry.reach(friend, friend.units[A1], 6.0)[(2, 13)] == 6.0
    assert (2, 13) not in geometry.reach(enemy, enemy.units[A1], 6.0)
    assert geometry.reach(enemy, enemy.units[A1], 8.0)[(2, 13)] == 8.0


def test_KC_MAP_5_a_path_goes_round_a_building_and_stays_on_the_board():
    g = game({"only": ["A1"], "units": {"A1": {"at": [16, 10]}}})
    costs = geometry.reach(g, g.units[A1], 40.0)
    # through W (x17-19) would be 8"; round it by row 8 without clipping its corners (KC-MAP-4): 16"
    assert costs[(20, 10)] == 16.0
    assert not any(g.board.section_at(c) is not None for c in costs)
    corner = game({"only": ["A1"], "units": {"A1": {"at": [0, 17]}}})
    assert all(corner.board.in_bounds(c) for c in geometry.reach(corner, corner.units[A1], 12.0))


def test_KC_MAP_5_burning_sections_block_paths():
    g = game({"only": ["A1"], "units": {"A1": {"at": [16, 10]}}, "sections": {"W": "burning"}})
    assert g.board.section_at((18, 10)) is not None and not geometry.passable(g, (18, 10))
    ruined = game({"only": ["A1"], "units": {"A1": {"at": [16, 10]}}, "sections": {"W": "rubble"}})
    assert geometry.reach(ruined, ruined.units[A1], 40.0)[(20, 10)] == 8.0   # collapsed: rubble, passable


def test_KC_MAP_8_each_cell_is_open_scrub_rubble_building_or_bunker():
    g = game({"only": ["A1", "B2"], "units": {"A1": {"at": [2, 16]}}})
    t = g.board.terrain
    assert (t[0][0], t[1][4], t[10][3], t[5][8], t[6][3]) == (OPEN, SCRUB, RUBBLE, BUILDING, BUNKER)
    assert {k for row in t for k in row} == {OPEN, SCRUB, RUBBLE, BUILDING, BUNKER}
    a1, b2 = g.units[A1], g.units[B2]
    # scrub is soft cover (-1), rubble hard cover (-2), open none: rifle at 10" needs 3+ base
    for where, needed in (((2, 9), 3), ((4, 1), 4), ((3, 10), 5)):
        b2.cell = where
        assert need(g, a1, "rifle", b2, 10.0, False) == needed, where
    assert geometry.passable(g, (3, 10)) and not geometry.passable(g, (8, 5)) and not geometry.passable(g, (3, 6))


def test_KC_MAP_9_cover_is_0_from_every_point_outside_the_sheltered_cells():
    """geometry.sheltered_cells, which the scripted player's move search reads instead of asking `cover` of every
    cell: off it, cover is 0 from every shooter point; on it, a scrub or rubble cell is within one step."""
    for sections in ({}, {"W": "rubble"}):
        g = game({"only": ["A1"], "units": {"A1": {"at": [2, 16]}}, "sections": sections})
        sheltered = geometry.sheltered_cells(g)
        points = [(x + 0.5, y + 0.5) for x in range(0, 24, 5) for y in range(0, 18, 4)]
        for x in range(g.board.width):
            for y in range(g.board.height):
                near = {geometry.terrain_at(g, (x + dx, y + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                        if g.board.in_bounds((x + dx, y + dy))}
                assert ((x, y) in sheltered) == bool(near & {SCRUB, RUBBLE}), (x, y)
                if (x, y) not in sheltered:
                    assert all(geometry._cover(g, p, (x, y)) == 0 for p in points), (x, y)
    assert (20, 10) in sheltered                                     # W collapsed: its cells are rubble


def test_KB_GRID_2_sections_of_one_building_connect_different_buildings_never():
    b = game({"only": ["A1"]}).board
    t1, t2, w = (b.section_named(n).index for n in ("T1", "T2", "W"))
    assert b.are_connected(t1, t2) and not b.are_connected(t1, w) and not b.are_connected(t2, w)


def write(tmp_path, change, name="scenario"):
    data = yaml.safe_load(open(config.scenario_path(None), encoding="utf-8"))
    change(data)
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data))
    return str(path)


def test_KB_GRID_2_connected_by_default_unless_the_scenario_lists_otherwise(tmp_path):
    def drop(d):
        del d["buildings"][0]["connected"]
    board = config.load_scenario(write(tmp_path, drop, "default")).board
    assert board.are_connected(board.section_named("T1").index, board.section_named("T2").index)

    def none(d):
        d["buildings"][0]["connected"] = []
    board = config.load_scenario(write(tmp_path, none, "none")).board
    assert not board.are_connected(board.section_named("T1").index, board.section_named("T2").index)


def test_KB_GRID_3_floors_0_to_F_minus_1_with_the_sections_footprint():
    g = game({"only": ["B1", "A1"], "units": {"B1": {"in": ["T1", 2]}}, "decide": ["order", "B1"]})
    b = g.board
    assert (b.section_named("T1").floors, b.section_named("W").floors, b.section_named("K").floors) == (3, 2, 1)
    g.apply(order("run"))
    legal = {CODEC.decode(int(a)) for a in g.legal_action_mask().nonzero()[0]}
    t1, t2 = b.section_named("T1").index, b.section_named("T2").index
    assert legal == {("pass", ()), ("floor", (t1, 1)), ("floor", (t1, 0)), ("floor", (t2, 2))}   # no floor 3
    assert all(b.sections[o.section].contains(o.cell) for o in b.openings)   # every floor on the same cells


def test_KB_GRID_3_a_floor_outside_the_section_fails_on_load(tmp_path):
    def change(d):
        d["sides"][1]["units"][0]["in"]["floor"] = 3
    with pytest.raises(ScenarioError) as err:
        config.load_scenario(write(tmp_path, change))
    assert "sides[1].units[0].in.floor" in str(err.value)


def test_KB_GRID_5_a_building_is_wooden_brick_or_bunker(tmp_path):
    b = game({"only": ["A1"]}).board
    assert [(s.name, s.material) for s in b.sections] == [("T1", "brick"), ("T2", "brick"), ("W", "wooden"),
                                                          ("K", "bunker")]

    def change(d):
        d["buildings"][2]["material"] = "stone"
    with pytest.raises(ScenarioError) as err:
        config.load_scenario(write(tmp_path, change))
    assert "buildings[2].material" in str(err.value) and "wooden" in str(err.value)


def test_KB_GRID_6_a_floor_holds_one_unit_of_either_side():
    # A1 cannot enter W's floor 0 held by its friend A2 (nor move there); enemy-held floors only by assault
    g = game({"only": ["A1", "A2", "B2"], "units": {"A1": {"at": [18, 13]}, "A2": {"in": ["W", 0]}},
              "decide": ["order", "A1"]})
    g.apply(order("run"))
    w = g.board.section_named("W").index
    mask = g.legal_action_mask()
    assert not mask[CODEC.encode("enter", w)] and not mask[CODEC.encode("assault", A2)]
    inside = game({"only": ["B1", "B3", "A1"], "units": {"B1": {"in": ["T2", 1]}, "B3": {"in": ["T2", 2]}},
                   "decide": ["order", "B1"]})
    inside.apply(order("advance"))
    legal = {CODEC.decode(int(a)) for a in inside.legal_action_mask().nonzero()[0]}
    assert ("floor", (inside.board.section_named("T2").index, 2)) not in legal


def test_KB_GRID_7_within_1_inch_one_at_an_opening_means_on_a_floor0_openings_outside_cell():
    # W's floor-0 openings: doors N(18,9), S(18,11), windows W(17,10), E(19,10); (16,9) touches the west wall at a
    # corner only, (17,8) the north wall at a plain edge: neither is an entry cell
    g = game({"only": ["A1", "B2"], "units": {"A1": {"at": [16, 13]}}, "decide": ["order", "A1"]})
    from envs.k47.movement import entry_cell
    w = g.board.section_named("W").index
    reach = geometry.reach(g, g.units[A1], 12.0)
    assert entry_cell(g, g.units[A1], w, reach) == ((18, 12), 5.0)          # the outside cell of door S(18,11)
    outside = {g.board.openings[i].outside for i in g.board.sections[w].openings if g.board.openings[i].floor == 0}
    assert outside == {(18, 8), (18, 12), (16, 10), (20, 10)}
    blocked = game({"only": ["A1", "A2", "A3", "A4", "B2"], "units": {"A1": {"at": [16, 13]}, "A2": {"at": [18, 12]},
                    "A3": {"at": [16, 10]}, "A4": {"at": [20, 10]}}, "decide": ["order", "A1"]})
    # with the south door's and the windows' cells taken, the north door (14" round W) is beyond a 12" Run
    assert entry_cell(blocked, blocked.units[A1], w, geometry.reach(blocked, blocked.units[A1], 12.0)) is None


def test_KB_GRID_8_an_opening_is_seen_only_from_strictly_outside_its_wall_line():
    g = game({"only": ["A1", "B1"], "units": {"A1": {"at": [7, 8]}}})
    b1 = g.units[B1]
    # A1's centre (7.5, 8.5) is west of the W wall line x = 8 and south of the S wall line y = 8: both visible
    assert geometry.outside_wall((7.5, 8.5), (8, 6), "W") and geometry.outside_wall((7.5, 8.5), (9, 7), "S")
    assert not geometry.outside_wall((8.0, 8.5), (8, 6), "W")                 # on the line is not outside
    g.units[A1].cell = (8, 8)                                                 # (8.5, 8.5): inside the W wall line
    aims = {(c, s) for _, c, s in geometry.aim_points(g, b1, "rifle")}
    assert aims == {((9, 5), "N"), ((9, 7), "S"), ((8, 6), "W")}
    d, point, _ = geometry.sight(g, g.units[A1], "rifle", b1)
    assert point == (8.5, 8.5) and d == pytest.approx(2 * (1 + 0.5 ** 2) ** 0.5)   # to S(9,7) at (9.5, 8)
    north = game({"only": ["A1", "B1"], "units": {"A1": {"at": [9, 3]}}})
    assert geometry.sight(north, north.units[A1], "rifle", north.units[B1])[0] == 3.0     # N(9,5) only


def test_KB_GRID_8_a_wall_is_visible_if_one_of_its_edge_midpoints_is():
    g = game({"only": ["A1", "B1"], "units": {"A1": {"at": [15, 6]}}})
    t1, t2 = g.board.section_named("T1").index, g.board.section_named("T2").index
    assert g.sees_section(g.units[A1], t2) and not g.sees_section(g.units[A1], t1)   # T1 hidden behind T2


def test_KB_GRID_9_each_section_is_a_building_of_its_own_for_occupancy_burning_and_collapse():
    g = game({"only": ["B1", "B3", "A1"], "units": {"B1": {"in": ["T1", 0]}, "B3": {"in": ["T2", 0]}}})
    t1, t2 = g.board.section_named("T1").index, g.board.section_named("T2").index
    g.check_invariants()                                                     # floor 0 of each: two occupants
    g.collapse(t1, "KB-HE-5")
    assert not g.units[B1].alive and g.units[B3].alive
    assert (g.section_state[t1], g.section_state[t2]) == ("rubble", "intact")
    from envs.k47.flames import catch_fire
    g2 = game({"only": ["B1", "B3", "A1"], "units": {"B1": {"in": ["T1", 0]}, "B3": {"in": ["T2", 0]}}}, [5, 4])
    catch_fire(g2, t2)
    assert (g2.section_state[t1], g2.section_state[t2]) == ("intact", "burning") and g2.units[B1].section == t1


def test_KB_GRID_10_wall_points_and_distances_to_and_between_sections():
    b = game({"only": ["A1"]}).board
    t1, t2, w, k = (b.section_named(n).index for n in ("T1", "T2", "W", "K"))
    assert len(b.sections[t1].wall_points()) == 12 and (9.5, 5.0) in b.sections[t1].wall_points()
    assert b.section_distance(t1, t2) == 0.0                                 # sharing a wall
    assert b.section_distance(t2, w) == pytest.approx(2 * (3 ** 2 + 2 ** 2) ** 0.5)   # (14, 7.5) to (17, 9.5)
    assert b.section_distance(k, t1) == pytest.approx(2 * (8 - 5))           # (5, 6.5) to (8, 6.5)
    # a point to the nearest perimeter point, visible or not: (18.5, 13.5) to S(18,11) = (18.5, 12)
    assert b.distance_to_section((18.5, 13.5), w) == 3.0
    assert b.distance_to_section((18.5, 7.5), w) == 3.0
