"""Does who decides next depend on what the deciding side may not know? A benchmark, not part of the test suite.

    .venv/bin/python -m tests.generic.decider_sequence [--games 200] [--rulesets cityfight k47] [--kinds random]
                                                       [--seed 0] [--jobs 1]

PettingZoo's `agent_selection` shows every side who decides at every step, so that sequence is as visible as the
observation (Cityfight CF-HID-4, clarified; Urban War UW-HID-6). The check, for every ruleset of the registry:

  1. Play `games` games to the end, recording each decision's side and action: random play (uniform legal actions,
     seeded) and scripted play (each side's scripted agent, where the ruleset has one).
  2. Replay each game. At every decision of a side S, take the ruleset's `hidden_variants(state, S)`: copies that S
     cannot tell from the game it is in. In each, play S's real action, then the other sides' real actions, until
     S decides again in the real game or the game ends.
  3. A pair (the game, one variant) differs when the sequence of deciders up to S's next decision differs. It is
     counted when S's observation is the same in both at every decision before the sequences part and again
     where S decides next: then the decider sequence alone told S what its observation hides. (S may read its
     observation at every step, as PettingZoo's `observe` allows: sequences that part after a public event S
     saw — a model removed one shot sooner under the variant's other dice — tell S nothing new.)
     A variant in which a real action of another side is illegal is not compared (that side would have chosen
     otherwise: its own choices may depend on what it knows); it is counted as "not replayable".

Prints, per ruleset and kind of play, the differing pairs out of the pairs checked. Target: 0 everywhere.
"""
from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np

from envs import registry
from envs.engine.contract import GameState, Ruleset, decide

KINDS = ("random", "scripted")
#: a game longer than this is taken to be stuck
MAX_DECISIONS = 20_000


@dataclass
class Tally:
    """Pairs checked, pairs whose decider sequence differs while the side's next observation is the same, pairs not
    replayable; the first few differences in words."""

    checked: int = 0
    differing: int = 0
    unreplayable: int = 0
    examples: tuple = ()

    def add(self, other: Tally) -> Tally:
        examples = (self.examples + other.examples)[:5]
        return Tally(self.checked + other.checked, self.differing + other.differing,
                     self.unreplayable + other.unreplayable, examples)


# Playing the games -------------------------------------------------------------------------------------------------
def new_game(ruleset: Ruleset, seed: int) -> GameState:
    return ruleset.new_game(seed=seed)


def played_actions(ruleset: Ruleset, kind: str, seed: int) -> list[int]:
    """The actions of one whole game of `kind` play, seed `seed`."""
    state, actions = new_game(ruleset, seed), []
    if kind == "random":
        rng = np.random.default_rng(seed)
        choose = lambda s: int(rng.choice(np.flatnonzero(s.legal_action_mask())))   # noqa: E731
    else:
        players = {side: registry.agents(ruleset.name)["scripted"](side, seed) for side in range(len(ruleset.sides))}
        choose = lambda s: decide(players[s.current_side], s, s.current_side)      # noqa: E731
    while state.current_side is not None and len(actions) < MAX_DECISIONS:
        actions.append(choose(state))
        state.apply(actions[-1])
    return actions


# Replaying them against their hidden variants -------------------------------------------------------------------------
def next_turn_of(deciders: list, i: int) -> int:
    """The index of the first decision after i taken by the side of decision i (len(deciders): none, the game ends)."""
    side = deciders[i]
    for k in range(i + 1, len(deciders)):
        if deciders[k] == side:
            return k
    return len(deciders)


def replay_variant(variant: GameState, actions: list[int], deciders: list, i: int, j: int) -> tuple[str, int]:
    """Play actions i.. on `variant` while it asks the sides the real game asked, up to decision j (the side's next).
    Returns ("same" | "differs" | "unreplayable", the index where the variant stopped)."""
    side = deciders[i]
    for k in range(i, j):
        if k > i and variant.current_side != deciders[k]:
            return "differs", k
        if not variant.legal_action_mask()[actions[k]]:
            return "unreplayable", k
        variant.apply(actions[k])
        if k + 1 < j and variant.current_side == side:
            return "differs", k + 1                    # the side is asked again sooner than in the real game
    expected = deciders[j] if j < len(deciders) else None
    return ("same" if variant.current_side == expected else "differs"), j


def observation_or_end(state: GameState, side: int) -> bytes:
    return state.observation(side).tobytes()


