"""Cityfight tables and scenarios, loaded from `configs/cityfight/` into frozen dataclasses and validated.

A bad file fails on load naming the file, the field and what was expected (engine.scenario.Fields). Keys, types and
ranges are the schema's (envs/cityfight/schema.py); the loader checks what a schema cannot say: squares on the map,
element rows and weapons from the tables, unique ids, every 2D6 total in one cell of a grid.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from envs.engine.grid import parse_megasquare_id, parse_square_id
from envs.engine.scenario import Fields, ScenarioError, yaml_files
from envs.engine.schema import check
from envs.paths import CONFIG_ROOT

from . import schema

CONFIG_DIR = CONFIG_ROOT / "cityfight"
MAX_W = MAX_H = 18                 # the codec's fixed map maxima (squares)
MAX_MSQ = (MAX_W // 3) * (MAX_H // 3)
MAX_ELEMENTS = 16                  # element slots per side
COVER_NAMES = ("open", "cluttered", "wood", "wooden_metal", "brick", "concrete")
OPEN, CLUTTERED, WOOD, WOODEN_METAL, BRICK, CONCRETE = range(6)
# CF-SCN-1 legend: map character -> (cover class, building, doorway)
LEGEND = {".": (OPEN, False, False), ":": (CLUTTERED, False, False), "T": (WOOD, False, False),
          "W": (WOODEN_METAL, True, False), "w": (WOODEN_METAL, True, True),
          "B": (BRICK, True, False), "b": (BRICK, True, True), "C": (CONCRETE, True, False), "c": (CONCRETE, True, True)}
CATEGORIES = ("rifles", "rifles_mg", "mg", "sniper")
ANNOUNCED = CATEGORIES + ("UGL", "RPG", "RCL", "LAW")       # CF-FIRE-18: the categories a fire announces
OOA_RULES = ("low_double", "any_double", "none")
TIMES, WEATHERS = ("day", "night"), ("clear", "rain", "fog", "snow")
# Game options (CF-VAR-1/2, CF-SRCH-7, CF-AP-7, CF-COND-1); weather None = the scenario's conditions.
OPTION_DEFAULTS = {"night": False, "smoke": False, "allow_under_announce": False, "force_level": "section",
                   "weather": None}
FORCE_LEVELS = ("section", "company")


@dataclass(frozen=True)
class ElementRow:
    """A row of CF-TAB-1."""

    row: str
    name: str
    ca: int
    fs: tuple[int, int, int]
    max_range: int
    mg: bool
    category: str
    dice: int = 2
    sniper: bool = False
    combat: bool = True


@dataclass(frozen=True)
class HEWeapon:
    """A row of CF-TAB-3."""

    name: str
    fs: int
    min_range: int
    max_range: int
    grid: str
    ooa: str
    shots: int
    announces_origin: bool
    breaches: bool


@dataclass(frozen=True)
class Tables:
    path: str
    elements: dict            # row -> ElementRow
    range_bands: tuple[int, int]
    cover: tuple              # class -> (S, K)
    damage_steps: tuple       # cover classes, best first (CF-BLD-7)
    damage_thresholds: tuple  # ((points, cover_down, rubble, blocks_doors), ...) (CF-BLD-3..5)
    he_weapons: dict          # name -> HEWeapon
    grids: dict               # name -> {total: (row, column)}, row 0 over / 1 level / 2 short, column 0 left / 1 line / 2 right
    leader_replacement: tuple
    smoke_decay: tuple
    default_sr: tuple         # ((max non-open, sr), ...)
    search: dict
    recovery: dict
    ap: dict
    leader_killed_on: int


@dataclass(frozen=True)
class ElementSpec:
    id: str
    row: str
    weapons: tuple[str, ...]
    squares: tuple[tuple[int, int], ...]   # one square, or the hidden-setup alternatives (CF-SCN-6)


@dataclass(frozen=True)
class SectionSpec:
    id: str
    lr: int
    elements: tuple[ElementSpec, ...]


@dataclass(frozen=True)
class Scenario:
    path: str
    name: str
    tables: Tables
    turns: int
    width: int
    height: int
    terrain: tuple            # per square (flat y*W+x): map character
    search_ratings: tuple     # per MSq (flat by*(W/3)+bx)
    prepared: frozenset
    objectives: tuple
    chokepoints: tuple
    roofs: frozenset
    conditions: dict
    initiative: int
    ammo_rating: tuple
    recovery_bonus: tuple
    victory: dict
    options: dict
    variants: dict
    sections: tuple           # per side: tuple of SectionSpec


def scenario_path(name: str | None) -> str:
    """The file of a scenario name (default The Office Block), or a path given as is."""
    name = name or "office_block"
    if name.endswith(".yaml"):
        return name
    return str(CONFIG_DIR / "scenarios" / f"{name}.yaml")


def _square(f: Fields, key: str, text, width: int, height: int) -> tuple[int, int]:
    try:
        x, y = parse_square_id(str(text))
    except ValueError:
        raise f.error(key, "a square ID such as 'k6'", text) from None
    if not (0 <= x < width and 0 <= y < height):
        raise f.error(key, f"a square on the {width}x{height} map", text)
    return x, y


def _grid(f: Fields, name: str, grid: schema.Grid) -> dict:
    """CF-HE-3: each 2D6 total in exactly one cell (totals across the cells: not in the schema)."""
    g = f.sub(name)
    cells = {}
    for r, row in enumerate(("over", "level", "short")):
        for c, totals in enumerate(getattr(grid, row)):
            for t in totals:
                if t in cells:
                    raise g.error(row, "each total 2..12 in one cell only", t)
                cells[t] = (r, c)
    if sorted(cells) != list(range(2, 13)):
        raise f.error(name, "every total 2..12 in some cell", sorted(cells))
    return cells


@lru_cache(maxsize=8)
def load_tables(path: str) -> Tables:
    """The rules tables of one file (CF-TAB-1..7)."""
    f = Fields.load(path)
    t = check(f, schema.Tables)   # keys, types and ranges (envs/cityfight/schema.py); what follows reads the checked file
    elements = {row: ElementRow(row, e.name, e.ca, tuple(e.fs), e.max_range, e.mg, e.category, e.dice, e.sniper, e.combat)
                for row, e in t.elements.items()}
    if not t.range_bands[0] < t.range_bands[1]:     # one band's end against the other's: not in the schema
        raise f.error("range_bands", "two increasing integers (ends of the bands 1-2 and 3-10)", t.range_bands)
    if [c.name for c in t.cover] != list(COVER_NAMES):   # the rows' order is the cover classes' (CF-TAB-2)
        raise f.error("cover", "rows named " + ", ".join(COVER_NAMES) + " in that order")
    he = {}
    for name, w in t.he_weapons.items():
        if w.grid not in t.grids:                   # a grid of this file: not in the schema
            raise f.sub("he_weapons").sub(name).error("grid", "one of " + ", ".join(t.grids), w.grid)
        he[name] = HEWeapon(name, w.fs, w.min_range, w.max_range, w.grid, w.ooa, w.shots, w.announces_origin, w.breaches)
    if sorted(k for step in t.smoke_decay for k in step) != list(range(1, 10)):   # each keypad number once (CF-VAR-2)
        raise f.error("smoke_decay", "lists of keypad numbers 1..9, each once", t.smoke_decay)
    plain = lambda key: dict(f.data[key])  # noqa: E731  (search, recovery, ap: read by name by the rules)
    return Tables(
        path=path, elements=elements, range_bands=tuple(t.range_bands), cover=tuple((c.s, c.k) for c in t.cover),
        damage_steps=tuple(COVER_NAMES.index(s) for s in t.damage_steps),
        damage_thresholds=tuple((d.points, d.cover_down, d.rubble, d.blocks_doors) for d in t.damage_thresholds),
        he_weapons=he, grids={name: _grid(f.sub("grids"), name, g) for name, g in t.grids.items()},
        leader_replacement=tuple(t.leader_replacement), smoke_decay=tuple(tuple(s) for s in t.smoke_decay),
        default_sr=tuple((d.max, d.sr) for d in t.default_sr),
        search=plain("search"), recovery=plain("recovery"), ap=plain("ap"), leader_killed_on=t.leader_killed_on,
    )


def _map(f: Fields) -> tuple[int, int, tuple]:
    rows = [r for r in f.raw("map").splitlines() if r.strip()]     # a string: the schema; its rows: here
    width = len(rows[0]) if rows else 0
    if not rows or any(len(r) != width for r in rows):
        raise f.error("map", "rows of equal length")
    height = len(rows)
    if width % 3 or height % 3 or width > MAX_W or height > MAX_H:
        raise f.error("map", f"a map whose sides are multiples of 3 (CF-GRID-1), at most {MAX_W}x{MAX_H}", f"{width}x{height}")
    for y, row in enumerate(rows):
        for ch in row:
            if ch not in LEGEND:
                raise f.error("map", "legend characters " + "".join(LEGEND), f"{ch!r} in row {y + 1}")
    return width, height, tuple(ch for row in rows for ch in row)


def default_search_ratings(tables: Tables, terrain: tuple, width: int, height: int) -> list[int]:
    """CF-TAB-7: each MSq's SR from its number of non-Open squares."""
    ratings = []
    for by in range(height // 3):
        for bx in range(width // 3):
            count = sum(LEGEND[terrain[(by * 3 + j) * width + bx * 3 + i]][0] != OPEN for j in range(3) for i in range(3))
            ratings.append(next(sr for top, sr in tables.default_sr if count <= top))
    return ratings


def _search_ratings(f: Fields, ratings: list | None, tables: Tables, terrain, width: int, height: int) -> tuple:
    """One SR 2..12 per MSq (the schema); here: one row per MSq row of this map, one per MSq column."""
    if ratings is None:      # CF-TER-5: a scenario that gives no SR takes the CF-TAB-7 default for every MSq
        return tuple(default_search_ratings(tables, terrain, width, height))
    if len(ratings) != height // 3 or any(len(r) != width // 3 for r in ratings):
        raise f.error("search_ratings", f"{height // 3} rows of {width // 3} integers 2..12", ratings)
    return tuple(v for r in ratings for v in r)


def _element(f: Fields, spec: schema.Element, tables: Tables, width: int, height: int) -> ElementSpec:
    """Weapons and rows from the tables, squares on the map, one of square or squares: not in the schema."""
    for w in spec.weapons:
        if w not in tables.he_weapons:
            raise f.error("weapons", "HE weapons from: " + ", ".join(tables.he_weapons), w)
    if (spec.square is None) == (spec.squares is None):
        raise f.error("square", "either `square` or `squares` (hidden setup alternatives)")
    texts = [spec.square] if spec.square is not None else spec.squares
    squares = tuple(_square(f, "squares", t, width, height) for t in texts)
    if spec.row not in tables.elements:
        raise f.error("row", "one of " + ", ".join(tables.elements), spec.row)
    return ElementSpec(spec.id, spec.row, tuple(spec.weapons), squares)


def _sections(f: Fields, sides: list[schema.SideSpec], tables: Tables, width: int, height: int) -> tuple:
    """Element ids used once in the scenario, at most MAX_ELEMENTS a side over its sections: not in the schema."""
    result, ids = [], set()
    for s, side in zip(f.items("sides"), sides):
        sections = []
        for sec, spec in zip(s.items("sections"), side.sections):
            elements = tuple(_element(e, es, tables, width, height) for e, es in zip(sec.items("elements"), spec.elements))
            sections.append(SectionSpec(spec.id, spec.lr, elements))
            for e in elements:
                if e.id in ids:
                    raise sec.error("elements", "unique element ids", e.id)
                ids.add(e.id)
        if sum(len(sec.elements) for sec in sections) > MAX_ELEMENTS:
            raise s.error("sections", f"at most {MAX_ELEMENTS} elements per side")
        result.append(tuple(sections))
    return tuple(result)


def _msqs(f: Fields, key: str, width: int, height: int) -> tuple:
    found = []
    for text in f.list(key, default=[]):
        try:
            bx, by = parse_megasquare_id(str(text))
        except ValueError:
            raise f.error(key, "MSq IDs such as 'D3'", text) from None
        if not (0 <= bx < width // 3 and 0 <= by < height // 3):
            raise f.error(key, "MSqs on the map", text)
        found.append(by * (width // 3) + bx)
    return tuple(found)


def _squares(f: Fields, key: str, width: int, height: int) -> tuple:
    return tuple(_square(f, key, t, width, height) for t in f.list(key, default=[]))


#: Scenarios built in code (tests, tools), by their `path` key, so saved games that name them restore.
BUILT: dict[str, Scenario] = {}


def register_built(spec: Scenario) -> Scenario:
    """Keep a scenario built in code under a unique `path` key (e.g. "<built:3>")."""
    spec = replace(spec, path=f"<built:{len(BUILT)}>")
    BUILT[spec.path] = spec
    return spec


def load_scenario(path: str) -> Scenario:
    """A validated scenario (CF-SCN-1..8) with its tables; a built one by its key."""
    if path in BUILT:
        return BUILT[path]
    return _load_scenario_file(path)


@lru_cache(maxsize=16)
def _load_scenario_file(path: str) -> Scenario:
    return _scenario(Fields.load(path), path)


def scenario_from_data(data: dict, where: str = "<scenario data>") -> Scenario:
    """A scenario given as data (the mapping a scenario file holds), validated as a file is (errors name `where`),
    kept as a built scenario so that saved games of this process find it again."""
    return register_built(_scenario(Fields(data, where), where))


def _scenario(f: Fields, path: str) -> Scenario:
    """The validated scenario of the fields `f` read from `path` (a file, or data)."""
    spec = check(f, schema.Scenario)  # keys, types and ranges (envs/cityfight/schema.py); what follows reads the checked file
    tables = load_tables(str(CONFIG_DIR / "tables" / f"{spec.tables}.yaml"))
    width, height, terrain = _map(f)
    objectives = _squares(f, "objectives", width, height)
    sections = _sections(f, spec.sides, tables, width, height)
    known_ids = {e.id for side in sections for sec in side for e in sec.elements}
    smoke = f.sub("variants", default={}).sub("smoke", default={})
    for eid in spec.variants.smoke.smoke_weapons:
        if eid not in known_ids:
            raise smoke.error("smoke_weapons", "ids of elements in the scenario", eid)
    v = f.sub("victory", default={})
    at_end = spec.victory.at_end if v.has("at_end") else min(2, len(objectives))   # CF-SCN-7: 2, or every objective
    if at_end > len(objectives):         # against the objectives listed: not in the schema
        raise v.error("at_end", f"an integer in 0..{len(objectives)} (at most the objectives)", at_end)
    options = {key: getattr(spec.options, key) for key in spec.options.__struct_fields__}
    night = f.sub("variants", default={}).sub("night", default={})
    conditions = f.sub("conditions", default={})
    return Scenario(
        path=path, name=spec.name, tables=tables, turns=spec.turns, width=width, height=height, terrain=terrain,
        search_ratings=_search_ratings(f, spec.search_ratings, tables, terrain, width, height),
        prepared=frozenset(_squares(f, "prepared", width, height)), objectives=objectives,
        chokepoints=_squares(f, "chokepoints", width, height), roofs=frozenset(_squares(f, "roofs", width, height)),
        conditions={"time": spec.conditions.time, "weather": spec.conditions.weather,
                    "illuminated": _msqs(conditions, "illuminated", width, height)},
        initiative=("attacker", "defender").index(spec.initiative),
        ammo_rating=tuple(spec.ammo_rating), recovery_bonus=tuple(spec.recovery_bonus),
        victory={"kind": spec.victory.kind, "all_at_once": spec.victory.all_at_once, "at_end": at_end},
        options=options,
        variants={"night": {"time": spec.variants.night.time, "illuminated": _msqs(night, "illuminated", width, height)},
                  "smoke": {"smoke_weapons": tuple(spec.variants.smoke.smoke_weapons)}},
        sections=sections,
    )


def scenario_names() -> dict[str, str]:
    return yaml_files(CONFIG_DIR / "scenarios")


def table_files() -> dict[str, str]:
    """Every tables file under configs/cityfight/tables/, by name."""
    return yaml_files(CONFIG_DIR / "tables")


__all__ = ["ScenarioError", "load_scenario", "load_tables", "scenario_path", "Path"]
