"""KB-FROM-3/4: a unit inside declares a target per side of its section; firers assigned side by side."""
from __future__ import annotations

import numpy as np

from envs.engine.dice import ScriptedDice
from envs.k47.actions import CODEC
from envs.k47.flow import Decision
from envs.k47.ruleset import K47
from envs.k47.state import ORDERS
from envs.k47.tasks import Declare

RS = K47()
A1, A2, B1 = 0, 1, 5
PASS = CODEC.encode("pass")


def b1_fires(dice=(), **units):
    """B1 (NCO SMG, automatic rifle, 6 rifles) on T1 floor 1: windows N(9,5), S(9,7), W(8,6)."""
    g = RS.build_position({"only": ["A1", "A2", "B1"], "units": {"B1": {"in": ["T1", 1]}, **units},
                           "decide": ["order", "B1"]}, ScriptedDice(list(dice)))
    g.apply(CODEC.encode("order", ORDERS.index("fire")))
    return g


def targets(g):
    return {CODEC.decode(int(a))[1][0] for a in np.flatnonzero(g.legal_action_mask()) if CODEC.decode(int(a))[0] == "target"}


def test_KB_FROM_3_KB_FROM_4_one_target_per_side_each_side_its_own_attack():
    g = b1_fires([4, 3, 3, 2, 4, 1, 2, 1, 6], A1={"at": [8, 11]}, A2={"at": [5, 6]})
    assert targets(g) == {A1, A2}
    g.apply(CODEC.encode("target", A1, 0))
    # the south side takes the SMG and the automatic rifle (most shots first, two places at the window)
    assert g.decision[0] == Decision.TARGET and g.decision[1]["declared"] == [["S", A1, 0, [0, 1]]]
    assert targets(g) == {A2} and g.observation(0)[21] == 4 / 16          # only the west window reaches A2
    g.apply(CODEC.encode("target", A2, 0))                               # nothing left: the attacks begin, S first
    assert g.decision[0] == Decision.DOWN and g.decision[1]["uid"] == A1
    g.apply(PASS)
    # SMG at 7.3" (long range, 4+): 4, 3 -> 1 hit; automatic rifle 3+: 3, 2 -> 1 hit; damage 4 kills, 1 fails
    a1 = g.units[A1]
    assert len(a1.models) == 7 and a1.pins == 1
    assert g.decision[0] == Decision.DOWN and g.decision[1]["uid"] == A2
    g.apply(PASS)
    # two rifles through the west window at 5" (point blank, 2+): 2 hits on 2, 1 fails; damage 6 kills
    a2 = g.units[A2]
    assert len(a2.models) == 7 and a2.pins == 1 and g.dice.remaining == 0


def test_KB_FROM_4_first_declared_side_takes_its_firers_first_and_a_target_may_take_two_sides():
    g = b1_fires(A1={"at": [6, 10]}, A2={"at": [20, 17]})
    g.apply(CODEC.encode("target", A1, 0))                               # S and W both reach A1: tie, S first
    assert g.decision[1]["declared"] == [["S", A1, 0, [0, 1]]] and A1 in targets(g)
    g.apply(CODEC.encode("target", A1, 0))                               # again: the west side, the next models
    assert g.decision[0] == Decision.DOWN and g.decision[1]["attack"] == ["S", [0, 1], False]
    assert Declare(B1, A1, False, "W", [2, 3], False) in g.tasks          # the west attack follows, its own


def test_KB_FROM_3_pass_after_one_declaration_fires_that_side_only():
    g = b1_fires([1, 1, 1, 1], A1={"at": [8, 11]}, A2={"at": [5, 6]})
    g.apply(CODEC.encode("target", A1, 0))
    g.apply(PASS)                                                        # no western target declared
    assert g.decision[0] == Decision.DOWN and g.decision[1]["uid"] == A1
    g.apply(PASS)
    assert g.dice.remaining == 0 and g.units[A2].pins == 0              # four to-hit dice: the south side only


def b1_with_gun(dice=(), **units):
    """B1 on T1 floor 1 as above, its first rifleman (model 2) carrying the dual-mode heavy AT gun (KC-HE-1)."""
    g = RS.build_position({"only": ["A1", "A2", "B1"], "units": {"B1": {"in": ["T1", 1]}, **units},
                           "decide": ["order", "B1"]}, ScriptedDice(list(dice)))
    g.units[B1].models[2].weapons = [("heavy_at_gun", "hand")]
    g.refresh()                   # a model changed by hand (Unit.arms)
    g.apply(CODEC.encode("order", ORDERS.index("fire")))
    return g


def choices(g):
    return sorted(CODEC.decode(int(a)) for a in np.flatnonzero(g.legal_action_mask()))


