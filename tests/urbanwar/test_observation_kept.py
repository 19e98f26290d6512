"""The observation kept written per side (envs/urbanwar/observation.encode: a model's row or the globals rewritten
only when what they are written from changed) equals a fresh, whole writing at every decision: both sides' views,
face-down orders (UW-HID-2) included, over seeded random games."""
from __future__ import annotations

import numpy as np

from envs import registry
from envs.urbanwar.observation import encode
from tests.checkers import random_positions


def fresh_copy(game):
    """The same position with nothing kept: a clone, its derived values forgotten."""
    copy = game.clone()
    copy.refresh()
    return copy


def test_UW_HID_2_the_kept_observation_equals_a_fresh_one_at_every_decision_of_random_games():
    rs, checked = registry.get("urbanwar"), 0
    for seed in range(4):
        for game in random_positions(rs.new_game(seed=seed), np.random.default_rng(seed), 300):
            fresh = fresh_copy(game)
            for side in (0, 1):
                assert np.array_equal(encode(game, side), encode(fresh, side)), (seed, game.turn, side)
                checked += 1
    assert checked > 1500


def test_a_kept_observation_follows_a_hand_edit_once_refreshed():
    game = next(g for g in random_positions(registry.get("urbanwar").new_game(seed=4), np.random.default_rng(4), 500)
                if any(m.side == 0 and m.placed for m in g.models))   # past set-up (UW-SET)
    before = encode(game, 0)
    model = next(m for m in game.models if m.side == 0 and m.placed)
    model.w = 0                                   # removed by hand: the caller says so with refresh()
    game.refresh()
    after = encode(game, 0)
    assert not np.array_equal(after, before)
    assert np.array_equal(after, encode(fresh_copy(game), 0))


def test_a_kept_observation_follows_every_shown_field_set_on_a_model_without_refresh():
    """models.Model counts the changes of its shown fields: a row is rewritten after any of them, however set."""
    game = next(g for g in random_positions(registry.get("urbanwar").new_game(seed=4), np.random.default_rng(4), 500)
                if any(m.side == 0 and m.placed for m in g.models))
    model = next(m for m in game.models if m.side == 0 and m.placed)
    for field, value in (("cell", model.cell + 1), ("panic", not model.panic), ("activated", not model.activated),
                         ("fu_used", model.fu_used + 1), ("w", model.w - 1)):
        before = encode(game, 0)
        setattr(model, field, value)
        after = encode(game, 0)
        assert not np.array_equal(after, before), field
        assert np.array_equal(after, encode(fresh_copy(game), 0)), field
