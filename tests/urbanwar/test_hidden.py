"""UW-HID: nothing a side sees changes when only the other side's face-down orders or the future dice change."""
from __future__ import annotations

import numpy as np

from tests import checkers
from tests.urbanwar.helpers import RULESET, play, window


def umpire_games(seeds=range(1)):
    import agents.scripted.urbanwar  # noqa: F401
    for seed in seeds:
        yield from checkers.scripted_states(RULESET, seed)


def test_UW_HID_2_and_UW_HID_7_views_renders_and_masks_ignore_the_other_sides_orders():
    checked = 0
    for step, game in enumerate(umpire_games()):
        if step % 2:
            continue
        for side in (0, 1):
            for variant in RULESET.hidden_variants(game, side):
                checkers.check_view_unchanged(variant, game, side)
                checked += 1
    assert checked > 150


def test_UW_HID_2_the_owner_sees_its_face_down_orders_in_text_and_picture():
    for game in umpire_games([0]):
        downs = [m for m in game.models if m.placed and game.face_down(m)]
        if game.turn == 2 and downs:
            m = downs[0]
            assert f"{m.id} " in game.render_text(m.side) and "order[?]" in game.render_text(1 - m.side)
            assert not np.array_equal(game.render_rgb(m.side), game.render_rgb(1 - m.side))
            return
    raise AssertionError("no face-down order met")


def test_UW_HID_6_agent_selection_order_phase_reveals_nothing():
    from tests.urbanwar.helpers import position
    sequences = []
    for answer in (0, 1):
        game = position({"models": {"A3": [5, 1], "A4": [7, 1], "B3": [30, 1], "B4": [32, 1]}, "phase": "orders"})
        seq = []
        while game.decision[0] == "order":
            seq.append(game.current_side)
            play(game, "order", answer)
        seq.append(game.current_side)
        sequences.append(seq)
    assert sequences[0] == sequences[1] == [0, 0, 1, 1, 0]


def variant_kind(game, variant) -> str:
    """Which hidden fact a variant changed: the future dice, two face-down orders swapped, or a sealed choice."""
    if variant.dice.to_dict() != game.dice.to_dict():
        return "dice"
    changed = [k for k, v in game.orders.values.items() if variant.orders.values[k] != v]
    if len(changed) == 2:
        return "swapped"
    return "sealed" if game.orders.pending() is not None else "flipped"


def seen(game, side: int, picture: bool) -> tuple:
    """Everything the adapters show `side`: observation, who decides (AEC agent_selection), the decision kind (public,
    UW-HID-8), its own mask, the text map and, when asked, the picture."""
    mask = game.legal_action_mask().tobytes() if game.current_side == side else None
    rgb = game.render_rgb(side).tobytes() if picture else None
    return game.observation(side).tobytes(), game.current_side, game.decision_kind(), mask, game.render_text(side), rgb


def test_UW_HID_7_random_games_other_dice_swapped_flipped_and_sealed_orders_change_nothing_a_side_sees_now_or_next():
    """Every decision of random games, every variant: what a side sees now is the same; after the same next action the
    side sees the same or something that tells the games apart, so agent_selection never tells it more."""
    counts = {"dice": 0, "swapped": 0, "sealed": 0, "flipped": 0}
    for seed in range(3):
        game, rng = RULESET.new_game(seed=seed), np.random.default_rng(seed)
        step = 0
        while game.current_side is not None:
            action = int(rng.choice(np.flatnonzero(game.legal_action_mask())))
            for side in (0, 1):
                for variant in RULESET.hidden_variants(game, side):
                    counts[variant_kind(game, variant)] += 1
                    assert seen(variant, side, step % 10 == 0) == seen(game, side, step % 10 == 0), (seed, step, side)
                    after, twin = (type(g).from_dict(g.to_dict()) for g in (game, variant))   # each its own dice
                    after.apply(action)
                    twin.apply(action)
                    if after.current_side is not None and after.observation(side).tobytes() == twin.observation(side).tobytes():
                        assert seen(after, side, False) == seen(twin, side, False), (seed, step, side, "next")
            game.apply(action)
            step += 1
    assert counts["dice"] > 1000 and counts["swapped"] > 100 and counts["sealed"] > 50 and counts["flipped"] > 100, counts


