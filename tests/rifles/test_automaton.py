"""The scripted opponent (rules catalog §13: RB-AI-1..11, RU-AI-1..5).

Each test checks both halves of an enemy decision: what the engine offers the enemy side (the
decision's options and the legal mask, the agent's freedom in two-player mode) and what the scripted
automaton (agents/scripted/rifles.py ScriptedEnemy, reading only game.view(1)) picks in that exact
situation.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from agents.scripted.rifles import ScriptedEnemy
from envs.rifles import geometry
from envs.rifles.actions import CODEC
from envs.rifles.enemy import ORDER_NAMES
from envs.rifles.state import FIRST, GROUND, OPEN

from .builders import act, activate, assert_illegal, dice, enemy, enemy_turn, fresh, kinds, legal_actions, only, player, put, start_enemy_phase, unit


# Helpers ------------------------------------------------------------------------------------------
def scripted(game, seed: int = 0) -> tuple:
    """The automaton's answer (family, args); it must be legal."""
    action = ScriptedEnemy(seed=seed).act(game.observation(1), game.legal_action_mask(), game.view(1))
    assert game.legal_action_mask()[action]
    return CODEC.decode(action)


def setup(*names: str, **options):
    """A fresh game keeping only the named player groups (enemies are added by each test)."""
    game = fresh(**options)
    only(game, *names)
    return game


def order_event(events) -> str:
    return next(e.text for e in events if e.kind == "order")


# RB-AI-1 ------------------------------------------------------------------------------------------
def test_RB_AI_1_order_roll_becomes_a_choice_obeying_the_rules():
    game = setup("C", enemy_rolls_as_choices=True)
    x = enemy(game, "X", ["rifle", "lmg"], 2)
    put(game, "C", 2)
    enemy_turn(game, x)                                    # no die: ScriptedDice([]) would raise
    assert game.decision == ("order", {"group": x.gid})
    assert legal_actions(game) == {("e_order", (i,)) for i in range(4)}
    # the automaton still rolls, with its own die: d6 + posture on RB-TAB-7
    die = int(np.random.default_rng(7).integers(1, 7))
    wanted = next(o for top, o in game.tables.enemy_orders if die + game.scenario.posture <= top)
    assert scripted(game, seed=7) == ("e_order", (ORDER_NAMES.index(wanted),))
    # an agent choosing Close Combat for a group with an LMG still gets @Attack (RU-CC-18)
    act(game, "e_order", ORDER_NAMES.index("close_combat"))
    assert game.decision == ("target", {"group": x.gid, "options": [player(game, "C").gid], "mode": "fire", "drm": 0})
    assert game.dice.remaining == 0


def test_RB_AI_1_chosen_orders_still_obey_sealed_and_first_floor_rules():
    game = fresh(enemy_rolls_as_choices=True)
    only(game, "C", "S")
    s = game.enemies[0]
    c = put(game, "C", 3)
    enemy_turn(game, s)
    act(game, "e_order", ORDER_NAMES.index("advance"))     # RU-TER-4 / RU-AI-5: the Strongpoint never moves
    assert game.decision == ("target", {"group": s.gid, "options": [c.gid], "mode": "fire", "drm": 0})
    game = setup("C", enemy_rolls_as_choices=True)
    x = enemy(game, "X", ["rifle", "rifle"], 3)
    c = put(game, "C", "4a", level=FIRST)
    enemy_turn(game, x)
    act(game, "e_order", ORDER_NAMES.index("close_combat"))    # RU-CC-19: no charge onto a First Floor
    assert game.decision == ("target", {"group": x.gid, "options": [c.gid], "mode": "fire", "drm": 0})
    assert game.dice.remaining == 0


def test_RB_AI_1_flag_off_the_order_is_a_die():
    game = setup("C")
    x = enemy(game, "X", ["rifle", "lmg"], 2)
    put(game, "C", 2)
    events = enemy_turn(game, x, 2)
    assert order_event(events) == "X order: attack"
    assert game.decision[0] == "target" and game.dice.remaining == 0


