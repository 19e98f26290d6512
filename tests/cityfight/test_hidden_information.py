"""Hidden information (CF-HID-1..15): observations, masks and renderings show only what a side may know."""
import numpy as np

from envs.cityfight.actions import SQUARES
from envs.cityfight.hidden import hidden_variants
from envs.cityfight.observation import CONTEXT, GLOBAL, PHASES, PLANES, P, encode
from tests import checkers

from .builders import act, activate, build, decision, el, legal, office, search_msq, sq

MAP = """
.........
.........
..BB.....
..Bb.....
.........
.........
.........
.........
.........
"""


def planes(game, side):
    obs = encode(game, side)
    return obs[GLOBAL + CONTEXT:GLOBAL + CONTEXT + PLANES * SQUARES].reshape(PLANES, SQUARES)


def at(game, plane, side, square) -> float:
    return planes(game, side)[P[plane]][game.board.code[sq(game, square)]]


def duel(**kw):
    game = build(MAP, attackers=[("A1", "B", "a1")], defenders=[("D1", "B", "a3"), ("D2", "B", "h8")], **kw)
    activate(game, "A1")
    return game


def test_CF_HID_1_public_state_is_seen_by_both_sides():
    game = duel()
    el(game, "D2").overwatch = sq(game, "e5")
    game.damage[sq(game, "c3")], game.rubble[sq(game, "e1")] = 3, True
    assert at(game, "enemy_overwatch", 0, "e5") == 1 and at(game, "own_overwatch", 1, "e5") == 1
    for side in (0, 1):
        assert at(game, "rubble", side, "e1") == 1 and at(game, "damage", side, "c3") == 3 / 8


def test_CF_HID_2_a_side_sees_its_own_elements_fully():
    game = duel()
    before = encode(game, 0)
    el(game, "A1").suppressed = True
    assert not np.array_equal(before, encode(game, 0)) and at(game, "own_suppressed", 0, "a1") > 0


def test_CF_HID_3_enemy_positions_and_status_are_never_seen():
    game = duel()
    before = [encode(game, 0), game.legal_action_mask().copy()]
    el(game, "D1").square, el(game, "D2").suppressed = sq(game, "f2"), True
    game.sections[1][0].pool = 1
    game.refresh()
    assert np.array_equal(before[0], encode(game, 0)) and np.array_equal(before[1], game.legal_action_mask())


def test_CF_HID_4_enemy_reaction_prompts_are_invisible():
    game = duel(dice=[1, 1])
    obs = encode(game, 0)
    act(game, "fire", "a3")
    act(game, "dice", 2)
    assert decision(game) == "return_fire"
    assert not encode(game, 0)[2 + len(PHASES)] and "decides" not in game.render_text(0)   # no decision of its own
    assert game.knowledge[0].enemy_activations == 0 and obs.shape == encode(game, 0).shape


def test_CF_HID_4_enemy_activation_seen_only_as_a_count():
    game = duel()
    act(game, "pass")
    act(game, "activate", "D2")
    assert game.knowledge[0].enemy_activations == 1


def test_CF_HID_5_searched_side_learns_msq_n_and_declared_squares():
    game = duel(dice=[2, 2])
    search_msq(game, "A1")
    k = game.knowledge[1]
    assert k.last_search == [0, 4 + 2, 1] and k.exposed[sq(game, "a3")] == 1
    assert k.origins.tolist() == [-1] * len(k.origins) and k.occupied[sq(game, "a1")] == -1   # not where the searcher is


def test_CF_HID_6_searching_side_reads_occupied_empty_or_unknown():
    game = build(MAP, attackers=[("A1", "B", "a1")], defenders=[("D1", "B", "c3"), ("D2", "B", "b2")], dice=[1, 1])
    activate(game, "A1")
    search_msq(game, "A1")                            # N 4 vs SR 7: c3 (Brick) stays unknown
    k = game.knowledge[0]
    assert k.occupied[sq(game, "b2")] == 1 and k.empty[sq(game, "b1")] == 1
    assert k.occupied[sq(game, "c3")] == -1 and k.empty[sq(game, "c3")] == -1


