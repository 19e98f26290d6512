"""Count reaction windows whose opening depends on what the acting side may not know (tests/checkers.py).

    python -m tests.prompt_leaks cityfight --games 200 [--seed 0] [--others 0]

At every decision of `games` random games (seeds seed..seed+games-1, the scenarios in turn): the action played (and `--others` more
legal ones) against every hidden variant of the state. Prints decisions checked and leaks found.
"""
from __future__ import annotations

import argparse
import sys

from envs import registry
from tests import checkers


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.prompt_leaks")
    parser.add_argument("env")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--others", type=int, default=0)
    args = parser.parse_args(argv)
    checked, leaks = checkers.count_prompt_leaks(registry.get(args.env), args.games, args.seed, args.others)
    print(f"{args.env}: {args.games} random games (seeds {args.seed}..{args.seed + args.games - 1}), "
          f"{checked} decisions checked, {leaks} reaction windows whose opening depends on hidden state")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
