"""The tables (rules catalog §16: RB-TAB-1..8): loaded values equal the catalog's, and rolls map per table."""
from __future__ import annotations

import dataclasses

import pytest

from envs.rifles import enemy as enemy_rules
from envs.rifles import fire, morale, movement
from envs.rifles.state import QUALITY
from envs.rifles.tasks import Order

from .builders import act, dice, enemy, fresh, legal, one_on_one, only, put, rolled, texts


def test_RB_TAB_1_base_tn_by_range():
    game = fresh()
    assert game.tables.range_tn == (3, 4, 5, 6)
    mortar = game.tables.weapons["mortar"]
    assert [fire.target_number(game, (1, 0, 0), (1 + r, 0, 0), mortar) for r in range(6)] == [3, 4, 5, 6, 6, 6]


def test_RB_TAB_1_range_three_in_the_open_needs_a_six():
    game, b, x = one_on_one("B", 1, ["rifle"], 4)
    dice(game, 5, 6, 1)                                      # LMG at TN 6: the 5 misses, the 6 hits; USN 1
    events = act(game, "fire", x.gid, 0)
    assert "1 hit(s)" in texts(events)[0] and x.units[0].suppressed


def test_RB_TAB_2_cover_values():
    game = fresh()
    t = game.tables
    assert t.cover == {"open": 0, "wall": 1, "woods": 1, "building": 2, "ms": 2, "rubble": 2}
    assert t.own_ms_other_level_cover == 1
    rifle = t.weapons["rifle"]
    a4 = game.feature_by_id("4a").place
    assert fire.target_number(game, (4, a4, 1), (4, a4, 0), rifle) == 3 + 1      # other level of its own MS
    assert fire.target_number(game, (4, 0, 0), (4, a4, 0), rifle) == 3 + 2
    assert fire.target_number(game, (3, 0, 0), (3, 2, 0), rifle) == 3 + 1        # 3b Wall


CATALOG_WEAPONS = {   # CF, range, RU-CC mod, RD C/C CF
    "pistol": (1, 0, 0, 1, 1.5), "rifle": (1, 0, 2, 0, 1.0), "smg": (2, 0, 1, 1, 1.5), "ar": (2, 0, 2, 1, 1.5),
    "lmg": (2, 0, 3, -1, 0.5), "hmg": (3, 0, 3, -1, 0.5), "mortar": (2, 1, 5, -1, 0.5),
    "flamethrower": (3, 0, 0, -1, 0.5), "at": (1, 0, 2, -1, 0.5),
}


def test_RB_TAB_3_weapons_table():
    weapons = fresh().tables.weapons
    assert {n: (w.cf, w.min_range, w.max_range, w.cc_mod, w.cc_cf) for n, w in weapons.items()} == CATALOG_WEAPONS
    assert [n for n, w in weapons.items() if w.ignores_cover] == ["flamethrower"]
    heaviest_first = sorted(weapons, key=lambda n: -weapons[n].heaviness)
    assert heaviest_first == ["flamethrower", "hmg", "mortar", "at", "lmg", "ar", "smg", "rifle", "pistol"]


def test_RB_TAB_3_heaviest_weapon_ties_are_random():
    game = fresh()
    x = enemy(game, "X", ["rifle", "lmg", "lmg", "smg"], 2)
    dice(game, 4, 2)                                         # USN 4: heaviest, LMG X2 / X3 -> d2 2 -> X3
    assert fire.select_unit(game, x).name == "X3" and rolled(game) == [(6, 4), (2, 2)]


def test_RB_TAB_4_morale_targets():
    game = fresh()
    assert game.tables.morale_target == {"recruit": 5, "regular": 4, "veteran": 3}
    for name, target in game.tables.morale_target.items():
        dice(game, target - 1, target)
        assert not morale.check(game, QUALITY[name], 0, "test") and morale.check(game, QUALITY[name], 0, "test")


def _usn_group(game):
    x = enemy(game, "X", ["rifle", "lmg", "smg", "rifle"], 2, leader=False)
    x.units[1].hits = 1                                      # X2 (LMG) Suppressed
    x.units[2].leader = True                                 # X3 (SMG) Leader
    return x


@pytest.mark.parametrize("faces, chosen", [
    ((1, 1), "X1"), ((2, 2), "X3"), ((3, 3), "X4"),          # 1-3: random OK unit of X1, X3, X4
    ((4,), "X2"),                                            # 4: heaviest weapon (LMG)
    ((5,), "X3"),                                            # 5: a Leader
    ((6,), "X2"),                                            # 6: random Suppressed unit
])
def test_RB_TAB_5_unit_selection_table(faces, chosen):
    game = fresh()
    x = _usn_group(game)
    dice(game, *faces)
    assert fire.select_unit(game, x).name == chosen and game.dice.remaining == 0


