"""KC-HID: what each side may know, and the `hidden_occupants` variant (KC-HID-6/8/9), with scripted dice."""
from __future__ import annotations

import numpy as np

from envs.engine.dice import ScriptedDice
from envs.engine.events import events_seen_by
from envs.k47 import movement
from envs.k47.actions import CODEC
from envs.k47.flow import Decision
from envs.k47.observation import DECISION, GLOBALS, SECTION, UNIT
from envs.k47.ruleset import K47
from envs.k47.state import MAX_UNITS, ORDERS
from tests import checkers

RS = K47()
A1, B1, B2, B3 = 0, 5, 6, 7
PASS = CODEC.encode("pass")
UNITS = GLOBALS + DECISION + 8 * SECTION


def order(name):
    return CODEC.encode("order", ORDERS.index(name))


def hidden_game(spec, dice=(), **options):
    return RS.build_position(spec, ScriptedDice(list(dice)), hidden_occupants=True, **options)


def block(obs, uid):
    return obs[UNITS + uid * UNIT: UNITS + (uid + 1) * UNIT]


def cell(x, y):
    return CODEC.encode("cell", y * 24 + x)


def test_KC_HID_1_terrain_sections_turn_and_vp_are_the_same_for_both_sides():
    g = RS.new_game(seed=3)
    a, b = g.observation(0), g.observation(1)
    tail = UNITS + MAX_UNITS * UNIT
    assert np.array_equal(a[tail:], b[tail:])                                   # terrain
    assert np.array_equal(a[GLOBALS + DECISION:UNITS], b[GLOBALS + DECISION:UNITS])   # section states
    assert a[0] == b[0] == 1 / 7 and a[17] == b[17] and a[18] == b[18]          # turn, VP


def test_KC_HID_2_without_the_variant_every_unit_block_is_public():
    g = RS.new_game(seed=3)
    a, b = g.observation(0), g.observation(1)
    for uid in range(len(g.units)):
        ba, bb = block(a, uid), block(b, uid)
        assert ba[2] == 1 - bb[2]                                               # only "mine" differs
        assert np.array_equal(np.delete(ba, 2), np.delete(bb, 2))
    assert block(a, B1)[11] == 8 / 10 and block(a, B1)[3] == 1                  # B1's models and type, to side A


def test_KC_HID_5_a_declared_attack_names_firer_and_target_to_both_sides():
    g = RS.build_position({"only": ["A1", "B2"], "units": {"A1": {"at": [2, 16]}, "B2": {"at": [2, 9]}},
                           "decide": ["order", "A1"]})
    g.apply(order("fire"))
    g.apply(CODEC.encode("target", B2, 0))
    assert g.decision[0] == Decision.DOWN and g.current_side == 1
    for side in (0, 1):
        d = g.observation(side)[GLOBALS:GLOBALS + DECISION]
        assert d[B2] == 1 and d[16 + A1] == 1 and d.sum() == 2


def test_KC_HID_7_each_agent_gets_only_its_sides_observation_and_mask():
    from envs.pettingzoo import k47_v0
    env = k47_v0.env()
    env.reset(seed=4)
    game = env.unwrapped.game
    for _ in range(20):
        agent = env.agent_selection
        for i, other in enumerate(env.agents):
            obs = env.observe(other)
            assert np.array_equal(obs["observation"], game.observation(i))
            assert (other == agent) or not obs["action_mask"].any()
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))


def test_KC_HID_6_occupants_set_up_inside_are_hidden_from_the_enemy_only():
    g = RS.new_game("village_crossroads_hidden", seed=3)
    assert [u.name for u in g.units if not u.revealed] == ["B1", "B3", "B4"]
    seen_by_a, own = block(g.observation(0), B1), block(g.observation(1), B1)
    assert seen_by_a[0] == seen_by_a[1] == seen_by_a[8] == 1 and seen_by_a[9] == 1 / 8 and seen_by_a[10] == 1 / 6
    assert not seen_by_a[3:6].any() and not seen_by_a[11:14].any() and not seen_by_a[22:].any()
    assert own[3] == 1 and own[11] == 8 / 10                                     # the owner sees its own unit
    assert block(g.observation(0), B2)[11] == 8 / 10                             # B2 set up outside: seen
    assert "B1 [B] T1/floor 1: hidden occupant" in g.render_text(0)
    assert "B1 [B] T1/floor 1: 8 models, 0 pins" in g.render_text(1)


