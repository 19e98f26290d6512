"""Konflikt '47 core: shooting, weapons, HE, indirect fire and the tables (KC-SHOOT, KC-WPN, KC-HE, KC-IND, KC-FLAME,
KC-TAB), with scripted dice and exact outcomes."""
from __future__ import annotations

from fractions import Fraction

from envs.k47 import flames
from envs.k47.actions import CODEC
from envs.k47.flow import Decision
from envs.k47.orders import morale
from envs.k47.shooting import damage_roll, firing_weapons, need, vehicle_hits
from tests.k47.core import A1, A3, A4, A5, B2, B3, B4, PASS, game, names, order, rules


def arm(unit, weapon):
    """Give a team's weapon carrier another weapon of the tables (same mount)."""
    carrier = next(m for m in unit.models if m.role == "carrier")
    carrier.weapons = [(weapon, carrier.weapons[0][1])]
    unit.forget_arms()            # a model changed by hand (Unit.arms)


def fire(g, target, mode=0, react=PASS):
    g.apply(order("fire"))
    assert g.legal_action_mask()[CODEC.encode("target", target, mode)]
    first = g.apply(CODEC.encode("target", target, mode))
    rest = g.apply(react) if g.decision and g.decision[0] == Decision.DOWN else []
    return first + rest


def test_KC_SHOOT_1_declare_react_measure_hit_pin_damage_casualties_morale():
    g = game({"only": ["A1", "B2"], "units": {"A1": {"at": [2, 16]}, "B2": {"at": [2, 9], "models": 4}},
              "decide": ["order", "A1"]}, [3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 4, 6, 5])
    g.apply(order("fire"))
    declared = g.apply(CODEC.encode("target", B2, 0))
    assert rules(declared)[-1] == "KC-SHOOT-1" and g.decision[0] == Decision.DOWN   # the reaction comes next
    ev = g.apply(PASS)
    shooting = [r for r in rules(ev) if r.startswith("KC-SHOOT")]
    seen = [r for i, r in enumerate(shooting) if r not in shooting[:i]]
    assert seen == ["KC-SHOOT-5", "KC-SHOOT-7", "KC-SHOOT-8", "KC-SHOOT-10"]   # to hit, pin, damage, morale
    assert [e.text for e in ev if e.rule == "KC-SHOOT-8"] == ["B2: a casualty", "B2 loses 1 model"]
    assert not g.units[B2].alive and g.dice.remaining == 0


def test_KC_SHOOT_3_one_target_and_every_model_in_range_fires_all_its_shots():
    g = game({"only": ["A1", "B2", "B3"], "units": {"A1": {"at": [5, 16]}, "B2": {"at": [5, 11]},
              "B3": {"at": [7, 11]}}, "decide": ["order", "A1"]}, [1] * 12)
    ev = fire(g, B2)
    # 10": LMG 4, SMG 2, six rifles 1 each = 12 dice, all at B2; then the activation is over
    assert [e.text for e in ev if e.rule == "KC-SHOOT-5"] == ["A1's lmg x4 needs 3+: 0 hits",
                                                            "A1's smg x2 needs 4+: 0 hits",
                                                            "A1's rifle x6 needs 3+: 0 hits"]
    assert g.decision[0] == Decision.UNIT and g.current_side == 1 and g.dice.remaining == 0


def test_KC_SHOOT_11_small_arms_have_no_pen_and_cannot_hurt_armour():
    t = game({"only": ["A1"]}).tables.weapons
    assert all(t[w].small_arms for w in ("rifle", "pistol", "smg", "automatic_rifle", "lmg", "mmg"))
    assert not any(t[w].small_arms for w in ("hmg", "bazooka", "flamethrower", "light_mortar", "heavy_at_gun"))
    g = game({"only": ["A5", "B2"], "units": {"B2": {"at": [19, 12]}}, "decide": ["order", "B2"]}, [6] * 10)
    ev = fire(g, A5)
    # ten natural 6s hit the tank: no pin (KV-DMG-3), no penetration roll
    assert sum(int(e.text.split(": ")[1].split()[0]) for e in ev if e.rule == "KC-SHOOT-5") == 10
    a5 = g.units[A5]
    assert a5.alive and a5.pins == 0 and not {"KV-DMG-1", "KV-DMG-3"} & set(rules(ev)) and g.dice.remaining == 0


