"""Cityfight tables and scenarios, loaded from `configs/cityfight/` into frozen dataclasses and validated.

A bad file fails on load naming the file, the field and what was expected (engine.scenario.Fields).
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


def _element_row(f: Fields, row: str) -> ElementRow:
    e = f.sub(row)
    fs = e.list("fs", min_len=3)
    if len(fs) != 3 or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in fs):
        raise e.error("fs", "three non-negative integers (range bands 1-2, 3-10, 11-max)", fs)
    return ElementRow(row, e.str("name"), e.int("ca", min=0), tuple(fs), e.int("max_range", min=1), e.bool("mg"),
                      e.choice("category", CATEGORIES), e.int("dice", min=1, max=2, default=2),
                      e.bool("sniper", default=False), e.bool("combat", default=True))


def _grid(f: Fields, name: str) -> dict:
    g = f.sub(name)
    cells = {}
    for r, row in enumerate(("over", "level", "short")):
        columns = g.list(row, min_len=3)
        for c, totals in enumerate(columns):
            if not isinstance(totals, list) or not all(isinstance(t, int) and 2 <= t <= 12 for t in totals):
                raise g.error(row, "three lists of 2D6 totals (left, line, right)", columns)
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
    check(f, schema.Tables)       # keys, types and ranges (envs/cityfight/schema.py)
    elements = {row: _element_row(f.sub("elements"), row) for row in f.sub("elements").data}
    bands = f.list("range_bands", min_len=2)
    if len(bands) != 2 or not all(isinstance(b, int) for b in bands) or not 1 <= bands[0] < bands[1]:
        raise f.error("range_bands", "two increasing integers (ends of the bands 1-2 and 3-10)", bands)
    cover_items = f.items("cover", min_len=len(COVER_NAMES))
    if [c.str("name") for c in cover_items] != list(COVER_NAMES):
        raise f.error("cover", "rows named " + ", ".join(COVER_NAMES) + " in that order")
    cover = tuple((c.int("s", min=2), c.int("k", min=2)) for c in cover_items)
    steps = f.list("damage_steps")
    if any(s not in COVER_NAMES for s in steps):
        raise f.error("damage_steps", "cover names from: " + ", ".join(COVER_NAMES), steps)
    he = {}
    for name in f.sub("he_weapons").data:
        w = f.sub("he_weapons").sub(name)
        he[name] = HEWeapon(name, w.int("fs", min=0), w.int("min_range", min=0), w.int("max_range", min=1),
                            w.choice("grid", tuple(f.sub("grids").data)), w.choice("ooa", OOA_RULES), w.int("shots", min=0),
                            w.bool("announces_origin"), w.bool("breaches"))
    replacement = f.list("leader_replacement", min_len=6)
    if len(replacement) != 6 or not all(isinstance(v, int) for v in replacement):
        raise f.error("leader_replacement", "six integers (LR change for D6 1..6)", replacement)
    decay = f.list("smoke_decay", min_len=1)
    if sorted(k for step in decay for k in step) != list(range(1, 10)):
        raise f.error("smoke_decay", "lists of keypad numbers 1..9, each once", decay)
    sub = lambda key: {k: v for k, v in f.sub(key).data.items()}  # noqa: E731
    return Tables(
        path=path, elements=elements, range_bands=tuple(bands), cover=cover,
        damage_steps=tuple(COVER_NAMES.index(s) for s in steps),
        damage_thresholds=tuple((d.int("points", min=1), d.int("cover_down", min=0), d.int("rubble", min=0),
                                 d.bool("blocks_doors", default=False)) for d in f.items("damage_thresholds")),
        he_weapons=he, grids={name: _grid(f.sub("grids"), name) for name in f.sub("grids").data},
        leader_replacement=tuple(replacement), smoke_decay=tuple(tuple(s) for s in decay),
        default_sr=tuple((d.int("max", min=0, max=9), d.int("sr", min=2, max=12)) for d in f.items("default_sr")),
        search=sub("search"), recovery=sub("recovery"), ap=sub("ap"),
        leader_killed_on=f.int("leader_killed_on", min=0, max=6),
    )


def _map(f: Fields) -> tuple[int, int, tuple]:
    rows = [r for r in f.str("map").splitlines() if r.strip()]
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


def _search_ratings(f: Fields, tables: Tables, terrain, width: int, height: int) -> tuple:
    if not f.has("search_ratings"):
        return tuple(default_search_ratings(tables, terrain, width, height))   # CF-TER-5
    rows = f.list("search_ratings")
    if len(rows) != height // 3 or any(not isinstance(r, list) or len(r) != width // 3 for r in rows) \
            or not all(isinstance(v, int) and 2 <= v <= 12 for r in rows for v in r):
        raise f.error("search_ratings", f"{height // 3} rows of {width // 3} integers 2..12", rows)
    return tuple(v for r in rows for v in r)


def _element(f: Fields, tables: Tables, width: int, height: int) -> ElementSpec:
    weapons = tuple(f.list("weapons", default=[]))
    for w in weapons:
        if w not in tables.he_weapons:
            raise f.error("weapons", "HE weapons from: " + ", ".join(tables.he_weapons), w)
    if len(weapons) > 1:
        raise f.error("weapons", "at most one special weapon per element", weapons)
    if f.has("square") == f.has("squares"):
        raise f.error("square", "either `square` or `squares` (hidden setup alternatives)")
    texts = [f.raw("square")] if f.has("square") else f.list("squares", min_len=2)
    squares = tuple(_square(f, "squares", t, width, height) for t in texts)
    return ElementSpec(f.str("id"), f.choice("row", tuple(tables.elements)), weapons, squares)


def _sections(f: Fields, tables: Tables, width: int, height: int) -> tuple:
    sides = f.items("sides", min_len=2)
    if len(sides) != 2:
        raise f.error("sides", "two sides (attacker, defender)", len(sides))
    result, ids = [], set()
    for s in sides:
        sections = []
        for sec in s.items("sections", min_len=1):
            elements = tuple(_element(e, tables, width, height) for e in sec.items("elements", min_len=1))
            sections.append(SectionSpec(sec.str("id"), sec.int("lr", min=1, max=6), elements))
            for e in elements:
                if e.id in ids:
                    raise sec.error("elements", "unique element ids", e.id)
                ids.add(e.id)
        if sum(len(sec.elements) for sec in sections) > MAX_ELEMENTS:
            raise s.error("sections", f"at most {MAX_ELEMENTS} elements per side")
        result.append(tuple(sections))
    return tuple(result)


def _options(f: Fields) -> dict:
    given = f.sub("options", default={})
    options = {k: given.bool(k, default=v) for k, v in OPTION_DEFAULTS.items() if k not in ("force_level", "weather")}
    options["force_level"] = given.choice("force_level", FORCE_LEVELS, default="section")
    options["weather"] = given.choice("weather", WEATHERS) if given.has("weather") else None   # CF-COND-1
    return options


def _conditions(f: Fields, width: int, height: int) -> dict:
    c = f.sub("conditions", default={})
    return {"time": c.choice("time", TIMES, default="day"), "weather": c.choice("weather", WEATHERS, default="clear"),
            "illuminated": _msqs(c, "illuminated", width, height)}


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


def _pair(f: Fields, key: str, default: int) -> tuple[int, int]:
    return tuple(f.list(key, default=[default, default]))     # two integers in range: checked by the schema


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
    f = Fields.load(path)
    check(f, schema.Scenario)     # keys, types and ranges (envs/cityfight/schema.py); what follows reads the checked file
    table_name = f.str("tables", default="standard")
    tables = load_tables(str(CONFIG_DIR / "tables" / f"{table_name}.yaml"))
    width, height, terrain = _map(f)
    victory = f.sub("victory", default={"kind": "objectives", "all_at_once": True, "at_end": 2})
    objectives = _squares(f, "objectives", width, height)
    variants = f.sub("variants", default={})
    night = variants.sub("night", default={"time": "night", "illuminated": []})
    smoke = variants.sub("smoke", default={"smoke_weapons": []})
    sections = _sections(f, tables, width, height)
    known_ids = {e.id for side in sections for sec in side for e in sec.elements}
    for eid in smoke.list("smoke_weapons", default=[]):
        if eid not in known_ids:
            raise smoke.error("smoke_weapons", "ids of elements in the scenario", eid)
    return Scenario(
        path=path, name=f.str("name"), tables=tables, turns=f.int("turns", min=1, default=8),
        width=width, height=height, terrain=terrain,
        search_ratings=_search_ratings(f, tables, terrain, width, height),
        prepared=frozenset(_squares(f, "prepared", width, height)), objectives=objectives,
        chokepoints=_squares(f, "chokepoints", width, height), roofs=frozenset(_squares(f, "roofs", width, height)),
        conditions=_conditions(f, width, height),
        initiative=("attacker", "defender").index(f.choice("initiative", ("attacker", "defender"), default="attacker")),
        ammo_rating=_pair(f, "ammo_rating", 3), recovery_bonus=_pair(f, "recovery_bonus", 0),
        victory={"kind": victory.choice("kind", ("objectives",), default="objectives"),
                 "all_at_once": victory.bool("all_at_once", default=True),
                 "at_end": victory.int("at_end", min=0, max=max(len(objectives), 0), default=min(2, len(objectives)))},
        options=_options(f),
        variants={"night": {"time": night.choice("time", TIMES, default="night"),
                            "illuminated": _msqs(night, "illuminated", width, height)},
                  "smoke": {"smoke_weapons": tuple(smoke.list("smoke_weapons", default=[]))}},
        sections=sections,
    )


def scenario_names() -> dict[str, str]:
    return yaml_files(CONFIG_DIR / "scenarios")


def table_files() -> list[str]:
    return list(yaml_files(CONFIG_DIR / "tables").values())


__all__ = ["ScenarioError", "load_scenario", "load_tables", "scenario_path", "Path"]
