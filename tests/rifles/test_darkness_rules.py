"""Rifles in the Darkness: general rules, traits, tables (rules catalog §12 RD-GEN / RD-TRT, §16 RD-TAB).

Night Crossing (night()): P = P1 Leader Veteran SMG, P2-P3 Regular Rifle, P4 Recruit Rifle, in Stripe 1's Open;
Q = Q1 Leader Regular Rifle, Q2 Regular LMG, Q3 Regular Flamethrower, at the wall 1a. Dice are scripted
face by face; `game.dice.remaining == 0` at the end proves no other die was rolled.
"""
from __future__ import annotations

from envs.rifles import config, darkness, enemy, fire
from envs.rifles.game import RiflesGame
from envs.rifles.state import QUALITY

from .builders import act, assert_illegal, dark, dice, enemy_turn, legal, night, player, put, ready, stalker_chose_p, texts, unit


# RD-GEN-1 -----------------------------------------------------------------------------------------
def test_RD_GEN_1_the_scenario_switches_the_darkness_module_on():
    assert night().module.name == "darkness"
    assert RiflesGame.new("block_six", seed=0).module.name == "urban"
    game = night()
    assert game.scenario.modules == ("darkness",)
    assert list(game.scenario.darkness.types) == ["crawler", "stalker", "spitter", "brute"]


def test_RD_GEN_1_a_marker_reveals_darkness_types_from_the_mission_list():
    game = night(markers=True)
    p = ready(game, "P")
    dice(game, 4, 1)                       # K1: d6 4 -> one Stalker; K2: d6 1 -> removed
    act(game, "move", 1, 0, 0)             # P to Stripe 2: K1, K2 (Stripe 3) are within range 1 (RB-EM-2)
    assert game.decision[0] == "place"
    act(game, "e_place", 1)                # the Stalker takes the wall 3a (RB-AI-5)
    k1 = game.enemies[0]
    assert [(u.name, u.kind, u.weapon) for u in k1.units] == [("K1.1", "stalker", "stalker")]
    assert (k1.stripe, k1.place) == (3, 1)
    assert game.markers[0] is None and game.markers[1] is None
    assert game.decision == ("player", {}) and game.active == p.gid
    assert game.dice.remaining == 0


def test_RD_GEN_1_standard_fire_rules_apply_to_darkness_targets():
    game = night()
    k = dark(game, "K", ["brute"], 2)
    ready(game, "Q", 1)                    # Q1 rifle 1 die, Q2 LMG 2 dice at range 1: TN 4 (RB-TAB-1); the FT cannot reach
    dice(game, 4, 3, 1, 2)                 # 4 hits, 3 and 1 miss; one hit: USN d6 2 -> the only unit
    events = act(game, "fire", k.gid, 0)
    assert texts(events, "fire") == ["Q fires at K (2 units, DRM +0): 1 hit(s)"]
    assert k.units[0].hits == 1 and game.ap == 3
    assert game.dice.remaining == 0


# RD-GEN-2 -----------------------------------------------------------------------------------------
def test_RD_GEN_2_player_results_are_shaken_with_the_effects_of_suppressed():
    game = night()
    s = dark(game, "S", ["spitter", "spitter"], 3)
    p = player(game, "P")
    enemy_turn(game, s, 1)                 # RD-AI-2: d6 1 -> @Attack; targets P (TN 5), Q (TN 6)
    dice(game, 5, 1, 1, 2)                 # S1 hits, S2 misses; RD-TRT-3 one USN roll: 1 -> random OK unit, die 2 -> P2
    events = act(game, "e_target", p.gid)
    assert texts(events, "result") == ["P2 of P is SHAKEN"]
    p2 = unit(p, "P2")
    assert p2.suppressed and p2.hits == 1
    dice(game, 1, 1)                       # the second attack misses
    act(game, "e_target", p.gid)
    assert game.phase == "player" and game.turn == 2
    act(game, "activate", p.gid)
    x = dark(game, "X", ["brute"], 1)
    assert p2 not in fire.shooters(game, p, x)            # RB-HIT-2: a SHAKEN unit cannot fire
    assert {u.name for u in fire.shooters(game, p, x)} == {"P1", "P3", "P4"}
    assert game.bap == 2                                    # P1 and Q1 unshaken Leaders (RB-TURN-2)
    assert game.dice.remaining == 0


