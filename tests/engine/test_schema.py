"""The scenario schemas: the committed JSON Schemas are current, accept every committed scenario (as a designer's
editor checks them) and refuse what the loaders refuse; the loaders' errors name file, line and field."""
from __future__ import annotations

import json

import pytest
import yaml

from envs.engine.scenario import Fields, ScenarioError
from envs.engine.schema import SCHEMA_COMMENT, check, schema_text
from envs.paths import PROJECT_ROOT
from envs.schemas import SCHEMAS, TABLE_SCHEMAS, schema_path

SCENARIOS = [(folder, path) for folder in SCHEMAS for path in sorted((PROJECT_ROOT / "configs" / folder / "scenarios").glob("*.yaml"))]
IDS = [f"{folder}/{path.stem}" for folder, path in SCENARIOS]


@pytest.mark.parametrize("folder", SCHEMAS)
def test_the_committed_schema_is_current(folder):
    spec, title = SCHEMAS[folder]
    assert schema_path(folder).read_text(encoding="utf-8") == schema_text(spec, title), "run: python -m envs.schemas"


@pytest.mark.parametrize("folder, path", SCENARIOS, ids=IDS)
def test_every_scenario_names_its_schema_for_the_editor(folder, path):
    assert path.read_text(encoding="utf-8").splitlines()[0] == SCHEMA_COMMENT.format("../scenario.schema.json")


@pytest.mark.parametrize("folder, path", SCENARIOS, ids=IDS)
def test_every_scenario_passes_its_schema_as_the_editor_checks_it(folder, path):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(schema_path(folder).read_text(encoding="utf-8"))
    data = _json_keys(yaml.safe_load(path.read_text(encoding="utf-8")))
    jsonschema.validate(data, schema)
    check(Fields.load(path), SCHEMAS[folder][0])


@pytest.mark.parametrize("folder, path", SCENARIOS, ids=IDS)
def test_the_editor_refuses_an_unknown_key_and_an_out_of_range_turn_limit(folder, path):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(schema_path(folder).read_text(encoding="utf-8"))
    data = _json_keys(yaml.safe_load(path.read_text(encoding="utf-8")))
    for bad in ({**data, "turn": 5}, {**data, "turns": 10**12}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema)


def _json_keys(data):
    """The YAML as JSON sees it (the language server too): mapping keys are strings."""
    if isinstance(data, dict):
        return {str(k): _json_keys(v) for k, v in data.items()}
    return [_json_keys(v) for v in data] if isinstance(data, list) else data


def test_a_schema_error_names_file_line_field_and_expectation(tmp_path):
    from envs.rifles import schema

    text = (PROJECT_ROOT / "configs" / "rifles" / "scenarios" / "block_six.yaml").read_text(encoding="utf-8")
    path = tmp_path / "bad.yaml"
    cases = [("turns: 10 ", "turns: 1000 ", "turns", "an integer in 1..100", "1000"),
             ("{id: A2, quality: regular", "{id: A2, quality: regulr", "player.groups[0].units[1].quality",
              "one of recruit, regular, veteran", "'regulr'"),
             ("kind: hold", "kind: hodl", "victory.kind", "one of hold, exit", "'hodl'"),
             ("  - stripe: 1\n", "  - stripe: 9\n", "stripes[0].stripe", "an integer in 1..6 (a stripe, RB-MAP-1)", "9")]
    for old, new, field, expected, got in cases:
        assert old in text
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        line = next(i for i, row in enumerate(path.read_text().splitlines(), 1) if new.strip() in row)
        with pytest.raises(ScenarioError) as info:
            check(Fields.load(path), schema.Scenario)
        assert str(info.value) == f"{path}:{line}: field '{field}': expected {expected}, got {got}"


@pytest.mark.parametrize("schema_file", TABLE_SCHEMAS)
def test_table_schemas_are_current_and_accept_their_files_as_the_editor_checks_them(schema_file):
    jsonschema = pytest.importorskip("jsonschema")
    spec, title, tables = TABLE_SCHEMAS[schema_file]
    path = PROJECT_ROOT / "configs" / schema_file
    assert path.read_text(encoding="utf-8") == schema_text(spec, title), "run: python -m envs.schemas"
    for table in tables:
        file = PROJECT_ROOT / "configs" / table
        assert file.read_text(encoding="utf-8").splitlines()[0] == SCHEMA_COMMENT.format(f"../{path.name}")
        jsonschema.validate(_json_keys(yaml.safe_load(file.read_text(encoding="utf-8"))), json.loads(path.read_text()))
        check(Fields.load(file), spec)


def test_a_table_typo_is_refused_with_the_nearest_known_key(tmp_path):
    from envs.rifles import config

    text = (PROJECT_ROOT / "configs" / "rifles" / "tables" / "standard.yaml").read_text(encoding="utf-8")
    path = tmp_path / "standard.yaml"
    path.write_text(text.replace("  smg:          {cf: 2, min_range:", "  smg:          {cf: 2, min_rang:"), encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        config.load_tables(str(path))
    assert info.value.field == "weapons.smg.min_rang" and "did you mean 'min_range'?" in str(info.value)
    assert info.value.line == next(i for i, row in enumerate(text.splitlines(), 1) if row.startswith("  smg:"))


def test_an_error_inside_a_mapping_names_its_key(tmp_path):
    from envs.rifles import config

    text = (PROJECT_ROOT / "configs" / "rifles" / "tables" / "standard.yaml").read_text(encoding="utf-8")
    path = tmp_path / "standard.yaml"
    path.write_text(text.replace("  lmg:          {cf: 2,", "  lmg:          {cf: -2,"), encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        config.load_tables(str(path))
    line = next(i for i, row in enumerate(text.splitlines(), 1) if row.startswith("  lmg:"))
    assert str(info.value) == f"{path}:{line}: field 'weapons.lmg.cf': expected an integer >= 0, got -2"


def test_a_bad_key_inside_a_mapping_is_named(tmp_path):
    from envs.rifles import config

    text = (PROJECT_ROOT / "configs" / "rifles" / "scenarios" / "block_six.yaml").read_text(encoding="utf-8")
    path = tmp_path / "bad.yaml"
    path.write_text(text.replace("    2: [rifle, rifle]\n", "    2: [rifle, rifle]\n    two: []\n", 1), encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        config.load_scenario(str(path))
    line = path.read_text().splitlines().index("    two: []") + 1
    assert str(info.value) == f"{path}:{line}: field 'reveal_tables.standard.two': expected an integer as a key, got 'two'"
