"""The league's ratings: openskill's Plackett-Luce, as the ladder (training/measure/ladder.py) rates, but kept between
rounds: each rating is stored as [mu, sigma, games] and updated game by game as snapshots join."""
from __future__ import annotations

from collections.abc import Iterable

from training.measure.ladder import Rating, entry_name


def update(ratings: dict[str, list[float]], games: Iterable[tuple[str, str, tuple[float, ...]]]) -> None:
    """Rate each (entry of side 0, entry of side 1, returns) in order, in place."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    for first, second, returns in games:
        teams = [[_rating(model, ratings, name)] for name in (first, second)]
        updated = model.rate(teams, ranks=[-r for r in returns])   # higher return, better (lower) rank
        for name, (rating,) in zip((first, second), updated):
            ratings[name] = [float(rating.mu), float(rating.sigma), ratings.get(name, [0, 0, 0])[2] + 1]


def _rating(model, ratings: dict, name: str):
    if name in ratings:
        mu, sigma, _ = ratings[name]
        return model.rating(mu=mu, sigma=sigma, name=name)
    return model.rating(name=name)


def ranked(ratings: dict[str, list[float]]) -> list[Rating]:
    """The ladder's Rating rows, best ordinal (mu - 3 sigma) first."""
    rows = [Rating(name, mu, sigma, int(games)) for name, (mu, sigma, games) in ratings.items()]
    return sorted(rows, key=lambda r: (-r.ordinal, r.entry))


__all__ = ["entry_name", "ranked", "update"]
