"""Unit cards (training/replay/unit_cards.py): a side's cards show nothing it may not know, whatever the ruleset, and say
what each ruleset's units are; the play screen's Rifles panel prints the same cards."""
from __future__ import annotations

import pytest

from envs import registry
from envs.cityfight.state import DEAD
from tests.checkers import scripted_states
from training.play.rulesets import pieces
from training.replay.unit_cards import cards

#: (ruleset, scenario): K47's variant with hidden occupants (KC-HID-6) hides the most
GAMES = [("rifles-urban", None), ("rifles-darkness", None), ("cityfight", None), ("k47", "village_crossroads_hidden"),
         ("urbanwar", None)]


@pytest.mark.parametrize(("name", "scenario"), GAMES)
def test_a_sides_cards_are_the_same_in_every_game_that_differs_only_in_what_it_may_not_know(name, scenario):
    import agents.scripted  # noqa: F401  (registers the scripted agents)

    rs, checked, shown = registry.get(name), 0, 0
    for i, state in enumerate(scripted_states(rs, 3, scenario)):
        if i % 7:
            continue
        for side in range(len(rs.sides)):
            mine = cards(name, state, side)
            shown += bool(mine)
            for variant in rs.hidden_variants(state, side):
                assert cards(name, variant, side) == mine, f"{name}: side {side}'s cards show hidden information"
                checked += 1
    assert checked and shown


def test_CF_HID_3_a_cityfight_side_has_cards_for_its_own_elements_only():
    import agents.scripted  # noqa: F401

    rs = registry.get("cityfight")
    state = next(s for i, s in enumerate(scripted_states(rs, 1)) if i == 30)
    on_map = [[e.name for e in state.elements[s] if e.square != DEAD] for s in (0, 1)]
    assert [c.name for c in cards("cityfight", state, None)] == on_map[0] + on_map[1]
    for side in (0, 1):
        assert [c.name for c in cards("cityfight", state, side)] == on_map[side]
        assert {c.side for c in cards("cityfight", state, side)} == {side}


def test_RB_HID_3_a_sewer_group_has_no_card_for_the_enemy():
    rs = registry.get("rifles-urban")
    state = rs.new_game(seed=0)
    group = state.players[0]
    group.in_sewer = True
    group.units[0].hits = 1
    player = cards("rifles-urban", state, 0)
    mine = next(c for c in player if c.name == group.name)
    assert ("at", f"Stripe {group.stripe}, Open, in the sewer") in mine.fields
    assert (group.units[0].name, f"{group.units[0].weapon}{' Leader' if group.units[0].leader else ''} suppressed") \
        in mine.fields
    assert group.name not in [c.name for c in cards("rifles-urban", state, 1)]
    assert pieces("rifles-urban").panel(state, 0) == [c.line(0) for c in player]
    assert pieces("rifles-urban").panel(state, 0)[0].startswith(f"{group.name} (yours): at Stripe")


def test_KC_HID_9_a_hidden_occupant_card_gives_the_enemy_its_place_and_order_only():
    rs = registry.get("k47")
    state = rs.new_game(scenario="village_crossroads_hidden", seed=0)
    occupant = next(u for u in state.living() if not u.revealed)
    occupant.pins = 2
    place = f"{state.board.sections[occupant.section].name}, floor {occupant.floor}"
    theirs = next(c for c in cards("k47", state, 1 - occupant.side) if c.name == occupant.name)
    assert theirs.fields == (("", "hidden occupant (KC-HID-9)"), ("in", place), ("order", "none"))
    own = dict(next(c for c in cards("k47", state, occupant.side) if c.name == occupant.name).fields)
    assert own["pins"] == "2" and own["models"] == f"{len(occupant.models)} of {occupant.start_models}"


def test_UW_HID_2_a_face_down_order_is_named_to_its_owner_only():
    import agents.scripted  # noqa: F401

    rs = registry.get("urbanwar")
    state = next(s for s in scripted_states(rs, 1) if any(s.face_down(m) for m in s.models if m.placed))
    m = next(m for m in state.models if m.placed and state.face_down(m))
    order = "Overwatch" if state.orders.true_value(m.idx) == 1 else "Snap-fire"
    owner = dict(next(c for c in cards("urbanwar", state, m.side) if c.name == m.id).fields)
    other = dict(next(c for c in cards("urbanwar", state, 1 - m.side) if c.name == m.id).fields)
    assert owner["order"] == f"{order}, face down" and other["order"] == "face down"
    assert dict(next(c for c in cards("urbanwar", state, None) if c.name == m.id).fields)["order"] == owner["order"]


def test_a_ruleset_without_cards_has_none():
    assert cards("toy-race", object(), None) == []
