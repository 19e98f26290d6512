"""`shooting.weapons_that_fire` (a firing plan per loadout) gives the answers of the plain reading in
reference_firing.py, at every pair of units of seeded random games of both scenarios, for every attack's terms."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from envs.k47 import shooting
from envs.k47.ruleset import K47

from . import reference_firing

RS = K47()


def terms_of(unit):
    """moved/ambush/HE, and inside (KB-FROM-3/4) one side at a time, two sides, and a subset of the models."""
    choices = [(None, None)]
    if unit.inside:
        choices += [((s,), None) for s in "NESW"] + [(None, list(range(0, len(unit.models), 2))), (("N", "E"), [0, 1])]
    for moved, ambush, he in itertools.product((False, True), repeat=3):
        for sides, models in choices:
            yield moved, ambush, he, sides, models


@pytest.mark.parametrize("scenario", ["village_crossroads", "village_crossroads_hidden"])
def test_KC_SHOOT_3_KB_FROM_2_the_firing_plan_answers_as_the_plain_reading(scenario):
    asked = 0
    for seed in range(2):
        game, rng = RS.new_game(scenario, seed=seed), np.random.default_rng(seed)
        for step in range(300):
            if game.game_over:
                break
            if step % 6 == 0:
                for unit, target in itertools.permutations(game.units, 2):
                    for terms in terms_of(unit):
                        assert shooting.weapons_that_fire(game, unit, target, *terms) == \
                            reference_firing.weapons_that_fire(game, unit, target, *terms), (seed, step, unit.name,
                                                                                              target.name, terms)
                        asked += 1
            legal = np.flatnonzero(game.legal_action_mask())
            game.apply(int(legal[rng.integers(len(legal))]))
    assert asked > 10_000