def test_RB_AI_1_floor_roll_becomes_a_choice():
    game = setup("C", enemy_rolls_as_choices=True)
    game.markers = [None] * len(game.markers)
    x = enemy(game, "X", ["rifle", "rifle"], 4)
    put(game, "C", 6)
    enemy_turn(game, x)
    act(game, "e_order", ORDER_NAMES.index("advance"))
    act(game, "e_advance", 2)                               # toward Stripe 5
    assert game.decision[0] == "place"
    act(game, "e_place", game.feature_by_id("5a").place)
    assert game.decision == ("level", {"group": x.gid})
    assert legal_actions(game) == {("e_level", (0,)), ("e_level", (1,))}
    up = int(np.random.default_rng(3).integers(1, 7)) >= game.tables.ms_first_floor_from
    assert scripted(game, seed=3) == ("e_level", (int(up),))
    act(game, "e_level", 1)
    assert x.level == FIRST and game.dice.remaining == 0


def test_RB_AI_1_floor_choice_never_shares_a_level_with_the_player():
    game = setup("C", enemy_rolls_as_choices=True)
    x = enemy(game, "X", ["rifle", "rifle"], "4a")
    put(game, "C", "4a", level=FIRST)                      # RU-MS-5: opposing groups on the two levels
    game.decision = ("level", {"group": x.gid})            # the floor decision for X in 4a
    game.refresh()
    assert legal_actions(game) == {("e_level", (0,))}       # RB-MAP-4
    assert_illegal(game, "e_level", 1)
    for seed in range(5):
        assert scripted(game, seed) == ("e_level", (0,))


# RB-AI-2 ------------------------------------------------------------------------------------------
def ai2_setup():
    game = setup("B", "C")
    b, c = put(game, "B", 6), put(game, "C", 3)
    x = enemy(game, "X", ["rifle", "rifle"], 4)             # distance 1 (C), Stripe 4
    y = enemy(game, "Y", ["rifle", "rifle"], 2)             # distance 1 (C), Stripe 2
    z = enemy(game, "Z", ["rifle", "rifle"], 1)             # distance 2
    w = enemy(game, "W", ["rifle", "rifle"], 6)             # Engaged with B: distance 0
    b.engaged_with, w.engaged_with, b.defending = w.gid, b.gid, True
    game.refresh()
    return game, b, c, x, y, z, w


def test_RB_AI_2_activation_options_and_automaton_order():
    game, b, c, x, y, z, w = ai2_setup()
    start_enemy_phase(game)
    assert game.decision[1]["options"] == [w.gid, y.gid, x.gid, z.gid]   # Engaged, distance, lower Stripe
    assert legal_actions(game) == {("e_activate", (g.gid,)) for g in (w, x, y, z)}
    assert scripted(game) == ("e_activate", (w.gid,))
    # W fights its round (RB-AI-3): W 4 vs B 1 (-1 LMG +1 more units) -> 2d3 = 2: B1, then B2 or B3 (B2)
    activate(game, w, 4, 1, 1, 1, 1, 1)
    assert game.decision == ("activate", {"options": [y.gid, x.gid, z.gid]})
    assert scripted(game) == ("e_activate", (y.gid,))
    assert_illegal(game, "e_activate", w.gid)               # once per turn


def test_RB_AI_2_agent_may_activate_any_waiting_group():
    game, b, c, x, y, z, w = ai2_setup()
    events = enemy_turn(game, z, 4)                         # not the automaton's pick: legal for an agent
    assert order_event(events) == "Z order: advance"
    assert z.activated and game.decision == ("advance", {"group": z.gid, "options": [0, 1]})


def test_RB_AI_2_ties_go_to_the_lower_group_id():
    game = setup("C")
    put(game, "C", 3)
    x = enemy(game, "X", ["rifle"], 4)
    y = enemy(game, "Y", ["rifle"], "4a")
    start_enemy_phase(game)
    assert game.decision[1]["options"] == [x.gid, y.gid]
    assert scripted(game) == ("e_activate", (x.gid,))


# RB-AI-3 ------------------------------------------------------------------------------------------
def test_RB_AI_3_engaged_group_fights_instead_of_an_order():
    game = setup("C", enemy_rolls_as_choices=True)          # even with orders as choices: no order decision
    c = put(game, "C", 3)
    x = enemy(game, "X", ["rifle", "rifle"], 3)
    c.engaged_with, x.engaged_with, c.defending = x.gid, c.gid, True
    c.rounds = x.rounds = 1
    # X 3 vs C 4+1 (Veteran): C wins, 1d3 = 1 on X (pick 2 -> X1)
    events = enemy_turn(game, x, 3, 4, 1, 1)
    assert [e.text for e in events if e.kind == "cc_round"] == ["close combat X 3 vs C 5"]
    assert not any(e.kind == "order" for e in events)
    assert [u.hits for u in x.units] == [1, 0] and game.dice.remaining == 0
    assert game.decision == ("player", {}) and game.turn == 2


