"""A playtest as data: a ruleset, a scenario, the agents and two or more variants, from a YAML file or the CLI.

A variant sets any of: rule options (`exposed_movement: false`), `scenario: NAME`, scenario fields by dotted
path (`turns: 8`, `enemy.quality: veteran`) and tables fields (`tables.tn_cap: 5`). A bad field or value fails
in one line naming the file (or `command line`), the field and what was expected.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from envs import registry
from envs.engine.scenario import ScenarioError, load_yaml
from envs.paths import PROJECT_ROOT

from . import scenario as playtest_scenario
from .dice import PAIRINGS
from .options import scalar_fields

COMMAND_LINE = "command line"
TOP_FIELDS = ("name", "ruleset", "scenario", "games", "seed", "agents", "pairing", "variants", "description")


@dataclass(frozen=True)
class Variant:
    """One version of the game: the scenario it plays, its rule options and its edits of scenario/tables fields."""

    name: str
    scenario: str                                   # a scenario name of the ruleset, or a YAML path
    options: dict = field(default_factory=dict)
    scenario_edits: dict = field(default_factory=dict)   # dotted field -> value
    table_edits: dict = field(default_factory=dict)      # dotted field of the tables file -> value

    def settings(self) -> dict:
        """Everything this variant sets, as the user wrote it (for the report)."""
        tables = {f"tables.{k}": v for k, v in self.table_edits.items()}
        return {**self.options, **self.scenario_edits, **tables}


@dataclass(frozen=True)
class Playtest:
    """What `rubble playtest` runs."""

    name: str
    ruleset: str
    variants: tuple[Variant, ...]
    games: int = 200
    seed: int = 0
    source: str = COMMAND_LINE      # the playtest file, or the command line
    description: str = ""
    agents: tuple[str, ...] | None = None   # table 1's agent per side; None: scripted, or the command line's
    pairing: str = PAIRINGS[0]              # how paired games share dice (playtest_dice)


def shown_path(path) -> str:
    """A file path relative to the repo root when it lies inside it (reports name committed files portably)."""
    resolved = Path(path).resolve()
    return str(resolved.relative_to(PROJECT_ROOT)) if resolved.is_relative_to(PROJECT_ROOT) else str(path)


def _error(source: str, where: str, expected: str, got=None) -> ScenarioError:
    return ScenarioError(source, where, expected, got)


def parse_value(text: str):
    """A command-line value as YAML reads it: 5 -> int, false -> bool, veteran -> str."""
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return text


def same_kind(default, value) -> bool:
    """Whether `value` may replace `default`: bools stay bools, numbers stay numbers, strings stay strings."""
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(default, bool) and isinstance(value, bool)
    if isinstance(default, (int, float)):
        return isinstance(value, (int, float)) and (isinstance(default, float) or isinstance(value, int))
    return type(value) is type(default)


def _kind_name(value) -> str:
    return {bool: "true or false", int: "an integer", float: "a number", str: "a string"}.get(type(value), type(value).__name__)


class VariantBuilder:
    """Sorts what a variant sets into options, scenario and tables edits, checking every key and value."""

    def __init__(self, rs, scenario: str | None) -> None:
        self.rs = rs
        self.scenario = scenario or rs.default_scenario

    def _known(self, scenario: str, source: str, where: str):
        """The scenario's file and what a variant of it may set: rule options, scenario fields, tables fields."""
        path = playtest_scenario.base_path(self.rs, scenario)
        if path is None:
            raise _error(source, f"{where}.scenario", "a scenario of " + self.rs.name + ": "
                         + ", ".join(sorted(self.rs.scenarios())), scenario)
        fields = scalar_fields(load_yaml(path) or {})
        return path, playtest_scenario.default_options(self.rs, scenario), fields, playtest_scenario.table_fields(path)

    def default(self, key: str, source: str = COMMAND_LINE, where: str = "--tune"):
        """The committed value of a key a variant may set (to tell an integer field from a real one)."""
        path, options, fields, tables = self._known(self.scenario, source, where)
        kind, known = self._classify(key, options, fields, tables)
        if kind is None:
            raise _error(source, f"{where} {key}", f"a rule option, a scalar field of {Path(path).name} or tables.FIELD",
                         "unknown field")
        return known

    def build(self, name: str, settings: dict, source: str, where: str) -> Variant:
        scenario = settings.get("scenario", self.scenario)
        path, options, fields, tables = self._known(scenario, source, where)
        sorted_ = {"options": {}, "scenario": {}, "tables": {}}
        for key, value in settings.items():
            if key == "scenario":
                continue
            kind, known = self._classify(key, options, fields, tables)
            if kind is None:
                raise _error(source, f"{where}.{key}", "a rule option (" + ", ".join(sorted(options)) + "), scenario, "
                             f"a scalar field of {Path(path).name} (e.g. turns) or tables.FIELD", "unknown field")
            if not same_kind(known, value):
                raise _error(source, f"{where}.{key}", _kind_name(known), value)
            sorted_[kind][key.removeprefix("tables.") if kind == "tables" else key] = value
        variant = Variant(name, scenario, sorted_["options"], sorted_["scenario"], sorted_["tables"])
        self._check_plays(variant, source, where)
        return variant

    @staticmethod
    def _classify(key: str, options: dict, fields: dict, tables: dict):
        if key in options:
            return "options", options[key] if options[key] is not None else ""
        if key.startswith("tables.") and key.removeprefix("tables.") in tables:
            return "tables", tables[key.removeprefix("tables.")]
        if key in fields:
            return "scenario", fields[key]
        return None, None

    def _check_plays(self, variant: Variant, source: str, where: str) -> None:
        """Let the ruleset load the variant: a value its rules refuse fails here, named as the user wrote it."""
        try:
            playtest_scenario.new_game(self.rs, variant, seed=0)
        except ScenarioError as exc:
            if exc.field in variant.scenario_edits or exc.field in variant.table_edits:
                key = exc.field if exc.field in variant.scenario_edits else f"tables.{exc.field}"
                raise _error(source, f"{where}.{key}", exc.expected) from None
            raise   # not the variant's edit: the committed file itself is at fault, and the error names it
        except ValueError as exc:
            raise _error(source, where, f"rule options the ruleset accepts ({exc})") from None