def test_KC_WPN_2_crews_never_fire_and_a_lone_carrier_fires_at_minus_1():
    g = game({"only": ["A5", "B3", "B4", "A1"], "units": {"B3": {"at": [19, 12]}, "A1": {"at": [4, 9]}}})
    b3, a5 = g.units[B3], g.units[A5]
    assert names(firing_weapons(g, g.units[B4], g.units[A1], False)) == ["mmg"]      # two crewmen add nothing
    assert need(g, b3, "bazooka", a5, 8.0, False) == 4
    b3.models = [m for m in b3.models if m.role == "carrier"]
    assert need(g, b3, "bazooka", a5, 8.0, False) == 5


def test_KC_WPN_2_a_team_of_one_model_has_minus_1_morale():
    def test(models):
        g = game({"only": ["B3", "A1"], "units": {"B3": {"at": [19, 12], "pins": 1, "models": models}},
                  "decide": ["order", "B3"]}, [4, 4])
        assert morale(g, g.units[B3]) == (9 if models == 2 else 8)
        g.apply(order("fire"))
        return g.units[B3].order
    assert test(2) == "fire" and test(1) == "down"          # 8 <= 9 - 1 passes; 8 > 8 - 1 fails


def test_KC_WPN_2_crew_die_first_and_the_team_dies_with_its_carrier():
    from envs.k47.shooting import casualties
    g = game({"only": ["B4", "A1"]})
    b4 = g.units[B4]
    casualties(g, b4, 2, "KC-SHOOT-8")
    assert b4.alive and [m.role for m in b4.models] == ["carrier"] and morale(g, b4) == 8
    casualties(g, b4, 1, "KC-SHOOT-8")
    assert not b4.alive and g.destroyed == [B4]


def test_KC_WPN_5_kinetic_heavy_weapons_lose_1_pen_beyond_half_range():
    g = game({"only": ["A1", "B2", "A5", "B3"], "units": {"B3": {"at": [19, 12]}}}, [3, 3, 4, 1, 4, 5, 1])
    a1, b2, b3, a5 = g.units[A1], g.units[B2], g.units[B3], g.units[A5]
    # HMG (range 36, Pen +1) against a regular (4+): a 3 kills at 18", not at 19"
    assert damage_roll(g, a1, b2, "hmg", 18.0) == 1 and damage_roll(g, a1, b2, "hmg", 19.0) == 0
    # a heavy AT gun (Pen +6) against the heavy tank (10+), front: a 4 penetrates at 36", not beyond
    vehicle_hits(g, b3, a5, [("heavy_at_gun", 1, 36.0)])
    assert a5.pins == 2 and a5.order == "down"                                   # pin, then crew stunned (1)
    vehicle_hits(g, b3, a5, [("heavy_at_gun", 1, 37.0)])
    assert a5.pins == 3 and a5.alive                                             # pinned, not penetrated
    # shaped charges keep their Pen: a bazooka at 20" (beyond 12") penetrates on 5 (5 + 5 >= 10)
    vehicle_hits(g, b3, a5, [("bazooka", 1, 20.0)])
    assert a5.pins == 5 and g.dice.remaining == 0                                # pin + stunned


def test_KC_HE_1_an_he_hit_becomes_d3_hits_and_the_other_weapons_still_fire():
    # A5 at (19,16) facing N fires HE at B2 (21,10), 12.6" in its front arc: the gun and both MMGs fire
    g = game({"only": ["A5", "B2"], "units": {"B2": {"at": [21, 10]}}, "decide": ["order", "A5"]},
             [4] + [1] * 10 + [5, 3, 3, 1])
    ev = fire(g, B2, mode=1)
    assert [e.text for e in ev if e.rule == "KC-SHOOT-5"] == ["A5's heavy_at_gun x1 needs 3+: 1 hits",
                                                            "A5's mmg x10 needs 3+: 0 hits"]
    # D3 of 5 = 3 hits at Pen +1: three damage dice (3, 3, 1), two kills
    assert [e.dice for e in ev if e.rule == "KC-SHOOT-8" and e.dice] == [(3,), (3,), (1,)]
    assert len(g.units[B2].models) == 6 and g.units[B2].pins == 1 and g.dice.remaining == 0


def test_KC_HE_1_the_scripted_player_counts_every_weapon_in_he_mode():
    from agents.scripted.k47 import SCALE, expected_kills
    g = game({"only": ["A5", "B2"], "units": {"B2": {"at": [21, 10]}}, "decide": ["order", "A5"]})
    view = g.view(0)
    # gun: hit 4/6 x mean D3 2 x kill 4/6 (Pen +1 vs 4+) = 8/9; two MMGs: 10 x 4/6 x 3/6 = 10/3
    assert expected_kills(view, view.units[A5], view.units[B2], False, he=True) == Fraction(38, 9) * SCALE