# RB-AI-4 ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("posture, die, order", [
    (0, 1, "cover"), (0, 2, "attack"), (0, 3, "attack"), (0, 4, "advance"), (0, 5, "advance"),
    (0, 6, "close_combat"), (1, 5, "close_combat"), (1, 1, "attack"), (-1, 2, "cover"), (-1, 6, "advance"),
])
def test_RB_AI_4_order_is_d6_plus_posture_on_the_table(posture, die, order):
    game = setup("C")
    game.scenario = dataclasses.replace(game.scenario, posture=posture)
    put(game, "C", 1)
    x = enemy(game, "X", ["rifle", "rifle"], 3)
    events = enemy_turn(game, x, die)
    assert order_event(events) == f"X order: {order}"
    assert game.dice.remaining == 0


def test_RB_AI_4_the_order_taken_is_in_both_observations_until_the_next_enemy_phase():
    """RB-HID-1: the order die is public; an order may leave no trace on the table (a Cover order with nothing to
    do), yet it decides what the enemy is asked, so each enemy slot shows its order of the last Enemy Phase, to both
    sides, through the next Player Phase."""
    from envs.rifles import observation as ob
    game = setup("C")
    put(game, "C", 1)
    x = enemy(game, "X", ["pistol", "pistol"], 6)           # out of reach: its Cover fire has no target
    orders = ob.EXPOSED_AT + len(ob.EXPOSED_EFFECTS) + 12
    assert not game.observation(0)[orders:].any()
    enemy_turn(game, x, 1, 1)                               # d6 1: cover; better cover, an MS: 1, its Ground Floor
    assert game.decision == ("player", {}) and game.turn == 2 and game.dice.remaining == 0
    block = [0.0] * (12 * len(ob.ENEMY_ORDERS))
    block[x.gid * 4 + ob.ENEMY_ORDERS.index("cover")] = 1.0
    for side in (0, 1):
        assert list(game.observation(side)[orders:]) == block
    assert game.enemy_orders == {x.gid: 0} and type(game).from_dict(game.to_dict()).enemy_orders == {x.gid: 0}
    from envs.rifles.public import public_facts
    assert public_facts(game)[-1] == ((x.gid, 0),)


def test_RB_AI_4_table_comes_from_configs():
    game = fresh()
    assert game.tables.enemy_orders == ((1, "cover"), (3, "attack"), (5, "advance"), (99, "close_combat"))
    assert game.scenario.posture == 0                       # RU-SCN-3: neutral


# RB-AI-5 ------------------------------------------------------------------------------------------
def reveal_on(game, marker: int, die: int):
    """Reveal marker `marker` with a Recon Point; the reveal die is `die`."""
    dice(game, die)
    act(game, "recon_reveal", marker)
    assert game.decision[0] == "place"
    return game.enemies[game.decision[1]["group"]]


def test_RB_AI_5_reveal_placement_rubble_before_wall():
    game = setup("C", markers=True)
    put(game, "C", 2)
    x = reveal_on(game, 0, 2)                               # E1 on Stripe 3: two Rifles
    rubble, wall = game.feature_by_id("3a").place, game.feature_by_id("3b").place
    assert game.decision[1] == {"group": x.gid, "stripe": 3, "options": [OPEN, rubble, wall]}
    assert legal_actions(game) == {("e_place", (p,)) for p in (OPEN, rubble, wall)}
    assert scripted(game) == ("e_place", (rubble,))
    act(game, "e_place", rubble)                            # RU-AI-1: no Rubble roll for the enemy
    assert x.position == (3, rubble, GROUND) and game.dice.remaining == 0


def test_RB_AI_5_feature_with_a_player_unit_is_not_offered():
    game = setup("C", markers=True)
    c = put(game, "C", "3a")
    x = reveal_on(game, 0, 2)
    wall = game.feature_by_id("3b").place
    assert game.decision[1]["options"] == [OPEN, wall]
    assert_illegal(game, "e_place", c.place)
    assert scripted(game) == ("e_place", (wall,))
    act(game, "e_place", OPEN)                              # the agent may take any free position
    assert x.position == (3, OPEN, GROUND)


