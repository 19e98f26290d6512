"""Trained policies saved by `rubble train`, played as an Agent. Two files hold one:

  model.zip   the MaskablePPO model (SB3 format) with its value network and optimizer state: only `rubble train
              --resume` reads it (training/learn/resume.py, with nothing unpickled); never played, never committed.
  actor.zip   the actor alone, its weights in float16 (numpy's npz, itself a zip, read with allow_pickle=False):
              what plays, and what results/ keeps. A file that is anything else is refused in one line.
              Two kinds: an MLP (the observation straight into the dense layers w0, w1, ...) and, when its meta
              says `extractor: grid`, the same dense head over a grid encoder's features (agents/grid_actor.py:
              convolutions over the board's planes, in numpy).

    agent = load("results/rifles-urban/player-vs-scripted-seed0/actor.zip", ruleset, side=0, seed=0)
    action = agent.act(observation, mask, view)     # masked, deterministic: the policy's most likely legal action

An actor is checked before it plays: every layer's shape, finite weights, and the ruleset, side and sizes it was
trained for. An actor trained on an earlier version of a ruleset's observation that the ruleset declares a prefix of
today's (`Ruleset.prefix_observation_sizes`: later versions only appended features, e.g. Konflikt '47's 1080 before
the ranging-in, KC-HID-3) plays on, reading the leading features it was trained on. A file is read once per path
and process (the cache is keyed by the file's path, size and mtime, so a file saved again is read again); every
agent built from it shares the loaded network.
"""
from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import numpy as np

from envs import registry

from .archive import ModelFileError, ZipLimits, check_npy_header, check_zip
from .grid_actor import EncoderFileError, GridEncoder

#: Attribute `rubble train` sets on the model before saving; SB3 stores it in the zip's data.
META_ATTRIBUTE = "rubble_meta"

_ACTORS: dict[tuple[str, int, int], Actor] = {}


