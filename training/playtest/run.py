"""Playing a playtest's games: one task per (table, seed) plays that seed under every variant (paired dice), on local
worker processes or as Ray tasks. The records are sorted by (table, seed, variant), so they do not depend on the
backend, the number of workers or the order tasks finish in; Ctrl-C keeps the seeds already played."""
from __future__ import annotations

import multiprocessing
import signal
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache

from tqdm import tqdm

from training import lookup
from training.measure.simulate import _die_with_parent, worker_count

from .spec import Variant
from .telemetry import GameTelemetry, play

BACKENDS = ("local", "ray")


@dataclass(frozen=True)
class Plan:
    """Everything a worker needs, by name only (picklable, and meaningful on another machine)."""

    ruleset: str
    variants: tuple[Variant, ...]
    tables: tuple[tuple[str, ...], ...]   # per table, the agent of each side (names or .zip paths)
    pairing: str = "decision"             # how paired games share dice: playtest_dice.PAIRINGS


@dataclass
class Outcome:
    """The records played, and whether the run was stopped before its end."""

    records: list[GameTelemetry]
    interrupted: bool = False


@lru_cache(maxsize=8)
def _resolve(ruleset: str, agents: tuple[str, ...]):
    rs = lookup.ruleset(ruleset)
    return rs, [lookup.agent(rs, name) for name in agents]


def play_task(plan: Plan, table: int, seed: int) -> list[GameTelemetry]:
    """Seed `seed` of table `table` under every variant: the same dice stream and the same agent seeds for each."""
    rs, factories = _resolve(plan.ruleset, plan.tables[table])
    return [play(rs, variant, factories, seed, table, index, plan.pairing) for index, variant in enumerate(plan.variants)]


def _play_job(job) -> list[GameTelemetry]:
    return play_task(*job)


def _local(plan: Plan, jobs: Sequence[tuple], workers: int) -> Iterator[list[GameTelemetry]]:
    if workers <= 1:
        yield from map(_play_job, jobs)
        return
    # fork: workers inherit the registry as it is; each task is small, so they are handed out one by one.
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"), initializer=_die_with_parent) as pool:
        pending = {pool.submit(_play_job, job) for job in jobs}
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
        finally:
            for future in pending:
                future.cancel()


def _ray(plan: Plan, jobs: Sequence[tuple], workers: int, address: str | None) -> Iterator[list[GameTelemetry]]:
    import ray

    if not ray.is_initialized():
        # A local Ray gets the worker count asked for; a cluster (`--ray-address`) brings its own cores.
        ray.init(address=address, num_cpus=None if address else workers, include_dashboard=False,
                 log_to_driver=False, configure_logging=False)
    task = ray.remote(play_task)
    plan_ref = ray.put(plan)
    pending = [task.remote(plan_ref, table, seed) for _, table, seed in jobs]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield from ray.get(done)
    finally:
        for ref in pending:
            ray.cancel(ref)


def _terminated(signum, frame):
    raise KeyboardInterrupt


@contextmanager
def terminate_as_interrupt():
    """SIGTERM (a scheduler's or `kill`'s stop) stops the run as Ctrl-C does: the seeds played are kept and reported."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGTERM, _terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def run_games(plan: Plan, seeds: Sequence[int], workers: int = 1, backend: str = "local", address: str | None = None,
              progress: bool = False) -> Outcome:
    """Play every seed of every table under every variant; Ctrl-C or SIGTERM stops early and keeps the finished seeds."""
    jobs = [(plan, table, seed) for table in range(len(plan.tables)) for seed in seeds]
    workers = worker_count(workers, len(jobs))
    stream = _ray(plan, jobs, workers, address) if backend == "ray" else _local(plan, jobs, workers)
    records, interrupted = [], False
    total = len(jobs) * len(plan.variants)
    with terminate_as_interrupt(), tqdm(total=total, desc=f"playtest {plan.ruleset}", unit="game", disable=not progress) as bar:
        try:
            for batch in stream:
                records.extend(batch)
                bar.update(len(batch))
        except KeyboardInterrupt:
            interrupted = True
        finally:
            stream.close()
    records.sort(key=lambda r: (r.table, r.seed, r.variant))
    return Outcome(records, interrupted)
