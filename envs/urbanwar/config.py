"""Urban War tables and scenarios, loaded from `configs/urbanwar/` into frozen dataclasses and validated.

Every bad input fails on load in one line naming the file, the dotted field and what was expected
(envs.engine.scenario.Fields): a ragged or asymmetric map, a model outside its deployment zone, an unknown
weapon, profile or profile field, stats outside UW-STAT-1's ranges.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from envs.engine.scenario import Fields, ScenarioError, yaml_files
from envs.engine.schema import check
from envs.paths import CONFIG_ROOT

from . import schema

CONFIG_DIR = CONFIG_ROOT / "urbanwar"
SIZE = 48                       # UW-GRID-1: 48 x 48 cells of 1"
MAX_MODELS = 8                  # model slots per side (the codec's fixed maximum)
DEPLOY_ROWS = 6                 # UW-SETUP-5: within 6" of the own edge
BANDS = ("cc", "short", "medium", "long", "extreme")
STATS = ("AS", "SH", "ST", "T", "W", "CD", "SZ", "MV", "CAL", "FS")
# UW-STAT-1: the allowed range of each stat
STAT_RANGES = {"AS": (1, 10), "SH": (1, 10), "ST": (1, 10), "T": (1, 10), "CD": (1, 10), "W": (1, 99),
               "SZ": (1, 99), "MV": (1, 99), "CAL": (0, 99), "FS": (0, 99)}
OPTION_DEFAULTS = {"choose_edges": False, "limit_result": "casualties", "auto_forced": True,
                   "heavy_armour": False, "dense_terrain": False}
LIMIT_RESULTS = ("casualties", "draw")
COVERS = ("none", "solid", "flimsy")
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


# Tables --------------------------------------------------------------------------------------------------------
def _band_values(f: Fields, key: str):
    raw = f.raw(key)
    if raw is None:
        return None
    if not (isinstance(raw, list) and len(raw) == 4 and all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
            and raw[1] >= 1 and raw[3] >= 1):
        raise f.error(key, "null or [to-hit modifier, dice >= 1, strength, damage rolls >= 1]", raw)
    return tuple(raw)


@lru_cache(maxsize=8)
def load_tables(path: str) -> Tables:
    f = Fields.load(path)
    check(f, schema.Tables)       # keys, types and ranges (envs/urbanwar/schema.py)
    bands = tuple(Band(b.str("name"), b.int("max_d2", min=1), b.int("moved", max=0), b.int("disruption", max=0))
                  for b in f.items("bands", min_len=4))
    terrain = {}
    tf = f.sub("terrain")
    for char in tf.data:
        t = tf.sub(char)
        cost = t.list("cost")
        if len(cost) != 2 or not all(isinstance(c, int) and c >= 0 for c in cost):
            raise t.error("cost", "[orthogonal, diagonal] half-inch costs >= 0", cost)
        terrain[char] = Terrain(char, t.str("name"), tuple(cost), t.bool("blocks"), t.choice("cover", COVERS))
    cs = f.sub("cover_saves")
    saves = {"solid": cs.int("solid", min=1, max=10), "flimsy": cs.int("flimsy", min=1, max=10)}
    weapons = {}
    wf = f.sub("weapons")
    for key in wf.data:
        w = wf.sub(key)
        weapons[key] = Weapon(key, w.str("name"), tuple(_band_values(w, b) for b in BANDS), w.int("fs", min=0))
    profiles = {}
    pf = f.sub("profiles")
    for key in pf.data:
        p = pf.sub(key)
        stats = p.list("stats")
        if len(stats) != len(STATS) or not all(isinstance(s, int) and not isinstance(s, bool) for s in stats):
            raise p.error("stats", f"{len(STATS)} integers ({' '.join(STATS)})", stats)
        for name, value in zip(STATS, stats):
            lo, hi = STAT_RANGES[name]
            if not lo <= value <= hi:   # UW-STAT-1
                raise p.error("stats", f"{name} in {lo}..{hi} (UW-STAT-1)", value)
        ranged, cc = p.choice("ranged", tuple(weapons)), p.choice("cc", tuple(weapons))
        sp = p.sub("special", default={})
        sp.unknown({"heavy_armour", "high_morale", "battleshield"})
        profiles[key] = Profile(key, p.str("name"), *stats, ranged=ranged, cc=cc,
                                heavy_armour=sp.int("heavy_armour", min=0, max=9, default=0),
                                high_morale=sp.bool("high_morale", default=False),
                                battleshield=sp.bool("battleshield", default=False),
                                role=p.choice("role", ("shooter", "melee")))
    return Tables(path, bands, terrain, saves, weapons, profiles)


# Scenarios ---------------------------------------------------------------------------------------------------------
def scenario_names() -> dict[str, str]:
    return yaml_files(CONFIG_DIR / "scenarios")


def scenario_path(name: str | None) -> str:
    names = scenario_names()
    name = name or "block_7"
    if name not in names:
        if Path(name).suffix == ".yaml":
            return name
        raise ValueError(f"unknown urbanwar scenario {name!r}; known: {', '.join(names)}")
    return names[name]


def _check_map(f: Fields, rows, terrain: dict) -> tuple[str, ...]:
    if not isinstance(rows, list) or len(rows) != SIZE:
        raise f.error("map", f"{SIZE} rows of {SIZE} characters (UW-GRID-1)", f"{len(rows) if isinstance(rows, list) else rows}")
    for y, row in enumerate(rows):
        if not isinstance(row, str) or len(row) != SIZE:
            raise f.error(f"map[{y}]", f"a row of {SIZE} characters (the map is ragged)", row)
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
    f = Fields.load(path)
    check(f, schema.Scenario)     # keys, types and ranges (envs/urbanwar/schema.py); what follows reads the checked file
    tables = load_tables(str(CONFIG_DIR / "tables" / f"{f.str('tables')}.yaml"))
    of = f.sub("options", default={})
    options = dict(OPTION_DEFAULTS)
    for key, default in OPTION_DEFAULTS.items():
        options[key] = of.choice(key, LIMIT_RESULTS, default=default) if key == "limit_result" else of.bool(key, default=default)
    rows = _check_map(f, f.raw("map"), tables.terrain)
    sides = []
    ids = set()
    for s in f.items("sides", min_len=2):
        models = []
        mitems = s.items("models", min_len=1)
        if len(mitems) > MAX_MODELS:
            raise s.error("models", f"at most {MAX_MODELS} models", len(mitems))
        for m in mitems:
            mid = m.str("id")
            if mid in ids:
                raise m.error("id", "a model id used once", mid)
            ids.add(mid)
            models.append(ModelSpec(mid, m.choice("profile", tuple(tables.profiles)), m.bool("commander", default=False)))
        if sum(m.commander for m in models) != 1:   # UW-SPEC-1
            raise s.error("models", "exactly one commander (UW-SPEC-1)", sum(m.commander for m in models))
        sides.append(SideSpec(s.str("name"), s.choice("edge", EDGES), tuple(models)))
    if len(sides) != 2 or sides[0].edge == sides[1].edge:
        raise f.error("sides", "two sides on opposite edges (north, south)")
    variants = {}
    vf = f.sub("variants", default={})
    if vf.has("heavy_armour"):
        rep = vf.sub("heavy_armour").sub("replace")
        for mid in rep.data:
            if mid not in ids:
                raise rep.error(mid, "a model id of the scenario", mid)
            rep.choice(mid, tuple(tables.profiles))
        variants["heavy_armour"] = dict(rep.data)
    if vf.has("dense_terrain"):
        patches = []
        for p in vf.sub("dense_terrain").items("patches"):
            ch = p.choice("char", tuple(tables.terrain))
            xs, ys = p.list("x"), p.list("y")
            for key, v in (("x", xs), ("y", ys)):
                if len(v) != 2 or not all(isinstance(c, int) and 0 <= c < SIZE for c in v) or v[0] > v[1]:
                    raise p.error(key, f"[first, last] cells in 0..{SIZE - 1}", v)
            patches.append((ch, tuple(xs), tuple(ys)))
        variants["dense_terrain"] = patches
    placed = {}
    pf = f.sub("placed", default={})
    side_of = {m.id: side for side in sides for m in side.models}
    for mid in pf.data:
        if mid not in side_of:
            raise pf.error(mid, "a model id of the scenario", mid)
        xy = pf.list(mid)
        if len(xy) != 2 or not all(isinstance(c, int) and 0 <= c < SIZE for c in xy):
            raise pf.error(mid, f"[x, y] in 0..{SIZE - 1}", xy)
        if not in_zone(side_of[mid].edge, xy[1]):   # UW-SETUP-5
            raise pf.error(mid, f"a cell in the {side_of[mid].edge} deployment zone (UW-SETUP-5)", xy)
        placed[mid] = tuple(xy)
    return Scenario(str(path), f.str("name"), f.int("turns", min=1), rows, tuple(sides), options, variants, tables, placed)


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
