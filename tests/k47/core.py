"""Shared helpers of the Konflikt '47 core rule tests (tests/k47/test_core_*.py): positions with scripted dice,
action codes and event rule IDs."""
from __future__ import annotations

import numpy as np

from envs.engine.dice import ScriptedDice
from envs.k47.actions import CODEC
from envs.k47.ruleset import K47
from envs.k47.state import ORDERS

RS = K47()
A1, A2, A3, A4, A5, B1, B2, B3, B4 = range(9)      # unit ids of the default scenario, in its order
YES, PASS = CODEC.encode("yes"), CODEC.encode("pass")


def game(spec, dice=()):
    """A position (`build_position` spec) whose dice are exactly `dice`."""
    return RS.build_position(spec, ScriptedDice(list(dice)))


def order(name):
    return CODEC.encode("order", ORDERS.index(name))


def cell(x, y):
    return CODEC.encode("cell", y * 24 + x)


def legal(g):
    """The decoded legal answers of the current decision."""
    return {CODEC.decode(int(a)) for a in np.flatnonzero(g.legal_action_mask())}


def rules(events):
    return [e.rule for e in events]


def names(entries):
    """Weapon names of `firing_weapons` entries."""
    return [name for _, name, _, _ in entries]
