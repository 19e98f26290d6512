"""Each side's observation determines the public facts its ruleset declares (the contract's `public_facts`).

A policy without memory decides from its observation alone, so whatever a catalog calls public (its `Public:`
rules: KC-HID-1..3, UW-HID-1/4, CF-HID-1, RB-HID-1...) must be read off every side's observation: two states with
equal observations for a side have equal public facts. The states are those of seeded random games and, at every
decision, the states one action away (each from a copy with the very same dice, so that siblings which differ only
in a fact, e.g. which target a missed shot was at, or a last sealed order, meet with equal observations); and the
hidden variants of a state, whose observations for the side are equal by contract and whose facts, being public,
must be equal too.
"""
from __future__ import annotations

import json

import numpy as np

from tests import checkers

GAMES = checkers.env_int("RUBBLE_PUBLIC_GAMES", 6)
#: actions tried from each decision of a game (all of them where there are fewer)
BRANCHES = 6


def test_each_sides_observation_determines_the_public_facts(ruleset):
    sides = range(len(ruleset.sides))
    seen: list[dict[bytes, object]] = [{} for _ in sides]
    for state in reached_states(ruleset, GAMES):
        facts = ruleset.public_facts(state)
        hash(facts)
        for side in sides:
            first = seen[side].setdefault(state.observation(side).tobytes(), facts)
            assert first == facts, f"side {side}'s observation is equal, the public facts differ: {difference(first, facts)}"


def test_hidden_variants_keep_the_public_facts(ruleset):
    for state in checkers.sample_states(ruleset, seed=3, count=40):
        facts = ruleset.public_facts(state)
        for side in range(len(ruleset.sides)):
            for variant in ruleset.hidden_variants(state, side):
                assert ruleset.public_facts(variant) == facts, \
                    f"a hidden variant for side {side} changes a public fact: {difference(facts, ruleset.public_facts(variant))}"


def reached_states(ruleset, games: int):
    """Every state of `games` seeded random games, each followed by up to BRANCHES of its children."""
    scenarios = checkers.scenario_names(ruleset)
    for seed in range(games):
        rng = np.random.default_rng(seed)
        state = ruleset.new_game(scenario=scenarios[seed % len(scenarios)], seed=seed)
        while state.current_side is not None:
            yield state
            mask = state.legal_action_mask()
            yield from children(state, mask, rng)
            state.apply(checkers.random_action(rng, mask))


def children(state, mask: np.ndarray, rng: np.random.Generator):
    """The states after up to BRANCHES legal actions, each applied to a JSON copy (the same dice as `state`)."""
    legal = np.flatnonzero(mask)
    picked = legal if legal.size <= BRANCHES else rng.choice(legal, BRANCHES, replace=False)
    saved = json.dumps(state.to_dict())
    for action in picked.tolist():
        child = type(state).from_dict(json.loads(saved))
        child.apply(action)
        yield child


def difference(a, b, path: str = "facts") -> str:
    """Where two public facts first differ, e.g. 'facts[5][2]: (5, True) != zeroed'."""
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return difference(x, y, f"{path}[{i}]")
    return f"{path}: {a!r} != {b!r}"