# RD-GEN-3 -----------------------------------------------------------------------------------------
def test_RD_GEN_3_stat_line_ranged_cf_range_and_fractional_cc_cf():
    game = night()
    weapons = game.tables.weapons
    assert (weapons["spitter"].cf, weapons["spitter"].min_range, weapons["spitter"].max_range) == (1, 0, 2)
    assert weapons["crawler"].cf == 0 and not any(weapons["crawler"].reaches(r) for r in range(6))
    assert [weapons[t].cc_cf for t in ("crawler", "stalker", "spitter", "brute")] == [1.5, 1.0, 0.5, 3.0]
    s = dark(game, "S", ["spitter", "spitter"], 4)
    p = put(game, "P", 1)
    assert enemy.targets(game, s) == []                     # range 3: out of the Spitters' range 0-2
    put(game, "P", 2)
    assert enemy.targets(game, s) == [p.gid]                # range 2
    k = dark(game, "K", ["crawler", "crawler"], 2)
    assert fire.shooters(game, k, p) == []                  # ranged CF 0: never fires
    assert darkness.cc_factor(game, k) == 3                 # 1.5 + 1.5
    assert darkness.cc_factor(game, dark(game, "L", ["crawler"], 3)) == 1   # 1.5 rounded down


# RD-GEN-4 -----------------------------------------------------------------------------------------
def test_RD_GEN_4_darkness_units_are_never_suppressed_and_die_on_the_second_result():
    game = night()
    k = dark(game, "K", ["crawler", "crawler"], "2a")
    ready(game, "P", 2)                    # range 0 into woods: TN 3 + 1 = 4; P1 SMG 2 dice, P2-P4 1 die each
    dice(game, 6, 1, 1, 1, 1, 1, 1)        # one hit; USN d6 1 -> random OK unit: both Crawlers are OK, die 1 -> K1
    events = act(game, "fire", k.gid, 0)
    k1 = unit(k, "K1")
    assert texts(events, "result") == ["K1 of K is wounded"]
    assert k1.hits == 1 and not k1.suppressed and k1 in k.ok_units()
    assert fire.shooters(game, k, player(game, "P")) == []   # still no ranged attack, but nothing else changed
    ready(game, "Q", 2)                    # Q1 rifle, Q2 LMG 2 dice at TN 4; Q3 FT 3 dice at TN 3 (no cover)
    dice(game, 6, 1, 1, 1, 1, 1, 6)        # one hit; USN d6 6 -> the wounded unit (only K1: no pick die)
    events = act(game, "fire", k.gid, 0)
    assert texts(events, "eliminated") == ["K1 of K is eliminated"]
    assert [u.name for u in k.units] == ["K2"] and "K1" in game.graveyard
    assert game.dice.remaining == 0


def test_RD_GEN_4_a_wounded_darkness_unit_is_not_rallied_and_keeps_acting():
    game = night()
    k = dark(game, "K", ["crawler"], 3)
    k.units[0].hits = 1
    assert not k.units[0].suppressed and k.ok_units() == k.units
    assert game.hits_to_eliminate(k.units[0]) == game.scenario.darkness.results_to_eliminate == 2
    p = put(game, "P", 3)
    enemy_turn(game, k)                    # RD-AI-1: it still attacks, with no order roll (no die scripted)
    assert game.decision == ("target", {"group": k.gid, "options": [p.gid], "mode": "close_combat", "drm": 0, "left": 1})


# RD-GEN-5 -----------------------------------------------------------------------------------------
def test_RD_GEN_5_free_attack_is_fire_when_in_range():
    game = night(exposed_movement=True)
    s = dark(game, "S", ["spitter", "spitter"], 3)
    p = ready(game, "P")
    dice(game, 5, 1)                        # D66 51: opportunity fire (RB-TAB-8)
    act(game, "move", 1, 0, 0)
    assert game.decision == ("free_attacker", {"target": p.gid, "drm": 0, "options": [s.gid]})
    dice(game, 4, 4, 2, 3)                  # TN 4 at range 1: two hits; one USN roll (RD-TRT-3): 2 -> OK unit, die 3 -> P3
    events = act(game, "e_free_attacker", s.gid)
    assert texts(events, "fire") == ["S fires at P (2 units, DRM +0): 2 hit(s)"]
    assert texts(events, "result") == ["P3 of P is SHAKEN"] and texts(events, "eliminated") == ["P3 of P is eliminated"]
    assert game.dice.remaining == 0


