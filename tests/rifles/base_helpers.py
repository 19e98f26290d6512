"""Small helpers shared by the base-rule tests (test_base_*.py)."""
from __future__ import annotations

import numpy as np
import pytest

from envs.engine.ruleset import IllegalActionError
from envs.rifles.actions import CODEC


def legal_actions(game) -> set[tuple]:
    """Every legal action as (family, *args)."""
    return {(name, *args) for name, args in map(CODEC.decode, map(int, np.flatnonzero(game.legal_action_mask())))}


def families(game) -> set[str]:
    return {a[0] for a in legal_actions(game)}


def moves(game) -> set[tuple[int, int, int]]:
    """Legal moves as (stripe, place, recon)."""
    return {(a[1] + 1, a[2], a[3]) for a in legal_actions(game) if a[0] == "move"}


def assert_illegal(game, family: str, *args: int) -> None:
    """The action is masked out, and applying it raises and changes nothing."""
    action = CODEC.encode(family, *args)
    assert not game.legal_action_mask()[action], (family, args)
    before = game.to_dict()
    with pytest.raises(IllegalActionError):
        game.apply(action)
    assert game.to_dict() == before


def rolled(game) -> list[tuple[int, int]]:
    """(sides, face) of every die rolled by the current scripted dice."""
    return list(game.dice.log)


def kinds(events) -> list[str]:
    return [e.kind for e in events]
