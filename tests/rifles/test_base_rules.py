"""Base system rules (rules catalog §1, §2, §5, §7): dice and units, the Map Card, movement, enemy markers, victory.

Turn sequence and AP: test_base_turn.py; fire, hits and morale: test_base_fire.py; tables: test_base_tables.py.
"""
from __future__ import annotations

import numpy as np
import pytest

from envs.engine.dice import ScriptedDice
from envs.rifles import config, fire, geometry
from envs.rifles import enemy as enemy_rules
from envs.rifles.actions import CODEC
from envs.rifles.game import RiflesGame
from envs.rifles.state import FIRST, GROUND, Marker

from .builders import act, assert_illegal, dice, enemy, families, fresh, kinds, legal, moves, one_on_one, only, player, put, rolled, texts, unit


# §1 Dice and units --------------------------------------------------------------------------------------
def test_RB_GEN_1_close_combat_results_use_d3_as_halved_d6():
    game, a, x = one_on_one("A", 2, ["rifle", "rifle"], 2)
    # morale 4 (+1 Leader vs Regular 4): pass; round A 1+4=5 vs X 4: win, not double -> 1d3 from a d6 of 5 = 3
    dice(game, 4, 1, 4, 5, 1, 2)   # then spread: pick X1 (d2=1), X2 alone, pick X2 (d2=2) -> X2 eliminated
    events = act(game, "close_combat", x.gid, 0)
    assert any("takes 3 result(s)" in t for t in texts(events))
    assert [u.name for u in x.units] == ["X1"] and x.units[0].suppressed
    assert rolled(game)[3] == (6, 5) and game.dice.remaining == 0


def test_RB_GEN_1_two_d3_is_the_sum_of_two_halved_d6():
    game, a, x = one_on_one("A", 2, ["rifle", "rifle"], 2)
    # round A 6+4=10 vs X 1: at least double -> 2d3 from d6 faces 1 and 2 -> 1 + 1 = 2 results
    dice(game, 4, 6, 1, 1, 2, 1)   # spread: pick X1 (d2=1), then X2 alone
    events = act(game, "close_combat", x.gid, 0)
    assert any("takes 2 result(s)" in t for t in texts(events))
    assert [u.hits for u in x.units] == [1, 1]
    assert game.dice.remaining == 0


@pytest.mark.parametrize("faces, effect", [((4, 1), "sniper"), ((1, 4), "none")])
def test_RB_GEN_2_exposed_movement_reads_d66_tens_first(faces, effect):
    game = fresh()
    only(game, "C")
    c = player(game, "C")
    act(game, "activate", c.gid)
    dice(game, *faces, 2)          # 41: sniper, one result on a random OK unit (d2 = 2 -> C2); 14: nothing
    events = act(game, "move", 1, 0, 0)
    ex = next(e for e in events if e.kind == "exposed")
    assert f"{faces[0]}{faces[1]} {effect}" in ex.text
    assert [u.suppressed for u in c.units] == ([False, True] if effect == "sniper" else [False, False])


def test_RB_GEN_3_unit_selection_random_pick_is_one_die_of_size_n():
    game, c, x = one_on_one("C", 2, ["rifle", "rifle", "lmg"], 2)
    dice(game, 6, 1, 2, 3)         # C1 hits, C2 misses; USN 2: random OK unit -> one d3-sized die, face 3 -> X3
    act(game, "fire", x.gid, 0)
    assert rolled(game) == [(6, 6), (6, 1), (6, 2), (3, 3)]
    assert [u.name for u in x.units if u.suppressed] == ["X3"]


def test_RB_GEN_3_random_unit_is_in_unit_id_order_after_a_merge():
    game = fresh()
    a, b = player(game, "A"), player(game, "B")
    game.merge(a, b)               # RU-CC-15 merge: B lists B1..B3 then A1..A4
    assert [u.name for u in b.units] == ["B1", "B2", "B3", "A1", "A2", "A3", "A4"]
    dice(game, 4)
    assert fire.random_unit(game, b.units).name == "A4"       # ID order A1 A2 A3 A4 B1 B2 B3
    assert rolled(game) == [(7, 4)]


