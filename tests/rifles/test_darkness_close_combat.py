"""Close Combat in the Darkness (rules catalog §12, RD-CC-1..10): it replaces RU-CC.

Totals on Night Crossing's groups (RD-CC-2..7), before the d6:
  P (SMG 1.5 + 3 Rifles = 4.5 -> 4, a Recruit -1, more Veterans +1) = 4 against Darkness;
  Q (Rifle 1 + LMG 0.5 + FT 0.5 = 2) = 2; two Crawlers 3.0 -> 3; one Brute 3.
A morale check is one d6, a round two (attacker's, then defender's), 1d3 one face, 2d3 two, a random unit
among n one die of size n (none among one).
"""
from __future__ import annotations

from dataclasses import replace

from envs.rifles import darkness
from envs.rifles.state import QUALITY

from .builders import (
    act,
    activate,
    assert_illegal,
    dark,
    dice,
    enemy,
    enemy_turn,
    kinds,
    legal,
    legal_actions,
    night,
    player,
    put,
    ready,
    start_enemy_phase,
    texts,
    unit,
)


def crawlers_in_woods(attacker: str = "P"):
    """Night Crossing with two Crawlers K in the woods 2a and `attacker` activated in Stripe 2's Open."""
    game = night()
    k = dark(game, "K", ["crawler", "crawler"], "2a")
    g = ready(game, attacker, 2)
    return game, g, k


def engaged_by_hand(game, p, k, rounds: int = 1) -> None:
    """p and k in an ongoing fight at k's position, k defending."""
    p.stripe, p.place, p.level = k.position
    p.engaged_with, k.engaged_with = k.gid, p.gid
    k.defending, p.defending = True, False
    p.rounds = k.rounds = rounds
    game.refresh()


def p_fighting_crawlers():
    """Night Crossing with P Engaged (by hand, one round fought) with two Crawlers K defending the woods 2a; nothing
    activated yet: (game, p, k)."""
    game = night()
    k = dark(game, "K", ["crawler", "crawler"], "2a")
    p = player(game, "P")
    engaged_by_hand(game, p, k)
    return game, p, k


# RD-CC-1 -------------------------------------------------------------------------------------------
def test_RD_CC_1_one_ap_morale_check_then_combat():
    game, p, k = crawlers_in_woods()
    assert legal(game, "close_combat", k.gid, 0) and legal(game, "close_combat", k.gid, 1)
    dice(game, 3, 4, 2, 3, 1)      # morale Regular 4: 3 +1 Leader pass; P 4+4 = 8 vs K 2+3+1 = 6; 1d3 = 2; K1 (die 1) then K2
    events = act(game, "close_combat", k.gid, 0)
    assert texts(events, "morale") == ["P close combat: morale 3+1 vs 4: pass"]
    assert texts(events, "cc_round") == ["close combat P 8 vs K 6"]
    assert game.ap == 3 and [u.hits for u in k.units] == [1, 1]
    assert game.dice.remaining == 0


def test_RD_CC_1_a_failed_check_spends_the_ap_and_nothing_else():
    game, p, k = crawlers_in_woods()
    dice(game, 2)                  # 2 + 1 < 4
    events = act(game, "close_combat", k.gid, 0)
    assert texts(events, "cc_refused") == ["P fails to close with K"]
    assert game.ap == 3 and not p.engaged and (p.stripe, p.place) == (2, 0)
    assert game.dice.remaining == 0


def test_RD_CC_1_a_bap_adds_one():
    game, p, k = crawlers_in_woods()
    dice(game, 2, 1, 6, 1, 1, 1, 1)  # 2 +1 BAP +1 Leader = 4 pass; P 1+4 = 5 vs K 6+4 = 10: 2d3 = 2 on P (picks 1, 1)
    bap = game.bap
    events = act(game, "close_combat", k.gid, 1)
    assert texts(events, "morale") == ["P close combat: morale 2+2 vs 4: pass"] and game.bap == bap - 1


def test_RD_CC_1_no_hmg_or_flamethrower_modifier():
    game = night()
    x = enemy(game, "X", ["hmg", "rifle"], 2)
    ready(game, "P", 2)
    dice(game, 3, 6, 1, 1, 1, 1)   # 3 +1 Leader = 4: a pass (RU-CC-3 would have made it 3); P 10 vs X 2: 2d3 = 2
    events = act(game, "close_combat", x.gid, 0)
    assert texts(events, "morale") == ["P close combat: morale 3+1 vs 4: pass"]
    assert darkness.morale_drm(game, player(game, "P"), x, False) == 1


