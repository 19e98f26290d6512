"""Series of games between agent factories on fixed seeds, and their results from one side's point of view.

Which seeds are used for what, so that no evaluation reuses a game seen while training:

- training games: seeds drawn by the Gymnasium env from the run's seed (63-bit numbers);
- evaluation during training (eval.csv, the learning curve): seeds 0 .. games-1, the same games every time;
- held-out evaluation (report.md, `rubble evaluate`, `rubble report`): seeds from HELD_OUT_SEED up.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .simulate import play_game
from .stats import GameRecord, SideTally, mean_sd, tally_side

TRAIN_EVAL_SEED = 0
HELD_OUT_SEED = 10**6


@dataclass(frozen=True)
class SideResult:
    """How one side fared over a series: wins/draws/losses and the mean game length."""

    side: int
    tally: SideTally
    decisions: float
    turns: float | None

    @property
    def win_rate(self) -> float:
        return self.tally.rate("wins")

    def win_interval(self) -> tuple[float, float]:
        return self.tally.interval("wins")


def play_series(rs, scenario, factories: Sequence[Callable], seeds: Sequence[int], recorder=None) -> list[GameRecord]:
    """One game per seed, side s played by the agent `factories[s](s, seed)` builds; `recorder`
    (training.replay.recorder.Recorder) writes the replays it wants."""
    return [play_game(rs, scenario, factories, seed, recorder) for seed in seeds]


def side_result(records: Sequence[GameRecord], side: int) -> SideResult:
    """The results of `side` over `records`."""
    turns = [r.turns for r in records if r.turns is not None]
    return SideResult(side, tally_side(records, side), mean_sd([r.decisions for r in records])[0],
                      mean_sd(turns)[0] if turns else None)


def seeds_from(start: int, games: int) -> range:
    return range(start, start + games)


def format_share(tally: SideTally, outcome: str = "wins") -> str:
    """'35.7 % [30.5, 41.2] (107/300)': a share with its 95 % Wilson interval, in percent."""
    if not tally.games:
        return "no games"
    lo, hi = tally.interval(outcome)
    count = getattr(tally, outcome)
    return f"{100 * count / tally.games:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}] ({count}/{tally.games})"


def format_length(result: SideResult) -> str:
    """Mean game length in decisions of every side (and turns, when the ruleset has them)."""
    text = f"{result.decisions:.1f} decisions"
    if result.turns is not None and not math.isnan(result.turns):
        text += f", {result.turns:.2f} turns"
    return text
