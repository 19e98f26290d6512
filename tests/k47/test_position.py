"""The position builder for rule tests (envs/k47/position.py): a scenario as a name, a path or data; a unit's
profile, loadout and quality; losses earlier in the game; the turn's start or end; and set-up events that a saved
game keeps."""
from __future__ import annotations

import json

import pytest
import yaml

from envs.engine.scenario import ScenarioError
from envs.k47 import config, orders
from envs.k47.game import K47Game
from envs.k47.position import PositionError

from .core import A1, A4, B1, B2, PASS, YES, game


def village() -> dict:
    return yaml.safe_load(open(config.scenario_path(None), encoding="utf-8"))


def events(evs) -> list:
    """Everything an event holds, `data` included (Event equality leaves it out)."""
    return [(e.kind, e.text, e.side, e.dice, e.rule, e.data) for e in evs]


def test_position_takes_a_scenario_as_data_and_a_saved_game_keeps_it():
    data = village()
    data["map"][13] = "......rr......rr....ss.."                  # rubble at (14, 13) and (15, 13)
    g = game({"scenario": data, "only": ["A1", "B2"], "units": {"A1": {"at": [14, 14]}}})
    assert g.board.terrain[13][14] == g.board.terrain[13][6] != g.board.terrain[14][13]
    restored = K47Game.from_dict(json.loads(json.dumps(g.to_dict())))
    assert restored.board == g.board and restored.scenario.data == data
    assert (restored.observation(0) == g.observation(0)).all()


def test_position_takes_a_variant_as_data_based_on_a_scenario():
    g = game({"scenario": {"based_on": "village_crossroads", "turns": 3}, "only": ["A1", "B2"]})
    assert g.scenario.turns == 3 and g.scenario.objectives == ("T", "W", "K")


def test_position_scenario_data_is_checked_as_a_file_is():
    data = village()
    data["turns"] = 0
    with pytest.raises(ScenarioError, match=r"position\.scenario: field 'turns'"):
        game({"scenario": data})


def test_position_takes_a_scenario_file_by_path(tmp_path):
    data = village()
    data["turns"] = 4
    path = tmp_path / "short.yaml"
    path.write_text(yaml.safe_dump(data))
    for given in (path, str(path)):
        assert game({"scenario": given, "only": ["A1", "B2"]}).scenario.turns == 4
    assert game({"scenario": "village_crossroads_hidden"}).options["hidden_occupants"]
    with pytest.raises(PositionError, match="position: scenario: expected a scenario of configs/k47/scenarios"):
        game({"scenario": "no_such_scenario"})


def test_position_sets_a_units_quality_kind_and_loadout():
    g = game({"only": ["A4", "B2"], "units": {"A4": {
        "kind": "artillery", "quality": "veteran", "small": False,
        "loadout": [{"role": "crew", "count": 2}, {"weapon": "medium_howitzer", "role": "carrier"}], "models": 2}}})
    a4 = g.units[A4]
    assert a4.kind == "artillery" and not a4.small and a4.start_models == 3 and len(a4.models) == 2
    assert [w for _, w, _ in a4.weapons()] == ["medium_howitzer"]                 # the crewman went first
    assert orders.morale(g, a4) == 10 and g.tables.quality[a4.quality][1] == 5     # KC-TAB-1 veteran
    with pytest.raises(ScenarioError, match=r"units\.A4\.loadout\[0\]\.weapon"):
        game({"units": {"A4": {"loadout": [{"weapon": "ray_gun"}]}}})
    with pytest.raises(PositionError, match=r"units\.A4\.quality"):
        game({"units": {"A4": {"quality": "elite"}}})


def test_position_makes_a_vehicle_with_its_class():
    g = game({"only": ["A1", "B2"], "units": {"A1": {"kind": "vehicle", "vehicle": {"class": "light_tank"},
                                                      "loadout": [{"weapons": [{"weapon": "mmg", "mount": "turret"}]}],
                                                      "facing": "E"}}})
    a1 = g.units[A1]
    assert a1.vehicle and a1.vclass == "light_tank" and a1.tracked and a1.facing == 2
    with pytest.raises(PositionError, match=r"units\.A1\.vehicle"):
        game({"units": {"A1": {"kind": "vehicle"}}})


def test_position_artillery_inside_fires_from_the_opening_it_names():
    g = game({"only": ["A1", "B1"], "units": {"B1": {"kind": "artillery", "fixed_opening": [8, 6, "W"]}}})
    b1 = g.units[B1]
    assert g.board.openings[b1.fixed_opening].side == "W" and b1.floor == 1
    with pytest.raises(PositionError, match=r"units\.B1\.fixed_opening"):
        game({"units": {"B1": {"kind": "artillery", "fixed_opening": [12, 7, "S"]}}})


def test_position_losses_earlier_in_the_game_count_for_kill_vp():
    # KC-SCN-9 at the end of turn 6 (no 7th turn on a 1): B holds T (2 VP); B2, lost earlier, gives A 1 VP
    spec = {"only": ["A1", "B1", "B2"], "lost": ["B2"], "turn": 6, "decide": ["turn_end"]}
    g = game(spec, [1])
    assert g.game_over and g.vp == [1, 2] and not g.units[B2].alive and g.dice.remaining == 0
    spec.pop("lost")
    assert game(spec, [1]).vp == [0, 2]                  # left out with `only`, a unit is worth nothing


def test_position_starts_at_a_turn_end_with_the_keep_choices():
    g = game({"only": ["A1", "B1", "B2"], "turn": 2, "units": {"B2": {"order": "down", "pins": 3}},
              "decide": ["turn_end"]}, [2, 2])
    assert g.decision[0] == "keep" and g.decision[1]["uid"] == B2 and g.units[A1].order == "fire"
    g.apply(YES)                                          # KC-TURN-5: keeps Down and sheds D3 = 1 pin (a 2)
    assert g.turn == 3 and g.units[B2].kept and g.units[B2].pins == 2
    # turn 3: B2 holds its kept die, so the bag has A1's and B1's; the 2nd of the 2 is B's
    assert g.decision[0] == "unit" and g.current_side == 1 and g.bag.counts == [1, 0]
    assert g.dice.remaining == 0


def test_position_starts_at_a_turn_start_and_its_events_are_the_set_ups():
    g = game({"only": ["A1", "B1", "B2"], "turn": 4, "decide": ["turn_start"]}, [1])
    assert g.turn == 4 and g.decision[0] == "unit" and g.current_side == 0 and g.bag.counts == [0, 2]
    assert [(e.kind, e.text) for e in g.setup_events] == [("turn", "turn 4: 1 + 2 dice in the bag"),
                                                          ("draw", "A die drawn")]


def test_setup_events_survive_save_and_restore():
    fresh = K47Game.new(seed=7)
    assert len(fresh.setup_events) == 2
    for original in (fresh, game({"only": ["A1", "B2"], "turn": 2, "decide": ["turn_start"]}, [1])):
        restored = K47Game.from_dict(json.loads(json.dumps(original.to_dict())))
        assert events(restored.setup_events) == events(original.setup_events) != []
        assert events(original.clone().setup_events) == events(original.setup_events)


def test_position_keeps_pass_legal_after_a_target_decision():
    g = game({"only": ["A1", "B2"], "units": {"A1": {"at": [19, 12]}}, "decide": ["target", "A1"]})
    assert g.legal_action_mask()[PASS]
