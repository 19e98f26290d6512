"""UW-HID: nothing a side sees changes when only the other side's face-down orders or the future dice change."""
from __future__ import annotations

import numpy as np

from envs import registry
from envs.engine.contract import decide
from tests.urbanwar.helpers import RULESET


def umpire_games(seeds=range(1)):
    import agents.scripted.urbanwar  # noqa: F401
    for seed in seeds:
        game = RULESET.new_game(seed=seed)
        players = {s: registry.agents("urbanwar")["scripted"](s, seed) for s in (0, 1)}
        while game.current_side is not None:
            yield game
            game.apply(decide(players[game.current_side], game, game.current_side))


def test_UW_HID_2_and_UW_HID_7_views_renders_and_masks_ignore_the_other_sides_orders():
    checked = 0
    for step, game in enumerate(umpire_games()):
        if step % 2:
            continue
        for side in (0, 1):
            for variant in RULESET.hidden_variants(game, side):
                assert variant.observation(side).tobytes() == game.observation(side).tobytes()
                assert variant.render_text(side) == game.render_text(side)
                assert np.array_equal(variant.render_rgb(side), game.render_rgb(side))
                assert variant.current_side == game.current_side
                if game.current_side == side:
                    assert np.array_equal(variant.legal_action_mask(), game.legal_action_mask())
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
    from tests.urbanwar.helpers import play, position
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