# RD-CC-2 -------------------------------------------------------------------------------------------
def test_RD_CC_2_d6_plus_the_summed_cc_cf_rounded_down():
    game = night()
    lone = dark(game, "L", ["crawler"], 2)
    q = ready(game, "Q", 2)
    assert game.cc_modifier(q, lone) == 2             # 1 + 0.5 + 0.5
    dice(game, 3, 4, 1, 1, 1)      # morale pass; Q 4+2 = 6 vs L 1 + floor(1.5) = 2; 6 >= 2 x 2: 2d3 = 1+1 -> 2 results
    events = act(game, "close_combat", lone.gid, 0)
    assert texts(events, "cc_round") == ["close combat Q 6 vs L 2"]
    assert texts(events, "eliminated") == ["L1 of L is eliminated"] and not q.engaged
    assert game.dice.remaining == 0


def test_RD_CC_2_sum_then_floor_unless_the_table_says_per_unit():
    game = night()
    k = dark(game, "K", ["crawler", "crawler"], 2)
    p = player(game, "P")
    assert darkness.cc_factor(game, k) == 3 and darkness.cc_factor(game, p) == 4   # 3.0; 4.5 -> 4
    game.scenario = replace(game.scenario, darkness=replace(game.scenario.darkness, cc_cf_rounding="per_unit_floor"))
    assert darkness.cc_factor(game, k) == 2 and darkness.cc_factor(game, p) == 4   # 1 + 1; 1 + 1 + 1 + 1


# RD-CC-3 -------------------------------------------------------------------------------------------
def test_RD_CC_3_minus_one_for_a_player_group_with_shaken_units():
    game = night()
    k = dark(game, "K", ["crawler", "crawler"], 2)
    q = player(game, "Q")
    assert game.cc_modifier(q, k) == 2
    unit(q, "Q2").hits = 1
    assert game.cc_modifier(q, k) == 1
    unit(q, "Q3").hits = 1
    assert game.cc_modifier(q, k) == 1                # one or more: -1 once
    k.units[0].hits = 1                               # a wounded Darkness unit is not SHAKEN
    assert game.cc_modifier(k, q) == 3


# RD-CC-4 -------------------------------------------------------------------------------------------
def test_RD_CC_4_minus_one_for_a_group_with_recruits():
    game = night()
    k = dark(game, "K", ["crawler", "crawler"], 2)
    p = player(game, "P")
    assert game.cc_modifier(p, k) == 4 - 1 + 1
    unit(p, "P4").quality = QUALITY["regular"]
    assert game.cc_modifier(p, k) == 4 + 1


def test_RD_CC_4_darkness_units_are_never_recruits():
    game = night()
    game.scenario = replace(game.scenario, enemy_quality="recruit")
    k = dark(game, "K", ["crawler", "crawler"], 2)
    assert [u.quality for u in k.units] == [QUALITY["regular"]] * 2
    assert game.cc_modifier(k, player(game, "Q")) == 3


# RD-CC-5 -------------------------------------------------------------------------------------------
def test_RD_CC_5_plus_two_to_the_defender_in_a_building_every_round():
    game = night()
    k = dark(game, "K", ["crawler", "crawler"], "2b")
    q = player(game, "Q")
    k.defending = True
    assert game.cc_modifier(k, q) == 3 + 2
    k.rounds = 2
    assert game.cc_modifier(k, q) == 3 + 2
    k.defending = False                               # the attacker in a building gets nothing
    assert game.cc_modifier(k, q) == 3


def test_RD_CC_5_a_round_against_crawlers_in_a_building():
    game = night()
    k = dark(game, "K", ["crawler", "crawler"], "2b")
    ready(game, "P", 2)
    dice(game, 3, 5, 4, 1, 1)      # pass; P 5+4 = 9 vs K 4+3+2 = 9: a tie, one result each: P pick die 1 -> P1; K pick 1 -> K1
    events = act(game, "close_combat", k.gid, 0)
    assert texts(events, "cc_round") == ["close combat P 9 vs K 9"]
    assert texts(events, "result") == ["P1 of P is SHAKEN", "K1 of K is wounded"]


# RD-CC-6 -------------------------------------------------------------------------------------------
def test_RD_CC_6_plus_one_to_the_defender_at_another_feature_first_round_only():
    game = night()
    k = dark(game, "K", ["crawler", "crawler"], "2a")     # woods
    q = player(game, "Q")                                  # at the wall 1a
    k.defending = True
    assert game.cc_modifier(k, q) == 3 + 1
    k.rounds = 1
    assert game.cc_modifier(k, q) == 3                     # no longer once Engaged
    q.defending, q.rounds = True, 0
    assert game.cc_modifier(q, k) == 2 + 1                 # the wall: any feature other than a Building
    put(game, "K", 2)
    k.rounds = 0
    assert game.cc_modifier(k, q) == 3                     # the Open is no feature


