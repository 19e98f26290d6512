"""Urban War tables and scenarios, loaded from `configs/urbanwar/` into frozen dataclasses and validated.

Every bad input fails on load in one line naming the file, the dotted field and what was expected
(envs.engine.scenario.Fields). Keys, types and ranges (a ragged map, stats outside UW-STAT-1's ranges, an unknown
profile field) are the schema's (envs/urbanwar/schema.py); what follows checks what a schema cannot say: an
asymmetric map, a model outside its deployment zone, an unknown weapon or profile, one commander a side.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from envs.engine.scenario import ContentCache, Fields, ScenarioError, yaml_files
from envs.engine.schema import check
from envs.paths import CONFIG_ROOT

from . import schema

CONFIG_DIR = CONFIG_ROOT / "urbanwar"
SIZE = 48                       # UW-GRID-1: 48 x 48 cells of 1"
MAX_MODELS = 8                  # model slots per side (the codec's fixed maximum)
DEPLOY_ROWS = 6                 # UW-SETUP-5: within 6" of the own edge
BANDS = ("cc", "short", "medium", "long", "extreme")
LIMIT_RESULTS = ("casualties", "draw")
EDGES = ("north", "south")


@dataclass(frozen=True)
class Band:
    name: str
    max_d2: int
    moved: int
    disruption: int


@dataclass(frozen=True)
class Terrain:
    char: str
    name: str
    cost: tuple[int, int]       # half-inches per orthogonal / diagonal step; 0 = impassable (UW-MOVE-1..3)
    blocks: bool
    cover: str


@dataclass(frozen=True)
class Weapon:
    """A row of UW-TAB-3: per band (to-hit modifier, attack dice, strength, damage rolls) or None ("-")."""

    key: str
    name: str
    bands: tuple            # indexed like BANDS
    fs: int

    def usable(self, band: int) -> bool:
        return self.bands[band] is not None


@dataclass(frozen=True)
class Profile:
    key: str
    name: str
    AS: int
    SH: int
    ST: int
    T: int
    W: int
    CD: int
    SZ: int
    MV: int
    CAL: int
    FS: int
    ranged: str
    cc: str
    heavy_armour: int = 0
    high_morale: bool = False
    battleshield: bool = False
    role: str = "shooter"


@dataclass(frozen=True)
class Tables:
    path: str
    bands: tuple[Band, ...]
    terrain: dict
    cover_saves: dict
    weapons: dict
    profiles: dict


@dataclass(frozen=True)
class ModelSpec:
    id: str
    profile: str
    commander: bool


@dataclass(frozen=True)
class SideSpec:
    name: str
    edge: str
    models: tuple[ModelSpec, ...]


@dataclass(frozen=True)
class Scenario:
    path: str
    name: str
    turns: int
    map: tuple[str, ...]
    sides: tuple[SideSpec, ...]
    options: dict
    variants: dict
    tables: Tables
    placed: dict            # model id -> (x, y) for build_position specs; empty in a real scenario
    #: a built position's own scenario (envs/urbanwar/position.py `scenario_for`): the spec's `scenario` (a name, a
    #: path or the scenario as data), `map` and `profiles` when they are not a file as it stands; a saved game
    #: carries it
    built: dict | None = field(default=None, compare=False)


# Tables --------------------------------------------------------------------------------------------------------
@lru_cache(maxsize=8)
def load_tables(path: str) -> Tables:
    f = Fields.load(path)
    t = check(f, schema.Tables)   # keys, types and ranges (envs/urbanwar/schema.py); what follows reads the checked file
    weapons = {key: Weapon(key, w.name, tuple(getattr(w, band) for band in BANDS), w.fs) for key, w in t.weapons.items()}
    profiles = {}
    for key, p in t.profiles.items():
        for weapon_field in ("ranged", "cc"):     # weapons of this file: not in the schema
            if getattr(p, weapon_field) not in weapons:
                raise f.sub("profiles").sub(key).error(weapon_field, "one of " + ", ".join(weapons), getattr(p, weapon_field))
        profiles[key] = Profile(key, p.name, *p.stats, ranged=p.ranged, cc=p.cc, heavy_armour=p.special.heavy_armour,
                                high_morale=p.special.high_morale, battleshield=p.special.battleshield, role=p.role)
    return Tables(path, tuple(Band(b.name, b.max_d2, b.moved, b.disruption) for b in t.bands),
                  {char: Terrain(char, x.name, tuple(x.cost), x.blocks, x.cover) for char, x in t.terrain.items()},
                  {"solid": t.cover_saves.solid, "flimsy": t.cover_saves.flimsy}, weapons, profiles)


# Scenarios ---------------------------------------------------------------------------------------------------------
def scenario_names() -> dict[str, str]:
    return yaml_files(CONFIG_DIR / "scenarios")


def scenario_path(name: str | None) -> str:
    name = name or "block_7"
    if name.isidentifier():          # a plain name: its file, if there (one look instead of listing the folder)
        path = CONFIG_DIR / "scenarios" / f"{name}.yaml"
        if path.is_file():
            return str(path)
    names = scenario_names()
    if name not in names:
        if Path(name).suffix == ".yaml":
            return name
        raise ValueError(f"unknown urbanwar scenario {name!r}; known: {', '.join(names)}")
    return names[name]


def _check_map(f: Fields, rows: list[str], terrain: dict) -> tuple[str, ...]:
    """48 rows of 48 (the schema); here: the characters are the tables' terrain, the map 180-degree symmetric."""
    for y, row in enumerate(rows):
        for ch in row:
            if ch not in terrain:
                raise f.error(f"map[{y}]", f"terrain characters {''.join(terrain)} (UW-TAB-2)", ch)
    for y in range(SIZE):
        for x in range(SIZE):
            if rows[y][x] != rows[SIZE - 1 - y][SIZE - 1 - x]:   # UW-SCEN-1: 180-degree symmetric
                raise f.error(f"map[{y}]", f"a map symmetric under 180-degree rotation: ({x},{y}) against "
                                           f"({SIZE - 1 - x},{SIZE - 1 - y})", rows[y][x])
    return tuple(rows)


