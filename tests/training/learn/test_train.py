"""`rubble train`: a short run end to end, Ctrl-C and --resume, the files a run leaves."""
import csv
import json
import os
import signal

import torch
from stable_baselines3.common.callbacks import BaseCallback

from agents.trained import model_meta
from envs import registry
from tests.training.helpers import ENV, run_cli, write_config
from training.folders.rundir import RunDir
from training.learn.clonecache import clone_key, clone_path
from training.learn.config import load_config
from training.learn.train import Session, TrainRequest, new_run, run_session


def load_model(path):
    """A model.zip this test's own run wrote (trusted: the project never loads one it did not write)."""
    from sb3_contrib import MaskablePPO
    return MaskablePPO.load(path, device="cpu")


def ctrl_c() -> None:
    raise KeyboardInterrupt


def sigterm() -> None:
    """What `kill` or a job scheduler sends."""
    os.kill(os.getpid(), signal.SIGTERM)


class StopAfter(BaseCallback):
    """Stops training the way `stop` does (ctrl_c, sigterm) once `steps` timesteps have been taken."""

    def __init__(self, steps: int, stop=ctrl_c) -> None:
        super().__init__()
        self.steps, self.stop = steps, stop

    def _on_step(self) -> bool:
        if self.model.num_timesteps >= self.steps:
            self.stop()
        return True


class RecordStart(BaseCallback):
    """Keeps the step count, parameters and optimizer state the model has when learning starts."""

    def _on_training_start(self) -> None:
        self.timesteps = self.model.num_timesteps
        self.params = {k: v.clone() for k, v in self.model.policy.state_dict().items()}
        self.optimizer_steps = optimizer_steps(self.model.policy.optimizer)

    def _on_step(self) -> bool:
        return True


def optimizer_steps(optimizer) -> list[float]:
    return [float(state["step"]) for state in optimizer.state.values()]


def new_tiny_run(tmp_path, timesteps=384, run=None, **changes) -> RunDir:
    config = write_config(tmp_path, **changes)
    return new_run(TrainRequest(env=ENV, side="player", timesteps=timesteps, config_path=config,
                                results=tmp_path / "results", run=run))


def test_a_short_run_trains_evaluates_and_reports(tmp_path, capsys):
    config = write_config(tmp_path)
    code, out, err = run_cli(capsys, "train", ENV, "--timesteps", 300, "--config", config, "--results",
                             tmp_path, "--seed", 3, "--quiet")
    assert code == 0, err
    run = RunDir(tmp_path / ENV / "player-vs-scripted-seed3")
    for path in (run.config, run.info_file, run.model, run.actor, run.eval_csv, run.curve, run.report):
        assert path.is_file(), path
    info = run.read_info()
    assert info.status == "finished" and info.trained_timesteps >= 300 and info.sessions == 1
    assert info.versions["rubble"] and info.git_commit
    rows = list(csv.DictReader(run.eval_csv.open()))
    assert rows[0]["timesteps"] == "0" and int(rows[-1]["timesteps"]) == info.trained_timesteps
    assert list(run.tensorboard.glob("ppo_0/events.out.tfevents.*"))
    report = run.report.read_text()
    for text in ("against the scripted enemy", "against the random enemy", "[95 % CI]", "1,000,000..1,000,003",
                 f"rubble train {ENV} --side player --opponent scripted --seed 3", "![learning curve](curve.png)"):
        assert text in report, text
    assert "against the scripted enemy" in out and "report: " in out
    assert model_meta(load_model(run.model))["side"] == "player"


def test_ctrl_c_saves_and_resume_continues_the_same_model(tmp_path):
    run = new_tiny_run(tmp_path)
    first = run_session(run, progress=False, callbacks=[StopAfter(200)])
    assert first.status == "interrupted" and first.final == []
    saved = load_model(run.model)
    info = run.read_info()
    assert info.status == "interrupted" and info.trained_timesteps == saved.num_timesteps >= 200
    assert "resume" in run.report.read_text()
    rows_before = run.eval_csv.read_text().splitlines()

    start = RecordStart()
    second = run_session(run, progress=False, callbacks=[start])
    assert second.status == "finished"
    assert start.timesteps == saved.num_timesteps                  # the step count continues...
    for name, value in saved.policy.state_dict().items():          # ...from the very parameters saved
        assert torch.equal(start.params[name], value), name
    assert start.optimizer_steps == optimizer_steps(saved.policy.optimizer) and start.optimizer_steps[0] > 0
    info = run.read_info()
    assert info.status == "finished" and info.sessions == 2 and info.trained_timesteps >= 384
    assert run.eval_csv.read_text().splitlines()[: len(rows_before)] == rows_before   # appended, not rewritten
    assert [p.name for p in run.tensorboard.iterdir()] == ["ppo_0"]                  # one log, continued


