"""Turn sequence and action points (rules catalog §3, §4: RB-TURN-*, RB-AP-*)."""
from __future__ import annotations

import pytest

from envs.rifles import fire
from envs.rifles.state import GROUND

from .builders import (
    act,
    assert_illegal,
    dice,
    enemy,
    families,
    fresh,
    legal,
    legal_actions,
    moves,
    one_on_one,
    only,
    player,
    put,
    rolled,
    texts,
    unit,
)


# §3 Turn sequence -------------------------------------------------------------------------------------
def test_RB_TURN_1_player_then_enemy_then_end_phase():
    game = fresh()
    only(game, "A", "B", "C")
    assert game.scenario.turns == 10 and (game.turn, game.phase) == (1, "player")
    x = enemy(game, "X", ["rifle"], 6)                       # nothing in range of it
    act(game, "end_phase")
    assert game.phase == "enemy" and game.decision == ("activate", {"options": [x.gid]})
    dice(game, 3)                                            # @Attack, no target -> @Advance
    act(game, "e_activate", x.gid)
    assert game.decision[0] == "advance" and game.turn == 1
    act(game, "e_advance", 1)                                # stay; then the End Phase, then turn 2
    assert (game.turn, game.phase, game.decision[0]) == (2, "player", "player")


def test_RB_TURN_1_turn_limit_from_the_scenario():
    game = fresh()
    only(game, "A", "B", "C")
    for turn in range(1, 10):
        assert game.turn == turn
        act(game, "end_phase")
    assert game.turn == 10 and game.outcome is None
    events = act(game, "end_phase")
    assert game.outcome == -1 and "time is up" in events[-1].text


def test_RB_TURN_2_ap_from_the_scenario_bap_per_unsuppressed_leader_both_lost_at_phase_end():
    game = fresh()
    only(game, "A", "B", "C")
    assert (game.ap, game.bap) == (game.scenario.ap, 2) == (4, 2)            # A1 and B1 lead
    c = player(game, "C")
    x = enemy(game, "X", ["rifle"], 6)
    act(game, "activate", c.gid)
    act(game, "move", 0, 1, 0)
    assert game.ap == 3
    act(game, "end_phase")
    assert game.phase == "enemy" and (game.ap, game.bap) == (0, 0)          # unspent AP and BAP are lost
    unit(player(game, "A"), "A1").hits = 1                                  # a Suppressed Leader gives no BAP
    dice(game, 4)
    act(game, "e_activate", x.gid)
    act(game, "e_advance", 1)
    assert game.turn == 2 and (game.ap, game.bap) == (4, 1)


def test_RB_TURN_3_one_group_active_at_a_time_each_once_per_turn():
    game = fresh()
    only(game, "A", "B", "C")
    a, b, c = (player(game, n) for n in "ABC")
    act(game, "activate", a.gid)
    assert game.active == a.gid and moves(game)
    assert legal(game, "activate", b.gid) and not legal(game, "activate", a.gid)
    act(game, "move", 0, 1, 0)                               # A moves to 1a
    act(game, "activate", b.gid)                             # closes A's activation
    assert game.active == b.gid and a.activated and b.activated
    assert_illegal(game, "activate", a.gid)
    act(game, "end_activation")
    assert game.active == -1 and not moves(game)
    assert_illegal(game, "activate", b.gid)
    assert legal(game, "activate", c.gid) and game.ap == 3
    act(game, "end_phase")
    assert legal(game, "activate", a.gid) and legal(game, "activate", b.gid)   # a new turn


def test_RB_TURN_4_end_phase_legal_at_every_player_decision():
    game = fresh()
    only(game, "C", "B")
    c, b = put(game, "C", 2), put(game, "B", 2)
    x = enemy(game, "X", ["rifle"], 2)
    b.engaged_with, x.engaged_with = x.gid, b.gid
    assert legal(game, "end_phase")                          # no active group
    act(game, "activate", b.gid)
    assert families(game) == {"end_phase", "end_activation", "activate", "close_combat"}   # an Engaged group
    act(game, "activate", c.gid)
    assert legal(game, "end_phase")                          # an active group
    for place in (1, 2, 1, 2):                               # four moves on its own Stripe spend every AP
        act(game, "move", 1, place, 0)
    assert game.ap == 0
    assert families(game) == {"end_phase", "end_activation"}
    act(game, "end_phase")
    assert game.phase == "enemy"