def test_KC_HID_6_without_the_variant_nobody_is_hidden():
    g = RS.new_game(seed=3)
    assert all(u.revealed for u in g.units) and "hidden occupant" not in g.render_text(0)


def advance_a1(to, frm=(9, 13), **units):
    g = hidden_game({"only": ["A1", "B1", "B2"], "units": {"A1": {"at": list(frm)}, "B1": {"in": ["T1", 1]}, **units},
                     "decide": ["move", "A1", "advance"]})
    return g, g.apply(cell(*to))


def test_KC_HID_8_an_enemy_outside_within_6_inches_reveals():
    g, ev = advance_a1((9, 10))                        # centre (9.5, 10.5) to T1's south wall y=8: 5"
    assert g.units[B1].revealed and [e.rule for e in ev if e.kind == "revealed"] == ["KC-HID-8"]
    assert block(g.observation(0), B1)[11] == 8 / 10


def test_KC_HID_8_seven_inches_does_not_reveal_and_friends_never_do():
    g, ev = advance_a1((9, 11), B2={"at": [9, 9]})     # A1 7" from T1; B2 (a friend) 3"
    assert not g.units[B1].revealed and not [e for e in ev if e.kind == "revealed"]


def test_KC_HID_8_an_enemy_in_an_adjoining_section_is_0_inches_away_and_reveal_lasts():
    g = hidden_game({"only": ["A1", "B1"], "units": {"A1": {"in": ["T2", 0]}, "B1": {"in": ["T1", 1]}},
                     "decide": ["move", "A1", "run"]})
    assert g.units[B1].revealed                        # adjoining sections share a wall: 0" (KB-GRID-10)
    g.apply(cell(12, 9))                               # A1 leaves T2 far away from T1; B1 stays revealed
    assert g.units[B1].revealed and g.units[A1].cell == (12, 9)


def test_KC_HID_9_firing_reveals_the_firer_being_shot_does_not():
    g = hidden_game({"only": ["A1", "B1"], "units": {"A1": {"at": [9, 13]}, "B1": {"in": ["T1", 1]}},
                     "decide": ["order", "A1"]}, dice=[1] * 12)
    g.apply(order("fire"))
    g.apply(CODEC.encode("target", B1, 0))
    assert g.decision[0] == Decision.DOWN and not g.units[B1].revealed
    ev = g.apply(PASS)                                 # 12 to-hit dice of 1: no hits
    assert "KC-SHOOT-5" in [e.rule for e in ev] and not g.units[B1].revealed
    g2 = hidden_game({"only": ["A1", "B1"], "units": {"A1": {"at": [9, 13]}, "B1": {"in": ["T1", 1]}},
                      "decide": ["order", "B1"]})
    g2.apply(order("fire"))
    ev = g2.apply(CODEC.encode("target", A1, 0))
    assert g2.units[B1].revealed and [e.rule for e in ev if e.kind == "revealed"] == ["KC-HID-6"]