def test_RB_GEN_4_units_are_counters_and_groups_share_one_position():
    game = fresh()
    a = player(game, "A")
    a1 = unit(a, "A1")
    assert (a1.quality, a1.weapon, a1.leader) == (2, "smg", True)
    assert (unit(a, "A2").quality, unit(a, "A2").weapon, unit(a, "A2").leader) == (1, "smg", False)
    assert (unit(player(game, "C"), "C2").quality, unit(player(game, "C"), "C2").weapon) == (0, "rifle")
    # state: OK -> Suppressed -> eliminated
    a4 = unit(a, "A4")
    assert not a4.suppressed and a4.alive
    fire.hit_unit(game, a, a4)
    assert a4.suppressed and a4.alive and a4 in a.units
    fire.hit_unit(game, a, a4)
    assert not a4.alive and a4 not in a.units and "A4" in game.graveyard
    # one group, one position: moving the group moves every unit
    act(game, "activate", a.gid)
    act(game, "move", 0, 1, 0)      # Stripe 1 -> 1a, same Stripe: no Exposed Movement
    assert a.position == (1, 1, GROUND) and [u.name for u in a.units] == ["A1", "A2", "A3"]


def test_RB_GEN_5_no_split_or_merge_action_groups_merge_only_in_close_combat():
    assert not any(word in name for name in CODEC.families for word in ("split", "merge", "join", "transfer"))
    game = fresh()
    only(game, "B", "C")
    b, c = put(game, "B", 2), put(game, "C", 2)
    x = enemy(game, "X", ["rifle", "rifle"], 2)
    b.engaged_with, x.engaged_with, x.defending = x.gid, b.gid, True
    # C joins B's fight (B not activated): morale Recruit 5 (C1 Veteran, C2 Recruit: tie -> lowest) on a 5
    act(game, "activate", c.gid)
    assert legal(game, "close_combat", x.gid, 0)
    dice(game, 5, 3, 3, 1, 1)      # round B+C 3+1=4 vs X 3: 1d3 (d6 1 -> 1), X1 (d2 = 1)
    act(game, "close_combat", x.gid, 0)
    assert [u.name for u in b.units] == ["B1", "B2", "B3", "C1", "C2"]
    assert c.units == [] and not c.on_map and len(game.players) == 3
    assert b.activated and game.active == b.gid


def test_RB_GEN_5_random_game_never_moves_units_between_groups_without_a_join():
    game = RiflesGame.new("block_six", seed=3)
    rng = np.random.default_rng(3)
    members = {g.name: {u.name for u in g.units} for g in game.players}
    for _ in range(400):
        if game.is_over:
            break
        events = game.apply(int(rng.choice(np.flatnonzero(game.legal_action_mask()))))
        now = {g.name: {u.name for u in g.units} for g in game.players}
        assert len(game.players) == 3
        if "join" not in kinds(events):
            for name in now:            # a group only loses units (eliminated) unless it joined a fight
                assert now[name] <= members[name]
        members = now


# §2 Map and positions ----------------------------------------------------------------------------------
def test_RB_MAP_1_six_stripes_from_the_entry_edge():
    game = fresh()
    assert config.STRIPES == 6 and len(game.places) - 1 == 6
    assert all(g.stripe == 1 for g in game.players)          # the squad enters on Stripe 1
    only(game, "C")
    c = player(game, "C")
    act(game, "activate", c.gid)
    assert {m[0] for m in moves(game)} == {1, 2}
    put(game, "C", 6)
    assert {m[0] for m in moves(game)} == {5, 6}
    assert CODEC.families["move"].shape[0] == 6


def test_RB_MAP_2_position_is_stripe_place_level_first_floor_only_in_ms():
    game = fresh()
    only(game, "A")
    a = put(game, "A", "2a")
    assert game.feature_by_id("4b").stripe == 4 and game.place_name(4, 2) == "4b (building)"
    act(game, "activate", a.gid)
    assert_illegal(game, "floor")                           # a Building has no First Floor
    put(game, "A", "3a")
    assert_illegal(game, "floor")                           # nor does Rubble
    put(game, "A", "4a")
    assert legal(game, "floor")
    act(game, "floor")
    assert a.position == (4, game.feature_by_id("4a").place, FIRST)


