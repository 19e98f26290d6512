"""A rating ladder from played pairings: openskill's Plackett-Luce, one rating per agent on a side."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Rating:
    """One ladder entry: an agent on a side, its skill estimate and how many games it played."""

    entry: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """mu - 3 sigma: a conservative skill (what the ladder ranks by)."""
        return self.mu - 3 * self.sigma


def entry_name(label: str, side: str) -> str:
    return f"{label}@{side}"


def rate(played: Sequence, sides: Sequence[str]) -> list[Rating]:
    """Rate every game, the i-th game of every pairing before the (i+1)-th of any (less order bias)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings, games = {}, {}
    longest = max((len(p.records) for p in played), default=0)
    for i in range(longest):
        for pairing in played:
            if i < len(pairing.records):
                _rate_game(model, ratings, games, pairing, pairing.records[i], sides)
    ranked = [Rating(name, r.mu, r.sigma, games[name]) for name, r in ratings.items()]
    return sorted(ranked, key=lambda r: (-r.ordinal, r.entry))


def _rate_game(model, ratings: dict, games: dict, pairing, record, sides) -> None:
    names = [entry_name(c.label, sides[s]) for s, c in enumerate(pairing.agents)]
    teams = [[ratings.setdefault(n, model.rating(name=n))] for n in names]
    ranks = [-r for r in record.returns]   # higher return, better (lower) rank; equal returns tie
    updated = model.rate(teams, ranks=ranks)
    for name, (rating,) in zip(names, updated):
        ratings[name] = rating
        games[name] = games.get(name, 0) + 1


def ladder_table(ratings: Sequence[Rating]) -> list[str]:
    """Markdown: rank, agent@side, ordinal, mu, sigma, games."""
    lines = ["| rank | agent@side | ordinal (mu - 3 sigma) | mu | sigma | games |", "| ---: | --- | ---: | ---: | ---: | ---: |"]
    for i, r in enumerate(ratings, 1):
        lines.append(f"| {i} | {r.entry} | {r.ordinal:.2f} | {r.mu:.2f} | {r.sigma:.2f} | {r.games} |")
    return lines


def plot_ladder(ratings: Sequence[Rating], out: Path, title: str) -> None:
    """Horizontal bars of mu with 3-sigma whiskers, best at the top."""
    import matplotlib
    matplotlib.use("Agg")  # files only: no display on the machines
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 0.5 * len(ratings) + 1.5), dpi=110)
    rows = list(reversed(ratings))
    ax.barh([r.entry for r in rows], [r.mu for r in rows], xerr=[3 * r.sigma for r in rows], color="C0",
            alpha=0.7, capsize=3)
    ax.set(xlabel="openskill Plackett-Luce mu (whiskers: 3 sigma)", title=title)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
