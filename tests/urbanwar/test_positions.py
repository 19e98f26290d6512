"""The position builder's options (issue #36): each key sets exactly what it says; set-up events and built
scenarios travel with a saved game."""
from __future__ import annotations

import pytest
import yaml

from envs.engine.dice import ScriptedDice
from envs.urbanwar import config, turns
from envs.urbanwar.flow import Decision
from envs.urbanwar.game import UrbanWarGame
from envs.urbanwar.position import PositionError
from tests.urbanwar.helpers import RULESET, model, position

BLOCK_7 = config.CONFIG_DIR / "scenarios" / "block_7.yaml"
TWO = {"A3": [5, 1], "B3": [20, 1]}


def restored(game):
    return UrbanWarGame.from_dict(game.to_dict())


def test_position_scenario_given_as_a_path_is_that_file():
    game = position({"scenario": str(BLOCK_7), "models": TWO})
    assert game.scenario == position({"models": TWO}).scenario and game.scenario.built is None
    with pytest.raises(PositionError, match="position: scenario: no scenario file"):
        position({"scenario": "/no/such/block.yaml"})


def test_position_scenario_given_as_data_is_checked_and_survives_a_save():
    data = yaml.safe_load(BLOCK_7.read_text(encoding="utf-8"))
    data["turns"] = 3
    game = position({"scenario": data, "models": TWO})
    assert game.scenario.turns == 3
    saved = game.to_dict()
    assert saved["scenario_built"]["scenario"] == data
    again = UrbanWarGame.from_dict(saved)
    assert again.scenario.turns == 3 and again.to_dict() == saved
    data["turns"] = 0
    with pytest.raises(Exception, match=r"position.scenario: field 'turns': expected an integer in 1..100"):
        position({"scenario": data})


def test_position_map_changes_survive_a_save():
    game = position({"models": TWO, "map": {"#": [[10, 10]]}})
    assert game.scenario.map[10][10] == "#" and restored(game).scenario.map[10][10] == "#"
    assert restored(game).board.key == game.board.key


def test_UW_STAT_1_profiles_change_a_profile_for_this_game_and_survive_a_save():
    game = position({"models": TWO, "profiles": {"trooper": {"AS": 6, "W": 3, "ranged": "hmg", "heavy_armour": 2}}})
    p = model(game, "A3").profile
    assert (p.AS, p.W, p.ranged, p.heavy_armour, p.SH) == (6, 3, "hmg", 2, 4) and model(game, "A3").w == 3
    again = restored(game)
    assert model(again, "A3").profile == p and again.tables.profiles["trooper"] == p
    assert RULESET.new_game().tables.profiles["trooper"].AS == 4            # the tables file is untouched
    with pytest.raises(PositionError, match=r"profiles.trooper: Expected `int` <= 10 - at `\$.stats\[0\]`"):
        position({"profiles": {"trooper": {"AS": 11}}})
    with pytest.raises(PositionError, match="profiles.trooper.ranged: expected one of"):
        position({"profiles": {"trooper": {"ranged": "laser"}}})
    with pytest.raises(PositionError, match="profiles.trooper.armour: expected one of"):
        position({"profiles": {"trooper": {"armour": 1}}})


def test_UW_SCEN_5_a_model_takes_another_profile_of_the_tables():
    game = position({"models": TWO, "profile": {"A3": "armoured_gunner"}})
    m = model(game, "A3")
    assert (m.profile.key, m.w, m.profile.heavy_armour) == ("armoured_gunner", 2, 3)
    assert model(restored(game), "A3").profile.key == "armoured_gunner"
    with pytest.raises(PositionError, match="profile.A3: expected one of"):
        position({"models": TWO, "profile": {"A3": "tank"}})


def test_UW_WIN_3_lost_models_are_removed_earlier_and_counted():
    game = position({"models": {"A1": [5, 1], "B1": [40, 1], "B2": [41, 1]}, "lost": ["A2", "B3"]})
    assert not model(game, "A2").alive and model(game, "A2").cell == -1
    assert turns.enemies_removed(game) == [4, 5]                 # every model off the table counts, as `lost`
    with pytest.raises(PositionError, match="lost.A1: a model placed by `models` cannot also be lost"):
        position({"models": {"A1": [5, 1]}, "lost": ["A1"]})
    with pytest.raises(PositionError, match="lost.Z9: expected a model of the scenario"):
        position({"lost": ["Z9"]})


def test_position_turn_and_activation_phase():
    game = position({"models": TWO, "orders": {"A3": "snap", "B3": "snap"}, "turn": 4, "first": 1})
    # UW-DEC-9: B3, side 1's only Snap-fire model, is activated unasked: its action decision is next
    assert game.turn == 4 and game.decision[0] == Decision.ACTION and game.current_side == 1
    assert model(game, "B3").activated and not model(game, "A3").activated
    assert [e.rule for e in game.setup_events] == ["UW-HID-3", "UW-TURN-9"]
    with pytest.raises(PositionError, match=r"turn: an integer 1..6"):
        position({"models": TWO, "turn": 7})


def test_UW_TURN_1_position_at_the_turns_start_places_orders():
    game = position({"models": TWO, "turn": 2, "phase": "orders"})
    assert [(e.kind, e.rule) for e in game.setup_events] == [("turn", "UW-TURN-1")]
    assert game.decision[0] == Decision.ORDER and game.current_side == 0 and game.decision[1]["model"] == 2


def test_UW_TURN_12_position_at_the_turns_end_starts_the_next_or_ends_the_game():
    game = position({"models": TWO, "turn": 2, "phase": "end"})
    assert game.turn == 3 and game.decision[0] == Decision.ORDER
    assert [(e.kind, e.rule) for e in game.setup_events] == [("turn_end", "UW-TURN-12"), ("turn", "UW-TURN-1")]
    last = position({"models": {"A3": [5, 1], "A4": [6, 1], "B3": [20, 1]}, "turn": 6, "phase": "end"})
    assert last.winner == 0 and last.returns() == (1.0, -1.0)        # UW-WIN-3: 5 removed against 4
    assert [e.rule for e in last.setup_events] == ["UW-TURN-12", "UW-WIN-3"]
    with pytest.raises(PositionError, match="phase: one of activation, orders, end"):
        position({"phase": "dusk"})


def test_setup_events_travel_with_to_dict_from_dict_and_clone():
    game = RULESET.new_game(seed=5)
    assert {e.rule for e in game.setup_events} == {"UW-SETUP-2"}             # the roll-off (a tie rolls again)
    for copy in (UrbanWarGame.from_dict(game.to_dict()), game.clone()):
        assert [(e.kind, e.text, e.dice, e.rule) for e in copy.setup_events] == \
            [(e.kind, e.text, e.dice, e.rule) for e in game.setup_events]
    built = position({"models": TWO, "turn": 2, "phase": "orders"})
    assert [str(e) for e in restored(built).setup_events] == [str(e) for e in built.setup_events]


def test_a_replayed_game_has_the_recorded_games_setup_events():
    from training.replay import files
    state, replay = files.start(RULESET, None, 5, ["random", "random"])
    _, again = files.new_state(replay.to_dict())
    assert [str(e) for e in again.setup_events] == [str(e) for e in state.setup_events] != []


def test_the_builder_rolls_with_the_dice_given():
    game = position({"models": TWO, "turn": 2, "phase": "orders", "orders": {}}, faces=[])
    assert game.dice.remaining == 0 and isinstance(game.dice, ScriptedDice)
