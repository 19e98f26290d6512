"""The fast sight, cover and reaction-window code against the catalog's wording traced cell by cell, over thousands
of positions from seeded random games (UW-LOS-1..4, UW-COVER-3, UW-GRID-5, UW-OW-3/6/10..12, UW-HID-6)."""
from __future__ import annotations

from itertools import chain

import numpy as np
import pytest

from envs.engine.dice import SeededDice
from envs.urbanwar import activation
from envs.urbanwar import geometry as geo
from envs.urbanwar.actions import CODEC, DISRUPT, INTERCEPT
from envs.urbanwar.activation import OVERWATCH
from envs.urbanwar.flow import Decision
from envs.urbanwar.game import UrbanWarGame
from tests.urbanwar import reference_geometry as reference
from tests.urbanwar.helpers import RULESET


def random_positions(seeds, every: int | None = 3):
    """(game, rng) at every `every`-th decision (None: none) and at every reaction window of seeded random games,
    the game paused there."""
    for seed in seeds:
        game, rng = UrbanWarGame.new(seed=seed), np.random.default_rng(seed)
        step = 0
        while not game.game_over:
            if every and step % every == 0 or game.decision[0] == Decision.REACT:
                yield game, rng
            legal = np.flatnonzero(game.legal_action_mask())
            game.apply(int(legal[rng.integers(len(legal))]))
            step += 1


def test_UW_LOS_1_to_4_sight_from_bit_masks_is_the_traced_sight():
    checked = seen = 0
    for game, rng in random_positions(range(12)):
        placed = [m for m in game.models if m.placed]
        if not placed:
            continue
        free = [c for c in range(geo.CELLS) if game.occ[c] < 0 and game.board.passable[c]]
        for _ in range(6):
            viewer = placed[rng.integers(len(placed))]
            at = viewer.cell
            if rng.random() < 0.5:       # a cell it might move to: the scripted player asks for those
                at = free[rng.integers(len(free))]
            target = int(rng.integers(geo.CELLS))
            if target == at:
                continue
            game.occ[viewer.cell] = -1
            traced = geo.has_los_traced(game.board, game.occ, game.side_of, at, target, viewer.side)
            game.occ[viewer.cell] = viewer.idx
            target_model = next((m for m in placed if m.cell == target), viewer)
            assert game.los(viewer, target_model, a_cell=at, b_cell=target) == traced, (at, target)
            checked, seen = checked + 1, seen + traced
    assert checked > 3000 and 0 < seen < checked


def test_UW_COVER_3_and_UW_GRID_5_cover_from_bit_masks_is_the_traced_cover():
    board = UrbanWarGame.new(seed=0).board
    rng = np.random.default_rng(1)
    found = set()
    for _ in range(10000):
        a, b = (int(c) for c in rng.integers(geo.CELLS, size=2))
        assert geo.cover_class(board, a, b) == geo.cover_class_traced(board, a, b), (a, b)
        found.add(geo.cover_class(board, a, b))
    assert found == {geo.NO_COVER, geo.SOLID, geo.FLIMSY}


def test_UW_LOS_2_and_UW_COVER_3_masks_built_a_column_at_once_are_the_masks_built_cell_by_cell():
    rng = np.random.default_rng(3)
    offsets = [(0, 0)] + [(dx, int(dy)) for dx in range(-47, 48) for dy in rng.integers(-47, 48, size=20)]
    for dx, dy in offsets:
        assert geo.sight_masks(dx, dy) == reference.sight_masks(dx, dy), (dx, dy)
        assert geo.cover_mask(dx, dy) == reference.cover_mask(dx, dy), (dx, dy)
    assert sum(geo.cover_mask(dx, dy) != 0 for dx, dy in offsets) > 1500


