"""Training hyperparameters: configs/training/*.yaml read through envs.engine.scenario.Fields.

A bad file fails on load naming the file and the field (ScenarioError), before any environment starts.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

import yaml

from envs.engine.scenario import Fields
from envs.paths import CONFIG_ROOT

VEC_ENVS = ("dummy", "subproc")
TOP_FIELDS = {"timesteps", "minutes", "envs", "vec_env", "torch_threads", "reward_shaping", "policy", "ppo", "imitation", "evaluation", "checkpoints",
              "league"}   # `league:` is read by `rubble league` alone (training/league/config.py)


@dataclass(frozen=True)
class PPOSettings:
    """MaskablePPO's own arguments, passed through by name."""

    learning_rate: float
    n_steps: int
    batch_size: int
    n_epochs: int
    gamma: float
    gae_lambda: float
    clip_range: float
    ent_coef: float
    vf_coef: float
    max_grad_norm: float


@dataclass(frozen=True)
class ImitationSettings:
    """Behaviour cloning before PPO (training/learn/imitation.py); games 0 starts PPO from scratch."""

    teacher: str = "scripted"
    games: int = 0
    epochs: int = 10
    batch_size: int = 256
    learning_rate: float | None = None   # None: the PPO learning rate


@dataclass(frozen=True)
class TrainConfig:
    """Everything `rubble train` reads from a config file."""

    minutes: float | None           # a wall-clock budget; with `timesteps`, what they take on a quiet 2-core machine
    envs: int
    vec_env: str
    torch_threads: int
    net_arch: tuple[int, ...]
    activation: str                 # a key of ACTIVATIONS
    ppo: PPOSettings
    imitation: ImitationSettings
    eval_every: int
    eval_games: int
    final_games: int
    checkpoint_every: int
    eval_record: int = 0            # every Nth periodic evaluation writes its first game as a replay; 0: none
    extractor: str = "mlp"          # a key of EXTRACTORS: how the policy reads the observation (training/learn/extractors.py)
    reward_shaping: float = 0.0     # the weight of the standing's change in each reward (Ruleset.standing); 0: off
    timesteps: int | None = None    # `rubble train`'s budget when the command line gives none (before `minutes`)

    def to_yaml(self) -> str:
        """The config in the file format it was read from (load_config reads it back unchanged)."""
        data = {
            **({"timesteps": self.timesteps} if self.timesteps is not None else {}),
            **({"minutes": self.minutes} if self.minutes is not None else {}),
            "envs": self.envs, "vec_env": self.vec_env, "torch_threads": self.torch_threads,
            **({"reward_shaping": self.reward_shaping} if self.reward_shaping else {}),
            "policy": {"net_arch": list(self.net_arch), "activation": self.activation, "extractor": self.extractor},
            "ppo": asdict(self.ppo),
            "imitation": asdict(self.imitation),
            "evaluation": {"every": self.eval_every, "games": self.eval_games, "final_games": self.final_games,
                           **({"record": self.eval_record} if self.eval_record else {})},
            "checkpoints": {"every": self.checkpoint_every},
        }
        return yaml.safe_dump(data, sort_keys=False)


#: The hidden layers' activation. SB3's default is tanh; on Cityfight's 10,767 inputs a tanh network cloned only
#: an action prior (its choices were the same with every observation zeroed), a ReLU one learnt from the map.
ACTIVATIONS = ("tanh", "relu")
#: How the policy reads the observation: `mlp` flat (SB3's default), `grid` the board's planes through a small CNN
#: beside the rest (training/learn/extractors.py). mlp is the default; a ruleset's config names grid where grid won the
#: same-budget comparison (configs/training/cityfight.yaml).
EXTRACTORS = ("mlp", "grid")


def activation_fn(name: str):
    """The torch module class of an activation name (torch imported only here: configs load without it)."""
    import torch
    return {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[name]


def default_config_path(env_name: str) -> Path:
    """configs/training/<env>.yaml if the ruleset has its own, else configs/training/default.yaml."""
    own = CONFIG_ROOT / "training" / f"{env_name}.yaml"
    return own if own.is_file() else CONFIG_ROOT / "training" / "default.yaml"


def load_config(path) -> TrainConfig:
    """Read and check a training config; ScenarioError names the file and the field on any problem."""
    f = Fields.load(path)
    f.unknown(TOP_FIELDS)
    policy = f.sub("policy")
    policy.unknown({"net_arch", "activation", "extractor"})
    evaluation, checkpoints = f.sub("evaluation"), f.sub("checkpoints")
    evaluation.unknown({"every", "games", "final_games", "record"})
    checkpoints.unknown({"every"})
    if f.raw("timesteps", None) is None and f.raw("minutes", None) is None:
        raise f.error("timesteps", "a budget: timesteps (a whole number >= 1), minutes, or both", None)
    return TrainConfig(
        timesteps=None if f.raw("timesteps", None) is None else f.int("timesteps", min=1),
        minutes=None if f.raw("minutes", None) is None else f.number("minutes", min=0.01),
        envs=f.int("envs", min=1, max=256),
        vec_env=f.choice("vec_env", VEC_ENVS),
        torch_threads=f.int("torch_threads", min=1, max=64),
        net_arch=_net_arch(policy),
        activation=policy.choice("activation", tuple(ACTIVATIONS), default="tanh"),
        ppo=_ppo(f.sub("ppo")),
        imitation=_imitation(f.sub("imitation", default={})),
        eval_every=evaluation.int("every", min=1),
        eval_games=evaluation.int("games", min=1),
        final_games=evaluation.int("final_games", min=1),
        checkpoint_every=checkpoints.int("every", min=1),
        eval_record=evaluation.int("record", min=0, default=0),
        extractor=policy.choice("extractor", EXTRACTORS, default="mlp"),
        reward_shaping=f.number("reward_shaping", min=0.0, default=0.0),
    )


def _net_arch(policy: Fields) -> tuple[int, ...]:
    layers = policy.list("net_arch", min_len=1)
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in layers):
        raise policy.error("net_arch", "a list of layer widths (whole numbers >= 1)", layers)
    return tuple(layers)


def _ppo(ppo: Fields) -> PPOSettings:
    ppo.unknown(set(PPOSettings.__dataclass_fields__))
    return PPOSettings(
        learning_rate=ppo.number("learning_rate", min=0.0),
        n_steps=ppo.int("n_steps", min=2),
        batch_size=ppo.int("batch_size", min=2),
        n_epochs=ppo.int("n_epochs", min=1),
        gamma=_fraction(ppo, "gamma"),
        gae_lambda=_fraction(ppo, "gae_lambda"),
        clip_range=ppo.number("clip_range", min=0.0),
        ent_coef=ppo.number("ent_coef", min=0.0),
        vf_coef=ppo.number("vf_coef", min=0.0),
        max_grad_norm=ppo.number("max_grad_norm", min=0.0),
    )


def _imitation(f: Fields) -> ImitationSettings:
    f.unknown(set(ImitationSettings.__dataclass_fields__))
    defaults = ImitationSettings()
    return ImitationSettings(
        teacher=f.str("teacher", default=defaults.teacher),
        games=f.int("games", min=0, default=defaults.games),
        epochs=f.int("epochs", min=1, default=defaults.epochs),
        batch_size=f.int("batch_size", min=1, default=defaults.batch_size),
        learning_rate=None if f.raw("learning_rate", None) is None else f.number("learning_rate", min=0.0),
    )


def _fraction(f: Fields, key: str) -> float:
    value = f.number(key)
    if not 0.0 <= value <= 1.0:
        raise f.error(key, "a number in 0..1", value)
    return value
