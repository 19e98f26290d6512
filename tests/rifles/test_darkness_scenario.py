"""Night Crossing, its variants and the Darkness data files (rules catalog §15 RD-SCN / RD-VAR, §16 RD-TAB-1).

A bad Darkness file fails on load naming the file and the field (envs.engine.scenario.ScenarioError).
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from envs.engine.scenario import ScenarioError
from envs.rifles import config, enemy
from envs.rifles.game import RiflesGame
from envs.rifles.state import QUALITY

from .builders import act, assert_illegal, dark, dice, enemy_turn, kinds, legal, legal_actions, night, player, put, ready, texts

SCENARIO = config.CONFIG_DIR / "scenarios" / "night_crossing.yaml"
TABLES = config.CONFIG_DIR / "tables" / "darkness.yaml"
WEAPONS = tuple(config.load_tables(str(config.CONFIG_DIR / "tables" / "standard.yaml")).weapons)


# RD-SCN-1 -----------------------------------------------------------------------------------------
def test_RD_SCN_1_setup_groups_on_stripe_one_markers_as_shown():
    game = RiflesGame.new("night_crossing", seed=0)
    assert [(g.name, g.stripe, game.place_name(g.stripe, g.place)) for g in game.players] == \
        [("P", 1, "Stripe 1 Open"), ("Q", 1, "1a (wall)")]
    assert [(m.name, m.stripe) for m in game.markers] == [("K1", 3), ("K2", 3), ("K3", 4), ("K4", 5), ("K5", 6)]
    assert game.enemies == [] and game.decision == ("player", {})     # RB-EM-2 ran: no marker within range 1
    feature_kinds = {f.fid: f.kind for stripe in game.places[1:] for f in stripe[1:]}
    assert feature_kinds == {"1a": "wall", "2a": "woods", "2b": "building", "3a": "wall", "4a": "building",
                             "4b": "woods", "5a": "wall", "5b": "woods", "6a": "woods", "6b": "building"}
    assert game.scenario.reveal_table[4] == (("stalker", False),)     # RD-TAB-2


# RD-SCN-2 -----------------------------------------------------------------------------------------
def test_RD_SCN_2_the_squad_and_its_resources():
    game = night()
    q = {0: "recruit", 1: "regular", 2: "veteran"}
    assert [[(u.name, q[u.quality], u.weapon, u.leader) for u in g.units] for g in game.players] == [
        [("P1", "veteran", "smg", True), ("P2", "regular", "rifle", False), ("P3", "regular", "rifle", False),
         ("P4", "recruit", "rifle", False)],
        [("Q1", "regular", "rifle", True), ("Q2", "regular", "lmg", False), ("Q3", "regular", "flamethrower", False)]]
    assert (game.ap, game.recon, game.scenario.recon_points) == (4, 1, 1)
    assert all(g.demo_charges == 0 and not g.sewers for g in game.players)
    assert game.scenario.sewer_stripes == frozenset()
    ready(game, "P")
    assert not any(a[0].startswith(("sewer", "demo")) for a in legal_actions(game))


# RD-SCN-3 -----------------------------------------------------------------------------------------
def test_RD_SCN_3_win_at_once_when_four_units_have_exited():
    game = night()
    q = ready(game, "Q", 6)
    act(game, "exit")                        # 3 units: not yet
    assert game.outcome is None and game.exited_units == 3 and q.exited
    ready(game, "P", 6)
    events = act(game, "exit")
    assert game.outcome == 1 and game.exited_units == 7 and game.returns() == (1.0, -1.0)
    assert texts(events, "game_over") == ["player wins: enough units have exited"]


def test_RD_SCN_3_exit_only_from_stripe_six():
    game = night()
    ready(game, "P", 5)
    assert_illegal(game, "exit")
    put(game, "P", 6)
    assert legal(game, "exit")


def test_RD_SCN_3_loss_at_once_when_four_units_are_eliminated():
    game = night()
    p = player(game, "P")
    for name in ("P2", "P3", "P4"):
        game.eliminate(p, next(u for u in p.units if u.name == name))
    p.units[0].hits = 1                      # P1 SHAKEN: one more result eliminates the 4th unit
    s = dark(game, "S", ["spitter"], 3)
    enemy_turn(game, s, 1)                   # @Attack
    dice(game, 6, 4)                         # hit; USN 4 -> heaviest weapon: P1 is alone
    events = act(game, "e_target", p.gid)
    assert game.outcome == -1 and game.eliminated_units == 4 and game.phase == "enemy"   # at once, mid-phase
    assert texts(events, "game_over") == ["player loses: too many units lost"]


def test_RD_SCN_3_loss_at_the_end_phase_of_turn_ten():
    game = night()
    game.turn = 10
    events = act(game, "end_phase")          # no enemy group: straight to the End Phase
    assert game.outcome == -1 and texts(events, "game_over") == ["player loses: time is up"]


def test_RD_SCN_3_squad_morale_applies():
    game = night()
    assert game.scenario.victory == {"kind": "exit", "units_to_exit": 4, "loss_eliminated": 4}
    game.start_units = 5                     # so that 3 losses are "more than half" before the at-once loss of 4
    p = player(game, "P")
    for name in ("P2", "P3", "P4"):
        game.eliminate(p, next(u for u in p.units if u.name == name))
    dice(game, 2)                            # RB-VIC-3: best unsuppressed Leader P1 Veteran (3): a 2 fails
    events = act(game, "end_phase")
    assert game.outcome == -1 and texts(events, "game_over") == ["player loses: squad morale breaks"]


# RD-VAR-1 -----------------------------------------------------------------------------------------
def test_RD_VAR_1_night_visibility_limits_all_fire_to_range_one():
    assert night().options["night_visibility"] is False
    game = night()
    s = dark(game, "S", ["spitter"], 3)
    p = ready(game, "P", 1)
    assert legal(game, "fire", s.gid, 0)                      # range 2, option off
    game = night(night_visibility=True)
    s = dark(game, "S", ["spitter"], 3)
    p = ready(game, "P", 1)
    assert_illegal(game, "fire", s.gid, 0)                    # range 2
    assert enemy.targets(game, s) == []                       # the Spitters cannot reach the squad either
    put(game, "P", 2)
    assert legal(game, "fire", s.gid, 0)                      # range 1
    assert enemy.targets(game, s) == [p.gid]                 # Q, still on Stripe 1, is out of reach


def test_RD_VAR_1_is_unknown_to_urban_scenarios():
    with pytest.raises(ValueError, match="night_visibility"):
        RiflesGame.new("block_six", seed=0, night_visibility=True)


# RD-VAR-2 -----------------------------------------------------------------------------------------
def test_RD_VAR_2_exposed_movement_off_by_default():
    game = night()
    assert game.options["exposed_movement"] is False
    ready(game, "P")
    assert not legal(game, "move", 1, 0, 1)                   # no Recon Point to spend on a roll that never comes
    events = act(game, "move", 1, 0, 0)                       # no die scripted: none rolled
    assert "exposed" not in kinds(events) and game.dice.remaining == 0


def test_RD_VAR_2_on_rolls_exposed_movement_with_darkness_free_attacks():
    game = night(exposed_movement=True)
    s = dark(game, "S", ["spitter"], 3)
    p = ready(game, "P")
    assert legal(game, "move", 1, 0, 1)                       # RU-EXP-2
    dice(game, 6, 1)                                          # D66 61: contact on Stripe 2 reveals nothing there
    events = act(game, "move", 1, 0, 0)
    assert texts(events, "exposed") == ["exposed movement of P: 61 contact"]
    dice(game, 5, 2)                                          # D66 52: opportunity fire: the Spitter (range 0)
    act(game, "move", 2, 0, 0)
    assert game.decision == ("free_attacker", {"target": p.gid, "drm": 0, "options": [s.gid]})
    dice(game, 2)                                             # its RD-GEN-5 free attack: Fire, TN 3, a 2 misses
    events = act(game, "e_free_attacker", s.gid)
    assert texts(events, "fire") == ["S fires at P (1 units, DRM +0): 0 hit(s)"]
    assert game.dice.remaining == 0


# Data validation (RD-TAB-1, RD-TAB-2) -------------------------------------------------------------------------
def write(tmp_path: Path, name: str, data: dict) -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def tables_with(tmp_path: Path, **changes) -> Path:
    data = yaml.safe_load(TABLES.read_text())
    for dotted, value in changes.items():
        *keys, last = dotted.split("__")
        target = data
        for k in keys:
            target = target[k]
        target[last] = value
    return write(tmp_path, "bad_darkness.yaml", data)


@pytest.mark.parametrize("change, field, expected", [
    ({"types__crawler__traits": ["crawling", "flying"]}, "types.crawler.traits[1]", "a known trait"),
    ({"types__brute__traits": ["wounds(0)"]}, "types.brute.traits[0]", "wounds(X) with an integer X >= 1"),
    ({"types__stalker__traits": ["fast", "multiple_attacks"]}, "types.stalker.traits[1]", "multiple_attacks(X)"),
    ({"types__crawler__traits": ["crawling(2)"]}, "types.crawler.traits[0]", "crawling without a number"),
    ({"types__spitter__cf": -1}, "types.spitter.cf", "an integer >= 0"),
    ({"types__brute__cc_cf": -0.5}, "types.brute.cc_cf", "a number >= 0"),
    ({"types__spitter__max_range": -2}, "types.spitter.max_range", "an integer >= 0"),
    ({"types__spitter__min_range": 3}, "types.spitter.max_range", "an integer >= min_range"),
    ({"types__brute__armour": 2}, "types.brute.armour", "a known field"),
    ({"types__rifle": {"cf": 1, "min_range": 0, "max_range": 1, "cc_cf": 1}}, "types.rifle", "not a weapon name"),
    ({"orders": [{"max": 2, "order": "attack"}, {"max": 6, "order": "cover"}]}, "orders[1].order", "one of attack, advance"),
    ({"results_to_eliminate": 0}, "results_to_eliminate", "an integer >= 1"),
    ({"cc_cf_rounding": "round_up"}, "cc_cf_rounding", "sum_then_floor"),
])
def test_RD_TAB_1_a_bad_darkness_table_fails_naming_file_and_field(tmp_path, change, field, expected):
    path = tables_with(tmp_path, **change)
    with pytest.raises(ScenarioError) as err:
        config.load_darkness(str(path), WEAPONS)
    assert err.value.file == str(path) and err.value.field == field
    assert expected in err.value.expected


def test_RD_TAB_1_a_scenario_with_a_bad_darkness_table_names_that_file(tmp_path):
    bad = tables_with(tmp_path, types__crawler__traits=["crawling", "burrowing"])
    data = yaml.safe_load(SCENARIO.read_text())
    data["darkness_tables"] = bad.name                        # a path next to the scenario
    scenario = write(tmp_path, "scenario.yaml", data)
    with pytest.raises(ScenarioError) as err:
        config.load_scenario(str(scenario))
    assert err.value.file == str(bad.resolve()) and err.value.field == "types.crawler.traits[1]"
    assert "burrowing" in str(err.value)


def test_RD_TAB_2_a_bad_darkness_reveal_entry_fails_naming_file_and_field(tmp_path):
    data = yaml.safe_load(SCENARIO.read_text())
    data["reveal_tables"]["darkness"][4] = ["crawler+leader"]   # a Darkness unit is never a Leader
    scenario = write(tmp_path, "scenario.yaml", data)
    with pytest.raises(ScenarioError) as err:
        config.load_scenario(str(scenario))
    assert err.value.file == str(scenario) and err.value.field == "reveal_tables.darkness.4"
    data["reveal_tables"]["darkness"][4] = ["ghoul"]
    scenario = write(tmp_path, "scenario2.yaml", data)
    with pytest.raises(ScenarioError, match="crawler, stalker, spitter, brute"):
        config.load_scenario(str(scenario))


def test_RD_GEN_1_darkness_tables_only_with_the_darkness_module(tmp_path):
    data = yaml.safe_load(SCENARIO.read_text())
    data["modules"] = ["urban"]
    data["options"].pop("night_visibility")
    scenario = write(tmp_path, "scenario.yaml", data)
    with pytest.raises(ScenarioError) as err:
        config.load_scenario(str(scenario))
    assert err.value.field == "darkness_tables"
    assert RiflesGame.new("night_crossing", seed=0).scenario.tables.weapons["crawler"].heaviness == 0
    assert QUALITY["regular"] == 1