def test_RD_GEN_5_free_attack_is_a_fast_attack_at_range_zero():
    game = night(exposed_movement=True)
    t = dark(game, "T", ["stalker"], 2)
    p = ready(game, "P")
    dice(game, 5, 1)                        # opportunity fire
    act(game, "move", 1, 0, 0)              # P into Stripe 2's Open: the Stalker is at range 0
    assert game.decision[0] == "free_attacker" and game.decision[1]["options"] == [t.gid]
    dice(game, 3, 5)                        # 1 die (floor 1.0) at TN 3: hit; USN 5 -> the Leader P1
    events = act(game, "e_free_attacker", t.gid)
    assert texts(events, "fast_attack") == ["T makes a Fast attack on P (DRM +0): 1 hit(s)"]
    assert unit(p, "P1").hits == 1 and not p.engaged and not t.engaged
    assert game.dice.remaining == 0


def test_RD_GEN_5_no_free_attack_without_fire_or_fast():
    game = night(exposed_movement=True)
    dark(game, "K", ["crawler", "crawler"], 2)
    dark(game, "B", ["brute"], 2)
    t = dark(game, "T", ["stalker"], 3)
    ready(game, "P")
    dice(game, 5, 1)                        # opportunity fire, but Crawlers and Brute have neither; the Stalker is at range 1
    events = act(game, "move", 1, 0, 0)
    assert game.decision == ("player", {}) and not texts(events, "fire") and not texts(events, "fast_attack")
    assert not darkness.can_free_attack(game, t, player(game, "P"))
    assert game.dice.remaining == 0


# RD-TRT-1 -------------------------------------------------------------------------------------------
def test_RD_TRT_1_crawling_targets_only_at_range_zero():
    game = night()
    k = dark(game, "K", ["crawler", "crawler"], 2)
    s = dark(game, "S", ["spitter"], 2)
    ready(game, "P", 1)
    assert legal(game, "fire", s.gid, 0)                    # range 1: the Spitter may be fired at
    assert_illegal(game, "fire", k.gid, 0)                  # the Crawlers may not
    assert_illegal(game, "fire", k.gid, 1)
    put(game, "P", 2)
    assert legal(game, "fire", k.gid, 0)                    # range 0
    assert legal(game, "close_combat", k.gid, 0)            # Close Combat is allowed


# RD-TRT-2 -------------------------------------------------------------------------------------------
def test_RD_TRT_2_fast_attack_at_range_zero_without_engagement():
    game = night()
    t = dark(game, "T", ["stalker"], 1)
    p, q = player(game, "P"), player(game, "Q")
    enemy_turn(game, t)                     # RD-AI-1: no order roll; targets at range 0, fewest units first
    assert game.decision[0] == "target" and game.decision[1]["options"] == [q.gid, p.gid]
    act(game, "e_target", p.gid)
    assert game.decision == ("fast", {"group": t.gid, "target": p.gid, "left": 2})
    dice(game, 3, 5)                        # floor(1.0) = 1 die at TN 3 (range 0, Open): hit; USN 5 -> Leader P1
    events = act(game, "e_fast", 1)
    assert texts(events, "fast_attack") == ["T makes a Fast attack on P (DRM +0): 1 hit(s)"]
    assert unit(p, "P1").hits == 1
    assert not p.engaged and not t.engaged and (t.stripe, t.place) == (1, 0)
    assert game.decision[0] == "target"     # RD-TRT-3: its second attack
    dice(game, 3)                           # at Q behind the wall: TN 3 + 1 = 4, a 3 misses
    act(game, "e_target", q.gid)
    events = act(game, "e_fast", 1)
    assert texts(events, "fast_attack") == ["T makes a Fast attack on Q (DRM +0): 0 hit(s)"]
    assert game.phase == "player" and game.turn == 2
    assert game.dice.remaining == 0


