"""The flow registry: typed task records, their handlers, saving and loading; registries do not leak."""
from typing import NamedTuple

import pytest

from envs.engine.flow import Flow, tag


class Step(NamedTuple):
    n: int


class RevealSweep(NamedTuple):
    pass


def test_flows_keep_their_own_handlers():
    a, b = Flow(), Flow()

    @a.task(Step)
    def step(game, n):
        game.append(n)

    @b.answer("ask")
    def ask(game, ctx, yes):
        game.append((ctx, yes))

    log = []
    a.tasks[Step](log, *Step(3))
    b.answers["ask"](log, {"k": 1}, True)
    assert log == [3, ({"k": 1}, True)]
    assert Step not in b.tasks and "ask" not in a.answers


def test_a_handler_must_take_its_records_fields():
    flow = Flow()
    with pytest.raises(TypeError, match=r"does not take the fields of Step\('n',\)"):
        @flow.task(Step)
        def step(game, count):
            pass


def test_tasks_save_as_tag_and_fields_and_load_back():
    flow = Flow()
    flow.task(Step)(lambda game, n: None)
    flow.task(RevealSweep)(lambda game: None)
    assert tag(RevealSweep) == "reveal_sweep"
    assert flow.save(Step(4)) == ["step", 4] and flow.save(RevealSweep()) == ["reveal_sweep"]
    assert flow.load(["step", 4]) == Step(4) and type(flow.load(["reveal_sweep"])) is RevealSweep
