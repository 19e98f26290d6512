"""Konflikt '47 tables and scenarios, loaded from `configs/k47/` and validated on load.

A bad file fails in one line naming the file, the dotted field and what was expected (engine.scenario.Fields).
Keys, types and ranges are checked by the schema (envs/k47/schema.py); what follows checks what a schema cannot
say: two units on one floor, an opening on a wall that does not exist, a section larger than the catalog allows
for its material, a unit in an unknown building, among others.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from msgspec import UNSET

from envs.engine.scenario import Fields, ScenarioError
from envs.engine.schema import check
from envs.paths import CONFIG_ROOT

from . import schema
from .board import BUILDING, BUNKER, CELL_CHARS, Board, Opening, Section

CONFIG_DIR = CONFIG_ROOT / "k47"      # RUBBLE_CONFIGS points every ruleset at another configs/ tree
QUALITIES = ("inexperienced", "regular", "veteran")
HE_VALUES = ("D2", "D3", "D6", "2D6", "3D6")
SECTION_MIN, SECTION_MAX = 3, 4          # KB-GRID-1: 3 or 4 cells a side (6" or 8")
BUNKER_MIN, BUNKER_MAX = 1, 4            # KB-GRID-1 [DESIGN: clarified]: bunker sections 1..4 cells a side


@dataclass(frozen=True)
class Weapon:
    name: str
    range: float
    min_range: float
    shots: int
    pen: int | None          # None: small arms (KC-SHOOT-11)
    he: str | None           # HE dice (KC-HE-1), None: no HE mode
    rules: frozenset
    #: KC-TAB-3: an indirect weapon that also fires direct, to this range (the medium howitzer); None: indirect only
    direct_range: float | None = None

    @property
    def small_arms(self) -> bool:
        return self.pen is None and self.he is None and "flamethrower" not in self.rules

    @property
    def direct_reach(self) -> float:
        """The range of its direct fire (KC-TAB-2's long range is beyond half of it)."""
        return self.direct_range if self.direct_range is not None else self.range

    def fires_indirect(self, declared: bool) -> bool:
        """KC-TAB-3: an indirect weapon fires indirect, unless it also fires direct (the medium howitzer) and the
        attack was not declared indirect (`declared`: the target decision's mode 1)."""
        return "indirect" in self.rules and (self.direct_range is None or declared)

    def fires_he(self, declared: bool) -> bool:
        """KC-HE-1: a weapon with HE only (no Pen of its own) always fires HE; a dual-mode one when declared."""
        return self.he is not None and (self.pen is None or declared)


@dataclass(frozen=True)
class Tables:
    quality: dict            # name -> (morale, damage)
    to_hit: dict             # KC-TAB-2 modifiers by name
    weapons: dict            # name -> Weapon
    he: dict                 # HE value -> (pen, extra-pin dice)
    vehicle_damage: dict     # class -> damage value
    fubar: tuple             # ((max, result), ...)
    movement: dict           # kind -> (advance, run)
    ram_vehicle: dict        # class -> base score
    ram_building: dict       # material -> d6 count
    floor_explodes_on: int
    #: the file's content digest: the tables' own name in the keys of values kept across games (envs.engine.derived
    #: BoundedStore), which must hold game data only (two loads of one file are the same tables)
    digest: str


@dataclass(frozen=True)
class ModelSpec:
    role: str
    weapons: tuple           # ((weapon, mount), ...)


@dataclass(frozen=True)
class UnitSpec:
    id: str
    side: int
    kind: str
    quality: str
    small: bool
    models: tuple            # ModelSpec, in casualty order is decided by the rules (KC-SHOOT-9)
    cell: tuple | None       # outside
    section: int | None      # inside
    floor: int
    facing: str
    vehicle_class: str | None
    tracked: bool
    fixed_opening: int | None


@dataclass(frozen=True)
class Scenario:
    path: str
    name: str
    tables: Tables
    board: Board
    turns: int
    extra_turn_on: int
    objectives: tuple        # building names
    objective_vp: int
    kill_vp: int
    side_names: tuple
    zones: tuple             # per side (first row, last row)
    units: tuple             # UnitSpec
    options: dict
    variants: dict           # variant -> {unit id: cell}
    #: the scenario's own data when it was given as data, not read from a file (`load_scenario_data`): a saved game
    #: carries it, as it has no file to name
    data: dict | None = field(default=None, compare=False)


# Tables ----------------------------------------------------------------------------------------------
@lru_cache(maxsize=8)
def load_tables(path: str) -> Tables:
    f = Fields.load(path)
    t = check(f, schema.Tables)   # keys, types and ranges (envs/k47/schema.py); what follows reads the checked file
    fubar = tuple((e.max, e.result) for e in t.fubar)
    if fubar[-1][0] != 6:         # KC-TAB-6: every d6 has a result; which row is last is beyond a schema
        raise f.error("fubar", "bands ending at 6", [m for m, _ in fubar])
    he = dict(zip(HE_VALUES, (t.he.d2, t.he.d3, t.he.d6, t.he.two_d6, t.he.three_d6)))
    mv = t.movement
    return Tables(quality={q: (getattr(t.quality, q).morale, getattr(t.quality, q).damage) for q in QUALITIES},
                  to_hit={k: getattr(t.to_hit, k) for k in t.to_hit.__struct_fields__},
                  weapons={name: _weapon(f, name, w) for name, w in t.weapons.items()},
                  he={value: (row.pen, row.pins) for value, row in he.items()},
                  vehicle_damage=dict(t.vehicle_damage), fubar=fubar,
                  movement={k: (getattr(mv, k).advance, getattr(mv, k).run) for k in mv.__struct_fields__},
                  ram_vehicle=dict(t.ram.vehicle),
                  ram_building={k: getattr(t.ram.building, k) for k in t.ram.building.__struct_fields__
                                if getattr(t.ram.building, k) is not UNSET},
                  floor_explodes_on=t.floor_roll_explodes_on,
                  digest=hashlib.sha256(Path(path).read_bytes()).hexdigest())


def _weapon(f: Fields, name: str, w: schema.Weapon) -> Weapon:
    """KC-TAB-3: `direct_range` belongs to an indirect weapon (a schema cannot tie one key to another's value)."""
    if w.direct_range is not None and "indirect" not in w.rules:
        raise f.error(f"weapons.{name}.direct_range", "a direct range only on a weapon with the indirect rule "
                      "(KC-TAB-3)", w.direct_range)
    direct = None if w.direct_range is None else float(w.direct_range)
    return Weapon(name, float(w.range), float(w.min_range), w.shots, w.pen, w.he, frozenset(w.rules), direct)


# Scenarios -------------------------------------------------------------------------------------------
def scenario_path(name: str | None) -> str:
    """The YAML file of scenario `name` (default: Village crossroads)."""
    return str(CONFIG_DIR / "scenarios" / f"{name or 'village_crossroads'}.yaml")


def _with_base(f: Fields) -> Fields:
    """KC-SCN-12: a scenario `based_on` another is that one with its own fields on top (its `options` merged
    name by name), so a variant scenario names only what it changes. Each file is checked against its schema on
    its own (errors name the file that has them); whether the base exists and is itself whole is checked here."""
    if not f.has("based_on"):
        return f
    check(f, schema.Variant)
    base_name = f.raw("based_on")
    if not Path(scenario_path(base_name)).is_file():
        raise f.error("based_on", "the name of a scenario in configs/k47/scenarios", base_name)
    base = Fields.load(scenario_path(base_name))
    if base.has("based_on"):
        raise f.error("based_on", "a scenario that is not itself based on another", base_name)
    check(base, schema.Scenario)
    own = {k: v for k, v in f.data.items() if k != "based_on"}
    data = {**base.data, **own, "options": {**base.data["options"], **own.get("options", {})}}
    # an error found below in a field the variant gives points at its line; one it takes from the base, at the file
    lines = {path: line for path, line in f.lines.items() if path.split(".")[0].split("[")[0] in own}
    return Fields(data, f.file, "", lines)


@lru_cache(maxsize=16)
def load_scenario(path: str) -> Scenario:
    """The scenario in the YAML file at `path`, checked (errors name the file, field and line)."""
    return _scenario(Fields.load(path), path)


def load_scenario_data(data: dict, source: str = "<scenario data>") -> Scenario:
    """A scenario given as data, in the YAML files' own shape (whole, or `based_on` a scenario of
    configs/k47/scenarios), checked as a file would be; errors name `source` as the file. Rule tests build their
    own boards with it (envs/k47/position.py). Kept per content: a game restored or cloned reads it again."""
    if not isinstance(data, dict):
        raise ScenarioError(source, "<top>", "a mapping of fields (a scenario as data)", type(data).__name__)
    return _scenario_from_text(json.dumps(data, sort_keys=True), source)


@lru_cache(maxsize=16)
def _scenario_from_text(text: str, source: str) -> Scenario:
    scenario = _scenario(Fields(json.loads(text), source), source)
    return Scenario(**{**scenario.__dict__, "data": json.loads(text)})


def _scenario(f: Fields, path: str) -> Scenario:
    f = _with_base(f)
    spec = check(f, schema.Scenario)     # keys, types and ranges; what follows checks what the schema cannot say
    tables = load_tables(str(CONFIG_DIR / "tables" / f"{spec.tables}.yaml"))
    width, height = spec.board.width, spec.board.height
    terrain = _terrain(f, spec.map, width, height)
    sections, openings, connected, names = _buildings(f, spec.buildings, terrain, width, height)
    board = Board(width, height, float(spec.board.cell_in), tuple(map(tuple, terrain)), tuple(sections),
                  tuple(openings), frozenset(connected))
    units = _units(f, spec.sides, board, tables)
    for i, obj in enumerate(spec.objectives):
        if obj not in names:             # KC-SCN-8: ids of the buildings listed above
            raise f.error(f"objectives[{i}]", "the id of a building", obj)
    variants = _variants(f, spec.variants, board, units)
    options = {key: getattr(spec.options, key) for key in spec.options.__struct_fields__}
    return Scenario(path, spec.name, tables, board, spec.turns, spec.extra_turn_on, tuple(spec.objectives),
                    spec.victory.objective_vp, spec.victory.kill_vp, tuple(s.name for s in spec.sides),
                    tuple(_zone(s, side, board) for s, side in zip(f.items("sides"), spec.sides)),
                    tuple(units), options, variants)


def _terrain(f: Fields, rows: list[str], width: int, height: int) -> list[list[int]]:
    """The map against the board's size (KC-SCN-1); building letters are claimed by sections below. The legend is
    checked here, not by a pattern in the schema, to name it plainly."""
    if len(rows) != height:
        raise f.error("map", f"{height} rows (the board's height)", len(rows))
    terrain = []
    for y, row in enumerate(rows):
        if len(row) != width:
            raise f.error(f"map[{y}]", f"a string of {width} cells (the board's width)", row)
        line = []
        for ch in row:
            if ch in CELL_CHARS:
                line.append(CELL_CHARS[ch])
            elif ch.isupper():
                line.append(-1)      # a building cell: its section must claim it (checked below)
            else:
                raise f.error(f"map[{y}]", "cells of . s r or an upper-case building letter", ch)
        terrain.append(line)
    return terrain


def _buildings(f: Fields, specs: list[schema.Building], terrain, width: int, height: int):
    sections: list[Section] = []
    openings: list[Opening] = []
    connected: set = set()
    names: dict[str, list[int]] = {}
    for b, spec in zip(f.items("buildings"), specs):
        names[spec.id] = []
        local: dict[str, int] = {}
        for s, sspec in zip(b.items("sections"), spec.sections):
            section = _section(s, sspec, len(sections), spec, terrain, width, height, sections)
            first_opening = len(openings)
            openings += _openings(s, sspec.openings, section, first_opening)
            section = Section(**{**section.__dict__, "openings": tuple(range(first_opening, len(openings)))})
            sections.append(section)
            local[section.name] = section.index
            names[spec.id].append(section.index)
        connected |= _connections(b, spec.connected, local, sections)
    for y, row in enumerate(terrain):
        for x, kind in enumerate(row):
            if kind == -1:
                raise f.error(f"map[{y}]", f"cell ({x}, {y}) in a building section listed under buildings", "no section")
    return sections, openings, connected, names


def _section(s: Fields, spec: schema.Section, index: int, building: schema.Building, terrain, width, height,
             sections) -> Section:
    """A section's size depends on its building's material, its cells on the board and the map: not in the schema."""
    corners = [list(c) for c in spec.cells]
    (x0, y0), (x1, y1) = spec.cells
    lo, hi = (BUNKER_MIN, BUNKER_MAX) if building.material == "bunker" else (SECTION_MIN, SECTION_MAX)
    w, d = x1 - x0 + 1, y1 - y0 + 1
    if not (lo <= w <= hi and lo <= d <= hi):   # KB-GRID-1: never more than 8" (4 cells) a side
        raise s.error("cells", f"a section {lo}..{hi} cells a side (KB-GRID-1)", f"{w}x{d}")
    if not (x1 < width and y1 < height):
        raise s.error("cells", f"cells inside the {width}x{height} board", corners)
    section = Section(index, spec.id, building.id, building.material, x0, y0, x1, y1, spec.floors)
    if any(other.name == section.name for other in sections):
        raise s.error("id", "a section id used once", section.name)
    for x, y in section.cells():
        if terrain[y][x] != -1:
            raise s.error("cells", f"cells marked with a building letter on the map; ({x}, {y}) is not", corners)
        terrain[y][x] = BUNKER if building.material == "bunker" else BUILDING
    return section


def _openings(s: Fields, specs: list[schema.Opening], section: Section, first: int) -> list[Opening]:
    """KB-GRID-4: each opening against its section (floors, material, outer walls): not in the schema."""
    out: list[Opening] = []
    for o, spec in zip(s.items("openings", default=[]), specs):
        if spec.floor > section.floors - 1:
            raise o.error("floor", f"an integer in 0..{section.floors - 1} (a floor of section {section.name})", spec.floor)
        if spec.kind == "door" and spec.floor != 0:
            raise o.error("kind", "a door only on floor 0 (KB-GRID-4)", spec.kind)
        if (spec.kind == "slit") != (section.material == "bunker") and spec.kind != "door":
            raise o.error("kind", "slits in bunkers, windows elsewhere (KB-GRID-4)", spec.kind)
        if spec.edge is None and spec.edges is None:
            raise o.error("edges", "a value (the field is missing): edge: [x, y, side] or edges: a list of them")
        key, edges = ("edge", [spec.edge]) if spec.edge is not None else ("edges", spec.edges)
        for i, e in enumerate(edges):
            where = key if key == "edge" else f"edges[{i}]"
            x, y, side = e
            if not section.on_perimeter(x, y, side):   # KB-GRID-4: an opening sits on an outer wall
                raise o.error(where, f"an outer wall edge of section {section.name}", list(e))
            if any(p.floor == spec.floor and p.cell == (x, y) and p.side == side for p in out):
                raise o.error(where, "one opening per wall edge and floor", list(e))
            out.append(Opening(first + len(out), section.index, spec.floor, (x, y), side, spec.kind))
    return out


def _connections(b: Fields, pairs_given: list | None, local: dict, sections: list[Section]) -> set:
    """KB-GRID-2: sections of one building sharing a wall connect unless the scenario says otherwise, by listing
    the pairs that do under `connected` ([] for none); sections of different buildings never connect. The pairs
    name this building's sections and must share a wall: not in the schema."""
    if pairs_given is None:
        ids = sorted(local.values())
        return {(a, c) for a in ids for c in ids if a < c and sections[a].shares_wall(sections[c])}
    pairs = set()
    for i, pair in enumerate(pairs_given):
        if not all(p in local for p in pair):
            raise b.error(f"connected[{i}]", "two section ids of this building", pair)
        a, c = local[pair[0]], local[pair[1]]
        if not sections[a].shares_wall(sections[c]):
            raise b.error(f"connected[{i}]", "sections sharing a wall (KB-GRID-2)", pair)
        pairs.add((min(a, c), max(a, c)))
    return pairs


def _units(f: Fields, sides: list[schema.SideSpec], board: Board, tables: Tables) -> list[UnitSpec]:
    units: list[UnitSpec] = []
    places: dict = {}
    for side, (s, sspec) in enumerate(zip(f.items("sides"), sides)):
        zone = _zone(s, sspec, board)
        for u, uspec in zip(s.items("units"), sspec.units):
            unit = _unit(u, uspec, side, board, tables)
            _check_in_zone(u, unit, board, zone)
            _check_fixed_opening(u, unit, tables)
            where = ("cell", unit.cell) if unit.cell is not None else ("floor", unit.section, unit.floor)
            if where in places:   # KC-MAP-3 / KB-GRID-6: one unit per cell, one per floor
                raise u.error("in" if unit.cell is None else "at", f"a place no other unit holds ({places[where]} is there)",
                              list(where[1:]))
            if any(p.id == unit.id for p in units):
                raise u.error("id", "a unit id used once", unit.id)
            places[where] = unit.id
            units.append(unit)
    return units


def _zone(s: Fields, spec: schema.SideSpec, board: Board) -> tuple[int, int]:
    """KC-SCN-5: a side's set-up zone, the board rows [first, last] (against the board's height: not in the schema)."""
    first, last = spec.zone_rows
    if not first <= last < board.height:
        raise s.error("zone_rows", f"[first, last] rows of the {board.height}-row board, first <= last", spec.zone_rows)
    return first, last


def _check_in_zone(u: Fields, unit: UnitSpec, board: Board, zone: tuple[int, int]) -> None:
    """KC-SCN-5: units set up in their side's zone; KB-ENTER-5: inside, a building at least partly in it."""
    lo, hi = zone
    if unit.cell is not None:
        if not lo <= unit.cell[1] <= hi:
            raise u.error("at", f"a cell in the side's set-up zone, rows {lo}..{hi} (KC-SCN-5)", list(unit.cell))
        return
    building = board.sections[unit.section].building
    if all(s.y1 < lo or s.y0 > hi for s in board.sections if s.building == building):
        raise u.error("in", f"a section of a building at least partly in the side's set-up zone, rows {lo}..{hi} "
                      "(KB-ENTER-5)", board.sections[unit.section].name)


def _check_fixed_opening(u: Fields, unit: UnitSpec, tables: Tables) -> None:
    """KB-FROM-5 / KB-ART-1: a Fixed weapon, and any artillery, inside fires from an opening designated at set-up."""
    if unit.section is None:
        return
    fixed = unit.kind == "artillery" or any("fixed" in tables.weapons[w].rules for m in unit.models for w, _ in m.weapons)
    if fixed and unit.fixed_opening is None:
        raise u.error("fixed_opening", "[x, y, side] of the opening its Fixed weapon or artillery fires from "
                      "(KB-FROM-5, KB-ART-1)", None)


def _unit(u: Fields, spec: schema.Unit, side: int, board: Board, tables: Tables) -> UnitSpec:
    """Where a unit stands (on the board, outside buildings, in a known section), its vehicle class and weapons
    from the tables: not in the schema."""
    models = tuple(_models(u, spec.models, tables))
    cell, section, floor = None, None, 0
    if (spec.at is None) == (spec.in_ is None):
        raise u.error("at", "exactly one of at: [x, y] (outside) or in: {section, floor} (inside)", None)
    if spec.at is not None:
        cell = spec.at
        if not board.in_bounds(cell):
            raise u.error("at", f"a cell [x, y] on the {board.width}x{board.height} board", list(cell))
        if board.terrain[cell[1]][cell[0]] in (BUILDING, BUNKER):
            raise u.error("at", "a cell outside every building (inside: use in:)", list(cell))
    else:
        where = u.sub("in")
        found = board.section_named(spec.in_.section)
        if found is None:
            raise where.error("section", "the id of a building section in this scenario", spec.in_.section)
        if spec.kind == "vehicle":
            raise u.error("in", "vehicles never inside buildings (KV-MOVE-1)", spec.in_.section)
        if spec.in_.floor > found.floors - 1:
            raise where.error("floor", f"an integer in 0..{found.floors - 1} (a floor of section {found.name})",
                              spec.in_.floor)
        section, floor = found.index, spec.in_.floor
    vclass, tracked = None, False
    if spec.kind == "vehicle":
        if spec.vehicle is None:
            raise u.error("vehicle", "a value (the field is missing): a vehicle's {class, tracked}")
        if spec.vehicle.class_ not in tables.vehicle_damage:
            raise u.sub("vehicle").error("class", "one of " + ", ".join(tables.vehicle_damage), spec.vehicle.class_)
        vclass, tracked = spec.vehicle.class_, spec.vehicle.tracked
    fixed = None
    if spec.fixed_opening is not None:
        e = list(spec.fixed_opening)
        fixed = next((o.index for o in board.openings if section is not None and o.section == section
                      and o.floor == floor and list(o.cell) + [o.side] == e), None)
        if fixed is None:
            raise u.error("fixed_opening", "[x, y, side] of an opening on the unit's own floor", e)
    return UnitSpec(spec.id, side, spec.kind, spec.quality, spec.small, models, cell, section, floor, spec.facing,
                    vclass, tracked, fixed)


def _models(u: Fields, specs: list[schema.Model], tables: Tables, key: str = "models"):
    """Each model's weapons, named in the tables (not in the schema); `weapons` (mounted) before `weapon`. `key`:
    the field the list sits under (a position's `loadout`), for the errors."""
    known = tuple(tables.weapons)
    for m, spec in zip(u.items(key), specs):
        if spec.weapons is not None:
            weapons = []
            for i, w in enumerate(spec.weapons):
                if w.weapon not in known:
                    raise m.error(f"weapons[{i}].weapon", "one of " + ", ".join(known), w.weapon)
                weapons.append((w.weapon, w.mount))
        elif spec.weapon is not None:
            if spec.weapon not in known:
                raise m.error("weapon", "one of " + ", ".join(known), spec.weapon)
            weapons = [(spec.weapon, "hand")]
        else:
            weapons = []
        for _ in range(spec.count):
            yield ModelSpec(spec.role, tuple(weapons))


def _variants(f: Fields, spec: schema.Variants, board: Board, units: list[UnitSpec]) -> dict:
    """KC-SCN-11: the units a variant moves exist and their cells lie on the board: not in the schema."""
    out = {}
    given = f.sub("variants", default={})
    for name in given.data:
        v = given.sub(name)
        places = {}
        for uid, cell in getattr(spec, name).items():
            if not any(u.id == uid for u in units):
                raise v.error(uid, "the id of a unit in this scenario", uid)
            if not board.in_bounds(cell):
                raise v.error(uid, "a cell [x, y] on the board", list(cell))
            places[uid] = cell
        out[name] = places
    return out
