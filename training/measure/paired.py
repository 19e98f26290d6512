"""Comparing two variants played on the same seeds: the paired difference of win rates with its 95 % interval,
beside the interval the same games would give if they were independent, and the variance pairing removes."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .stats import Z_95


@dataclass(frozen=True)
class Difference:
    """Win rate of B minus win rate of A over n paired games."""

    n: int
    diff: float
    paired: tuple[float, float]      # 95 % interval from the per-game differences
    unpaired: tuple[float, float]    # 95 % interval treating A and B as independent samples

    @property
    def significant(self) -> bool:
        """The paired interval excludes zero."""
        return self.paired[0] > 0 or self.paired[1] < 0

    @property
    def variance_reduction(self) -> float:
        """1 - var(paired) / var(unpaired): the share of the noise that common dice removed (NaN if none)."""
        half_p, half_u = _half(self.paired), _half(self.unpaired)
        return 1 - (half_p / half_u) ** 2 if half_u > 0 else math.nan


def _half(interval: tuple[float, float]) -> float:
    return (interval[1] - interval[0]) / 2


def _variance(values: Sequence[float]) -> float:
    n = len(values)
    if n < 2:
        return 0.0
    mean = sum(values) / n
    return sum((v - mean) ** 2 for v in values) / (n - 1)


def paired_difference(wins_a: Sequence[int], wins_b: Sequence[int], z: float = Z_95) -> Difference:
    """Game i of A and game i of B share seed i: the difference's variance is that of the per-game differences,
    var(B - A) = var(A) + var(B) - 2 cov(A, B), smaller than the unpaired var(A) + var(B) when the dice
    decide both games alike."""
    if len(wins_a) != len(wins_b):
        raise ValueError(f"paired samples differ in length: {len(wins_a)} and {len(wins_b)}")
    n = len(wins_a)
    if n == 0:
        return Difference(0, math.nan, (math.nan, math.nan), (math.nan, math.nan))
    diffs = [b - a for a, b in zip(wins_a, wins_b)]
    mean = sum(diffs) / n
    se_paired = math.sqrt(_variance(diffs) / n)
    se_unpaired = math.sqrt((_variance(wins_a) + _variance(wins_b)) / n)
    return Difference(n, mean, (mean - z * se_paired, mean + z * se_paired),
                      (mean - z * se_unpaired, mean + z * se_unpaired))


def format_difference(d: Difference) -> str:
    """'+6.0 pp, paired 95 % CI [+2.1, +9.9] (significant); unpaired [-2.3, +14.3]; pairing removed 71 % of the variance'."""
    if d.n == 0:
        return "no games"
    verdict = "significant" if d.significant else "not significant"
    reduction = "n/a" if math.isnan(d.variance_reduction) else f"{d.variance_reduction:.0%}"
    return (f"{100 * d.diff:+.1f} pp, paired 95 % CI [{100 * d.paired[0]:+.1f}, {100 * d.paired[1]:+.1f}] ({verdict}); "
            f"unpaired [{100 * d.unpaired[0]:+.1f}, {100 * d.unpaired[1]:+.1f}]; pairing removed {reduction} of the variance")
