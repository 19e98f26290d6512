"""Series of seeded games between agents, straight on the GameState: `rubble simulate`."""
from __future__ import annotations

import csv
import multiprocessing
import os
import signal
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from tqdm import tqdm

from envs.engine.contract import decide
from envs.engine.dice import agent_seed
from training import lookup

from .stats import GameRecord, SideTally, Summary, summarise

MAX_DECISIONS = 200_000  # far beyond any turn limit: a game this long is a bug, not a long game


@dataclass(frozen=True)
class Matchup:
    """What a series plays: the ruleset, the scenario and an agent name per side (picklable for workers)."""

    ruleset: str
    scenario: str | None
    agents: tuple[str, ...]


def play_game(rs, scenario, factories: Sequence, seed: int, recorder=None) -> GameRecord:
    """One game from `seed` to its end, each side played by the agent its factory makes; `recorder`
    (training.replay.recorder.Recorder) writes its replay if it wants this game."""
    state = rs.new_game(scenario=scenario, seed=seed) if recorder is None else recorder.start(rs, scenario, seed)
    agents = [make(side, agent_seed(seed, side)) for side, make in enumerate(factories)]
    decisions = 0
    while not state.is_over:
        side = state.current_side
        state.apply(decide(agents[side], state, side))
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise RuntimeError(f"{rs.name} game seed {seed} passed {MAX_DECISIONS} decisions without ending")
    if recorder is not None:
        recorder.finish(state, seed)
    return GameRecord(seed, tuple(state.returns()), decisions, getattr(state, "turn", None))


@lru_cache(maxsize=8)
def _resolve(matchup: Matchup):
    # Resolved once per process: workers get names (picklable), not factories.
    rs = lookup.ruleset(matchup.ruleset)
    return rs, [lookup.agent(rs, name) for name in matchup.agents]


def _play_seed(job: tuple) -> GameRecord:
    matchup, seed, recorder = job
    rs, factories = _resolve(matchup)
    return play_game(rs, matchup.scenario, factories, seed, recorder)


def worker_count(jobs: int, games: int) -> int:
    """Never more workers than games or processors: a huge --jobs must not fork thousands of processes."""
    return max(1, min(jobs, games, os.cpu_count() or 1))


def _die_with_parent() -> None:
    """A worker ends when the process that started it dies (Linux), so a killed `rubble` leaves no orphans."""
    try:
        import ctypes
        ctypes.CDLL("libc.so.6").prctl(1, signal.SIGKILL)     # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass   # not Linux: the pool's own shutdown still ends idle workers


def _records(matchup: Matchup, seeds: Sequence[int], jobs: int, recorder=None) -> Iterator[GameRecord]:
    work = [(matchup, s, recorder) for s in seeds]
    jobs = worker_count(jobs, len(work))
    if jobs <= 1:
        yield from map(_play_seed, work)
        return
    # fork: workers inherit the registry as it is, including rulesets registered at run time.
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork"),
                             initializer=_die_with_parent) as pool:
        yield from pool.map(_play_seed, work, chunksize=max(1, len(work) // (jobs * 8)))


def run_series(matchup: Matchup, seeds: Sequence[int], jobs: int = 1, progress: bool = False,
               recorder=None) -> list[GameRecord]:
    """Play one game per seed, in order; the records do not depend on `jobs` (nor on `recorder`)."""
    stream = _records(matchup, seeds, jobs, recorder)
    return list(tqdm(stream, total=len(seeds), desc=matchup.ruleset, unit="game", disable=not progress))


OUTCOMES = ("wins", "draws", "losses")


def _cell(tally: SideTally, outcome: str) -> str:
    lo, hi = tally.interval(outcome)
    return f"{getattr(tally, outcome):>6} {tally.rate(outcome):>6.1%}  {f'[{lo:.1%}, {hi:.1%}]':<16}"


def format_summary(summary: Summary, sides: Sequence[str], matchup: Matchup, seconds: float) -> str:
    """The table `rubble simulate` prints: results per side with 95 % Wilson intervals, lengths, speed."""
    width = max(len(s) for s in (*sides, "side"))
    agent_width = max(len(a) for a in (*matchup.agents, "agent"))
    head = "".join(f"{o:>6} {'share':>6}  {'95 % CI':<16}" for o in OUTCOMES)
    lines = [f"{'side':<{width}}  {'agent':<{agent_width}}{head}".rstrip()]
    for name, agent, tally in zip(sides, matchup.agents, summary.sides):
        cells = "".join(_cell(tally, o) for o in OUTCOMES)
        lines.append(f"{name:<{width}}  {agent:<{agent_width}}{cells}".rstrip())
    mean, sd = summary.decisions
    lines.append(f"game length: {mean:.1f} decisions (sd {sd:.1f})")
    if summary.turns is not None:
        lines.append(f"             {summary.turns[0]:.2f} turns (sd {summary.turns[1]:.2f})")
    lines.append(f"{summary.games} games in {seconds:.1f} s: {summary.games / max(seconds, 1e-9):.1f} games/s")
    return "\n".join(lines)


def write_games_csv(path: Path, sides: Sequence[str], records: Sequence[GameRecord]) -> None:
    """One row per game: its seed, each side's return, its decisions and turns, so that two series on the same
    seeds compare game by game (which seeds one agent wins that another loses)."""
    with open(path, "x", newline="", encoding="utf-8") as f:      # "x": never over an earlier file
        writer = csv.writer(f)
        writer.writerow(["seed", *(f"return_{side}" for side in sides), "decisions", "turns"])
        for r in records:
            writer.writerow([r.seed, *(f"{x:g}" for x in r.returns), r.decisions, "" if r.turns is None else r.turns])


def simulate(matchup: Matchup, games: int, seed: int, jobs: int = 1, progress: bool = True, recorder=None,
             games_csv: Path | None = None) -> str:
    """Run the series and return its report; `recorder` writes the replays it wants, `games_csv` a row per game."""
    rs = lookup.ruleset(matchup.ruleset)
    start = time.perf_counter()
    records = run_series(matchup, range(seed, seed + games), jobs, progress, recorder)
    seconds = time.perf_counter() - start
    if games_csv is not None:
        write_games_csv(games_csv, rs.sides, records)
    scenario = matchup.scenario or rs.default_scenario
    head = f"{rs.name}, scenario {scenario}: {games} games, seeds {seed}..{seed + games - 1}"
    return head + "\n" + format_summary(summarise(records, len(rs.sides)), rs.sides, matchup, seconds)