def test_UW_HID_8_after_no_reaction_the_mover_sees_the_same_whether_it_was_chosen_or_forced():
    """B4 keeps the turn going in both games; B's activation is asked in both (UW-HID-2: unasked with B3 on
    Overwatch, it would show that B4 is B's last Snap-fire model)."""
    snap, over = window("snap", B4=([40, 1], "snap")), window("overwatch", B4=([40, 1], "snap"))
    events = [play(game, "react_none") for game in (snap, over)]
    assert [e.text for e in events[0]] == [e.text for e in events[1]]
    assert snap.current_side == over.current_side == 1 and snap.decision[0] == over.decision[0] == "activate"
    assert snap.observation(0).tobytes() == over.observation(0).tobytes()
    assert snap.render_text(0) == over.render_text(0) and (snap.render_rgb(0) == over.render_rgb(0)).all()
    assert len(over.decision[1]["legal"]) == 1 < len(snap.decision[1]["legal"])


def test_UW_DEC_9_a_last_snap_fire_model_with_nobody_face_down_beside_it_activates_unasked():
    game = window("snap")
    play(game, "react_none")
    assert game.current_side == 1 and game.decision[0] == "action"      # B3 activated unasked: nothing to hide


def test_UW_HID_1_the_values_kept_across_games_are_worked_out_from_public_geometry_alone():
    """Urban War's stores kept across games (envs.engine.derived.BoundedStore) are shared by both sides' views and
    players, so no entry may hold what one side knows and the other does not (UW-HID-2: face-down orders). Their keys
    name public geometry only (an offset's column, a board's digest, a cell, the placed models' cells), and after
    scripted games with both sides' observations and views asked every step, each entry is worked out again from its
    key alone and found equal: nothing else (an order, a side) went into it."""
    from agents.scripted import urbanwar as scripted
    from envs.urbanwar import geometry as geo
    from envs.urbanwar import legal, observation, turns

    for store in (geo.COVER_FROM, geo.TOUCHING, scripted.COVERED, scripted.DEPLOY_RANKS, observation.TERRAIN,
                  legal.SMALL_MASKS, turns.DEPLOY_PLACES):
        store.clear()
    for game in umpire_games(range(2)):
        if game.current_side is not None:
            for side in (0, 1):
                game.observation(side)
    boards = {board.key: board for board in geo.BOARDS.values.values()}
    assert all(geo.board_for(rows, items) is board and board.key == geo.Board(rows, dict(items)).key
               for (rows, items), board in geo.BOARDS.values.items())
    assert len(geo.COVER_FROM) > 50 and len(scripted.COVERED) == len(observation.TERRAIN) == 1
    for (digest, shooter), value in geo.COVER_FROM.values.items():
        assert isinstance(shooter, int) and value == boards[digest]._seen_from(shooter)
    assert len(geo.TOUCHING) > 20                                  # fewer with the compiled path search
    for placed, value in geo.TOUCHING.values.items():              # (model, cell) pairs: places every side sees
        assert all(isinstance(x, int) for pair in placed for x in pair) and value == geo._touching_cells(placed)
    for digest, value in scripted.COVERED.values.items():
        assert value == scripted._count_covered(boards[digest])
    assert len(scripted.DEPLOY_RANKS) == 2                        # (board digest, deploying from the north)
    for (digest, north), value in scripted.DEPLOY_RANKS.values.items():
        assert isinstance(north, bool) and value == scripted._deploy_ranks(boards[digest], north)
    for digest, value in observation.TERRAIN.values.items():
        assert np.array_equal(value, observation._draw_terrain(boards[digest])) and not value.flags.writeable
    assert len(legal.SMALL_MASKS) > 20 and len(turns.DEPLOY_PLACES) == 2
    for actions, value in legal.SMALL_MASKS.values.items():     # a decision's legal actions, seen by its owner only
        assert all(isinstance(a, int) for a in actions) and not value.flags.writeable
        assert np.flatnonzero(value).tolist() == list(actions)
    for (digest, edge), value in turns.DEPLOY_PLACES.values.items():
        assert value == turns.deploy_places(boards[digest], edge)
    for dx in list(geo.MASKS.values)[:8]:
        assert isinstance(dx, int) and geo.MASKS.values[dx] == geo._column_masks(dx)
