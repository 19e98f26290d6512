"""Golden decisions of the scripted agents: 200 seeded scripted-against-scripted games per ruleset with a
scripted agent, each fingerprinted by every decision's side, legal mask and action and the returns (#41: speed
work on the scripted agents must leave every choice as it was).

    python -m tests.generic.scripted_decisions              # print the fingerprints of the current code
    python -m tests.generic.scripted_decisions --write      # rewrite tests/generic/scripted_decisions.json
    python -m tests.generic.scripted_decisions --write k47  # rewrite only the named rulesets

The games are played one after another in one process, as `rubble bench --api games` and `rubble simulate` play
them, so that whatever an agent or the rules keep across games (stores, tables) is exercised too. The agents'
seeds are `envs.engine.dice.agent_seed(game seed, side)`, as in training/measure/simulate.py.
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np

GOLDEN_FILE = Path(__file__).with_name("scripted_decisions.json")
RULESETS = ("rifles-urban", "rifles-darkness", "cityfight", "urbanwar", "k47")
GAMES = 200
PER_BLOCK = 20  # one fingerprint per 20 games, so that a failure says where the first changed game is


def block_fingerprints(name: str, games: int = GAMES) -> list[str]:
    """One fingerprint per block of PER_BLOCK games (seeds 0..games-1, in order)."""
    from envs import registry
    from envs.engine.contract import decide
    from envs.engine.dice import agent_seed
    ruleset = registry.get(name)
    scripted = registry.agents(name)["scripted"]
    sides = len(ruleset.sides)
    blocks, digest = [], hashlib.sha256()
    for seed in range(games):
        agents = [scripted(side, agent_seed(seed, side)) for side in range(sides)]
        state = ruleset.new_game(scenario=None, seed=seed)
        while state.current_side is not None:
            side = state.current_side
            action = int(decide(agents[side], state, side))
            digest.update(b"%d:%d:" % (side, action) + np.packbits(state.legal_action_mask()).tobytes())
            state.apply(action)
        digest.update(repr(tuple(state.returns())).encode())
        if (seed + 1) % PER_BLOCK == 0:
            blocks.append(digest.hexdigest()[:16])
            digest = hashlib.sha256()
    return blocks


def main(argv: list[str]) -> None:
    write = "--write" in argv
    names = [a for a in argv if not a.startswith("--")] or list(RULESETS)
    found = {name: block_fingerprints(name) for name in names}
    if write:
        current = json.loads(GOLDEN_FILE.read_text()) if GOLDEN_FILE.exists() else {}
        current.update(found)
        GOLDEN_FILE.write_text(json.dumps(dict(sorted(current.items())), indent=1) + "\n")
    print(json.dumps(found, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
