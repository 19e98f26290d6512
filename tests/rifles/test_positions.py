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