def test_RB_TURN_5_each_revealed_enemy_group_activates_once_in_order():
    game = fresh(markers=True)
    only(game, "A", "B", "C")
    game.markers = [None] * 4 + [game.markers[4]]            # E5 stays hidden on Stripe 6
    x = enemy(game, "X", ["rifle"], 6)                       # range 5 from the squad
    y = enemy(game, "Y", ["rifle"], 3)                       # range 2
    z = enemy(game, "Z", ["rifle"], "4a")                    # range 3
    dice(game, 4, 4, 4)                                      # every order: @Advance
    act(game, "end_phase")
    assert game.decision == ("activate", {"options": [y.gid, z.gid, x.gid]})   # RB-AI-2 order
    act(game, "e_activate", x.gid)                           # the enemy side may take any of them
    act(game, "e_advance", 1)
    assert game.decision == ("activate", {"options": [y.gid, z.gid]})
    assert_illegal(game, "e_activate", x.gid)                # once per turn
    act(game, "e_activate", y.gid)
    act(game, "e_advance", 1)
    assert game.decision == ("activate", {"options": [z.gid]})
    act(game, "e_activate", z.gid)
    act(game, "e_advance", 1)
    assert game.turn == 2 and game.decision[0] == "player" and game.dice.remaining == 0
    assert game.markers[4] is not None                       # a marker never activates


def test_RB_TURN_6_end_phase_clears_the_turns_flags_and_advances_the_turn():
    game = fresh()
    only(game, "A", "C")
    a, c = put(game, "A", 3), put(game, "C", 3)
    x = enemy(game, "X", ["rifle"], 5)
    act(game, "activate", c.gid)
    dice(game, 5)                                            # Rubble roll 5: 2 AP; declined -> barred this turn
    act(game, "move", 2, 1, 0)
    assert game.decision[0] == "rubble_cost"
    act(game, "rubble_decline")
    assert (c.gid, 3, 1) in game.barred and not legal(game, "move", 2, 1, 0)
    act(game, "activate", a.gid)
    dice(game, 1, 1, 4)                                      # A3, A4 miss at range 2; X's order 4: @Advance
    act(game, "fire", x.gid, 0)
    assert a.fired and [u.fired for u in a.units] == [False, False, True, True]
    act(game, "end_phase")
    act(game, "e_activate", x.gid)
    act(game, "e_advance", 1)
    assert (game.turn, game.phase) == (2, "player")
    assert not game.barred and not a.activated and not a.fired and not c.activated and not x.activated
    assert not any(u.fired for g in game.players + game.enemies for u in g.units)
    act(game, "activate", c.gid)
    assert legal(game, "move", 2, 1, 0)


# §4 Action points ---------------------------------------------------------------------------------------
def test_RB_AP_1_costs_come_from_the_tables():
    game = fresh()
    assert game.tables.ap_costs == {"move": 1, "fire": 1, "rally": 1, "close_combat": 1, "floor": 1, "hop": 1,
                                    "sewer": 1, "demo_charge": 2, "demo_take_back": 1, "exit": 1}


def _setup(kind):
    """A game with the active group ready for `kind`; returns (game, action args, dice faces)."""
    game = fresh(exit_allowed=True)
    only(game, "A", "C")
    a, c = player(game, "A"), player(game, "C")
    if kind == "move":
        act(game, "activate", c.gid)
        return game, ("move", 0, 1, 0), ()
    if kind in ("fire", "close_combat"):
        put(game, "C", 2)
        x = enemy(game, "X", ["rifle"], 2)
        act(game, "activate", c.gid)
        return game, (kind, x.gid, 0), (1, 1) if kind == "fire" else (1,)       # misses / failed morale
    if kind == "rally":
        unit(c, "C2").hits = 1
        act(game, "activate", c.gid)
        return game, ("rally", 0), (6,)
    if kind in ("floor", "hop"):
        put(game, "A", "4a")
        act(game, "activate", a.gid)
        return game, (kind,), ()
    if kind == "sewer_enter":
        act(game, "activate", a.gid)
        return game, ("sewer_enter",), ()
    if kind == "demo_place":
        put(game, "A", 4)
        act(game, "activate", a.gid)
        return game, ("demo_place", 2, 0), (6, 6)                               # breach 4b
    put(game, "A", 6)
    act(game, "activate", a.gid)
    return game, ("exit",), ()


