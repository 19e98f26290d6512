"""Konflikt '47 tables and scenarios, loaded from `configs/k47/` and validated on load.

A bad file fails in one line naming the file, the dotted field and what was expected (engine.scenario.Fields):
two units on one floor, an opening on a wall that does not exist, a section larger than the catalog allows,
a unit in an unknown building, among others.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from envs.engine.scenario import Fields
from envs.paths import CONFIG_ROOT

from .board import BUILDING, BUNKER, CELL_CHARS, MATERIALS, OPENING_KINDS, SIDES, Board, Opening, Section

CONFIG_DIR = CONFIG_ROOT / "k47"      # RUBBLE_CONFIGS points every ruleset at another configs/ tree
QUALITIES = ("inexperienced", "regular", "veteran")
UNIT_KINDS = ("infantry", "artillery", "vehicle")
ROLES = ("rifleman", "nco", "crew", "carrier")
WEAPON_RULES = ("assault", "team", "fixed", "shaped", "flamethrower", "indirect")
HE_VALUES = ("D2", "D3", "D6", "2D6", "3D6")
PIN_DICE = ("0", "D2", "D3", "D6")
MOUNTS = ("turret", "hull")
FACINGS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")   # KV-MOVE-2
OPTIONS = ("no_building_entry", "hidden_occupants", "pinned_out")
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

    @property
    def small_arms(self) -> bool:
        return self.pen is None and self.he is None and "flamethrower" not in self.rules


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


# Tables ----------------------------------------------------------------------------------------------
@lru_cache(maxsize=8)
def load_tables(path: str) -> Tables:
    f = Fields.load(path)
    f.unknown({"quality", "to_hit", "weapons", "he", "vehicle_damage", "fubar", "movement", "ram",
               "floor_roll_explodes_on"})
    quality = {}
    for name in QUALITIES:
        q = f.sub("quality").sub(name)
        quality[name] = (q.int("morale", min=2, max=12), q.int("damage", min=2, max=6))
    th = f.sub("to_hit")
    to_hit = {key: th.int(key) for key in th.data}
    weapons = {name: _weapon(f.sub("weapons").sub(name), name) for name in f.sub("weapons").data}
    he = {}
    for value in HE_VALUES:
        h = f.sub("he").sub(value)
        he[value] = (h.int("pen", min=0), h.choice("pins", PIN_DICE))
    vehicle_damage = {k: f.sub("vehicle_damage").int(k, min=2, max=12) for k in f.sub("vehicle_damage").data}
    fubar = tuple((e.int("max", min=1, max=6), e.choice("result", ("friendly_fire", "panic")))
                  for e in f.items("fubar", min_len=1))
    if fubar[-1][0] != 6:
        raise f.error("fubar", "bands ending at 6", [m for m, _ in fubar])
    mv = f.sub("movement")
    movement = {k: (mv.sub(k).int("advance", min=1), mv.sub(k).int("run", min=1)) for k in mv.data}
    ram = f.sub("ram")
    ram_vehicle = {k: ram.sub("vehicle").int(k, min=0) for k in ram.sub("vehicle").data}
    ram_building = {k: ram.sub("building").int(k, min=1) for k in ram.sub("building").data}
    return Tables(quality, to_hit, weapons, he, vehicle_damage, fubar, movement, ram_vehicle, ram_building,
                  f.int("floor_roll_explodes_on", min=1, max=6))


def _weapon(w: Fields, name: str) -> Weapon:
    w.unknown({"range", "min_range", "shots", "pen", "he", "rules"})
    pen = w.raw("pen", None)
    if pen is not None:
        pen = w.int("pen", min=0)
    he = w.choice("he", HE_VALUES + (None,), default=None)
    rules = w.list("rules", default=[])
    for i, rule in enumerate(rules):
        if rule not in WEAPON_RULES:
            raise w.error(f"rules[{i}]", "one of " + ", ".join(WEAPON_RULES), rule)
    return Weapon(name, w.number("range", min=1), w.number("min_range", min=0, default=0), w.int("shots", min=1),
                  pen, he, frozenset(rules))


# Scenarios -------------------------------------------------------------------------------------------
def scenario_path(name: str | None) -> str:
    """The YAML file of scenario `name` (default: Village crossroads)."""
    return str(CONFIG_DIR / "scenarios" / f"{name or 'village_crossroads'}.yaml")


def _with_base(f: Fields) -> Fields:
    """KC-SCN-12: a scenario `based_on` another is that one with its own fields on top (its `options` merged
    name by name), so a variant scenario names only what it changes."""
    if not f.has("based_on"):
        return f
    base_name = f.str("based_on")
    if not Path(scenario_path(base_name)).is_file():
        raise f.error("based_on", "the name of a scenario in configs/k47/scenarios", base_name)
    base = Fields.load(scenario_path(base_name))
    if base.has("based_on"):
        raise f.error("based_on", "a scenario that is not itself based on another", base_name)
    data = {**base.data, **{k: v for k, v in f.data.items() if k != "based_on"}}
    own = f.data.get("options", {})
    if isinstance(own, dict):           # anything else fails below, naming the field
        data["options"] = {**(base.data.get("options") or {}), **own}
    return Fields(data, f.file)


@lru_cache(maxsize=16)
def load_scenario(path: str) -> Scenario:
    f = _with_base(Fields.load(path))
    f.unknown({"name", "tables", "board", "turns", "extra_turn_on", "map", "buildings", "objectives", "victory",
               "sides", "options", "variants"})
    tables = load_tables(str(CONFIG_DIR / "tables" / f"{f.str('tables')}.yaml"))
    b = f.sub("board")
    width, height = b.int("width", min=4, max=48), b.int("height", min=4, max=48)
    terrain = _terrain(f, width, height)
    sections, openings, connected, names = _buildings(f, terrain, width, height)
    board = Board(width, height, b.number("cell_in", min=0.5), tuple(map(tuple, terrain)), tuple(sections),
                  tuple(openings), frozenset(connected))
    units = _units(f, board, tables, names)
    options = {}
    o = f.sub("options")
    o.unknown(set(OPTIONS))
    for key in OPTIONS:
        options[key] = o.bool(key)
    objectives = tuple(f.list("objectives"))
    for i, obj in enumerate(objectives):
        if obj not in names:
            raise f.error(f"objectives[{i}]", "the id of a building", obj)
    variants = _variants(f, board, units)
    v = f.sub("victory")
    return Scenario(path, f.str("name"), tables, board, f.int("turns", min=1), f.int("extra_turn_on", min=1, max=7),
                    objectives, v.int("objective_vp", min=0), v.int("kill_vp", min=0),
                    tuple(s.str("name") for s in f.items("sides", min_len=2)),
                    tuple(tuple(s.list("zone_rows")) for s in f.items("sides")), tuple(units), options, variants)


def _terrain(f: Fields, width: int, height: int) -> list[list[int]]:
    rows = f.list("map", min_len=height)
    if len(rows) != height:
        raise f.error("map", f"{height} rows", len(rows))
    terrain = []
    for y, row in enumerate(rows):
        if not isinstance(row, str) or len(row) != width:
            raise f.error(f"map[{y}]", f"a string of {width} cells", row)
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


def _buildings(f: Fields, terrain, width: int, height: int):
    sections: list[Section] = []
    openings: list[Opening] = []
    connected: set = set()
    names: dict[str, list[int]] = {}
    for b in f.items("buildings"):
        b.unknown({"id", "material", "sections", "connected"})
        bid, material = b.str("id"), b.choice("material", MATERIALS)
        names[bid] = []
        local: dict[str, int] = {}
        for s in b.items("sections", min_len=1):
            section = _section(s, len(sections), bid, material, terrain, width, height, sections)
            first_opening = len(openings)
            openings += _openings(s, section, first_opening)
            section = Section(**{**section.__dict__, "openings": tuple(range(first_opening, len(openings)))})
            sections.append(section)
            local[section.name] = section.index
            names[bid].append(section.index)
        connected |= _connections(b, local, sections)
    for y, row in enumerate(terrain):
        for x, kind in enumerate(row):
            if kind == -1:
                raise f.error(f"map[{y}]", f"cell ({x}, {y}) in a building section listed under buildings", "no section")
    return sections, openings, connected, names


def _section(s: Fields, index: int, bid: str, material: str, terrain, width, height, sections) -> Section:
    s.unknown({"id", "cells", "floors", "openings"})
    corners = s.list("cells", min_len=2)
    if len(corners) != 2 or not all(_is_cell(c) for c in corners):
        raise s.error("cells", "two corner cells [[x0, y0], [x1, y1]]", corners)
    (x0, y0), (x1, y1) = corners
    lo, hi = (BUNKER_MIN, BUNKER_MAX) if material == "bunker" else (SECTION_MIN, SECTION_MAX)
    w, d = x1 - x0 + 1, y1 - y0 + 1
    if not (lo <= w <= hi and lo <= d <= hi):   # KB-GRID-1: never more than 8" (4 cells) a side
        raise s.error("cells", f"a section {lo}..{hi} cells a side (KB-GRID-1)", f"{w}x{d}")
    if not (0 <= x0 and x1 < width and 0 <= y0 and y1 < height):
        raise s.error("cells", f"cells inside the {width}x{height} board", corners)
    section = Section(index, s.str("id"), bid, material, x0, y0, x1, y1, s.int("floors", min=1, max=6))
    if any(other.name == section.name for other in sections):
        raise s.error("id", "a section id used once", section.name)
    for x, y in section.cells():
        if terrain[y][x] != -1:
            raise s.error("cells", f"cells marked with a building letter on the map; ({x}, {y}) is not", corners)
        terrain[y][x] = BUNKER if material == "bunker" else BUILDING
    return section


def _is_cell(c) -> bool:
    return isinstance(c, list) and len(c) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in c)


def _openings(s: Fields, section: Section, first: int) -> list[Opening]:
    out: list[Opening] = []
    for o in s.items("openings", default=[]):
        o.unknown({"floor", "kind", "edge", "edges"})
        floor = o.int("floor", min=0, max=section.floors - 1)
        kind = o.choice("kind", OPENING_KINDS)
        if kind == "door" and floor != 0:
            raise o.error("kind", "a door only on floor 0 (KB-GRID-4)", kind)
        if (kind == "slit") != (section.material == "bunker") and kind != "door":
            raise o.error("kind", "slits in bunkers, windows elsewhere (KB-GRID-4)", kind)
        edges = [o.raw("edge")] if o.has("edge") else o.list("edges", min_len=1)
        key = "edge" if o.has("edge") else "edges"
        for i, e in enumerate(edges):
            where = key if key == "edge" else f"edges[{i}]"
            if not (isinstance(e, list) and len(e) == 3 and _is_cell(e[:2]) and e[2] in SIDES):
                raise o.error(where, "[x, y, side] with side N, E, S or W", e)
            x, y, side = e
            if not section.on_perimeter(x, y, side):   # KB-GRID-4: an opening sits on an outer wall
                raise o.error(where, f"an outer wall edge of section {section.name}", e)
            if any(p.floor == floor and p.cell == (x, y) and p.side == side for p in out):
                raise o.error(where, "one opening per wall edge and floor", e)
            out.append(Opening(first + len(out), section.index, floor, (x, y), side, kind))
    return out


def _connections(b: Fields, local: dict, sections: list[Section]) -> set:
    """KB-GRID-2: sections of one building sharing a wall connect unless the scenario says otherwise, by listing
    the pairs that do under `connected` ([] for none); sections of different buildings never connect."""
    if not b.has("connected"):
        ids = sorted(local.values())
        return {(a, c) for a in ids for c in ids if a < c and sections[a].shares_wall(sections[c])}
    pairs = set()
    for i, pair in enumerate(b.list("connected", default=[])):
        if not (isinstance(pair, list) and len(pair) == 2 and all(p in local for p in pair)):
            raise b.error(f"connected[{i}]", "two section ids of this building", pair)
        a, c = local[pair[0]], local[pair[1]]
        if not sections[a].shares_wall(sections[c]):
            raise b.error(f"connected[{i}]", "sections sharing a wall (KB-GRID-2)", pair)
        pairs.add((min(a, c), max(a, c)))
    return pairs


def _units(f: Fields, board: Board, tables: Tables, buildings: dict) -> list[UnitSpec]:
    units: list[UnitSpec] = []
    places: dict = {}
    for side, s in enumerate(f.items("sides", min_len=2)):
        s.unknown({"name", "zone_rows", "units"})
        zone = _zone(s, board)
        for u in s.items("units", min_len=1):
            unit = _unit(u, side, board, tables)
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


def _zone(s: Fields, board: Board) -> tuple[int, int]:
    """KC-SCN-5: a side's set-up zone, the board rows [first, last]."""
    rows = s.raw("zone_rows")
    if not (isinstance(rows, list) and len(rows) == 2 and all(isinstance(r, int) for r in rows)
            and 0 <= rows[0] <= rows[1] < board.height):
        raise s.error("zone_rows", f"[first, last] rows of the {board.height}-row board, first <= last", rows)
    return rows[0], rows[1]


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