def test_RB_MAP_3_range_is_the_stripe_difference_and_nothing_blocks_sight():
    game = fresh()
    assert geometry.distance(game, (2, 1, 0), (2, 2, 0)) == 0
    assert geometry.distance(game, (1, 0, 0), (4, 2, 0)) == 3
    only(game, "B")
    b = put(game, "B", 1)
    enemy(game, "Y", ["rifle"], "2a")                       # a group in between blocks nothing
    x = enemy(game, "X", ["rifle"], "4a", level=FIRST)
    act(game, "activate", b.gid)
    assert legal(game, "fire", x.gid, 0)                    # range 3: only B2's LMG reaches
    dice(game, 5, 5)
    act(game, "fire", x.gid, 0)
    assert rolled(game) == [(6, 5), (6, 5)] and [u.fired for u in b.units] == [False, True, False]
    game2, b2, far = one_on_one("B", 1, ["rifle"], 5)        # range 4: nothing reaches
    assert_illegal(game2, "fire", far.gid, 0)


def test_RB_MAP_4_one_side_per_feature_level_open_holds_both():
    game = fresh()
    only(game, "A", "C")
    a = player(game, "A")
    put(game, "C", "2b")                                    # a friend on 2b
    enemy(game, "X", ["rifle"], "2a")                       # enemy on 2a's Ground level
    enemy(game, "Y", ["rifle"], 2)                          # enemy in Stripe 2's Open
    enemy(game, "Z", ["rifle"], "1a")
    act(game, "activate", a.gid)
    places = {(s, p) for s, p, _ in moves(game)}
    assert (2, 0) in places                                 # the Open holds both sides
    assert (2, 2) in places                                 # 2b already holds the friendly C: any number
    assert (2, 1) not in places and (1, 1) not in places    # enemy-held feature levels
    assert_illegal(game, "move", 1, 1, 0)
    # an enemy on an MS First Floor leaves its Ground level enterable
    put(game, "A", 4)
    enemy(game, "W", ["rifle"], "4a", level=FIRST)
    assert (4, game.feature_by_id("4a").place) in {(s, p) for s, p, _ in moves(game)}
    # enemy placement never takes a feature holding a player group
    game.markers[0] = Marker(0, "E1", 2)
    act(game, "end_activation")
    dice(game, 2)
    act(game, "recon_reveal", 0)
    assert game.decision[0] == "place" and game.decision[1]["options"] == [0, 1]    # not 2b (C); 2a holds X


@pytest.mark.parametrize("at, stripe, tn", [(2, 2, 3), ("2b", 2, 4), ("2a", 2, 5), ("3a", 3, 5), ("4a", 4, 5)])
def test_RB_MAP_5_target_cover_open_0_wall_1_building_ms_rubble_2(at, stripe, tn):
    game = fresh()
    only(game, "C")
    c = put(game, "C", stripe)                              # range 0: base TN 3
    x = enemy(game, "X", ["rifle"], at)
    assert fire.target_number(game, c.position, x.position, game.tables.weapons["rifle"]) == tn
    act(game, "activate", c.gid)
    dice(game, tn - 1, tn, 1)                               # exactly the die equal to the TN hits; USN 1
    events = act(game, "fire", x.gid, 0)
    assert any("1 hit(s)" in t for t in texts(events)) and x.units[0].suppressed


def test_RB_MAP_5_cover_values_come_from_the_tables():
    game = fresh()
    assert game.tables.cover == {"open": 0, "wall": 1, "woods": 1, "building": 2, "ms": 2, "rubble": 2}


# §5 Movement ------------------------------------------------------------------------------------------
def test_RB_MOVE_1_adjacent_stripe_or_own_stripe_never_an_enemy_ground_level():
    game, c, _ = one_on_one("C", 2, ["rifle"], "3b")
    assert moves(game) == {(1, 0, 0), (1, 0, 1), (1, 1, 0), (1, 1, 1),
                           (2, 1, 0), (2, 2, 0),
                           (3, 0, 0), (3, 0, 1), (3, 1, 0), (3, 1, 1)}
    assert_illegal(game, "move", 2, 2, 0)                   # 3b: enemy on its Ground level
    assert_illegal(game, "move", 3, 0, 0)                   # Stripe 4: not adjacent
    assert_illegal(game, "move", 1, 0, 0)                   # its own position
    dice(game, 1, 1)                                        # Exposed Movement 11: nothing
    act(game, "move", 2, 0, 0)
    assert c.position == (3, 0, GROUND) and game.ap == 3


