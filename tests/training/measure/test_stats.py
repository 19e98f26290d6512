"""Known values for the result statistics of `rubble simulate`."""
import math

import pytest

from training.measure.stats import GameRecord, SideTally, mean_sd, summarise, tally_side, wilson_interval


# Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I, method 3
# (Wilson score, no continuity correction), published to 4 decimals.
@pytest.mark.parametrize(
    "successes, trials, low, high",
    [(81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611), (1, 29, 0.0061, 0.1718)],
)
def test_wilson_matches_newcombe(successes, trials, low, high):
    lo, hi = wilson_interval(successes, trials)
    assert lo == pytest.approx(low, abs=5e-5)
    assert hi == pytest.approx(high, abs=5e-5)


def test_wilson_half_is_symmetric_about_one_half():
    # 5/10 at z = 1.96: centre 0.5, half-width 1.96/1.38416 * sqrt(0.025 + 0.009604) = 0.2634104...
    lo, hi = wilson_interval(5, 10, z=1.96)
    assert lo == pytest.approx(0.2365896, abs=1e-7)
    assert hi == pytest.approx(0.7634104, abs=1e-7)


def test_wilson_extremes_stay_inside_zero_one():
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10) == pytest.approx((0.7224672, 1.0), abs=1e-7)
    assert wilson_interval(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize("successes, trials", [(-1, 10), (11, 10)])
def test_wilson_rejects_impossible_counts(successes, trials):
    with pytest.raises(ValueError):
        wilson_interval(successes, trials)


def test_mean_sd_uses_the_sample_sd():
    assert mean_sd([2, 4, 4, 4, 5, 5, 7, 9]) == pytest.approx((5.0, math.sqrt(32 / 7)))
    assert mean_sd([3]) == (3.0, 0.0)
    assert all(math.isnan(x) for x in mean_sd([]))


def test_tally_counts_sign_of_returns():
    records = [GameRecord(0, (1.0, -1.0), 10), GameRecord(1, (0.0, 0.0), 12), GameRecord(2, (-1.0, 1.0), 8, 3)]
    assert tally_side(records, 0) == SideTally(wins=1, draws=1, losses=1)
    assert tally_side(records, 1) == SideTally(wins=1, draws=1, losses=1)


def test_side_tally_rates_and_intervals():
    tally = SideTally(wins=81, draws=0, losses=182)
    assert tally.games == 263
    assert tally.rate("wins") == pytest.approx(81 / 263)
    assert tally.interval("wins") == pytest.approx((0.2553, 0.3662), abs=5e-5)
    assert math.isnan(SideTally(0, 0, 0).rate("wins"))


def test_summarise_lengths_and_missing_turns():
    records = [GameRecord(0, (1.0, -1.0), 10, 2), GameRecord(1, (1.0, -1.0), 20, 4), GameRecord(2, (-1.0, 1.0), 30)]
    summary = summarise(records, 2)
    assert summary.games == 3
    assert summary.sides[0] == SideTally(2, 0, 1)
    assert summary.decisions == pytest.approx((20.0, 10.0))
    assert summary.turns == pytest.approx((3.0, math.sqrt(2)))  # only the games that report a turn
    assert summarise([GameRecord(0, (0.0, 0.0), 5)], 2).turns is None
