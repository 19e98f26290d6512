"""Positions a rule test can build (the contract's `build_position`): a K47 game set up from a small dict.

    build_position({
        "scenario": "village_crossroads",     # a scenario's name, a path to a YAML file, or the scenario as data
        "only": ["A1", "B2"],                 # keep only these units (the others never played: no VP)
        "lost": ["A3"],                       # destroyed earlier in the game: gone, and worth kill VP (KC-SCN-9)
        "units": {"A1": {"at": [5, 5], "pins": 2, "order": "down", "kept": False, "models": 4, "facing": "N"},
                  "A4": {"kind": "artillery", "quality": "veteran", "small": True,
                         "loadout": [{"role": "crew"}, {"weapon": "medium_howitzer", "role": "carrier"}]},
                  "B1": {"in": ["T1", 1], "fixed_opening": [9, 7, "S"]}},
        "sections": {"W": "burning"},         # intact | burning | rubble
        "turn": 2,
        "decide": ["unit", 0],                # where play starts (below)
    }, dice=ScriptedDice([...]))

`scenario`: a name under configs/k47/scenarios; a path (a `pathlib.Path`, or a string with a `/` or ending in
.yaml) to a scenario file anywhere; or a dict in the scenario files' own shape, whole or `{"based_on":
"village_crossroads", "map": [...], "buildings": [...]}` naming only what it changes. Data is checked as a file is
(errors name `position.scenario`) and a game built from it saves and restores with it (`to_dict` carries the data).

A unit's profile (what a scenario file says of it), each optional: `kind` (infantry | artillery | vehicle),
`quality` (inexperienced | regular | veteran: its morale and damage value, KC-TAB-1), `small`, `vehicle`
({"class": a KC-TAB-5 class, "tracked": bool}), `loadout` (its models in the scenario's `models` shape: weapon or
weapons, role, count; it sets the unit's starting models too), `models` (a count: the unit has lost all but that
many, KC-SHOOT-9 order aside: the last ones are kept). Its state: `at` [x, y] or `in` [section, floor] (a unit
inside with a Fixed weapon, or artillery, fires from `fixed_opening` [x, y, side], else its floor's first usable
opening: KB-FROM-5, KB-ART-1), `pins`, `order`, `kept`, `facing` (0-7 or N, NE, ...), `moved`, `immobile`.

`decide` (default ["unit", 0]):
    ["unit", side]          side's die was drawn: it picks the unit to order
    ["order", "A1"]         A1 was drawn and chosen: its order decision
    ["target", "A1"]        A1 Fires (or has Advanced: give it `"order": "advance"`): its target decision
    ["move", "A1", "run"]   A1's Advance or Run: its move decision
    ["turn_start"]          the turn begins (KC-TURN-1): the bag is filled and the first die drawn with `dice`
    ["turn_end"]            the bag is empty (a unit given no order has Fired): the keep-or-return choices of
                            KC-TURN-5/9 come next, then the next turn or the game's end (KC-TURN-7)
    ["none"]                no decision (the caller pushes tasks itself)

The bag holds one die per unit with no order and no kept die (KC-TURN-8), minus the drawn die. Events the builder
plays through (a turn's start or end) are the game's `setup_events`. Every cache is derived; an unknown key, unit
or section fails in one line naming the field.
"""
from __future__ import annotations

from pathlib import Path

import msgspec

from envs.engine.dice import Dice, ScriptedDice
from envs.engine.orderbag import OrderBag
from envs.engine.scenario import Fields

from . import config, hidden, schema
from .board import BURNING, INTACT, RUINED
from .flow import Decision
from .game import K47Game
from .geometry import openings_of
from .movement import FACINGS, fixed_weapon
from .state import FIRE, ORDERS, Model
from .tasks import Draw, EndTurn, StartTurn

SPEC_KEYS = {"scenario", "only", "lost", "units", "sections", "turn", "decide"}
PROFILE_KEYS = {"kind", "quality", "small", "vehicle", "loadout", "models"}
PLACE_KEYS = {"at", "in", "fixed_opening"}
STATE_KEYS = {"pins", "order", "kept", "facing", "moved", "immobile"}
UNIT_KEYS = PROFILE_KEYS | PLACE_KEYS | STATE_KEYS
KINDS = ("infantry", "artillery", "vehicle")
COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")      # KV-MOVE-2: facings 0..7, clockwise from N


class PositionError(ValueError):
    """A position spec the builder cannot set up; the message names the field."""


