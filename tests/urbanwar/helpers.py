"""Rule-test helpers: positions from compact specs, answers by family and arguments."""
from __future__ import annotations

from envs import registry
from envs.engine.dice import ScriptedDice
from envs.urbanwar.actions import CODEC, REACH, RUSH

RULESET = registry.get("urbanwar")


def position(spec: dict, faces=(), **options):
    return RULESET.build_position(spec, ScriptedDice(list(faces)), **options)


def play(game, name: str, *args: int):
    return game.apply(CODEC.encode(name, *args))


def model(game, mid: str):
    return next(m for m in game.models if m.id == mid)


def cell(x: int, y: int) -> int:
    return y * 48 + x


def rules(events) -> set[str]:
    return {e.rule for e in events}


def window(order: str, faces=(), **more):
    """A3 rushes 2" east in sight of B3, whose face-down order is `order`: the UW-HID-6 window is open. `more`:
    further models and face-down orders ({"B4": ([40, 1], "snap")})."""
    models = {"A3": [5, 1], "B3": [20, 1], **{mid: at for mid, (at, _) in more.items()}}
    orders = {"B3": order, **{mid: o for mid, (_, o) in more.items()}}
    game = position({"models": models, "orders": orders, "start": ("action", "A3")}, faces)
    play(game, "action", RUSH)
    play(game, "dest", REACH + 2, REACH)
    return game
