"""The committed golden traces still come out of the code: no refactor changed a game (tests/generic/golden.py)."""
from __future__ import annotations

import json

import pytest

from tests.generic import golden

EXPECTED = json.loads(golden.GOLDEN_FILE.read_text())


def test_golden_file_covers_every_traced_game():
    keys = {f"state/{n}/{a}-{b}/{s}" for n in golden.RULESETS for a, b in golden.PAIRINGS for s in golden.SEEDS}
    keys |= {f"{d}/{n}/{o}/{s}" for n in golden.RULESETS for d, o in (("gym", "scripted"), ("aec", "random"))
             for s in golden.ENV_SEEDS}
    assert set(EXPECTED) == keys


@pytest.mark.parametrize("name", golden.RULESETS)
def test_state_games_match_their_golden_fingerprints(name):
    from envs import registry
    ruleset = registry.get(name)
    for pairing in golden.PAIRINGS:
        for seed in golden.SEEDS:
            key = f"state/{name}/{pairing[0]}-{pairing[1]}/{seed}"
            assert golden.state_trace(ruleset, pairing, seed) == EXPECTED[key], key


@pytest.mark.parametrize("name", golden.RULESETS)
def test_env_games_match_their_golden_fingerprints(name):
    from envs import registry
    ruleset = registry.get(name)
    for seed in golden.ENV_SEEDS:
        assert golden.gym_trace(ruleset, seed) == EXPECTED[f"gym/{name}/scripted/{seed}"], f"gym seed {seed}"
        assert golden.aec_trace(ruleset, seed) == EXPECTED[f"aec/{name}/random/{seed}"], f"aec seed {seed}"