class PolicyAgent:
    """A trained policy on one side: the masked argmax of its action distribution."""

    needs_observation = True

    def __init__(self, policy, side: int, name: str = "trained", reads: int | None = None) -> None:
        """`policy`: an Actor read from a file, or the SB3 policy being trained (in memory, never from a file).
        `reads`: how many leading features of the observation it was trained on (None: all of them), for an actor
        of an earlier observation the ruleset declares a prefix of today's (`check_fits` answers it)."""
        self.policy, self.side, self.name, self.reads = policy, side, name, reads
        self.logits = policy.logits if isinstance(policy, Actor) else sb3_logits(policy)

    def act(self, observation: np.ndarray, mask: np.ndarray, view) -> int:
        """The legal action the policy rates highest (what predict(..., deterministic=True) returns)."""
        if self.reads is not None:
            observation = observation[:self.reads]
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
    """The actor of a trained policy in plain numpy: an optional grid encoder (agents/grid_actor.py), dense layers
    with one activation, then the action logits."""

    ACTIVATIONS = {"Tanh": np.tanh, "ReLU": lambda x: np.maximum(x, 0.0)}

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], activation: str, meta: dict,
                 encoder: GridEncoder | None = None) -> None:
        if activation not in self.ACTIVATIONS:
            raise ValueError(f"activation {activation!r} unknown; known: {', '.join(self.ACTIVATIONS)}")
        self.layers, self.activation, self.meta, self.encoder = layers, activation, meta, encoder
        self.observation_space_shape = (layers[0][0].shape[1] if encoder is None else encoder.layout.size,)
        self.actions = layers[-1][0].shape[0]

    @property
    def kind(self) -> str:
        """'mlp' or 'grid': the extractor it was trained with (the config's policy.extractor)."""
        return "mlp" if self.encoder is None else "grid"

    def logits(self, observation: np.ndarray) -> np.ndarray:
        x, act = np.asarray(observation, np.float32), self.ACTIVATIONS[self.activation]
        if self.encoder is not None:
            x = self.encoder(x)
        *hidden, (weights, bias) = self.layers
        for w, b in hidden:
            x = act(w @ x + b)
        return weights @ x + bias

    @classmethod
    def of(cls, model) -> Actor:
        """The actor of a MaskablePPO model: its features extractor (the default flattening, or one with a
        `numpy_encoder()`, as training/extractors.GridExtractor), then the policy's Linear/activation pairs."""
        import torch

        policy = model.policy
        linears = [m for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
        linears.append(policy.action_net)
        layers = [(m.weight.detach().numpy().copy(), m.bias.detach().numpy().copy()) for m in linears]
        to_numpy = getattr(policy.pi_features_extractor, "numpy_encoder", None)
        encoder = to_numpy() if to_numpy is not None else None
        return cls(layers, policy.activation_fn.__name__, model_meta(model), encoder)

    def save(self, path) -> None:
        """actor.zip: float16 weights and the metadata, in numpy's npz (a zip archive; no pickle)."""
        meta = {**self.meta, "activation": self.activation, **(self.encoder.meta() if self.encoder else {})}
        arrays = {"meta": np.array(json.dumps(meta))}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w.astype(np.float16), b.astype(np.float16)
        if self.encoder is not None:
            arrays.update({name: a.astype(np.float16) for name, a in self.encoder.arrays().items()})
        with open(path, "wb") as f:          # a file object: np.savez would append .npz to a name
            np.savez_compressed(f, **arrays)

    @classmethod
    def read(cls, path) -> Actor:
        """The actor in `path`, checked; ModelFileError (one line naming the file) for anything else."""
        path = Path(path)
        _check_is_actor_zip(path)
        infos = check_zip(path, ACTOR_LIMITS)          # before inflating anything: names, count, sizes, ratios
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = _meta(path, data["meta"])       # meta.npy is small (ACTOR_LIMITS)
                check_zip(path, _limits_for(meta))
                for info in infos:
                    check_npy_header(path, data.zip, info)
                arrays = {name: data[name] for name in data.files if name != "meta"}
        except ValueError as exc:       # numpy refuses object arrays without pickle
            if isinstance(exc, ModelFileError):
                raise
            raise ModelFileError(f"{path}: holds Python objects, which are never loaded ({exc})") from None
        except (OSError, zipfile.BadZipFile, EOFError) as exc:
            raise ModelFileError(f"{path}: unreadable actor file ({exc})") from None
        encoder = _encoder(path, meta, arrays)
        layers = _layers(path, arrays)
        if encoder is not None and layers[0][0].shape[1] != encoder.features:
            raise ModelFileError(f"{path}: layer 0 takes {layers[0][0].shape[1]} inputs; the grid encoder gives "
                                 f"{encoder.features}")
        activation = meta.pop("activation", None)
        if activation not in cls.ACTIVATIONS:
            raise ModelFileError(f"{path}: activation {activation!r} unknown; expected one of {', '.join(cls.ACTIVATIONS)}")
        return cls(layers, activation, meta, encoder)


#: What an actor.zip may hold, read from its central directory before anything is inflated: its arrays by name (the
#: head's w0/b0..., a grid encoder's), at most MAX_ACTOR_MEMBERS of them, a small meta, no member inflating more than
#: MAX_RATIO to 1 (archive.py); the sizes the meta's ruleset allows are checked once the meta is read (`_limits_for`).
ACTOR_NAMES = re.compile(r"meta\.npy|[wb]\d{1,3}\.npy|conv\d{1,3}_[wb]\.npy|(grid|vector)_[wb]\.npy")
MAX_ACTOR_MEMBERS = 64
MAX_META_BYTES = 64 << 10
#: the widest layer an actor may have (those under results/ are a few hundred wide; a float32 value is 4 bytes)
MAX_WIDTH = 4096
NPY_HEADER_BYTES = 4096
ACTOR_LIMITS = ZipLimits(ACTOR_NAMES, MAX_ACTOR_MEMBERS, size=256 << 20, total=1 << 30,
                         sizes={"meta.npy": MAX_META_BYTES})


def _limits_for(meta: dict) -> ZipLimits:
    """The sizes an actor trained for the meta's ruleset may declare: no array over MAX_WIDTH rows of the widest of
    its observation, its actions and MAX_WIDTH, in float32 (ACTOR_LIMITS where the ruleset is unknown: check_fits
    refuses the actor later, naming it)."""
    try:
        ruleset = registry.get(meta["env"])
    except (KeyError, ValueError):
        return ACTOR_LIMITS
    values = MAX_WIDTH * max(ruleset.observation_size, ruleset.num_actions, MAX_WIDTH)
    size = NPY_HEADER_BYTES + 4 * values
    return ZipLimits(ACTOR_NAMES, MAX_ACTOR_MEMBERS, size=size, total=4 * size, sizes={"meta.npy": MAX_META_BYTES})


def _check_is_actor_zip(path: Path) -> None:
    if not path.is_file():
        raise ModelFileError(f"{path}: no such file")
    if not zipfile.is_zipfile(path):
        raise ModelFileError(f"{path}: not an actor file (not a zip archive)")
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
    if "meta.npy" in names:
        return
    if "data" in names:
        raise ModelFileError(f"{path}: an SB3 model.zip, which can run code when loaded and is never played; "
                             "play the run's actor.zip")
    raise ModelFileError(f"{path}: not an actor file (no meta.npy)")


def _meta(path: Path, raw: np.ndarray) -> dict:
    """The actor's metadata: a JSON object naming at least the env and side it was trained for."""
    try:
        meta = json.loads(str(raw))
    except (json.JSONDecodeError, TypeError) as exc:
        raise ModelFileError(f"{path}: meta is not valid JSON ({exc})") from None
    if not isinstance(meta, dict) or not all(isinstance(meta.get(k), str) for k in ("env", "side")):
        raise ModelFileError(f"{path}: meta must be a JSON object with string fields env and side")
    return meta


#: what an actor's meta may name as its extractor (absent: mlp, as every actor written before the grid encoder)
EXTRACTORS = ("mlp", "grid")


def _encoder(path: Path, meta: dict, arrays: dict) -> GridEncoder | None:
    """The grid encoder a grid actor's meta announces (its arrays taken out of `arrays`); None for an MLP actor,
    whose file must hold no encoder arrays."""
    kind = meta.pop("extractor", "mlp")
    if kind not in EXTRACTORS:
        raise ModelFileError(f"{path}: extractor {kind!r} unknown; expected one of {', '.join(EXTRACTORS)}")
    layout, strides = meta.pop("layout", None), meta.pop("conv_strides", None)
    if kind == "mlp":
        return None
    try:
        return GridEncoder.from_arrays({"layout": layout, "conv_strides": strides}, arrays)
    except EncoderFileError as exc:
        raise ModelFileError(f"{path}: grid encoder: {exc}") from None


def _layers(path: Path, arrays: dict) -> list[tuple[np.ndarray, np.ndarray]]:
    """(weights, bias) pairs w0/b0, w1/b1, ...: 2-D and 1-D floats, chained shapes, finite values."""
    count = sum(1 for name in arrays if name.startswith("w"))
    expected = {f"{k}{i}" for i in range(count) for k in "wb"}
    if count == 0 or set(arrays) != expected:
        raise ModelFileError(f"{path}: layers must be w0, b0, ..., w{max(count - 1, 0)}, b{max(count - 1, 0)}; "
                             f"found {', '.join(sorted(arrays))}")
    layers, inputs = [], None
    for i in range(count):
        w, b = arrays[f"w{i}"], arrays[f"b{i}"]
        if w.dtype.kind != "f" or b.dtype.kind != "f" or w.ndim != 2 or b.shape != (w.shape[0],):
            raise ModelFileError(f"{path}: layer {i} must be float weights (out, in) and bias (out,); "
                                 f"got {w.dtype} {w.shape} and {b.dtype} {b.shape}")
        if inputs is not None and w.shape[1] != inputs:
            raise ModelFileError(f"{path}: layer {i} takes {w.shape[1]} inputs; the layer before gives {inputs}")
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise ModelFileError(f"{path}: layer {i} holds NaN or infinite weights")
        layers.append((w.astype(np.float32), b.astype(np.float32)))
        inputs = w.shape[0]
    return layers


def model_meta(model) -> dict:
    """What `rubble train` stamped on an SB3 model in memory (env, side, run...)."""
    return dict(getattr(model, META_ATTRIBUTE, None) or {})


def is_actor_file(path) -> bool:
    """An actor.zip (npz with the actor's weights), as opposed to an SB3 model zip or anything else."""
    try:
        with zipfile.ZipFile(path) as z:
            return "meta.npy" in z.namelist()
    except (OSError, zipfile.BadZipFile):
        return False


def read_actor(path) -> Actor:
    """The actor saved at `path`, read once per process (again if the file changes); checked as Actor.read says."""
    resolved = Path(path).resolve()
    try:
        stat = resolved.stat()
    except OSError:
        raise ModelFileError(f"{path}: no such file") from None
    key = (str(resolved), stat.st_size, stat.st_mtime_ns)
    if key not in _ACTORS:
        _ACTORS[key] = Actor.read(resolved)
    return _ACTORS[key]


def check_fits(actor: Actor, ruleset, side: int | None, path) -> int | None:
    """ModelFileError unless the actor was trained for this ruleset (and `side`, if given) with its sizes; the number
    of leading observation features it reads when it was trained on an earlier observation the ruleset declares a
    prefix of today's (`prefix_observation_sizes`), else None (it reads the whole observation)."""
    meta = actor.meta
    if meta["env"] != ruleset.name:
        raise ModelFileError(f"{path}: trained for {meta['env']}, not {ruleset.name}")
    if side is not None and meta["side"] != ruleset.sides[side]:
        raise ModelFileError(f"{path}: trained as the {meta['side']}, not the {ruleset.sides[side]}")
    reads = prefix_read(actor, ruleset)
    if (reads is None and actor.observation_space_shape != (ruleset.observation_size,)) \
            or actor.actions != ruleset.num_actions:
        earlier = "".join(f" (or an earlier {n})" for n in ruleset.prefix_observation_sizes)
        raise ModelFileError(f"{path}: model has observation shape {actor.observation_space_shape} and "
                             f"{actor.actions} actions; {ruleset.name} needs ({ruleset.observation_size},){earlier} "
                             f"and {ruleset.num_actions}")
    if actor.encoder is not None and not same_grid(actor.encoder.layout, ruleset.observation_layout(), reads):
        raise ModelFileError(f"{path}: its grid encoder reads the planes {grid_label(actor.encoder.layout)}; "
                             f"{ruleset.name} declares {grid_label(ruleset.observation_layout())}")
    return reads


def prefix_read(actor: Actor, ruleset) -> int | None:
    """The earlier observation size the actor was trained on, if the ruleset declares it a prefix of today's."""
    size = actor.observation_space_shape[0]
    return size if size != ruleset.observation_size and size in ruleset.prefix_observation_sizes else None


def grid_label(layout) -> str:
    """e.g. '(31, 18, 18) at 67 with strides (324, 18, 1)', or 'none'."""
    p = layout.planes
    return "none" if p is None else f"{p.shape} at {p.offset} with strides {p.steps()}"


def same_grid(a, b, reads: int | None = None) -> bool:
    """Two layouts that put the same planes at the same places (the planes' names are documentation); `reads`: `a`
    is of an earlier observation of that size, a prefix of `b`'s."""
    return a.size == (b.size if reads is None else reads) and np.array_equal(a.plane_indices(), b.plane_indices())


def load(path, ruleset, side: int, seed: int = 0) -> PolicyAgent:
    """An Agent playing `side` of `ruleset` with the actor at `path` (seed unused: play is deterministic)."""
    actor = read_actor(path)
    reads = check_fits(actor, ruleset, side, path)
    return PolicyAgent(actor, side, name=Path(path).name, reads=reads)


def _factory(ruleset, path: str):
    """factory(side, seed) playing the actor at `path`: what the registry hands the adapters for a .zip spec.
    The file is read and checked now, so a bad one fails when the env is made, not in its first reset."""
    check_fits(read_actor(path), ruleset, None, path)
    return lambda side, seed=0: load(path, ruleset, side, seed)


registry.register_agent_loader(".zip", _factory)
