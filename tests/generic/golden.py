"""Golden traces: fingerprints of fixed seeded games, so a refactor can prove it changed no game.

A fingerprint is a SHA-256 over every decision of a game: who decided, the legal mask, both sides'
observations, the action, the events it produced (kind, side, dice, text) and, at the end, the
returns. Three drivers are traced: the game state played by two agents, the Gymnasium env (its seed
derivation and opponent inside `step`) and the PettingZoo AEC env (its `agent_selection` sequence).

    python -m tests.generic.golden            # print the fingerprints of the current code
    python -m tests.generic.golden --write    # rewrite tests/generic/golden_traces.json
    python -m tests.generic.golden --write k47   # rewrite only the named rulesets' fingerprints

Rewrite the file only in a commit that says which game changed and why.
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np

GOLDEN_FILE = Path(__file__).with_name("golden_traces.json")
RULESETS = ("rifles-urban", "rifles-darkness", "cityfight", "urbanwar", "k47")
PAIRINGS = (("random", "random"), ("scripted", "scripted"), ("scripted", "random"), ("random", "scripted"))
SEEDS = (0, 1, 2)
ENV_SEEDS = (0, 7)


class Trace:
    """A running SHA-256 over the pieces of one game."""

    def __init__(self) -> None:
        self.hash = hashlib.sha256()

    def add(self, *pieces) -> None:
        for piece in pieces:
            if isinstance(piece, np.ndarray):
                self.hash.update(str(piece.dtype).encode() + piece.tobytes())
            else:
                self.hash.update(repr(piece).encode())
            self.hash.update(b"|")

    def events(self, events) -> None:
        for event in events:
            self.add(event.kind, event.side, tuple(event.dice), event.text)

    def hexdigest(self) -> str:
        return self.hash.hexdigest()[:16]


def observe_all(trace: Trace, state, sides: int) -> None:
    for side in range(sides):
        trace.add(np.asarray(state.observation(side), dtype=np.float32))


def state_trace(ruleset, pairing: tuple[str, str], seed: int) -> str:
    """Two agents play one game of the state directly."""
    from agents.base import decide
    from envs import registry
    factories = registry.agents(ruleset.name)
    agents = [factories[name](side, seed + 100 * side) for side, name in enumerate(pairing)]
    state = ruleset.new_game(scenario=None, seed=seed)
    trace, sides = Trace(), len(ruleset.sides)
    while state.current_side is not None:
        side = state.current_side
        mask = state.legal_action_mask()
        observe_all(trace, state, sides)
        action = int(decide(agents[side], state, side))
        trace.add(side, np.packbits(mask), action)
        trace.events(state.apply(action))
    trace.add(tuple(state.returns()))
    return trace.hexdigest()


def gym_trace(ruleset, seed: int) -> str:
    """The Gymnasium env against the scripted opponent, the learner playing its first legal action."""
    from envs.gym_env import RubbleEnv
    env = RubbleEnv(ruleset.name, opponent="scripted", umpire_events=True)
    obs, info = env.reset(seed=seed)
    trace, done = Trace(), False
    trace.add(obs, np.packbits(info["action_mask"]))
    while not done:
        action = int(np.flatnonzero(info["action_mask"])[-1])
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
        trace.add(action, obs, np.packbits(info["action_mask"]), reward, terminated, truncated)
        trace.events(info["events"])
    return trace.hexdigest()


def aec_trace(ruleset, seed: int) -> str:
    """The PettingZoo AEC env, every agent playing uniformly at random from a fixed generator."""
    import envs
    env = envs.make_aec(ruleset.name)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace = Trace()
    for agent in env.agent_iter(max_iter=100_000):
        obs, reward, terminated, truncated, _ = env.last()
        trace.add(agent, obs["observation"], np.packbits(obs["action_mask"]), reward, terminated, truncated)
        if terminated or truncated:
            action = None
        else:
            legal = np.flatnonzero(obs["action_mask"])
            action = int(legal[rng.integers(legal.size)])
        trace.add(action)
        env.step(action)
    return trace.hexdigest()


def fingerprints(rulesets=RULESETS) -> dict[str, str]:
    """Every golden trace of the current code, by a key naming the driver, ruleset, pairing and seed."""
    from envs import registry
    found = {}
    for name in rulesets:
        ruleset = registry.get(name)
        for pairing in PAIRINGS:
            for seed in SEEDS:
                found[f"state/{name}/{pairing[0]}-{pairing[1]}/{seed}"] = state_trace(ruleset, pairing, seed)
        for seed in ENV_SEEDS:
            found[f"gym/{name}/scripted/{seed}"] = gym_trace(ruleset, seed)
            found[f"aec/{name}/random/{seed}"] = aec_trace(ruleset, seed)
    return found


def main(argv: list[str]) -> int:
    named = tuple(arg for arg in argv if not arg.startswith("--"))
    found = fingerprints(named or RULESETS)
    if "--write" in argv:
        # Only the named rulesets are rewritten: work on one ruleset never re-fingerprints another's games.
        kept = json.loads(GOLDEN_FILE.read_text()) if named else {}
        found = {**kept, **found}
        GOLDEN_FILE.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
        print(f"wrote {len(found)} fingerprints to {GOLDEN_FILE}")
    else:
        print(json.dumps(found, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
