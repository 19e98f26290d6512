"""Rifles tables and scenarios, loaded from `configs/rifles/` into frozen dataclasses and validated.

A bad file fails on load with the file, the field and what was expected (engine.scenario.Fields).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from envs.engine.scenario import Fields, ScenarioError, yaml_files
from envs.engine.schema import check
from envs.paths import CONFIG_ROOT

from . import schema

CONFIG_DIR = CONFIG_ROOT / "rifles"
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
    darkness: DarknessTables | None = None  # RD-GEN-1: the Darkness module's types and doctrine


@dataclass(frozen=True)
class DarknessType:
    """One Darkness type (RD-GEN-3, RD-TAB-1): ranged CF and range, C/C CF, traits (RD-TRT-1..5)."""

    name: str
    cf: int
    min_range: int
    max_range: int           # -1: no ranged attack (ranged CF 0)
    cc_cf: float
    crawling: bool = False   # RD-TRT-1
    fast: bool = False       # RD-TRT-2
    attacks: int = 1         # RD-TRT-3: Multiple Attacks(X); 1 without the trait
    wounds: int | None = None  # RD-TRT-5: Wounds(X); None: RD-GEN-4's default


@dataclass(frozen=True)
class DarknessTables:
    """The Darkness module's data (configs/rifles/tables/darkness.yaml)."""

    types: dict                    # name -> DarknessType, in table order (the observation's slot order)
    results_to_eliminate: int      # RD-GEN-4
    orders: tuple                  # RD-AI-2: ((max d6, order), ...)
    cc_cf_rounding: str            # RD-CC-2: sum_then_floor | per_unit_floor
    cc_modifiers: dict             # RD-CC-3..7
    fast_attack_min_dice: int      # RD-TRT-2
    crawlers: frozenset            # names of the Crawling types (RD-TRT-1), for the fire check
    slots: dict                    # name -> its weapon slot in the observation (table order)


OPTION_DEFAULTS = {
    "advanced_urban": False,          # RU-VAR-1
    "exposed_movement": True,         # RU-VAR-2
    "enemy_rolls_as_choices": False,  # RB-AI-1
    "exit_allowed": False,            # RB-VIC-4
}
MODULE_OPTIONS = {                    # options only scenarios with that module know
    "darkness": {"night_visibility": False},   # RD-VAR-1
}
TRAITS = {"crawling": False, "fast": False, "multiple_attacks": True, "wounds": True}   # trait -> takes (X)
DARKNESS_ORDERS = ("attack", "advance")          # RD-AI-2
OBSERVED_TYPES = 9                                # at most this many Darkness types (observation weapon slots)


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
    check(f, schema.Tables)
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


def _reveal_table(f: Fields, weapons: dict, types: dict) -> dict:
    """RB-TAB-6 / RD-TAB-2: d6 face -> the new group's units, weapons (`smg+leader`) or Darkness types (`crawler`)."""
    table = {}
    for face in range(1, 7):
        if face not in f.data:
            raise f.error(str(face), "a list of weapons for this d6 face (empty list: the marker is removed)")
        entries = f.list(face)
        units = []
        for entry in entries:
            weapon, _, tag = str(entry).partition("+")
            if not ((weapon in weapons and tag in ("", "leader")) or (weapon in types and tag == "")):
                raise f.error(str(face), "weapons such as rifle or smg+leader, or Darkness types, from: "
                              + ", ".join([*weapons, *types]), entry)
            units.append((weapon, tag == "leader"))
        table[face] = tuple(units)
    return table


def _modules(f: Fields) -> tuple[str, ...]:
    modules = tuple(f.list("modules"))
    for m in modules:
        if m not in MODULES:
            raise f.error("modules", "a list of: " + ", ".join(MODULES), m)
    return modules


def _options(f: Fields, modules: tuple[str, ...]) -> dict:
    defaults = dict(OPTION_DEFAULTS)
    for m in modules:
        defaults.update(MODULE_OPTIONS.get(m, {}))
    given = f.sub("options", default={})
    given.unknown(defaults)
    return {k: given.bool(k, default=v) for k, v in defaults.items()}


def _traits(f: Fields, key: str) -> dict:
    """RD-TRT-1..5: `crawling`, `fast`, `multiple_attacks(X)`, `wounds(X)` with X >= 1; anything else fails."""
    traits = {}
    for i, text in enumerate(f.list(key, default=[])):
        field = f"{key}[{i}]"
        match = re.fullmatch(r"([a-z_]+)(?:\((-?\d+)\))?", str(text).strip())
        if match is None or match.group(1) not in TRAITS:
            raise f.error(field, "a known trait: crawling, fast, multiple_attacks(X), wounds(X)", text)
        name, x = match.group(1), match.group(2)
        if TRAITS[name] and (x is None or int(x) < 1):
            raise f.error(field, f"{name}(X) with an integer X >= 1", text)
        if not TRAITS[name] and x is not None:
            raise f.error(field, f"{name} without a number", text)
        traits[name] = int(x) if x is not None else True
    return traits