@pytest.mark.parametrize("kind, cost", [("move", 1), ("fire", 1), ("rally", 1), ("close_combat", 1), ("floor", 1),
                                        ("hop", 1), ("sewer_enter", 1), ("demo_place", 2), ("exit", 1)])
def test_RB_AP_1_each_action_costs_its_ap(kind, cost):
    game, action, faces = _setup(kind)
    dice(game, *faces)
    act(game, *action)
    assert game.ap == 4 - cost and game.dice.remaining == 0


@pytest.mark.parametrize("kind", ["move", "fire", "rally", "close_combat", "floor", "hop", "sewer_enter", "demo_place", "exit"])
def test_RB_AP_1_an_action_costing_more_than_the_ap_left_is_illegal(kind):
    game, action, _ = _setup(kind)
    cost = 2 if kind == "demo_place" else 1
    game.ap = cost
    game.refresh()
    assert legal(game, *action)
    game.ap = cost - 1
    game.refresh()
    assert_illegal(game, *action)


def test_RB_AP_2_one_fire_per_activation():
    game = fresh()
    only(game, "C")
    c = put(game, "C", 2)
    x = enemy(game, "X", ["rifle"], 2)
    y = enemy(game, "Y", ["rifle"], 3)
    act(game, "activate", c.gid)
    dice(game, 1, 1)
    act(game, "fire", x.gid, 0)
    assert c.fired and game.ap == 3
    assert_illegal(game, "fire", x.gid, 0)
    assert_illegal(game, "fire", y.gid, 0)


def test_RB_AP_2_a_unit_fires_at_most_once_per_turn():
    game = fresh()
    only(game, "C")
    c = put(game, "C", 2)
    x = enemy(game, "X", ["rifle"], 2)
    unit(c, "C1").fired = True                               # C1 has fired this turn (e.g. before a merge)
    assert [u.name for u in fire.shooters(game, c, x)] == ["C2"]
    assert [u.name for u in fire.shooters(game, c, x, free=True)] == ["C1", "C2"]   # RU-EXP-4 free attack
    act(game, "activate", c.gid)
    dice(game, 1)                                            # one die: only C2 rolls
    act(game, "fire", x.gid, 0)
    assert rolled(game) == [(6, 1)]


def test_RB_AP_2_one_close_combat_round_per_activation():
    game, c, x = one_on_one("C", 2, ["rifle", "rifle"], 2)
    # morale Recruit 5 on a 5; round C 3+1 (more Veterans) vs X 4: tie, one result each (d2 1: C1; d2 1: X1)
    dice(game, 5, 3, 4, 1, 1)
    act(game, "close_combat", x.gid, 0)
    assert c.engaged and x.engaged and c.fought and game.ap == 3
    assert_illegal(game, "close_combat", x.gid, 0)
    assert families(game) == {"end_phase", "end_activation"}


def test_RB_AP_3_bap_adds_one_to_every_fire_die_and_pays_for_nothing():
    game, c, x = one_on_one("C", 2, ["rifle", "rifle"], "2a")  # range 0 into a Building: TN 5
    dice(game, 4, 4, 1, 1, 1)                                # 4+1 twice: two hits; USN X1 then X2
    events = act(game, "fire", x.gid, 1)
    assert (game.ap, game.bap) == (3, 1) and [u.suppressed for u in x.units] == [True, True]
    assert "DRM +1" in texts(events)[0] and "2 hit(s)" in texts(events)[0]
    # without a BAP the same dice miss
    game2, c2, x2 = one_on_one("C", 2, ["rifle", "rifle"], "2a")
    dice(game2, 4, 4)
    act(game2, "fire", x2.gid, 0)
    assert (game2.ap, game2.bap) == (3, 2) and not any(u.suppressed for u in x2.units)