def build_position(spec: dict, dice: Dice | None = None, default_scenario: str = "village_crossroads",
                   **options) -> K47Game:
    """A game set up from `spec` (this module's docstring), playing on with `dice` (default: none left)."""
    _keys("position", spec, SPEC_KEYS)
    game = K47Game(scenario_of(spec.get("scenario", default_scenario)), ScriptedDice([]), options, _setup=False)
    game.place_units()
    by_name = {u.name: u for u in game.units}
    _keep_only(game, spec.get("only"), by_name)
    for name, fields in spec.get("units", {}).items():
        _set_unit(game, _unit_named(by_name, name, "units"), name, fields)
    _mark_lost(game, spec.get("lost", ()), by_name)
    _set_sections(game, spec.get("sections", {}))
    game.turn = spec.get("turn", 1)
    game.dice = dice if dice is not None else ScriptedDice([])
    hidden.conceal_occupants(game)                  # KC-HID-6: as at set-up, from the built places
    decide = spec.get("decide", ["unit", 0])
    _start(game, decide, by_name)
    game.refresh()
    if decide[0] in ("turn_start", "turn_end"):
        game.run()                                  # on to the first decision, with `dice`
    game.setup_events = game.log.take()
    return game


# The scenario ------------------------------------------------------------------------------------------------
def scenario_of(given) -> config.Scenario:
    """A scenario's name under configs/k47/scenarios, a path to a YAML file, or a scenario as data (a dict)."""
    if isinstance(given, dict):
        return config.load_scenario_data(given, "position.scenario")
    if isinstance(given, Path) or (isinstance(given, str) and ("/" in given or given.endswith((".yaml", ".yml")))):
        return config.load_scenario(str(Path(given).resolve()))
    if isinstance(given, str):
        path = Path(config.scenario_path(given))
        if not path.is_file():
            raise PositionError(f"position: scenario: expected a scenario of configs/k47/scenarios, a path to a "
                                f"YAML file or a scenario as data, got {given!r}")
        return config.load_scenario(str(path))
    raise PositionError(f"position: scenario: expected a name, a path or a dict, got {type(given).__name__}")


# Units -------------------------------------------------------------------------------------------------------
def _unit_named(by_name: dict, name: str, where: str):
    if name not in by_name:
        raise PositionError(f"position: {where}.{name}: expected a unit of the scenario ({', '.join(by_name)})")
    return by_name[name]


def _keep_only(game, only, by_name) -> None:
    """Units left out never took part: not destroyed in play, so worth no VP."""
    if only is None:
        return
    for name in only:
        _unit_named(by_name, name, "only")
    for u in game.units:
        if u.name not in only:
            u.alive = False


def _mark_lost(game, lost, by_name) -> None:
    """KC-SCN-9: units destroyed earlier in the game count for the enemy's kill VP (`game.destroyed`)."""
    for name in lost:
        u = _unit_named(by_name, name, "lost")
        if u.alive:
            u.alive, u.order, u.kept = False, None, False
            game.destroyed.append(u.uid)


def _set_unit(game, u, name: str, fields: dict) -> None:
    """The profile first (what the unit is), then its place, then its state this turn."""
    _keys(f"units.{name}", fields, UNIT_KEYS)
    _set_profile(game, u, name, fields)
    _set_place(game, u, name, fields)
    _set_state(u, name, fields)


def _set_profile(game, u, name: str, fields: dict) -> None:
    where = f"position: units.{name}"
    if "kind" in fields:
        if fields["kind"] not in KINDS:
            raise PositionError(f"{where}.kind: expected one of {', '.join(KINDS)}, got {fields['kind']!r}")
        u.kind = fields["kind"]
    if "quality" in fields:
        if fields["quality"] not in config.QUALITIES:
            raise PositionError(f"{where}.quality: expected one of {', '.join(config.QUALITIES)}, "
                                f"got {fields['quality']!r}")
        u.quality = fields["quality"]                 # KC-TAB-1: its morale and damage value
    u.small = bool(fields.get("small", u.small))
    if "vehicle" in fields:
        _set_vehicle(game, u, where, fields["vehicle"])
    if u.kind == "vehicle" and u.vclass is None:
        raise PositionError(f"{where}.vehicle: expected {{class, tracked}} for a vehicle (KC-TAB-5)")
    if "loadout" in fields:
        u.models = loadout(game, name, fields["loadout"])
        u.start_models = len(u.models)
    if "models" in fields:
        count = fields["models"]
        if not isinstance(count, int) or not 1 <= count <= len(u.models):
            raise PositionError(f"{where}.models: expected a count in 1..{len(u.models)}, got {count!r}")
        u.models = u.models[len(u.models) - count:]


def _set_vehicle(game, u, where: str, given) -> None:
    if not isinstance(given, dict) or given.get("class") not in game.tables.vehicle_damage:
        raise PositionError(f"{where}.vehicle: expected {{class: one of {', '.join(game.tables.vehicle_damage)}, "
                            f"tracked: bool}}, got {given!r}")
    u.vclass, u.tracked = given["class"], bool(given.get("tracked", True))


def loadout(game, name: str, given) -> list:
    """A unit's models from a list in the scenario files' `models` shape, checked as a file's (weapons named in the
    tables, roles, counts)."""
    try:
        specs = msgspec.convert(given, list[schema.Model], strict=True)
    except msgspec.ValidationError as err:
        raise PositionError(f"position: units.{name}.loadout: {err}") from None
    f = Fields({"loadout": given}, "position", f"units.{name}")
    return [Model(m.role, list(m.weapons)) for m in config._models(f, specs, game.tables, key="loadout")]