def _unit(u: Fields, side: int, board: Board, tables: Tables) -> UnitSpec:
    u.unknown({"id", "kind", "quality", "small", "models", "at", "in", "facing", "vehicle", "fixed_opening"})
    kind = u.choice("kind", UNIT_KINDS)
    models = tuple(_models(u, tables))
    cell, section, floor = None, None, 0
    if u.has("at") == u.has("in"):
        raise u.error("at", "exactly one of at: [x, y] (outside) or in: {section, floor} (inside)", None)
    if u.has("at"):
        cell = u.raw("at")
        if not _is_cell(cell) or not board.in_bounds(tuple(cell)):
            raise u.error("at", f"a cell [x, y] on the {board.width}x{board.height} board", cell)
        cell = tuple(cell)
        if board.terrain[cell[1]][cell[0]] in (BUILDING, BUNKER):
            raise u.error("at", "a cell outside every building (inside: use in:)", list(cell))
    else:
        where = u.sub("in")
        found = board.section_named(where.str("section"))
        if found is None:
            raise where.error("section", "the id of a building section in this scenario", where.raw("section"))
        if kind == "vehicle":
            raise u.error("in", "vehicles never inside buildings (KV-MOVE-1)", where.raw("section"))
        section, floor = found.index, where.int("floor", min=0, max=found.floors - 1)
    vclass, tracked = None, False
    if kind == "vehicle":
        v = u.sub("vehicle")
        vclass = v.choice("class", tuple(tables.vehicle_damage))
        tracked = v.bool("tracked", default=True)
    fixed = None
    if u.has("fixed_opening"):
        e = u.raw("fixed_opening")
        fixed = next((o.index for o in board.openings if section is not None and o.section == section
                      and o.floor == floor and isinstance(e, list) and list(o.cell) + [o.side] == e), None)
        if fixed is None:
            raise u.error("fixed_opening", "[x, y, side] of an opening on the unit's own floor", e)
    return UnitSpec(u.str("id"), side, kind, u.choice("quality", QUALITIES), u.bool("small", default=False), models,
                    cell, section, floor, u.choice("facing", FACINGS, default="N"), vclass, tracked, fixed)


