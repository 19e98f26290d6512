"""UW-HID-4: a side with no unactivated Snap-fire model left has its other face-down models known as Overwatch, in
both sides' observations, views and text maps (the contract's public facts: tests/generic/test_public_facts.py)."""
from __future__ import annotations

from envs.urbanwar.observation import MODEL, row_at
from tests.urbanwar.helpers import RULESET, model, play, position

OVERWATCH = 1


def order_seen(game, side: int, mid: str) -> tuple[float, float, float]:
    """(face down, seen Snap-fire, seen Overwatch) of model `mid` in `side`'s observation."""
    at = row_at(model(game, mid))
    obs = game.observation(side)
    return obs[at + MODEL["face_down"]], obs[at + MODEL["seen_snap_fire"]], obs[at + MODEL["seen_overwatch"]]


def two_b_models(b4: str, first: int = 0):
    """A3 against B3 (face-down Overwatch) and B4 (face-down `b4`), at the start of the activation phase."""
    return position({"models": {"A3": [5, 1], "B3": [20, 1], "B4": [40, 1]},
                     "orders": {"A3": "snap", "B3": "overwatch", "B4": b4}, "first": first})


def test_UW_HID_4_a_side_without_snap_fire_left_shows_its_face_down_models_as_overwatch_to_both_sides():
    game = two_b_models("overwatch")
    for side in (0, 1):
        assert order_seen(game, side, "B3") == order_seen(game, side, "B4") == (1.0, 0.0, 1.0)
        assert game.view(side).order(model(game, "B3")) == OVERWATCH
    assert RULESET.public_facts(game)[-1][1] is True


def test_UW_HID_4_while_a_snap_fire_model_is_left_the_other_side_sees_only_face_down_counters():
    game = two_b_models("snap", first=1)                        # B asked: activating B4 unasked would tell
    assert game.current_side == 1
    assert order_seen(game, 0, "B3") == order_seen(game, 0, "B4") == (1.0, 0.0, 0.0)
    assert order_seen(game, 1, "B3") == (1.0, 0.0, 1.0) and order_seen(game, 1, "B4") == (1.0, 1.0, 0.0)
    assert game.view(0).order(model(game, "B3")) is None
    assert RULESET.public_facts(game)[-1] == (False, False)


def test_UW_HID_4_activating_the_last_snap_fire_model_makes_the_rest_known_overwatch():
    game = two_b_models("snap", first=1)
    assert order_seen(game, 0, "B3") == (1.0, 0.0, 0.0)
    assert "B3 (20,1) W1/1 order[?]" in game.render_text(0).splitlines()
    play(game, "activate", model(game, "B4").slot)
    assert order_seen(game, 0, "B3") == (1.0, 0.0, 1.0)
    assert order_seen(game, 0, "B4") == (0.0, 0.0, 0.0)          # UW-TURN-9: its counter is removed
    assert "B3 (20,1) W1/1 order[O]" in game.render_text(0).splitlines()
