"""Events a side reads never carry what it may not know (DESIGN section 2; each catalog's *-HID-* rules): an event
marked with `events.private` is read as it is only by the sides it names, the others read its public wording or
nothing (`events_seen_by`); saved games and replays keep it whole. Over seeded random games of every ruleset and its
`hidden_variants` (copies that a side cannot tell apart): the same action applied to two such copies gives that side
the same readable events, wherever what it observes afterwards is the same too (where the rules tell it something,
its observation differs and so may the events).

Texts are compared whole, dice by their number only: the two copies share one dice stream, and a hidden number of
hidden rolls (an enemy's recovery rolls, say) shifts the faces of every roll after it, which tells nothing. A die that
says a hidden choice (Cityfight's set-up die) is checked by its own rule test."""
from __future__ import annotations

import numpy as np
import pytest

from envs.engine.events import Event, EventLog, event_from_dict, event_to_dict, events_seen_by, private, readable_by
from tests import checkers


def test_a_private_event_is_read_whole_by_its_sides_in_public_words_by_the_others_and_kept_whole_by_saves():
    log = EventLog()
    log.add("setup", "D1 sets up hidden", 1, dice=(6,), rule="CF-SCN-6", **private(1, public="D1 sets up hidden"))
    log.add("ap", "section A: 4 AP", 1, dice=(3, 4), rule="CF-AP-3", **private(1))
    log.add("to_hit", "A5 needs 6+: 1 hit", 0, dice=(6,), rule="KC-SHOOT-5", **private(1, public="A5: 1 hit", public_dice=True))
    log.add("turn", "turn 1 begins", rule="CF-TURN-1")
    events = log.take()
    assert events_seen_by(events, 1) == events and events_seen_by(events, None) == events
    seen = events_seen_by(events, 0)
    assert [(e.kind, e.text, e.dice, e.side, e.rule) for e in seen] == [
        ("setup", "D1 sets up hidden", (), 1, "CF-SCN-6"), ("to_hit", "A5: 1 hit", (6,), 0, "KC-SHOOT-5"),
        ("turn", "turn 1 begins", (), None, "CF-TURN-1")]
    assert all(not e.data for e in seen[:2]), "the public wording carries no data of the private event"
    again = [event_from_dict(event_to_dict(e)) for e in events]
    assert [e.data for e in again] == [e.data for e in events]
    assert events_seen_by(again, 0) == seen
    assert readable_by(Event("x", "y"), 0)


#: the five rulesets (the toy race of the generic suite hides nothing its events would have to keep)
RULESETS = ("rifles-urban", "rifles-darkness", "cityfight", "urbanwar", "k47")
#: events whose words the rules give the other side although they depend on what it may not know otherwise
TOLD = {("cityfight", "search"): "CF-HID-5: the searched side is told the announced N (its DMs follow from where the "
                                 "searcher stands and how many joined)"}


def fingerprint(ruleset, events, side: int) -> list:
    return [(e.kind, e.side, len(e.dice), e.text) for e in events_seen_by(events, side)
            if (ruleset.name, e.kind) not in TOLD]


def leaks(ruleset, state, action: int) -> list[str]:
    """For each side and each of its hidden variants of `state` (same dice), `action` applied to both: the events
    the side reads differ while what it observes afterwards is the same."""
    found = []
    for side in range(len(ruleset.sides)):
        for variant in ruleset.hidden_variants(state, side):
            twin = checkers.same_dice_variant(state, variant)
            if twin is None or not twin.legal_action_mask()[action]:
                continue
            a, b = type(state).from_dict(state.to_dict()), twin
            ea, eb = a.apply(action), b.apply(action)
            if not np.array_equal(a.observation(side), b.observation(side)):
                continue
            fa, fb = fingerprint(ruleset, ea, side), fingerprint(ruleset, eb, side)
            if fa != fb:
                first = next(((x, y) for x, y in zip(fa, fb) if x != y), (fa[len(fb):], fb[len(fa):]))
                found.append(f"{ruleset.sides[side]} reads {first[0]} in one game and {first[1]} in the other, "
                             f"after {state.action_label(action)}")
    return found


@pytest.mark.parametrize("name", RULESETS)
def test_the_events_a_side_reads_do_not_depend_on_what_it_may_not_know(name):
    from envs import registry
    ruleset = registry.get(name)
    rng = np.random.default_rng(0)
    scenarios = checkers.scenario_names(ruleset)     # every scenario in turn: a variant scenario may hide more
    found, checked = [], 0
    for game in range(checkers.env_int("RUBBLE_EVENT_LEAK_GAMES", 2 * len(scenarios))):
        state = ruleset.new_game(scenario=scenarios[game % len(scenarios)], seed=game)
        decisions = 0
        while state.current_side is not None and decisions < checkers.env_int("RUBBLE_EVENT_LEAK_DECISIONS", 250):
            action = checkers.random_action(rng, state.legal_action_mask())
            if rng.random() < 0.25:
                found += leaks(ruleset, state, action)
                checked += 1
            state.apply(action)
            decisions += 1
    assert checked > 0
    assert not found, f"{ruleset.name}: {len(found)} leak(s), e.g. " + "; ".join(found[:3])


def test_CF_HID_3_the_attacker_reads_the_hidden_set_up_without_its_die():
    from envs import registry
    state = registry.get("cityfight").new_game(seed=0)
    setups = [e for e in state.setup_events if e.kind == "setup"]
    assert setups and all(e.dice for e in setups), "the scenario sets up elements hidden (CF-SCN-6)"
    for e in setups:
        seen = events_seen_by([e], 1 - e.side)
        assert [(s.text, s.dice) for s in seen] == [(e.text, ())]
        assert events_seen_by([e], e.side) == [e]
