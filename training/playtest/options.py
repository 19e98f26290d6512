"""What a playtest may vary: a ruleset's rule options and its scenario's fields, each with its default and rule ID.

Rule options are the scenario's `options:` (the [DESIGN] defaults and module switches the catalogs mark as
configurable); the rule ID of an option or field is the one its line in the scenario file cites in a comment.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from envs.engine.scenario import load_yaml

RULE_ID = re.compile(r"\b([A-Z]{2,3}(?:-[A-Z0-9]+)+)\b")
KEY_LINE = re.compile(r"^(?P<indent> *)(?P<key>[A-Za-z_][\w]*):(?P<rest>.*)$")


@dataclass(frozen=True)
class Setting:
    """One thing a variant may set: a rule option or a scalar scenario field."""

    key: str          # an option name, or a dotted scenario field (`turns`, `enemy.quality`)
    default: object
    rule: str         # the rule ID cited beside it in the scenario file ('' if none)
    kind: str         # "option" or "field"


def cited_rules(path: str | Path) -> dict[str, str]:
    """Dotted key -> the first rule ID its line's comment cites, for every `key:` line of a YAML file."""
    cited, stack = {}, []   # stack of (indent, key) of the mappings the line is inside
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        match = KEY_LINE.match(line)
        if match is None:
            continue
        indent = len(match["indent"])
        while stack and stack[-1][0] >= indent:
            stack.pop()
        dotted = ".".join([k for _, k in stack] + [match["key"]])
        comment = match["rest"].partition("#")[2]
        rule = RULE_ID.search(comment)
        if rule:
            cited[dotted] = rule.group(1)
        stack.append((indent, match["key"]))
    return cited


def scalar_fields(data, prefix: str = "") -> dict[str, object]:
    """Every scalar (number, bool, string) reachable through mappings only: the fields a value can replace."""
    found = {}
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict):
            found.update(scalar_fields(value, dotted + "."))
        elif isinstance(value, (int, float, str, bool)) and not (isinstance(value, str) and "\n" in value):
            found[dotted] = value
    return found


def source_rule(source: str, key: str) -> str:
    """The rule ID cited in a comment on a source line that names `key` in quotes (the ruleset's option defaults)."""
    for line in source.splitlines():
        code, _, comment = line.partition("#")
        rule = RULE_ID.search(comment)
        if rule and (f'"{key}"' in code or f"'{key}'" in code):
            return rule.group(1)
    return ""


def rule_options(options: dict, scenario_path: str, config_source: str = "", naming=lambda key: []) -> list[Setting]:
    """The rule options a game plays with (its merged `options`), with the rule ID the scenario cites (else the one
    the ruleset's config module cites beside the option's default) and every catalog rule that names the option
    (`naming(key)`: catalog.naming_rules)."""
    cited = cited_rules(scenario_path)
    settings = []
    for k, v in sorted(options.items()):
        own = cited.get(f"options.{k}") or source_rule(config_source, k)
        ids = list(dict.fromkeys([own, *naming(k)] if own else naming(k)))
        settings.append(Setting(k, v, ", ".join(ids), "option"))
    return settings


def scenario_fields(scenario_path: str) -> list[Setting]:
    """The scalar fields of a scenario file (options excepted), with the rule ID each cites."""
    data = load_yaml(scenario_path) or {}
    cited = cited_rules(scenario_path)
    return [Setting(k, v, cited.get(k, ""), "field") for k, v in scalar_fields(data).items()
            if not k.startswith(("options.", "name"))]


def format_settings(options: list[Setting], fields: list[Setting], scenario_name: str) -> str:
    """The `--list-options` table: rule options first, then the scenario's numeric and named fields."""
    lines = [f"rule options (scenario {scenario_name}; set with --variant NAME KEY=VALUE or in a playtest file):"]
    lines += [f"  {s.key:<28} default {s.default!s:<10} {s.rule or '(no catalog rule names it)'}" for s in options]
    lines.append("scenario fields (dotted; numbers may be tuned with --tune FIELD=LOW..HIGH):")
    lines += [f"  {s.key:<28} default {s.default!s:<10} {s.rule}".rstrip() for s in fields]
    lines.append("tables fields: tables.FIELD (dotted) sets a field of the scenario's tables file")
    return "\n".join(lines)