def reaction_options_by_moving(game, stage: int):
    """UW-OW-3/6/10..12 as first written: the actor moved to each position of its path in turn, every check made
    there on the table as it then is."""
    act = game.act
    actor = game.models[act["model"]]
    path = act["path"]
    out, offered = [], False
    reactors = [r for r in game.side_models(1 - actor.side) if r.placed and not r.activated and game.face_down(r)]
    start = actor.cell
    try:
        for pos in range(len(path)) if stage == 1 else [len(path) - 1]:
            game.place(actor, path[pos])
            for r in reactors:
                if not geo.has_los_traced(game.board, game.occ, game.side_of, r.cell, actor.cell, r.side):
                    continue
                band = geo.band_of(game.tables.bands, r.cell, actor.cell)
                ow = game.order_of(r) == OVERWATCH
                if not game.in_contact(r) and band >= 1 and game.tables.weapons[r.profile.ranged].usable(band):
                    offered = True
                    if ow:
                        out.append(CODEC.encode("react", r.slot, DISRUPT, pos))
                if not r.panic and (ow or not offered) and activation.intercept_cell(game, r, actor) is not None:
                    offered = True
                    if ow:
                        out.append(CODEC.encode("react", r.slot, INTERCEPT, pos))
    finally:
        game.place(actor, start)
    return offered, out


def crowded_windows(count: int):
    """Reaction windows of A models acting among B's brawlers: every model in a 16" square, random face-down orders
    and panic, a random action and destination (random play rarely brings a brawler near enough to intercept)."""
    rng = np.random.default_rng(5)
    made = 0
    while made < count:
        x0, y0 = (int(v) for v in rng.integers(0, 32, size=2))
        cells = [(x, y) for x in range(x0, x0 + 16) for y in range(y0, y0 + 16)]
        picked = rng.choice(len(cells), size=12, replace=False)
        ids = [f"{side}{i}" for side in "AB" for i in range(1, 7)]
        spec = {"models": {mid: list(cells[k]) for mid, k in zip(ids, picked)},
                "orders": {mid: ("overwatch", "snap")[int(rng.integers(2))] for mid in ids if mid[0] == "B"},
                "panic": [mid for mid in ids if rng.random() < 0.2], "start": ("action", f"A{rng.integers(1, 7)}")}
        try:
            game = RULESET.build_position(spec, SeededDice(made))
        except ValueError:            # a model on a wall: draw again
            continue
        while not game.game_over and game.decision[0] in (Decision.ACTION, Decision.DEST):
            legal = np.flatnonzero(game.legal_action_mask())
            game.apply(int(legal[rng.integers(len(legal))]))
        if not game.game_over and game.decision[0] == Decision.REACT:
            made += 1
            yield game


def test_UW_HID_6_reaction_windows_are_offered_as_when_the_actor_was_moved_along_its_path():
    windows = offered = intercepts = 0
    games = (game for game, _ in random_positions(range(40), every=None))
    for game in chain(games, crowded_windows(300)):      # each paused at its window while it is checked
        stage = game.decision[1]["stage"]
        expected = reaction_options_by_moving(game, stage)
        game.refresh()
        assert activation.reaction_options(game, stage) == expected
        windows, offered = windows + 1, offered + bool(expected[1])
        intercepts += any(CODEC.decode(a)[1][1] == INTERCEPT for a in expected[1])
    assert windows > 700 and offered > 500 and intercepts > 150, (windows, offered, intercepts)


def models_in(bits: int) -> frozenset:
    """The model indices of `touching_cells`' bits, as the reference search reads them."""
    return frozenset(i for i in range(bits.bit_length()) if bits >> i & 1)


def test_UW_GRID_4_the_cells_touching_models_are_their_base_contacts():
    """`touching_cells`: every cell in base contact with some of the models, each with exactly those models' bits."""
    for game, _ in random_positions(range(2), every=6):
        placed = tuple((m.idx, m.cell) for m in game.models if m.placed)
        want = {}
        for cell in range(geo.CELLS):
            near = frozenset(i for i, c in placed if geo.contact(c, cell))
            if near:
                want[cell] = near
        got = geo.touching_cells(placed)
        assert {c: models_in(bits) for c, bits in got.items()} == want


