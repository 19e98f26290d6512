"""What happens around MaskablePPO's learning loop: the time budget, periodic evaluation, checkpoints, the bar.

Everything here runs at a rollout boundary (the model is only updated between rollouts), so an evaluation
or a checkpoint always sees a model that has finished its last update.
"""
from __future__ import annotations

import sys
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
            # smoothing 0: the rate and time left over the whole session, updates and evaluations included (tqdm's
            # moving average sees the steps between them only, and promised a third of the time it took)
            self.bar = tqdm(total=self.timesteps, unit="step", desc="train", disable=self.disable, dynamic_ncols=True,
                            smoothing=0)
        else:   # a time budget: the bar counts seconds, the postfix the steps
            self.bar = tqdm(total=int(self.clock.budget), desc="train", disable=self.disable, dynamic_ncols=True,
                            bar_format="{desc}: {percentage:3.0f}%|{bar}| {n}/{total} s{postfix}")
        self._sync()

    def _on_step(self) -> bool:
        if self.model.num_timesteps % 256 < self.model.n_envs:   # refresh now and then: tqdm calls are not free
            self._sync()
        return True

    def _sync(self) -> None:
        if self.timesteps is not None:   # tqdm's own rate (step/s) and time left, beside the postfix
            now, postfix = self.model.num_timesteps, self._postfix
        else:
            rate = self.model.num_timesteps / max(self.clock.elapsed(), 1e-9)
            now, postfix = int(self.clock.elapsed()), f"[{self.model.num_timesteps:,} steps, {rate:,.0f} step/s] {self._postfix}"
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


class Forecast(BaseCallback):
    """Says once, early, how long a step budget will take at this machine's speed, and when that is clearly longer
    than on a quiet 2-core machine, that it is (issue #42: a slower machine takes longer, it does not train less).

    The speed is measured over the first two rollouts and their updates, without the evaluations' time (they are
    counted apart: `evaluated(seconds, games)`); the forecast adds the evaluations still to come and the final one."""

    #: a forecast this much above the expected time calls the machine slower than expected
    SLOWER = 1.25
    #: rollouts (each with its update) measured before the forecast
    ROLLOUTS = 2

    def __init__(self, timesteps: int | None, expected_minutes: float | None, games: int = 0,
                 say: Callable[[str], None] | None = None) -> None:
        super().__init__()
        self.timesteps, self.expected_minutes = timesteps, expected_minutes
        self.games = games   # evaluation games still to come: the periodic ones and the final evaluation's
        self.say = say or (lambda text: tqdm.write(text, file=sys.stderr))
        self.eval_seconds, self.eval_games = 0.0, 0
        self.text: str | None = None
        self._start = self._steps = None
        self._rollouts = 0

    def evaluated(self, seconds: float, games: int) -> None:
        self.eval_seconds += seconds
        self.eval_games += games

    def _on_training_start(self) -> None:
        self._start, self._steps, self._paused = time.perf_counter(), self.model.num_timesteps, self.eval_seconds

    def _on_rollout_start(self) -> None:
        self._rollouts += 1
        if self.timesteps is None or self.text is not None or self._rollouts <= self.ROLLOUTS:
            return
        steps = self.model.num_timesteps - self._steps
        seconds = time.perf_counter() - self._start - (self.eval_seconds - self._paused)
        if steps <= 0 or seconds <= 0:
            return
        rate = steps / seconds
        per_game = self.eval_seconds / self.eval_games if self.eval_games else 0.0
        left = max(0, self.timesteps - self.model.num_timesteps) / rate + per_game * self.games
        self.text = forecast_text(self.timesteps, left / 60, rate, self.expected_minutes, self.SLOWER)
        self.say(self.text)

    def _on_step(self) -> bool:
        return True


def forecast_text(timesteps: int, minutes: float, rate: float, expected: float | None, slower: float) -> str:
    """e.g. 'train: 1,000,000 timesteps, about 25 minutes more at this speed (700 step/s); ...'"""
    left = f"{minutes:.0f} minutes" if minutes >= 1.5 else f"{60 * minutes:.0f} seconds"
    text = f"train: {timesteps:,} timesteps, about {left} more at this speed ({rate:,.0f} step/s, final evaluation included)"
    if expected is not None and minutes > slower * expected:
        text += (f"; slower than expected (about {expected:g} minutes on a quiet 2-core machine): this machine is "
                 "busier or slower. The result will be the same, only later (--minutes N stops at a wall-clock time, "
                 "and trains less)")
    return text