def _darkness_type(f: Fields, name: str, weapons: dict) -> DarknessType:
    """RD-GEN-3: one row of RD-TAB-1, validated (no negative CF or range, Wounds and Multiple Attacks >= 1)."""
    if name in weapons:
        raise f.error(name, "a Darkness type name that is not a weapon name", name)
    t = f.sub(name)
    cf = t.int("cf", min=0)
    if cf > 0:
        low, high = t.int("min_range", min=0), t.int("max_range", min=0)
        if high < low:
            raise t.error("max_range", f"an integer >= min_range ({low})", high)
    else:
        low, high = 0, -1
    traits = _traits(t, "traits")
    return DarknessType(name, cf, low, high, t.number("cc_cf", min=0), traits.get("crawling", False), traits.get("fast", False),
                        traits.get("multiple_attacks", 1), traits.get("wounds"))


@lru_cache(maxsize=8)
def load_darkness(path: str, weapon_names: tuple[str, ...]) -> DarknessTables:
    """The Darkness module's tables (RD-TAB-1, RD-GEN-4, RD-AI-2, RD-CC-2..7, RD-TRT-2)."""
    f = Fields.load(path)
    check(f, schema.DarknessTables)
    names = list(f.sub("types").data)
    if not 1 <= len(names) <= OBSERVED_TYPES:
        raise f.error("types", f"1 to {OBSERVED_TYPES} Darkness types", len(names))
    types = {name: _darkness_type(f.sub("types"), name, dict.fromkeys(weapon_names)) for name in names}
    orders = tuple((o.int("max", min=1), o.choice("order", DARKNESS_ORDERS)) for o in f.items("orders", min_len=1))
    if orders[-1][0] < 6:
        raise f.error("orders", "rows whose last `max` covers a 6", orders[-1][0])
    mods = f.sub("cc_modifiers")
    return DarknessTables(
        types=types, results_to_eliminate=f.int("results_to_eliminate", min=1), orders=orders,
        cc_cf_rounding=f.choice("cc_cf_rounding", ("sum_then_floor", "per_unit_floor")),
        cc_modifiers={k: mods.int(k) for k in ("shaken", "recruit", "building", "feature_first_round", "more_veterans")},
        fast_attack_min_dice=f.int("fast_attack_min_dice", min=0),
        crawlers=frozenset(n for n, t in types.items() if t.crawling), slots={n: i for i, n in enumerate(types)},
    )


def darkness_weapons(darkness: DarknessTables) -> dict:
    """Each Darkness type as a weapon entry, so fire, range and C/C CF read one table (RD-GEN-3)."""
    return {t.name: Weapon(t.name, t.cf, t.min_range, t.max_range, 0, t.cc_cf, False, 0) for t in darkness.types.values()}


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
    check(f, schema.Scenario)     # keys, types and ranges (envs/rifles/schema.py); what follows reads the checked file
    tables = load_tables(str(CONFIG_DIR / "tables" / f"{f.str('tables', default='standard')}.yaml"))
    modules = _modules(f)
    weapons, darkness = tables.weapons, None      # player and fixed enemy groups carry weapons only
    if "darkness" in modules:                     # RD-GEN-1: the mission lists its Darkness types
        darkness = load_darkness(_table_path(f.str("darkness_tables"), path), tuple(weapons))
        tables = replace(tables, weapons={**weapons, **darkness_weapons(darkness)})
    elif f.has("darkness_tables"):
        raise f.error("darkness_tables", "no Darkness tables unless modules lists darkness", f.raw("darkness_tables"))
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
        modules=modules,
        turns=f.int("turns", min=1), ap=f.int("ap", min=1), recon_points=f.int("recon_points", min=0),
        posture=f.int("posture", min=-1, max=1), options=_options(f, modules), sewer_stripes=sewers, features=features,
        player_groups=tuple(_group(g, weapons, ids) for g in player.items("groups", min_len=1)),
        enemy_groups=tuple(_group(g, weapons, ids) for g in enemy.items("groups", default=[])),
        markers=tuple((m.str("id"), m.int("stripe", min=1, max=STRIPES)) for m in enemy.items("markers", default=[])),
        reveal_table=_reveal_table(reveal_tables.sub(tables_name), weapons, darkness.types if darkness else {}),
        enemy_quality=enemy.choice("quality", QUALITIES),
        victory=_victory(f, ids), tables=tables, darkness=darkness,
    )


def _table_path(name: str, scenario: str) -> str:
    """A tables name under configs/rifles/tables/, or a YAML path relative to the scenario file."""
    if name.endswith((".yaml", ".yml")):
        return str((Path(scenario).parent / name).resolve())
    return str(CONFIG_DIR / "tables" / f"{name}.yaml")


def scenario_path(name_or_path: str | None, default: str = "block_six") -> str:
    """A scenario name under configs/rifles/scenarios/ or a path to a YAML file."""
    name = name_or_path or default
    if name.endswith((".yaml", ".yml")):
        return str(Path(name).resolve())
    known = scenario_files()
    if name not in known:
        raise KeyError(f"unknown scenario {name!r}; known: {', '.join(known)}")
    return known[name]


def scenario_files() -> dict[str, str]:
    """Every scenario file under configs/rifles/scenarios/ by name, loadable or not (ScenarioError without the folder)."""
    return yaml_files(CONFIG_DIR / "scenarios")


def scenario_modules(path: str) -> tuple[str, ...]:
    """The modules a scenario switches on. A file that fails to load still belongs to the modules it names (or, if
    even that is unreadable, to every module), so that its error is shown where it is used, and nowhere else."""
    try:
        return load_scenario(path).modules
    except ScenarioError:
        try:
            named = Fields.load(path).list("modules")
        except ScenarioError:
            return MODULES
        return tuple(m for m in MODULES if m in named) or MODULES