def test_RB_AI_5_complex_first_then_lower_id():
    game = setup("C", markers=True)
    # make 5b an MS of the complex instead of 5a: the complex building outranks the plain MS 5a
    f5a, f5b, f4a = (game.feature_by_id(i) for i in ("5a", "5b", "4a"))
    f5a.complex, f5b.kind, f5b.complex = None, "ms", "X"
    game.complexes["X"] = [f4a, f5b]
    put(game, "C", 3)
    x = reveal_on(game, 2, 2)                               # E3 on Stripe 5
    assert scripted(game) == ("e_place", (f5b.place,))
    # with a player unit in 4a the complex is not free: 5a and 5b are both MS, lower ID wins
    c = player(game, "C")
    put(game, "C", "4a")
    assert scripted(game) == ("e_place", (f5a.place,))
    assert geometry.priority_rank(game, 5, f5b.place, 1) == geometry.priority_rank(game, 5, f5a.place, 1)
    assert c.stripe == 4 and x.stripe == 5


def test_RB_AI_5_wall_before_woods():
    game = setup("C", markers=True)
    f3a, f3b = game.feature_by_id("3a"), game.feature_by_id("3b")
    f3a.kind = "woods"                                      # 3a Woods (lower ID), 3b Wall
    put(game, "C", 2)
    reveal_on(game, 0, 2)
    assert game.decision[1]["options"] == [OPEN, f3a.place, f3b.place]
    assert scripted(game) == ("e_place", (f3b.place,))
    view = game.view(1)
    assert view.priority_rank(3, f3b.place) < view.priority_rank(3, f3a.place) < view.priority_rank(3, OPEN)


def test_RB_AI_5_only_open_when_every_feature_is_held():
    game = setup("B", "C", markers=True)
    put(game, "B", "3a")
    put(game, "C", "3b")
    reveal_on(game, 0, 3)
    assert game.decision[1]["options"] == [OPEN]
    assert scripted(game) == ("e_place", (OPEN,))


# RB-AI-6 ------------------------------------------------------------------------------------------
def attack_setup():
    game = setup("A", "B", "C")
    x = enemy(game, "X", ["rifle", "rifle"], 3)
    return game, x


def test_RB_AI_6_nearest_then_lowest_tn():
    game, x = attack_setup()
    a, b, c = put(game, "A", 1), put(game, "B", 2), put(game, "C", "2a")   # A range 2 TN 5; B range 1 TN 4; C range 1 TN 6
    enemy_turn(game, x, 2)                                  # @Attack
    assert game.decision == ("target", {"group": x.gid, "options": [b.gid, c.gid, a.gid], "mode": "fire", "drm": 0})
    assert legal_actions(game) == {("e_target", (g.gid,)) for g in (a, b, c)}
    assert scripted(game) == ("e_target", (b.gid,))


def test_RB_AI_6_nearest_beats_a_lower_tn():
    game, x = attack_setup()
    a, b = put(game, "A", "2a"), put(game, "B", 1)          # A range 1 TN 6; B range 2 TN 5
    put(game, "C", 6)                                       # range 3: out of Rifle range, no target
    enemy_turn(game, x, 2)
    assert game.decision[1]["options"] == [a.gid, b.gid]
    assert_illegal(game, "e_target", player(game, "C").gid)
    assert scripted(game) == ("e_target", (a.gid,))


def test_RB_AI_6_ties_lower_id():
    game, x = attack_setup()
    a, b, c = put(game, "A", 2), put(game, "B", 2), put(game, "C", 2)
    enemy_turn(game, x, 2)
    assert game.decision[1]["options"] == [a.gid, b.gid, c.gid]
    assert scripted(game) == ("e_target", (a.gid,))
    # the agent may pick any legal target; the fire follows: X1, X2 at TN 4: 4 hits, 3 misses; USN 1 -> OK unit, pick(3)=C2? C has 2
    dice(game, 4, 3, 1, 2)
    act(game, "e_target", c.gid)
    assert [u.hits for u in c.units] == [0, 1] and game.dice.remaining == 0


# RB-AI-7 ------------------------------------------------------------------------------------------
def test_RB_AI_7_attack_fires_at_the_target():
    game, x = attack_setup()
    only(game, "B", "X")
    b = put(game, "B", 2)
    enemy_turn(game, x, 3)
    dice(game, 4, 3, 1, 2)                                  # one hit; USN 1 -> random OK unit: pick(3) = B2
    events = act(game, "e_target", b.gid)
    assert kinds(events).count("fire") == 1
    assert unit(b, "B2").suppressed and game.dice.remaining == 0


