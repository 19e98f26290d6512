"""`apply` is atomic: with a dice script one die short, every resolution raises DiceError and changes nothing."""
from __future__ import annotations

import json

import numpy as np
import pytest

from envs.engine.dice import DiceError, ScriptedDice, SeededDice
from tests import checkers


def dice_rolled(state, action: int) -> list[tuple[int, int]]:
    """The (sides, face) rolls `action` makes in `state`, from a copy with seeded dice."""
    copy = type(state).from_dict(state.to_dict())
    logged = len(copy.dice.log)
    copy.apply(action)
    return copy.dice.log[logged:]


def one_die_short(state, rolls: list[tuple[int, int]]):
    """A copy of `state` whose dice are the faces `action` would roll, less the last."""
    data = state.to_dict()
    data["dice"] = ScriptedDice([face for _, face in rolls[:-1]]).to_dict()
    return type(state).from_dict(data)


def test_every_resolution_one_die_short_changes_nothing(ruleset):
    rng, checked, kinds = np.random.default_rng(5), 0, set()
    for seed in range(checkers.env_int("RUBBLE_ATOMIC_GAMES", 4)):
        state = ruleset.new_game(seed=seed)
        while state.current_side is not None:
            action = checkers.random_action(rng, state.legal_action_mask())
            rolls = dice_rolled(state, action)
            if rolls:
                short = one_die_short(state, rolls)
                before, mask = json.dumps(short.to_dict(), sort_keys=True), short.legal_action_mask().copy()
                with pytest.raises(DiceError):
                    short.apply(action)
                assert json.dumps(short.to_dict(), sort_keys=True) == before, \
                    f"{ruleset.name} seed {seed}: {short.action_label(action)} one die short changed the state"
                assert np.array_equal(short.legal_action_mask(), mask)
                checked += 1
                kinds.add(state.action_label(action).split()[0])
            state.apply(action)
    assert len(kinds) >= 2 and isinstance(state.dice, SeededDice), kinds   # more than one kind of resolution
