"""Training configs: the shipped ones load; a bad file names the file and the field."""
import pytest

from envs.engine.scenario import ScenarioError
from envs.paths import CONFIG_ROOT
from tests.training.helpers import ENV, run_cli, write_config
from training.learn.config import default_config_path, load_config


@pytest.mark.parametrize("path", sorted((CONFIG_ROOT / "training").glob("*.yaml")), ids=lambda p: p.name)
def test_shipped_configs_load_and_round_trip(path, tmp_path):
    config = load_config(path)
    copy = tmp_path / "copy.yaml"
    copy.write_text(config.to_yaml(), encoding="utf-8")
    assert load_config(copy) == config


def test_an_env_without_its_own_file_uses_the_default():
    assert default_config_path("no-such-env").name == "default.yaml"


@pytest.mark.parametrize("change, field, expected", [
    ({"ppo.gamma": 2}, "ppo.gamma", "a number in 0..1"),
    ({"ppo.n_steps": "many"}, "ppo.n_steps", "an integer"),
    ({"ppo.learning_rate": None}, "ppo.learning_rate", "a value (the field is missing)"),
    ({"ppo.learning_rte": 0.1}, "ppo.learning_rte", "a known field"),
    ({"envs": 0}, "envs", "an integer in 1..256"),
    ({"vec_env": "threads"}, "vec_env", "one of dummy, subproc"),
    ({"policy.net_arch": [64, 0]}, "policy.net_arch", "a list of layer widths"),
    ({"evaluation.games": None}, "evaluation.games", "a value"),
    ({"turbo": True}, "turbo", "a known field"),
    ({"imitation": {"games": -1}}, "imitation.games", "an integer in 0..inf"),
    ({"imitation": {"teacher": 3}}, "imitation.teacher", "a string"),
    ({"imitation": {"learning_rate": "fast"}}, "imitation.learning_rate", "a number"),
    ({"policy.activation": "sigmoid"}, "policy.activation", "one of tanh, relu"),
])
def test_a_bad_field_is_named_with_its_file(tmp_path, change, field, expected):
    path = write_config(tmp_path, **change)
    with pytest.raises(ScenarioError) as err:
        load_config(path)
    assert err.value.file == str(path) and err.value.field == field
    assert expected in str(err.value)


def test_rubble_train_reports_a_bad_config_in_one_line(tmp_path, capsys):
    path = write_config(tmp_path, **{"ppo.clip_range": "wide"})
    code, _, err = run_cli(capsys, "train", ENV, "--config", path, "--results", tmp_path / "results", "--quiet")
    assert code == 2
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if "clip_range:" in text)
    assert err == f"rubble: {path}:{line}: field 'ppo.clip_range': expected a number, got 'wide'\n"
    assert not (tmp_path / "results").exists()


def test_a_minibatch_larger_than_a_rollout_is_refused(tmp_path, capsys):
    path = write_config(tmp_path, **{"ppo.batch_size": 512})   # 2 envs * 64 steps = 128 per rollout
    code, _, err = run_cli(capsys, "train", ENV, "--config", path, "--results", tmp_path, "--quiet")
    assert code == 2 and "field 'ppo.batch_size': expected at most envs * n_steps = 128, got 512" in err


def test_a_missing_config_file_is_named(tmp_path, capsys):
    code, _, err = run_cli(capsys, "train", ENV, "--config", tmp_path / "none.yaml", "--results", tmp_path)
    assert code == 2 and "none.yaml: field '<file>': expected an existing YAML file" in err


def test_an_unknown_teacher_is_refused(tmp_path, capsys):
    path = write_config(tmp_path, imitation={"teacher": "nobody", "games": 1})
    code, _, err = run_cli(capsys, "train", ENV, "--config", path, "--results", tmp_path)
    assert code == 2 and err.startswith("rubble: unknown agent 'nobody'")
