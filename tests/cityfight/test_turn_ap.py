"""Turn sequence (CF-TURN-1..8) and action points (CF-AP-1..11)."""
from dataclasses import replace

import numpy as np

from envs.cityfight import ap
from envs.cityfight.game import CityfightGame
from envs.cityfight.tasks import EndActionPhase
from envs.engine.dice import SeededDice

from .builders import OFFICE, act, activate, build, decision, dice, el, forced, illegal, kinds, legal, office, search_msq

MAP = """
.........
.........
.........
.........
.........
.........
.........
.........
.........
"""


def two_a_side(**kw):
    return build(MAP, attackers=[("A1", "B", "a1"), ("A2", "B", "b1")], defenders=[("D1", "B", "i9"), ("D2", "B", "h9")], **kw)


def test_CF_TURN_1_phases_in_order():
    game = two_a_side(dice=[3, 3])
    events = act(game, "out") + act(game, "out")
    assert kinds(events) == ["out", "out", "turn", "ap", "ap"]
    assert game.turn == 2 and game.phase == "action" and decision(game) == "activate"


def test_CF_TURN_2_upkeep_clears_per_turn_flags():
    game = two_a_side(dice=[3, 3])
    a1 = el(game, "A1")
    a1.fired = a1.fired_on = a1.assaulted = a1.diagonal = a1.stopped = True
    a1.entered, a1.ap_spent = 2, 2
    act(game, "out"), act(game, "out")
    assert (a1.fired, a1.fired_on, a1.assaulted, a1.diagonal, a1.stopped, a1.entered, a1.ap_spent) == \
        (False, False, False, False, False, 0, 0)


def test_CF_TURN_3_initiative_side_activates_first():
    assert office().current_side == 0
    game = CityfightGame(replace(OFFICE, initiative=1), SeededDice(0))
    assert game.current_side == 1 and decision(game) == "activate"


def test_CF_TURN_4_activation_runs_until_two_ap_then_alternates():
    game = two_a_side()
    activate(game, "A1")
    act(game, "move", 2)
    assert decision(game) == "act" and game.current_side == 0      # 1 AP spent: A1 goes on
    act(game, "move", 2)
    assert decision(game) == "act" and forced(game)                 # 2 AP spent: Pass alone (CF-HID-4)
    act(game, "pass")
    assert decision(game) == "activate" and game.current_side == 1  # the defender's turn
    act(game, "activate", "D1")
    act(game, "pass")
    illegal(game, "activate", "A1")                                 # once per element per phase
    assert legal(game, "activate", "A2")


def test_CF_TURN_5_suppressed_and_spent_elements_cannot_activate():
    game = two_a_side()
    el(game, "A1").suppressed = True
    el(game, "A2").ap_spent = 2
    game.refresh()
    illegal(game, "activate", "A1")
    illegal(game, "activate", "A2")
    assert legal(game, "out")


def test_CF_TURN_6_out_side_lets_the_other_activate_in_a_row():
    game = two_a_side(dice=[3, 3])
    act(game, "out")
    assert game.current_side == 1 and game.knowledge[1].enemy_out_told
    act(game, "activate", "D1")
    act(game, "pass")
    assert game.current_side == 1 and decision(game) == "activate"   # the defender again
    act(game, "activate", "D2")
    act(game, "pass")
    assert forced_out(game)                                          # D1, D2 done: asked, Out alone (CF-HID-4)
    act(game, "out")
    assert game.turn == 2                                            # both Out: phase over


def forced_out(game) -> bool:
    """The activation decision allows nothing but Out."""
    mask = game.legal_action_mask()
    return decision(game) == "activate" and np.count_nonzero(mask) == 1 and legal(game, "out")


def test_CF_TURN_6_side_that_cannot_activate_is_out():
    game = two_a_side()
    for name in ("D1", "D2"):
        el(game, name).suppressed = True
    activate(game, "A1")
    act(game, "pass")
    assert game.current_side == 1 and forced_out(game)             # CF-HID-4: asked, Out its only answer
    act(game, "out")
    assert game.outs[1] and game.current_side == 0


def test_CF_TURN_7_return_fire_is_decided_by_the_reacting_side():
    game = build(MAP, attackers=[("A1", "B", "a1")], defenders=[("D1", "B", "a5")], dice=[1, 1])
    activate(game, "A1")
    act(game, "fire", "a5")
    act(game, "dice", 2)
    assert decision(game) == "return_fire" and game.current_side == 1