# RD-CC-7 -------------------------------------------------------------------------------------------
def test_RD_CC_7_plus_one_with_more_veterans_and_darkness_are_never_veterans():
    game = night()
    k = dark(game, "K", ["brute"], 2)
    p, q = player(game, "P"), player(game, "Q")
    assert game.cc_modifier(p, k) == 4 - 1 + 1 and game.cc_modifier(q, k) == 2
    assert game.cc_modifier(k, p) == 3 and game.cc_modifier(k, q) == 3
    ready(game, "Q", 2)
    dice(game, 3, 1, 6, 1, 1, 1, 1)  # pass; Q 1+2 = 3 vs K 6+3 = 9 (>= 2 x 3): 2d3 = 1 + 1 on Q: picks 1 -> Q1, 1 -> Q2
    events = act(game, "close_combat", k.gid, 0)
    assert texts(events, "cc_round") == ["close combat Q 3 vs K 9"]
    assert k.units[0].quality == QUALITY["regular"] and "veteran" not in kinds(events)
    assert not game.veterans_possible(k) and not game.veterans_possible(q)


# RD-CC-8 -------------------------------------------------------------------------------------------
def test_RD_CC_8_placement_engagement_and_the_tie():
    game, p, k = crawlers_in_woods()
    dice(game, 3, 2, 2, 1, 2)      # pass; P 2+4 = 6 vs K 2+3+1 = 6: tie; P pick 1 -> P1 SHAKEN; K pick 2 -> K2
    events = act(game, "close_combat", k.gid, 0)
    assert texts(events, "result") == ["P1 of P is SHAKEN", "K2 of K is wounded"]
    assert p.position == k.position == (2, 1, 0)           # the attacker joins the target's position
    assert p.engaged_with == k.gid and k.engaged_with == p.gid and k.defending and not p.defending
    # it fought this activation
    assert legal_actions(game) == {("end_phase", ()), ("end_activation", ()), ("activate", (1,))}
    assert game.dice.remaining == 0


def test_RD_CC_8_an_engaged_group_only_fights_with_no_morale_check():
    game, p, k = crawlers_in_woods()
    engaged_by_hand(game, p, k)
    game.active = -1
    p.activated = False
    game.refresh()
    act(game, "activate", p.gid)
    assert legal_actions(game) == {("end_phase", ()), ("end_activation", ()), ("activate", (1,)),
                                   ("close_combat", (k.gid, 0))}
    assert_illegal(game, "close_combat", k.gid, 1)
    assert_illegal(game, "move", 2, 0, 0)
    dice(game, 6, 1, 1, 1, 1)       # no morale die: P 6+4 = 10 vs K 1+3 = 4 (no woods bonus after round 1): 2d3 = 2
    events = act(game, "close_combat", k.gid, 0)
    assert texts(events, "cc_round") == ["close combat P 10 vs K 4"] and "morale" not in kinds(events)
    assert texts(events, "eliminated") == []                 # one result each: K1 (pick 1) then K2
    assert [u.hits for u in k.units] == [1, 1] and p.engaged
    assert game.dice.remaining == 0


def test_RD_CC_8_winner_at_twice_the_loser_deals_2d3_else_1d3():
    game, p, k = crawlers_in_woods()
    dice(game, 3, 6, 1, 1, 2, 1)    # P 6+4 = 10 vs K 1+4 = 5: 10 >= 2 x 5 -> 2d3 = 1 + 1: pick 1 -> K1, then K2
    events = act(game, "close_combat", k.gid, 0)
    assert texts(events, "cc_result") == ["P wins; K takes 2 result(s)"]
    game, p, k = crawlers_in_woods()
    dice(game, 3, 5, 1, 1, 1)       # P 9 vs K 5: 1d3 = 1: one result, pick 1 -> K1
    events = act(game, "close_combat", k.gid, 0)
    assert texts(events, "cc_result") == ["P wins; K takes 1 result(s)"] and [u.hits for u in k.units] == [1, 0]
    assert game.dice.remaining == 0