def test_RB_AI_7_attack_with_no_target_in_range_advances():
    game, x = attack_setup()
    only(game, "C", "X")
    put(game, "C", 1)
    put(game, "X", 5)                                       # range 4: no Rifle reaches
    events = enemy_turn(game, x, 2)
    assert order_event(events) == "X order: attack"
    assert game.decision == ("advance", {"group": x.gid, "options": [0, -1]})
    assert scripted(game) == ("e_advance", (0,))            # toward Stripe 1 (the nearest player group)


# RB-AI-8 ------------------------------------------------------------------------------------------
def test_RB_AI_8_cover_moves_rallies_and_ok_units_fire_at_minus_one():
    game = setup("B")
    b = put(game, "B", 2)
    x = enemy(game, "X", ["rifle", "rifle"], 3)
    x.units[1].hits = 1
    events = enemy_turn(game, x, 1, 4)                      # @Cover; X2 rallies on 4 (Regular 4)
    assert order_event(events) == "X order: cover"
    assert x.position == (3, game.feature_by_id("3a").place, GROUND)    # Rubble beats the Wall
    assert not x.units[1].suppressed
    assert game.decision == ("target", {"group": x.gid, "options": [b.gid], "mode": "cover_fire", "drm": -1,
                                        "units": ["X1"]})
    assert scripted(game) == ("e_target", (b.gid,))
    dice(game, 5, 1, 1)                                     # X1 only: 5-1 = 4 hits TN 4; USN 1 -> pick(3) = B1
    events = act(game, "e_target", b.gid)
    assert [e.text for e in events if e.kind == "fire"] == ["X fires at B (1 units, DRM -1): 1 hit(s)"]
    assert unit(b, "B1").suppressed and game.dice.remaining == 0


def test_RB_AI_8_cover_into_an_ms_rolls_the_floor_before_firing():
    game = setup("B")
    b = put(game, "B", 3)
    x = enemy(game, "X", ["rifle", "rifle"], 4)
    enemy_turn(game, x, 1, 4)                               # @Cover into 4a (MS); RU-AI-2 floor d6 4: First Floor
    assert x.position == (4, game.feature_by_id("4a").place, FIRST)
    assert game.decision[0] == "target" and game.decision[1]["mode"] == "cover_fire"
    dice(game, 4, 3, 1, 1)                                  # TN 4, DRM -1 +1 (RU-MS-4) = 0: one hit; USN 1, pick(3) = B1
    events = act(game, "e_target", b.gid)
    assert [e.text for e in events if e.kind == "fire"] == ["X fires at B (2 units, DRM +0): 1 hit(s)"]
    assert game.dice.remaining == 0


def test_RB_AI_8_cover_fire_ranks_targets_by_the_units_that_fire():
    game = setup("B", "C")
    b, c = put(game, "B", "3a"), put(game, "C", 3)          # both at range 0: B in Rubble, C in the Open
    x = enemy(game, "X", ["flamethrower", "rifle"], 3)
    x.units[0].hits = 1                                     # the Flamethrower rallies but does not fire
    enemy_turn(game, x, 1, 4)                               # @Cover: to the Wall 3b (3a is held); X1 rallies
    assert x.place == game.feature_by_id("3b").place and not x.units[0].suppressed
    # the Rifle alone: C TN 3, B TN 3+2 = 5 (a Flamethrower would ignore B's cover: TN 3 for both)
    assert game.decision[1]["options"] == [c.gid, b.gid] and game.decision[1]["units"] == ["X2"]
    assert scripted(game) == ("e_target", (c.gid,))


def test_RB_AI_8_cover_stays_when_nothing_is_better():
    game = setup("B")
    b = put(game, "B", 3)
    x = enemy(game, "X", ["rifle", "rifle"], "2a")          # a Building: the Wall 2b is not better
    enemy_turn(game, x, 1)
    assert x.position == (2, game.feature_by_id("2a").place, GROUND)
    assert game.decision[1]["options"] == [b.gid]


# RB-AI-9 ------------------------------------------------------------------------------------------
def advance_setup(*, b_at, c_at, x_at=4):
    """B and C on `b_at` and `c_at`, enemy X (two Rifles) on `x_at`, no other group; returns (game, x)."""
    game = setup("B", "C")
    x = enemy(game, "X", ["rifle", "rifle"], x_at)
    put(game, "B", b_at)
    put(game, "C", c_at)
    return game, x


