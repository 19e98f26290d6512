"""Issue #42: the same seed and timesteps train the same agent, bit for bit, on any machine and under any load.

A step budget is `rubble train`'s default; two runs of the same config and seed write the same actor.zip and the same
figures whatever the clone cache holds (a cached clone trains as a fresh one), whichever process runs them (its hash
seed, its thread settings) and whatever else competes for the CPU meanwhile.
"""
import json
import os
import subprocess
import sys

from envs.paths import PROJECT_ROOT
from tests.training.helpers import ENV, run_cli, write_config
from training.learn.callbacks import forecast_text
from training.learn.config import load_config
from training.learn.train import TrainRequest, budget

RUN = "player-vs-scripted-seed0"


def tiny_config(folder):
    """The tiny config with a step budget of its own (no --timesteps: the default is what is tested) and a few
    cloned games, so that the clone cache takes part."""
    return write_config(folder, timesteps=256, **{"imitation": {"teacher": "scripted", "games": 4, "epochs": 2,
                                                                "batch_size": 64},
                                                  "evaluation": {"every": 128, "games": 2, "final_games": 2}})


def final_section(run) -> str:
    """report.md's final evaluation table (its win rates, intervals and baselines; no times)."""
    return (run / "report.md").read_text(encoding="utf-8").split("## Final evaluation")[1].split("## Run")[0]


def win_rates(run) -> list[str]:
    """eval.csv without its wall-clock column: timesteps, games, results."""
    lines = (run / "eval.csv").read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    keep = [i for i, name in enumerate(header) if "second" not in name and name != "time"]
    return [",".join(cells[i] for i in keep) for cells in (line.split(",") for line in lines)]


def test_same_seed_and_timesteps_write_the_same_actor_whatever_the_cache_process_and_load(tmp_path, capsys):
    config = tiny_config(tmp_path)
    cache = os.environ["RUBBLE_CACHE"]       # the test's own (conftest), empty now

    # 1. In this process, the clone cache empty: it clones, and fills the cache.
    code, _, err = run_cli(capsys, "train", ENV, "--config", config, "--results", tmp_path / "a", "--quiet")
    assert code == 0, err
    first = tmp_path / "a" / ENV / RUN
    assert json.loads((first / "run.json").read_text())["timesteps"] == 256   # the config's step budget
    assert "cached" not in json.loads((first / "run.json").read_text())["imitation"]
    assert list((tmp_path / "cache" / "clones" / ENV).glob("*.npz"))

    # 2. Another process (another hash seed, other thread settings), the cache filled, a busy loop beside it.
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        env = {**os.environ, "RUBBLE_CACHE": cache, "PYTHONHASHSEED": "12345", "OMP_NUM_THREADS": "2",
               "MKL_NUM_THREADS": "2"}
        done = subprocess.run([sys.executable, "-m", "training.cli", "train", ENV, "--config", str(config),
                               "--results", str(tmp_path / "b"), "--quiet"],
                              cwd=PROJECT_ROOT, env=env, capture_output=True, text=True, timeout=600)
    finally:
        busy.kill()
        busy.wait()
    assert done.returncode == 0, done.stderr
    second = tmp_path / "b" / ENV / RUN
    assert "cached" in json.loads((second / "run.json").read_text())["imitation"]   # the cloned start came from the cache

    assert (second / "actor.zip").read_bytes() == (first / "actor.zip").read_bytes()
    assert final_section(second) == final_section(first)
    assert win_rates(second) == win_rates(first)


def test_the_budget_is_the_configs_timesteps_unless_the_command_line_gives_one(tmp_path):
    config = load_config(tiny_config(tmp_path))
    request = TrainRequest(env=ENV, side="player")
    assert budget(request, config) == (256, None)
    assert budget(TrainRequest(env=ENV, side="player", minutes=3), config) == (None, 3)
    assert budget(TrainRequest(env=ENV, side="player", timesteps=99), config) == (99, None)
    minutes_only = load_config(write_config(tmp_path, "minutes.yaml"))
    assert minutes_only.timesteps is None and budget(request, minutes_only) == (None, 1)


def test_a_run_slower_than_expected_says_so_at_the_start():
    slow = forecast_text(1_000_000, 25.3, 700.0, expected=10, slower=1.25)
    assert slow.startswith("train: 1,000,000 timesteps, about 25 minutes more at this speed (700 step/s")
    assert "slower than expected (about 10 minutes on a quiet 2-core machine)" in slow
    assert "slower" not in forecast_text(1_000_000, 11, 1_600.0, expected=10, slower=1.25)
