"""`rubble train`: MaskablePPO (sb3-contrib, torch CPU) on one side of a ruleset, against an opponent policy.

A run lives in results/<env>/<run>/ (see training/folders/rundir.py). `start_run` makes the folder; `run_session`
trains until the budget is spent or Ctrl-C, saving the model with its optimizer state and the step count,
so that `run_session` on the same folder later (`rubble train ENV --resume RUN`) continues where it stopped.
"""
from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

from stable_baselines3.common.callbacks import BaseCallback, CallbackList

from agents.trained import META_ATTRIBUTE, Actor, ModelFileError, PolicyAgent
from envs import registry
from envs.engine.scenario import ScenarioError
from training import lookup
from training.folders.rundir import (
    RESULTS_ROOT,
    RunDir,
    RunInfo,
    agent_label,
    check_run_name,
    find_run,
    git_commit,
    is_saved_agent,
    new_run_name,
    replacing,
    versions,
)
from training.measure.series import TRAIN_EVAL_SEED, SideResult, play_series, seeds_from, side_result

from .callbacks import Clock, Forecast, Periodic, ProgressBar, TimeBudget, UpdatedSteps
from .clonecache import clone_key, clone_path, load_clone, save_clone
from .config import TrainConfig, activation_fn, load_config
from .evallog import append_eval_row, eval_row, read_eval_rows, truncate_eval_rows
from .extractors import policy_kwargs

# Imported now, not when a run ends: a run that takes 15 minutes must not mix code from two versions.
from .final import final_evaluation, write_run_report
from .imitation import clone, collect, teacher_seeds
from .resume import load_model as resume_model
from .resume import safe_objects
from .vector import make_vec_env
from .warm_start import check_start, start_from, start_record

TB_NAME = "ppo"               # TensorBoard logs go to <run>/tb/ppo_0; a resumed session appends there
UNLIMITED = 10**12            # learn()'s total under a time budget: the clock stops the run, not the count


@dataclass(frozen=True)
class TrainRequest:
    """What `rubble train` was asked for (a new run)."""

    env: str
    side: str
    opponent: str = "scripted"
    scenario: str | None = None
    seed: int = 0
    timesteps: int | None = None
    minutes: float | None = None
    config_path: Path | None = None
    envs: int | None = None
    run: str | None = None
    results: Path = RESULTS_ROOT
    folder: Path | None = None     # where the run folder goes instead of RESULTS/<env>/ (e.g. a best response's)
    start_from: str | None = None  # an actor.zip of the side to start from in place of behaviour cloning


@dataclass
class Outcome:
    """How a session ended: 'finished' (budget spent) or 'interrupted' (Ctrl-C), and where the run is."""

    rundir: RunDir
    info: RunInfo
    status: str
    final: list = field(default_factory=list)


# Starting a run -------------------------------------------------------------------------------------
def start_run(request: TrainRequest, config: TrainConfig) -> RunDir:
    """Make results/<env>/<run>/ with config.yaml and run.json; the run itself starts in run_session."""
    rs = registry.get(request.env)
    env_dir = Path(request.folder) if request.folder is not None else Path(request.results) / rs.name
    if request.run is not None:
        check_run_name(request.run)   # never a path: a run stays inside results/<env>/
    if request.run and (env_dir / request.run).exists():
        raise FileExistsError(f"run {request.run!r} exists in {env_dir}: resume it with --resume {request.run}, "
                              "or choose another --run")
    name = request.run or new_run_name(env_dir, default_run_name(request))
    rundir = RunDir(env_dir / name)
    rundir.path.mkdir(parents=True)
    rundir.config.write_text(config.to_yaml(), encoding="utf-8")
    # A model opponent is kept as an absolute path: a resumed run may start from another directory.
    opponent = str(Path(request.opponent).resolve()) if is_saved_agent(request.opponent) else request.opponent
    timesteps, minutes = budget(request, config)
    rundir.write_info(RunInfo(env=rs.name, run=name, side=request.side, opponent=opponent,
                              scenario=request.scenario, seed=request.seed, timesteps=timesteps, minutes=minutes,
                              envs=request.envs or config.envs, versions=versions(), git_commit=git_commit(),
                              imitation=start_record(request.start_from)))
    return rundir