def test_RB_AI_9_toward_the_nearest_ties_lower_id():
    game, x = advance_setup(b_at=6, c_at=2)                 # both at distance 2; B has the lower ID
    events = enemy_turn(game, x, 4)
    assert order_event(events) == "X order: advance"
    assert game.decision == ("advance", {"group": x.gid, "options": [0, -1, 1]})
    assert legal_actions(game) == {("e_advance", (i,)) for i in (0, 1, 2)}
    assert scripted(game) == ("e_advance", (2,))            # +1 toward B
    act(game, "e_advance", 2)
    assert x.stripe == 5 and game.decision[0] == "place" and game.dice.remaining == 0


def test_RB_AI_9_only_stripes_nearer_some_player_are_offered():
    game, x = advance_setup(b_at=1, c_at=2)
    enemy_turn(game, x, 4)
    assert game.decision[1]["options"] == [0, -1]
    assert_illegal(game, "e_advance", 2)
    assert scripted(game) == ("e_advance", (0,))


def test_RB_AI_9_stays_when_the_nearest_shares_its_stripe():
    game, x = advance_setup(b_at=6, c_at="4a")
    enemy_turn(game, x, 4)
    assert game.decision[1]["options"] == [0, 1]
    assert scripted(game) == ("e_advance", (1,))            # delta 0: stay
    act(game, "e_advance", 1)
    assert x.stripe == 4 and game.dice.remaining == 0


def test_RB_AI_9_no_visible_player_toward_stripe_one():
    game, x = advance_setup(b_at=5, c_at=5)
    for name in ("B", "C"):
        player(game, name).in_sewer = True                  # RB-HID-3: sewer groups count for nothing
    enemy_turn(game, x, 4)
    assert game.decision[1]["options"] == [0, -1]
    assert scripted(game) == ("e_advance", (0,))


# RB-AI-10 -----------------------------------------------------------------------------------------
def cc_order_setup():
    game = setup("A", "B", "C")
    x = enemy(game, "X", ["rifle", "rifle", "rifle", "rifle"], 2)
    return game, x


def test_RB_AI_10_range_zero_fewest_units_first():
    game, x = cc_order_setup()
    a, b, c = put(game, "A", "2a"), put(game, "B", "2b"), put(game, "C", 2)
    enemy_turn(game, x, 6)
    assert game.decision == ("target", {"group": x.gid, "options": [c.gid, b.gid, a.gid], "mode": "close_combat", "drm": 0})
    assert legal_actions(game) == {("e_target", (g.gid,)) for g in (a, b, c)}
    assert scripted(game) == ("e_target", (c.gid,))


def test_RB_AI_10_never_an_engaged_player_group():
    game, x = cc_order_setup()
    a, b, c = put(game, "A", "2a"), put(game, "B", "2b"), put(game, "C", 2)
    y = enemy(game, "Y", ["rifle", "rifle"], 2)
    c.engaged_with, y.engaged_with, c.defending = y.gid, c.gid, True
    start_enemy_phase(game)
    assert game.decision[1]["options"][0] == y.gid          # Engaged first; activate X instead
    activate(game, x, 6)
    assert game.decision[1]["options"] == [b.gid, a.gid]
    assert_illegal(game, "e_target", c.gid)
    assert scripted(game) == ("e_target", (b.gid,))


def test_RB_AI_10_charge_at_range_one_only_without_range_zero():
    game, x = cc_order_setup()
    b, c = put(game, "B", 2), put(game, "C", 3)             # C (2 units) at range 1, B (3 units) at range 0
    only(game, "B", "C", "X")
    enemy_turn(game, x, 6)
    assert game.decision[1]["options"] == [b.gid]
    assert scripted(game) == ("e_target", (b.gid,))
    assert_illegal(game, "e_target", c.gid)


def test_RB_AI_10_charge_moves_onto_the_target():
    game, x = cc_order_setup()
    c = put(game, "C", "3b")
    only(game, "C", "X")
    enemy_turn(game, x, 6)
    assert game.decision[1]["options"] == [c.gid]
    assert scripted(game) == ("e_target", (c.gid,))
    # X 6 +1 (more units) vs C 1 +1 (Veteran) +1 (Wall, first round) -> 2d3 = 2: C1, C2
    dice(game, 6, 1, 1, 1, 1)
    act(game, "e_target", c.gid)
    assert x.position == c.position == (3, game.feature_by_id("3b").place, GROUND)
    assert x.engaged_with == c.gid and game.dice.remaining == 0


