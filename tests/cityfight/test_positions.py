"""Rule tests whose position comes from the contract's builder alone (`build_position`): no private attribute
touched, no cache cleared by hand."""
from __future__ import annotations

import pytest

from envs import registry
from envs.cityfight.actions import CODEC, OFF
from envs.cityfight.position import PositionError

CITYFIGHT = registry.get("cityfight")
OPEN_MAP = "\n".join(["........."] * 9)


def spec(**changes) -> dict:
    """A9x9 open map, attacker A1 (rifles) on e5, defender D1 far away on a9."""
    return {"map": OPEN_MAP, "attackers": [("A1", "B", "e5")], "defenders": [("D1", "B", "a9")], **changes}


def element(game, name: str):
    return next(e for side in game.elements for e in side if e.name == name)


def activated(game):
    game.apply(CODEC.encode("activate", element(game, "A1").slot))
    return game


def test_CF_ACT_10_pass_is_legal_and_hands_the_turn_over_for_nothing():
    game = activated(CITYFIGHT.build_position(spec()))
    assert game.legal_action_mask()[OFF["pass"]]
    events = game.apply(OFF["pass"])
    assert element(game, "A1").ap_spent == 0 and game.current_side == 1 and events[0].rule == "CF-ACT-10"


def test_CF_ACT_11_a_suppressed_element_may_only_pass():
    game = CITYFIGHT.build_position(spec(attackers=[("A1", "B", "e5", None, {"suppressed": True}),
                                                     ("A2", "B", "e6")]))
    assert not game.legal_action_mask()[CODEC.encode("activate", element(game, "A1").slot)]  # CF-TURN-5


def test_CF_MOVE_1_one_diagonal_step_per_turn():
    game = activated(CITYFIGHT.build_position(spec()))
    game.apply(CODEC.encode("move", 5))                        # a diagonal step
    mask = game.legal_action_mask()
    assert not any(mask[CODEC.encode("move", d)] for d in range(4, 8)) and mask[CODEC.encode("move", 2)]


@pytest.mark.parametrize("changes, field", [
    ({"attackers": [("A1", "B", "z99")]}, "square 'z99' is not on this 9x9 map"),
    ({"defenders": [{"name": "D1", "row": "B", "at": "a9", "colour": "red"}]}, "defenders\\[0\\]: unknown key 'colour'"),
    ({"attackers": [("A1", "B", "e5", "BAZOOKA")]}, "unknown weapon 'BAZOOKA'"),
    ({"weather": "rain"}, "unknown key 'weather'"),
])
def test_a_bad_position_fails_naming_the_field(changes, field):
    with pytest.raises(PositionError, match=field):
        CITYFIGHT.build_position(spec(**changes))
