"""Set-ups for the Rifles in the Darkness tests (test_darkness_*.py): Night Crossing with groups placed by hand.

    game = night()                             # Night Crossing, no markers, player to decide, AP 4
    k = dark(game, "K", ["crawler", "crawler"], 2)   # a revealed Darkness group on Stripe 2's Open
    put(game, "P", "2a")                       # builders.put moves a player group
    dice(game, ...); act(game, "fire", k.gid, 0)

Dice are scripted face by face (builders.dice): a d6 per die; a random unit among n rolls one die of size n
(none for one unit); 1d3 one face, 2d3 two faces; D66 two faces.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

from envs.engine.ruleset import IllegalActionError
from envs.rifles.actions import CODEC

from .builders import act, dice, fresh, legal, only, put, where

__all__ = ["act", "dice", "legal", "only", "put", "night", "dark", "ready", "assert_illegal", "legal_set", "kinds", "texts",
           "to_enemy_phase", "activate_enemy"]


def night(markers: bool = False, **options):
    """A new Night Crossing at the first player decision (markers removed unless asked for)."""
    return fresh("night_crossing", markers=markers, **options)


def dark(game, name: str, types, at, level: int = 0):
    """A revealed Darkness group (units `name`1, `name`2, ...) made by the engine's own constructor, placed by hand."""
    group = game.new_enemy_group(name, [(t, False) for t in types], 1, [f"{name}{i + 1}" for i in range(len(types))])
    group.stripe, group.place = where(game, at)
    group.level = level
    game._mask = None
    return group


def ready(game, name: str, at=None):
    """Activate player group `name` (moved to `at` first when given)."""
    group = put(game, name, at) if at is not None else next(g for g in game.players if g.name == name)
    act(game, "activate", group.gid)
    return group


def assert_illegal(game, family: str, *args: int) -> None:
    """Masked out; applying it raises IllegalActionError and changes nothing."""
    assert not legal(game, family, *args), (family, args)
    before = json.dumps(game.to_dict(), sort_keys=True)
    with pytest.raises(IllegalActionError):
        act(game, family, *args)
    assert json.dumps(game.to_dict(), sort_keys=True) == before


def legal_set(game) -> set[tuple]:
    """Every legal action as (family, *args)."""
    return {(name, *args) for name, args in map(CODEC.decode, map(int, np.flatnonzero(game.legal_action_mask())))}


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def texts(events, kind: str | None = None) -> list[str]:
    return [e.text for e in events if kind is None or e.kind == kind]


def to_enemy_phase(game) -> list:
    """End the Player Phase (no dice); the enemy must choose which group activates."""
    events = act(game, "end_phase")
    assert game.decision[0] == "activate", game.decision
    return events


def activate_enemy(game, group, *faces: int) -> list:
    """Activate enemy `group` with the next dice scripted; returns the events."""
    dice(game, *faces)
    return act(game, "e_activate", group.gid)
