"""Terrain as data: types, registry, config loading with named errors, per-cell property arrays."""
from __future__ import annotations

import numpy as np
import pytest

from envs.engine.los import line_of_sight
from envs.engine.scenario import Fields, ScenarioError
from envs.engine.terrain import TerrainRegistry, TerrainType, load_terrain

# A CITYFIGHT-like legend (CF-SCN-1, CF-TER-1/3): cover classes are the rows of the fire table.
CITY = {
    "cover_classes": ["open", "cluttered", "wood", "brick"],
    "types": {
        "street": {"symbol": "."},
        "rubble": {"symbol": ":", "cover": "cluttered", "tags": ["rubble"]},
        "wood": {"symbol": "T", "cover": "wood", "blocks_los": True, "tags": ["ends_move"]},
        "brick": {"symbol": "B", "cover": "brick", "blocks_los": True, "floors": 2, "tags": ["building"]},
        "brick_door": {"symbol": "b", "cover": "brick", "blocks_los": True, "floors": 2,
                       "tags": ["building", "doorway"]},
        "river": {"symbol": "~", "passable": False, "move_cost": 3},
    },
}

MAP = [
    ".:T.",
    "Bb.~",
]


@pytest.fixture
def registry() -> TerrainRegistry:
    return TerrainRegistry.from_dict(CITY, "city.yaml")


def test_defaults_fill_missing_properties(registry):
    street = registry["street"]
    assert street == TerrainType("street", "open", symbol=".")
    assert (street.blocks_los, street.passable, street.move_cost, street.floors) == (False, True, 1, 0)


def test_types_are_frozen_and_hashable(registry):
    with pytest.raises(AttributeError):
        registry["wood"].blocks_los = False
    assert len({registry["wood"], registry["wood"]}) == 1
    assert TerrainType("x", "open", tags=["a", "a"]).tags == frozenset({"a"})


def test_lookup_by_name_symbol_and_index(registry):
    assert registry.index("brick") == 3 and registry.by_symbol("b").name == "brick_door"
    assert registry["brick_door"].has("doorway") and not registry["brick"].has("doorway")
    with pytest.raises(KeyError, match="unknown terrain 'lava'"):
        registry.index("lava")
    with pytest.raises(KeyError, match="unknown terrain symbol"):
        registry.by_symbol("?")


def test_cover_levels_are_ordered(registry):
    # Hard replaces soft (KC-MAP-9) = the stronger rank wins.
    assert registry.cover_level("open") == 0 and registry.cover_level("brick") == 3
    assert max(registry.cover_level("cluttered"), registry.cover_level("wood")) == registry.cover_level("wood")


def test_parse_map_and_property_arrays(registry):
    kinds = registry.parse_map(MAP)
    assert kinds.shape == (2, 4) and kinds[0, 2] == registry.index("wood")
    props = registry.properties(kinds)
    assert props["blocks_los"].tolist() == [[False, False, True, False], [True, True, False, False]]
    assert props["passable"].tolist() == [[True, True, True, True], [True, True, True, False]]
    assert props["move_cost"][1, 3] == 3 and props["floors"][1, 0] == 2
    assert props["cover"].tolist() == [[0, 1, 2, 0], [3, 3, 0, 0]]
    assert registry.cells_tagged(kinds, "building").tolist() == [[False] * 4, [True, True, False, False]]


def test_kinds_from_names_match_parsed_map(registry):
    names = [["street", "rubble", "wood", "street"], ["brick", "brick_door", "street", "river"]]
    assert np.array_equal(registry.kinds(names), registry.parse_map(MAP))


def test_terrain_change_is_a_write_to_kinds(registry):
    # A building square knocked down becomes rubble: no new class, one array write.
    kinds = registry.parse_map(MAP)
    kinds[1, 0] = registry.index("rubble")
    assert not registry.properties(kinds)["blocks_los"][1, 0]


def test_property_arrays_feed_line_of_sight(registry):
    blocks = registry.properties(registry.parse_map(["..T..", "....."]))["blocks_los"]
    assert not line_of_sight((0, 0), (4, 0), blocks)
    assert line_of_sight((0, 1), (4, 1), blocks)


def test_parse_map_errors(registry):
    with pytest.raises(ValueError, match="row 2, column 3: unknown terrain symbol '\\?'"):
        registry.parse_map(["....", "..?."])
    with pytest.raises(ValueError, match="equal length"):
        registry.parse_map(["....", "..."])
    with pytest.raises(ValueError, match="equal length"):
        registry.parse_map([])


def test_unknown_property(registry):
    with pytest.raises(KeyError, match="unknown terrain property"):
        registry.vector("height")


def test_registry_rejects_duplicates_and_unknown_cover():
    with pytest.raises(ValueError, match="declared twice"):
        TerrainRegistry((TerrainType("a", "open"), TerrainType("a", "open")), ("open",))
    with pytest.raises(ValueError, match="symbol '.' declared twice"):
        TerrainRegistry((TerrainType("a", "open", symbol="."), TerrainType("b", "open", symbol=".")), ("open",))
    with pytest.raises(ValueError, match="cover 'stone'"):
        TerrainRegistry((TerrainType("a", "stone"),), ("open",))


def test_load_from_a_yaml_section(tmp_path):
    path = tmp_path / "tables.yaml"
    path.write_text("terrain:\n  cover_classes: [none, soft, hard]\n  types:\n"
                    "    open: {symbol: '.'}\n    scrub: {symbol: ',', cover: soft}\n", encoding="utf-8")
    registry = load_terrain(Fields.load(path).sub("terrain"))
    assert registry.names == ("open", "scrub") and registry["scrub"].cover == "soft"


# Config errors name the file and the field ---------------------------------------------------------

def _config_error(data) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        TerrainRegistry.from_dict(data, "city.yaml")
    return info.value


def _with_type(**fields) -> dict:
    return {"cover_classes": ["open", "hard"], "types": {"wall": fields}}


@pytest.mark.parametrize("data,field,expected", [
    ({"types": {"a": {}}}, "cover_classes", "the field is missing"),
    ({"cover_classes": [], "types": {"a": {}}}, "cover_classes", "at least 1 items"),
    ({"cover_classes": ["open", 3], "types": {"a": {}}}, "cover_classes[1]", "a string"),
    ({"cover_classes": ["open", "open"], "types": {"a": {}}}, "cover_classes", "unique values"),
    ({"cover_classes": ["open"], "types": {}}, "types", "at least one terrain type"),
    ({"cover_classes": ["open"], "types": {"a": {}}, "typo": 1}, "typo", "a known field"),
    (_with_type(cover="stone"), "types.wall.cover", "one of open, hard"),
    (_with_type(blocks_los="yes"), "types.wall.blocks_los", "true or false"),
    (_with_type(move_cost=0), "types.wall.move_cost", "an integer in 1..inf"),
    (_with_type(floors=-1), "types.wall.floors", "an integer in 0..inf"),
    (_with_type(symbol="##"), "types.wall.symbol", "a single character"),
    (_with_type(tags="building"), "types.wall.tags", "a list"),
    (_with_type(blocks_sight=True), "types.wall.blocks_sight", "a known field"),
    ({"cover_classes": ["open"], "types": {"a": {"symbol": "."}, "b": {"symbol": "."}}},
     "types.b.symbol", "a symbol not used by 'a'"),
    ({"cover_classes": ["open"], "types": {"a": 3}}, "types.a", "a mapping of fields"),
])
def test_config_errors_name_file_and_field(data, field, expected):
    err = _config_error(data)
    assert err.file == "city.yaml" and err.field == field and expected in err.expected
