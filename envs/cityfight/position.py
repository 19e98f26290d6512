"""Positions a test can build (the contract's `build_position`): a Cityfight game set up from a small dict.

    build_position({
        "map": '''
            ...BB
            ..BB.
        ''',                                   # a text map (CF-MAP terrain letters); default: The Office Block's
        "attackers": [("A1", "C", "b2"), {"name": "AL", "row": "L", "at": "a1"}],
        "defenders": [("D1", "B", "e2", "RPG"), ("D2", "B", "e1", None, {"suppressed": True})],
        "pools": [12, 12], "lr": [3, 3],       # each side's one section: AP pool and leader rating
    }, dice=ScriptedDice([6, 3]))

An element is (name, row, square[, special weapon[, flags]]) or the same as a mapping; a row-L element leads
its section if none does. The game is in the Action Phase of turn 1, the attacker to activate; the rest of
turn 1 (ammunition, recovery, end check) follows. Every cache is derived here; an unknown key, square, row or
weapon fails in one line naming the field.
"""
from __future__ import annotations

from dataclasses import replace

from envs.engine.dice import Dice, ScriptedDice
from envs.engine.grid import parse_square_id

from . import config
from .flow import Decision
from .game import CityfightGame
from .state import Element, Section
from .tasks import AmmoPhase, EndCheck, RecoveryPhase

SPEC_KEYS = {"scenario", "map", "attackers", "defenders", "pools", "lr"}
ELEMENT_KEYS = ("name", "row", "at", "special", "flags")


class PositionError(ValueError):
    """A position spec the builder cannot set up; the message names the field."""


def scenario_on_map(base: config.Scenario, map_text: str | None, **changes) -> config.Scenario:
    """`base`'s rules on another map (no objectives or prepared squares, default search ratings), kept as a
    built scenario so that saved games find it again."""
    if map_text is None:
        return config.register_built(replace(base, **changes))
    rows = [r.strip() for r in map_text.strip().splitlines()]
    if len({len(r) for r in rows}) != 1:
        raise PositionError("map: every row must have the same width")
    width, height = len(rows[0]), len(rows)
    terrain = tuple(ch for r in rows for ch in r)
    fields = dict(width=width, height=height, terrain=terrain, prepared=frozenset(), objectives=(), chokepoints=(),
                  search_ratings=tuple(config.default_search_ratings(base.tables, terrain, width, height)))
    return config.register_built(replace(base, **{**fields, **changes}))


def build_position(spec: dict, dice: Dice | None = None, default_scenario: str = "office_block",
                   **options) -> CityfightGame:
    """A Cityfight game set up as `spec` says (see the module docstring), with `dice` (default: no dice left)."""
    unknown = sorted(set(spec) - SPEC_KEYS)
    if unknown:
        raise PositionError(f"position: unknown key {unknown[0]!r}; known: {', '.join(sorted(SPEC_KEYS))}")
    base = config.load_scenario(config.scenario_path(spec.get("scenario", default_scenario)))
    return set_up(scenario_on_map(base, spec.get("map")), spec, dice, **options)


def set_up(scenario: config.Scenario, spec: dict, dice: Dice | None = None, **options) -> CityfightGame:
    """The position of `spec` (its elements, pools and ratings) on a scenario already built."""
    game = CityfightGame(scenario, dice if dice is not None else ScriptedDice([]), options, _setup=False)
    game.init_state()
    pools, ratings = spec.get("pools", (12, 12)), spec.get("lr", (3, 3))
    for side, key in enumerate(("attackers", "defenders")):
        game.sections[side].append(Section(0, side, "AD"[side], ratings[side], pools[side]))
        for i, item in enumerate(spec.get(key, ())):
            place(game, side, **_element(item, f"{key}[{i}]"))
    game.phase = "action"
    game.push(AmmoPhase(), RecoveryPhase(), EndCheck())   # the rest of turn 1
    game.decide(Decision.ACTIVATE, 0)
    game.refresh()
    return game


def _element(item, field: str) -> dict:
    """An element spec as keyword arguments of `place`."""
    if not isinstance(item, dict):
        item = dict(zip(ELEMENT_KEYS, item))
    unknown = sorted(set(item) - set(ELEMENT_KEYS))
    if unknown:
        raise PositionError(f"{field}: unknown key {unknown[0]!r}; known: {', '.join(ELEMENT_KEYS)}")
    return {"name": item["name"], "row": item["row"], "square": item["at"], "special": item.get("special"),
            **(item.get("flags") or {})}


def place(game: CityfightGame, side: int, name: str, row: str, square: str, special: str | None = None,
          **flags) -> Element:
    """Add an element of `side` (section 0) on `square` (an ID such as 'k6'); a row-L element leads the section
    if none does."""
    if special is not None and special not in game.tables.he_weapons:
        raise PositionError(f"{name}.special: unknown weapon {special!r}")
    shots = game.tables.he_weapons[special].shots if special else 0
    slot = len(game.elements[side])
    e = Element(slot, side, name, row, 0, leader=(row == "L"), special=special, shots=shots,
                square=square_of(game, square), **flags)
    game.elements[side].append(e)
    section = game.sections[side][0]
    if e.leader and section.leader < 0:
        section.leader = slot
    game.refresh()
    return e


def square_of(game: CityfightGame, name: str) -> int:
    """The board square of an ID such as 'k6'."""
    try:
        square = game.board.at(*parse_square_id(name))
    except ValueError:
        square = -1
    if square < 0:
        raise PositionError(f"square {name!r} is not on this {game.board.width}x{game.board.height} map")
    return square
