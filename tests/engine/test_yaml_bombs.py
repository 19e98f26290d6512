"""A config file cannot make a loader hang or eat memory: YAML aliases are refused before they expand (no committed
config uses one), and every count a ruleset repeats work by is bounded by its schema; each refusal is one line naming
the file (and the field, with the range allowed)."""
from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
import yaml

from agents import distilled
from envs.cityfight import config as cityfight
from envs.engine.scenario import Fields, ScenarioError, load_yaml
from envs.k47 import config as k47
from envs.paths import PROJECT_ROOT
from envs.rifles import config as rifles
from envs.urbanwar import config as urbanwar

SECONDS = 1.0


def laughs(levels: int = 9) -> str:
    """The "billion laughs": 342 bytes whose nested aliases expand to 9**9 strings."""
    lines = ["a0: &a0 [" + ", ".join(['"lol"'] * 9) + "]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def refusal(load, path) -> tuple[str, float]:
    """The one-line error of `load(path)` and the seconds it took."""
    start = time.perf_counter()
    with pytest.raises(ValueError) as caught:
        load(path)
    return str(caught.value), time.perf_counter() - start


@pytest.mark.parametrize("load", [Fields.load, load_yaml, rifles.load_scenario, cityfight.load_scenario,
                                  k47.load_scenario, urbanwar.load_scenario, urbanwar.load_tables, distilled.read_list],
                         ids=["Fields.load", "load_yaml", "rifles", "cityfight", "k47", "urbanwar", "urbanwar-tables",
                              "distilled"])
def test_an_alias_bomb_is_refused_at_once_naming_the_file(tmp_path, load):
    path = tmp_path / "laughs.yaml"
    path.write_text(laughs(), encoding="utf-8")
    message, seconds = refusal(load, str(path))
    assert message.startswith(f"{path}") and "\n" not in message and "alias" in message, message
    assert seconds < SECONDS


def test_no_committed_config_uses_an_alias():
    committed = [p for root in ("configs", "results", "examples") for p in (PROJECT_ROOT / root).rglob("*.yaml")]
    assert committed
    for path in committed:
        events = yaml.parse(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
        assert not any(isinstance(e, yaml.AliasEvent) for e in events), f"{path} uses an alias"


def test_one_alias_is_refused_with_its_line(tmp_path):
    path = tmp_path / "one.yaml"
    path.write_text("turns: &t 8\nap: *t\n", encoding="utf-8")
    with pytest.raises(ScenarioError, match=rf"^{path}:2: field '<file>': expected YAML without aliases"):
        Fields.load(path)


def changed(tmp_path: Path, source: str, change) -> str:
    """`source` (a committed YAML file) with `change(data)` applied, written beside the test."""
    data = load_yaml(source)
    change(data)
    path = tmp_path / Path(source).name
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return str(path)


def k47_count(data):
    data["sides"][0]["units"][0]["models"][0]["count"] = 100_000_000


def rifles_ap(data):
    data["ap"] = 100_000_000


def rifles_charges(data):
    data["player"]["groups"][0]["demo_charges"] = 100_000_000


def urbanwar_dice(data):
    data["weapons"]["smg"]["short"][1] = 100_000_000


def urbanwar_rolls(data):
    data["weapons"]["smg"]["short"][3] = 100_000_000


HUGE = [
    (k47.load_scenario, k47.scenario_path(None), k47_count, r"sides\[0\]\.units\[0\]\.models\[0\]\.count", "1..10"),
    (rifles.load_scenario, rifles.scenario_path(None), rifles_ap, r"ap", "1..20"),
    (rifles.load_scenario, rifles.scenario_path(None), rifles_charges, r"player\.groups\[0\]\.demo_charges", "0..20"),
    (urbanwar.load_tables, str(PROJECT_ROOT / "configs/urbanwar/tables/standard.yaml"), urbanwar_dice,
     r"weapons\.smg\.short\[1\]", "1..20"),
    (urbanwar.load_tables, str(PROJECT_ROOT / "configs/urbanwar/tables/standard.yaml"), urbanwar_rolls,
     r"weapons\.smg\.short\[3\]", "1..10"),
]


@pytest.mark.parametrize("load, source, change, field, allowed", HUGE, ids=[h[2].__name__ for h in HUGE])
def test_a_huge_count_is_refused_naming_file_field_and_range(tmp_path, load, source, change, field, allowed):
    path = changed(tmp_path, source, change)
    message, seconds = refusal(load, path)
    assert message.startswith(path) and "\n" not in message, message
    assert re.search(rf"field '{field}': expected an integer in {allowed}( \([a-z ]+\))?, got 100000000", message), message
    assert seconds < SECONDS
