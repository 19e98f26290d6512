"""Actions (CF-ACT-1..12) and movement (CF-MOVE-1..8)."""
from envs.cityfight.actions import OFF

from .builders import act, activate, build, decision, el, forced, illegal, legal, search_msq, sq

MAP = """
.........
.Bb......
.BB......
....T....
.........
......::.
.........
.........
.........
"""


def one(square="e5", row="B", enemies=(("D1", "B", "i1"),), **kw):
    game = build(MAP, attackers=[("A1", row, square)], defenders=list(enemies), **kw)
    activate(game, "A1")
    return game


def test_CF_ACT_1_move_one_step_any_of_eight_for_one_ap():
    game = one()
    assert all(legal(game, "move", d) for d in range(8))
    act(game, "move", 0)
    assert el(game, "A1").square == sq(game, "e4")
    assert el(game, "A1").ap_spent == 1 and game.sections[0][0].pool == 11


def test_CF_ACT_2_run_two_steps_for_two_ap():
    game = one("e7")
    act(game, "run", 1, 1)
    a1 = el(game, "A1")
    assert a1.square == sq(game, "g7") and a1.ap_spent == 2 and a1.entered == 2


def test_CF_ACT_3_no_run_whose_first_step_ends_movement():
    game = one("d5")
    illegal(game, "run", 4, 1)            # NE into the wood at e4, then E
    assert legal(game, "move", 4)


def test_CF_ACT_4_search_costs_one_ap():
    game = one(dice=[1, 1])
    search_msq(game, "B2")
    assert el(game, "A1").ap_spent == 1


def test_CF_ACT_5_overwatch_only_as_the_first_ap_and_ends_the_activation():
    game = one()
    assert legal(game, "overwatch", "e8")
    act(game, "move", 2)
    illegal(game, "overwatch", "e8")
    game = one()
    act(game, "overwatch", "e8")
    assert el(game, "A1").overwatch == sq(game, "e8") and el(game, "A1").ap_spent == 2
    assert game.current_side == 0 and forced(game)      # 2 AP spent: asked, Pass its only answer (CF-HID-4)
    act(game, "pass")
    assert game.current_side == 1


def test_CF_ACT_6_fire_costs_one_ap():
    game = one(dice=[1, 2])
    act(game, "fire", "e8")
    act(game, "dice", 2)
    assert el(game, "A1").ap_spent == 1 and el(game, "A1").fired


def test_CF_ACT_8_one_fire_per_turn():
    game = one(dice=[1, 2])
    act(game, "fire", "e8")
    act(game, "dice", 2)
    illegal(game, "fire", "e9")


def test_CF_ACT_9_an_element_that_fired_cannot_move():
    game = one(dice=[1, 2])
    act(game, "fire", "e8")
    act(game, "dice", 2)
    illegal(game, "move", 0)


def test_CF_ACT_10_pass_is_always_legal_and_costs_nothing():
    game = one()
    assert legal(game, "pass")
    act(game, "pass")
    assert el(game, "A1").ap_spent == 0 and game.current_side == 1


def test_CF_ACT_11_suppressed_element_may_only_pass():
    game = one()
    el(game, "A1").suppressed = True
    game.refresh()
    mask = game.legal_action_mask()
    assert mask.sum() == 1 and mask[OFF["pass"]]


def test_CF_ACT_12_joint_search_same_section_same_square_one_ap_each():
    game = build(MAP, attackers=[("A1", "B", "e5"), ("A2", "B", "e5"), ("A3", "B", "e6")],
                 defenders=[("D1", "B", "i1")], dice=[3, 3])
    activate(game, "A1")
    act(game, "search", "B2")
    assert decision(game) == "join" and game.decision[1]["element"] == el(game, "A2").slot   # A3 is elsewhere
    act(game, "join")
    assert decision(game) == "join" and forced(game)                # the second join slot: nobody (CF-HID-4)
    act(game, "pass")
    assert el(game, "A2").ap_spent == 1 and not el(game, "A2").activated
    assert game.knowledge[1].last_search[1] == 3 + 3 + 2 + 1      # own MSq +2, one joiner +1
    act(game, "pass")
    act(game, "activate", "D1")
    act(game, "pass")
    assert legal(game, "activate", "A2")                            # a joiner may still activate later


# Movement ------------------------------------------------------------------------------------------------
def test_CF_MOVE_1_one_diagonal_step_per_turn():
    game = one()
    act(game, "move", 5)
    assert not any(legal(game, "move", d) for d in range(4, 8))
    assert legal(game, "move", 2)


def test_CF_MOVE_2_a_step_into_wood_or_a_building_ends_movement():
    game = one("e5")
    act(game, "move", 0)                  # into the wood at e4
    assert el(game, "A1").stopped
    assert not any(legal(game, "move", d) for d in range(8))
    game = one("c1")
    act(game, "move", 2)                  # into the doorway square c2
    assert el(game, "A1").stopped and el(game, "A1").square == sq(game, "c2")


def test_CF_MOVE_3_into_a_building_orthogonally_through_a_doorway():
    game = one("b1")
    illegal(game, "move", 2)              # b2 has no doorway
    game = one("d1")
    illegal(game, "move", 6)              # diagonal into the doorway square c2
    game = one("d2")
    assert legal(game, "move", 3)         # west into c2 through its doorway


def test_CF_MOVE_4_inside_a_building_orthogonal_steps_in_that_building():
    game = one("c2")
    assert legal(game, "move", 3) and legal(game, "move", 2)   # b2, c3
    illegal(game, "move", 6)              # b3 diagonally
    game = one("c3")
    illegal(game, "move", 1)              # d3: out of the building where there is no doorway


def test_CF_MOVE_5_one_step_per_turn_into_rubble():
    game = one("f6")
    act(game, "move", 1)                  # g6 rubble
    illegal(game, "move", 1)              # h6 rubble again
    game = one("f5")
    illegal(game, "run", 5, 1)            # g6 then h6


def test_CF_MOVE_6_no_step_off_the_map_or_into_a_full_stack():
    game = build(MAP, attackers=[("A1", "B", "a9"), ("A2", "B", "b9"), ("A3", "B", "b9"), ("A4", "B", "b9")],
                 defenders=[("D1", "B", "i1")])
    activate(game, "A1")
    illegal(game, "move", 2)              # south off the map
    illegal(game, "move", 1)              # b9 holds 3 friends


def test_CF_MOVE_7_a_step_into_a_hidden_enemy_completes_and_ends_movement():
    game = one("e7", enemies=[("D1", "B", "f7"), ("D2", "B", "a1")], dice=[1, 2, 1, 2])
    act(game, "run", 1, 1)                # legal although f7 holds an enemy; both miss in the close assault
    a1 = el(game, "A1")
    assert a1.square == sq(game, "f7") and a1.stopped and game.engaged(sq(game, "f7"))


def test_CF_MOVE_8_moved_twice_means_two_squares_entered():
    game = one("e7")
    act(game, "move", 1)
    assert el(game, "A1").entered == 1
    act(game, "move", 1)
    assert el(game, "A1").entered == 2
