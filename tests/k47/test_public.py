"""KC-HID-3 (each side's dice in the bag, every ranging-in and zeroed state) and KC-HID-5 (the targets declared) in
both sides' observations, exactly (the contract's public facts: tests/generic/test_public_facts.py)."""
from __future__ import annotations

import numpy as np

from envs import registry
from envs.k47 import public
from envs.k47.flow import Decision
from envs.k47.observation import GLOBAL_FEATURES, GLOBALS, MAX_UNITS, RANGING_AT, REVEALED_AT, SIZE, write_globals

RULESET = registry.get("k47")
A4, B2 = 3, 6                      # the light mortar (KC-SCN-6) and an infantry squad outside (KC-SCN-7)
PAIRS = MAX_UNITS * MAX_UNITS


def ranging_seen(game, firer: int, target: int) -> list[tuple[float, float]]:
    """(ranging-in, fired this turn) of firer on target in both sides' observations."""
    at = RANGING_AT + firer * MAX_UNITS + target
    return [(float(obs[at]), float(obs[at + PAIRS])) for obs in (game.observation(0), game.observation(1))]


def test_KC_HID_3_each_sides_dice_in_the_bag_in_both_observations():
    game = RULESET.new_game(seed=0)
    counts = list(game.bag.counts)
    for side in (0, 1):
        obs = game.observation(side)
        assert [obs[GLOBAL_FEATURES.index("bag_a")], obs[GLOBAL_FEATURES.index("bag_b")]] == \
            [np.float32(c / 16) for c in counts]
    assert RULESET.public_facts(game)[4] == tuple(counts)


def test_KC_HID_3_a_ranging_in_shows_to_both_sides_from_the_first_miss_until_it_lapses():
    game = RULESET.new_game(seed=0)
    mortar, target = game.units[A4], game.units[B2]
    assert ranging_seen(game, A4, B2) == [(0.0, 0.0)] * 2
    game.note_ranging(mortar, target, hit=False)                  # KC-IND-2: missed on 6: next turn 5+
    assert ranging_seen(game, A4, B2) == [(np.float32(1 / 5), 1.0)] * 2
    assert public.ranging_states(game) == {(A4, B2): (6, True)}
    game.turn += 1
    assert game.ranged_need(mortar, target) == 5
    assert ranging_seen(game, A4, B2) == [(np.float32(1 / 5), 0.0)] * 2
    game.note_ranging(mortar, target, hit=False)                  # missed on 5+: next turn 4+
    assert ranging_seen(game, A4, B2) == [(np.float32(2 / 5), 1.0)] * 2
    game.turn += 2                                                # not consecutive turns: it lapsed
    assert game.ranged_need(mortar, target) == 6
    assert ranging_seen(game, A4, B2) == [(0.0, 0.0)] * 2 and public.ranging_states(game) == {}


def test_KC_HID_3_a_zeroed_mortar_shows_one_to_both_sides_until_its_target_moves():
    game = RULESET.new_game(seed=0)
    mortar, target = game.units[A4], game.units[B2]
    game.note_ranging(mortar, target, hit=True)                   # KC-IND-3: 2+ until either moves
    game.turn += 3
    assert ranging_seen(game, A4, B2) == [(1.0, 0.0)] * 2                   # zeroed: the turn fired no longer counts
    assert public.ranging_states(game) == {(A4, B2): public.ZEROED}
    game.move_unit(target, (target.cell[0] + 1, target.cell[1]))  # KC-MOVE-3: ranging-in resets
    assert ranging_seen(game, A4, B2) == [(0.0, 0.0)] * 2
    obs = game.observation(0)
    assert not obs[RANGING_AT:REVEALED_AT].any() and obs.shape == (SIZE,)


def test_KC_HID_5_the_targets_declared_from_inside_show_by_side_with_their_HE():
    game = RULESET.new_game(seed=0)
    game.decision = (Decision.TARGET, {"side": 1, "uid": 5, "moved": False,
                                       "declared": [["N", 2, 0, [0]], ["E", 4, 1, [1]], ["S", 4, 0, [2]]]})
    g = write_globals(game, 0)
    n, e, s = 1 / 16, 2 / 16, 4 / 16                              # KB-FROM-3: N, E, S, W as bits
    assert g[GLOBAL_FEATURES.index("declared_sides")] == n + e + s
    assert g[GLOBAL_FEATURES.index("declared_he")] == e
    assert g[GLOBALS + MAX_UNITS + 2] == n and g[GLOBALS + MAX_UNITS + 4] == e + s
    assert public.declarations(game) == ("target", 1, 5, None, (("N", 2, False), ("E", 4, True), ("S", 4, False)))


def test_KC_HID_9_both_sides_see_which_units_are_revealed():
    game = RULESET.new_game(seed=0, hidden_occupants=True)
    hidden = [u.uid for u in game.units if not u.revealed]
    assert hidden                                                 # the occupants set up inside (KC-HID-6)
    for side in (0, 1):
        obs = game.observation(side)
        assert [obs[REVEALED_AT + u.uid] for u in game.units] == [float(u.uid not in hidden) for u in game.units]
