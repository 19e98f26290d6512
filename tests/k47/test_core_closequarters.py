"""Konflikt '47 core: close quarters (KC-CQ-1, KC-CQ-2, KC-CQ-3, KC-CQ-7) with scripted dice and exact outcomes."""
from __future__ import annotations

import numpy as np

from envs.k47.actions import CODEC
from tests.k47.core import A1, A5, B2, YES, game, order


def families(g):
    return {CODEC.decode(int(a))[0] for a in np.flatnonzero(g.legal_action_mask())}


def test_KC_CQ_1_only_infantry_assaults_and_vehicles_are_never_assaulted():
    tank = game({"only": ["A5", "B2"], "units": {"B2": {"at": [19, 13]}}, "decide": ["order", "A5"]})
    tank.apply(order("run"))
    assert "assault" not in families(tank)                                  # a vehicle only rams
    squad = game({"only": ["A5", "B2"], "units": {"B2": {"at": [19, 12]}}, "decide": ["order", "B2"]})
    squad.apply(order("run"))
    assert not squad.legal_action_mask()[CODEC.encode("assault", A5)]        # 6" away, but a vehicle
    advance = game({"only": ["A1", "B2"], "units": {"A1": {"at": [2, 14]}, "B2": {"at": [2, 11]}},
                    "decide": ["order", "A1"]})
    advance.apply(order("advance"))
    assert "assault" not in families(advance)                               # only under Run


def test_KC_CQ_2_the_run_must_reach_a_cell_next_to_the_target():
    near = game({"only": ["A1", "B2"], "units": {"A1": {"at": [2, 16]}, "B2": {"at": [2, 9]}},
                 "decide": ["order", "A1"]})
    near.apply(order("run"))
    assert near.legal_action_mask()[CODEC.encode("assault", B2)]             # (2,10) is 12" away
    far = game({"only": ["A1", "B2"], "units": {"A1": {"at": [2, 16]}, "B2": {"at": [2, 8]}},
                "decide": ["order", "A1"]})
    far.apply(order("run"))
    assert not far.legal_action_mask()[CODEC.encode("assault", B2)]          # (2,9) is 14" away


def test_KC_CQ_2_the_assaulter_must_see_its_target():
    # A1 at (7,8) can Run round the town hall's west end to (9,4) next to B2 at (10,4), but T hides B2
    spec = {"only": ["A1", "B2"], "units": {"A1": {"at": [7, 8]}, "B2": {"at": [10, 4]}}, "decide": ["order", "A1"]}
    hidden = game(spec)
    hidden.apply(order("run"))
    assert not hidden.sees(hidden.units[A1], hidden.units[B2])
    assert not hidden.legal_action_mask()[CODEC.encode("assault", B2)]
    seen = game({**spec, "sections": {"T1": "rubble", "T2": "rubble"}})
    seen.apply(order("run"))
    assert seen.legal_action_mask()[CODEC.encode("assault", B2)]


def test_KC_CQ_3_reaction_fire_is_resolved_before_the_assaulter_moves():
    # A1 at (2, 16) assaults B2 at (2, 11), 10" away. B2 fires while A1 is still at its start (clarified
    # 2026-11-28): not point blank; SMG x2 at 4+ (beyond half its 12"), automatic rifle x2 and rifles x6 at 3+;
    # 1 + 1 + 2 hits: 1 pin, a 4 and a 4 kill, two 1s fail. A1 then runs to (2, 12) and its 7 attacks (4s) kill
    # seven; B2's last model (the NCO's SMG, two 1s) kills none
    g = game({"only": ["A1", "B2"], "units": {"A1": {"at": [2, 16]}, "B2": {"at": [2, 11]}},
              "decide": ["order", "A1"]}, [4, 3, 3, 2, 3, 3, 2, 2, 2, 2] + [4, 4, 1, 1] + [4] * 7 + [1, 1])
    g.apply(order("run"))
    g.apply(CODEC.encode("assault", B2))
    assert g.units[A1].cell == (2, 16) and g.decision[0] == "react_fire"
    ev = g.apply(YES)
    assert [e.text for e in ev if e.rule == "KC-SHOOT-5"] == [
        "B2's smg x2 needs 4+: 1 hits", "B2's automatic_rifle x2 needs 3+: 1 hits", "B2's rifle x6 needs 3+: 2 hits"]
    a1 = g.units[A1]
    assert a1.pins == 1 and len(a1.models) == 6 and a1.cell == (2, 12)
    assert [e.kind for e in ev].index("move") > [e.kind for e in ev].index("casualties")
    assert not g.units[B2].alive and g.dice.remaining == 0


def test_KC_CQ_7_the_winner_makes_no_regroup_move():
    g = game({"only": ["A1", "B2"], "units": {"A1": {"at": [2, 14]}, "B2": {"at": [2, 11]}},
              "decide": ["order", "A1"]}, [4] * 9)
    g.apply(order("run"))
    ev = g.apply(CODEC.encode("assault", B2))
    # 6" away: no reaction fire; A1's 9 attacks (SMG 2) all kill on 4s; B2 wiped out before it strikes
    assert not g.units[B2].alive and g.units[A1].cell == (2, 12) and len(g.units[A1].models) == 8
    moves = [e.rule for e in ev if e.kind == "move"]
    assert moves == ["KC-CQ-2"] and g.dice.remaining == 0                   # the move in, and no move after