def test_RB_AI_10_no_eligible_target_is_attack():
    game, x = cc_order_setup()
    put(game, "C", 4)                                       # range 2: no charge
    only(game, "C", "X")
    enemy_turn(game, x, 6)
    assert game.decision[1]["mode"] == "fire"


# RB-AI-11 -----------------------------------------------------------------------------------------
def test_RB_AI_11_opportunity_fire_by_the_nearest_group_in_range():
    game = setup("A")
    x = enemy(game, "X", ["rifle"], 3)                      # distance 1 after the move
    y = enemy(game, "Y", ["lmg"], 4)                        # distance 2, LMG reaches
    z = enemy(game, "Z", ["smg"], 4)                        # distance 2, SMG does not
    w = enemy(game, "W", ["rifle"], "3b")                   # distance 1, higher ID than X
    a = player(game, "A")
    act(game, "activate", a.gid)
    dice(game, 5, 1)                                        # D66 51: opportunity fire (RB-TAB-8)
    act(game, "move", 1, OPEN, 0)
    assert game.decision == ("free_attacker", {"target": a.gid, "drm": 0, "options": [x.gid, w.gid, y.gid]})
    assert legal_actions(game) == {("e_free_attacker", (g.gid,)) for g in (x, w, y)}
    assert_illegal(game, "e_free_attacker", z.gid)
    assert scripted(game) == ("e_free_attacker", (x.gid,))
    dice(game, 6, 1, 1)                                     # X1 hits (TN 4); USN 1 -> pick(4) = A1
    act(game, "e_free_attacker", x.gid)
    assert unit(a, "A1").suppressed and game.dice.remaining == 0
    assert not x.units[0].fired                             # RU-EXP-4: outside its activation


# RU-AI-1 ------------------------------------------------------------------------------------------
def test_RU_AI_1_enemy_enters_rubble_without_a_roll():
    game, x = advance_setup(b_at=1, c_at=1)
    enemy_turn(game, x, 4)
    act(game, "e_advance", 0)                               # to Stripe 3
    rubble = game.feature_by_id("3a").place
    assert scripted(game) == ("e_place", (rubble,))
    events = act(game, "e_place", rubble)                   # no die scripted: a roll would raise
    assert x.position == (3, rubble, GROUND)
    assert not any(e.kind == "rubble" for e in events)


# RU-AI-2 ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("die, level", [(3, GROUND), (4, FIRST), (6, FIRST)])
def test_RU_AI_2_reveal_into_ms_first_floor_on_four_plus(die, level):
    game = setup("C", markers=True)
    put(game, "C", 2)
    x = reveal_on(game, 1, 5)                               # E2 on Stripe 4: LMG + Rifle
    ms = game.feature_by_id("4a").place
    assert scripted(game) == ("e_place", (ms,))
    dice(game, die)
    act(game, "e_place", ms)
    assert x.position == (4, ms, level) and game.dice.remaining == 0
    assert game.tables.ms_first_floor_from == 4             # from configs


def test_RU_AI_2_advance_into_ms_rolls_the_floor():
    game, x = advance_setup(b_at=1, c_at=1, x_at=6)
    enemy_turn(game, x, 4)
    act(game, "e_advance", 0)                               # to Stripe 5
    assert scripted(game) == ("e_place", (game.feature_by_id("5a").place,))
    dice(game, 5)
    act(game, "e_place", game.feature_by_id("5a").place)
    assert x.level == FIRST and game.dice.remaining == 0


# RU-AI-3 ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("die", [1, 2, 6])                  # @Cover, @Attack, Close Combat turned @Attack (LMG)
def test_RU_AI_3_cover_or_attack_first_moves_up(die):
    game = setup("C")
    c = put(game, "C", 3)
    x = enemy(game, "X", ["rifle", "lmg"], "4a")
    enemy_turn(game, x, die)
    assert game.decision == ("move_up", {"group": x.gid})
    assert legal_actions(game) == {("e_yes", ()), ("e_no", ())}
    assert scripted(game) == ("e_yes", ())
    act(game, "e_yes")
    assert x.level == FIRST and game.decision[0] == "target"
    assert game.decision[1]["options"] == [c.gid] and game.dice.remaining == 0


def test_RU_AI_3_agent_may_decline():
    game = setup("C")
    put(game, "C", 3)
    x = enemy(game, "X", ["rifle", "lmg"], "4a")
    enemy_turn(game, x, 2)
    act(game, "e_no")
    assert x.level == GROUND and game.decision[0] == "target"


