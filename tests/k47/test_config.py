"""Konflikt '47 tables and scenario files: the default loads as the catalog sets it up (KC-SCN-1..12), and each bad
input fails in one line naming the file, the field and what was expected."""
from __future__ import annotations

import pytest

from envs.engine.scenario import ScenarioError
from envs.k47 import config
from envs.k47.board import BUILDING, BUNKER, RUBBLE, SCRUB
from tests.k47.core import broken


def default():
    return config.load_scenario(config.scenario_path(None))


def test_KC_SCN_1_map_terrain_and_size():
    s = default()
    b = s.board
    assert (b.width, b.height, b.cell_in) == (24, 18, 2.0)
    assert b.terrain[1][4] == SCRUB and b.terrain[3][10] == RUBBLE
    assert b.terrain[5][8] == BUILDING and b.terrain[6][3] == BUNKER


def test_KC_SCN_2_town_hall_sections_floors_openings():
    b = default().board
    t1, t2 = b.section_named("T1"), b.section_named("T2")
    assert (t1.x0, t1.y0, t1.x1, t1.y1, t1.floors, t1.material) == (8, 5, 10, 7, 3, "brick")
    assert b.are_connected(t1.index, t2.index)
    doors = [b.openings[i] for i in t1.openings if b.openings[i].kind == "door"]
    assert [(o.cell, o.side, o.floor, o.outside) for o in doors] == [((9, 5), "N", 0, (9, 4))]
    assert len(t1.openings) == 9 and len(t2.openings) == 9


def test_KC_SCN_3_and_KC_SCN_4_house_and_bunker():
    b = default().board
    w, k = b.section_named("W"), b.section_named("K")
    assert (w.floors, w.material, len(w.openings)) == (2, "wooden", 8)
    slits = sorted((b.openings[i].cell, b.openings[i].side) for i in k.openings if b.openings[i].kind == "slit")
    assert slits == [((3, 7), "S"), ((4, 7), "E"), ((4, 7), "S")]
    assert (k.width, k.depth) == (2, 2)          # KB-GRID-1: bunkers exempt from 3..4


def test_KC_SCN_6_KC_SCN_7_units_and_KC_SCN_11_variant():
    s = default()
    by_id = {u.id: u for u in s.units}
    assert [u.id for u in s.units if u.side == 0] == ["A1", "A2", "A3", "A4", "A5"]
    assert len(by_id["A1"].models) == 8 and by_id["A3"].small and by_id["A5"].vehicle_class == "heavy_tank"
    assert (s.board.sections[by_id["B1"].section].name, by_id["B1"].floor) == ("T1", 1)
    assert s.board.openings[by_id["B4"].fixed_opening].cell == (4, 7)
    assert s.variants["no_building_entry"] == {"B1": (9, 4), "B3": (12, 4), "B4": (3, 5)}
    assert s.options == {"no_building_entry": False, "hidden_occupants": False, "pinned_out": True}


def test_KC_TAB_3_KC_TAB_4_tables_load():
    t = default().tables
    assert t.weapons["lmg"].shots == 4 and t.weapons["lmg"].small_arms
    assert t.weapons["bazooka"].pen == 5 and "shaped" in t.weapons["bazooka"].rules
    assert t.weapons["light_mortar"].min_range == 12 and t.weapons["light_mortar"].he == "D3"
    assert t.he["2D6"] == (3, "D3") and t.quality["regular"] == (9, 4)
    assert t.vehicle_damage["heavy_tank"] == 10


def test_two_units_on_one_floor_fail(tmp_path):
    def change(d):
        d["sides"][1]["units"][2]["in"] = {"section": "T1", "floor": 1}
    msg = broken(tmp_path, change)
    assert "sides[1].units[2].in" in msg and "B1 is there" in msg


def test_opening_on_missing_wall_fails(tmp_path):
    def change(d):
        d["buildings"][0]["sections"][0]["openings"][0]["edge"] = [9, 6, "N"]   # an inner edge
    msg = broken(tmp_path, change)
    assert "buildings[0].sections[0].openings[0].edge" in msg and "outer wall edge of section T1" in msg


def test_section_larger_than_catalog_allows_fails(tmp_path):
    def change(d):
        d["map"][5] = "........TTTTTU.........."
        d["buildings"][0]["sections"][0]["cells"] = [[8, 5], [12, 7]]
    msg = broken(tmp_path, change)
    assert "buildings[0].sections[0].cells" in msg and "3..4 cells a side" in msg and "5x3" in msg


def test_unit_in_unknown_building_fails(tmp_path):
    def change(d):
        d["sides"][1]["units"][0]["in"]["section"] = "Q9"
    msg = broken(tmp_path, change)
    assert "sides[1].units[0].in.section" in msg and "building section" in msg


def test_unknown_option_and_bad_weapon_fail(tmp_path):
    msg = broken(tmp_path, lambda d: d["options"].update(night=True))
    assert "options.night" in msg
    msg = broken(tmp_path, lambda d: d["sides"][0]["units"][0]["models"][0].update(weapon="laser"))
    assert "sides[0].units[0].models[0].weapon" in msg


def test_a_to_hit_typo_in_the_tables_is_refused_with_the_nearest_modifier(tmp_path):
    """KC-TAB-2: every modifier the shooting rules read is declared; a misspelt one no longer loads unnoticed."""
    text = (config.CONFIG_DIR / "tables" / "k47.yaml").read_text(encoding="utf-8")
    path = tmp_path / "k47.yaml"
    path.write_text(text.replace("  bunker: -4", "  bunkr: -4"), encoding="utf-8")
    with pytest.raises(ScenarioError) as err:
        config.load_tables(str(path))
    line = text.splitlines().index("  bunker: -4") + 1
    assert str(err.value).startswith(f"{path}:{line}: field 'to_hit.bunkr': expected a known field, got an unknown one "
                                     "(did you mean 'bunker'? known: base, bunker, down, ")


def test_a_table_value_out_of_range_names_the_whole_range(tmp_path):
    text = (config.CONFIG_DIR / "tables" / "k47.yaml").read_text(encoding="utf-8")
    path = tmp_path / "k47.yaml"
    path.write_text(text.replace("regular: {morale: 9,", "regular: {morale: 13,"), encoding="utf-8")
    with pytest.raises(ScenarioError) as err:
        config.load_tables(str(path))
    line = text.splitlines().index("  regular: {morale: 9, damage: 4}") + 1
    assert str(err.value) == f"{path}:{line}: field 'quality.regular.morale': expected an integer in 2..12, got 13"
