"""The observation layout every ruleset declares (envs.engine.contract.ObservationLayout): where its board's planes
lie in the flat observation, and that the grid read through it is the board."""
from __future__ import annotations

import numpy as np
import pytest

from envs import registry
from envs.engine.contract import ObservationLayout, Planes
from tests import toy_duel, toy_game


def test_the_layout_covers_the_observation_once(ruleset):
    layout = ruleset.observation_layout()
    assert layout.size == ruleset.observation_size
    layout.check()
    vector = layout.vector_indices()
    grid = layout.plane_indices()
    together = np.concatenate([vector, [] if grid is None else grid.reshape(-1)]).astype(np.int64)
    assert np.array_equal(np.sort(together), np.arange(ruleset.observation_size))


def test_every_real_ruleset_declares_its_board_and_names_each_plane():
    for rs in registry.all_rulesets():
        if rs.name in (toy_game.NAME, toy_duel.NAME):    # the test games (the duel when a league test ran here)
            assert rs.observation_layout().planes is None
            continue
        planes = rs.observation_layout().planes
        assert planes is not None, rs.name
        assert len(planes.names) == planes.channels, rs.name


def test_split_gives_the_grid_and_the_rest_of_an_observation(ruleset):
    state = ruleset.new_game(seed=0)
    observation = state.observation(0)
    layout = ruleset.observation_layout()
    grid, vector = layout.split(np.stack([observation, observation]))
    assert vector.shape == (2, layout.vector_indices().size)
    if layout.planes is not None:
        assert grid.shape == (2, *layout.planes.shape)
        assert grid.sum() + vector.sum() == pytest.approx(2 * observation.sum(), rel=1e-5)


def test_the_layout_survives_json():
    for rs in registry.all_rulesets():
        layout = rs.observation_layout()
        again = ObservationLayout.from_dict(layout.to_dict())
        assert again.size == layout.size
        assert (again.plane_indices() is None) == (layout.plane_indices() is None)
        if layout.planes is not None:
            assert np.array_equal(again.plane_indices(), layout.plane_indices())


def test_a_grid_outside_the_vector_or_overlapping_itself_is_refused():
    with pytest.raises(ValueError, match="positions 0..19 of an observation of 10"):
        ObservationLayout(10, Planes(5, 2, 2, 0)).check()
    with pytest.raises(ValueError, match="share a position"):
        ObservationLayout(10, Planes(2, 2, 2, 0, strides=(1, 2, 1))).check()


# The grid is the board: one feature per ruleset read at a known square -------------------------------------------
def plane(ruleset, observation: np.ndarray, name: str) -> np.ndarray:
    layout = ruleset.observation_layout()
    grid, _ = layout.split(observation)
    return grid[layout.planes.names.index(name)]


def test_cityfight_own_elements_stand_where_the_own_count_plane_says():
    rs = registry.get("cityfight")
    game = rs.new_game(seed=3)
    side = game.current_side
    counts = plane(rs, game.observation(side), "own_count")
    expected = np.zeros_like(counts)
    for e in game.elements[side]:
        if e.square >= 0:
            x, y = game.board.xy(e.square)
            expected[y, x] += 1 / 3
    assert counts.sum() > 0
    assert np.allclose(counts, expected)


def test_k47_terrain_plane_is_the_board_row_by_row():
    rs = registry.get("k47")
    game = rs.new_game(seed=0)
    terrain = plane(rs, game.observation(0), "terrain")
    assert terrain.shape == (game.board.height, game.board.width)
    assert np.allclose(terrain, np.array(game.board.terrain, dtype=np.float32) / 4)


def test_urbanwar_walls_are_the_map_walls():
    rs = registry.get("urbanwar")
    game = rs.new_game(seed=0)
    impassable = plane(rs, game.observation(0), "impassable")
    chars = np.array(list(game.board.chars)).reshape(impassable.shape)
    assert (chars == "#").any()
    assert np.array_equal(impassable == 1.0, chars == "#")


def test_rifles_sewer_channel_marks_the_scenarios_sewer_stripes():
    rs = registry.get("rifles-urban")
    for name in sorted(rs.scenarios()):
        game = rs.new_game(name, seed=0)
        sewer = plane(rs, game.observation(0), "sewer")[:, 0]
        assert [s + 1 for s in np.flatnonzero(sewer)] == sorted(game.scenario.sewer_stripes), name
        present = plane(rs, game.observation(0), "slot0.present")[:, 0]
        assert list(present) == [len(game.places[s]) > 1 for s in range(1, 7)], name
