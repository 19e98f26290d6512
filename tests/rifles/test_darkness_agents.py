"""Rifles in the Darkness registration (the scripted-vs-random test is in test_agents.py, over both Rifles envs)."""
import envs  # noqa: F401  (registers the rulesets)
from envs import registry


def test_rifles_darkness_is_registered_with_night_crossing_by_default():
    rs = registry.get("rubble/RiflesDarkness-v0")
    assert rs.name == "rifles-darkness" and rs.default_scenario == "night_crossing"
    assert sorted(rs.scenarios()) == ["night_crossing"]                   # only scenarios with the darkness module
    assert "night_crossing" not in registry.get("rifles-urban").scenarios()
    assert rs.new_game(seed=0).module.name == "darkness"
    assert rs.observation_size == registry.get("rifles-urban").observation_size