def test_RB_MOVE_2_more_than_half_suppressed_takes_no_movement_action():
    game = fresh()
    only(game, "A", "B")
    a, b = player(game, "A"), put(game, "B", "4a")
    unit(b, "B2").hits = unit(b, "B3").hits = 1             # 2 of 3 Suppressed
    enemy(game, "X", ["rifle"], 4)
    act(game, "activate", b.gid)
    have = families(game)
    assert not have & {"move", "floor", "hop", "sewer_enter"}
    assert {"fire", "rally"} <= have
    assert_illegal(game, "floor")
    assert_illegal(game, "move", 3, 0, 0)
    unit(b, "B3").hits = 0                                  # 1 of 3: may move again
    game.refresh()
    assert {"move", "floor", "hop"} <= families(game)
    # exactly half is not more than half
    act(game, "end_activation")
    unit(a, "A1").hits = unit(a, "A2").hits = 1
    act(game, "activate", a.gid)
    assert {"move", "sewer_enter"} <= families(game)
    # in the sewer: no sewer move or leave when more than half are Suppressed
    unit(a, "A3").hits = 1
    a.in_sewer = True
    game.refresh()
    assert not families(game) & {"sewer_move", "sewer_leave", "move"}


def test_RB_MOVE_3_enemy_groups_spend_no_ap_and_move_only_by_order():
    game = fresh()
    only(game, "C")
    c = player(game, "C")
    x = enemy(game, "X", ["rifle"], 4)
    act(game, "activate", c.gid)
    act(game, "move", 0, 1, 0)                              # the player moves: X does not
    assert x.position == (4, 0, GROUND)
    dice(game, 2)                                           # order 2: @Attack; nothing in range -> @Advance
    act(game, "end_phase")
    assert game.ap == 0
    act(game, "e_activate", x.gid)
    assert game.decision == ("advance", {"group": x.gid, "options": [0, -1]})
    act(game, "e_advance", 0)                               # one Stripe toward Stripe 1
    assert game.decision[0] == "place" and game.ap == 0 and x.stripe == 3
    act(game, "e_place", 0)
    assert x.position == (3, 0, GROUND) and game.turn == 2 and game.ap == game.scenario.ap
    # @Attack with a target in range: fire, no move
    dice(game, 2, 1)
    act(game, "end_phase")
    act(game, "e_activate", x.gid)
    assert game.decision[0] == "target" and game.decision[1]["mode"] == "fire"
    act(game, "e_target", c.gid)
    assert x.position == (3, 0, GROUND) and game.turn == 3


# §5 Enemy markers ---------------------------------------------------------------------------------------
def test_RB_EM_1_a_marker_has_no_content_until_revealed():
    game = fresh(markers=True)
    assert set(game.markers[0].to_dict()) == {"slot", "name", "stripe"}
    assert game.to_dict()["markers"][0] == {"slot": 0, "name": "E1", "stripe": 3}
    contents = []
    for face in (2, 5):
        g = fresh(markers=True)
        dice(g, face)
        act(g, "recon_reveal", 0)                           # E1 on Stripe 3, range 2 of the squad
        contents.append(sorted(u.weapon for u in g.enemies[-1].units))
        assert g.markers[0] is None
    assert contents == [["rifle", "rifle"], ["lmg", "rifle"]]


def test_RB_EM_2_reveals_after_the_move_resolves_lowest_stripe_then_id():
    game = fresh(markers=True)
    only(game, "A", "B", "C")
    a = put(game, "A", 3)
    act(game, "activate", a.gid)
    # Exposed Movement (11) first, then E1 (Stripe 3), E2 (4), E3 (5), E4 (5); E5 on Stripe 6 stays hidden
    dice(game, 1, 1, 2, 1, 5, 1)
    act(game, "move", 3, 0, 0)
    assert rolled(game)[:2] == [(6, 1), (6, 1)]
    assert game.decision[0] == "place" and game.decision[1]["stripe"] == 3      # E1: two Rifles
    act(game, "e_place", 0)
    assert game.decision[0] == "place" and game.decision[1]["stripe"] == 5      # E2 removed; E3: LMG + Rifle
    act(game, "e_place", 0)
    assert game.decision[0] == "player"                                          # E4 removed
    names = {g.name: (g.stripe, sorted(u.weapon for u in g.units)) for g in game.enemies if g.units}
    assert names == {"E1": (3, ["rifle", "rifle"]), "E3": (5, ["lmg", "rifle"])}
    assert [m and m.name for m in game.markers] == [None, None, None, None, "E5"]


