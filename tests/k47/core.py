"""Shared helpers of the Konflikt '47 core rule tests (tests/k47/test_core_*.py): positions with scripted dice,
action codes and event rule IDs."""
from __future__ import annotations

import numpy as np
import pytest
import yaml

from envs.engine.dice import ScriptedDice
from envs.engine.scenario import ScenarioError
from envs.k47 import config
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


def broken(tmp_path, change, name="bad"):
    """The one-line error of the default scenario changed by `change(data)` and written to tmp_path/NAME.yaml."""
    data = yaml.safe_load(open(config.scenario_path(None), encoding="utf-8"))
    change(data)
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(ScenarioError) as err:
        config.load_scenario(str(path))
    message = str(err.value)
    assert "\n" not in message and str(path) in message
    return message