def test_RB_AP_3_bap_needs_ap_for_the_action_and_is_at_most_one():
    game, c, x = one_on_one("C", 2, ["rifle"], 2)
    assert game.bap == 2 and game.tables.ap_costs["fire"] == 1
    assert {a for a in legal_actions(game) if a[0] == "fire"} == {("fire", (x.gid, 0)), ("fire", (x.gid, 1))}
    game.ap = 0
    game.refresh()
    assert_illegal(game, "fire", x.gid, 1)                   # a BAP pays for no action
    game.ap, game.bap = 4, 0
    game.refresh()
    assert_illegal(game, "fire", x.gid, 1)


def test_RB_AP_3_bap_on_a_rally_and_on_a_close_combat_morale_check():
    game = fresh()
    only(game, "B")
    b = player(game, "B")
    unit(b, "B2").hits = 1
    act(game, "activate", b.gid)
    dice(game, 2)                                            # 2 +1 Leader +1 BAP = 4: Regular passes
    act(game, "rally", 1)
    assert not unit(b, "B2").suppressed and (game.ap, game.bap) == (3, 1)
    game2, c, x = one_on_one("C", 2, ["rifle", "rifle"], 2)
    dice(game2, 4, 3, 4, 1, 1)                               # morale 4+1 vs Recruit 5: pass; then a tied round
    events = act(game2, "close_combat", x.gid, 1)
    assert c.engaged and game2.bap == 1 and any("morale 4+1 vs 5: pass" in t for t in texts(events))


def test_RB_AP_4_recon_reveal_costs_no_ap_within_range_two():
    game = fresh(markers=True)
    only(game, "A", "B", "C")
    assert game.recon == game.scenario.recon_points == 2
    assert legal(game, "recon_reveal", 0)                    # E1 on Stripe 3: range 2
    assert_illegal(game, "recon_reveal", 1)                  # E2 on Stripe 4: range 3
    game.ap = 0
    game.refresh()
    dice(game, 2)
    act(game, "recon_reveal", 0)                             # legal at 0 AP
    assert game.recon == 1 and game.ap == 0 and game.markers[0] is None
    assert game.decision[0] == "place"
    act(game, "e_place", 1)
    assert [u.weapon for u in game.enemies[-1].units] == ["rifle", "rifle"]
    game.recon = 0
    game.refresh()
    assert not {a for a in legal_actions(game) if a[0] == "recon_reveal"}


def test_RB_AP_4_recon_point_declared_with_a_move_skips_exposed_movement():
    game = fresh()
    only(game, "C")
    c = player(game, "C")
    act(game, "activate", c.gid)
    assert legal(game, "move", 1, 0, 1) and not legal(game, "move", 0, 1, 1)   # only a move to another Stripe
    dice(game)                                               # no die at all
    act(game, "move", 1, 0, 1)
    assert c.position == (2, 0, GROUND) and game.recon == 1 and game.ap == 3
    game.recon = 0
    game.refresh()
    assert_illegal(game, "move", 2, 0, 1)


def test_RB_TURN_4_end_phase_at_the_rubble_cost_prompt_declines_and_ends_the_phase():
    from envs.rifles.state import GROUND

    from .builders import act, dice, fresh, legal, only, put
    game = fresh()
    only(game, "A")
    a = put(game, "A", 2)
    act(game, "activate", a.gid)
    dice(game, 5)                                   # RU-RUB-1: 5 costs 2 AP -> the prompt
    rubble = game.feature_by_id("3a")
    act(game, "move", 2, rubble.place, 0)
    assert game.decision[0] == "rubble_cost" and legal(game, "end_phase")
    act(game, "end_phase")
    assert (a.stripe, a.place, a.level) == (2, 0, GROUND)      # the move was cancelled
    assert game.decision[0] == "player" and game.turn == 2 and game.ap == 4   # the enemy had nothing to do
    assert game.tasks == []
