"""A learner that starts from a trained actor instead of behaviour cloning (`league.start_from`, and `--start-from`
of `rubble exploit`: a best response that can already win where one cloned from the scripted agent finds no win to
learn from; results/cityfight/league/README.md).

Why: an hour of league spread over both sides and a pool gives each side a fraction of what a single-opponent run
spends on the one opponent the exploitability bar's second half measures (results/cityfight/league/README.md). A
league that starts from the single-opponent agents spends its time hardening them instead of growing new ones.

What is copied: actor.zip holds the actor only (agents/trained.py: the grid encoder if any, the policy layers and
the action layer), so those go into the MaskablePPO policy and the value head keeps its fresh weights. An untrained
critic makes PPO's first advantages noisy (they are still normalized per batch, and the clipped updates keep the
policy near its start) while the critic catches up; cloning the scripted agent only to fit a critic would cost
Cityfight eight minutes a side.
"""
from __future__ import annotations

from pathlib import Path

from agents.trained import Actor, ModelFileError, check_fits, read_actor


def start_from(policy, path, ruleset, side: int) -> None:
    """Read the actor in `path`, check it fits the ruleset and side, and copy it into `policy`; ModelFileError (one
    line naming the file) when it does not fit the policy the config builds."""
    actor = read_actor(path)
    check_fits(actor, ruleset, side, path)
    put_actor(policy, actor, Path(path))


def start_record(path: str | None) -> dict:
    """run.json's `imitation` of a run (or a league's learner) that starts from an actor, as an absolute path (a
    resumed run may start from another directory): set before the first session, so behaviour cloning is skipped
    and Session puts the actor in the new model."""
    return {"start_from": str(Path(path).resolve())} if path else {}


def check_start(path, ruleset, side: int, config) -> None:
    """The same checks as start_from, on a policy the config builds (no environment, no PPO model): run before any
    folder is made, so that an unfit actor fails in one line and leaves nothing behind."""
    import gymnasium
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from envs.gym_env import observation_box

    from .extractors import policy_kwargs

    policy = MaskableActorCriticPolicy(observation_box(ruleset), gymnasium.spaces.Discrete(ruleset.num_actions),
                                       lambda _: 0.0, **policy_kwargs(config, ruleset))
    start_from(policy, path, ruleset, side)


def put_actor(policy, actor: Actor, path: Path) -> None:
    """The actor's weights into the policy's actor part: features extractor, policy layers, action layer."""
    import torch

    extractor = policy.pi_features_extractor
    _check_extractor(extractor, actor, path)
    linears = [m for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)] + [policy.action_net]
    _check_layers(path, [tuple(m.weight.shape) for m in linears], [w.shape for w, _ in actor.layers])
    if policy.activation_fn.__name__ != actor.activation:
        raise ModelFileError(f"{path}: its activation is {actor.activation}; the config's policy uses "
                             f"{policy.activation_fn.__name__}")
    if actor.encoder is not None:
        extractor.load_numpy_encoder(actor.encoder, path)
    with torch.no_grad():
        for module, (weights, bias) in zip(linears, actor.layers):
            module.weight.copy_(torch.as_tensor(weights))
            module.bias.copy_(torch.as_tensor(bias))


def _check_layers(path: Path, policy_shapes: list[tuple], actor_shapes: list[tuple]) -> None:
    if [tuple(s) for s in actor_shapes] != policy_shapes:
        raise ModelFileError(f"{path}: its layers are {_shapes(actor_shapes)}; the config's policy has "
                             f"{_shapes(policy_shapes)} (policy.net_arch and policy.extractor must be the ones it "
                             "was trained with)")


def _shapes(shapes) -> str:
    return ", ".join("x".join(map(str, s)) for s in shapes)


def _check_extractor(extractor, actor: Actor, path: Path) -> None:
    """A grid actor needs the config's grid extractor; an MLP actor the plain flattening one."""
    grid = hasattr(extractor, "load_numpy_encoder")
    if (actor.encoder is not None) != grid:
        raise ModelFileError(f"{path}: it was trained with the {actor.kind} extractor; the config's policy.extractor "
                             f"is {'grid' if grid else 'mlp'}")