def test_KC_HE_1_at_mode_is_one_hit_and_he_is_not_offered_against_armour():
    g = game({"only": ["A5", "B2"], "units": {"B2": {"at": [21, 10]}}, "decide": ["order", "A5"]},
             [4] + [1] * 10 + [2])
    fire(g, B2, mode=0)
    assert len(g.units[B2].models) == 7 and g.dice.remaining == 0            # one hit, Pen +6: a 2 kills
    v = game({"only": ["A5", "B3"], "units": {"B3": {"at": [19, 12]}}, "decide": ["order", "B3"]})
    arm(v.units[B3], "heavy_at_gun")
    v.apply(order("fire"))
    mask = v.legal_action_mask()
    assert mask[CODEC.encode("target", A5, 0)] and not mask[CODEC.encode("target", A5, 1)]


def test_KC_HE_3_he_pen_from_the_table_and_no_long_range_loss():
    # A5 HE at B2 in the far corner, 38" (beyond half of 72"): 4+ to hit; D3 of 2 = 1 hit; Pen +1: a 3 kills
    g = game({"only": ["A5", "B2"], "units": {"B2": {"at": [0, 17]}}, "decide": ["order", "A5"]}, [4, 2, 3])
    fire(g, B2, mode=1)
    assert len(g.units[B2].models) == 7 and g.units[B2].pins == 1 and g.dice.remaining == 0


def test_KC_HE_3_KC_TAB_4_2d6_he_pen_3_and_d3_extra_pins():
    # A4 with a medium howitzer firing indirect (mode 1, 24-60"): a natural 6, 2D6 = 2 hits, D3 of 3 = 2 extra pins,
    # damage at Pen +3: the natural 1 fails, the 2 kills
    g = game({"only": ["A4", "B2"], "units": {"A4": {"at": [2, 16]}, "B2": {"at": [2, 3]}}, "decide": ["order", "A4"]},
             [6, 1, 1, 3, 1, 2])
    arm(g.units[A4], "medium_howitzer")
    ev = fire(g, B2, mode=1)
    b2 = g.units[B2]
    assert b2.pins == 3 and len(b2.models) == 7 and "KC-IND-1" not in rules(ev) and g.dice.remaining == 0
    assert "KC-IND-3" in rules(ev)                                      # the hit zeroes it in: indirect fire


def test_KC_IND_4_indirect_fire_needs_its_own_sight_not_from_ambush_over_friends():
    hidden = game({"only": ["A4", "B2"], "units": {"A4": {"at": [11, 13]}, "B2": {"at": [11, 2]}}})
    assert firing_weapons(hidden, hidden.units[A4], hidden.units[B2], False) == []      # the town hall is in the way
    open_ = game({"only": ["A4", "A1", "B2"], "units": {"A4": {"at": [11, 13]}, "A1": {"at": [11, 9]},
                  "B2": {"at": [11, 2]}}, "sections": {"T1": "rubble", "T2": "rubble"}})
    a4, b2 = open_.units[A4], open_.units[B2]
    assert names(firing_weapons(open_, a4, b2, False)) == ["light_mortar"]                # over A1, 22"
    assert firing_weapons(open_, a4, b2, False, ambush=True) == []


def test_KC_IND_4_indirect_hits_strike_a_vehicles_top_armour():
    # B3 given a light mortar; A5 (an armoured car, 7+) faces N towards it, 22.4" away: a natural 6 hits, one hit
    # only (KC-HE-1), Pen +1 (D3) +1 top: a 5 penetrates (front alone would need a 6 after the pin)
    g = game({"only": ["A5", "B3"], "units": {"B3": {"at": [21, 5]}}, "decide": ["order", "B3"]}, [6, 5, 1])
    arm(g.units[B3], "light_mortar")
    g.units[A5].vclass = "armoured_car"
    ev = fire(g, A5)
    a5 = g.units[A5]
    assert [e.text for e in ev if e.rule == "KV-DMG-1"] == ["A5 is penetrated"]
    assert a5.pins == 2 and a5.order == "down" and "KC-HE-1" not in rules(ev) and g.dice.remaining == 0


