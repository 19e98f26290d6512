"""The scenario of a built position (envs/urbanwar/position.py): a name, a path or data, with its map and profiles
changed; kept so that a saved game of a built scenario (no file says it) is rebuilt from the record its save carries."""
from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path

import msgspec

from envs.engine.scenario import ContentCache

from . import config, schema

STATS = ("AS", "SH", "ST", "T", "W", "CD", "SZ", "MV", "CAL", "FS")

SPECIALS = ("heavy_armour", "high_morale", "battleshield")

PROFILE_KEYS = set(STATS) | set(SPECIALS) | {"ranged", "cc", "role", "name"}


class PositionError(ValueError):
    """A position spec the builder cannot set up; the message names the field."""


def scenario_for(built: dict) -> config.Scenario:
    """The scenario of a position: `built["scenario"]` (a name, a path or data) with `built["map"]` (cells changed)
    and `built["profiles"]` (profiles changed); it keeps `built` when a saved game could not find it by its path."""
    return _BUILT.get(built, lambda: _scenario_for(built))

_BUILT = ContentCache()   # built record as sorted JSON -> Scenario (a clone rebuilds its scenario from its save)


def _scenario_for(built: dict) -> config.Scenario:
    given, cells, profiles = built["scenario"], built.get("map") or {}, built.get("profiles") or {}
    sc = scenario_of(given)
    if cells:
        rows = [list(r) for r in sc.map]
        for ch, at in cells.items():
            if ch not in sc.tables.terrain:
                raise PositionError(f"map.{ch}: expected a terrain character of UW-TAB-2 ({''.join(sc.tables.terrain)})")
            for x, y in at:
                if not (0 <= x < config.SIZE and 0 <= y < config.SIZE):
                    raise PositionError(f"map.{ch}: expected cells [x, y] in 0..{config.SIZE - 1}, got {[x, y]}")
                rows[y][x] = ch
        sc = replace(sc, map=tuple("".join(r) for r in rows))
    if profiles:
        sc = replace(sc, tables=replace(sc.tables, profiles=_profiles(sc.tables, profiles)))
    if isinstance(given, dict) or cells or profiles:
        sc = replace(sc, built=copy.deepcopy(built))
    return sc


def scenario_of(given) -> config.Scenario:
    """A scenario's name under configs/urbanwar/scenarios, a path to a YAML file, or a scenario as data (a dict)."""
    try:
        if isinstance(given, dict):
            return config.load_scenario_data(given, "position.scenario")
        if isinstance(given, Path) or (isinstance(given, str) and ("/" in given or given.endswith((".yaml", ".yml")))):
            path = Path(given).resolve()
            if not path.is_file():
                raise PositionError(f"position: scenario: no scenario file {str(given)!r}")
            return config.load_scenario(str(path))
        if isinstance(given, str):
            return config.load_scenario(config.scenario_path(given))
    except ValueError as err:
        if isinstance(given, dict) or isinstance(err, PositionError):
            raise
        raise PositionError(f"position: scenario: {err}") from None
    raise PositionError(f"position: scenario: expected a name, a path or a dict, got {type(given).__name__}")


def _profiles(tables: config.Tables, changes: dict) -> dict:
    """Profiles of the tables with some fields changed, checked as the tables file is (UW-STAT-1 ranges, weapons of
    UW-TAB-3); the key stays, so a saved model finds its profile again."""
    out = dict(tables.profiles)
    for key, fields in changes.items():
        if key not in tables.profiles:
            raise PositionError(f"profiles.{key}: expected a profile of the tables ({', '.join(tables.profiles)})")
        unknown = sorted(set(fields) - PROFILE_KEYS)
        if unknown:
            raise PositionError(f"profiles.{key}.{unknown[0]}: expected one of {', '.join(sorted(PROFILE_KEYS))}")
        p = tables.profiles[key]
        stats = [fields.get(s, getattr(p, s)) for s in STATS]
        data = {"name": fields.get("name", p.name), "stats": stats, "ranged": fields.get("ranged", p.ranged),
                "cc": fields.get("cc", p.cc), "role": fields.get("role", p.role),
                "special": {s: fields.get(s, getattr(p, s)) for s in SPECIALS}}
        try:
            checked = msgspec.convert(data, schema.Profile, strict=True)
        except msgspec.ValidationError as err:
            raise PositionError(f"profiles.{key}: {err}") from None
        for weapon in ("ranged", "cc"):
            if getattr(checked, weapon) not in tables.weapons:
                raise PositionError(f"profiles.{key}.{weapon}: expected one of {', '.join(tables.weapons)}, "
                                    f"got {getattr(checked, weapon)!r}")
        out[key] = config.Profile(key, checked.name, *checked.stats, ranged=checked.ranged, cc=checked.cc,
                                  heavy_armour=checked.special.heavy_armour, high_morale=checked.special.high_morale,
                                  battleshield=checked.special.battleshield, role=checked.role)
    return out
