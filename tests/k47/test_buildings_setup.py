"""KB-: set-up inside (KB-ENTER-5), Fixed weapons' openings (KB-FROM-5), artillery inside (KB-ART-1) and large
sections (KB-LARGE-1)."""
from __future__ import annotations

import numpy as np
import pytest
import yaml

from envs.engine.dice import ScriptedDice
from envs.engine.scenario import ScenarioError
from envs.k47 import config, geometry
from envs.k47.actions import CODEC
from envs.k47.flow import Decision
from envs.k47.ruleset import K47
from envs.k47.shooting import firing_weapons
from envs.k47.state import ORDERS

RS = K47()
A1, A4, B1, B3, B4 = 0, 3, 5, 7, 8
PASS = CODEC.encode("pass")


def order(name):
    return CODEC.encode("order", ORDERS.index(name))


def legal(g):
    return {CODEC.decode(int(a)) for a in np.flatnonzero(g.legal_action_mask())}


def idx(x, y):
    return y * 24 + x


def scenario_file(tmp_path, change):
    data = yaml.safe_load(open(config.scenario_path(None), encoding="utf-8"))
    change(data)
    path = tmp_path / "changed.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def test_KB_ENTER_5_set_up_inside_only_in_a_building_touching_the_set_up_zone(tmp_path):
    def change(d):
        d["sides"][0]["units"][0].pop("at")
        d["sides"][0]["units"][0]["in"] = {"section": "W", "floor": 1}      # W: rows 9-11; side A sets up in 15-17
    path = scenario_file(tmp_path, change)
    with pytest.raises(ScenarioError) as err:
        config.load_scenario(str(path))
    assert "sides[0].units[0].in" in str(err.value) and "set-up zone, rows 15..17 (KB-ENTER-5)" in str(err.value)


def test_KB_ENTER_5_the_defender_sets_up_on_any_free_floor_of_its_buildings(tmp_path):
    def change(d):
        d["sides"][1]["units"][1].pop("at")
        d["sides"][1]["units"][1]["in"] = {"section": "T2", "floor": 0}      # B2 on T2's free ground floor
    s = config.load_scenario(str(scenario_file(tmp_path, change)))
    b2 = s.units[6]
    assert (b2.cell, s.board.sections[b2.section].name, b2.floor) == (None, "T2", 0)


def test_KB_FROM_5_a_fixed_weapon_inside_needs_its_set_up_opening(tmp_path):
    def change(d):
        d["sides"][1]["units"][3].pop("fixed_opening")
    with pytest.raises(ScenarioError) as err:
        config.load_scenario(str(scenario_file(tmp_path, change)))
    assert "sides[1].units[3].fixed_opening" in str(err.value) and "KB-FROM-5" in str(err.value)


def test_KB_FROM_5_the_fixed_opening_changes_only_during_an_advance_or_run():
    g = RS.build_position({"only": ["A1", "B4"], "units": {"A1": {"at": [7, 6]}}, "decide": ["order", "B4"]},
                          ScriptedDice([]))
    b4, a1 = g.units[B4], g.units[A1]
    assert firing_weapons(g, b4, a1, False) == []                       # the south slit cannot see (7, 6)
    g.apply(order("advance"))
    g.apply(PASS)                                                        # stays in the bunker ...
    assert g.decision[0] == Decision.OPENING and g.current_side == 1    # ... and may re-designate its MMG's slit
    assert legal(g) == {("cell", (idx(3, 8),)), ("cell", (idx(4, 8),)), ("cell", (idx(5, 7),)), ("pass", ())}
    ev = g.apply(CODEC.encode("cell", idx(5, 7)))                       # the east slit of (4, 7)
    o = g.board.openings[b4.fixed_opening]
    assert (o.cell, o.side) == ((4, 7), "E") and "KB-FROM-5" in [e.rule for e in ev]
    assert [n for _, n, _, _ in firing_weapons(g, b4, a1, False)] == ["mmg"]


