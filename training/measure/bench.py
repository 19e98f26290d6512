"""Speed of play through the adapters and of whole scripted games, one process: `rubble bench`.

Three measurements (`--api`):
  aec    random masked play of the PettingZoo AEC env, the observation and the mask read every step;
  gym    random masked learner steps of the Gymnasium env, the scripted opponent playing inside `step`;
  games  scripted against scripted, straight on the game state: full games per second.

Rates are in CPU seconds of this process (time.process_time), not wall seconds: the machine may be shared,
and another process's load then shows less. With `--peers` every repetition times PettingZoo's
connect_four_v3 first and each measurement right after it, interleaved, so that a ratio compares two rates
taken under the same load; the table gives the median over the repetitions and the range of the ratios.
"""
from __future__ import annotations

import cProfile
import os
import pstats
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

PEER = "connect_four_v3"  # PettingZoo classic: a small masked AEC game to put our speeds in scale
APIS = ("aec", "gym", "games")
CLOCK_EVERY = 16          # steps between reads of the clock: reading it costs about a microsecond
clock = time.process_time


@dataclass(frozen=True)
class Rate:
    """How much play fitted in `seconds` of CPU time: decisions taken and games finished."""

    env: str
    api: str
    steps: int
    games: int
    seconds: float

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds


def random_legal(rng: np.random.Generator, mask: np.ndarray) -> int:
    """A uniform legal action."""
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def time_gym(env, name: str, seconds: float, seed: int) -> Rate:
    """Random masked steps of a Gymnasium env with `action_masks()`, resetting after each game."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = games = 0
    start = now = clock()
    while now - start < seconds:
        _, _, terminated, truncated, _ = env.step(random_legal(rng, env.action_masks()))
        steps += 1
        if terminated or truncated:
            games += 1
            env.reset()
        if steps % CLOCK_EVERY == 0:
            now = clock()
    return Rate(name, "gym", steps, games, clock() - start)


def time_aec(env, name: str, seconds: float, seed: int) -> Rate:
    """Random masked play of a PettingZoo AEC env (mask in observation['action_mask'])."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = games = 0
    start = now = clock()
    while now - start < seconds:
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)  # AEC: a finished agent steps None until it is removed
            if not env.agents:
                games += 1
                env.reset()
            continue
        env.step(random_legal(rng, observation["action_mask"]))
        steps += 1
        if steps % CLOCK_EVERY == 0:
            now = clock()
    return Rate(name, "aec", steps, games, clock() - start)


def time_games(name: str, seconds: float, seed: int) -> Rate:
    """Whole games of the scripted agent against itself, seeds from `seed` on (training/measure/simulate.py's loop)."""
    from training import lookup

    from .simulate import play_game

    rs = lookup.ruleset(name)
    factories = [lookup.agent(rs, "scripted")] * len(rs.sides)
    steps = games = 0
    start = clock()
    while clock() - start < seconds:
        steps += play_game(rs, None, factories, seed + games).decisions
        games += 1
    return Rate(name, "games", steps, games, clock() - start)


def peer_env():
    """PettingZoo's connect four, without pygame's greeting on stdout."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    # The module itself: pettingzoo.classic.connect_four_v3 is a deprecated alias in newer PettingZoo.
    from pettingzoo.classic.connect_four.connect_four import env

    return env()


def bench_env(name: str, api: str, seconds: float, seed: int) -> Rate:
    """Time one registered env through the Gymnasium adapter (its default opponent, scripted), the AEC adapter,
    or as whole scripted games."""
    if api == "games":
        return time_games(name, seconds, seed)
    if api == "gym":
        from envs.gym_env import RubbleEnv

        return time_gym(RubbleEnv(name), name, seconds, seed)
    from envs import make_aec

    return time_aec(make_aec(name), name, seconds, seed)


# Repetitions and their summary -------------------------------------------------------------------------
@dataclass(frozen=True)
class Row:
    """One measurement over the repetitions: median rates, and the median and range of the ratio of its
    steps/s to the peer's steps/s of the same repetition (None without a peer)."""

    env: str
    api: str
    rates: tuple[Rate, ...]
    ratios: tuple[float, ...]

    @property
    def steps_per_second(self) -> float:
        return statistics.median(r.steps_per_second for r in self.rates)

    @property
    def games_per_second(self) -> float:
        return statistics.median(r.games_per_second for r in self.rates)

    @property
    def ratio(self) -> float | None:
        return statistics.median(self.ratios) if self.ratios else None

    def as_dict(self) -> dict:
        ratio = self.ratio
        return {"env": self.env, "api": self.api, "steps_per_second": round(self.steps_per_second, 1),
                "games_per_second": round(self.games_per_second, 2),
                "ratio_to_peer": None if ratio is None else round(ratio, 3),
                "ratio_range": [round(min(self.ratios), 3), round(max(self.ratios), 3)] if self.ratios else None,
                "repetitions": [{"steps": r.steps, "games": r.games, "cpu_seconds": round(r.seconds, 3)}
                                for r in self.rates]}


