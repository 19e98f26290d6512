"""Event and EventLog: the fields, their defaults, and an Event frozen as a dataclass is."""
from __future__ import annotations

import dataclasses

import pytest

from envs.engine.events import Event, EventLog


def test_defaults_and_a_fresh_data_dict_per_event():
    a, b = Event("fire", "A fires"), Event("fire", "A fires")
    assert (a.side, a.dice, a.rule, a.data) == (None, (), "", {})
    assert a.data is not b.data


def test_fields_by_position_and_by_name():
    e = Event("hit", "B is hit", 1, (4, 6), "UW-SHOOT-3", {"rolls": []})
    assert e == Event(kind="hit", text="B is hit", side=1, dice=(4, 6), rule="UW-SHOOT-3", data={"rolls": []})
    assert (e.kind, e.text, e.side, e.dice, e.rule, e.data) == ("hit", "B is hit", 1, (4, 6), "UW-SHOOT-3", {"rolls": []})
    assert Event("x", "y", data=None).data is None     # given, kept: only a left-out data gets the empty dict


def test_frozen_and_compared_without_data():
    e = Event("hit", "B is hit", 1, (4,), "R-1", {"a": 1})
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.text = "changed"
    assert e == Event("hit", "B is hit", 1, (4,), "R-1", {"b": 2}) and hash(e) == hash(Event("hit", "B is hit", 1, (4,), "R-1"))
    assert dataclasses.replace(e, text="other").text == "other"


def test_log_keeps_dice_as_a_tuple_and_data_by_keyword():
    log = EventLog()
    log.add("roll", "rolled", 0, [3, 5], rule="R-2", needs="4+")
    log.add("roll", "rolled", 0, (6,), rule="R-2")
    first, second = log.take()
    assert first.dice == (3, 5) and first.data == {"needs": "4+"} and second.dice == (6,)
    assert log.take() == []


def test_disabled_log_records_nothing():
    log = EventLog(enabled=False)
    log.add("roll", "rolled")
    assert log.take() == []
