"""Bad scenario and table files fail on load in one line naming the file, the field and what was expected."""
from __future__ import annotations

import pytest
import yaml

from envs.engine.scenario import ScenarioError
from envs.urbanwar import config

BLOCK_7 = config.CONFIG_DIR / "scenarios" / "block_7.yaml"
TABLES = config.CONFIG_DIR / "tables" / "standard.yaml"


def write(tmp_path, data, name="bad.yaml") -> str:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return str(path)


def scenario_data():
    return yaml.safe_load(BLOCK_7.read_text(encoding="utf-8"))


def load_error(path) -> str:
    config.load_scenario.cache_clear()
    with pytest.raises(ScenarioError) as err:
        config.load_scenario(path)
    message = str(err.value)
    assert "\n" not in message and path in message
    return message


def test_UW_SCEN_1_the_default_map_loads_and_is_symmetric():
    sc = config.load_scenario(str(BLOCK_7))
    assert len(sc.map) == 48 and sc.map[5][31:39] == "###D####" and sc.turns == 6


def test_UW_SCEN_1_a_ragged_map_names_the_row(tmp_path):
    data = scenario_data()
    data["map"][7] = data["map"][7][:-1]
    assert "field 'map[7]'" in load_error(write(tmp_path, data))


def test_UW_SCEN_1_an_asymmetric_map_is_refused(tmp_path):
    data = scenario_data()
    data["map"][0] = "#" + data["map"][0][1:]
    assert "180-degree" in load_error(write(tmp_path, data))


def test_UW_SETUP_5_a_placed_model_outside_its_zone_is_refused(tmp_path):
    data = scenario_data()
    data["placed"] = {"A1": [10, 20]}
    message = load_error(write(tmp_path, data))
    assert "field 'placed.A1'" in message and "deployment zone" in message


def test_UW_STAT_6_an_unknown_weapon_is_refused(tmp_path):
    tables = yaml.safe_load(TABLES.read_text(encoding="utf-8"))
    tables["profiles"]["trooper"]["ranged"] = "laser"
    path = write(tmp_path, tables, "t.yaml")
    config.load_tables.cache_clear()
    with pytest.raises(ScenarioError, match=r"field 'profiles.trooper.ranged': expected one of .*'laser'"):
        config.load_tables(path)


def test_UW_STAT_1_an_unknown_profile_field_or_a_stat_out_of_range_is_refused(tmp_path):
    tables = yaml.safe_load(TABLES.read_text(encoding="utf-8"))
    tables["profiles"]["trooper"]["armour"] = 3
    config.load_tables.cache_clear()
    with pytest.raises(ScenarioError, match=r"field 'profiles.trooper.armour': expected a known field"):
        config.load_tables(write(tmp_path, tables, "t1.yaml"))
    tables = yaml.safe_load(TABLES.read_text(encoding="utf-8"))
    tables["profiles"]["trooper"]["stats"][0] = 11
    with pytest.raises(ScenarioError, match=r"field 'profiles.trooper.stats\[0\]': expected an integer in 1..10 \(AS, "
                                            r"UW-STAT-1\), got 11$"):
        config.load_tables(write(tmp_path, tables, "t2.yaml"))


def test_UW_SPEC_1_exactly_one_commander_per_team(tmp_path):
    data = scenario_data()
    data["sides"][0]["models"][1]["commander"] = True
    assert "exactly one commander" in load_error(write(tmp_path, data))


def test_UW_SCEN_5_and_UW_SCEN_6_variants():
    sc = config.load_scenario(str(BLOCK_7))
    dense = config.played_map(sc, {"dense_terrain": True})
    assert dense[28][2:4] == "%%" and dense[47 - 28][47 - 2] == "%" and dense[30][12:16] == "===="
    a6 = next(m for m in sc.sides[0].models if m.id == "A6")
    assert config.profile_of(sc, {"heavy_armour": True}, a6).heavy_armour == 3
