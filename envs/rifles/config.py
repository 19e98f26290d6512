"""Rifles tables and scenarios, loaded from `configs/rifles/` into frozen dataclasses and validated.

A bad file fails on load with the file, the field and what was expected (engine.scenario.Fields). Keys, types and
ranges are the schema's (envs/rifles/schema.py); the loader checks what a schema cannot say: features on their
stripe, weapons and reveal tables by name, options by module, Darkness traits and ranges.
"""
from __future__ import annotations

import copy
import os
import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from envs.engine.scenario import ContentCache, Fields, ScenarioError, yaml_files
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
    #: a built position's own scenario (envs/rifles/position.py `scenario_for`): the spec's `scenario` (a name, a
    #: path or the scenario as data) and `weapons` when they are not a file as it stands; a saved game carries it
    built: dict | None = field(default=None, compare=False)


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


def _weapons(rows: dict) -> dict:
    """RB-TAB-3: the rows in the table's order, heaviest first (RB-TAB-5)."""
    return {name: Weapon(name, w.cf, w.min_range, w.max_range, w.cc_mod, float(w.cc_cf), w.ignores_cover, len(rows) - rank)
            for rank, (name, w) in enumerate(rows.items())}


@lru_cache(maxsize=8)
def load_tables(path: str) -> Tables:
    """The rules tables of one file (RB-TAB-*, RU-TAB-1)."""
    t = check(Fields.load(path), schema.Tables)   # keys, types and ranges: all a table file's checks
    return Tables(
        range_tn=tuple(t.range_tn), tn_cap=t.tn_cap, cover={k: getattr(t.cover, k) for k in COVER_KINDS},
        own_ms_other_level_cover=t.own_ms_other_level_cover, first_floor_drm=t.first_floor_drm,
        morale_target={q: getattr(t.morale_target, q) for q in QUALITIES}, weapons=_weapons(t.weapons),
        ap_costs={k: getattr(t.ap_costs, k) for k in t.ap_costs.__struct_fields__},
        enemy_orders=tuple((o.max, o.order) for o in t.enemy_orders),
        exposed_movement=tuple((e.min, e.max, e.effect) for e in t.exposed_movement),
        rubble_two_ap_from=t.rubble_two_ap_from, sewer_stuck_on=t.sewer_stuck_on, dc_fail_on=t.dc_fail_on,
        dc_attack_cf=t.dc_attack.cf, dc_attack_tn=t.dc_attack.tn, dc_collapse_on=t.dc_collapse_on,
        ms_first_floor_from=t.ms_first_floor_from, advanced_building=tuple((a.max, a.kind) for a in t.advanced_building),
    )


def _unit(f: Fields, spec: schema.Unit, weapons: dict) -> UnitSpec:
    if spec.weapon not in weapons:      # a weapon of the tables (or a Darkness type): not in the schema
        raise f.error("weapon", "one of " + ", ".join(weapons), spec.weapon)
    return UnitSpec(spec.id, spec.quality, spec.weapon, spec.leader)


def _group(f: Fields, spec: schema.Group, weapons: dict, feature_ids: dict) -> GroupSpec:
    if spec.at.feature is not None and feature_ids.get(spec.at.feature) != spec.at.stripe:   # on its stripe
        raise f.sub("at").error("feature", f"a feature id on stripe {spec.at.stripe}", spec.at.feature)
    units = tuple(_unit(u, us, weapons) for u, us in zip(f.items("units"), spec.units))
    return GroupSpec(spec.id, spec.at.stripe, spec.at.feature, units, spec.demo_charges, spec.sewers)


def _features(stripes: list[schema.StripeSpec]) -> tuple[tuple[FeatureSpec, ...], frozenset]:
    features = tuple(FeatureSpec(ft.id, s.stripe, ft.kind, ft.sealed, ft.complex, ft.advanced)
                     for s in stripes for ft in s.features)
    return features, frozenset(s.stripe for s in stripes if s.sewer)


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


def _options(f: Fields, spec: schema.Options, modules: tuple[str, ...]) -> dict:
    """The options the scenario's modules know (night_visibility: Darkness only): which, is not the schema's."""
    defaults = dict(OPTION_DEFAULTS)
    for m in modules:
        defaults.update(MODULE_OPTIONS.get(m, {}))
    f.sub("options", default={}).unknown(defaults)
    return {k: getattr(spec, k) for k in defaults}


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


def _darkness_type(f: Fields, name: str, spec: schema.DarknessType, weapons: dict) -> DarknessType:
    """RD-GEN-3: one row of RD-TAB-1: a name apart from the weapons', ranges when it shoots (max >= min), traits."""
    if name in weapons:
        raise f.error(name, "a Darkness type name that is not a weapon name", name)
    t = f.sub(name)
    low, high = 0, -1
    if spec.cf > 0:
        for key in ("min_range", "max_range"):
            if getattr(spec, key) is None:
                raise t.error(key, "a value (the field is missing): a type with cf > 0 shoots")
        low, high = spec.min_range, spec.max_range
        if high < low:
            raise t.error("max_range", f"an integer >= min_range ({low})", high)
    traits = _traits(t, "traits")
    return DarknessType(name, spec.cf, low, high, float(spec.cc_cf), traits.get("crawling", False), traits.get("fast", False),
                        traits.get("multiple_attacks", 1), traits.get("wounds"))