def in_zone(edge: str, y: int) -> bool:
    """UW-SETUP-5: within 6" of the own edge."""
    return y < DEPLOY_ROWS if edge == "north" else y >= SIZE - DEPLOY_ROWS


@lru_cache(maxsize=16)
def load_scenario(path: str) -> Scenario:
    """UW-SCEN-1..3: map, teams, edges, turn limit and options (UW-SCEN-4's decision budget is measured, README)."""
    return _scenario(Fields.load(path), path)


def load_scenario_data(data: dict, source: str = "<scenario data>") -> Scenario:
    """A scenario given as data, in the YAML files' own shape, checked as a file would be (errors name `source` as
    the file). Rule tests build their own with it (envs/urbanwar/position.py). Kept per content (the last 16)."""
    if not isinstance(data, dict):
        raise ScenarioError(source, "<top>", "a mapping of fields (a scenario as data)", type(data).__name__)
    return _FROM_DATA.get(data, lambda: _scenario(Fields(copy.deepcopy(data), source), source), source)


_FROM_DATA = ContentCache()   # (the data as sorted JSON, its source) -> Scenario


def _scenario(f: Fields, path: str) -> Scenario:
    spec = check(f, schema.Scenario)  # keys, types and ranges (envs/urbanwar/schema.py); what follows reads the checked file
    tables = load_tables(str(CONFIG_DIR / "tables" / f"{spec.tables}.yaml"))
    options = {key: getattr(spec.options, key) for key in spec.options.__struct_fields__}
    rows = _check_map(f, spec.map, tables.terrain)
    ids: set = set()                    # model ids of both sides, each used once
    sides = tuple(_side(s, side, tables, ids) for s, side in zip(f.items("sides"), spec.sides))
    if sides[0].edge == sides[1].edge:   # one side's edge against the other's: not in the schema
        raise f.error("sides", "two sides on opposite edges (north, south)")
    variants = _variants(f.sub("variants", default={}), spec.variants, tables, ids)
    placed = _placed(f.sub("placed", default={}), spec.placed, sides)
    return Scenario(str(path), spec.name, spec.turns, rows, sides, options, variants, tables, placed)


