"""Result statistics for series of games: Wilson score intervals, win/draw/loss tallies, mean and sd."""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Z_95 = 1.959963984540054  # two-sided 95 % normal quantile


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion; (0, 1) when there are no trials."""
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be in 0..trials, got {successes} of {trials}")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    # Clamp: rounding may push the bounds a hair outside [0, 1] at p = 0 or 1.
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_sd(values: Sequence[float]) -> tuple[float, float]:
    """Mean and sample standard deviation (ddof=1); sd is 0 for fewer than two values, both NaN for none."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan
    mean = sum(values) / n
    if n == 1:
        return mean, 0.0
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))


@dataclass(frozen=True)
class GameRecord:
    """The outcome of one finished game."""

    seed: int
    returns: tuple[float, ...]
    decisions: int
    turns: int | None = None


@dataclass(frozen=True)
class SideTally:
    """Wins, draws and losses of one side over a series of games."""

    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def rate(self, outcome: str) -> float:
        """Share of games with `outcome` ('wins', 'draws' or 'losses'); NaN for no games."""
        return getattr(self, outcome) / self.games if self.games else math.nan

    def interval(self, outcome: str, z: float = Z_95) -> tuple[float, float]:
        """Wilson interval for the share of `outcome`."""
        return wilson_interval(getattr(self, outcome), self.games, z)


def tally_side(records: Iterable[GameRecord], side: int) -> SideTally:
    """Count a side's results: a positive return is a win, negative a loss, zero a draw."""
    results = [r.returns[side] for r in records]
    wins = sum(1 for x in results if x > 0)
    losses = sum(1 for x in results if x < 0)
    return SideTally(wins, len(results) - wins - losses, losses)


@dataclass(frozen=True)
class Summary:
    """Everything `rubble simulate` reports about a series of games."""

    games: int
    sides: tuple[SideTally, ...]
    decisions: tuple[float, float]       # mean, sd
    turns: tuple[float, float] | None    # mean, sd; None when the states have no `turn`


def summarise(records: Sequence[GameRecord], num_sides: int) -> Summary:
    """Aggregate game records into per-side tallies and game-length statistics."""
    turns = [r.turns for r in records if r.turns is not None]
    return Summary(
        games=len(records),
        sides=tuple(tally_side(records, s) for s in range(num_sides)),
        decisions=mean_sd([r.decisions for r in records]),
        turns=mean_sd(turns) if turns else None,
    )


def normal_p_value(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def holm_reject(p_values: Sequence[float], alpha: float = 0.05) -> list[bool]:
    """Holm's step-down procedure (Holm 1979): sort the m p-values, reject the k-th smallest while it is at most
    alpha / (m - k + 1) (k from 1), stop at the first that is not. Controls the chance of any false rejection
    among the m at alpha, whatever their dependence. Returns, in the order given, which are rejected."""
    m = len(p_values)
    rejected = [False] * m
    for rank, i in enumerate(sorted(range(m), key=lambda i: p_values[i])):
        if p_values[i] > alpha / (m - rank):
            break
        rejected[i] = True
    return rejected
