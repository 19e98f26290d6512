"""Konflikt '47 core: the default scenario's set-up zones, options and length (KC-SCN-5, KC-SCN-10, KC-SCN-12)."""
from __future__ import annotations

import pytest

from agents.scripted.k47 import K47Scripted
from envs.engine.contract import decide
from envs.k47 import config
from tests.k47.core import RS, broken


def default():
    return config.load_scenario(config.scenario_path(None))


def test_KC_SCN_5_set_up_zones_and_regular_troops():
    s = default()
    assert s.zones == ((15, 17), (0, 7))
    for u in s.units:
        lo, hi = s.zones[u.side]
        rows = [u.cell[1]] if u.cell is not None else range(s.board.sections[u.section].y0,
                                                             s.board.sections[u.section].y1 + 1)
        assert any(lo <= y <= hi for y in rows), u.id
        assert u.quality == "regular"
    assert s.tables.quality["regular"] == (9, 4)


def test_KC_SCN_5_a_unit_outside_its_zone_fails_on_load(tmp_path):
    def outside(d):
        d["sides"][0]["units"][0]["at"] = [6, 14]
    msg = broken(tmp_path, outside, "outside")
    assert "sides[0].units[0].at" in msg and "rows 15..17" in msg

    def inside(d):
        d["sides"][0]["units"][0].pop("at")
        d["sides"][0]["units"][0]["in"] = {"section": "W", "floor": 0}
    msg = broken(tmp_path, inside, "inside")
    assert "sides[0].units[0].in" in msg and "rows 15..17" in msg

    def rows(d):
        d["sides"][1]["zone_rows"] = [7, 0]
    msg = broken(tmp_path, rows, "rows")
    assert "sides[1].zone_rows" in msg and "first <= last" in msg


def test_KC_SCN_10_a_default_game_lasts_6_or_7_turns_of_9_dice():
    # the mean decisions per game is measured with `simulate` (README, Measured); here the game's frame: 9 dice
    # in turn 1, the end after turn 6 or 7, and at least a unit and an order decision per activation (KC-DEC-1)
    for seed in (11, 12):
        g = RS.new_game(seed=seed)
        assert sum(g.bag.counts) + 1 == 9                        # 9 dice, one of them drawn
        agents = (K47Scripted(0), K47Scripted(1))
        kinds = []
        while not g.is_over:
            kinds.append(str(g.decision[0]))
            g.apply(decide(agents[g.current_side], g, g.current_side))
        wiped = any(not any(u.alive for u in g.units if u.side == side) for side in (0, 1))
        assert wiped or g.turn in (6, 7)
        assert kinds.count("unit") == kinds.count("order") and len(kinds) >= 2 * kinds.count("order")


def test_KC_SCN_12_variants_and_the_pinned_out_flag_are_options():
    assert default().options == {"no_building_entry": False, "hidden_occupants": False, "pinned_out": True}
    g = RS.new_game(seed=1, hidden_occupants=True, pinned_out=False)
    assert g.options["hidden_occupants"] is True and g.options["pinned_out"] is False
    with pytest.raises(ValueError):
        RS.new_game(seed=1, night_fighting=True)
