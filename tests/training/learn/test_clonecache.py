"""The clone cache's key (training/learn/clonecache.py): the same inputs give the same file, any changed input another."""
from dataclasses import replace

from envs import registry
from tests.training.helpers import ENV, write_config
from training.folders.rundir import RunInfo
from training.learn.clonecache import clone_key
from training.learn.config import load_config


def info(**changes) -> RunInfo:
    return replace(RunInfo(env=ENV, run="r", side="player", opponent="scripted", scenario=None, seed=0, timesteps=64,
                           minutes=None, envs=2, versions={}, git_commit="x"), **changes)


def test_the_key_changes_with_every_input_the_cloned_start_depends_on(tmp_path):
    rs, config = registry.get(ENV), load_config(write_config(tmp_path, imitation={"games": 3}))
    key = clone_key(info(), config, rs)
    assert clone_key(info(run="other", timesteps=9, envs=8), config, rs) == key     # budget and name do not count
    other_config = load_config(write_config(tmp_path, "other.yaml", imitation={"games": 4}))
    assert len({key, clone_key(info(seed=1), config, rs), clone_key(info(side="enemy"), config, rs),
                clone_key(info(opponent="random"), config, rs), clone_key(info(), other_config, rs)}) == 5


def test_a_scenario_file_counts_by_its_content(tmp_path):
    rs, config = registry.get(ENV), load_config(write_config(tmp_path, imitation={"games": 3}))
    scenario = tmp_path / "s.yaml"
    scenario.write_text("a: 1\n")
    before = clone_key(info(scenario=str(scenario)), config, rs)
    scenario.write_text("a: 2\n")
    assert clone_key(info(scenario=str(scenario)), config, rs) != before


def test_the_key_follows_the_configs_the_games_read_under_rubble_configs(tmp_path, monkeypatch):
    """RUBBLE_CONFIGS points the rulesets at another configs/ tree: an edited table there must miss the cache."""
    import shutil

    from envs import paths

    rs, config = registry.get(ENV), load_config(write_config(tmp_path, imitation={"games": 3}))
    copy = tmp_path / "configs"
    shutil.copytree(paths.PROJECT_ROOT / "configs" / "rifles", copy / "rifles")
    monkeypatch.setattr(paths, "CONFIG_ROOT", copy)       # as envs.paths resolves RUBBLE_CONFIGS=copy
    before = clone_key(info(), config, rs)
    table = next((copy / "rifles").rglob("*.yaml"))
    table.write_text(table.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert clone_key(info(), config, rs) != before