def test_RB_EM_2_reveals_after_setup(tmp_path):
    text = open(config.scenario_path("block_six")).read().replace("{id: E1, stripe: 3}", "{id: E1, stripe: 2}")
    path = tmp_path / "near.yaml"
    path.write_text(text)
    game = RiflesGame.new(str(path), dice=ScriptedDice([3]))
    assert game.markers[0] is None and game.decision[0] == "place" and game.decision[1]["stripe"] == 2
    assert game.dice.log == [(6, 3)]


def test_RB_EM_2_sewer_moves_reveal_nothing_until_the_group_leaves():
    game = fresh(markers=True)
    only(game, "A")
    a = put(game, "A", 2)
    a.in_sewer = True
    act(game, "activate", a.gid)
    dice(game, 1)                                            # sewer move arrives on Stripe 3: no reveal roll
    act(game, "sewer_move", 1)
    assert a.stripe == 3 and game.markers[0] is not None and game.dice.remaining == 0
    dice(game, 1, 1)                                         # leave: E1 (3) and E2 (4) are revealed, both empty
    act(game, "sewer_leave")
    assert [m and m.name for m in game.markers] == [None, None, "E3", "E4", "E5"]


@pytest.mark.parametrize("face, weapons, leader", [
    (1, None, None), (2, ["rifle", "rifle"], []), (3, ["rifle", "rifle"], []),
    (4, ["rifle", "rifle", "rifle", "smg"], ["smg"]), (5, ["lmg", "rifle"], []), (6, ["hmg", "rifle"], []),
])
def test_RB_EM_3_reveal_roll_on_the_reveal_table(face, weapons, leader):
    game = fresh(markers=True)
    before = len(game.enemies)
    dice(game, face)
    act(game, "recon_reveal", 0)
    assert game.markers[0] is None
    if weapons is None:
        assert len(game.enemies) == before and game.decision[0] == "player"
        return
    group = game.enemies[-1]
    assert [u.weapon for u in group.units] == weapons
    assert [u.weapon for u in group.units if u.leader] == leader
    assert all(u.quality == 1 for u in group.units)                             # RU-SCN-3: Regular
    assert game.decision == ("place", {"group": group.gid, "stripe": 3, "options": [0, 1, 2]})
    act(game, "e_place", 1)
    assert group.position == (3, 1, GROUND)


def test_RB_EM_4_only_revealed_groups_act_or_are_targeted():
    game = fresh(markers=True)
    only(game, "B")
    b = put(game, "B", 2)
    game.markers = [None, game.markers[1], None, None, None]                      # E2 on Stripe 4, range 2
    act(game, "activate", b.gid)
    assert "fire" not in families(game)
    act(game, "end_phase")
    assert game.turn == 2 and game.decision[0] == "player"                        # no enemy decision at all
    dice(game, 5)
    act(game, "recon_reveal", 1)
    act(game, "e_place", 0)
    e2 = game.enemies[-1]
    act(game, "activate", b.gid)
    assert legal(game, "fire", e2.gid, 0)
    act(game, "end_phase")
    assert game.decision == ("activate", {"options": [e2.gid]})


# §7 Victory -----------------------------------------------------------------------------------------------
def test_RB_VIC_1_win_checked_at_the_end_phase_reward_plus_one():
    game = fresh()
    only(game, "A")
    a = put(game, "A", "5a")
    act(game, "activate", a.gid)
    act(game, "end_activation")
    assert game.outcome is None and game.returns() == (0.0, 0.0)
    events = act(game, "end_phase")
    assert game.outcome == 1 and game.returns() == (1.0, -1.0) and game.current_side is None
    assert "game_over" in kinds(events)


def test_RB_VIC_1_loss_reward_minus_one():
    game = fresh()
    only(game, "A", "B", "C")
    for _ in range(9):
        act(game, "end_phase")
    act(game, "end_phase")
    assert game.outcome == -1 and game.returns() == (-1.0, 1.0)


def test_RB_VIC_2_defeat_at_once_when_no_player_unit_is_left():
    game = fresh()
    only(game, "C")
    c = player(game, "C")
    for u in c.units:
        u.hits = 1
    x = enemy(game, "X", ["rifle", "rifle"], 2)
    dice(game, 2, 6, 6, 1, 1, 1)       # order @Attack; two hits; USN 1 -> no OK unit: random (d2 1 -> C1); USN 1 -> C2
    act(game, "end_phase")
    act(game, "e_activate", x.gid)
    events = act(game, "e_target", c.gid)
    assert game.outcome == -1 and game.phase == "enemy" and game.turn == 1
    assert game.returns() == (-1.0, 1.0) and "no player unit" in events[-1].text


