"""Trained policies saved by `rubble train`, played as an Agent. Two files hold one:

  model.zip   the MaskablePPO model (SB3 format) with its value network and optimizer state: what `--resume`
              continues from;
  actor.zip   the actor alone, its weights in float16 (numpy's npz, itself a zip): what plays. A tenth of
              model.zip's size (Cityfight's 10,767 inputs make model.zip ~68 MB), so it is what results/ keeps.

    agent = load("results/rifles-urban/player-vs-scripted-seed0/model.zip", ruleset, side=0, seed=0)
    action = agent.act(observation, mask, view)     # masked, deterministic: the policy's most likely legal action

A file is loaded once per path and process (the cache is keyed by the file's path, size and mtime, so a
file saved again is read again); every agent built from it shares the loaded network.
"""
from __future__ import annotations

import json
import warnings
import zipfile
from pathlib import Path

import numpy as np

from envs import registry

#: Attribute `rubble train` sets on the model before saving; SB3 stores it in the zip's data.
META_ATTRIBUTE = "rubble_meta"

_MODELS: dict[tuple[str, int, int], object] = {}


class PolicyAgent:
    """A trained policy on one side: the masked argmax of its action distribution."""

    needs_observation = True

    def __init__(self, policy, side: int, name: str = "trained") -> None:
        self.policy, self.side, self.name = policy, side, name
        self.logits = policy.logits if isinstance(policy, Actor) else sb3_logits(policy)

    def act(self, observation: np.ndarray, mask: np.ndarray, view) -> int:
        """The legal action the policy rates highest (what predict(..., deterministic=True) returns)."""
        return int(np.argmax(np.where(mask, self.logits(observation), -np.inf)))

    def reseed(self, seed: int) -> None:
        """Nothing to reseed: deterministic play draws no random numbers."""


def sb3_logits(policy):
    """The action logits of an SB3 MaskableActorCriticPolicy for one observation."""
    import torch

    # The actor alone, without predict()'s checks and value head: 4x faster, and evaluations play
    # thousands of decisions. Same path as MaskableActorCriticPolicy.get_distribution for a Box input.
    def logits(observation: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            obs = torch.as_tensor(observation, dtype=torch.float32).unsqueeze(0)
            return policy.action_net(policy.mlp_extractor.forward_actor(policy.pi_features_extractor(obs)))[0].numpy()
    return logits


class Actor:
    """The actor of a trained policy in plain numpy: dense layers with one activation, then the action logits."""

    ACTIVATIONS = {"Tanh": np.tanh, "ReLU": lambda x: np.maximum(x, 0.0)}

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], activation: str, meta: dict) -> None:
        if activation not in self.ACTIVATIONS:
            raise ValueError(f"activation {activation!r} unknown; known: {', '.join(self.ACTIVATIONS)}")
        self.layers, self.activation, self.meta = layers, activation, meta
        self.observation_space_shape = (layers[0][0].shape[1],)
        self.actions = layers[-1][0].shape[0]

    def logits(self, observation: np.ndarray) -> np.ndarray:
        x, act = np.asarray(observation, np.float32), self.ACTIVATIONS[self.activation]
        *hidden, (weights, bias) = self.layers
        for w, b in hidden:
            x = act(w @ x + b)
        return weights @ x + bias

    @classmethod
    def of(cls, model) -> "Actor":
        """The actor of a MaskablePPO model with the default MLP extractor (Linear/activation pairs)."""
        import torch

        policy = model.policy
        linears = [m for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
        linears.append(policy.action_net)
        layers = [(m.weight.detach().numpy().copy(), m.bias.detach().numpy().copy()) for m in linears]
        return cls(layers, policy.activation_fn.__name__, model_meta(model))

    def save(self, path) -> None:
        """actor.zip: float16 weights and the metadata, in numpy's npz (a zip archive; no pickle)."""
        arrays = {"meta": np.array(json.dumps({**self.meta, "activation": self.activation}))}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w.astype(np.float16), b.astype(np.float16)
        with open(path, "wb") as f:          # a file object: np.savez would append .npz to a name
            np.savez_compressed(f, **arrays)

    @classmethod
    def read(cls, path) -> "Actor":
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            count = sum(1 for name in data.files if name.startswith("w"))
            layers = [(data[f"w{i}"].astype(np.float32), data[f"b{i}"].astype(np.float32)) for i in range(count)]
        return cls(layers, meta.pop("activation"), meta)


def is_actor_file(path) -> bool:
    """An actor.zip (npz with the actor's weights), as opposed to an SB3 model zip."""
    with zipfile.ZipFile(path) as z:
        return "meta.npy" in z.namelist()


def load_model(path):
    """The model saved at `path`, loaded once per process (reloaded if the file changes): a MaskablePPO model,
    or an Actor for an actor.zip."""
    resolved = Path(path).resolve()
    stat = resolved.stat()
    key = (str(resolved), stat.st_size, stat.st_mtime_ns)
    if key not in _MODELS:
        if is_actor_file(resolved):
            _MODELS[key] = Actor.read(resolved)
        else:
            from sb3_contrib import MaskablePPO  # lazy: torch is slow to import and only models need it
            _MODELS[key] = MaskablePPO.load(resolved, device="cpu")
    return _MODELS[key]


def model_meta(model) -> dict:
    """What `rubble train` recorded about the model (env, side, ...); empty for a model saved elsewhere."""
    if isinstance(model, Actor):
        return dict(model.meta)
    return dict(getattr(model, META_ATTRIBUTE, None) or {})


def check_fits(model, ruleset, path) -> None:
    """Raise ValueError unless the model's spaces are the ruleset's."""
    if isinstance(model, Actor):
        obs_shape, actions = model.observation_space_shape, model.actions
    else:
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
    return PolicyAgent(model if isinstance(model, Actor) else model.policy, side, name=Path(path).name)


def _factory(ruleset, path: str):
    """factory(side, seed) playing the model at `path`: what the registry hands the adapters for a .zip spec."""
    return lambda side, seed=0: load(path, ruleset, side, seed)


registry.register_agent_loader(".zip", _factory)