# RD-CC-9 -------------------------------------------------------------------------------------------
def test_RD_CC_9_join_with_an_unactivated_friend_merges_and_fights_a_round():
    game, p, k = p_fighting_crawlers()
    q = player(game, "Q")
    ready(game, "Q", 2)
    assert legal(game, "close_combat", k.gid, 0)
    dice(game, 3, 3, 1, 1, 1, 1)    # morale 3+1 pass; merged P (6.5 -> 6, -1 Recruit, +1 Veterans) 3+6 = 9 vs K 1+3 = 4; 2d3 = 2
    events = act(game, "close_combat", k.gid, 0)
    assert texts(events, "join") == ["Q joins P against K"]
    assert texts(events, "cc_round") == ["close combat P 9 vs K 4"]
    assert [u.name for u in p.units] == ["P1", "P2", "P3", "P4", "Q1", "Q2", "Q3"] and not q.alive
    assert game.active == p.gid and p.activated and p.fought
    assert game.dice.remaining == 0


def test_RD_CC_9_join_with_an_activated_friend_merges_for_the_next_round():
    game, p, k = p_fighting_crawlers()
    q = player(game, "Q")
    act(game, "activate", p.gid)                 # P activates (and does not fight)
    ready(game, "Q", 2)
    assert legal(game, "close_combat", k.gid, 0)  # RU-CC-15 would forbid this join
    dice(game, 3)                                 # morale only: no round follows
    events = act(game, "close_combat", k.gid, 0)
    assert texts(events, "join") == ["Q joins P against K", "P has activated: the joiners fight in the next round"]
    assert texts(events, "cc_round") == [] and len(p.units) == 7 and not q.alive
    assert legal_actions(game) == {("end_phase", ()), ("end_activation", ())}
    assert game.dice.remaining == 0


def test_RD_CC_9_a_failed_join_check_merges_nothing():
    game, p, k = p_fighting_crawlers()
    q = player(game, "Q")
    ready(game, "Q", 2)
    dice(game, 1)
    act(game, "close_combat", k.gid, 0)
    assert len(p.units) == 4 and len(q.units) == 3 and game.ap == 3


# RD-CC-10 ------------------------------------------------------------------------------------------
def test_RD_CC_10_darkness_fight_without_morale_and_join_an_unactivated_friend_with_a_round():
    game, p, k = p_fighting_crawlers()
    b = dark(game, "B", ["brute"], 2)
    enemy_turn(game, b)                          # the Brute first: its friend K has not activated
    assert game.decision[1]["options"] == [p.gid]     # RD-AI-1: an Engaged player group may be chosen
    dice(game, 1, 6, 1, 3)          # no morale; K+B 1 + 6 = 7 vs P 6+4 = 10: 1d3 = 1 on K+B, pick 3 -> K2 (B1, K1, K2)
    events = act(game, "e_target", p.gid)
    assert "morale" not in kinds(events)
    assert texts(events, "join") == ["B joins K against P"]
    assert texts(events, "cc_round") == ["close combat K 7 vs P 10"]
    assert [(u.name, u.hits) for u in k.units] == [("K1", 0), ("K2", 1), ("B1", 0)] and not b.alive
    assert game.phase == "player"               # K activated by the join: the Enemy Phase is over
    assert game.dice.remaining == 0


def test_RD_CC_10_joining_an_activated_darkness_group_merges_without_a_round():
    game, p, k = p_fighting_crawlers()
    b = dark(game, "B", ["brute"], 2)
    start_enemy_phase(game)
    assert game.decision[1]["options"] == [k.gid, b.gid]     # RB-AI-2: Engaged first
    activate(game, k, 4, 4, 2, 2)               # RB-AI-3: K fights; K 4+3 = 7 vs P 4+4 = 8: 1d3 = 1, pick 2 -> K2
    events = activate(game, b)
    assert game.decision[0] == "target"
    events = act(game, "e_target", p.gid)
    assert texts(events, "join") == ["B joins K against P", "K has activated: the joiners fight in the next round"]
    assert texts(events, "cc_round") == [] and len(k.units) == 3
    assert game.phase == "player" and game.dice.remaining == 0


def test_RD_CC_10_a_crawler_charge_from_range_one():
    game = night()
    k = dark(game, "K", ["crawler", "crawler"], 2)
    p, q = player(game, "P"), player(game, "Q")
    enemy_turn(game, k)
    assert game.decision[1]["options"] == [q.gid, p.gid]      # range 1; fewest units first
    dice(game, 4, 1, 3, 1, 1)       # K 4+3 = 7 vs Q 1+2+1 (wall, first round) = 4: 1d3 = 2 -> Q pick 1 -> Q1, then pick 1 -> Q2
    events = act(game, "e_target", q.gid)
    assert k.position == q.position == (1, 1, 0) and k.engaged_with == q.gid and q.defending
    assert texts(events, "cc_round") == ["close combat K 7 vs Q 4"]
    assert "morale" not in kinds(events)
