"""The medium howitzer fires direct to 60" and indirect at 24-60" (KC-TAB-3): direct HE aims as a heavy weapon at a
unit inside with no floor roll (KB-HE-3) and may collapse its section (KB-HE-5); artillery set up inside fires it
direct from its one opening (KB-ART-1, KC-IND-5). Scripted dice, exact outcomes."""
from __future__ import annotations

from .core import A1, B1, B2, B3, CODEC, PASS, game, legal, order, rules

HOWITZER = [{"role": "crew"}, {"weapon": "medium_howitzer", "role": "carrier"}]


def modes(g, target) -> set:
    """The target decision's modes offered against `target` (0 direct, 1 indirect)."""
    return {args[1] for name, args in legal(g) if name == "target" and args[0] == target}


def test_KC_TAB_3_howitzer_direct_fire_at_19_inches():
    # A4's howitzer 19.0" from B2 in the open: inside the 24" indirect minimum, so direct only, at 3+ (no
    # modifier); a 3 hits; 2D6 = 2 + 3 = 5 hits; D3 of 5 = 3 extra pins; Pen +3 against 4+: the 1s fail, 2 and 6 kill
    g = game({"only": ["A4", "B2"], "units": {"A4": {"at": [2, 16], "loadout": HOWITZER}, "B2": {"at": [5, 7]}},
              "decide": ["order", "A4"]}, [3, 2, 3, 5, 1, 2, 6, 1, 1])
    g.apply(order("fire"))
    assert modes(g, B2) == {0}
    g.apply(CODEC.encode("target", B2, 0))
    ev = g.apply(PASS)                                                  # B2 stays up
    b2 = g.units[B2]
    assert [e.text for e in ev if e.rule == "KC-SHOOT-5"] == ["A4's medium_howitzer x1 needs 3+: 1 hits"]
    assert b2.pins == 4 and len(b2.models) == 6 and g.dice.remaining == 0
    assert "KC-IND-3" not in rules(ev) and not g.ranging                # direct fire ranges nothing in


def test_KC_TAB_3_howitzer_beyond_24_inches_fires_direct_or_declared_indirect():
    # 26.0" (A4 at (2, 16), B2 at (2, 3)): both modes; declared indirect it needs a natural 6 (KC-IND-1): a 5 misses
    g = game({"only": ["A4", "B2"], "units": {"A4": {"at": [2, 16], "loadout": HOWITZER}, "B2": {"at": [2, 3]}},
              "decide": ["order", "A4"]}, [5])
    g.apply(order("fire"))
    assert modes(g, B2) == {0, 1}
    g.apply(CODEC.encode("target", B2, 1))
    ev = g.apply(PASS)
    assert [e.text for e in ev if e.rule == "KC-SHOOT-5"] == ["A4's medium_howitzer x1 needs 6+: 0 hits"]
    assert g.units[B2].pins == 0 and g.dice.remaining == 0


def test_KB_ART_1_KC_IND_5_artillery_inside_fires_its_howitzer_direct_through_its_opening():
    # B3 made artillery with a howitzer on T2 floor 2, its opening the south window S(12,7); A1 at (12, 16) is 17"
    # from the window's point: 3+; a 4 hits; 2D6 = 1 + 1 = 2 hits; D3 of 1 = 1 extra pin; a 4 kills, a 1 fails
    g = game({"only": ["A1", "B3"], "units": {"A1": {"at": [12, 16]},
                                               "B3": {"kind": "artillery", "loadout": HOWITZER,
                                                      "fixed_opening": [12, 7, "S"]}},
              "decide": ["order", "B3"]}, [4, 1, 1, 1, 4, 1])
    g.apply(order("fire"))
    assert modes(g, A1) == {0}                                          # never indirect from inside
    g.apply(CODEC.encode("target", A1, 0))
    ev = g.apply(PASS)
    a1 = g.units[A1]
    assert [e.text for e in ev if e.rule == "KC-SHOOT-5"] == ["B3's medium_howitzer x1 needs 3+: 1 hits"]
    assert a1.pins == 2 and len(a1.models) == 7 and g.dice.remaining == 0


def direct_at_b1(dice):
    """A4's howitzer at (20, 17), 26" from T1's nearest visible wall point, fires direct (mode 0) at B1 on T1
    floor 1 (B1 holds a die: no Down reaction); B3 stands on T1's top floor, where an indirect shell would begin."""
    g = game({"only": ["A4", "B1", "B2", "B3"], "units": {"A4": {"at": [20, 17], "loadout": HOWITZER},
                                                         "B1": {"order": "fire"}, "B3": {"in": ["T1", 2]}},
              "decide": ["order", "A4"]}, dice)
    g.apply(order("fire"))
    assert modes(g, B1) == {0, 1}
    return g, g.apply(CODEC.encode("target", B1, 0))


def test_KB_HE_3_direct_he_hits_the_unit_inside_with_no_floor_roll():
    # 3+ -2 inside: a 5 hits; no floor roll: B1 itself takes 2D6 = 3 + 4 = 7 hits; D3 of 2 = 1 extra pin; Pen +3
    # against its own 4+ (KB-HE-4: no Extra Protection): six 1s fail, the 2 kills
    g, ev = direct_at_b1([5, 3, 4, 2, 1, 1, 1, 1, 1, 1, 2])
    assert [e.text for e in ev if e.rule == "KC-SHOOT-5"] == ["A4's medium_howitzer x1 needs 5+: 1 hits"]
    assert g.units[B1].pins == 2 and len(g.units[B1].models) == 7 and g.units[B3].pins == 0
    assert "KB-TAB-2" not in rules(ev) and "KB-AT-5" not in rules(ev) and g.dice.remaining == 0


def test_KB_HE_5_direct_2d6_he_rolling_12_hits_collapses_the_section():
    # a 5 hits; 2D6 = 6 + 6 = 12 hits on B1; D3 of 1 = 1 extra pin; twelve 1s; then T1 collapses with B1 and B3
    g, ev = direct_at_b1([5, 6, 6, 1] + [1] * 12)
    t1 = g.board.section_named("T1").index
    assert g.section_state[t1] == "rubble" and "KB-HE-5" in rules(ev) and "KB-TAB-2" not in rules(ev)
    assert not g.units[B1].alive and not g.units[B3].alive and g.units[B2].alive and g.dice.remaining == 0
