"""Positions a test can build (the contract's `build_position`): a Cityfight game set up from a small dict.

    build_position({
        "scenario": "office_block",            # the rules: a name under configs/cityfight/scenarios/, a path to a
                                               # scenario file, or the scenario itself as data (a dict as the file holds)
        "map": '''
            ...BB
            ..BB.
        ''',                                   # a text map (CF-MAP terrain letters); default: the scenario's
        "rows": {"B": {"ca": 3, "max_range": 20}},   # unit stats: CF-TAB-1 values of a row (profile) changed
        "attackers": [("A1", "C", "b2"), {"name": "AL", "row": "L", "at": "a1"}],
        "defenders": [("D1", "B", "e2", "RPG"), ("D2", "B", "e1", None, {"suppressed": True}),
                      {"name": "D3", "row": "A", "lost": True},                 # destroyed before the game
                      {"name": "D4", "row": "C", "at": "d1", "special": "UGL", "shots": 1, "smoke": True}],
        "pools": [12, 12], "lr": [3, 3],       # each side's one section: AP pool and leader rating
        "turn": 3, "phase": "action",          # the turn, and where in it the game starts
    }, dice=ScriptedDice([6, 3]))

An element is (name, row, square[, special weapon[, flags]]) or the same as a mapping with these keys:

  * `name`, `row` (its profile: a row of CF-TAB-1), `at` (a square ID; not needed for a lost element);
  * the loadout: `special` (an HE/AS weapon of CF-TAB-3), `shots` (the weapon's shots left, default the table's),
    `smoke` (its UGL may fire smoke, CF-VAR-2);
  * `flags`: any of its state fields (`suppressed`, `ap_spent`, `ooa`, `fired`, `overwatch`...);
  * `lost`: destroyed before the game (an earlier engagement): it stays in the order of battle, dead, in the
    graveyard, and the enemy's record of types seen killed counts it (both orders of battle are public, CF-HID-1).

A row-L element leads its section if none does. `rows` changes a row's stats for this game only (every element
of that row: the observation knows elements by row). `phase` is where turn `turn` (default 1) starts:

  * "action" (default): the Action Phase, the attacker to activate; the rest of the turn (ammunition, recovery,
    end check) follows;
  * "command": Command-Control first: the pools are rolled with the game's dice (CF-AP-1..8), replacing `pools`;
  * "upkeep": the whole turn from its start (CF-TURN-2 clears the per-turn flags, smoke decays).

What the set-up rolls before the first decision is the game's `setup_events`. A scenario given as data or with
another map is kept as a built scenario, so saved games restore within the same process. Every cache is derived
here; an unknown key, square, row, field or weapon fails in one line naming the field.
"""
from __future__ import annotations

from dataclasses import fields as dataclass_fields
from dataclasses import replace
from pathlib import Path

from envs.engine.dice import Dice, ScriptedDice
from envs.engine.grid import parse_square_id

from . import config, knowledge
from .flow import Decision
from .game import CityfightGame
from .state import DEAD, Element, Section
from .tasks import ActionPhase, AmmoPhase, CommandPhase, EndCheck, RecoveryPhase, TurnStart

SPEC_KEYS = {"scenario", "map", "rows", "attackers", "defenders", "pools", "lr", "turn", "phase"}
ELEMENT_KEYS = ("name", "row", "at", "special", "flags", "shots", "smoke", "lost")
#: where a position may start in its turn, and the tasks that play the turn from there (CF-TURN-1)
PHASES = {
    "action": (AmmoPhase, RecoveryPhase, EndCheck),
    "command": (CommandPhase, ActionPhase, AmmoPhase, RecoveryPhase, EndCheck),
    "upkeep": (TurnStart,),
}


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
    base = base_scenario(spec.get("scenario", default_scenario))
    return set_up(scenario_on_map(with_rows(base, spec.get("rows")), spec.get("map")), spec, dice, **options)


def base_scenario(scenario) -> config.Scenario:
    """The scenario of the spec: a name under configs/, a path to a scenario file, or the scenario as data."""
    if isinstance(scenario, dict):
        return config.scenario_from_data(scenario, "position.scenario")
    text = str(scenario)
    if isinstance(scenario, Path) or "/" in text or text.endswith((".yaml", ".yml")):
        if not Path(text).is_file():
            raise PositionError(f"scenario: no scenario file {text!r}")
        return config.load_scenario(text)
    if text not in config.scenario_names():
        raise PositionError(f"scenario: unknown scenario {text!r}; known: {', '.join(sorted(config.scenario_names()))}")
    return config.load_scenario(config.scenario_path(text))


def with_rows(base: config.Scenario, rows: dict | None) -> config.Scenario:
    """`base` with some CF-TAB-1 rows' stats changed (unit stats, for this game only)."""
    if not rows:
        return base
    elements = dict(base.tables.elements)
    for row, changes in rows.items():
        if row not in elements:
            raise PositionError(f"rows.{row}: unknown row; known: {', '.join(elements)}")
        fields = {f.name for f in dataclass_fields(elements[row])} - {"row"}
        for key in changes:
            if key not in fields:
                raise PositionError(f"rows.{row}.{key}: unknown stat; known: {', '.join(sorted(fields))}")
        elements[row] = replace(elements[row], **{k: tuple(v) if isinstance(v, list) else v for k, v in changes.items()})
    return replace(base, tables=replace(base.tables, elements=elements))