def _five_lost(game) -> None:
    for group, name in (("C", "C1"), ("C", "C2"), ("B", "B3"), ("A", "A3"), ("A", "A4")):
        g = player(game, group)
        game.eliminate(g, unit(g, name))


@pytest.mark.parametrize("face, lost", [(2, True), (3, False)])
def test_RB_VIC_3_squad_morale_with_the_best_unsuppressed_leader(face, lost):
    game = fresh()
    only(game, "A", "B", "C")
    _five_lost(game)                                         # 5 of 9 eliminated; A1 Veteran Leader: target 3
    dice(game, face)
    act(game, "end_phase")
    assert (game.outcome == -1) is lost
    if not lost:
        assert game.turn == 2 and game.dice.remaining == 0
        act(game, "end_phase")                               # no unit lost in turn 2: no check (no die)
        assert game.turn == 3 and game.outcome is None


def test_RB_VIC_3_no_unsuppressed_leader_checks_as_recruit():
    game = fresh()
    only(game, "A", "B", "C")
    _five_lost(game)
    unit(player(game, "A"), "A1").hits = 1
    unit(player(game, "B"), "B1").hits = 1
    dice(game, 4)                                            # Recruit 5: 4 fails
    events = act(game, "end_phase")
    assert game.outcome == -1 and "squad morale" in events[-1].text


def test_RB_VIC_3_half_or_fewer_lost_needs_no_check():
    game = fresh()
    only(game, "A", "B", "C")
    a, b = player(game, "A"), player(game, "C")
    for g, name in ((a, "A3"), (a, "A4"), (b, "C1"), (b, "C2")):
        game.eliminate(g, unit(g, name))                     # 4 of 9: not more than half
    dice(game)
    act(game, "end_phase")
    assert game.turn == 2 and game.outcome is None


def test_RB_VIC_4_exit_from_stripe_six_where_the_scenario_allows():
    game = fresh(exit_allowed=True)
    only(game, "A", "B")
    a = put(game, "A", 5)
    act(game, "activate", a.gid)
    assert_illegal(game, "exit")                             # not on Stripe 6
    put(game, "A", 6)
    assert legal(game, "exit")
    a.in_sewer = True
    game.refresh()
    assert_illegal(game, "exit")                             # not from the sewer
    a.in_sewer = False
    x = enemy(game, "X", ["rifle"], 6)
    a.engaged_with, x.engaged_with = x.gid, a.gid
    game.refresh()
    assert_illegal(game, "exit")                             # not while Engaged
    a.engaged_with = x.engaged_with = -1
    x.units = []
    game.refresh()
    events = act(game, "exit")
    assert a.exited and not a.on_map and game.ap == 3 and game.exited_units == 4 and game.outcome is None
    assert "exit" in kinds(events) and [u.name for u in a.units] == ["A1", "A2", "A3", "A4"]
    assert all(u.alive for u in a.units)
    assert a not in enemy_rules.visible_players(game)


def test_RB_VIC_4_no_exit_when_the_scenario_forbids_it():
    game = fresh()
    only(game, "A")
    a = put(game, "A", 6)
    act(game, "activate", a.gid)
    assert_illegal(game, "exit")


def test_RB_EM_2_a_close_combat_placement_onto_another_stripe_reveals():
    game = fresh(markers=True)
    only(game, "A")
    a = put(game, "A", "4a")
    game.markers = [None] * 4 + [game.markers[4]]            # E5 on Stripe 6
    x = enemy(game, "X", ["rifle"], "5a")                    # same level of the 4a/5a complex: range 0
    act(game, "activate", a.gid)
    # morale 4+1: pass, A moves into 5a; round A 1+4 vs X 6+1: X wins, 1d3 (1) -> d4 1: A1; then E5 (d6 1: nothing)
    dice(game, 4, 1, 6, 1, 1, 1)
    act(game, "close_combat", x.gid, 0)
    assert a.stripe == 5 and a.engaged
    assert game.markers[4] is None and game.dice.remaining == 0
