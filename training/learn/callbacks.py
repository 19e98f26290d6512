"""What happens around MaskablePPO's learning loop: the time budget, periodic evaluation, checkpoints, the bar.

Everything here runs at a rollout boundary (the model is only updated between rollouts), so an evaluation
or a checkpoint always sees a model that has finished its last update.
"""
from __future__ import annotations

import time
from collections.abc import Callable

from stable_baselines3.common.callbacks import BaseCallback
from tqdm import tqdm

from training.measure.series import SideResult


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