def check_game(ruleset: Ruleset, kind: str, seed: int) -> Tally:
    """Every pair (decision, hidden variant) of one game."""
    actions = played_actions(ruleset, kind, seed)
    state, deciders = new_game(ruleset, seed), []
    for a in actions:                                  # who decided at each step
        deciders.append(state.current_side)
        state.apply(a)
    tally, state = Tally(), new_game(ruleset, seed)
    for i, action in enumerate(actions):
        side = deciders[i]
        j = next_turn_of(deciders, i)
        variants = ruleset.hidden_variants(state, side)
        before = state.to_dict() if variants else None
        state.apply(action)
        if not variants:
            continue
        real_next = replay_real_until(state, actions, i + 1, j)
        real_view = observation_or_end(real_next, side)
        for number, variant in enumerate(variants):
            verdict, stop = replay_variant(variant, actions, deciders, i, j)
            if verdict == "unreplayable":
                tally.unreplayable += 1
                continue
            tally.checked += 1
            if (verdict == "differs" and observation_or_end(variant, side) == real_view
                    and not told_apart_before(ruleset, before, number, actions, side, i, stop)):
                tally.differing += 1
                if len(tally.examples) < 5:
                    tally.examples += (f"seed {seed}, decision {i} ({side_name(ruleset, side)}, "
                                       f"{real_next_label(ruleset, seed, actions, i)}): from decision {stop} the real "
                                       f"game asks {sequence(ruleset, deciders[stop:j + 1])}, the variant "
                                       f"{side_name(ruleset, variant.current_side)} "
                                       f"({variant.decision_kind() if variant.current_side is not None else 'over'})",)
    return tally


def told_apart_before(ruleset: Ruleset, before: dict, number: int, actions: list[int], side, i: int, stop: int) -> bool:
    """Whether `side`'s observation differs between the real game and hidden variant `number` (both made again from
    `before`, the state at decision i) at some decision after i and before `stop`, where their deciders part."""
    real = ruleset.state_type.from_dict(before)
    variant = ruleset.hidden_variants(ruleset.state_type.from_dict(before), side)[number]
    for k in range(i, stop - 1):
        real.apply(actions[k])
        variant.apply(actions[k])
        if observation_or_end(real, side) != observation_or_end(variant, side):
            return True
    return False


def replay_real_until(state: GameState, actions: list[int], start: int, j: int) -> GameState:
    """A copy of the real game (at decision `start`) played on to decision j: where the side decides next."""
    copy = type(state).from_dict(state.to_dict())
    for k in range(start, min(j, len(actions))):
        copy.apply(actions[k])
    return copy


def side_name(ruleset: Ruleset, side) -> str:
    return ruleset.sides[side] if side is not None else "none"


def sequence(ruleset: Ruleset, deciders: list) -> str:
    return " ".join(side_name(ruleset, d) for d in deciders) or "none"


def real_next_label(ruleset: Ruleset, seed: int, actions: list[int], i: int) -> str:
    state = new_game(ruleset, seed)
    for a in actions[:i]:
        state.apply(a)
    return f"{state.decision_kind()}: {state.action_label(actions[i])}"


def check_games(name: str, kind: str, seeds: list[int]) -> Tally:
    ruleset, total = registry.get(name), Tally()
    for seed in seeds:
        total = total.add(check_game(ruleset, kind, seed))
    return total


# Command line -------------------------------------------------------------------------------------------------------
def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.generic.decider_sequence", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per ruleset and kind of play (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed (games use seed..seed+games-1)")
    parser.add_argument("--rulesets", nargs="*", default=None, help="default: every registered ruleset")
    parser.add_argument("--kinds", nargs="*", default=list(KINDS), choices=KINDS)
    parser.add_argument("--jobs", type=int, default=1, help="processes (the games split between them)")
    args = parser.parse_args(argv)
    seeds = list(range(args.seed, args.seed + args.games))
    worst = 0
    for name in args.rulesets or registry.names():
        for kind in args.kinds:
            if kind == "scripted" and "scripted" not in registry.agents(name):
                print(f"{name:16} {kind:8}  no scripted agent")
                continue
            began = time.perf_counter()
            tally = run(name, kind, seeds, args.jobs)
            share = 100 * tally.differing / tally.checked if tally.checked else 0.0
            print(f"{name:16} {kind:8}  {tally.differing} of {tally.checked} pairs differ ({share:.2f} %); "
                  f"{tally.unreplayable} not replayable; {args.games} games, seeds {seeds[0]}..{seeds[-1]}, "
                  f"{time.perf_counter() - began:.0f} s", flush=True)
            for example in tally.examples:
                print(f"    {example}")
            worst = max(worst, tally.differing)
    return 1 if worst else 0


def run(name: str, kind: str, seeds: list[int], jobs: int) -> Tally:
    if jobs <= 1:
        return check_games(name, kind, seeds)
    with ProcessPoolExecutor(jobs) as pool:
        parts = pool.map(check_games, [name] * jobs, [kind] * jobs, [seeds[k::jobs] for k in range(jobs)])
        total = Tally()
        for part in parts:
            total = total.add(part)
        return total


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