def test_CF_HID_7_target_side_told_origin_category_target_dice_effects():
    game = duel(dice=[4, 1])
    events = act(game, "fire", "a3") + act(game, "dice", 2)
    k = game.knowledge[1]
    assert k.last_fire[:2] == [sq(game, "a1"), sq(game, "a3")] and k.occupied[sq(game, "a1")] == 1
    fire_event = next(e for e in events if e.kind == "fire")
    assert fire_event.dice == (4, 1) and el(game, "D1").suppressed


def test_CF_HID_8_firing_side_not_told_what_its_fire_did():
    game = duel(dice=[4, 1])
    before = encode(game, 0)
    act(game, "fire", "a3")
    act(game, "dice", 2)                                 # S on D1: the attacker is not told
    k = game.knowledge[0]
    assert k.occupied.tolist() == [-1] * len(k.occupied) and k.empty.tolist() == [-1] * len(k.empty)
    assert before.shape == encode(game, 0).shape


def test_CF_HID_9_damage_rubble_and_smoke_are_public():
    game = duel()
    game.smoke[sq(game, "e5")], game.smoke_count = 1, 1
    assert at(game, "smoke", 0, "e5") == 1 and at(game, "smoke", 1, "e5") == 1


def test_CF_HID_11_engaged_known_numbers_hidden():
    game = build(MAP, attackers=[("A1", "B", "f6")], defenders=[("D1", "B", "f6"), ("D2", "B", "h8")])
    one = encode(game, 0)
    el(game, "D2").square = sq(game, "f6")
    assert np.array_equal(one, encode(game, 0)) and at(game, "engaged", 0, "f6") == 1


def test_CF_HID_12_return_fire_tells_the_firer_the_square_is_occupied():
    game = duel(dice=[1, 1, 1, 2])
    act(game, "fire", "a3")
    act(game, "dice", 2)
    act(game, "react", "D1")
    act(game, "dice", 2)
    k = game.knowledge[0]
    assert k.occupied[sq(game, "a3")] == 1 and k.last_fire[0] == sq(game, "a3")


def test_CF_HID_13_past_reports_carry_their_age():
    game = duel(dice=[2, 2])
    search_msq(game, "A1")
    assert at(game, "seen_occupied", 0, "a3") == 1 and at(game, "spotted", 0, "a3") == 1
    game.turn = 2
    game.knowledge[0].spotted = []
    assert at(game, "seen_occupied", 0, "a3") == 0.5 and at(game, "spotted", 0, "a3") == 0


def test_CF_HID_6_the_searching_side_sees_its_own_searches_by_age_and_the_enemy_does_not():
    game = duel(dice=[2, 2])
    assert at(game, "own_search", 0, "a1") == 0
    search_msq(game, "A1")                            # MSq A1: squares a1..c3
    assert [at(game, "own_search", 0, s) for s in ("a1", "c3", "d1")] == [1, 1, 0]
    assert at(game, "own_search", 1, "a1") == 0          # the searched side's report is enemy_search
    assert at(game, "enemy_search", 1, "a1") == 1 and at(game, "enemy_search", 0, "a1") == 0
    game.turn = 2
    assert at(game, "own_search", 0, "b2") == 0.5


def test_CF_HID_14_mask_ignores_hidden_enemies():
    game = build(MAP, attackers=[("A1", "B", "e5")], defenders=[("D1", "B", "e6")])
    activate(game, "A1")
    assert legal(game, "move", 2) and legal(game, "fire", "h1")    # into a hidden enemy; at an empty square
    for variant in hidden_variants(game, 0):
        assert np.array_equal(variant.legal_action_mask(), game.legal_action_mask())


def test_CF_HID_15_hidden_variants_leave_observation_mask_and_rendering_unchanged():
    game = office(seed=3)
    seen = 0
    for side in (0, 1):
        for variant in hidden_variants(game, side):
            assert variant.to_dict() != game.to_dict()
            checkers.check_view_unchanged(variant, game, side)
            seen += 1
    assert seen >= 4
