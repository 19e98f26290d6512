"""The README's pictures: one `rgb_array` render per ruleset, mid-game, as the learner side sees it.

    python -m training.play.pictures results/play [--decisions 20] [--seed 1] [--force]

Each game is the ruleset's default scenario played by the scripted agents for `--decisions` decisions from `--seed`, so
a picture is reproduced exactly by the same command. An existing picture is never replaced without --force."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from PIL import Image

from agents.base import decide
from envs import registry
from envs.engine.dice import agent_seed
from training import lookup

RULESETS = ("rifles-urban", "rifles-darkness", "cityfight", "k47", "urbanwar")


def mid_game(rs, seed: int, decisions: int):
    """The default scenario after `decisions` decisions of the scripted agents, or at its end if that comes first;
    (the game, the decisions played)."""
    state = rs.new_game(seed=seed)
    agents = {s: lookup.agent(rs, "scripted")(s, agent_seed(seed, s)) for s in range(len(rs.sides))}
    played = 0
    while played < decisions and not state.is_over:
        side = state.current_side
        state.apply(decide(agents[side], state, side))
        played += 1
    return state, played


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.play.pictures", description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--decisions", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--force", action="store_true", help="replace pictures that exist")
    args = parser.parse_args(argv)
    targets = {name: args.out / f"{name}.png" for name in RULESETS}
    existing = [str(p) for p in targets.values() if p.exists()]
    if existing and not args.force:
        print(f"{existing[0]}: exists; pass --force to replace the pictures", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    for name, path in targets.items():
        rs = registry.get(name)
        state, played = mid_game(rs, args.seed, args.decisions)
        Image.fromarray(state.render_rgb(rs.default_learner_side)).save(path)
        print(f"{path}: {name}, turn {state.turn}, after {played} decisions from seed {args.seed}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
