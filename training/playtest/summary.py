"""A playtest's games counted per table and variant: outcomes by victory condition, lengths, casualties by unit type,
turn and board cell, rule firings and the catalog rules never fired, and each variant's paired difference to the first."""
from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from training.measure.paired import Difference, paired_difference
from training.measure.stats import SideTally, tally_side

from .catalog import never_fired
from .telemetry import GameTelemetry


@dataclass(frozen=True)
class VariantSummary:
    """Everything the report says about one variant in one table."""

    name: str
    settings: dict
    records: tuple[GameTelemetry, ...]
    tally: SideTally                 # the focus side's wins, draws, losses
    victory: Counter                 # victory condition -> games
    casualties_by_type: Counter      # (side, unit type) -> units lost
    casualties_by_turn: Counter      # (side, turn) -> units lost
    cells: Counter                   # (side, cell) -> units lost there
    rule_firings: Counter            # rule -> times fired
    rule_games: Counter              # rule -> games in which it fired
    never_fired: tuple[str, ...]
    dice_from_seed: bool             # every game's rolls were its seed's stream
    casualties_measured: bool = True  # the ruleset says where its units are (contract live_units); else not measured

    @property
    def games(self) -> int:
        return len(self.records)

    def lengths(self, what: str) -> list[int]:
        return [getattr(r, what) for r in self.records]

    def mean_sd(self, what: str) -> tuple[float, float]:
        values = self.lengths(what)
        return statistics.fmean(values), statistics.stdev(values) if len(values) > 1 else 0.0


@dataclass(frozen=True)
class Comparison:
    """Variant `variant` against the table's first variant, on the same seeds."""

    variant: int
    difference: Difference


@dataclass(frozen=True)
class TableSummary:
    """One table: the agents that played, and each variant's summary and comparison."""

    agents: tuple[str, ...]
    variants: tuple[VariantSummary, ...]
    comparisons: tuple[Comparison, ...]


def summarise_variant(name: str, settings: dict, records: Sequence[GameTelemetry], focus: int,
                      catalog: list[str]) -> VariantSummary:
    firings, in_games = Counter(), Counter()
    for r in records:
        firings.update(r.rules)
        in_games.update(r.rules.keys())
    measured = all(r.casualties is not None for r in records)
    casualties = [c for r in records for c in r.casualties or ()]
    return VariantSummary(
        name, settings, tuple(records), tally_side(records, focus), Counter(r.victory for r in records),
        Counter((c.side, c.unit) for c in casualties), Counter((c.side, c.turn) for c in casualties),
        Counter((c.side, c.cell) for c in casualties), firings, in_games, tuple(never_fired(catalog, firings)),
        all(r.dice_from_seed for r in records), measured)


def compare(base: VariantSummary, other: VariantSummary, index: int, focus: int) -> Comparison:
    wins = [[int(r.returns[focus] > 0) for r in v.records] for v in (base, other)]
    return Comparison(index, paired_difference(*wins))


def _settings(variant, base) -> dict:
    """What a variant sets, its scenario first when it is not the first variant's."""
    other = {"scenario": variant.scenario} if variant.scenario != base.scenario else {}
    return {**other, **variant.settings()}


def summarise_table(agents, variants, records: Sequence[GameTelemetry], focus: int, catalog: list[str]) -> TableSummary:
    """The records of one table (any order) summarised per variant; only seeds every variant finished are kept."""
    by_variant = [sorted((r for r in records if r.variant == i), key=lambda r: r.seed) for i in range(len(variants))]
    common = set.intersection(*({r.seed for r in rs} for rs in by_variant))
    by_variant = [[r for r in rs if r.seed in common] for rs in by_variant]
    summaries = tuple(summarise_variant(v.name, _settings(v, variants[0]), rs, focus, catalog) for v, rs in zip(variants, by_variant))
    comparisons = tuple(compare(summaries[0], s, i, focus) for i, s in enumerate(summaries) if i > 0)
    return TableSummary(tuple(agents), summaries, comparisons)


def report_verdicts(tables) -> list[list[bool]]:
    """Per table, per comparison: significant by Holm's procedure over every comparison the report makes."""
    from training.measure.paired import holm_significant

    flat = holm_significant([c.difference for t in tables for c in t.comparisons])
    out, i = [], 0
    for t in tables:
        out.append(flat[i:i + len(t.comparisons)])
        i += len(t.comparisons)
    return out