def test_KC_HID_9_a_shot_that_cannot_hit_a_hidden_occupant_is_rolled_all_the_same():
    """A1 (4 pins) needs 8+ or 9+ against B1 inside T1 (KC-SHOOT-6). Unseen, B1's cover and the rest of the need
    are not the firer's to know: it rolls and reads 0 hits, as when a possible shot misses; seen, nothing is rolled."""
    def shoot(hidden: bool):
        g = hidden_game({"only": ["A1", "B1"], "units": {"A1": {"at": [9, 13], "pins": 4}, "B1": {"in": ["T1", 1]}},
                         "decide": ["order", "A1"]}, dice=[1, 2] + [6] * 12)
        g.units[B1].revealed = not hidden
        g.apply(order("fire"))                         # order test 1+2 passes
        g.apply(CODEC.encode("target", B1, 0))
        shots = [e for e in g.apply(PASS) if e.kind == "to_hit"]
        return g, shots

    g, shots = shoot(hidden=True)
    assert [(e.rule, e.dice) for e in shots] == [("KC-SHOOT-6", (6,) * 4), ("KC-SHOOT-6", (6,) * 2),
                                                 ("KC-SHOOT-6", (6,) * 6)] and g.dice.remaining == 0
    seen_by_a = [(e.text, e.dice) for e in events_seen_by(shots, 0)]
    assert seen_by_a == [("A1's lmg x4: 0 hits", (6,) * 4), ("A1's smg x2: 0 hits", (6,) * 2),
                         ("A1's rifle x6: 0 hits", (6,) * 6)]
    assert [e.text for e in events_seen_by(shots, 1)] == ["A1's lmg x4 cannot hit (needs 8)",
                                                          "A1's smg x2 cannot hit (needs 9)",
                                                          "A1's rifle x6 cannot hit (needs 8)"]
    g, shots = shoot(hidden=False)
    assert [(e.text, e.dice) for e in shots] == [("A1's lmg cannot hit (needs 8)", ()), ("A1's smg cannot hit (needs 9)", ()),
                                                 ("A1's rifle cannot hit (needs 8)", ())] and g.dice.remaining == 12


def ambush_position(swap: bool):
    """B3 (bazooka, 24") hides in T2 floor 2 under Ambush; A1 Advances to (2, 17), 27.6" from T2's south window."""
    g = hidden_game({"only": ["A1", "B1", "B3"], "units": {"A1": {"at": [2, 15]}, "B1": {"in": ["T1", 2]},
                     "B3": {"in": ["T2", 2], "order": "ambush"}}, "decide": ["move", "A1", "advance"]})
    if swap:                                           # the hidden variant: B3 holds B1's squad (automatic rifle 30")
        from envs.k47.hidden import other_occupants
        g = other_occupants(g, [g.units[B1], g.units[B3]])
    return g


def test_KC_HID_9_a_hidden_ambushers_window_opens_on_public_facts_only():
    sequences = []
    for swap in (False, True):
        g = ambush_position(swap)
        g.apply(cell(2, 17))
        assert g.decision[0] == Decision.AMBUSH and g.current_side == 1         # offered in both games
        yes = bool(g.legal_action_mask()[CODEC.encode("yes")])
        assert yes == swap and g.legal_action_mask()[PASS]                      # the bazooka cannot reach: pass only
        g.apply(PASS)
        sequences.append((g.current_side, g.decision[0]))
    assert sequences[0] == sequences[1]
    g = ambush_position(False)
    g.units[B3].revealed = True                        # once seen, only an ambusher able to fire is asked
    assert movement.ambushers(g, g.units[A1]) == []


def test_KC_HID_9_the_scripted_view_holds_a_stand_in_for_a_hidden_occupant():
    g = RS.new_game("village_crossroads_hidden", seed=3)
    v = g.view(0)
    b1 = v.units[B1]
    assert b1.name == "?" and len(b1.models) == 5 and b1.pins == 0 and (b1.section, b1.floor) == (0, 1)
    assert len(g.view(1).units[B1].models) == 8


def scripted_games(scenario="village_crossroads_hidden", seed=5):
    import agents.scripted.k47  # noqa: F401
    return checkers.scripted_states(RS, seed, scenario)


def test_KC_HID_9_views_renders_masks_and_deciders_ignore_hidden_occupants():
    checked = 0
    for game in (g for seed in range(5, 9) for g in scripted_games(seed=seed)):
        for side in (0, 1):
            variants = RS.hidden_variants(game, side)[1:]        # [0] is other future dice
            for variant in variants:
                checkers.check_view_unchanged(variant, game, side)
                checked += 1
    assert checked > 60
