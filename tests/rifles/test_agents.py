"""The Rifles agents: the scripted player beats the random player against the scripted enemy, in every Rifles env."""
import pytest

import envs  # noqa: F401  (registers the rulesets)
from training.measure.simulate import Matchup, run_series
from training.measure.stats import tally_side

SEEDS = range(200)


def player_wins(env: str, player: str) -> tuple[int, tuple[float, float]]:
    records = run_series(Matchup(env, None, (player, "scripted")), SEEDS)
    tally = tally_side(records, 0)
    return tally.wins, tally.interval("wins")


@pytest.mark.parametrize("env", ["rifles-urban", "rifles-darkness"])
def test_scripted_player_beats_random_player_against_scripted_enemy(env):
    scripted_wins, (scripted_low, _) = player_wins(env, "scripted")
    random_wins, (_, random_high) = player_wins(env, "random")
    assert scripted_wins > random_wins
    assert scripted_low > random_high, (scripted_wins, random_wins)   # 95 % Wilson intervals apart