def test_KB_FROM_5_no_choice_under_a_fire_order_and_none_without_a_fixed_weapon():
    g = RS.build_position({"only": ["A1", "B4"], "units": {"A1": {"at": [7, 6]}}, "decide": ["order", "B4"]})
    g.apply(order("fire"))
    assert g.decision == (Decision.UNIT, {"side": 0})                   # no target through its slit; no choice
    g = RS.build_position({"only": ["A1", "B1"], "units": {"A1": {"at": [20, 16]}}, "decide": ["order", "B1"]})
    g.apply(order("advance"))
    g.apply(CODEC.encode("floor", g.units[B1].section, 2))
    assert g.decision[0] == Decision.TARGET and g.decision[1]["uid"] == B1   # straight on to its fire


def test_KB_FROM_5_leaving_drops_the_designation():
    g = RS.build_position({"only": ["A1", "B4"], "units": {"A1": {"at": [20, 16]}}, "decide": ["order", "B4"]})
    g.apply(order("run"))
    g.apply(CODEC.encode("cell", idx(3, 4)))                            # out by the door N(3,6), then on
    assert g.units[B4].cell == (3, 4) and g.units[B4].fixed_opening is None


def test_KB_ART_1_artillery_inside_fires_from_its_one_opening_and_never_enters():
    g = RS.build_position({"only": ["A1", "B3"], "decide": ["unit", 0]})
    b3 = g.units[B3]
    b3.kind, b3.fixed_opening = "artillery", g.board.section_named("T2").openings[-1]
    points = geometry.fire_points(g, b3, "bazooka")
    assert [o.index for _, o in points] == [b3.fixed_opening]
    g = RS.build_position({"only": ["A4", "B1"], "units": {"A4": {"at": [18, 13]}}, "decide": ["order", "A4"]})
    g.units[A4].kind = "artillery"
    g.refresh()
    g.apply(order("run"))
    assert not [a for a in legal(g) if a[0] == "enter"]


def large_town_hall(d):
    """T split into T0 (x5-7), T1 (x8-10) and T2 (x11-14, 8" wide), connected in a row."""
    for y in (5, 6, 7):
        row = list(d["map"][y])
        row[5:15] = list("VVVTTTUUUU")
        d["map"][y] = "".join(row)
    t = d["buildings"][0]
    t["connected"] = [["T0", "T1"], ["T1", "T2"]]
    t["sections"][1]["cells"] = [[11, 5], [14, 7]]
    for o in t["sections"][1]["openings"]:
        for key in ("edge", "edges"):
            edges = o.get(key)
            edges = [edges] if key == "edge" and edges else edges or []
            for e in edges:
                if e[2] == "E":
                    e[0] = 14
    t["sections"].insert(0, {"id": "T0", "cells": [[5, 5], [7, 7]], "floors": 1,
                             "openings": [{"floor": 0, "kind": "door", "edge": [6, 5, "N"]}]})


def test_KB_LARGE_1_no_two_section_run_into_a_section_wider_than_6_inches(tmp_path):
    path = scenario_file(tmp_path, large_town_hall)                     # a scenario file anywhere (position.py)
    g = RS.build_position({"scenario": path, "only": ["A1", "B1"], "units": {"B1": {"in": ["T0", 0]}},
                           "decide": ["order", "B1"]})
    t0, t1, t2 = (g.board.section_named(n).index for n in ("T0", "T1", "T2"))
    g.apply(order("run"))
    assert ("floor", (t1, 0)) in legal(g) and ("floor", (t2, 0)) not in legal(g)   # T2 is 8" wide
    g = RS.build_position({"scenario": path, "only": ["A1", "B1"], "units": {"B1": {"in": ["T2", 0]}},
                           "decide": ["order", "B1"]})
    g.apply(order("run"))
    assert ("floor", (t0, 0)) in legal(g)                               # the start section does not count
