"""A run folder survives a kill, is never written by two processes, and never leaves results/<env>/."""
from __future__ import annotations

import csv
import os
import signal
import subprocess
import sys
import time

from tests.training.helpers import ENV, run_cli, write_config
from training.folders.rundir import RunDir
from training.learn.train import TrainRequest, new_run, run_session


def tiny_run(tmp_path, timesteps: int, **changes) -> RunDir:
    return new_run(TrainRequest(env=ENV, side="player", timesteps=timesteps, config_path=write_config(tmp_path, **changes),
                                results=tmp_path / "results"))


def eval_steps(run: RunDir) -> list[int]:
    return [int(float(row["timesteps"])) for row in csv.DictReader(run.eval_csv.open())]


def test_a_run_name_that_leaves_results_is_refused(tmp_path, capsys):
    code, _, err = run_cli(capsys, "train", ENV, "--run", "../../escaped-run", "--timesteps", 8,
                           "--results", tmp_path / "results", "--config", write_config(tmp_path))
    assert code == 2 and "run name '../../escaped-run': expected one folder name" in err
    assert not (tmp_path / "escaped-run").exists() and not list(tmp_path.rglob("escaped-run"))


def test_a_second_process_on_a_run_in_use_is_refused_naming_the_holder(tmp_path, capsys):
    run = tiny_run(tmp_path, 64)
    with run.locked():
        code, _, err = run_cli(capsys, "train", ENV, "--resume", run.path.name, "--results", tmp_path / "results",
                               "--quiet")
    assert code == 2 and err.strip() == f"rubble: run {run.path.name} is in use by process {os.getpid()}"
    assert run.read_info().sessions == 0                       # the refused process changed nothing


def test_a_model_cut_short_by_a_kill_resumes_from_the_newest_checkpoint(tmp_path, capsys):
    run = tiny_run(tmp_path, 512, **{"checkpoints.every": 128})
    run_session(run, progress=False)
    run.model.write_bytes(b"")                                 # what a kill in the middle of an in-place save left
    newest = run.saved_models()[1]
    code, _, err = run_cli(capsys, "train", ENV, "--resume", run.path.name, "--timesteps", 640,
                           "--results", tmp_path / "results", "--quiet")
    assert code == 0 and f"resuming from {newest.name}: model.zip: " in err
    assert run.read_info().trained_timesteps == 640


def test_a_sigkill_between_checkpoints_resumes_with_logs_that_match_the_model(tmp_path):
    """A real `rubble train` killed with SIGKILL after a checkpoint: the resume goes on from the last saved model,
    and eval.csv loses the rows of the steps that model never took."""
    config = write_config(tmp_path, **{"evaluation.every": 64, "checkpoints.every": 256})
    results = tmp_path / "results"
    command = [sys.executable, "-m", "training.cli", "train", ENV, "--timesteps", "100000", "--config", str(config),
               "--results", str(results), "--quiet"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    run = RunDir(results / ENV / "player-vs-scripted-seed0")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:                        # past the first checkpoint, between two
        if run.checkpoint(256).exists() and run.eval_csv.exists() and max(eval_steps(run)) > 300:
            break
        time.sleep(0.2)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert run.model.exists() and max(eval_steps(run)) > 256   # rows past the saved model: the steps lost
    outcome = run_session(run, progress=False, budget=(run.read_info().trained_timesteps + 64, None))
    saved = outcome.info.trained_timesteps
    steps = eval_steps(run)
    assert outcome.status == "finished" and steps == sorted(steps) and len(steps) == len(set(steps))
    assert max(steps) == saved                                 # the curve ends at the model the run goes on from


def test_workers_are_capped_by_games_and_processors():
    from training.measure.simulate import worker_count
    assert worker_count(100_000, 1) == 1 and worker_count(100_000, 10**6) == (os.cpu_count() or 1)
    assert worker_count(2, 50) == min(2, os.cpu_count() or 1) and worker_count(0, 5) == 1


def test_a_huge_jobs_count_plays_with_few_workers(capsys):
    code, out, err = run_cli(capsys, "simulate", ENV, "--games", 1, "--jobs", 100000, "--player", "random",
                             "--enemy", "random", "--quiet")
    assert code == 0 and "1 games in" in out, err
