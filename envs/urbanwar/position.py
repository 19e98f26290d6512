"""Positions for rule tests: a compact spec, every cache derived.

    spec = {"models": {"A1": [10, 20], "B3": [11, 20]},   # placed models (others are off the table, dead)
            "orders": {"A1": "snap", "B3": "overwatch"},   # face-down orders (face-up with "snap!"/"overwatch!")
            "wounds": {"B1": 1}, "panic": ["A2"], "map": {"=": [[10, 21]]}, "turn": 2, "activated": ["A3"]}

The game is then at the start of the activation phase with `first` (default 0) to activate, unless `start` is
given: ("action", "A1") starts an action of A1 (after its activation) straight away; "phase": "orders" starts
the turn instead (marker and order phases).
"""
from __future__ import annotations

from envs.engine.dice import Dice, SeededDice

from . import config
from .tasks import BeginAction, NextActivation

ORDER_NAMES = {"snap": 0, "overwatch": 1}


def build_position(spec: dict, dice: Dice | None, scenario: str, **options):
    from .game import UrbanWarGame
    sc = config.load_scenario(config.scenario_path(scenario))
    if "map" in spec:
        rows = [list(r) for r in sc.map]
        for ch, cells in spec["map"].items():
            for x, y in cells:
                rows[y][x] = ch
        sc = config.replace(sc, map=tuple("".join(r) for r in rows))
    game = UrbanWarGame(sc, dice if dice is not None else SeededDice(0), options, _setup=False)
    ids = {m.id: m for m in game.models}
    for mid, (x, y) in spec.get("models", {}).items():
        game.place(ids[mid], y * config.SIZE + x)
    for m in game.models:
        if m.cell < 0:
            m.w, m.cell = 0, -1
    for mid, w in spec.get("wounds", {}).items():
        ids[mid].w = ids[mid].profile.W - w
    for mid in spec.get("panic", ()):
        ids[mid].panic = True
    for mid in spec.get("activated", ()):
        ids[mid].activated = True
    for mid, fu in spec.get("follow_ups_used", {}).items():
        ids[mid].fu_used = fu
    for mid, name in spec.get("orders", {}).items():
        m = ids[mid]
        game.orders.place_face_up(m.side, m.idx, ORDER_NAMES[name.rstrip("!")])
        if not name.endswith("!"):
            game.orders.face_up.discard(m.idx)
    game.turn, game.deployed, game.rolloff_winner = spec.get("turn", 1), True, spec.get("first", 0)
    start = spec.get("start")
    if spec.get("phase") == "orders":
        from .tasks import TurnStart
        game.push(TurnStart())
    elif start:
        m = ids[start[1]]
        m.activated = True
        game.orders.remove(m.idx)
        game.push(BeginAction(m.idx, False))
    else:
        game.push(NextActivation(spec.get("first", 0)))
    game.refresh()
    game.run()
    game.setup_events = game.log.take()
    return game