def set_up(scenario: config.Scenario, spec: dict, dice: Dice | None = None, **options) -> CityfightGame:
    """The position of `spec` (its elements, pools, ratings, turn and phase) on a scenario already built."""
    game = CityfightGame(scenario, dice if dice is not None else ScriptedDice([]), options, _setup=False)
    game.init_state()
    pools, ratings = spec.get("pools", (12, 12)), spec.get("lr", (3, 3))
    for side, key in enumerate(("attackers", "defenders")):
        game.sections[side].append(Section(0, side, "AD"[side], ratings[side], pools[side]))
        for i, item in enumerate(spec.get(key, ())):
            place(game, side, **_element(item, f"{key}[{i}]"))
    game.turn = _turn(spec.get("turn", 1), scenario)
    start_in(game, spec.get("phase", "action"))
    game.refresh()
    return game


def _turn(turn, scenario: config.Scenario) -> int:
    if not isinstance(turn, int) or not 1 <= turn <= scenario.turns:
        raise PositionError(f"turn: an integer 1..{scenario.turns} (the scenario's last turn), got {turn!r}")
    return turn


def start_in(game: CityfightGame, phase: str) -> None:
    """Start the turn at `phase`: the Action Phase at the attacker's activation, or play on from an earlier phase to
    the first decision (what that rolls is the game's `setup_events`)."""
    if phase not in PHASES:
        raise PositionError(f"phase: one of {', '.join(PHASES)}, got {phase!r}")
    game.push(*(task() for task in PHASES[phase]))
    if phase == "action":
        game.phase = "action"
        game.decide(Decision.ACTIVATE, 0)
        return
    game.run()
    game.setup_events = game.log.take()


def _element(item, field: str) -> dict:
    """An element spec as keyword arguments of `place`."""
    if not isinstance(item, dict):
        item = dict(zip(ELEMENT_KEYS, item))
    unknown = sorted(set(item) - set(ELEMENT_KEYS))
    if unknown:
        raise PositionError(f"{field}: unknown key {unknown[0]!r}; known: {', '.join(ELEMENT_KEYS)}")
    if item.get("at") is None and not item.get("lost"):
        raise PositionError(f"{field}.at: a square ID (only a lost element has none)")
    loadout = {key: item[key] for key in ("shots", "smoke", "lost") if key in item}
    return {"name": item["name"], "row": item["row"], "square": item.get("at"), "special": item.get("special"),
            **loadout, **(item.get("flags") or {})}


def place(game: CityfightGame, side: int, name: str, row: str, square: str | None, special: str | None = None,
          shots: int | None = None, lost: bool = False, **flags) -> Element:
    """Add an element of `side` (section 0) on `square` (an ID such as 'k6'); a row-L element leads the section
    if none does. `shots`: its special weapon's shots left (default the table's); `lost`: destroyed before the
    game (see `lose`)."""
    if row not in game.tables.elements:
        raise PositionError(f"{name}.row: unknown row {row!r}; known: {', '.join(game.tables.elements)}")
    if special is not None and special not in game.tables.he_weapons:
        raise PositionError(f"{name}.special: unknown weapon {special!r}")
    slot = len(game.elements[side])
    e = Element(slot, side, name, row, 0, leader=(row == "L"), special=special, shots=_shots(game, name, special, shots),
                square=DEAD if lost else square_of(game, square), **flags)
    game.elements[side].append(e)
    section = game.sections[side][0]
    if e.leader and section.leader < 0 and not lost:
        section.leader = slot
    if lost:
        lose(game, e)
    game.refresh()
    return e


def _shots(game: CityfightGame, name: str, special: str | None, shots: int | None) -> int:
    """The special weapon's shots left: the table's (CF-TAB-3), or fewer when given."""
    full = game.tables.he_weapons[special].shots if special else 0
    if shots is None:
        return full
    if special is None or not isinstance(shots, int) or not 0 <= shots <= max(full, 1):
        raise PositionError(f"{name}.shots: shots of its special weapon, 0..{full}, got {shots!r}")
    return shots


def lose(game: CityfightGame, e: Element) -> None:
    """An element destroyed before the game: dead, in the graveyard; CF-HID-1: the orders of battle are public, so
    the enemy's record of types seen killed counts it."""
    e.square = DEAD
    game.graveyard.append(e.name)
    knowledge.told_killed(game.knowledge[1 - e.side], e.row)


def square_of(game: CityfightGame, name: str) -> int:
    """The board square of an ID such as 'k6'."""
    try:
        square = game.board.at(*parse_square_id(name))
    except ValueError:
        square = -1
    if square < 0:
        raise PositionError(f"square {name!r} is not on this {game.board.width}x{game.board.height} map")
    return square
