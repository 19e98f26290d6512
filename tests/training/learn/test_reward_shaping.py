"""`reward_shaping:` in a training config: the weight of the standing's change (Ruleset.standing) in each reward."""
from __future__ import annotations

import pytest

from envs.engine.scenario import ScenarioError
from tests import toy_game
from tests.training.helpers import write_config
from training.learn.config import load_config
from training.learn.final import shaping_lines
from training.learn.train import check_config
from training.learn.vector import make_env


def test_reward_shaping_is_off_by_default_and_round_trips(tmp_path):
    assert load_config(write_config(tmp_path)).reward_shaping == 0.0
    config = load_config(write_config(tmp_path, reward_shaping=0.5))
    copy = tmp_path / "copy.yaml"
    copy.write_text(config.to_yaml(), encoding="utf-8")
    assert config.reward_shaping == 0.5 and load_config(copy) == config


def test_a_negative_weight_is_refused_naming_the_file_and_field(tmp_path):
    path = write_config(tmp_path, reward_shaping=-1)
    with pytest.raises(ScenarioError, match=f"{path}.*field 'reward_shaping': expected a number >= 0.0, got -1"):
        load_config(path)


def test_shaping_on_a_ruleset_without_a_standing_is_refused_naming_the_field(tmp_path):
    path = write_config(tmp_path, reward_shaping=0.5)
    with pytest.raises(ScenarioError, match="field 'reward_shaping': expected 0 \\(toy-race declares no standing"):
        check_config(load_config(path), 2, path, toy_game.RULESET)


def test_the_training_env_gets_the_weight():
    assert make_env("urbanwar", None, "scripted", "team_b", 0.5).unwrapped.reward_shaping == 0.5


def test_a_run_report_says_the_training_logs_carry_the_shaped_part_and_the_win_rates_do_not(tmp_path):
    assert shaping_lines(load_config(write_config(tmp_path))) == []
    (line,) = shaping_lines(load_config(write_config(tmp_path, reward_shaping=0.5)))
    assert line.startswith("- reward shaping 0.5 (Ruleset.standing)")
    assert "`rollout/ep_rew_mean`" in line and "counts results only" in line
