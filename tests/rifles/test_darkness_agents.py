"""Rifles in the Darkness agents: the scripted player beats the random player against the scripted enemy in Night Crossing."""
import envs  # noqa: F401  (registers the rulesets)
from envs import registry
from training.simulate import Matchup, run_series
from training.stats import tally_side

SEEDS = range(200)


def player_wins(player: str) -> tuple[int, tuple[float, float]]:
    records = run_series(Matchup("rifles-darkness", None, (player, "scripted")), SEEDS)
    tally = tally_side(records, 0)
    return tally.wins, tally.interval("wins")


def test_rifles_darkness_is_registered_with_night_crossing_by_default():
    rs = registry.get("rubble/RiflesDarkness-v0")
    assert rs.name == "rifles-darkness" and rs.default_scenario == "night_crossing"
    assert sorted(rs.scenarios()) == ["night_crossing"]                   # only scenarios with the darkness module
    assert "night_crossing" not in registry.get("rifles-urban").scenarios()
    assert rs.new_game(seed=0).module.name == "darkness"
    assert rs.observation_size == registry.get("rifles-urban").observation_size


def test_scripted_player_beats_random_player_against_scripted_enemy_in_night_crossing():
    scripted_wins, (scripted_low, _) = player_wins("scripted")
    random_wins, (_, random_high) = player_wins("random")
    assert scripted_wins > random_wins
    assert scripted_low > random_high, (scripted_wins, random_wins)   # 95 % Wilson intervals apart
