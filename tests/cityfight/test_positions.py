"""Rule tests whose position comes from the contract's builder alone (`build_position`): no private attribute
touched, no cache cleared by hand."""
from __future__ import annotations

import pytest

from envs import registry
from envs.cityfight.actions import CODEC, OFF
from envs.cityfight.position import PositionError

CITYFIGHT = registry.get("cityfight")
OPEN_MAP = "\n".join(["........."] * 9)


def spec(**changes) -> dict:
    """A9x9 open map, attacker A1 (rifles) on e5, defender D1 far away on a9."""
    return {"map": OPEN_MAP, "attackers": [("A1", "B", "e5")], "defenders": [("D1", "B", "a9")], **changes}


def element(game, name: str):
    return next(e for side in game.elements for e in side if e.name == name)


def activated(game):
    game.apply(CODEC.encode("activate", element(game, "A1").slot))
    return game


def test_CF_ACT_10_pass_is_legal_and_hands_the_turn_over_for_nothing():
    game = activated(CITYFIGHT.build_position(spec()))
    assert game.legal_action_mask()[OFF["pass"]]
    events = game.apply(OFF["pass"])
    assert element(game, "A1").ap_spent == 0 and game.current_side == 1 and events[0].rule == "CF-ACT-10"


def test_CF_ACT_11_a_suppressed_element_may_only_pass():
    game = CITYFIGHT.build_position(spec(attackers=[("A1", "B", "e5", None, {"suppressed": True}),
                                                     ("A2", "B", "e6")]))
    assert not game.legal_action_mask()[CODEC.encode("activate", element(game, "A1").slot)]  # CF-TURN-5


def test_CF_MOVE_1_one_diagonal_step_per_turn():
    game = activated(CITYFIGHT.build_position(spec()))
    game.apply(CODEC.encode("move", 5))                        # a diagonal step
    mask = game.legal_action_mask()
    assert not any(mask[CODEC.encode("move", d)] for d in range(4, 8)) and mask[CODEC.encode("move", 2)]


@pytest.mark.parametrize("changes, field", [
    ({"attackers": [("A1", "B", "z99")]}, "square 'z99' is not on this 9x9 map"),
    ({"defenders": [{"name": "D1", "row": "B", "at": "a9", "colour": "red"}]}, "defenders\\[0\\]: unknown key 'colour'"),
    ({"attackers": [("A1", "B", "e5", "BAZOOKA")]}, "unknown weapon 'BAZOOKA'"),
    ({"weather": "rain"}, "unknown key 'weather'"),
])
def test_a_bad_position_fails_naming_the_field(changes, field):
    with pytest.raises(PositionError, match=field):
        CITYFIGHT.build_position(spec(**changes))


# The builder itself: scenario as data or a path, unit stats and loadout, earlier losses, turn and phase -----------
def test_a_scenario_given_as_a_path_or_as_data_plays_by_its_rules(tmp_path):
    import yaml

    from envs.cityfight import config
    text = open(config.scenario_path("office_block")).read()
    data = yaml.safe_load(text)
    data["turns"], data["conditions"]["time"] = 5, "night"
    path = tmp_path / "short_night.yaml"
    path.write_text(yaml.safe_dump(data))
    for scenario in (str(path), path, data):
        game = CITYFIGHT.build_position(spec(scenario=scenario))
        assert game.scenario.turns == 5 and game.conditions["time"] == "night"
    with pytest.raises(PositionError, match="scenario"):
        CITYFIGHT.build_position(spec(scenario=str(tmp_path / "missing.yaml")))
    with pytest.raises(ValueError, match="turns"):
        CITYFIGHT.build_position(spec(scenario={**data, "turns": "many"}))


def test_unit_stats_change_a_rows_cf_tab_1_values_for_this_game_only():
    game = CITYFIGHT.build_position(spec(rows={"B": {"ca": 4, "fs": [5, 3, 1], "max_range": 6}}))
    row = game.tables.elements["B"]
    assert (row.ca, row.fs, row.max_range) == (4, (5, 3, 1), 6)
    assert CITYFIGHT.build_position(spec()).tables.elements["B"].max_range == 30
    with pytest.raises(PositionError, match="rows.B.speed"):
        CITYFIGHT.build_position(spec(rows={"B": {"speed": 3}}))


def test_profile_and_loadout_row_weapon_shots_left_and_smoke():
    game = CITYFIGHT.build_position(spec(attackers=[
        {"name": "A1", "row": "C", "at": "e5", "special": "UGL", "smoke": True},
        {"name": "A2", "row": "B", "at": "e6", "special": "LAW", "shots": 0}]))
    a1, a2 = element(game, "A1"), element(game, "A2")
    assert a1.row == "C" and a1.special == "UGL" and a1.smoke
    assert a2.special == "LAW" and a2.shots == 0 and game.tables.he_weapons["LAW"].shots == 1
    with pytest.raises(PositionError, match="A2.shots"):
        CITYFIGHT.build_position(spec(attackers=[{"name": "A2", "row": "B", "at": "e6", "special": "LAW", "shots": 3}]))


def test_an_element_lost_before_the_game_is_dead_in_the_graveyard_and_known_to_the_enemy():
    game = CITYFIGHT.build_position(spec(defenders=[("D1", "B", "a9"), {"name": "D2", "row": "F", "lost": True}]))
    d2 = element(game, "D2")
    assert not d2.alive and game.graveyard == ["D2"] and game.knowledge[0].killed == {"F": 1}
    assert [e.name for e in game.living(1)] == ["D1"]
    restored = type(game).from_dict(game.to_dict())
    assert restored.graveyard == ["D2"] and not element(restored, "D2").alive


def test_the_turn_and_the_phase_where_the_position_starts():
    from envs.engine.dice import ScriptedDice
    game = CITYFIGHT.build_position(spec(turn=3))
    assert (game.turn, game.phase, game.current_side) == (3, "action", 0)
    game = CITYFIGHT.build_position(spec(turn=2, phase="command", pools=[0, 0]), dice=ScriptedDice([1, 6]))
    assert game.phase == "action" and game.turn == 2
    assert [s[0].pool for s in game.sections] == [2, 1]      # base 2 each; the defender's 6 is 3 over LR 3 (CF-AP-3)
    assert [e.kind for e in game.setup_events].count("ap") == 2          # CF-AP-8: the rolls made before it
    with pytest.raises(PositionError, match="phase"):
        CITYFIGHT.build_position(spec(phase="lunch"))
    with pytest.raises(PositionError, match="turn"):
        CITYFIGHT.build_position(spec(turn=99))


def test_setup_events_survive_save_and_restore():
    game = CITYFIGHT.new_game(seed=0)
    assert len(game.setup_events) == 8                  # The Office Block's hidden set-up and turn 1 (CF-SCN-6)
    restored = type(game).from_dict(game.to_dict())
    key = lambda e: (e.kind, e.text, e.side, e.dice, e.rule, e.data)   # noqa: E731
    assert [key(e) for e in restored.setup_events] == [key(e) for e in game.setup_events]
    assert [key(e) for e in game.clone().setup_events] == [key(e) for e in game.setup_events]
