"""Many seeded random games per ruleset end without error, within the turn limit, with sensible returns.

RUBBLE_RANDOM_GAMES (default 1000) games per ruleset, split into chunks so pytest-xdist can spread them.
"""
from __future__ import annotations

import pytest

from tests import checkers

GAMES = checkers.env_int("RUBBLE_RANDOM_GAMES", 1000)
CHUNKS = 10


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games(ruleset, chunk):
    scenarios = checkers.scenario_names(ruleset)
    for seed in range(chunk, GAMES, CHUNKS):
        checkers.check_random_game(ruleset, seed, scenarios[seed % len(scenarios)])
