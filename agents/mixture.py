"""A mixture of trained actors played as one agent: each game, one member, drawn from the game's seed.

What fictitious self-play and PSRO put out is not their last policy but a mixed strategy over the policies they
made: fictitious play's average strategy is the one that approaches a Nash equilibrium (Heinrich et al. 2015,
"Fictitious Self-Play in Extensive-Form Games"), and PSRO's solution is the meta-strategy over its population
(Lanctot et al. 2017). A league's snapshots are such a population, so its exploitability is measured on this
agent as well as on its last policy.

A mixture is a JSON file whose name ends in `.mixture.json` (data only, nothing in it runs):

    {"members": [{"actor": "pool/enemy-r13.zip", "weight": 1.0},
                 {"actor": "pool/enemy-r14.zip", "weight": 1.0}],
     "about": "free text: where the members come from"}

Paths are relative to the file. Every member must be an actor.zip trained for the same ruleset and side. The
member of a game is drawn with the weights from a Generator seeded with the agent's seed for that game, so the
same seed plays the same member: the adapters reseed an agent at each game (envs/gym_env.py's `reseed`,
training/measure/simulate.py builds one per game).
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from envs import registry

from . import trained

#: the suffix that makes a path a mixture for the agent loaders (`--agent`, `--enemy`, the envs' `opponent`)
SUFFIX = ".mixture.json"
KEYS = {"members", "about"}
MEMBER_KEYS = {"actor", "weight"}


class MixtureFileError(trained.ModelFileError):
    """A mixture file that is refused: one line naming the file, the field and what was expected."""


def read(path) -> tuple[list[Path], np.ndarray]:
    """The members' actor paths and their weights (summing to 1), checked; MixtureFileError on anything else."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError:
        raise MixtureFileError(f"{path}: no such file") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise MixtureFileError(f"{path}: not JSON ({exc})") from None
    if not isinstance(data, dict) or set(data) - KEYS or "members" not in data:
        raise MixtureFileError(f"{path}: expected a JSON object with 'members' (and optionally 'about'); "
                               f"got {sorted(data) if isinstance(data, dict) else type(data).__name__}")
    members = data["members"]
    if not isinstance(members, list) or not members:
        raise MixtureFileError(f"{path}: members: expected a non-empty list of {{actor, weight}}")
    actors = [_member_actor(path, i, m) for i, m in enumerate(members)]
    weights = np.array([_member_weight(path, i, m) for i, m in enumerate(members)], dtype=float)
    return actors, weights / weights.sum()


def _member_actor(path: Path, index: int, member) -> Path:
    if not isinstance(member, dict) or set(member) - MEMBER_KEYS or not isinstance(member.get("actor"), str):
        raise MixtureFileError(f"{path}: members[{index}]: expected {{\"actor\": a path, \"weight\": a number}}; "
                               f"got {member!r}")
    return path.parent / member["actor"]


def _member_weight(path: Path, index: int, member: dict) -> float:
    weight = member.get("weight", 1.0)
    if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not weight > 0 or weight == float("inf"):
        raise MixtureFileError(f"{path}: members[{index}].weight: expected a positive finite number; got {weight!r}")
    return float(weight)


class MixtureAgent:
    """One member of the mixture per game; the member plays as itself (a masked argmax: deterministic)."""

    needs_observation = True

    def __init__(self, members: list, weights: np.ndarray, side: int, seed: int, name: str) -> None:
        self.members, self.weights, self.side, self.name = members, weights, side, name
        self.reseed(seed)

    def reseed(self, seed: int) -> None:
        """Draw this game's member from `seed` alone (no state carried from game to game)."""
        self.member = self.members[int(np.random.default_rng(seed).choice(len(self.members), p=self.weights))]

    def act(self, observation: np.ndarray, mask: np.ndarray, view) -> int:
        return self.member.act(observation, mask, view)


def side(path) -> str:
    """The side the mixture's members were trained for (its first member's: `factory` checks they agree)."""
    actors, _ = read(path)
    return trained.read_actor(actors[0]).meta["side"]


def load(path, ruleset, side: int, seed: int = 0) -> MixtureAgent:
    """The mixture at `path` playing `side` of `ruleset`; every member is read and checked."""
    actors, weights = read(path)
    members = []
    for index, actor in enumerate(actors):
        try:
            members.append(trained.load(actor, ruleset, side))
        except trained.ModelFileError as exc:
            raise MixtureFileError(f"{path}: members[{index}]: {exc}") from None
    return MixtureAgent(members, weights, side, seed, name=Path(path).name)


def factory(ruleset, path: str):
    """factory(side, seed) for a mixture spec; the file and every member are read and checked now."""
    actors, _ = read(path)
    sides = set()
    for index, actor in enumerate(actors):
        try:
            policy = trained.read_actor(actor)
            trained.check_fits(policy, ruleset, None, actor)
        except trained.ModelFileError as exc:
            raise MixtureFileError(f"{path}: members[{index}]: {exc}") from None
        sides.add(policy.meta["side"])
    if len(sides) > 1:
        raise MixtureFileError(f"{path}: members: expected actors of one side; got {', '.join(sorted(sides))}")
    return lambda side, seed=0: load(path, ruleset, side, seed)


registry.register_agent_loader(SUFFIX, factory)