@pytest.mark.parametrize("face, prepare, chosen", [
    (1, "all_suppressed", "X4"),                             # no OK unit: random unit
    (5, "no_leader", "X4"),                                  # no Leader: random unit
    (6, "all_ok", "X4"),                                     # nobody Suppressed: random unit
])
def test_RB_TAB_5_fallbacks_pick_a_random_unit(face, prepare, chosen):
    game = fresh()
    x = _usn_group(game)
    if prepare == "all_suppressed":
        for u in x.units:
            u.hits = 1
    elif prepare == "no_leader":
        x.units[2].leader = False
    else:
        x.units[1].hits = 0
    dice(game, face, 4)
    assert fire.select_unit(game, x).name == chosen and rolled(game) == [(6, face), (4, 4)]


def test_RB_TAB_6_reveal_table():
    game = fresh()
    table = {face: [w + ("+leader" if leader else "") for w, leader in units] for face, units in game.scenario.reveal_table.items()}
    assert table == {1: [], 2: ["rifle", "rifle"], 3: ["rifle", "rifle"], 4: ["rifle", "rifle", "rifle", "smg+leader"],
                     5: ["lmg", "rifle"], 6: ["hmg", "rifle"]}


def test_RB_TAB_7_enemy_orders_values():
    game = fresh()
    assert game.tables.enemy_orders == ((1, "cover"), (3, "attack"), (5, "advance"), (99, "close_combat"))


@pytest.mark.parametrize("posture", [-1, 0, 1])
@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_RB_TAB_7_order_roll_d6_plus_posture(face, posture):
    game = fresh()
    game.scenario = dataclasses.replace(game.scenario, posture=posture)
    x = enemy(game, "X", ["rifle"], 4)
    total = face + posture
    expected = "cover" if total <= 1 else "attack" if total <= 3 else "advance" if total <= 5 else "close_combat"
    dice(game, face)
    tasks = enemy_rules.roll_order(game, x)
    assert tasks == [Order(x.gid, enemy_rules.ORDER_NAMES.index(expected))]


def test_RB_TAB_7_order_roll_in_play_close_combat_on_six():
    game = fresh()
    only(game, "C")
    c = put(game, "C", 2)
    x = enemy(game, "X", ["rifle", "rifle"], 2)
    dice(game, 6)
    act(game, "end_phase")
    act(game, "e_activate", x.gid)
    assert game.decision == ("target", {"group": x.gid, "options": [c.gid], "mode": "close_combat", "drm": 0})


def test_RB_TAB_8_exposed_movement_values():
    game = fresh()
    assert game.tables.exposed_movement == ((11, 36, "none"), (41, 46, "sniper"), (51, 56, "opportunity_fire"),
                                            (61, 63, "contact"), (64, 66, "ambush"))


@pytest.mark.parametrize("tens", [1, 2, 3, 4, 5, 6])
def test_RB_TAB_8_every_d66_result_maps(tens):
    game = fresh()
    for units in range(1, 7):
        roll = 10 * tens + units
        expected = ("none" if tens <= 3 else "sniper" if tens == 4 else "opportunity_fire" if tens == 5
                    else "contact" if units <= 3 else "ambush")
        assert movement.exposed_effect(game, roll) == expected


def test_RB_TAB_8_opportunity_fire_in_play():
    game, c, x = one_on_one("C", 2, ["lmg"], 4)
    dice(game, 5, 1)                                         # 51: opportunity fire by the nearest group in range
    act(game, "move", 2, 0, 0)
    assert game.decision == ("free_attacker", {"target": c.gid, "drm": 0, "options": [x.gid]})
    dice(game, 4, 3, 1, 2)                                   # LMG at range 1, Open: TN 4: one hit; USN 1, d2 2 -> C2
    act(game, "e_free_attacker", x.gid)
    assert [u.suppressed for u in c.units] == [False, True] and game.active == c.gid


def test_RB_TAB_8_ambush_reveals_with_plus_one_and_ends_the_activation():
    game = fresh(markers=True)
    only(game, "C")
    c = put(game, "C", 2)
    game.markers = [game.markers[0], None, None, None, None]          # E1 on Stripe 3
    act(game, "activate", c.gid)
    dice(game, 6, 4, 2)                                      # 64: ambush; E1 reveals two Rifles
    act(game, "move", 2, 0, 0)
    assert game.active == -1 and game.decision[0] == "place"
    dice(game, 2, 1, 1, 1)                                   # free attack at +1: 2+1 = 3 hits at TN 3, 1 misses
    events = act(game, "e_place", 0)
    assert any("DRM +1" in t and "1 hit(s)" in t for t in texts(events))
    assert [u.suppressed for u in c.units] == [True, False]
    assert game.decision[0] == "player" and game.active == -1 and c.activated and game.ap == 3
    assert not legal(game, "activate", c.gid) and not legal(game, "move", 2, 1, 0)