def test_CF_TURN_8_game_ends_after_the_last_turn_check():
    game = two_a_side()
    game.turn = game.scenario.turns
    act(game, "out"), act(game, "out")
    assert game.current_side is None and game.winner == 1


def test_CF_TURN_8_game_ends_at_once_when_a_side_has_no_element():
    game = build(MAP, attackers=[("A1", "D", "a1")], defenders=[("D1", "A", "a3")], dice=[1, 1, 6, 6])
    activate(game, "A1")
    search_msq(game, "A1")
    act(game, "fire", "a3")               # IFA: spotted, so the K stands
    act(game, "dice", 2)
    assert game.winner == 0 and game.returns() == (1.0, -1.0)


# Action points -----------------------------------------------------------------------------------------
def roll(game, side=0):
    ap.roll_pool(game, game.sections[side][0])
    return game.sections[side][0].pool


def test_CF_AP_1_base_is_two_per_unsuppressed_element_leader_included():
    game = build(MAP, attackers=[("AL", "L", "a1"), ("A1", "B", "a2"), ("A2", "B", "a3")])
    el(game, "A2").suppressed = True
    dice(game, 1)
    assert ap.base_ap(game, game.sections[0][0]) == 4 and roll(game) == 4


def test_CF_AP_2_excess_over_lr_is_subtracted():
    game = two_a_side()
    dice(game, 5)
    assert roll(game) == 4 - 2


def test_CF_AP_3_base_of_two_never_below_one():
    game = build(MAP, attackers=[("A1", "B", "a1")])
    dice(game, 6)
    assert roll(game) == 1


def test_CF_AP_4_other_pools_floor_at_zero():
    game = build(MAP, attackers=[("A1", "B", "a1"), ("A2", "B", "a2")], lr=(1, 3))
    dice(game, 6)
    assert roll(game) == 0


def test_CF_AP_5_suppressed_leader_lowers_lr_by_two():
    game = build(MAP, attackers=[("AL", "L", "a1"), ("A1", "B", "a2"), ("A2", "B", "a3")])
    el(game, "A1").suppressed = False
    el(game, "AL").suppressed = True
    dice(game, 3)
    assert ap.effective_lr(game, game.sections[0][0]) == 1 and roll(game) == 4 - 2


def test_CF_AP_6_default_lr_three():
    assert all(sec.lr == 3 for side in OFFICE.sections for sec in side)


def test_CF_AP_7_company_attacker_rolls_two_dice():
    game = two_a_side(force_level="company")
    dice(game, 3, 4, 5)
    assert roll(game, 0) == 0            # 4 - (7 - 3)
    assert roll(game, 1) == 4 - 2        # the defender rolls one die: 5


def test_CF_AP_8_attacker_rolls_first():
    game = two_a_side()
    dice(game, 6, 1)
    ap.roll_pools(game)
    assert game.sections[0][0].pool == 1 and game.sections[1][0].pool == 4


def test_CF_AP_9_elements_pay_from_the_pool_at_most_two_each():
    game = two_a_side(pools=(3, 3))
    activate(game, "A1")
    act(game, "move", 2)
    act(game, "move", 2)
    assert game.sections[0][0].pool == 1 and el(game, "A1").ap_spent == 2
    act(game, "pass")                     # the cap reached: Pass is A1's only answer (CF-HID-4)
    act(game, "activate", "D1")
    act(game, "pass")
    activate(game, "A2")
    illegal(game, "run", 2, 2)            # 2 AP but the pool has 1
    assert legal(game, "move", 2)


def test_CF_AP_10_unspent_pool_ap_are_lost():
    game = two_a_side(pools=(7, 7))
    from envs.cityfight.flow import FLOW
    FLOW.tasks[EndActionPhase](game)
    assert game.sections[0][0].pool == 0 and game.sections[1][0].pool == 0


def test_CF_AP_11_result_losses_leave_the_pool_at_once():
    game = build(MAP, attackers=[("A1", "D", "a1")], defenders=[("D1", "B", "a3"), ("D2", "B", "a3")], pools=(6, 1),
                 dice=[6, 1])
    activate(game, "A1")
    act(game, "fire", "a3")
    act(game, "dice", 2)
    assert el(game, "D1").suppressed and game.sections[1][0].pool == 0