def test_KC_HE_1_from_inside_he_is_offered_through_the_side_the_target_takes_where_the_gun_fires():
    # A1 south of T1 (only the south window sees it), A2 west of it (only the west window): the gun, free, would take
    # the first place at either side's window (heavy weapons first, KB-FROM-4), so HE is offered at both
    g = b1_with_gun([3, 4, 1, 6, 4, 3, 1, 5, 6, 1, 4, 4, 2], A1={"at": [8, 11]}, A2={"at": [5, 6]})
    assert choices(g) == [("pass", ()), ("target", (A1, 0)), ("target", (A1, 1)), ("target", (A2, 0)), ("target", (A2, 1))]
    g.apply(CODEC.encode("target", A1, 1))
    assert g.decision[1]["declared"] == [["S", A1, 1, [0, 2]]]            # the SMG and the gun at the south window
    g.apply(CODEC.encode("target", A2, 0))
    g.apply(PASS)                                                        # A1 does not go Down
    # gun 3+: 3 hits; SMG at long range 4+: 4, 1 -> 1 hit; the HE hit is D3 of 6 = 3 hits at Pen +1 (KC-TAB-4);
    # one pin; damage (regular, 4+): the SMG's 4 kills, HE 3 and 5 kill, the natural 1 fails
    a1 = g.units[A1]
    assert len(a1.models) == 8 - 3 and a1.pins == 1
    g.apply(PASS)                                                        # A2 does not go Down
    # the west side, no HE: automatic rifle at point blank 2+: 6, 1 -> 1 hit; rifle 4 -> 1 hit; damage 4 kills, 2 fails
    a2 = g.units[A2]
    assert len(a2.models) == 8 - 1 and a2.pins == 1 and g.dice.remaining == 0


def test_KB_FROM_3_he_is_not_offered_on_a_side_whose_firers_lack_the_dual_mode_weapon():
    # A1 south, A2 west, as above: once A1 has taken the south side with the gun, A2 goes to the west side, whose
    # free firers (the automatic rifle and a rifle) have no HE mode: AT mode only
    g = b1_with_gun([4, 3, 3, 2, 5, 4, 4, 1, 1, 3], A1={"at": [8, 11]}, A2={"at": [5, 6]})
    g.apply(CODEC.encode("target", A1, 0))                               # AT mode takes the gun all the same
    assert choices(g) == [("pass", ()), ("target", (A2, 0))]
    g.apply(CODEC.encode("target", A2, 0))
    assert Declare(B1, A2, False, "W", [1, 3], False) in g.tasks          # the west attack: no HE
    g.apply(PASS)
    # gun 3+: a 4 hits, one hit at Pen +6 (no HE roll); SMG 3, 3: no hits; one pin; damage 2 + 6 kills
    a1 = g.units[A1]
    assert len(a1.models) == 8 - 1 and a1.pins == 1
    g.apply(PASS)
    # automatic rifle 5, 4: 2 hits; rifle 4: 1 hit; one pin; damage 1 (a natural 1 fails), 1, 3 (no Pen, 4+): none
    a2 = g.units[A2]
    assert len(a2.models) == 8 and a2.pins == 1 and g.dice.remaining == 0


def test_KB_FROM_3_a_target_taking_a_second_side_has_no_he_once_the_gun_fires_on_the_first():
    # A1 at (6,10): the south and west windows both see it (a tie: south first); declared again it takes the west side
    g = b1_with_gun(A1={"at": [6, 10]}, A2={"at": [20, 17]})
    assert ("target", (A1, 1)) in choices(g)
    g.apply(CODEC.encode("target", A1, 1))
    assert g.decision[1]["declared"] == [["S", A1, 1, [0, 2]]]
    assert [c for c in choices(g) if c[0] == "target"] == [("target", (A1, 0))]


def test_KC_HID_4_a_target_destroyed_by_the_first_side_is_still_asked_down_with_pass_forced():
    # A1 at (6,10) taken through the south and the west windows; with 8 pins (regular morale 9, `pinned_out`) the
    # south attack's pin destroys it (KC-ORD-12). Its owner is still asked before the west attack, pass its only
    # answer: whether A is asked must not depend on how the south dice fell, which B's observation does not keep.
    g = b1_fires([6, 6, 6, 6], A1={"at": [6, 10], "pins": 8}, A2={"at": [20, 17]})
    g.apply(CODEC.encode("target", A1, 0))
    g.apply(CODEC.encode("target", A1, 0))                               # the west side too
    assert g.decision[0] == Decision.DOWN and g.decision[1]["attack"][0] == "S"
    g.apply(PASS)
    assert not g.units[A1].alive and g.dice.remaining == 0                # destroyed by the south attack's pin
    assert g.decision[0] == Decision.DOWN and g.current_side == 0 and g.decision[1]["uid"] == A1
    assert g.decision[1]["attack"][0] == "W"
    assert list(np.flatnonzero(g.legal_action_mask())) == [PASS]        # forced: a destroyed unit cannot go Down
    events = g.apply(PASS)
    assert "KC-SHOOT-4" in [e.rule for e in events] and g.decision[0] != Decision.DOWN   # no shot: nothing to hit