def _set_place(game, u, name: str, fields: dict) -> None:
    if "at" in fields:
        u.cell, u.section, u.floor, u.fixed_opening = tuple(fields["at"]), None, 0, None
    if "in" in fields:
        s = game.board.section_named(fields["in"][0])
        if s is None:
            raise PositionError(f"position: units.{name}.in: expected a section name, got {fields['in'][0]!r}")
        u.cell, u.section, u.floor = None, s.index, fields["in"][1]
    if "fixed_opening" in fields:
        u.fixed_opening = _opening_at(game, u, name, fields["fixed_opening"])
    if u.inside:
        _designate(game, u)


def _opening_at(game, u, name: str, edge) -> int:
    """KB-FROM-5 / KB-ART-1: the opening [x, y, side] on the unit's own floor."""
    for o in openings_of(game, u):
        if list(o.cell) + [o.side] == list(edge):
            return o.index
    raise PositionError(f"position: units.{name}.fixed_opening: expected [x, y, side] of an opening on the unit's "
                        f"own floor, got {edge!r}")


def _designate(game, u) -> None:
    """KB-FROM-5 / KB-ART-1: a unit placed inside keeps its set-up opening if it is on its floor, else (a Fixed
    weapon or artillery) takes the floor's first usable opening."""
    usable = [o.index for o in openings_of(game, u)]
    if u.fixed_opening not in usable:
        u.fixed_opening = usable[0] if usable and (fixed_weapon(game, u) or u.kind == "artillery") else None


def _set_state(u, name: str, fields: dict) -> None:
    u.pins = fields.get("pins", u.pins)
    order = fields.get("order")
    if order is not None and order not in ORDERS:
        raise PositionError(f"position: units.{name}.order: expected one of {', '.join(ORDERS)}")
    u.order, u.kept = order, fields.get("kept", False)
    facing = fields.get("facing", u.facing)
    u.facing = COMPASS.index(facing) if facing in COMPASS else facing
    if not isinstance(u.facing, int) or not 0 <= u.facing < len(FACINGS):
        raise PositionError(f"position: units.{name}.facing: expected 0..7 or one of {', '.join(COMPASS)}")
    u.moved = bool(fields.get("moved", u.moved))
    u.immobile = bool(fields.get("immobile", u.immobile))


def _set_sections(game, sections: dict) -> None:
    for name, state in sections.items():
        s = game.board.section_named(name)
        if s is None or state not in (INTACT, BURNING, RUINED):
            raise PositionError(f"position: sections.{name}: expected a section and intact|burning|rubble")
        game.section_state[s.index] = state


# Where play starts -------------------------------------------------------------------------------------------
def _start(game, decide: list, by_name: dict) -> None:
    """The bag (KC-TURN-8) and the first decision or task (`decide`, in this module's docstring)."""
    game.tasks = [Draw()]
    if decide[0] == "turn_start":
        game.tasks = [StartTurn()]                 # KC-TURN-1 fills the bag itself
        return
    if decide[0] == "turn_end":
        for u in game.living():
            if u.order is None and not u.kept:
                u.order = FIRE                     # the bag is empty: every unit has had its die this turn
        game.bag, game.tasks = OrderBag.filled([0, 0]), [EndTurn()]
        return
    game.bag = OrderBag.filled(_free_dice(game))
    if decide[0] == "unit":
        game.bag.take(decide[1])
        game.drawn = decide[1]
        game.decide(Decision.UNIT, side=decide[1])
    elif decide[0] == "none":
        game.decision = None
    elif decide[0] in ("order", "target", "move"):
        _activate(game, decide, _unit_named(by_name, decide[1], "decide"))
    else:
        raise PositionError(f"position: decide: expected unit, order, target, move, turn_start, turn_end or none, "
                            f"got {decide[0]!r}")


def _free_dice(game) -> list:
    counts = [0, 0]
    for u in game.living():
        if u.order is None and not u.kept:
            counts[u.side] += 1
    return counts


def _activate(game, decide: list, u) -> None:
    """The drawn die turned to this unit (KC-TURN-8), at its order, target or move decision."""
    if u.order is None and not u.kept:
        game.bag.take(u.side)
        game.drawn = u.side
    if decide[0] == "order":
        game.decide(Decision.ORDER, side=u.side, uid=u.uid)
    elif decide[0] == "target":
        u.order, game.drawn = u.order or "fire", None
        game.decide(Decision.TARGET, side=u.side, uid=u.uid, moved=u.order == "advance")
    else:
        u.order, game.drawn = decide[2], None
        game.decide(Decision.MOVE, side=u.side, uid=u.uid, order=decide[2])


def _keys(where: str, data: dict, allowed: set) -> None:
    for key in data:
        if key not in allowed:
            raise PositionError(f"position: {where}.{key}: expected one of {', '.join(sorted(allowed))}")
