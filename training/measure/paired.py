"""Comparing two variants played on the same seeds: the paired difference of win rates with its 95 % interval,
beside the interval the same games would give if they were independent, and the variance pairing removes.

Said plainly: when no paired game differs, the difference is "identical in all N games" (never a zero-width
interval); when a report makes several comparisons, which of them are significant is decided by Holm's step-down
procedure over all of them (`holm_significant`), and the report says so (`holm_words`)."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .stats import Z_95, holm_reject, normal_p_value


@dataclass(frozen=True)
class Difference:
    """Win rate of B minus win rate of A over n paired games."""

    n: int
    diff: float
    paired: tuple[float, float]      # 95 % interval from the per-game differences
    unpaired: tuple[float, float]    # 95 % interval treating A and B as independent samples
    differing: int = -1              # paired games whose results differ (-1: not counted)
    se: float = math.nan             # standard error of the mean per-game difference

    @property
    def identical(self) -> bool:
        """Every paired game ended alike: there is no difference to put an interval on."""
        return self.n > 0 and self.differing == 0

    @property
    def constant(self) -> bool:
        """Every per-game difference is the same and some differ: the paired interval has no width."""
        return self.n > 0 and self.differing > 0 and self.se == 0

    @property
    def significant(self) -> bool:
        """The paired interval excludes zero (one comparison alone; several: `holm_significant`)."""
        if self.identical:
            return False
        return self.paired[0] > 0 or self.paired[1] < 0

    @property
    def p_value(self) -> float:
        """Two-sided p of 'no difference' on the normal approximation the paired interval uses (1 if identical)."""
        if self.n == 0 or self.identical:
            return 1.0
        if self.se == 0 or math.isnan(self.se):
            return 0.0 if self.diff != 0 else 1.0
        return normal_p_value(self.diff / self.se)

    @property
    def half_width(self) -> float:
        """Half the paired interval's width: the '±' of a difference too small to tell from zero."""
        return _half(self.paired)

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
        return Difference(0, math.nan, (math.nan, math.nan), (math.nan, math.nan), 0)
    diffs = [b - a for a, b in zip(wins_a, wins_b)]
    mean = sum(diffs) / n
    se_paired = math.sqrt(_variance(diffs) / n)
    se_unpaired = math.sqrt((_variance(wins_a) + _variance(wins_b)) / n)
    return Difference(n, mean, (mean - z * se_paired, mean + z * se_paired),
                      (mean - z * se_unpaired, mean + z * se_unpaired), sum(1 for d in diffs if d), se_paired)


def holm_significant(differences: Sequence[Difference], alpha: float = 0.05) -> list[bool]:
    """Which of a report's comparisons are significant at familywise level `alpha`, by Holm's step-down procedure
    on their paired p-values; a single comparison is simply its own 95 % test."""
    return holm_reject([d.p_value for d in differences], alpha)


def holm_words(m: int, alpha: float = 0.05) -> str:
    """What a report says about its many comparisons."""
    if m <= 1:
        return "One comparison: it is significant when its paired 95 % interval excludes zero."
    return (f"This report makes {m} comparisons; calling each significant at 95 % alone would, by chance, call about "
            f"{alpha * m:.1f} of them significant when none differs. So which are significant is decided by Holm's "
            f"step-down procedure over all {m} (familywise error {alpha:.0%}): the smallest p-value is held to "
            f"{alpha:.0%}/{m}, the next to {alpha:.0%}/{m - 1}, and so on. The intervals shown are each comparison's own "
            f"95 % interval; a comparison whose interval excludes zero may still be 'not significant after Holm'.")


def format_difference(d: Difference, significant: bool | None = None, m: int = 1) -> str:
    """'+6.0 pp, paired 95 % CI [+2.1, +9.9] (significant); unpaired [-2.3, +14.3]; pairing removed 71 % of the
    variance'; 'identical in all 200 games' when no paired game differs. `significant` and `m`: the verdict of
    Holm's procedure over the report's m comparisons (default: this comparison's own interval)."""
    if d.n == 0:
        return "no games"
    if d.identical:
        return f"identical in all {d.n} games (no paired game ended differently)"
    if d.constant:
        return (f"{100 * d.diff:+.1f} pp: the {d.differing} of {d.n} games that differ all differ the same way, "
                "so the paired games give no interval")
    if significant is None:
        significant = d.significant
    verdict = "significant" if significant else "not significant"
    if m > 1:
        verdict += f" after Holm over {m}"
        if d.significant and not significant:
            verdict += "; significant alone"
    reduction = "n/a" if math.isnan(d.variance_reduction) else f"{d.variance_reduction:.0%}"
    differ = f"; {d.differing} of {d.n} games differ" if d.differing >= 0 else ""
    return (f"{100 * d.diff:+.1f} pp, paired 95 % CI [{100 * d.paired[0]:+.1f}, {100 * d.paired[1]:+.1f}] ({verdict}); "
            f"unpaired [{100 * d.unpaired[0]:+.1f}, {100 * d.unpaired[1]:+.1f}]; pairing removed {reduction} of the variance"
            f"{differ}")
