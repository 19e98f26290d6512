"""Fields / ScenarioError: every accessor fails naming the file, the dotted field path and what was expected."""
from __future__ import annotations

import pytest

from envs.engine.scenario import Fields, ScenarioError

YAML = """\
name: Block Six
turns: 10
ratio: 0.5
flag: true
player:
  side: attacker
  groups:
    - {size: 3, quality: regular}
    - {size: many, quality: veteran}
"""


@pytest.fixture
def fields(tmp_path) -> Fields:
    path = tmp_path / "block.yaml"
    path.write_text(YAML, encoding="utf-8")
    return Fields.load(path)


def _error(call) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        call()
    return info.value


def _assert_names(err: ScenarioError, file_end: str, field: str, expected: str) -> None:
    assert err.file.endswith(file_end) and err.field == field and expected in err.expected
    assert file_end in str(err) and f"'{field}'" in str(err) and expected in str(err)


def test_good_values_read(fields):
    assert fields.int("turns", min=1) == 10
    assert fields.number("ratio") == 0.5
    assert fields.bool("flag") is True
    assert fields.str("name") == "Block Six"
    assert fields.sub("player").choice("side", ["attacker", "defender"]) == "attacker"
    assert [g.int("size") for g in fields.sub("player").items("groups")[:1]] == [3]


def test_defaults_apply_when_missing(fields):
    assert fields.int("ap", default=4) == 4
    assert fields.list("extras", default=[]) == []
    assert not fields.has("ap")


def test_missing_field(fields):
    _assert_names(_error(lambda: fields.int("ap")), "block.yaml", "ap", "the field is missing")


def test_int_wrong_type(fields):
    _assert_names(_error(lambda: fields.int("name")), "block.yaml", "name", "an integer")


def test_int_rejects_bool(fields):
    _assert_names(_error(lambda: fields.int("flag")), "block.yaml", "flag", "an integer")


def test_int_out_of_range(fields):
    _assert_names(_error(lambda: fields.int("turns", min=1, max=6)), "block.yaml", "turns", "an integer in 1..6")


def test_number_wrong_type_and_min(fields):
    _assert_names(_error(lambda: fields.number("name")), "block.yaml", "name", "a number")
    _assert_names(_error(lambda: fields.number("ratio", min=1)), "block.yaml", "ratio", "a number >= 1")


def test_bool_wrong_type(fields):
    _assert_names(_error(lambda: fields.bool("turns")), "block.yaml", "turns", "true or false")


def test_str_wrong_type(fields):
    _assert_names(_error(lambda: fields.str("turns")), "block.yaml", "turns", "a string")


def test_choice_outside_options(fields):
    err = _error(lambda: fields.sub("player").choice("side", ["red", "blue"]))
    _assert_names(err, "block.yaml", "player.side", "one of red, blue")


def test_sub_wrong_type(fields):
    _assert_names(_error(lambda: fields.sub("turns")), "block.yaml", "turns", "a mapping of fields")


def test_list_wrong_type_and_length(fields):
    _assert_names(_error(lambda: fields.list("name")), "block.yaml", "name", "a list")
    err = _error(lambda: fields.sub("player").list("groups", min_len=3))
    _assert_names(err, "block.yaml", "player.groups", "at least 3 items")


def test_items_name_the_index(fields):
    groups = fields.sub("player").items("groups")
    _assert_names(_error(lambda: groups[1].int("size")), "block.yaml", "player.groups[1].size", "an integer")


def test_items_must_be_mappings(tmp_path):
    path = tmp_path / "bad_items.yaml"
    path.write_text("groups: [1, 2]\n", encoding="utf-8")
    err = _error(lambda: Fields.load(path).items("groups"))
    _assert_names(err, "bad_items.yaml", "groups[0]", "a mapping of fields")


def test_unknown_keys(fields):
    err = _error(lambda: fields.unknown({"name", "turns", "ratio", "flag"}))
    _assert_names(err, "block.yaml", "player", "a known field")
    assert str(err).endswith("got an unknown one (known: flag, name, ratio, turns)")


def test_unknown_keys_nested(fields):
    err = _error(lambda: fields.sub("player").unknown({"groups"}))
    _assert_names(err, "block.yaml", "player.side", "a known field")
    assert err.line == 6


def test_unknown_key_suggests_the_nearest_known_one(fields):
    err = _error(lambda: fields.sub("player").unknown({"sides", "groups"}))
    assert str(err).endswith(":6: field 'player.side': expected a known field, got an unknown one "
                             "(did you mean 'sides'? known: groups, sides)")


def test_errors_name_the_line_of_the_field_or_of_its_nearest_parent(fields):
    second = fields.sub("player").items("groups")[1]
    assert _error(lambda: second.int("size")).line == 9
    assert "block.yaml:9: field 'player.groups[1].size'" in str(_error(lambda: second.int("size")))
    assert _error(lambda: second.int("missing")).line == 9       # a missing field: the line of its mapping
    assert _error(lambda: fields.int("name")).line == 1


def test_long_values_are_cut_so_the_error_stays_one_line(tmp_path):
    path = tmp_path / "long.yaml"
    path.write_text("turns: " + "x" * 500 + "\n", encoding="utf-8")
    message = str(_error(lambda: Fields.load(path).int("turns")))
    assert "\n" not in message and message.endswith("...") and len(message) < 150 + len(str(path))


def test_missing_file(tmp_path):
    err = _error(lambda: Fields.load(tmp_path / "nowhere.yaml"))
    _assert_names(err, "nowhere.yaml", "<file>", "an existing YAML file")


def test_bad_yaml(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("turns: [1, 2\n", encoding="utf-8")
    _assert_names(_error(lambda: Fields.load(path)), "broken.yaml", "<file>", "valid YAML")


def test_bad_yaml_names_its_line_in_one_line(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("name: x\nturns: [1,\n  2\nap: 3\n", encoding="utf-8")
    assert str(_error(lambda: Fields.load(path))) == (
        f"{path}:4: field '<file>': expected valid YAML (column 3), "
        "got while parsing a flow sequence expected ',' or ']', but got ':'")


def test_top_level_must_be_a_mapping(tmp_path):
    path = tmp_path / "list.yaml"
    path.write_text("- 1\n- 2\n", encoding="utf-8")
    _assert_names(_error(lambda: Fields.load(path)), "list.yaml", "<top>", "a mapping of fields")


def test_empty_file_is_an_empty_mapping(tmp_path):
    path = tmp_path / "empty.yaml"
    path.write_text("", encoding="utf-8")
    assert Fields.load(path).data == {}


def test_scenario_error_is_a_value_error():
    assert issubclass(ScenarioError, ValueError)