def test_sigterm_saves_like_ctrl_c_and_restores_the_handler(tmp_path):
    run = new_tiny_run(tmp_path)
    before = signal.getsignal(signal.SIGTERM)
    result = run_session(run, progress=False, callbacks=[StopAfter(200, sigterm)])
    assert result.status == "interrupted"
    info = run.read_info()
    assert info.status == "interrupted" and info.trained_timesteps == load_model(run.model).num_timesteps >= 200
    assert signal.getsignal(signal.SIGTERM) is before


def test_resume_from_the_command_line_with_a_new_budget(tmp_path, capsys):
    run = new_tiny_run(tmp_path, timesteps=128)
    run_session(run, progress=False)
    code, out, err = run_cli(capsys, "train", ENV, "--resume", run.path.name, "--timesteps", 256,
                             "--results", tmp_path / "results", "--quiet")
    assert code == 0, err
    info = run.read_info()
    assert info.timesteps == 256 and info.trained_timesteps == 256 and info.sessions == 2


def test_resume_with_a_budget_already_spent_is_refused_naming_what_the_run_did(tmp_path, capsys):
    # The budget is the run's total: --timesteps 64 after 128 would train nothing and only re-evaluate.
    run = new_tiny_run(tmp_path, timesteps=128)
    run_session(run, progress=False)
    before = run.read_info()
    code, _, err = run_cli(capsys, "train", ENV, "--resume", run.path.name, "--timesteps", 64,
                           "--results", tmp_path / "results", "--quiet")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "--timesteps is the run's total budget and it has trained 128 already; expected more than that" in err
    assert run.read_info() == before


def test_ctrl_c_exits_with_130_and_says_how_to_resume(tmp_path, capsys, monkeypatch):
    def interrupt(self, timesteps):
        raise KeyboardInterrupt
    monkeypatch.setattr(Session, "evaluate", interrupt)
    code, out, _ = run_cli(capsys, "train", ENV, "--timesteps", 256, "--config", write_config(tmp_path),
                           "--results", tmp_path, "--run", "stopped", "--quiet")
    assert code == 130
    assert f"Continue with `rubble train {ENV} --resume stopped`" in out
    assert json.loads((tmp_path / ENV / "stopped" / "run.json").read_text())["status"] == "interrupted"


def test_same_seed_same_model(tmp_path):
    models = []
    for name in ("a", "b"):
        run = new_tiny_run(tmp_path, timesteps=128, run=name)
        run_session(run, progress=False)
        models.append(load_model(run.model).policy.state_dict())
    assert all(torch.equal(models[0][k], models[1][k]) for k in models[0])


def test_the_configs_activation_reaches_the_saved_policy(tmp_path):
    run = new_tiny_run(tmp_path, timesteps=128, **{"policy.activation": "relu"})
    run_session(run, progress=False)
    policy = load_model(run.model).policy
    assert policy.activation_fn is torch.nn.ReLU
    assert any(isinstance(layer, torch.nn.ReLU) for layer in policy.mlp_extractor.policy_net)


def test_an_existing_run_name_is_not_overwritten(tmp_path, capsys):
    config = write_config(tmp_path)
    (tmp_path / ENV / "mine").mkdir(parents=True)
    code, _, err = run_cli(capsys, "train", ENV, "--run", "mine", "--config", config, "--results", tmp_path)
    assert code == 2 and "resume it with --resume mine" in err


def test_resume_of_an_unknown_run_fails_in_one_line(tmp_path, capsys):
    code, _, err = run_cli(capsys, "train", ENV, "--resume", "nothing", "--results", tmp_path)
    assert code == 2 and err.startswith("rubble: no run 'nothing'")


def test_the_enemy_side_learns_against_the_scripted_player(tmp_path):
    request = TrainRequest(env=ENV, side="enemy", timesteps=128, config_path=write_config(tmp_path),
                           results=tmp_path / "results")
    run = new_run(request)
    outcome = run_session(run, progress=False)
    assert outcome.status == "finished" and run.path.name == "enemy-vs-scripted-seed0"
    assert "the trained enemy wins" in run.report.read_text()


def test_imitation_clones_the_teacher_before_ppo(tmp_path):
    config = write_config(tmp_path, **{"imitation": {"teacher": "scripted", "games": 3, "epochs": 2}})
    run = new_run(TrainRequest(env=ENV, side="player", timesteps=128, config_path=config, results=tmp_path))
    run_session(run, progress=False)
    imitation = run.read_info().imitation
    assert imitation["games"] == 3 and imitation["decisions"] > 3 and 0 <= imitation["accuracy"] <= 1
    assert "- imitation: before PPO the policy copied the scripted player" in run.report.read_text()


