"""Shared pieces of the training tests: a tiny config, a tiny model, the CLI run in-process."""
from __future__ import annotations

import io
import sys
from pathlib import Path

import yaml

ENV = "rifles-urban"

#: Small enough that a whole run (training, evaluations, final report) takes a few seconds.
TINY = {
    "minutes": 1, "envs": 2, "vec_env": "dummy", "torch_threads": 1,
    "policy": {"net_arch": [16]},
    "ppo": {"learning_rate": 0.001, "n_steps": 64, "batch_size": 64, "n_epochs": 2, "gamma": 0.99,
            "gae_lambda": 0.95, "clip_range": 0.2, "ent_coef": 0.01, "vf_coef": 0.5, "max_grad_norm": 0.5},
    "evaluation": {"every": 128, "games": 4, "final_games": 4},
    "checkpoints": {"every": 256},
}


def write_config(folder: Path, name: str = "tiny.yaml", **changes) -> Path:
    """TINY with `changes` (dotted keys such as 'ppo.gamma'; value None deletes) written to folder/name."""
    data = yaml.safe_load(yaml.safe_dump(TINY))
    for key, value in changes.items():
        *parents, last = key.replace("__", ".").split(".")
        target = data
        for part in parents:
            target = target[part]
        if value is None:
            del target[last]
        else:
            target[last] = value
    path = folder / name
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def run_cli(capsys, *argv, stdin: str = "") -> tuple[int, str, str]:
    """The `rubble` CLI in-process, `stdin` typed in: (exit status, stdout, stderr)."""
    from training.cli import main

    sys.stdin = io.StringIO(stdin)
    try:
        code = main([str(a) for a in argv])
    finally:
        sys.stdin = sys.__stdin__
    out, err = capsys.readouterr()
    return code, out, err


def tiny_model(path: Path, env: str = ENV, side: str = "player", seed: int = 0) -> Path:
    """An untrained MaskablePPO model for `env` saved at `path` (as `rubble train` would save it)."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from agents.trained import META_ATTRIBUTE
    from envs.gym_env import RubbleEnv

    venv = DummyVecEnv([lambda: RubbleEnv(env, learner_side=side)])
    model = MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=16, seed=seed, device="cpu",
                        policy_kwargs={"net_arch": [8]})
    setattr(model, META_ATTRIBUTE, {"env": env, "side": side})
    model.save(path)
    return path


def tiny_actor(path: Path, env: str = ENV, side: str = "player", seed: int = 0) -> Path:
    """The actor.zip of an untrained model for `env` (what `rubble train` writes beside model.zip)."""
    from agents.trained import Actor

    model_path = tiny_model(path.with_name(path.stem + "-model.zip"), env, side, seed)
    from sb3_contrib import MaskablePPO
    Actor.of(MaskablePPO.load(model_path, device="cpu")).save(path)
    return path


def cost(call) -> tuple[Exception | None, float, int]:
    """(what `call` raised, its seconds, its peak of traced memory in bytes): how a hostile file was refused."""
    import time
    import tracemalloc

    tracemalloc.start()
    start = time.perf_counter()
    try:
        call()
    except Exception as exc:   # noqa: BLE001 - the test looks at what it is
        raised = exc
    else:
        raised = None
    seconds, peak = time.perf_counter() - start, tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return raised, seconds, peak