def _side(s: Fields, spec: schema.SideSpec, tables: Tables, ids: set) -> SideSpec:
    """A side's models: profiles of the tables, ids used once, one commander (UW-SPEC-1): not in the schema."""
    models = []
    for m, model in zip(s.items("models"), spec.models):
        if model.id in ids:
            raise m.error("id", "a model id used once", model.id)
        ids.add(model.id)
        if model.profile not in tables.profiles:
            raise m.error("profile", "one of " + ", ".join(tables.profiles), model.profile)
        models.append(ModelSpec(model.id, model.profile, model.commander))
    if sum(m.commander for m in models) != 1:   # UW-SPEC-1
        raise s.error("models", "exactly one commander (UW-SPEC-1)", sum(m.commander for m in models))
    return SideSpec(spec.name, spec.edge, tuple(models))


def _variants(vf: Fields, spec: schema.Variants, tables: Tables, ids: set) -> dict:
    """UW-SCEN-5/6: the models and profiles a variant names, and its patches' characters, from the scenario and
    tables; a patch's first cell before its last: not in the schema."""
    variants = {}
    if spec.heavy_armour is not None:
        rep = vf.sub("heavy_armour").sub("replace")
        for mid, profile in spec.heavy_armour.replace.items():
            if mid not in ids:
                raise rep.error(mid, "a model id of the scenario", mid)
            if profile not in tables.profiles:
                raise rep.error(mid, "one of " + ", ".join(tables.profiles), profile)
        variants["heavy_armour"] = dict(spec.heavy_armour.replace)
    if spec.dense_terrain is not None:
        patches = []
        for p, patch in zip(vf.sub("dense_terrain").items("patches"), spec.dense_terrain.patches):
            if patch.char not in tables.terrain:
                raise p.error("char", "one of " + ", ".join(tables.terrain), patch.char)
            for key, (first, last) in (("x", patch.x), ("y", patch.y)):
                if first > last:
                    raise p.error(key, f"[first, last] cells in 0..{SIZE - 1}, first <= last", [first, last])
            patches.append((patch.char, tuple(patch.x), tuple(patch.y)))
        variants["dense_terrain"] = patches
    return variants


def _placed(pf: Fields, spec: dict, sides: tuple[SideSpec, ...]) -> dict:
    """build_position's placements: models of the scenario, in their side's deployment zone: not in the schema."""
    side_of = {m.id: side for side in sides for m in side.models}
    placed = {}
    for mid, xy in spec.items():
        if mid not in side_of:
            raise pf.error(mid, "a model id of the scenario", mid)
        if not in_zone(side_of[mid].edge, xy[1]):   # UW-SETUP-5
            raise pf.error(mid, f"a cell in the {side_of[mid].edge} deployment zone (UW-SETUP-5)", xy)
        placed[mid] = tuple(xy)
    return placed


def played_map(scenario: Scenario, options: dict) -> tuple[str, ...]:
    """The map with the dense-terrain patches and their 180-degree images (UW-SCEN-6) when chosen."""
    if not options.get("dense_terrain"):
        return scenario.map
    rows = [list(r) for r in scenario.map]
    for ch, (x0, x1), (y0, y1) in scenario.variants.get("dense_terrain", ()):
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                rows[y][x] = ch
                rows[SIZE - 1 - y][SIZE - 1 - x] = ch
    return tuple("".join(r) for r in rows)


def profile_of(scenario: Scenario, options: dict, model: ModelSpec) -> Profile:
    """UW-SCEN-5: the heavy-armour variant swaps a model's profile."""
    key = model.profile
    if options.get("heavy_armour"):
        key = scenario.variants.get("heavy_armour", {}).get(model.id, key)
    return scenario.tables.profiles[key]


__all__ = ["ScenarioError", "load_scenario", "load_tables", "replace"]
