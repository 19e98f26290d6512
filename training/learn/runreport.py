"""A run's learning curve (curve.png) and its report (report.md)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from envs.paths import PROJECT_ROOT
from training.measure.series import SideResult, format_length, format_share


@dataclass(frozen=True)
class Baseline:
    """A reference line on the curve: an agent's win rate on the learner's side over the evaluation seeds."""

    label: str
    result: SideResult


@dataclass(frozen=True)
class FinalRow:
    """One line of the final table: who played the learner's side, against whom, and how it went."""

    agent: str
    opponent: str
    result: SideResult


def plot_curve(rows: Sequence[dict], baselines: Sequence[Baseline], out: Path, title: str) -> None:
    """Win rate against the scripted opponent over timesteps, with its 95 % band and the baselines."""
    import matplotlib
    matplotlib.use("Agg")  # files only: no display on the machines
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
    steps = [r["timesteps"] for r in rows]
    ax.plot(steps, [r["win_rate"] for r in rows], marker="o", ms=3, label="trained (eval vs scripted)")
    ax.fill_between(steps, [r["win_low"] for r in rows], [r["win_high"] for r in rows], alpha=0.25,
                    label="95 % Wilson interval")
    for i, base in enumerate(baselines):
        ax.axhline(base.result.win_rate, color=f"C{i + 1}", ls="--", lw=1, label=base.label)
    ax.set(xlabel="timesteps (learner decisions)", ylabel="win rate", ylim=(-0.02, 1.02), title=title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)


def shown_path(path: Path) -> str:
    """A path relative to the repo root when it lies inside it (for commands people copy)."""
    path = Path(path).resolve()
    try:
        return str(path.relative_to(PROJECT_ROOT))
    except ValueError:
        return str(path)


def final_table(rows: Sequence[FinalRow], side_name: str) -> list[str]:
    """The markdown table of final results on the learner's side."""
    lines = [f"| {side_name} | opponent | games | win rate [95 % CI] | draws | losses | mean game length |",
             "| --- | --- | ---: | --- | ---: | ---: | --- |"]
    for row in rows:
        t = row.result.tally
        lines.append(f"| {row.agent} | {row.opponent} | {t.games} | {format_share(t)} | {t.draws} | {t.losses} "
                     f"| {format_length(row.result)} |")
    return lines


def write_report(path: Path, info, sections: Sequence[tuple[str, Sequence[str]]]) -> None:
    """report.md: a title naming the run, then each (heading, lines) section."""
    text = [f"# {info.env} / {info.run}: {info.side} vs {info.opponent_label}", ""]
    for heading, lines in sections:
        text += [f"## {heading}", "", *lines, ""]
    path.write_text("\n".join(text), encoding="utf-8")
