"""A training run's folder, results/<env>/<run>/: what was run, by which code, and what came of it.

    config.yaml     the hyperparameters used (the config file as read)
    run.json        env, side, opponent, seed, budget, versions, git commit, progress and status
    model.zip       the latest model (MaskablePPO, with its optimizer state: `--resume` continues from it)
    actor.zip       the same model's actor alone, float16 (agents/trained.py): what plays, and what results/ keeps
    checkpoints/    step_<N>.zip every `checkpoints.every` timesteps
    eval.csv        one row per periodic evaluation against the scripted opponent
    curve.png       the learning curve drawn from eval.csv
    report.md       final win rates with 95 % intervals and the command that reproduces the run
    tb/             TensorBoard logs (`tensorboard --logdir results/<env>/<run>/tb`)
"""
from __future__ import annotations

import fcntl
import json
import os
import re
import subprocess
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from importlib import metadata
from pathlib import Path

from agents.mixture import SUFFIX as MIXTURE
from envs.paths import PROJECT_ROOT

RESULTS_ROOT = PROJECT_ROOT / "results"


@dataclass(frozen=True)
class RunInfo:
    """The contents of run.json."""

    env: str
    run: str
    side: str
    opponent: str
    scenario: str | None
    seed: int
    timesteps: int | None          # the budget in timesteps, or None for a time budget
    minutes: float | None          # the budget in minutes, or None
    envs: int
    versions: dict = field(default_factory=dict)
    git_commit: str = "unknown"
    trained_timesteps: int = 0     # steps taken so far (the model's num_timesteps)
    updated_timesteps: int = 0     # steps of the last rollout the model was updated on
    trained_seconds: float = 0.0   # wall time spent training so far, over every session
    sessions: int = 0              # how many times the run was started or resumed
    imitation: dict = field(default_factory=dict)   # behaviour cloning's statistics, once it has run
    status: str = "new"            # new, running, interrupted, finished

    @property
    def opponent_label(self) -> str:
        """The opponent's name, or a model opponent's run folder name."""
        return agent_label(self.opponent)

    def with_progress(self, **changes) -> RunInfo:
        return replace(self, **changes)


class RunDir:
    """Paths inside one run's folder."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    config = property(lambda self: self.path / "config.yaml")
    info_file = property(lambda self: self.path / "run.json")
    model = property(lambda self: self.path / "model.zip")
    actor = property(lambda self: self.path / "actor.zip")
    eval_csv = property(lambda self: self.path / "eval.csv")
    curve = property(lambda self: self.path / "curve.png")
    report = property(lambda self: self.path / "report.md")
    checkpoints = property(lambda self: self.path / "checkpoints")
    tensorboard = property(lambda self: self.path / "tb")

    def checkpoint(self, timesteps: int) -> Path:
        return self.checkpoints / f"step_{timesteps}.zip"

    def read_info(self) -> RunInfo:
        return RunInfo(**json.loads(self.info_file.read_text(encoding="utf-8")))

    def write_info(self, info: RunInfo) -> None:
        with replacing(self.info_file) as tmp:
            tmp.write_text(json.dumps(asdict(info), indent=2) + "\n", encoding="utf-8")

    def saved_models(self) -> list[Path]:
        """model.zip, then the checkpoints newest first: where a resume may start from."""
        steps = sorted(self.checkpoints.glob("step_*.zip"), key=lambda p: -int(p.stem.split("_")[1]))
        return [self.model] * self.model.exists() + steps

    @contextmanager
    def locked(self):
        """Hold the run folder for this process; another process using it is refused in one line."""
        lock = self.path / ".lock"
        with open(lock, "a+") as f:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                f.seek(0)
                holder = f.read().strip() or "?"
                raise RunInUseError(f"run {self.path.name} is in use by process {holder}") from None
            f.seek(0)
            f.truncate()
            f.write(str(os.getpid()))
            f.flush()
            try:
                yield self
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)


class RunInUseError(RuntimeError):
    """A second process asked for a run folder another process holds."""


@contextmanager
def replacing(path: Path):
    """Write `path` through a temporary file beside it, renamed over it only once complete: a kill mid-write
    leaves the old file whole (os.replace is atomic on one filesystem). Yields the temporary path; the
    temporary name keeps the suffix, since some writers (SB3's save) append one otherwise."""
    tmp = path.with_name(f".{path.stem}.tmp{path.suffix}")
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


#: matched in full: `$` alone would let "run\n" through (it matches before a final newline)
RUN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def check_run_name(name: str) -> str:
    """A run name is one folder name inside results/<env>/: letters, digits, '.', '_', '-'; never a path."""
    if not RUN_NAME.fullmatch(name) or name in (".", ".."):
        raise ValueError(f"run name {name!r}: expected one folder name (letters, digits, '.', '_', '-'), not a path")
    return name


def new_run_name(env_dir: Path, base: str) -> str:
    """`base`, or `base-2`, `base-3`, ... if a run of that name already exists."""
    name, n = base, 1
    while (env_dir / name).exists():
        n += 1
        name = f"{base}-{n}"
    return name


def find_run(results: Path, env: str, run: str) -> RunDir:
    """The run called `run` under results/<env>/, or `run` as a path to a run folder."""
    for candidate in (Path(results) / env / run, Path(run)):
        if (candidate / "run.json").is_file():
            return RunDir(candidate)
    raise FileNotFoundError(f"no run {run!r}: neither {Path(results) / env / run} nor {run} holds a run.json")


def versions() -> dict:
    """Versions of rubble and the packages that decide what training does."""
    names = ("rubble", "torch", "stable-baselines3", "sb3-contrib", "gymnasium", "numpy")
    found = {}
    for name in names:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "not installed"
    return found


def git_commit() -> str:
    """The repo's HEAD commit, with '-dirty' if tracked files differ from it; 'unknown' outside git."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=PROJECT_ROOT, capture_output=True, text=True,
                              timeout=30, check=True).stdout.strip()
    try:
        head = git("rev-parse", "HEAD")
        dirty = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return head + ("-dirty" if dirty else "")


#: the endings of a saved agent's path: a trained model or actor, or a mixture of actors (agents/mixture.py)
SAVED_AGENT_SUFFIXES = (".zip", MIXTURE)


def is_saved_agent(spec: str) -> bool:
    """A path to a saved agent, as opposed to a registered agent's name."""
    return spec.endswith(SAVED_AGENT_SUFFIXES)


def agent_label(spec: str) -> str:
    """A registered agent's name, or a saved agent's label (model_label)."""
    return model_label(spec) if is_saved_agent(spec) else spec


def model_label(path: str) -> str:
    """A model's run folder name for `.../<run>/model.zip` or `actor.zip` (or a checkpoint in it), a mixture's folder
    name (`<side>-average` for a league's average), else the file's stem."""
    p = Path(path)
    if p.name in ("model.zip", "actor.zip") or p.name.endswith(MIXTURE):
        return p.parent.name
    if p.parent.name == "checkpoints":
        return f"{p.parent.parent.name}:{p.stem}"
    return p.stem
