"""Rule tests whose position comes from the contract's builder alone (`build_position`): no private attribute
touched, no cache cleared by hand."""
from __future__ import annotations

import pytest

from envs import registry
from envs.engine.dice import ScriptedDice
from envs.rifles.actions import CODEC
from envs.rifles.position import PositionError

URBAN, DARKNESS = registry.get("rifles-urban"), registry.get("rifles-darkness")


def act(game, family: str, *args: int):
    return game.apply(CODEC.encode(family, *args))


def group(game, name: str):
    return next(g for g in game.players + game.enemies if g.name == name)


def test_RB_FIRE_3_two_rifles_at_range_one_in_the_open_hit_on_four():
    game = URBAN.build_position({"only": ["C", "X"], "players": {"C": {"at": 1}},
                                 "enemies": {"X": {"weapons": ["rifle", "rifle"], "at": 2}}},
                                dice=ScriptedDice([4, 3, 1, 1]))
    # C's two rifles roll 4 (a hit at TN 4) and 3; the hit's unit-selection d6 rolls 1 (an OK unit: RB-TAB-5),
    # then a d2 picks X1 among the two (RB-GEN-3)
    c, x = group(game, "C"), group(game, "X")
    act(game, "activate", c.gid)
    events = act(game, "fire", x.gid, 0)
    assert "1 hit(s)" in events[0].text and events[0].rule == "RB-FIRE-1"
    assert [u.suppressed for u in x.units] == [True, False] and game.dice.remaining == 0


def test_RB_HIT_1_a_second_result_eliminates_a_suppressed_unit():
    game = URBAN.build_position({"only": ["C", "X"], "players": {"C": {"at": 1}},
                                 "enemies": {"X": {"weapons": ["rifle"], "at": 2, "suppressed": [0]}}},
                                dice=ScriptedDice([4, 1, 1]))
    # C's rifles roll 4 (a hit) and 1; the unit-selection d6 rolls 1; X's lone unit needs no pick
    c, x = group(game, "C"), group(game, "X")
    act(game, "activate", c.gid)
    events = act(game, "fire", x.gid, 0)
    assert [e.kind for e in events][:2] == ["fire", "eliminated"] and x.units == [] and not x.alive


def test_RU_MS_3_a_group_in_a_multi_story_building_climbs_for_one_ap():
    game = URBAN.build_position({"only": ["A"], "players": {"A": {"at": "5a"}}})
    a = group(game, "A")
    act(game, "activate", a.gid)
    ap = game.ap
    events = act(game, "floor")
    assert a.level == 1 and game.ap == ap - 1 and events[0].rule == "RU-MS-3"


def test_RD_GEN_4_a_darkness_unit_is_never_suppressed_by_a_result():
    game = DARKNESS.build_position({"only": ["K"], "darkness": {"K": {"types": ["crawler"], "at": 2}}})
    k = group(game, "K")
    assert not k.units[0].suppressed and k.units[0].kind == "crawler"


@pytest.mark.parametrize("spec, field", [
    ({"playerz": {}}, "unknown key 'playerz'"),
    ({"players": {"Q": {"at": 1}}}, "players.Q: no such group"),
    ({"enemies": {"X": {"weapons": ["laser"], "at": 1}}}, "unknown weapon 'laser'"),
    ({"players": {"A": {"at": "9z"}}}, "players.A.at: no feature '9z'"),
])
def test_a_bad_position_fails_naming_the_field(spec, field):
    with pytest.raises(PositionError, match=field):
        URBAN.build_position(spec)


def test_RB_AI_1_the_scripted_enemy_answers_a_whole_enemy_phase_through_advance():
    from agents.scripted.rifles import ScriptedEnemy
    from envs.engine.contract import advance
    from envs.engine.dice import SeededDice
    game = URBAN.build_position({"only": ["A", "X"], "players": {"A": {"at": 1}},
                                 "enemies": {"X": {"weapons": ["rifle"], "at": 3}}},
                                dice=SeededDice(4), enemy_rolls_as_choices=True)
    act(game, "end_phase")
    assert game.current_side == 1                                  # RB-AI-1: the order roll is the enemy's choice
    events = advance(game, {1: ScriptedEnemy(1, 0)}, until_side=0)
    # The automaton activated X, chose @Attack and fired at A (seeded dice 4: one hit); then turn 2 began.
    assert [(e.kind, e.rule) for e in events] == [("fire", "RB-FIRE-1"), ("result", "RB-HIT-1")]
    assert game.current_side == 0 and game.turn == 2


