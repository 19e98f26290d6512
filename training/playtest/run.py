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


#: A local Ray listens here alone: left to itself it binds every interface, open to any machine that reaches this one.
LOCAL_RAY_HOST = "127.0.0.1"
#: Ray turns a node address of 127.0.0.1 into the machine's outward one unless told it is no cluster (read by Ray's
#: constants at import, and by each process it starts from the environment).
NO_CLUSTER = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"


def start_ray(workers: int, address: str | None) -> None:
    """Ray for the games: the cluster at `address` (`--ray-address`, which brings its own cores), else a local Ray
    with `workers` CPUs listening on LOCAL_RAY_HOST only; the process's settings are restored once it runs."""
    import os

    import ray
    from ray._private import ray_constants

    common = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
    if address:
        ray.init(address=address, **common)
        return
    before = os.environ.get(NO_CLUSTER), ray_constants.ENABLE_RAY_CLUSTER
    os.environ[NO_CLUSTER], ray_constants.ENABLE_RAY_CLUSTER = "0", False
    try:
        ray.init(num_cpus=workers, _node_ip_address=LOCAL_RAY_HOST, **common)
    finally:
        if before[0] is None:
            os.environ.pop(NO_CLUSTER, None)
        else:
            os.environ[NO_CLUSTER] = before[0]
        ray_constants.ENABLE_RAY_CLUSTER = before[1]


def _ray(plan: Plan, jobs: Sequence[tuple], workers: int, address: str | None) -> Iterator[list[GameTelemetry]]:
    import ray

    if not ray.is_initialized():
        start_ray(workers, address)
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