def test_KC_FLAME_4_flamethrowers_hit_top_armour_with_no_long_range_loss():
    # A3's flamethrower 4" from an armoured car (7+), in front of it, beyond half range (3"): hit on 4, 1 hit;
    # Pen +2 +1 top with no long-range loss: a 4 penetrates; stunned (1); morale passes (1, 1); fuel 2
    g = game({"only": ["A3", "A5", "B2"], "units": {"A3": {"at": [19, 14]}}}, [4, 1, 4, 1, 1, 1, 2])
    a3, a5 = g.units[A3], g.units[A5]
    a5.vclass = "armoured_car"
    flames.flame_attack(g, a3, a5, (1, "flamethrower", 4.0, 0))
    assert a5.alive and a5.pins == 2 and a5.order == "down" and a3.alive and g.dice.remaining == 0


def test_KC_TAB_1_quality_sets_morale_and_damage_value():
    t = game({"only": ["A1"]}).tables.quality
    assert t == {"inexperienced": (8, 3), "regular": (9, 4), "veteran": (10, 5)}
    g = game({"only": ["A1", "B2"]}, [4, 4, 3])
    a1, b2 = g.units[A1], g.units[B2]
    assert morale(g, b2) == 9 and damage_roll(g, a1, b2, "rifle", 10.0) == 1        # 4 vs 4+
    b2.quality = "veteran"
    assert morale(g, b2) == 10 and damage_roll(g, a1, b2, "rifle", 10.0) == 0       # 4 vs 5+
    b2.quality = "inexperienced"
    assert morale(g, b2) == 8 and damage_roll(g, a1, b2, "rifle", 10.0) == 1        # 3 vs 3+


def test_KC_TAB_2_each_to_hit_modifier():
    g = game({"only": ["A1", "B2", "B3"], "units": {"A1": {"at": [2, 16]}, "B2": {"at": [2, 9]}, "B3": {"at": [8, 9]}}})
    a1, b2 = g.units[A1], g.units[B2]

    def rifle(dist=10.0, moved=False, target=b2):
        return need(g, a1, "rifle", target, dist, moved)
    assert rifle() == 3                                       # base 3+
    assert rifle(6.0) == 2 and rifle(12.0) == 3 and rifle(12.5) == 4   # point blank <= 6", long > 12"
    assert rifle(moved=True) == 4 and need(g, a1, "smg", b2, 6.0, True) == 2   # moved -1 (not Assault)
    assert rifle(target=g.units[B3]) == 4                     # small team -1
    assert need(g, g.units[B3], "bazooka", b2, 10.0, False) == 4   # shaped -1
    a1.pins = 2
    assert rifle() == 5
    a1.pins, a1.quality = 0, "inexperienced"
    assert rifle() == 4
    a1.quality, b2.order = "regular", "down"
    assert rifle() == 5
    b2.order = None
    assert rifle(12.5, True, g.units[B3]) == 6 and a1.pins == 0


def test_KC_TAB_5_vehicle_damage_values():
    t = game({"only": ["A1"]}).tables.vehicle_damage
    assert t == {"soft_skin": 6, "armoured_car": 7, "light_tank": 8, "medium_tank": 9, "heavy_tank": 10,
                 "super_heavy_tank": 11, "scout_walker": 6, "light_walker": 7, "medium_walker": 8, "heavy_walker": 9,
                 "super_heavy_walker": 10}
    # the heavy tank is 10+: a bazooka (Pen +5) from the front penetrates on a 5, not a 4
    g = game({"only": ["A5", "B3"], "units": {"B3": {"at": [19, 12]}}, "decide": ["unit", 1]}, [4, 5, 1])
    vehicle_hits(g, g.units[B3], g.units[A5], [("bazooka", 1, 8.0)])
    assert g.units[A5].pins == 1
    vehicle_hits(g, g.units[B3], g.units[A5], [("bazooka", 1, 8.0)])
    assert g.units[A5].pins == 3 and g.dice.remaining == 0


def test_KC_TAB_2_modifiers_come_from_the_tables_file():
    t = game({"only": ["A1"]}).tables.to_hit
    assert {k: v for k, v in t.items() if k != "point_blank_in"} == {
        "base": 3, "point_blank": 1, "long_range": -1, "per_pin": -1, "inexperienced": -1, "moved": -1,
        "team_one_crew": -1, "shaped": -1, "down": -2, "small": -1, "soft_cover": -1, "hard_cover": -2,
        "inside": -2, "bunker": -4}
    assert t["point_blank_in"] == 6