# The builder's options (issue #36): each key sets exactly what it says ------------------------------------------
import yaml  # noqa: E402

from envs.rifles import config  # noqa: E402
from envs.rifles.flow import Decision  # noqa: E402
from envs.rifles.game import RiflesGame  # noqa: E402
from envs.rifles.state import QUALITY  # noqa: E402

BLOCK_SIX = config.CONFIG_DIR / "scenarios" / "block_six.yaml"


def restored(game):
    """The game after a save and a restore (its dice kept)."""
    return RiflesGame.from_dict(game.to_dict())


def test_position_scenario_given_as_a_path_is_that_file():
    by_path = URBAN.build_position({"scenario": str(BLOCK_SIX)})
    by_name = URBAN.build_position({"scenario": "block_six"})
    assert by_path.scenario == by_name.scenario and by_path.scenario.built is None
    with pytest.raises(PositionError, match="position: scenario: no scenario file"):
        URBAN.build_position({"scenario": "/no/such/scenario.yaml"})


def test_position_scenario_given_as_data_is_checked_and_survives_a_save():
    data = yaml.safe_load(BLOCK_SIX.read_text(encoding="utf-8"))
    data["ap"], data["turns"] = 2, 3
    game = URBAN.build_position({"scenario": data, "only": ["A"]})
    assert (game.scenario.ap, game.scenario.turns, game.ap) == (2, 3, 2)
    saved = game.to_dict()
    assert saved["scenario_built"]["scenario"] == data
    again = RiflesGame.from_dict(saved)
    assert (again.scenario.ap, again.scenario.turns) == (2, 3) and again.to_dict() == saved
    assert game.clone().to_dict()["scenario_built"] == saved["scenario_built"]
    data["ap"] = 21
    with pytest.raises(Exception, match=r"position.scenario: field 'ap': expected an integer in 1..20"):
        URBAN.build_position({"scenario": data})


def test_position_weapons_change_a_weapon_row_for_this_game_only_and_survive_a_save():
    game = URBAN.build_position({"weapons": {"rifle": {"cf": 3, "max_range": 2}}, "only": ["C"]})
    rifle = game.tables.weapons["rifle"]
    assert (rifle.cf, rifle.max_range, rifle.min_range) == (3, 2, 0)
    assert restored(game).tables.weapons["rifle"].cf == 3
    assert URBAN.new_game().tables.weapons["rifle"].cf != 3          # the tables file is untouched
    with pytest.raises(PositionError, match="weapons.rifle: unknown key 'armour'"):
        URBAN.build_position({"weapons": {"rifle": {"armour": 1}}})
    with pytest.raises(PositionError, match="position: weapons.laser: expected a weapon of RB-TAB-3"):
        URBAN.build_position({"weapons": {"laser": {"cf": 1}}})


def test_position_players_loadout_quality_and_charges():
    game = URBAN.build_position({"only": ["A", "B"], "players": {
        "A": {"quality": "recruit"},
        "B": {"loadout": [{"id": "B9", "quality": "veteran", "weapon": "lmg", "leader": True}], "demo_charges": 2,
              "sewers": True, "at": "2a"}}})
    a, b = group(game, "A"), group(game, "B")
    assert [u.quality for u in a.units] == [QUALITY["recruit"]] * 4 and [u.weapon for u in a.units] == ["smg", "smg", "rifle", "rifle"]
    assert [(u.name, u.quality, u.weapon, u.leader) for u in b.units] == [("B9", QUALITY["veteran"], "lmg", True)]
    assert (b.demo_charges, b.sewers, b.stripe) == (2, True, 2)
    assert game.start_units == 5 and game.bap == 2                  # RB-TURN-2: A1 and B9 lead, unsuppressed
    with pytest.raises(PositionError, match=r"players.B.loadout\[0\].weapon: unknown weapon 'laser'"):
        URBAN.build_position({"players": {"B": {"loadout": [{"id": "B1", "quality": "regular", "weapon": "laser"}]}}})


def test_position_enemies_change_a_scenario_group_or_add_one():
    game = URBAN.build_position({"only": ["A", "S", "Y"], "enemies": {
        "S": {"weapons": ["hmg"], "quality": "veteran", "at": "4b"},
        "Y": {"loadout": [{"id": "Y1", "quality": "recruit", "weapon": "rifle", "leader": True}], "at": 5}}})
    s, y = group(game, "S"), group(game, "Y")
    assert [(u.name, u.quality, u.weapon) for u in s.units] == [("S1", QUALITY["veteran"], "hmg")]
    assert [(u.name, u.quality, u.weapon, u.leader) for u in y.units] == [("Y1", QUALITY["recruit"], "rifle", True)]
    assert (y.stripe, y.place) == (5, 0) and [g.name for g in game.enemies] == ["S", "Y"]


