"""The flow registry: tasks and answers register per ruleset and do not leak between registries."""
from envs.engine.flow import Flow


def test_flows_keep_their_own_handlers():
    a, b = Flow(), Flow()

    @a.task("step")
    def step(game, n):
        game.append(n)

    @b.answer("ask")
    def ask(game, ctx, yes):
        game.append((ctx, yes))

    log = []
    a.tasks["step"](log, 3)
    b.answers["ask"](log, {"k": 1}, True)
    assert log == [3, ({"k": 1}, True)]
    assert "step" not in b.tasks and "ask" not in a.answers