def _models(u: Fields, tables: Tables):
    for m in u.items("models", min_len=1):
        m.unknown({"weapon", "weapons", "role", "count"})
        if m.has("weapons"):
            weapons = []
            for w in m.items("weapons", min_len=1):
                weapons.append((w.choice("weapon", tuple(tables.weapons)), w.choice("mount", MOUNTS)))
        elif m.has("weapon"):
            weapons = [(m.choice("weapon", tuple(tables.weapons)), "hand")]
        else:
            weapons = []
        role = m.choice("role", ROLES, default="rifleman")
        for _ in range(m.int("count", min=1, default=1)):
            yield ModelSpec(role, tuple(weapons))


def _variants(f: Fields, board: Board, units: list[UnitSpec]) -> dict:
    out = {}
    v = f.sub("variants", default={})
    for name in v.data:
        if name not in OPTIONS:
            raise v.error(name, "a variant named in options", name)
        places = {}
        for uid, cell in v.sub(name).data.items():
            if not any(u.id == uid for u in units):
                raise v.sub(name).error(uid, "the id of a unit in this scenario", uid)
            if not _is_cell(cell) or not board.in_bounds(tuple(cell)):
                raise v.sub(name).error(uid, "a cell [x, y] on the board", cell)
            places[uid] = tuple(cell)
        out[name] = places
    return out