def run_suite(names: Sequence[str], apis: Sequence[str], seconds: float, seed: int, reps: int, peers: bool,
              progress: Callable[[str], None] | None = None) -> list[Row]:
    """`reps` repetitions; in each, the peer (if asked) right before every measurement, so that each ratio
    compares rates taken moments apart."""
    jobs = [(name, api) for api in apis for name in names]
    rates: dict = {job: [] for job in jobs}
    ratios: dict = {job: [] for job in jobs}
    peer_rates: list[Rate] = []
    for rep in range(reps):
        for name, api in jobs:
            peer = time_aec(peer_env(), PEER, seconds, seed) if peers and api != "games" else None
            rate = bench_env(name, api, seconds, seed)
            rates[(name, api)].append(rate)
            if peer is not None:
                peer_rates.append(peer)
                ratios[(name, api)].append(rate.steps_per_second / peer.steps_per_second)
            if progress is not None:
                progress(f"repetition {rep + 1}/{reps}: {name} {api} {rate.steps_per_second:,.0f} steps/s")
    rows = [Row(PEER, "aec", tuple(peer_rates), tuple(1.0 for _ in peer_rates))] if peer_rates else []
    return rows + [Row(name, api, tuple(rates[(name, api)]), tuple(ratios[(name, api)])) for name, api in jobs]


def format_rows(rows: list[Row], reps: int) -> str:
    """One line per measurement: median steps/s and games/s, and with a peer the ratio's range and median."""
    width = max([len("env")] + [len(r.env) for r in rows])
    peered = any(r.ratios for r in rows)
    head = f"  {'range':>11}  vs {PEER}" if peered else ""
    lines = [f"{'env':<{width}}  {'api':<5}  {'steps/s':>9}  {'games/s':>8}{head}"]
    for row in rows:
        ratio = ""
        if row.ratios:
            ratio = f"  {min(row.ratios):>5.2f}-{max(row.ratios):<5.2f}  {row.ratio:>6.2f}x"
        lines.append(f"{row.env:<{width}}  {row.api:<5}  {row.steps_per_second:>9,.0f}  {row.games_per_second:>8.1f}{ratio}")
    lines.append(f"medians of {reps} repetitions, CPU time of this process; gym steps are the learner's decisions (the "
                 "scripted opponent's happen inside each step); games: scripted against scripted")
    return "\n".join(lines)


# Profiles ---------------------------------------------------------------------------------------------
def profile(name: str, api: str, seconds: float, seed: int, top: int = 25) -> str:
    """cProfile of one measurement: the `top` functions by their own time, with their share of the total."""
    profiler = cProfile.Profile(clock)   # CPU time: on a shared machine wall time charges others' work to us
    profiler.enable()
    bench_env(name, api, seconds, seed)
    profiler.disable()
    stats = pstats.Stats(profiler)
    total = stats.total_tt or 1.0
    entries = sorted(stats.stats.items(), key=lambda item: item[1][2], reverse=True)[:top]
    lines = [f"{name} {api}: {total:.2f} s profiled; top {top} functions by own time",
             f"{'own %':>6}  {'cum %':>6}  {'calls':>9}  {'own us/call':>11}  function"]
    for (path, line, function), (_, calls, own, cumulative, _) in entries:
        lines.append(f"{100 * own / total:>6.1f}  {100 * cumulative / total:>6.1f}  {calls:>9,}  "
                     f"{1e6 * own / calls:>11.2f}  {_short(path)}:{line}({function})")
    return "\n".join(lines)


def _short(path: str) -> str:
    """A path from its package on (envs/..., numpy/...); built-ins as they are."""
    if "/site-packages/" in path:
        return path.split("/site-packages/", 1)[1]
    for top in ("envs", "agents", "training"):
        if f"/{top}/" in path:
            return top + "/" + path.rsplit(f"/{top}/", 1)[1]
    return path