@pytest.mark.parametrize("compiled", [True, False], ids=["as-installed", "python"])
def test_UW_MOVE_4_to_7_a_rush_and_move_shoot_read_the_charge_search_with_the_same_cells_costs_and_paths(compiled,
                                                                                                         monkeypatch):
    """`activation.destinations` reads one charge-mode search for a model's Rush, charge and (once made) Move+Shoot
    (`charge_reach`): against the reference search of each kind's own mode and allowance, asked in random orders, the
    same destinations, costs and declared paths (UW-MOVE-4's ties) at every placed model of random games."""
    from envs.urbanwar.actions import BREAK_OFF, CHARGE, MOVE_SHOOT, RUSH

    modes = {RUSH: geo.FREE, MOVE_SHOOT: geo.FREE, CHARGE: geo.CHARGE, BREAK_OFF: geo.BREAK}
    checked = shared = 0
    rng = np.random.default_rng(11)
    board = UrbanWarGame.new(seed=0).board                  # every game of the scenario shares it (geo.BOARDS)
    kernel = board.kernel
    if not compiled:                                        # the pure-Python search and its picking (no numba)
        monkeypatch.setattr(board, "kernel", None)
    for game, _ in random_positions(range(3), every=5):
        assert game.board is board and board.kernel is (kernel if compiled else None)
        for m in [m for m in game.models if m.placed]:
            game._geo_cache.clear()
            touching = game.touching(m.side)
            occ, danger = list(game.occ), [frozenset()] * geo.CELLS
            occ[m.cell] = -1
            for cell, enemies in touching.items():
                danger[cell] = models_in(enemies)
            started = frozenset(e.idx for e in game.enemies_in_contact(m))
            for kind in rng.permutation(list(modes)).tolist():
                got = activation.destinations(game, m, kind)
                if kind == CHARGE and not activation.charge_targets(game, m):
                    assert got == {}
                    continue
                tree = reference.reachable(game.board, occ, m.cell, activation.allowance(m, kind), modes[kind], danger,
                                           started)
                seen = geo.model_bits(e.idx for e in activation.charge_targets(game, m)) if kind == CHARGE else 0
                want = {c: cost for c, (cost, _) in tree.items()
                        if kind in (RUSH, MOVE_SHOOT) or (c != m.cell and (c in touching) == (kind == CHARGE)
                                                          and (kind != CHARGE or touching[c] & seen))}
                assert got == want, (m.id, kind)
                for cell in got:
                    path = [cell]
                    while tree[path[-1]][1] >= 0:
                        path.append(tree[path[-1]][1])
                    assert activation.path_of(game, m, kind, cell) == path[::-1], (m.id, kind, cell)
                checked += 1
                shared += ("reach", m.idx, m.cell) in game._geo_cache
    assert checked > 1000 and shared > 500, (checked, shared)


def test_UW_MOVE_7_a_moves_mask_from_the_dest_table_is_the_codecs_dest_actions():
    """`activation.dest_mask` (each cell's part of the action from a table) marks exactly CODEC's (dx + R, dy + R)
    action of every destination, from starts all over the table, edges included."""
    from envs.urbanwar.actions import REACH

    rng = np.random.default_rng(3)
    for start in rng.integers(geo.CELLS, size=300).tolist():
        x, y = start % geo.N, start // geo.N
        near = [(cx, cy) for cx in range(max(0, x - REACH), min(geo.N, x + REACH + 1))
                for cy in range(max(0, y - REACH), min(geo.N, y + REACH + 1))]
        picked = [near[i] for i in rng.choice(len(near), size=min(40, len(near)), replace=False).tolist()]
        cells = [cy * geo.N + cx for cx, cy in picked]
        want = sorted(CODEC.encode("dest", cx - x + REACH, cy - y + REACH) for cx, cy in picked)
        assert np.flatnonzero(activation.dest_mask(start, cells)).tolist() == want
