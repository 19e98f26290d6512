"""Positions a test can build (the contract's `build_position`): a K47 game set up from a small dict.

    build_position({
        "scenario": "village_crossroads",     # default: the ruleset's default
        "only": ["A1", "B2"],                 # keep only these units (default: all)
        "units": {"A1": {"at": [5, 5], "pins": 2, "order": "down", "kept": False, "models": 4, "facing": 0},
                  "B1": {"in": ["T1", 1]}},
        "sections": {"W": "burning"},         # intact | burning | rubble
        "turn": 2,
        "decide": ["unit", 0],                # the drawn side orders a unit (default)
        #         ["order", "A1"] (the unit was drawn and chosen), ["target", "A1"], ["move", "A1", "run"]
    }, dice=ScriptedDice([...]))

The bag holds one die per unit with no order and no kept die (KC-TURN-8), minus the drawn die. Every cache is
derived; an unknown key, unit or section fails in one line naming the field.
"""
from __future__ import annotations

from envs.engine.dice import Dice, ScriptedDice
from envs.engine.orderbag import OrderBag

from . import hidden
from .board import BURNING, INTACT, RUINED
from .flow import Decision
from .game import K47Game
from .geometry import openings_of
from .movement import fixed_weapon
from .state import ORDERS
from .tasks import Draw

SPEC_KEYS = {"scenario", "only", "units", "sections", "turn", "decide"}
UNIT_KEYS = {"at", "in", "pins", "order", "kept", "models", "facing"}


class PositionError(ValueError):
    """A position spec the builder cannot set up; the message names the field."""


def build_position(spec: dict, dice: Dice | None = None, default_scenario: str = "village_crossroads",
                   **options) -> K47Game:
    _keys("position", spec, SPEC_KEYS)
    scenario = K47Game.config.load_scenario(K47Game.config.scenario_path(spec.get("scenario", default_scenario)))
    game = K47Game(scenario, ScriptedDice([]), options, _setup=False)
    game.place_units()
    by_name = {u.name: u for u in game.units}
    only = spec.get("only")
    for u in game.units:
        if only is not None and u.name not in only:
            u.alive = False
    for name, fields in spec.get("units", {}).items():
        if name not in by_name:
            raise PositionError(f"position: units.{name}: expected a unit of the scenario")
        _keys(f"units.{name}", fields, UNIT_KEYS)
        u = by_name[name]
        if "at" in fields:
            u.cell, u.section, u.floor, u.fixed_opening = tuple(fields["at"]), None, 0, None
        if "in" in fields:
            s = game.board.section_named(fields["in"][0])
            if s is None:
                raise PositionError(f"position: units.{name}.in: expected a section name, got {fields['in'][0]!r}")
            u.cell, u.section, u.floor = None, s.index, fields["in"][1]
            _designate(game, u)
        u.pins = fields.get("pins", u.pins)
        order = fields.get("order")
        if order is not None and order not in ORDERS:
            raise PositionError(f"position: units.{name}.order: expected one of {', '.join(ORDERS)}")
        u.order, u.kept = order, fields.get("kept", False)
        if "models" in fields:
            u.models = u.models[len(u.models) - fields["models"]:] if fields["models"] < len(u.models) else u.models
        u.facing = fields.get("facing", u.facing)
    for name, state in spec.get("sections", {}).items():
        s = game.board.section_named(name)
        if s is None or state not in (INTACT, BURNING, RUINED):
            raise PositionError(f"position: sections.{name}: expected a section and intact|burning|rubble")
        game.section_state[s.index] = state
    game.turn = spec.get("turn", 1)
    counts = [0, 0]
    for u in game.living():
        if u.order is None and not u.kept:
            counts[u.side] += 1
    game.bag = OrderBag.filled(counts)
    decide = spec.get("decide", ["unit", 0])
    game.tasks = [Draw()]
    if decide[0] == "unit":
        game.bag.take(decide[1])
        game.drawn = decide[1]
        game.decide(Decision.UNIT, side=decide[1])
    elif decide[0] == "none":
        game.decision = None
    else:
        u = by_name[decide[1]]
        if u.order is None and not u.kept:
            game.bag.take(u.side)
            game.drawn = u.side
        if decide[0] == "order":
            game.decide(Decision.ORDER, side=u.side, uid=u.uid)
        elif decide[0] == "target":
            u.order, game.drawn = u.order or "fire", None
            game.decide(Decision.TARGET, side=u.side, uid=u.uid, moved=u.order == "advance")
        elif decide[0] == "move":
            u.order, game.drawn = decide[2], None
            game.decide(Decision.MOVE, side=u.side, uid=u.uid, order=decide[2])
        else:
            raise PositionError(f"position: decide: expected unit, order, target, move or none, got {decide[0]!r}")
    game.dice = dice if dice is not None else ScriptedDice([])
    hidden.conceal_occupants(game)                  # KC-HID-6: as at set-up, from the built places
    game.refresh()
    return game


def _designate(game, u) -> None:
    """KB-FROM-5 / KB-ART-1: a unit placed inside keeps its set-up opening if it is on its floor, else (a Fixed
    weapon or artillery) takes the floor's first usable opening."""
    usable = [o.index for o in openings_of(game, u)]
    if u.fixed_opening not in usable:
        u.fixed_opening = usable[0] if usable and (fixed_weapon(game, u) or u.kind == "artillery") else None


def _keys(where: str, data: dict, allowed: set) -> None:
    for key in data:
        if key not in allowed:
            raise PositionError(f"position: {where}.{key}: expected one of {', '.join(sorted(allowed))}")