def budget(request: TrainRequest, config: TrainConfig) -> tuple[int | None, float | None]:
    """(timesteps, minutes): the one the request gives, else the config's timesteps, else its minutes.

    A step budget is the default (issue #42): the same seed and timesteps train the same agent on any machine, however
    busy; a wall-clock budget trains less on a slower machine and its result depends on it."""
    if request.timesteps is not None:
        return request.timesteps, None
    if request.minutes is not None:
        return None, request.minutes
    if config.timesteps is not None:
        return config.timesteps, None
    return None, config.minutes


def default_run_name(request: TrainRequest) -> str:
    """e.g. 'player-vs-scripted-seed0'; a model opponent is named by its run folder."""
    return f"{request.side}-vs-{agent_label(request.opponent)}-seed{request.seed}"


def check_config(config: TrainConfig, envs: int, path, ruleset=None) -> None:
    """The checks that need the number of environments (a minibatch must fit in one rollout) or the ruleset (a
    grid extractor needs a board declared in its observation layout, reward shaping a standing)."""
    rollout = envs * config.ppo.n_steps
    if config.ppo.batch_size > rollout:
        raise ScenarioError(str(path), "ppo.batch_size", f"at most envs * n_steps = {rollout}",
                            config.ppo.batch_size)
    if ruleset is not None and config.extractor == "grid" and ruleset.observation_layout().planes is None:
        raise ScenarioError(str(path), "policy.extractor", f"mlp ({ruleset.name} declares no board planes for grid)",
                            config.extractor)
    if ruleset is not None and config.reward_shaping and not ruleset.declares_standing:
        raise ScenarioError(str(path), "reward_shaping", f"0 ({ruleset.name} declares no standing to shape by)",
                            config.reward_shaping)


# One session of a run --------------------------------------------------------------------------------
def run_session(rundir: RunDir, progress: bool = True, callbacks: Sequence[BaseCallback] = (),
                budget: tuple[int | None, float | None] | None = None, final: bool = True) -> Outcome:
    """Train the run in `rundir` from where it stands until its budget is spent or Ctrl-C; then report.
    `final=False` skips the final evaluation, for a caller that plays its own held-out games (`rubble exploit`)."""
    with rundir.locked():
        return _run_session(rundir, progress, callbacks, budget, final)


def _run_session(rundir: RunDir, progress: bool, callbacks: Sequence[BaseCallback],
                 budget: tuple[int | None, float | None] | None, final: bool) -> Outcome:
    import torch

    info, config = rundir.read_info(), load_config(rundir.config)
    if budget is not None and budget != (None, None):   # a resume may set a new budget
        info = info.with_progress(timesteps=budget[0], minutes=budget[1])
    check_config(config, info.envs, rundir.config, registry.get(info.env))
    torch.set_num_threads(config.torch_threads)   # the config's, never the machine's count: sums split by threads differ
    with deterministic_torch():
        session = Session(rundir, info, config, progress)
        status = session.learn(callbacks)
        outcome = Outcome(rundir, session.info, status)
        if status == "finished" and final:
            outcome.final = session.final_evaluation()
        session.write_report(outcome.final)
    return outcome


@contextmanager
def deterministic_torch():
    """Inside, torch uses only its deterministic algorithms (warning where an op has none), so that the same seed and
    timesteps give the same model bit for bit on any machine and load (issue #42); the setting before is restored."""
    import torch

    before, warn_only = torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled()
    torch.use_deterministic_algorithms(True, warn_only=True)
    try:
        yield
    finally:
        torch.use_deterministic_algorithms(before, warn_only=warn_only)


@contextmanager
def global_random_state_kept():
    """Inside, draws from Python's, numpy's and torch's global generators are undone on leaving: what happens inside
    (behaviour cloning) cannot change what PPO draws after it, so a cached clone trains as a fresh one."""
    import random

    import numpy as np
    import torch

    states = random.getstate(), np.random.get_state(), torch.get_rng_state()
    try:
        yield
    finally:
        random.setstate(states[0])
        np.random.set_state(states[1])
        torch.set_rng_state(states[2])


