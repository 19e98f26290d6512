"""Rifles tables and scenarios, loaded from `configs/rifles/` into frozen dataclasses and validated.

A bad file fails on load with the file, the field and what was expected (engine.scenario.Fields).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from envs.engine.scenario import Fields, ScenarioError

CONFIG_DIR = Path(__file__).resolve().parents[2] / "configs" / "rifles"
QUALITIES = ("recruit", "regular", "veteran")
FEATURE_KINDS = ("ms", "building", "rubble", "wall", "woods")
COVER_KINDS = ("open",) + FEATURE_KINDS
ORDERS = ("cover", "attack", "advance", "close_combat")
EXPOSED_EFFECTS = ("none", "sniper", "opportunity_fire", "contact", "ambush")
MODULES = ("urban", "darkness")
STRIPES = 6          # RB-MAP-1
MAX_FEATURES = 3     # feature slots per Stripe (places = Open + features)


@dataclass(frozen=True)
class Weapon:
    name: str
    cf: int
    min_range: int
    max_range: int
    cc_mod: int
    cc_cf: float
    ignores_cover: bool
    heaviness: int           # RB-TAB-5 "heaviest weapon": higher is heavier

    def reaches(self, rng: int) -> bool:
        return self.min_range <= rng <= self.max_range


@dataclass(frozen=True)
class Tables:
    range_tn: tuple[int, ...]
    tn_cap: int
    cover: dict
    own_ms_other_level_cover: int
    first_floor_drm: int
    morale_target: dict
    weapons: dict            # name -> Weapon
    ap_costs: dict
    enemy_orders: tuple      # ((max, order), ...)
    exposed_movement: tuple  # ((min, max, effect), ...)
    rubble_two_ap_from: int
    sewer_stuck_on: int
    dc_fail_on: int
    dc_attack_cf: int
    dc_attack_tn: int
    dc_collapse_on: int
    ms_first_floor_from: int
    advanced_building: tuple  # ((max, kind), ...)


@dataclass(frozen=True)
class UnitSpec:
    id: str
    quality: str
    weapon: str
    leader: bool = False


@dataclass(frozen=True)
class GroupSpec:
    id: str
    stripe: int
    feature: str | None
    units: tuple[UnitSpec, ...]
    demo_charges: int = 0
    sewers: bool = False


@dataclass(frozen=True)
class FeatureSpec:
    id: str
    stripe: int
    kind: str
    sealed: bool = False
    complex: str | None = None
    advanced: bool = False


@dataclass(frozen=True)
class Scenario:
    path: str
    name: str
    modules: tuple[str, ...]
    turns: int
    ap: int
    recon_points: int
    posture: int
    options: dict
    sewer_stripes: frozenset
    features: tuple[FeatureSpec, ...]
    player_groups: tuple[GroupSpec, ...]
    enemy_groups: tuple[GroupSpec, ...]
    markers: tuple[tuple[str, int], ...]     # (marker id, stripe)
    reveal_table: dict                       # d6 -> tuple of (weapon, leader) for the new group's units
    enemy_quality: str
    victory: dict
    tables: Tables


OPTION_DEFAULTS = {
    "advanced_urban": False,          # RU-VAR-1
    "exposed_movement": True,         # RU-VAR-2
    "enemy_rolls_as_choices": False,  # RB-AI-1
    "exit_allowed": False,            # RB-VIC-4
}


def _weapons(f: Fields) -> dict:
    names = list(f.sub("weapons").data)
    weapons = {}
    for rank, name in enumerate(names):
        w = f.sub("weapons").sub(name)
        weapons[name] = Weapon(name, w.int("cf", min=0), w.int("min_range", min=0), w.int("max_range", min=0),
                               w.int("cc_mod"), w.number("cc_cf", min=0), w.bool("ignores_cover", default=False),
                               len(names) - rank)
    return weapons


@lru_cache(maxsize=8)
def load_tables(path: str) -> Tables:
    """The rules tables of one file (RB-TAB-*, RU-TAB-1)."""
    f = Fields.load(path)
    tn = f.list("range_tn", min_len=4)
    if not all(isinstance(v, int) for v in tn):
        raise f.error("range_tn", "a list of integers (TN at range 0, 1, 2, 3+)", tn)
    cover, orders, em, adv = f.sub("cover"), f.items("enemy_orders"), f.items("exposed_movement"), f.items("advanced_building")
    return Tables(
        range_tn=tuple(tn), tn_cap=f.int("tn_cap", min=2, max=6),
        cover={k: cover.int(k, min=0) for k in COVER_KINDS},
        own_ms_other_level_cover=f.int("own_ms_other_level_cover", min=0),
        first_floor_drm=f.int("first_floor_drm"),
        morale_target={q: f.sub("morale_target").int(q, min=1, max=7) for q in QUALITIES},
        weapons=_weapons(f),
        ap_costs={k: f.sub("ap_costs").int(k, min=0) for k in
                  ("move", "fire", "rally", "close_combat", "floor", "hop", "sewer", "demo_charge", "demo_take_back", "exit")},
        enemy_orders=tuple((o.int("max"), o.choice("order", ORDERS)) for o in orders),
        exposed_movement=tuple((e.int("min", min=11, max=66), e.int("max", min=11, max=66), e.choice("effect", EXPOSED_EFFECTS)) for e in em),
        rubble_two_ap_from=f.int("rubble_two_ap_from", min=1, max=7),
        sewer_stuck_on=f.int("sewer_stuck_on", min=1, max=7),
        dc_fail_on=f.int("dc_fail_on", min=2, max=12),
        dc_attack_cf=f.sub("dc_attack").int("cf", min=0), dc_attack_tn=f.sub("dc_attack").int("tn", min=2, max=6),
        dc_collapse_on=f.int("dc_collapse_on", min=1, max=7),
        ms_first_floor_from=f.int("ms_first_floor_from", min=1, max=7),
        advanced_building=tuple((a.int("max", min=1, max=6), a.choice("kind", ("building", "ms", "rubble"))) for a in adv),
    )


def _unit(f: Fields, weapons: dict) -> UnitSpec:
    return UnitSpec(f.str("id"), f.choice("quality", QUALITIES), f.choice("weapon", tuple(weapons)), f.bool("leader", default=False))


def _group(f: Fields, weapons: dict, feature_ids: dict) -> GroupSpec:
    at = f.sub("at")
    stripe = at.int("stripe", min=1, max=STRIPES)
    feature = at.str("feature", default=None) if at.has("feature") else None
    if feature is not None and feature_ids.get(feature) != stripe:
        raise at.error("feature", f"a feature id on stripe {stripe}", feature)
    units = tuple(_unit(u, weapons) for u in f.items("units", min_len=1))
    return GroupSpec(f.str("id"), stripe, feature, units, f.int("demo_charges", min=0, default=0), f.bool("sewers", default=False))


def _features(f: Fields) -> tuple[tuple[FeatureSpec, ...], frozenset]:
    features, sewers = [], set()
    for s in f.items("stripes", min_len=1):
        stripe = s.int("stripe", min=1, max=STRIPES)
        if s.bool("sewer", default=False):
            sewers.add(stripe)
        items = s.items("features", default=[])
        if len(items) > MAX_FEATURES:
            raise s.error("features", f"at most {MAX_FEATURES} features", len(items))
        for ft in items:
            features.append(FeatureSpec(ft.str("id"), stripe, ft.choice("kind", FEATURE_KINDS), ft.bool("sealed", default=False),
                                        ft.str("complex", default=None) if ft.has("complex") else None, ft.bool("advanced", default=False)))
    return tuple(features), frozenset(sewers)


def _reveal_table(f: Fields, weapons: dict) -> dict:
    table = {}
    for face in range(1, 7):
        if face not in f.data:
            raise f.error(str(face), "a list of weapons for this d6 face (empty list: the marker is removed)")
        entries = f.list(face)
        units = []
        for entry in entries:
            weapon, _, tag = str(entry).partition("+")
            if weapon not in weapons or tag not in ("", "leader"):
                raise f.error(str(face), "weapons such as rifle or smg+leader, from: " + ", ".join(weapons), entry)
            units.append((weapon, tag == "leader"))
        table[face] = tuple(units)
    return table


def _modules(f: Fields) -> tuple[str, ...]:
    modules = tuple(f.list("modules"))
    for m in modules:
        if m not in MODULES:
            raise f.error("modules", "a list of: " + ", ".join(MODULES), m)
    return modules


def _options(f: Fields) -> dict:
    given = f.sub("options", default={})
    given.unknown(OPTION_DEFAULTS)
    return {k: given.bool(k, default=v) for k, v in OPTION_DEFAULTS.items()}


def _victory(f: Fields, feature_ids: dict) -> dict:
    v = f.sub("victory")
    kind = v.choice("kind", ("hold", "exit"))
    if kind == "hold":
        objective = v.choice("objective", tuple(feature_ids))
        clear = tuple(v.list("clear_of_enemy"))
        for c in clear:
            if c not in feature_ids:
                raise v.error("clear_of_enemy", "feature ids of this map", c)
        return {"kind": kind, "objective": objective, "clear_of_enemy": clear}
    return {"kind": kind, "units_to_exit": v.int("units_to_exit", min=1), "loss_eliminated": v.int("loss_eliminated", min=1)}


@lru_cache(maxsize=32)
def load_scenario(path: str) -> Scenario:
    """A validated scenario (rules catalog §15) with its tables."""
    f = Fields.load(path)
    tables = load_tables(str(CONFIG_DIR / "tables" / f"{f.str('tables', default='standard')}.yaml"))
    features, sewers = _features(f)
    ids = {ft.id: ft.stripe for ft in features}
    enemy = f.sub("enemy")
    tables_name = enemy.str("reveal_table")
    reveal_tables = f.sub("reveal_tables")
    if not reveal_tables.has(tables_name):
        raise enemy.error("reveal_table", "a table named under reveal_tables: " + ", ".join(map(str, reveal_tables.data)), tables_name)
    player = f.sub("player")
    return Scenario(
        path=path, name=f.str("name"),
        modules=_modules(f),
        turns=f.int("turns", min=1), ap=f.int("ap", min=1), recon_points=f.int("recon_points", min=0),
        posture=f.int("posture", min=-1, max=1), options=_options(f), sewer_stripes=sewers, features=features,
        player_groups=tuple(_group(g, tables.weapons, ids) for g in player.items("groups", min_len=1)),
        enemy_groups=tuple(_group(g, tables.weapons, ids) for g in enemy.items("groups", default=[])),
        markers=tuple((m.str("id"), m.int("stripe", min=1, max=STRIPES)) for m in enemy.items("markers", default=[])),
        reveal_table=_reveal_table(reveal_tables.sub(tables_name), tables.weapons),
        enemy_quality=enemy.choice("quality", QUALITIES),
        victory=_victory(f, ids), tables=tables,
    )


def scenario_path(name_or_path: str | None, default: str = "block_six") -> str:
    """A scenario name under configs/rifles/scenarios/ or a path to a YAML file."""
    name = name_or_path or default
    if name.endswith((".yaml", ".yml")):
        return str(Path(name).resolve())
    path = CONFIG_DIR / "scenarios" / f"{name}.yaml"
    if not path.exists():
        known = sorted(p.stem for p in (CONFIG_DIR / "scenarios").glob("*.yaml"))
        raise KeyError(f"unknown scenario {name!r}; known: {', '.join(known)}")
    return str(path)