def test_RU_AI_3_not_on_advance_nor_under_a_player_first_floor():
    game = setup("B", "C")
    put(game, "B", 1)
    c = put(game, "C", "4a", level=FIRST)
    x = enemy(game, "X", ["rifle", "lmg"], "4a")
    enemy_turn(game, x, 2)                                  # @Attack, First Floor held by C: no move up
    assert game.decision[0] == "target" and c.gid in game.decision[1]["options"]
    game2 = setup("C")
    put(game2, "C", 1)
    x2 = enemy(game2, "X", ["rifle", "lmg"], "4a")
    enemy_turn(game2, x2, 4)                                # @Advance: no move up
    assert game2.decision[0] == "advance" and x2.level == GROUND


# RU-AI-4 ------------------------------------------------------------------------------------------
def test_RU_AI_4_advance_into_a_free_complex_ends_in_it():
    game, x = advance_setup(b_at=6, c_at=6, x_at=3)
    enemy_turn(game, x, 4)
    act(game, "e_advance", 2)                               # to Stripe 4
    f4a = game.feature_by_id("4a")
    assert game.decision[1]["options"] == [OPEN, f4a.place]  # 4b is Sealed
    assert game.view(1).priority_rank(4, f4a.place) == 0
    assert scripted(game) == ("e_place", (f4a.place,))


def test_RU_AI_4_group_inside_moves_through_keeping_its_level():
    game, x = advance_setup(b_at=6, c_at=6, x_at="4a")
    x.level = FIRST
    enemy_turn(game, x, 4)
    assert scripted(game) == ("e_advance", (2,))
    act(game, "e_advance", 2)
    assert game.decision == ("through_complex", {"group": x.gid, "delta": 1})
    assert legal_actions(game) == {("e_yes", ()), ("e_no", ())}
    assert scripted(game) == ("e_yes", ())
    act(game, "e_yes")                                      # no floor roll: no die scripted
    assert x.position == (5, game.feature_by_id("5a").place, FIRST)


def test_RU_AI_4_agent_may_decline_the_complex():
    game, x = advance_setup(b_at=6, c_at=6, x_at="4a")
    enemy_turn(game, x, 4)
    act(game, "e_advance", 2)
    act(game, "e_no")
    assert x.position == (5, OPEN, GROUND) and game.decision[0] == "place"


def test_RU_AI_4_no_move_through_onto_a_player_level():
    game, x = advance_setup(b_at=6, c_at="5a", x_at="4a")
    c = player(game, "C")
    enemy_turn(game, x, 4)
    act(game, "e_advance", 2)
    assert game.decision[0] == "place" and c.place not in game.decision[1]["options"]


# RU-AI-5 ------------------------------------------------------------------------------------------
def strongpoint_setup(c_at=3):
    game = fresh()
    only(game, "C", "S")
    put(game, "C", c_at)
    return game, game.enemies[0]


@pytest.mark.parametrize("die", [4, 6])                     # @Advance and Close Combat become @Attack
def test_RU_AI_5_sealed_group_advance_or_cc_become_attack(die):
    game, s = strongpoint_setup()
    enemy_turn(game, s, die)
    assert game.decision == ("target", {"group": s.gid, "options": [player(game, "C").gid], "mode": "fire", "drm": 0})
    assert s.position == (4, game.feature_by_id("4b").place, GROUND)


def test_RU_AI_5_sealed_group_loses_its_cover_move():
    game, s = strongpoint_setup()
    enemy_turn(game, s, 1)                                  # 4a (complex MS) would be better cover
    assert s.position == (4, game.feature_by_id("4b").place, GROUND)
    assert game.decision[1]["mode"] == "cover_fire"


def test_RU_AI_5_sealed_group_without_target_stays_put():
    game, s = strongpoint_setup(c_at=1)
    s.units[0].hits = 1                                     # HMG Suppressed: the Rifle does not reach range 3
    enemy_turn(game, s, 2)
    assert s.position == (4, game.feature_by_id("4b").place, GROUND)
    assert game.decision == ("player", {}) and game.turn == 2


def test_RU_AI_5_breached_building_frees_the_group():
    game, s = strongpoint_setup()
    game.feature_by_id("4b").sealed = False
    enemy_turn(game, s, 1, 3)                               # @Cover: into 4a; floor d6 3: Ground
    assert s.position == (4, game.feature_by_id("4a").place, GROUND)
