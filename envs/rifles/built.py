"""The scenario of a built position (envs/rifles/position.py): a name, a path or data, with its weapons changed; kept
so that a saved game of a built scenario (no file says it) is rebuilt from the record its save carries."""
from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path

import msgspec

from envs.engine.scenario import ContentCache, ScenarioError

from . import config, schema

WEAPON_STATS = ("cf", "min_range", "max_range", "cc_mod", "cc_cf", "ignores_cover")


class PositionError(ValueError):
    """A position spec the builder cannot set up; the message names the field."""


def scenario_for(built: dict) -> config.Scenario:
    """The scenario of a position: `built["scenario"]` (a name, a path or data) with `built["weapons"]` (RB-TAB-3
    rows changed); it keeps `built` when a saved game could not find it again by its path alone."""
    return _BUILT.get(built, lambda: _scenario_for(built))

_BUILT = ContentCache()   # built record as sorted JSON -> Scenario (a clone rebuilds its scenario from its save)


def _scenario_for(built: dict) -> config.Scenario:
    given, weapons = built["scenario"], built.get("weapons") or {}
    base = scenario_of(given)
    if not isinstance(weapons, dict):
        raise PositionError(f"position: weapons: expected a mapping of weapon -> stats, got {weapons!r}")
    if weapons:
        base = replace(base, tables=replace(base.tables, weapons=_weapons(base.tables.weapons, weapons)))
    if isinstance(given, dict) or weapons:
        base = replace(base, built=copy.deepcopy(built))
    return base


def scenario_of(given) -> config.Scenario:
    """A scenario's name under configs/rifles/scenarios, a path to a YAML file, or a scenario as data (a dict)."""
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
    except KeyError as err:
        raise PositionError(f"position: scenario: {err.args[0]}") from None
    except ScenarioError as err:
        if isinstance(given, dict):
            raise
        raise PositionError(f"position: scenario: {err}") from None
    raise PositionError(f"position: scenario: expected a name, a path or a dict, got {type(given).__name__}")


def _weapons(rows: dict, changes: dict) -> dict:
    """RB-TAB-3 rows with some stats changed (checked as the tables file is); heaviness (RB-TAB-5) stays."""
    out = dict(rows)
    for name, stats in changes.items():
        row = rows.get(name)
        if row is None or row.heaviness == 0:          # heaviness 0: a Darkness type (RD-TAB-1), not a weapon row
            known = ", ".join(n for n, w in rows.items() if w.heaviness > 0)
            raise PositionError(f"position: weapons.{name}: expected a weapon of RB-TAB-3 ({known})")
        check_keys(f"weapons.{name}", stats, set(WEAPON_STATS))
        try:
            checked = msgspec.convert({**{k: getattr(row, k) for k in WEAPON_STATS}, **stats}, schema.WeaponRow,
                                      strict=True)
        except msgspec.ValidationError as err:
            raise PositionError(f"position: weapons.{name}: {err}") from None
        out[name] = replace(row, **{**{k: getattr(checked, k) for k in WEAPON_STATS}, "cc_cf": float(checked.cc_cf)})
    return out


def check_keys(field: str, given: dict, known: set) -> None:
    if not isinstance(given, dict):
        raise PositionError(f"{field}: expected a mapping, got {given!r}")
    unknown = sorted(set(given) - known)
    if unknown:
        raise PositionError(f"{field}: unknown key {unknown[0]!r}; known: {', '.join(sorted(known))}")
