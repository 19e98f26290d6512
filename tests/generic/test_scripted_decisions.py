"""The scripted agents still choose as they did in 200 seeded games per ruleset (tests/generic/scripted_decisions.py)."""
from __future__ import annotations

import json

import pytest

from tests.generic import scripted_decisions as golden

EXPECTED = json.loads(golden.GOLDEN_FILE.read_text())


def test_golden_file_covers_every_ruleset():
    assert set(EXPECTED) == set(golden.RULESETS)


@pytest.mark.parametrize("name", golden.RULESETS)
def test_scripted_games_match_their_fingerprints(name):
    found = golden.block_fingerprints(name)
    for block, (got, want) in enumerate(zip(found, EXPECTED[name])):
        assert got == want, f"{name}: first changed block is games {block * golden.PER_BLOCK}-{(block + 1) * golden.PER_BLOCK - 1}"
