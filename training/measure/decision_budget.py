"""Where a game's decisions go: `python -m training.measure.decision_budget ENV [--games N] [--prefer PATTERN --prefer-p P]`.

Plays seeded uniformly random games (game i: seed SEED + i) and prints, per decision kind, the mean number of
decisions a side was asked per game (decisions a ruleset applies unasked are not counted, as in `rubble simulate`).
`--prefer PATTERN` makes the random player take an action whose label (GameState.action_label) the regular
expression PATTERN matches in full, with probability P whenever one is legal: e.g. Urban War games in which every
order is Snap-fire, `--prefer "order .* Snap-fire" --prefer-p 1`.
"""
from __future__ import annotations

import argparse
import re
from collections import Counter

import numpy as np
from tqdm import tqdm

from training import lookup


def play(rs, seed: int, prefer: re.Pattern | None, prefer_p: float) -> Counter:
    """One random game to its end: decisions asked per kind."""
    state, rng, asked = rs.new_game(seed=seed), np.random.default_rng(seed), Counter()
    while not state.is_over:
        asked[state.decision_kind()] += 1
        legal = np.flatnonzero(state.legal_action_mask())
        chosen = [a for a in legal.tolist() if prefer.fullmatch(state.action_label(a))] if prefer else []
        if chosen and rng.random() < prefer_p:
            state.apply(chosen[0])
        else:
            state.apply(int(legal[rng.integers(legal.size)]))
    return asked


def budget(env: str, games: int, seed: int = 0, prefer: re.Pattern | None = None, prefer_p: float = 1.0,
           progress: bool = True) -> str:
    """The table: decision kind, mean per game; then the total's mean, sd and 95 % interval of the mean."""
    rs = lookup.ruleset(env)
    per_game = [play(rs, s, prefer, prefer_p) for s in tqdm(range(seed, seed + games), desc=rs.name, unit="game",
                                                             disable=not progress)]
    kinds = sorted({k for c in per_game for k in c}, key=str)
    totals = np.array([sum(c.values()) for c in per_game], dtype=float)
    lines = [f"{rs.name}: {games} random games, seeds {seed}..{seed + games - 1}"
             + (f", '{prefer.pattern}' taken with p {prefer_p} when legal" if prefer else "")]
    lines += [f"  {str(k):<16} {np.mean([c[k] for c in per_game]):8.1f}" for k in kinds]
    sd = totals.std(ddof=1) if games > 1 else 0.0
    half = 1.96 * sd / np.sqrt(games)
    lines.append(f"  {'total':<16} {totals.mean():8.1f}  (sd {sd:.1f}, 95 % interval of the mean "
                 f"[{totals.mean() - half:.1f}, {totals.mean() + half:.1f}])")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.measure.decision_budget", description=__doc__.split("\n")[0])
    p.add_argument("env")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--prefer", type=re.compile, help="a regular expression matching in full the action labels the "
                                                      "random player favours")
    p.add_argument("--prefer-p", type=float, default=1.0, help="probability of taking --prefer when legal")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    args = p.parse_args(argv)
    if args.games < 1 or not 0 <= args.prefer_p <= 1:
        p.error("--games must be at least 1 and --prefer-p in [0, 1]")
    print(budget(args.env, args.games, args.seed, args.prefer, args.prefer_p, not args.quiet))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
