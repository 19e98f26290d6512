"""Loading a run's model.zip to resume it, with nothing unpickled.

SB3 saves the parts of a model that JSON cannot hold (the policy class, spaces, schedules, buffers) as
cloudpickle blobs under `:serialized:` keys of the zip's `data`, and unpickles them on load: a crafted file runs
code. Here the `data` JSON is read first, every serialized key is given a value this program builds itself
(through SB3's own `custom_objects`), and a key it does not know refuses the file; the tensors (`*.pth`) are read
by SB3 with torch's `weights_only=True`. Only `rubble train --resume` loads a model.zip, and only one that
`rubble train` wrote (its `rubble_meta` names the run's env and side).
"""
from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

from agents.archive import ZipLimits, check_zip
from agents.trained import META_ATTRIBUTE, ModelFileError

#: What SB3 writes into a MaskablePPO model.zip: `data` (JSON, the serialized blobs inside), the tensors
#: (policy.pth, policy.optimizer.pth, pytorch_variables.pth) and two short texts. SB3 stores every member
#: uncompressed, so the ratio bound (archive.MAX_RATIO) refuses a deflated bomb without costing a real model.
MODEL_NAMES = re.compile(r"data|_stable_baselines3_version|system_info\.txt|[A-Za-z0-9_.]+\.pth")
#: A member's bound: the optimizer's state is twice the policy (Adam's two moments), and 512 MB is some 130
#: million float32 weights, far past any net_arch a config here gives (the largest actor under results/, a
#: Cityfight one in float16, is 5.5 MB: its model.zip about 35 MB).
MODEL_LIMITS = ZipLimits(MODEL_NAMES, members=16, size=512 << 20, total=1 << 30,
                         sizes={"data": 64 << 20, "_stable_baselines3_version": 64, "system_info.txt": 64 << 10})


def serialized_keys(path: Path) -> tuple[dict, list[str]]:
    """The model's `data` (plain JSON) and the keys SB3 would unpickle; the archive is checked against
    MODEL_LIMITS from its central directory before anything in it is inflated."""
    check_zip(path, MODEL_LIMITS)
    try:
        with zipfile.ZipFile(path) as z:
            data = json.loads(z.read("data"))
    except (OSError, KeyError, zipfile.BadZipFile, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ModelFileError(f"{path}: not a model saved by rubble train ({type(exc).__name__}: {exc})") from None
    if not isinstance(data, dict):
        raise ModelFileError(f"{path}: its data is not a JSON object")
    return data, [k for k, v in data.items() if isinstance(v, dict) and ":serialized:" in v]


def safe_objects(data: dict, observation_space, action_space, net_arch, activation_fn, clip_range: float,
                 policy_kwargs: dict | None = None) -> dict:
    """A value built here for every key SB3 pickles: classes by import, spaces from the env, schedules from the
    config; buffers and the last observation start empty (learn() fills them). `policy_kwargs` (as
    training/extractors.policy_kwargs builds them from the config) replaces net_arch and activation_fn when given:
    a grid policy's extractor class is imported here too, never unpickled."""
    from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from stable_baselines3.common.utils import FloatSchedule

    return {
        "policy_class": MaskableActorCriticPolicy, "rollout_buffer_class": MaskableRolloutBuffer,
        "observation_space": observation_space, "action_space": action_space,
        "policy_kwargs": policy_kwargs or {"net_arch": list(net_arch), "activation_fn": activation_fn},
        "clip_range": FloatSchedule(clip_range), "lr_schedule": FloatSchedule(data.get("learning_rate", 3e-4)),
        "_last_obs": None, "_last_original_obs": None, "_last_episode_starts": None,
        "ep_info_buffer": None, "ep_success_buffer": None,
    }


def load_model(path: Path, env_name: str, side: str, replacements: dict, **load_kwargs):
    """The MaskablePPO model at `path`, written by rubble train for `env_name`/`side`, with nothing unpickled;
    `load_kwargs` go to MaskablePPO.load (env=..., tensorboard_log=...)."""
    data, keys = serialized_keys(path)     # first: a refused file costs no import of torch
    from sb3_contrib import MaskablePPO

    meta = data.get(META_ATTRIBUTE)
    if not isinstance(meta, dict) or (meta.get("env"), meta.get("side")) != (env_name, side):
        raise ModelFileError(f"{path}: not a model rubble train wrote for {env_name} {side} "
                             f"(its rubble_meta is {meta!r})")
    unknown = sorted(set(keys) - set(replacements))
    if unknown:
        raise ModelFileError(f"{path}: field {unknown[0]!r} holds pickled code and is refused")
    try:
        model = MaskablePPO.load(path, custom_objects={k: replacements[k] for k in keys}, device="cpu", **load_kwargs)
    except Exception as exc:  # noqa: BLE001 - a damaged tensor fails in many ways inside SB3 and torch
        raise ModelFileError(f"{path}: not loadable ({type(exc).__name__}: {first_sentence(exc)})") from None
    setattr(model, META_ATTRIBUTE, meta)
    return model


def first_sentence(exc: Exception, limit: int = 160) -> str:
    """The first sentence of an error's message, on one line: torch's refusal of a damaged tensor file runs to a
    dozen lines of advice (weights_only, a link) that would bury the one line a resume prints per file."""
    text = " ".join(str(exc).split())
    cut = text.find(". ")
    text = text if cut < 0 else text[:cut + 1]
    return text if len(text) <= limit else text[:limit - 3] + "..."