def test_a_second_run_of_the_same_config_starts_from_the_cached_clone_and_trains_the_same(tmp_path):
    config = write_config(tmp_path, **{"imitation": {"teacher": "scripted", "games": 3, "epochs": 2}})
    runs = [new_run(TrainRequest(env=ENV, side="player", timesteps=128, config_path=config, results=tmp_path,
                                 run=name)) for name in ("first", "second")]
    for run in runs:
        run_session(run, progress=False)
    first, second = (run.read_info().imitation for run in runs)
    assert "cached" not in first and second["cached"].endswith(".npz")
    assert {k: v for k, v in second.items() if k not in ("cached", "seconds")} == \
        {k: v for k, v in first.items() if k != "seconds"}
    assert "the cloned start of an earlier run" in runs[1].report.read_text()
    weights = [load_model(run.model).policy.state_dict() for run in runs]
    assert all(torch.equal(weights[0][name], weights[1][name]) for name in weights[0])


def test_a_cached_clone_that_does_not_fit_the_policy_is_cloned_again(tmp_path, capsys):
    config = write_config(tmp_path, **{"imitation": {"teacher": "scripted", "games": 3, "epochs": 2}})
    run = new_run(TrainRequest(env=ENV, side="player", timesteps=128, config_path=config, results=tmp_path))
    rs = registry.get(ENV)
    path = clone_path(rs.name, clone_key(run.read_info(), load_config(run.config), rs))
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not an archive")
    run_session(run, progress=False)
    assert "cached" not in run.read_info().imitation
    assert f"{path}: cached cloned start not used" in capsys.readouterr().err


def test_a_model_opponent_is_named_by_its_run_and_kept_as_an_absolute_path(tmp_path, monkeypatch):
    from tests.training.helpers import tiny_actor
    folder = tmp_path / "results" / ENV / "enemy-run"
    folder.mkdir(parents=True)
    tiny_actor(folder / "actor.zip", side="enemy")
    monkeypatch.chdir(tmp_path)
    run = new_run(TrainRequest(env=ENV, side="player", opponent=f"results/{ENV}/enemy-run/actor.zip", timesteps=64,
                               config_path=write_config(tmp_path), results=tmp_path / "results"))
    assert run.path.name == "player-vs-enemy-run-seed0"
    assert run.read_info().opponent == str(folder / "actor.zip")
    assert run_session(run, progress=False).status == "finished"
    assert run.report.read_text().startswith(f"# {ENV} / player-vs-enemy-run-seed0: player vs enemy-run")


def test_resume_refuses_settings_it_would_ignore(tmp_path, capsys):
    code, _, err = run_cli(capsys, "train", ENV, "--resume", "x", "--seed", 3, "--envs", 2, "--results", tmp_path)
    assert code == 2 and "--resume keeps the run's settings (--seed, --envs given)" in err


def test_resuming_a_finished_run_only_reports_again(tmp_path):
    run = new_tiny_run(tmp_path, timesteps=128)
    run_session(run, progress=False)
    before = run.eval_csv.read_text()
    again = run_session(run, progress=False)
    assert again.status == "finished" and run.read_info().sessions == 1 and run.eval_csv.read_text() == before


def test_an_error_while_learning_leaves_a_failed_run(tmp_path):
    class Boom(BaseCallback):
        def _on_step(self) -> bool:
            raise RuntimeError("boom")
    run = new_tiny_run(tmp_path, timesteps=128)
    try:
        run_session(run, progress=False, callbacks=[Boom()])
    except RuntimeError:
        pass
    assert run.read_info().status == "failed" and run.model.is_file()


def test_any_registered_ruleset_trains_here_the_toy_race(tmp_path):
    from tests import toy_game
    toy_game.register()
    config = write_config(tmp_path, imitation={"games": 3})
    run = new_run(TrainRequest(env=toy_game.NAME, side="red", timesteps=128, config_path=config, results=tmp_path))
    assert run_session(run, progress=False).status == "finished"
    assert "the trained red wins" in run.report.read_text()


def test_periodic_evaluations_record_a_replay_every_nth_time(tmp_path):
    """TINY evaluates every 128 steps; with record: 2 the evaluations at steps 0, 256... write a replay each."""
    from training.replay import files as replay

    run = new_tiny_run(tmp_path, timesteps=384, **{"evaluation.record": 2})
    assert run_session(run, progress=False).status == "finished"
    names = sorted(p.name for p in (run.path / "replays").iterdir())
    assert names == [f"rifles-urban-player_step{steps}-vs-scripted-seed0.rubble.json.gz" for steps in (0, 256)]
    data, _ = replay.verify(run.path / "replays" / names[-1])
    assert data["agents"][0] == "player_step256"
    assert "record: 2" in run.config.read_text()