@lru_cache(maxsize=8)
def load_darkness(path: str, weapon_names: tuple[str, ...]) -> DarknessTables:
    """The Darkness module's tables (RD-TAB-1, RD-GEN-4, RD-AI-2, RD-CC-2..7, RD-TRT-2)."""
    f = Fields.load(path)
    d = check(f, schema.DarknessTables)
    types = {name: _darkness_type(f.sub("types"), name, t, dict.fromkeys(weapon_names)) for name, t in d.types.items()}
    orders = tuple((o.max, o.order) for o in d.orders)
    if orders[-1][0] < 6:               # RD-AI-2: every d6 has an order; which row is last is beyond a schema
        raise f.error("orders", "rows whose last `max` covers a 6", orders[-1][0])
    return DarknessTables(
        types=types, results_to_eliminate=d.results_to_eliminate, orders=orders, cc_cf_rounding=d.cc_cf_rounding,
        cc_modifiers={k: getattr(d.cc_modifiers, k) for k in d.cc_modifiers.__struct_fields__},
        fast_attack_min_dice=d.fast_attack_min_dice,
        crawlers=frozenset(n for n, t in types.items() if t.crawling), slots={n: i for i, n in enumerate(types)},
    )


def darkness_weapons(darkness: DarknessTables) -> dict:
    """Each Darkness type as a weapon entry, so fire, range and C/C CF read one table (RD-GEN-3)."""
    return {t.name: Weapon(t.name, t.cf, t.min_range, t.max_range, 0, t.cc_cf, False, 0) for t in darkness.types.values()}


def _victory(f: Fields, spec: schema.Hold | schema.Exit, feature_ids: dict) -> dict:
    """RB-VIC-*: the features a Hold names are this map's (not the schema's)."""
    if isinstance(spec, schema.Exit):
        return {"kind": "exit", "units_to_exit": spec.units_to_exit, "loss_eliminated": spec.loss_eliminated}
    v = f.sub("victory")
    if spec.objective not in feature_ids:
        raise v.error("objective", "one of " + ", ".join(feature_ids), spec.objective)
    for c in spec.clear_of_enemy:
        if c not in feature_ids:
            raise v.error("clear_of_enemy", "feature ids of this map", c)
    return {"kind": "hold", "objective": spec.objective, "clear_of_enemy": tuple(spec.clear_of_enemy)}


@lru_cache(maxsize=32)
def load_scenario(path: str) -> Scenario:
    """A validated scenario (rules catalog §15) with its tables."""
    return _scenario(Fields.load(path), path, path)


def load_scenario_data(data: dict, source: str = "<scenario data>") -> Scenario:
    """A scenario given as data, in the YAML files' own shape, checked as a file would be (errors name `source` as
    the file); a `darkness_tables` path is read from configs/rifles/scenarios/. Rule tests build their own maps with
    it (envs/rifles/position.py). Kept per content (the last 16): a game restored or cloned reads it again."""
    if not isinstance(data, dict):
        raise ScenarioError(source, "<top>", "a mapping of fields (a scenario as data)", type(data).__name__)
    return _FROM_DATA.get(data, lambda: _scenario(Fields(copy.deepcopy(data), source), source,
                                                  str(CONFIG_DIR / "scenarios" / "<data>")), source)


_FROM_DATA = ContentCache()   # (the data as sorted JSON, its source) -> Scenario (YAML's int keys stay ints: not reparsed)


def _scenario(f: Fields, path: str, beside: str) -> Scenario:
    """The scenario of `f` (read from `path`); `beside`: a file whose folder relative table paths start from."""
    spec = check(f, schema.Scenario)  # keys, types and ranges (envs/rifles/schema.py); what follows reads the checked file
    tables = load_tables(str(CONFIG_DIR / "tables" / f"{spec.tables}.yaml"))
    modules = tuple(spec.modules)
    weapons, darkness = tables.weapons, None      # player and fixed enemy groups carry weapons only
    if "darkness" in modules:                     # RD-GEN-1: the mission lists its Darkness types
        darkness = load_darkness(_table_path(f.str("darkness_tables"), beside), tuple(weapons))
        tables = replace(tables, weapons={**weapons, **darkness_weapons(darkness)})
    elif spec.darkness_tables is not None:
        raise f.error("darkness_tables", "no Darkness tables unless modules lists darkness", spec.darkness_tables)
    features, sewers = _features(spec.stripes)
    ids = {ft.id: ft.stripe for ft in features}
    enemy = f.sub("enemy")
    if spec.enemy.reveal_table not in spec.reveal_tables:
        raise enemy.error("reveal_table", "a table named under reveal_tables: " + ", ".join(map(str, spec.reveal_tables)),
                          spec.enemy.reveal_table)
    groups = lambda fields, specs: tuple(_group(g, gs, weapons, ids) for g, gs in zip(fields, specs))  # noqa: E731
    return Scenario(
        path=path, name=spec.name, modules=modules, turns=spec.turns, ap=spec.ap, recon_points=spec.recon_points,
        posture=spec.posture, options=_options(f, spec.options, modules), sewer_stripes=sewers, features=features,
        player_groups=groups(f.sub("player").items("groups"), spec.player.groups),
        enemy_groups=groups(enemy.items("groups", default=[]), spec.enemy.groups),
        markers=tuple((m.id, m.stripe) for m in spec.enemy.markers),
        reveal_table=_reveal_table(f.sub("reveal_tables").sub(spec.enemy.reveal_table), weapons,
                                   darkness.types if darkness else {}),
        enemy_quality=spec.enemy.quality,
        victory=_victory(f, spec.victory, ids), tables=tables, darkness=darkness,
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
    candidate = os.path.join(CONFIG_DIR, "scenarios", f"{name}.yaml")   # the path scenario_files would list for it:
    if "/" not in name and os.path.isfile(candidate):                   # one look, not a listing, for every new game
        return candidate
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