class Session:
    """One sitting of a run: the environments, the model, the clock, the evaluations."""

    def __init__(self, rundir: RunDir, info: RunInfo, config: TrainConfig, progress: bool) -> None:
        self.rundir, self.info, self.config, self.progress = rundir, info, config, progress
        self.rs = registry.get(info.env)
        self.side = self.rs.sides.index(info.side)
        self.venv = self.make_venv()
        self.model = self._model()
        self.clock = Clock(info.trained_seconds, None if info.minutes is None else 60 * info.minutes)
        self.bar = ProgressBar(self.clock, info.timesteps, disable=not progress)
        self.forecast = self._forecast()
        self.updated = UpdatedSteps()

    def _forecast(self) -> Forecast:
        """How long a step budget will take here, said once when learning has measured its speed; `expected`: what
        the config says its own step budget takes on a quiet 2-core machine (its `minutes`), scaled to this budget."""
        info, config = self.info, self.config
        expected = (config.minutes * info.timesteps / config.timesteps
                    if None not in (info.timesteps, config.timesteps, config.minutes) else None)
        evaluations = 0 if info.timesteps is None else max(0, info.timesteps - info.trained_timesteps) // config.eval_every
        final_games = 4 * config.final_games + 2 * config.eval_games   # final_evaluation's four rows, the baselines
        return Forecast(info.timesteps, expected, evaluations * config.eval_games + final_games,
                        say=None if self.progress else (lambda text: None))

    def make_venv(self):
        """The training environments: the learner's side against the run's opponent (a league draws its own)."""
        info = self.info
        return make_vec_env(info.env, info.scenario, info.opponent, info.side, info.envs, self.config.vec_env,
                            self.config.reward_shaping)

    @property
    def teacher_opponent(self) -> str:
        """The opponent of the behaviour-cloning games (and of the clone cache's key): the run's opponent."""
        return self.info.opponent

    def _model(self):
        from sb3_contrib import MaskablePPO

        tb = str(self.rundir.tensorboard)
        if self.rundir.saved_models():
            model = self._resumed(tb)
            # New games for the new session: the env seeds move on with the steps already taken.
            model.set_random_seed(self.info.seed + self.info.trained_timesteps)
            return model
        model = MaskablePPO("MlpPolicy", self.venv, seed=self.info.seed, device="cpu", tensorboard_log=tb,
                            verbose=0, policy_kwargs=policy_kwargs(self.config, self.rs), **asdict(self.config.ppo))
        if self.info.imitation and "start_from" not in self.info.imitation:
            # A cloning record with no saved model (a run killed mid-save before the order above): the policy
            # holds none of it. Dropped, so that the run clones again and its report claims only what it holds.
            self.info = self.info.with_progress(imitation={})
        if "start_from" in self.info.imitation:    # a new run's start (a resumed one has it in its saved model)
            start_from(model.policy, self.info.imitation["start_from"], self.rs, self.side)
        return model

    def _resumed(self, tb: str):
        """The newest model that loads (model.zip, else the newest checkpoint), nothing unpickled; the logs are
        cut back to its step, so that they match the model the run goes on from."""
        replacements = safe_objects({"learning_rate": self.config.ppo.learning_rate}, self.venv.observation_space,
                                    self.venv.action_space, self.config.net_arch,
                                    activation_fn(self.config.activation), self.config.ppo.clip_range,
                                    policy_kwargs(self.config, self.rs))
        refused = []
        for path in self.rundir.saved_models():
            try:
                model = resume_model(path, self.info.env, self.info.side, replacements, env=self.venv,
                                     tensorboard_log=tb)
            except Exception as exc:  # noqa: BLE001 - a file cut short by a kill fails in many ways inside SB3
                refused.append(f"{path.name}: {type(exc).__name__}: {exc}")
                continue
            if refused:
                print(f"resuming from {path.name}: {', '.join(refused)} could not be read", file=sys.stderr)
            steps = int(model.num_timesteps)
            truncate_eval_rows(self.rundir.eval_csv, steps)
            self.info = self.info.with_progress(trained_timesteps=steps,
                                                updated_timesteps=min(self.info.updated_timesteps, steps))
            return model
        raise ModelFileError(f"{self.rundir.path}: no saved model could be read ({', '.join(refused)})")

    def imitate(self) -> None:
        """Behaviour cloning of the teacher before the first PPO step (training/learn/imitation.py), or the cloned start
        an earlier run with the same inputs left in the cache (training/learn/clonecache.py)."""
        teacher_info = self.info.with_progress(opponent=self.teacher_opponent)
        cached = clone_path(self.rs.name, clone_key(teacher_info, self.config, self.rs))
        stats = load_clone(cached, self.model.policy)
        if stats is None:
            with global_random_state_kept():   # a cached clone draws nothing: neither may a fresh one
                stats = self._clone()
            save_clone(cached, self.model.policy, stats)
        else:
            if self.progress:
                print(f"imitation: the cloned start of an earlier run with this config ({cached})", file=sys.stderr)
            stats["cached"] = str(cached)
        settings = self.config.imitation
        # The record goes to run.json only with the model that holds it: save() writes model.zip first, run.json
        # last, so a kill in between leaves a run that clones again rather than one that claims a cloned start.
        self.info = self.info.with_progress(imitation={**stats, "teacher": settings.teacher,
                                                       "seconds": round(self.clock.elapsed(), 1)})
        self.save("running")   # a Ctrl-C from here on resumes from the cloned policy

    def _clone(self) -> dict:
        settings, rs = self.config.imitation, self.rs
        factories = [lookup.agent(rs, self.teacher_opponent)] * len(rs.sides)
        factories[self.side] = lookup.agent(rs, settings.teacher)
        if self.progress:
            print(f"imitation: {settings.games} games of the {settings.teacher} {self.info.side}", file=sys.stderr)
        demos = collect(rs, self.info.scenario, self.side, factories, teacher_seeds(self.info.seed, settings.games),
                        self.config.ppo.gamma)
        return clone(self.model.policy, demos, settings.epochs, settings.batch_size, self.config.ppo.vf_coef,
                     self.info.seed, settings.learning_rate)

    # Learning -------------------------------------------------------------------------------------
    def learn(self, extra: Sequence[BaseCallback]) -> str:
        """Run model.learn to the budget; Ctrl-C or SIGTERM ends it early. Saves either way."""
        remaining = self._remaining()
        imitate = self.model.num_timesteps == 0 and self.config.imitation.games and not self.info.imitation
        learn = remaining > 0 and not self.clock.spent()
        # A finished run resumed with no budget left only re-evaluates and rewrites its report: not a session.
        self._save_info(status="running", sessions=self.info.sessions + int(bool(imitate or learn)))
        status = "failed"   # unless learning ends normally or by Ctrl-C; an error propagates after the save
        try:
            with terminate_as_interrupt():
                if imitate:
                    self.imitate()
                if learn:
                    self.model.learn(remaining, callback=self._callbacks(extra), reset_num_timesteps=False,
                                     tb_log_name=TB_NAME)
            status = "finished"
        except KeyboardInterrupt:
            status = "interrupted"
        finally:
            self.bar.close()
            self.save(status)
            self._close_envs()
        return status

    def _remaining(self) -> int:
        if self.info.timesteps is None:
            return UNLIMITED
        return self.info.timesteps - self.model.num_timesteps

    def _callbacks(self, extra: Sequence[BaseCallback]) -> CallbackList:
        rows = read_eval_rows(self.rundir.eval_csv)
        last_eval = int(rows[-1]["timesteps"]) if rows else 0
        # A new run evaluates its untrained model first: the curve's first point.
        every_eval = Periodic(self.config.eval_every, self.evaluate, last=last_eval, now=not rows)
        every_checkpoint = Periodic(self.config.checkpoint_every, self.checkpoint, last=self.model.num_timesteps)
        return CallbackList([self.updated, TimeBudget(self.clock), self.bar, self.forecast, every_eval, every_checkpoint,
                             *extra])

    def _close_envs(self) -> None:
        try:
            self.venv.close()
        except (EOFError, BrokenPipeError, ConnectionError):
            pass  # Ctrl-C reaches SubprocVecEnv's workers too; they may be gone already

    # Evaluations and saving -----------------------------------------------------------------------
    def trained_factory(self):
        policy, name = self.model.policy, self.info.run
        return lambda side, seed: PolicyAgent(policy, side, name)

    def play_learner(self, opponent: str, seeds, agent_factory=None, recorder=None) -> SideResult:
        """The learner's side (the model, or `agent_factory`) against `opponent` on every other side."""
        factories = [lookup.agent(self.rs, opponent)] * len(self.rs.sides)
        factories[self.side] = agent_factory or self.trained_factory()
        return side_result(play_series(self.rs, self.info.scenario, factories, seeds, recorder), self.side)

    def eval_recorder(self, timesteps: int):
        """With `evaluation.record: N`, every Nth periodic evaluation records its first game into RUN/replays/,
        the learner named by its step count (a replay is never overwritten: a resumed run's steps are new)."""
        every = self.config.eval_record
        if not every or (timesteps // self.config.eval_every) % every:
            return None
        from training.replay.recorder import Recorder

        agents = ["scripted"] * len(self.rs.sides)
        agents[self.side] = f"{self.info.side}_step{timesteps}"
        return Recorder(self.rundir.path / "replays", tuple(agents), every=self.config.eval_games,
                        first_seed=TRAIN_EVAL_SEED, numbered=True)

    def evaluate(self, timesteps: int) -> SideResult:
        """The periodic evaluation against the scripted opponent: a row of eval.csv, the bar, TensorBoard."""
        start = time.perf_counter()
        result = self.play_learner("scripted", seeds_from(TRAIN_EVAL_SEED, self.config.eval_games),
                                   recorder=self.eval_recorder(timesteps))
        self.forecast.evaluated(time.perf_counter() - start, self.config.eval_games)
        append_eval_row(self.rundir.eval_csv, eval_row(timesteps, self.clock.elapsed(), result))
        self.bar.show(result)
        self._log_eval(timesteps, result)
        return result

    def _log_eval(self, timesteps: int, result: SideResult) -> None:
        """The evaluation in TensorBoard, at the evaluated step (not at the next rollout's end)."""
        logger = getattr(self.model, "_logger", None)   # none yet if learn() never ran in this session
        if logger is not None:
            logger.record("eval/win_rate", result.win_rate)
            logger.record("eval/mean_decisions", result.decisions)
            logger.dump(step=timesteps)

    def checkpoint(self, timesteps: int) -> None:
        """checkpoints/step_<N>.zip, and model.zip + run.json as they are now (a crash resumes from here)."""
        self.rundir.checkpoints.mkdir(exist_ok=True)
        self._stamp_model()
        with replacing(self.rundir.checkpoint(timesteps)) as tmp:
            self.model.save(tmp)
        self.save("running")

    def save(self, status: str) -> None:
        """model.zip (with optimizer state and step count), actor.zip and run.json, each written whole or not at
        all (a kill mid-save leaves the previous file)."""
        self._stamp_model()
        with replacing(self.rundir.model) as tmp:
            self.model.save(tmp)
        with replacing(self.rundir.actor) as tmp:
            Actor.of(self.model).save(tmp)
        self._save_info(status=status, trained_timesteps=int(self.model.num_timesteps),
                        updated_timesteps=int(self.updated.updated or self.info.updated_timesteps),
                        trained_seconds=round(self.clock.elapsed(), 2))

    def _stamp_model(self) -> None:
        setattr(self.model, META_ATTRIBUTE, {"env": self.info.env, "side": self.info.side, "run": self.info.run,
                                             "opponent": self.info.opponent, "scenario": self.info.scenario})

    def _save_info(self, **changes) -> None:
        self.info = self.info.with_progress(**changes)
        self.rundir.write_info(self.info)

    # The end of a session ---------------------------------------------------------------------------
    def final_evaluation(self) -> list:
        return final_evaluation(self)

    def write_report(self, final: list) -> None:
        write_run_report(self, final)


def resume_request(results: Path, env: str, run: str) -> RunDir:
    """The run folder `--resume RUN` names (a run name under results/<env>/, or a path)."""
    return find_run(results, registry.get(env).name, run)


def new_run(request: TrainRequest) -> RunDir:
    """Check the config, then make the run folder."""
    path = request.config_path
    config = load_config(path)
    rs = registry.get(request.env)
    check_config(config, request.envs or config.envs, path, rs)
    lookup.agent(rs, request.opponent)              # unknown names fail before the folder exists
    if request.start_from:
        check_start(request.start_from, rs, rs.sides.index(request.side), config)
    elif config.imitation.games:
        lookup.agent(rs, config.imitation.teacher)
    return start_run(request, config)


@contextmanager
def terminate_as_interrupt():
    """Inside, SIGTERM stops training like Ctrl-C: the model and logs are saved and the run can be resumed.

    Job schedulers and `kill` send SIGTERM; a run started in the background of a non-interactive shell
    ignores SIGINT, so SIGTERM is then the only clean way to stop it."""
    if threading.current_thread() is not threading.main_thread():   # signal handlers live in the main thread
        yield
        return
    def interrupt(signum, frame):
        raise KeyboardInterrupt(f"signal {signum}")
    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
