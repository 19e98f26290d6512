"""A variant made playable: its scenario and tables files with the variant's edits, written where the rulesets load
them, and its games started with its rule options.

Edited files are derived from the committed ones in each process that plays (a worker on another machine included),
under the temp folder, named by a hash of their content: the same variant gives the same files everywhere.
"""
from __future__ import annotations

import hashlib
import tempfile
from functools import lru_cache
from pathlib import Path

import yaml

from envs.engine.scenario import load_yaml


def config_folder(rs) -> Path:
    """configs/<ruleset>/: the folder above the ruleset's scenarios/."""
    return Path(rs.scenarios()[rs.default_scenario]).parent.parent


def base_path(rs, scenario: str) -> str | None:
    """The YAML file of a scenario name or path, or None if the ruleset has no such scenario."""
    known = rs.scenarios()
    if scenario in known:
        return str(known[scenario])
    if str(scenario).endswith((".yaml", ".yml")) and Path(scenario).is_file():
        return str(Path(scenario).resolve())
    return None


def default_options(rs, scenario: str) -> dict:
    """The rule options a game of this scenario (a name or a path) plays with when no variant changes them."""
    # Rule options are a TaskGame notion (envs.engine.taskgame); a state without them has none to vary.
    return dict(getattr(rs.new_game(scenario=scenario, seed=0), "options", {}))


def _tables_path(scenario_path: str) -> Path:
    data = load_yaml(scenario_path) or {}
    return Path(scenario_path).parent.parent / "tables" / f"{data.get('tables', 'standard')}.yaml"


def table_fields(scenario_path: str) -> dict:
    """The scalar fields of the tables file a scenario names (dotted), with their values."""
    from .options import scalar_fields

    path = _tables_path(scenario_path)
    return scalar_fields(load_yaml(path) or {}) if path.is_file() else {}


def set_field(data: dict, dotted: str, value) -> None:
    """Replace the value at a dotted path of nested mappings (the path exists: the variant was checked)."""
    *parents, last = dotted.split(".")
    for key in parents:
        data = data[key]
    data[last] = value


def _write(text: str, suffix: str) -> Path:
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    folder = Path(tempfile.gettempdir()) / "rubble-playtest" / digest
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / suffix
    if not path.exists():
        tmp = folder / f".{suffix}.part"
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)   # atomic: parallel workers never read half a file
    return path


def edited_text(base: str, scenario_edits: dict, table_edits: dict) -> str:
    """The scenario YAML of a variant: the base file with its field edits, pointing at edited tables if any."""
    data = load_yaml(base) or {}
    for key, value in scenario_edits.items():
        set_field(data, key, value)
    for key in ("darkness_tables",):   # a path relative to the base scenario stays valid from the temp folder
        if str(data.get(key, "")).endswith((".yaml", ".yml")):
            data[key] = str((Path(base).parent / data[key]).resolve())
    if table_edits:
        tables = load_yaml(_tables_path(base))
        for key, value in table_edits.items():
            set_field(tables, key, value)
        written = _write(yaml.safe_dump(tables, sort_keys=False), "tables.yaml")
        # The rulesets read `tables: NAME` as configs/<ruleset>/tables/NAME.yaml; an absolute NAME replaces the folder.
        data["tables"] = str(written.with_suffix(""))
    return yaml.safe_dump(data, sort_keys=False)


@lru_cache(maxsize=64)
def _scenario_file(base: str, edits: tuple, table_edits: tuple) -> str:
    return str(_write(edited_text(base, dict(edits), dict(table_edits)), "scenario.yaml"))


def scenario_file(rs, variant) -> str:
    """The scenario a variant plays: the committed one (as named), or its edited copy."""
    if not variant.scenario_edits and not variant.table_edits:
        return variant.scenario   # by name where it is one: not every ruleset takes a path (k47 adds .yaml to it)
    base = base_path(rs, variant.scenario)
    return _scenario_file(base, tuple(sorted(variant.scenario_edits.items())), tuple(sorted(variant.table_edits.items())))


def new_game(rs, variant, seed: int, dice=None):
    """Game `seed` of a variant: its scenario, its rule options and the dice stream of `seed` (or the dice given)."""
    return rs.new_game(scenario=scenario_file(rs, variant), seed=seed, dice=dice, **variant.options)