def test_RD_TRT_2_fast_group_moves_in_from_range_one_then_attacks():
    game, t, p = stalker_chose_p(2)         # range 1
    act(game, "e_fast", 1)
    assert game.decision == ("place", {"group": t.gid, "stripe": 1, "options": [0]})   # 1a holds Q
    dice(game, 6, 2, 2)                     # hit; USN 2 -> random OK unit, die 2 -> P2
    events = act(game, "e_place", 0)
    assert texts(events, "fast_attack") == ["T makes a Fast attack on P (DRM +0): 1 hit(s)"]
    assert (t.stripe, t.place) == (1, 0) and unit(p, "P2").hits == 1
    assert game.decision[0] == "target" and game.decision[1]["options"] == [1, p.gid]   # its second attack: range 0 only
    assert game.dice.remaining == 0


def test_RD_TRT_2_fast_attack_dice_are_floor_cc_cf_with_a_minimum_of_one():
    game = night()
    t = dark(game, "T", ["stalker", "stalker"], 1)
    p = put(game, "P", 1)
    dice(game, 1, 1)                        # two Stalkers: one die each (floor 1.0)
    assert darkness.fast_attack(game, t, p, 0) == 0
    assert game.dice.remaining == 0
    half = darkness.fast_units(game, t)[0]
    assert half.weapon == "stalker" and game.scenario.darkness.fast_attack_min_dice == 1


# RD-TRT-3 -------------------------------------------------------------------------------------------
def test_RD_TRT_3_multiple_attacks_roll_the_unit_selection_once_per_attack():
    game = night()
    s = dark(game, "S", ["spitter", "spitter"], 3)
    p = player(game, "P")
    enemy_turn(game, s, 2)                  # d6 2 -> @Attack (RD-AI-2); range 2
    dice(game, 5, 6, 1, 4)                  # both hit (TN 5); ONE USN roll: 1 -> random OK unit, die 4 -> P4 takes both
    events = act(game, "e_target", p.gid)
    assert texts(events, "result") == ["P4 of P is SHAKEN"] and texts(events, "eliminated") == ["P4 of P is eliminated"]
    assert [u.hits for u in p.units] == [0, 0, 0]
    assert game.decision[0] == "target" and game.decision[1]["left"] == 1   # X = 2 attacks per activation
    dice(game, 5, 5, 5)                     # second attack: two hits, USN 5 -> P1 (SHAKEN, then eliminated)
    events = act(game, "e_target", p.gid)
    assert texts(events, "eliminated") == ["P1 of P is eliminated"]
    assert game.phase == "player"           # no third attack
    assert game.dice.remaining == 0


def test_RD_TRT_3_hits_beyond_the_picked_units_elimination_are_lost():
    game = night()
    p = put(game, "P", 1)
    dice(game, 1, 2)                        # USN 1 -> random OK unit, die 2 -> P2
    fire.apply_hits(game, p, 3, single_pick=True)
    assert "P2" in game.graveyard and [u.hits for u in p.units] == [0, 0, 0]
    assert game.dice.remaining == 0


# RD-TRT-4 -------------------------------------------------------------------------------------------
def test_RD_TRT_4_multiple_attacks_do_not_multiply_close_combat_rounds():
    game, t, p = stalker_chose_p()
    dice(game, 3, 3, 1)                     # fights instead: T 3+1 = 4 vs P 3+4-1+1 = 7 (defender in the Open); 1d3: 1
    events = act(game, "e_fast", 0)
    assert texts(events, "cc_round") == ["close combat T 4 vs P 7"]
    assert t.engaged and p.engaged          # the Stalker survives with one result: no second attack
    assert game.phase == "player" and game.turn == 2
    assert game.dice.remaining == 0