def _settings(data, source: str, where: str) -> dict:
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise _error(source, where, "a mapping of option or field -> value", data)
    return data


def _count(data: dict, key: str, default: int, source: str, minimum: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise _error(source, key, f"an integer >= {minimum}", value)
    return value


def load_playtest(path: str | Path, rs) -> Playtest:
    """A playtest file (configs/<ruleset>/playtests/*.yaml), validated against the ruleset `rs`."""
    source = shown_path(path)
    try:
        data = load_yaml(path) or {}
    except FileNotFoundError:
        raise _error(source, "<file>", "an existing YAML file") from None
    except yaml.YAMLError as err:
        raise _error(source, "<file>", f"valid YAML ({err})") from None
    if not isinstance(data, dict):
        raise _error(source, "<top>", "a mapping of fields", type(data).__name__)
    for key in data:
        if key not in TOP_FIELDS:
            raise _error(source, str(key), "a known field: " + ", ".join(TOP_FIELDS), "unknown field")
    if data.get("ruleset", rs.name) != rs.name:
        raise _error(source, "ruleset", f"{rs.name} (the environment named on the command line)", data["ruleset"])
    variants = data.get("variants")
    if not isinstance(variants, dict) or len(variants) < 2:
        raise _error(source, "variants", "a mapping of two or more variant names -> settings", variants)
    builder = VariantBuilder(rs, data.get("scenario"))
    built = tuple(builder.build(str(n), _settings(s, source, f"variants.{n}"), source, f"variants.{n}")
                  for n, s in variants.items())
    return Playtest(str(data.get("name", Path(path).stem)), rs.name, built, _count(data, "games", 200, source, 1),
                    _count(data, "seed", 0, source, 0), source, str(data.get("description", "")), _agents(data, rs, source),
                    _pairing(data, source))


def _pairing(data: dict, source: str) -> str:
    value = data.get("pairing", PAIRINGS[0])
    if value not in PAIRINGS:
        raise _error(source, "pairing", "one of " + ", ".join(PAIRINGS), value)
    return value


def _agents(data: dict, rs, source: str) -> tuple[str, ...] | None:
    """`agents: [scripted, random]`: an agent name (or trained model .zip) per side, in side order."""
    if "agents" not in data:
        return None
    names = data["agents"]
    expected = f"a list of {len(rs.sides)} agent names, one per side ({', '.join(rs.sides)})"
    if not isinstance(names, list) or len(names) != len(rs.sides) or not all(isinstance(n, str) for n in names):
        raise _error(source, "agents", expected, names)
    known = registry.agents(rs.name)
    for i, name in enumerate(names):
        if name not in known and not name.endswith(".zip"):
            raise _error(source, f"agents[{i}]", "an agent of " + rs.name + ": " + ", ".join(known) + " or a model .zip", name)
    return tuple(names)


def variant_from_words(builder: VariantBuilder, words: list[str]) -> Variant:
    """`--variant NAME KEY=VALUE ...` as a Variant; a word without `=` fails naming it."""
    name, *pairs = words
    settings = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key:
            raise _error(COMMAND_LINE, f"--variant {name}", "KEY=VALUE words after the variant name", pair)
        settings[key] = parse_value(value)
    return builder.build(name, settings, COMMAND_LINE, f"--variant {name}")


def playtest_files(rs) -> dict[str, Path]:
    """The committed playtests of a ruleset: configs/<ruleset>/playtests/*.yaml whose `ruleset` is it."""
    folder = playtest_scenario.config_folder(rs) / "playtests"
    found = {}
    for path in sorted(folder.glob("*.yaml")):
        data = load_yaml(path) or {}
        if isinstance(data, dict) and data.get("ruleset") == rs.name:
            found[path.stem] = path
    return found
