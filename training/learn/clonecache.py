"""The cloned start of a training run, kept between runs: behaviour cloning runs once per config.

Cloning the teacher (training/learn/imitation.py) costs about as much as a short run's whole budget (issue #17: 96 s
of a 1-minute rifles-urban run). Its result depends only on what goes into it: the env, scenario, side,
opponent, seed, the policy's shape, the PPO and imitation settings and the code. A run whose inputs match a
run before it loads that run's cloned policy and optimizer state instead of cloning again. Cloning draws
from no global random state and PPO starts after it either way, so a run from the cache trains exactly as
the run that filled it.

Files are numpy archives read with `allow_pickle=False` (no file a user loads may run code), in
`$RUBBLE_CACHE/clones/<env>/<key>.npz` (default `~/.cache/rubble`); deleting the folder is always safe.
"""
from __future__ import annotations

import hashlib
import inspect
import json
import os
import sys
from dataclasses import asdict
from pathlib import Path

import numpy as np
import torch

from envs import paths
from envs.paths import PROJECT_ROOT as ROOT
from training.folders.rundir import replacing, versions

#: bump when the file layout below changes: old files then miss instead of loading wrongly
FORMAT = 1


def cache_root() -> Path:
    """Where cloned starts are kept: $RUBBLE_CACHE, else ~/.cache/rubble."""
    return Path(os.environ.get("RUBBLE_CACHE") or Path.home() / ".cache" / "rubble")


def code_digest(rs) -> str:
    """A digest of the code and data the teacher's games run on: the engine, the adapters, the ruleset's package
    and configs, the agents and cloning itself. A commit elsewhere (training, tests, docs) keeps the cache.
    The configs are those the games read: $RUBBLE_CONFIGS's tree when it is set (envs.paths.CONFIG_ROOT, looked
    up now), so that edited tables elsewhere never load a start cloned on the repo's."""
    module = Path(inspect.getfile(type(rs))).resolve()          # e.g. envs/rifles/ruleset.py
    package = module.parent.name if module.parent.parent == ROOT / "envs" else None
    configs = Path(paths.CONFIG_ROOT)
    own = [*ROOT.glob(f"envs/{package}/**/*.py"), *configs.glob(f"{package}/**/*.yaml")] if package else [module]
    files = {*ROOT.glob("envs/*.py"), *ROOT.glob("envs/engine/**/*.py"), *own, *ROOT.glob("agents/**/*.py"),
             Path(__file__).with_name("imitation.py")}
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def clone_key(info, config, rs) -> str:
    """A digest of everything the cloned policy depends on (a model opponent or a scenario file by its content)."""
    inputs = {"format": FORMAT, "env": info.env, "scenario": _content_or_name(info.scenario), "side": info.side,
              "opponent": _content_or_name(info.opponent),
              "seed": info.seed, "net_arch": list(config.net_arch), "activation": config.activation,
              # only a grid policy names its extractor: the keys of every cached MLP start stay as they were
              **({"extractor": config.extractor} if config.extractor != "mlp" else {}),
              "ppo": asdict(config.ppo), "imitation": asdict(config.imitation), "observation_size": rs.observation_size,
              "num_actions": rs.num_actions, "code": code_digest(rs), "versions": versions()}
    return hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()[:24]


def _content_or_name(name: str | None) -> str | None:
    """The digest of the file `name` names, if it is one (a scenario or model file may change), else the name."""
    if name is None or not Path(name).is_file():
        return name
    return hashlib.sha256(Path(name).read_bytes()).hexdigest()


def clone_path(env: str, key: str) -> Path:
    return cache_root() / "clones" / env / f"{key}.npz"


def save_clone(path: Path, policy, stats: dict) -> None:
    """The cloned policy's weights, its optimizer's state and cloning's statistics, written whole or not at all."""
    arrays = {f"policy/{name}": t.detach().cpu().numpy() for name, t in policy.state_dict().items()}
    for index, state in policy.optimizer.state_dict()["state"].items():
        for name, value in state.items():
            arrays[f"optimizer/{index}/{name}"] = torch.as_tensor(value).cpu().numpy()
    arrays["stats"] = np.array(json.dumps(stats))
    path.parent.mkdir(parents=True, exist_ok=True)
    with replacing(path) as tmp:
        with open(tmp, "wb") as f:
            np.savez(f, **arrays)


def load_clone(path: Path, policy) -> dict | None:
    """Put the cached cloned start into `policy` and return cloning's statistics; None (policy untouched) if
    there is none or the file does not fit this policy."""
    if not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
        weights, optimizer = _split(arrays, policy)
        policy.load_state_dict(weights)
        policy.optimizer.load_state_dict(optimizer)
        return json.loads(str(arrays["stats"]))
    except (OSError, ValueError, KeyError, RuntimeError) as exc:
        print(f"{path}: cached cloned start not used ({type(exc).__name__}: {exc}); cloning again", file=sys.stderr)
        return None


def _split(arrays: dict, policy) -> tuple[dict, dict]:
    """(policy state_dict, optimizer state_dict) from the archive, shaped as `policy`'s own."""
    own = policy.state_dict()
    weights = {name: torch.as_tensor(arrays[f"policy/{name}"]) for name in own}
    for name, tensor in weights.items():
        if tensor.shape != own[name].shape:
            raise ValueError(f"policy/{name}: shape {tuple(tensor.shape)}, expected {tuple(own[name].shape)}")
    optimizer = policy.optimizer.state_dict()
    state: dict = {}
    for name, value in arrays.items():
        if name.startswith("optimizer/"):
            _, index, field = name.split("/")
            state.setdefault(int(index), {})[field] = torch.as_tensor(value)
    optimizer["state"] = state
    return weights, optimizer