# RD-TRT-5 -------------------------------------------------------------------------------------------
def test_RD_TRT_5_wounds_x_eliminates_on_the_xth_result():
    game = night()
    b = dark(game, "B", ["brute"], 2)
    ready(game, "Q", 1)                     # Q1 rifle + Q2 LMG at range 1, TN 4
    dice(game, 4, 1, 1, 3)                  # one hit, USN 3 (one unit, no pick)
    events = act(game, "fire", b.gid, 0)
    assert texts(events, "result") == ["B1 of B is wounded"] and b.units[0].hits == 1
    assert game.hits_to_eliminate(b.units[0]) == 4
    b.units[0].hits = 3
    ready(game, "P", 1)
    dice(game, 1, 1, 1, 1, 6, 2)            # one hit (the 6): the 4th result
    events = act(game, "fire", b.gid, 0)
    assert texts(events, "eliminated") == ["B1 of B is eliminated"] and not b.alive
    assert game.dice.remaining == 0


def test_RD_TRT_5_wounds_one_dies_on_the_first_result():
    game = night()
    s = dark(game, "S", ["spitter", "spitter"], 2)
    ready(game, "Q", 1)
    dice(game, 5, 1, 1, 1, 2)               # one hit; USN 1 -> random OK unit, die 2 -> S2
    events = act(game, "fire", s.gid, 0)
    assert texts(events, "eliminated") == ["S2 of S is eliminated"] and [u.name for u in s.units] == ["S1"]
    assert game.dice.remaining == 0


# RD-TAB-1 / RD-TAB-2 --------------------------------------------------------------------------------
def test_RD_TAB_1_types_come_from_the_darkness_tables_file():
    types = night().scenario.darkness.types
    row = {n: (t.cf, t.min_range, t.max_range, t.cc_cf, t.crawling, t.fast, t.attacks, t.wounds) for n, t in types.items()}
    assert row == {
        "crawler": (0, 0, -1, 1.5, True, False, 1, None),
        "stalker": (0, 0, -1, 1.0, False, True, 2, None),
        "spitter": (1, 0, 2, 0.5, False, False, 2, 1),
        "brute": (0, 0, -1, 3.0, False, False, 1, 4),
    }
    assert night().scenario.darkness is config.load_darkness(str(config.CONFIG_DIR / "tables" / "darkness.yaml"),
                                                             tuple(config.load_tables(str(config.CONFIG_DIR / "tables" / "standard.yaml")).weapons))


def test_RD_TAB_2_darkness_reveal_table():
    table = night().scenario.reveal_table
    assert table == {1: (), 2: (("crawler", False),) * 2, 3: (("crawler", False),) * 2, 4: (("stalker", False),),
                     5: (("spitter", False),) * 2, 6: (("brute", False),)}


def test_RD_TAB_2_a_six_reveals_one_brute_and_a_one_removes_the_marker():
    game = night(markers=True)
    ready(game, "P")
    dice(game, 6, 1)                        # K1: Brute; K2: nothing
    act(game, "move", 1, 0, 0)
    act(game, "e_place", 1)
    assert [(u.kind, u.quality) for u in game.enemies[0].units] == [("brute", QUALITY["regular"])]
    assert len(game.enemies) == 1 and game.markers[:2] == [None, None]
    assert game.dice.remaining == 0


def test_RD_GEN_3_the_observation_shows_each_darkness_type_and_the_results_taken():
    from envs.rifles import observation as ob
    from envs.rifles.actions import PLACES, PLAYER_SLOTS
    from envs.rifles.config import STRIPES
    game = night()
    dark(game, "S", ["spitter"], 5)
    k = dark(game, "K", ["crawler", "crawler", "brute"], "4a")
    k.units[2].hits = 3
    obs = game.observation(0)
    at = ob.GLOBAL + ob.CONTEXT + ob.MAP + PLAYER_SLOTS * ob.GROUP + k.gid * ob.GROUP
    assert obs[at] == 1 and obs[at + 4] == 1 and obs[at + 1 + STRIPES + k.place] == 1     # present, Stripe 4, 4a
    counts = at + 1 + STRIPES + PLACES + 8
    assert list(obs[counts:counts + 6]) == [0.75, 0.5, 0.25, 3, 0, 0]    # 3 units, 2 unhurt, 1 hit; 3 results taken
    assert list(obs[counts + 6:counts + 6 + 4]) == [2, 0, 0, 1]          # crawler, stalker, spitter, brute slots
    assert ob.SIZE == game.observation(1).size == 1054                   # the same layout as rifles-urban
    assert ob.PREFIX_SIZES == (989,)                                     # version 1's size, a prefix (RU-EXP-1 appended)
