"""Trained policies: a MaskablePPO model saved by `rubble train` (an SB3 .zip), played as an Agent.

    agent = load("results/rifles-urban/player-vs-scripted-seed0/model.zip", ruleset, side=0, seed=0)
    action = agent.act(observation, mask, view)     # masked, deterministic: the policy's most likely legal action

A model is loaded once per path and process (the cache is keyed by the file's path, size and mtime, so a
file saved again is read again); every agent built from it shares the loaded network.
"""
from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np

#: Attribute `rubble train` sets on the model before saving; SB3 stores it in the zip's data.
META_ATTRIBUTE = "rubble_meta"

_MODELS: dict[tuple[str, int, int], object] = {}


class PolicyAgent:
    """A trained policy on one side: the masked argmax of its action distribution."""

    needs_observation = True

    def __init__(self, policy, side: int, name: str = "trained") -> None:
        self.policy, self.side, self.name = policy, side, name

    def act(self, observation: np.ndarray, mask: np.ndarray, view) -> int:
        """The legal action the policy rates highest (what predict(..., deterministic=True) returns)."""
        import torch

        # The actor alone, without predict()'s checks and value head: 4x faster, and evaluations play
        # thousands of decisions. Same path as MaskableActorCriticPolicy.get_distribution for a Box input.
        policy = self.policy
        with torch.no_grad():
            obs = torch.as_tensor(observation, dtype=torch.float32).unsqueeze(0)
            logits = policy.action_net(policy.mlp_extractor.forward_actor(policy.pi_features_extractor(obs)))
        return int(np.argmax(np.where(mask, logits[0].numpy(), -np.inf)))

    def reseed(self, seed: int) -> None:
        """Nothing to reseed: deterministic play draws no random numbers."""


def load_model(path):
    """The MaskablePPO model saved at `path`, loaded once per process (reloaded if the file changes)."""
    from sb3_contrib import MaskablePPO  # lazy: torch is slow to import and only models need it

    resolved = Path(path).resolve()
    stat = resolved.stat()
    key = (str(resolved), stat.st_size, stat.st_mtime_ns)
    if key not in _MODELS:
        _MODELS[key] = MaskablePPO.load(resolved, device="cpu")
    return _MODELS[key]


def model_meta(model) -> dict:
    """What `rubble train` recorded about the model (env, side, ...); empty for a model saved elsewhere."""
    return dict(getattr(model, META_ATTRIBUTE, None) or {})


def check_fits(model, ruleset, path) -> None:
    """Raise ValueError unless the model's spaces are the ruleset's."""
    obs_shape = getattr(model.observation_space, "shape", None)
    actions = getattr(model.action_space, "n", None)
    if obs_shape != (ruleset.observation_size,) or actions != ruleset.num_actions:
        raise ValueError(f"{path}: model has observation shape {obs_shape} and {actions} actions; "
                         f"{ruleset.name} needs ({ruleset.observation_size},) and {ruleset.num_actions}")


def load(path, ruleset, side: int, seed: int = 0) -> PolicyAgent:
    """An Agent playing `side` of `ruleset` with the model at `path` (seed unused: play is deterministic)."""
    model = load_model(path)
    check_fits(model, ruleset, path)
    meta = model_meta(model)
    if meta.get("side") is not None and meta["side"] != ruleset.sides[side]:
        warnings.warn(f"{path} was trained as {meta['side']}, not {ruleset.sides[side]}", stacklevel=2)
    if meta.get("env") is not None and meta["env"] != ruleset.name:
        warnings.warn(f"{path} was trained on {meta['env']}, not {ruleset.name}", stacklevel=2)
    return PolicyAgent(model.policy, side, name=Path(path).name)
