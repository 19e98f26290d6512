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
