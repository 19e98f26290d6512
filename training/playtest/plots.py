"""The playtest report's pictures (PNG bytes): win rates with intervals, paired differences, game lengths, casualties
per turn, rule firings, and casualties as a heat map on the scenario's board picture."""
from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

COLOURS = plt.get_cmap("tab10").colors


def _png(fig) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    plt.close(fig)
    return buffer.getvalue()


def win_rates(table, side_name: str) -> bytes:
    """Left: each variant's win rate with its 95 % Wilson interval. Right: each variant minus the first, with the
    paired and the unpaired 95 % interval."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 0.6 * len(table.variants) + 1.6))
    names = [v.name for v in table.variants]
    for i, v in enumerate(table.variants):
        rate = 100 * v.tally.rate("wins")
        lo, hi = (100 * x for x in v.tally.interval("wins"))
        left.barh(i, rate, color=COLOURS[i % 10], alpha=0.8)
        left.errorbar(rate, i, xerr=[[rate - lo], [hi - rate]], color="black", capsize=4)
    left.set(yticks=range(len(names)), yticklabels=names, xlim=(0, 100), xlabel=f"{side_name} win rate, % (95 % CI)")
    left.invert_yaxis()
    for row, c in enumerate(table.comparisons):
        d = c.difference
        if d.identical:   # no interval to draw: say so where it would be
            right.text(0, row, f"  identical in all {d.n} games", va="center", fontsize=8)
            right.plot([0], [row], marker="|", color="black", markersize=12)
            continue
        for offset, (interval, label, colour) in enumerate(((d.paired, "paired", "black"), (d.unpaired, "unpaired", "grey"))):
            lo, hi = (100 * x for x in interval)
            right.errorbar(100 * d.diff, row + 0.15 * offset, xerr=[[100 * d.diff - lo], [hi - 100 * d.diff]], fmt="o",
                           color=colour, capsize=4, label=label if row == 0 else None)
    right.axvline(0, color="red", lw=0.8)
    right.set(yticks=range(len(table.comparisons)), yticklabels=[f"{names[c.variant]} - {names[0]}" for c in table.comparisons],
              xlabel="difference of win rates, percentage points (95 % CI)")
    right.invert_yaxis()
    if right.get_legend_handles_labels()[0]:
        right.legend(loc="best", fontsize=8)
    fig.tight_layout()
    return _png(fig)


def lengths(table) -> bytes:
    """Histograms of game length in turns and in decisions, one outline per variant."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 3))
    for ax, what, label in zip(axes, ("turns", "decisions"), ("game length, turns", "game length, decisions")):
        values = [v.lengths(what) for v in table.variants]
        low, high = min(map(min, values)), max(map(max, values))
        bins = np.arange(low, high + 2) - 0.5 if what == "turns" else np.linspace(low, high + 1, 30)
        for i, (v, vals) in enumerate(zip(table.variants, values)):
            ax.hist(vals, bins=bins, histtype="step", lw=1.6, color=COLOURS[i % 10], label=v.name)
        ax.set(xlabel=label, ylabel="games")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    return _png(fig)


def casualty_curves(table, sides) -> bytes:
    """Mean units lost per game in each turn, per side (one panel each) and variant (one line each)."""
    fig, axes = plt.subplots(1, len(sides), figsize=(5 * len(sides), 3), squeeze=False)
    last = max((t for v in table.variants for (_, t) in v.casualties_by_turn), default=1)
    turns = range(1, last + 1)
    for side, ax in enumerate(axes[0]):
        for i, v in enumerate(table.variants):
            ax.plot(turns, [v.casualties_by_turn[(side, t)] / v.games for t in turns], marker="o", ms=3,
                    color=COLOURS[i % 10], label=v.name)
        ax.set(title=f"{sides[side]} units lost", xlabel="turn", ylabel="per game", xticks=list(turns))
    axes[0][0].legend(fontsize=8)
    fig.tight_layout()
    return _png(fig)


def rule_firings(table, rules: list[str]) -> bytes:
    """Share of games in which each rule fired, grouped bars per variant; catalog order, never-fired rules left out."""
    fired = [r for r in rules if any(v.rule_games[r] for v in table.variants)]
    fig, ax = plt.subplots(figsize=(10, 0.22 * len(fired) * max(1, len(table.variants) / 2) + 1.2))
    height = 0.8 / len(table.variants)
    for i, v in enumerate(table.variants):
        ax.barh(np.arange(len(fired)) + i * height, [100 * v.rule_games[r] / v.games for r in fired], height,
                color=COLOURS[i % 10], label=v.name)
    ax.set(yticks=np.arange(len(fired)) + 0.4 - height / 2, yticklabels=fired, xlabel="% of games in which the rule fired",
           xlim=(0, 100))
    ax.tick_params(axis="y", labelsize=7)
    ax.invert_yaxis()
    ax.legend(fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=len(table.variants))
    fig.tight_layout()
    return _png(fig)


def heat_map(table, board: np.ndarray, box, sides) -> bytes:
    """Units lost per game on each board cell, drawn over the scenario's board picture: a row per variant, a
    column per side."""
    rows, cols = len(table.variants), len(sides)
    height, width = board.shape[:2]
    fig, axes = plt.subplots(rows, cols, figsize=(6.5 * cols, 6.5 * rows * height / width + 0.6 * rows), squeeze=False)
    peak = max((n / v.games for v in table.variants for n in v.cells.values()), default=1.0)
    cmap = plt.get_cmap("inferno_r")
    for r, v in enumerate(table.variants):
        for side, ax in enumerate(axes[r]):
            ax.imshow(board)
            for (s, cell), n in v.cells.items():
                if s == side:
                    x0, y0, x1, y1 = box(cell)
                    share = n / v.games / peak
                    ax.add_patch(plt.Rectangle((x0, y0), x1 - x0, y1 - y0, color=cmap(share), alpha=0.35 + 0.5 * share))
                    ax.text((x0 + x1) / 2, (y0 + y1) / 2, f"{n / v.games:.2f}", ha="center", va="center", fontsize=6,
                            color="white" if share > 0.5 else "black")
            ax.set_title(f"{v.name}: {sides[side]} units lost per game", fontsize=9)
            ax.axis("off")
    fig.tight_layout()
    return _png(fig)