def test_position_lost_units_are_eliminated_earlier_and_counted():
    game = URBAN.build_position({"lost": ["A2", "C"]})
    assert game.graveyard == ["A2", "C1", "C2"] and game.eliminated_units == 3 and not game.lost_this_turn
    assert [u.name for u in group(game, "A").units] == ["A1", "A3", "A4"] and not group(game, "C").alive
    assert game.start_units == 9 and game.outcome is None
    with pytest.raises(PositionError, match="lost: no unit or group 'Z9' in play"):
        URBAN.build_position({"lost": ["Z9"]})


def test_RD_SCN_3_lost_units_count_for_the_exit_scenario_loss_at_once():
    names = [u.name for g in DARKNESS.build_position({}).players for u in g.units][:4]
    game = DARKNESS.build_position({"lost": names})
    assert game.eliminated_units == 4 and game.outcome == -1                  # loss_eliminated: 4
    assert [(e.kind, e.rule) for e in game.setup_events] == [("game_over", "RB-VIC-1")]


def test_position_turn_and_player_phase():
    game = URBAN.build_position({"turn": 7, "only": ["A", "C"], "players": {"A": {"suppressed": [0]}}})
    assert (game.turn, game.phase, game.ap, game.bap) == (7, "player", 4, 0)   # A1, the Leader, is Suppressed
    assert game.decision == (Decision.PLAYER, {}) and game.setup_events == []
    with pytest.raises(PositionError, match=r"turn: an integer 1..10"):
        URBAN.build_position({"turn": 11})


def test_position_enemy_phase_starts_with_the_enemy_activation():
    game = URBAN.build_position({"phase": "enemy", "only": ["A", "X"], "enemies": {"X": {"weapons": ["rifle"], "at": 3}}})
    x = group(game, "X")
    assert (game.phase, game.ap, game.bap, game.current_side) == ("enemy", 0, 0, 1)
    assert game.decision == (Decision.ACTIVATE, {"options": [x.gid]})


def test_RB_TURN_6_position_at_the_turn_end_plays_the_end_phase():
    game = URBAN.build_position({"phase": "end", "turn": 2, "only": ["A"]})
    assert (game.turn, game.phase, game.ap, game.current_side) == (3, "player", 4, 0)
    last = URBAN.build_position({"phase": "end", "turn": 10, "only": ["A"]})
    assert last.outcome == -1 and [(e.kind, e.rule) for e in last.setup_events] == [("game_over", "RB-VIC-1")]
    with pytest.raises(PositionError, match="phase: one of player, enemy, end"):
        URBAN.build_position({"phase": "morning"})


def test_RU_ADV_1_the_build_rolls_the_advanced_buildings_with_its_dice_as_setup_events():
    game = URBAN.build_position({"only": ["A"]}, dice=ScriptedDice([6, 2]), advanced_urban=True)
    assert (game.feature_by_id("2a").kind, game.feature_by_id("6a").kind) == ("rubble", "building")
    assert [(e.rule, e.dice) for e in game.setup_events] == [("RU-ADV-1", (6,)), ("RU-ADV-1", (2,))]


def test_setup_events_travel_with_to_dict_from_dict_and_clone():
    game = URBAN.new_game(seed=3, advanced_urban=True)
    assert [e.rule for e in game.setup_events] == ["RU-ADV-1", "RU-ADV-1"]
    for copy in (RiflesGame.from_dict(game.to_dict()), game.clone()):
        assert [(e.kind, e.text, e.dice, e.rule) for e in copy.setup_events] == \
            [(e.kind, e.text, e.dice, e.rule) for e in game.setup_events]
    built = URBAN.build_position({"only": ["A"]}, dice=ScriptedDice([6, 2]), advanced_urban=True)
    assert [str(e) for e in restored(built).setup_events] == [str(e) for e in built.setup_events]


def test_a_replayed_game_has_the_recorded_games_setup_events():
    from training.replay import files
    state, replay = files.start(URBAN, None, 3, ["random", "random"], {"advanced_urban": True})
    _, again = files.new_state(replay.to_dict())
    assert [str(e) for e in again.setup_events] == [str(e) for e in state.setup_events] != []
