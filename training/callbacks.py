"""What happens around MaskablePPO's learning loop: the time budget, periodic evaluation, checkpoints, the bar.

Everything here runs at a rollout boundary (the model is only updated between rollouts), so an evaluation
or a checkpoint always sees a model that has finished its last update.
"""
from __future__ import annotations

import csv
import time
from typing import Callable

from stable_baselines3.common.callbacks import BaseCallback
from tqdm import tqdm

from .series import SideResult

EVAL_FIELDS = ("timesteps", "seconds", "games", "wins", "draws", "losses", "win_rate", "win_low", "win_high",
               "mean_decisions", "mean_turns")


class Clock:
    """Training wall time summed over every session of a run, against an optional budget in seconds."""

    def __init__(self, before: float = 0.0, budget: float | None = None) -> None:
        self.before, self.budget, self.start = before, budget, time.perf_counter()

    def elapsed(self) -> float:
        return self.before + time.perf_counter() - self.start

    def spent(self) -> bool:
        return self.budget is not None and self.elapsed() >= self.budget


class TimeBudget(BaseCallback):
    """Stops learning at the first step of a rollout once the clock's budget is spent (no half rollouts)."""

    def __init__(self, clock: Clock) -> None:
        super().__init__()
        self.clock, self._first_step = clock, False

    def _on_rollout_start(self) -> None:
        self._first_step = True

    def _on_step(self) -> bool:
        first, self._first_step = self._first_step, False
        return not (first and self.clock.spent())


class Periodic(BaseCallback):
    """Calls `action(timesteps)` at the first rollout boundary `every` timesteps after the last call."""

    # `now`: also at the very first boundary (a new run's untrained model is the curve's first point).

    def __init__(self, every: int, action: Callable[[int], None], last: int = 0, now: bool = False) -> None:
        super().__init__()
        self.every, self.action, self.last, self.now = every, action, last, now

    def _on_rollout_start(self) -> None:
        steps = self.model.num_timesteps
        if self.now or steps - self.last >= self.every:
            self.now, self.last = False, steps
            self.action(steps)

    def _on_step(self) -> bool:
        return True


class UpdatedSteps(BaseCallback):
    """Remembers how many timesteps the model has been updated on."""

    # The step count at each rollout start; at the end, if learn() ended after a whole rollout, its update
    # ran too and every step counts. A time budget stops at a rollout's first step, which is not updated on.

    def __init__(self) -> None:
        super().__init__()
        self.updated, self._whole = 0, False

    def _on_rollout_start(self) -> None:
        self.updated, self._whole = self.model.num_timesteps, False

    def _on_rollout_end(self) -> None:
        self._whole = True

    def _on_training_end(self) -> None:
        if self._whole:
            self.updated = self.model.num_timesteps

    def _on_step(self) -> bool:
        return True


class ProgressBar(BaseCallback):
    """A tqdm bar of timesteps (of the time budget's seconds, when the budget is time) and the latest win rate."""

    def __init__(self, clock: Clock, timesteps: int | None, disable: bool = False) -> None:
        super().__init__()
        self.clock, self.timesteps, self.disable = clock, timesteps, disable
        self.bar: tqdm | None = None
        self._postfix = ""

    def _on_training_start(self) -> None:
        if self.timesteps is not None:
            self.bar = tqdm(total=self.timesteps, unit="step", desc="train", disable=self.disable, dynamic_ncols=True)
        else:   # a time budget: the bar counts seconds, the postfix the steps
            self.bar = tqdm(total=int(self.clock.budget), desc="train", disable=self.disable, dynamic_ncols=True,
                            bar_format="{desc}: {percentage:3.0f}%|{bar}| {n}/{total} s{postfix}")
        self._sync()

    def _on_step(self) -> bool:
        if self.model.num_timesteps % 256 < self.model.n_envs:   # refresh now and then: tqdm calls are not free
            self._sync()
        return True

    def _sync(self) -> None:
        if self.timesteps is not None:
            now, postfix = self.model.num_timesteps, self._postfix
        else:
            now, postfix = int(self.clock.elapsed()), f"[{self.model.num_timesteps:,} steps] {self._postfix}"
        self.bar.set_postfix_str(postfix, refresh=False)
        self.bar.update(max(0, min(now, self.bar.total) - self.bar.n))   # redraws at most every 0.1 s

    def show(self, result: SideResult) -> None:
        """Put the latest evaluation in the bar's postfix."""
        lo, hi = result.win_interval()
        self._postfix = f"eval@{self.model.num_timesteps:,}: win {result.win_rate:.1%} [{lo:.1%}, {hi:.1%}]"
        if self.bar is not None:
            self._sync()
            self.bar.refresh()

    def _on_training_end(self) -> None:
        self.close()

    def close(self) -> None:
        if self.bar is not None:
            self._sync()
            self.bar.refresh()
            self.bar.close()
            self.bar = None


def eval_row(timesteps: int, seconds: float, result: SideResult) -> dict:
    """One eval.csv row."""
    tally, (lo, hi) = result.tally, result.win_interval()
    return {"timesteps": timesteps, "seconds": round(seconds, 1), "games": tally.games, "wins": tally.wins,
            "draws": tally.draws, "losses": tally.losses, "win_rate": round(result.win_rate, 4),
            "win_low": round(lo, 4), "win_high": round(hi, 4), "mean_decisions": round(result.decisions, 2),
            "mean_turns": "" if result.turns is None else round(result.turns, 3)}


def append_eval_row(path, row: dict) -> None:
    """Append a row to eval.csv (header first if the file is new): a resumed run adds to the same file."""
    new = not path.exists()
    with open(path, "a", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=EVAL_FIELDS)
        if new:
            writer.writeheader()
        writer.writerow(row)


def truncate_eval_rows(path, timesteps: int) -> int:
    """Drop eval.csv's rows past `timesteps` (a resume from an earlier save); how many were dropped."""
    if not path.exists():
        return 0
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    kept = [row for row in rows if float(row["timesteps"]) <= timesteps]
    if len(kept) < len(rows):
        from .rundir import replacing
        with replacing(path) as tmp, open(tmp, "w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=EVAL_FIELDS)
            writer.writeheader()
            writer.writerows(kept)
    return len(rows) - len(kept)


def read_eval_rows(path) -> list[dict]:
    """eval.csv as dicts of numbers (empty cells become None)."""
    if not path.exists():
        return []
    with open(path, newline="", encoding="utf-8") as f:
        return [{k: (float(v) if v != "" else None) for k, v in row.items()} for row in csv.DictReader(f)]
