"""A league's average strategy for one side, as a mixture agent (agents/mixture.py) beside the league.

Fictitious play's answer is the average of the policies it made, not the last one (Heinrich et al. 2015), so the
league's exploitability is also measured on that average. Which snapshots it averages is fixed before measuring:
the side's main learner's snapshots from round `first_round` on (default: the second half of the rounds played,
when the learners have left their cloned start), equally weighted. Exploiters' and the fixed agents' entries are
not the main learner's play and are left out.

    rubble league-average rifles-urban league-exploiters-60min --side enemy

writes `results/rifles-urban/league/league-exploiters-60min/enemy-average/` with copies of the snapshots (the
pool folder itself is not kept in git) and `enemy.mixture.json`, playable as `--agent` or `--enemy`.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from training.lookup import CommandError

from .pool import LeagueState, Member


def main_snapshots(league: LeagueState, side: str) -> list[Member]:
    """The pool members of `side`'s main learner (`<side>-r<round>`, as league.py names them), in round order."""
    pool = league.pools.get(side)
    if pool is None:
        raise CommandError(f"no pool for side {side!r}; the league's sides: {', '.join(league.pools)}")
    return sorted((m for m in pool if m.file and m.name == f"{side}-r{m.round}"), key=lambda m: m.round)


def second_half(rounds: list[int]) -> int:
    """The first round of the second half of `rounds` (25 rounds: 13)."""
    return rounds[-1] // 2 + 1


def write_average(ldir, side: str, first_round: int | None = None) -> Path:
    """Copy the chosen snapshots of the league in `ldir` (league.LeagueDir) into `<league>/<side>-average/` and write
    its mixture file; return its path."""
    league_dir = ldir.path
    data = json.loads(ldir.file.read_text(encoding="utf-8"))
    snapshots = main_snapshots(LeagueState.from_dict(data["league"]), side)
    if not snapshots:
        raise CommandError(f"{league_dir}: no snapshot of the {side}'s main learner in its pool")
    first = second_half([m.round for m in snapshots]) if first_round is None else first_round
    chosen = [m for m in snapshots if m.round >= first]
    if not chosen:
        raise CommandError(f"--from-round {first}: the {side}'s last snapshot is from round {snapshots[-1].round}")
    missing = [m.file for m in chosen if not (league_dir / m.file).is_file()]
    if missing:
        raise CommandError(f"{league_dir}: snapshot files missing: {', '.join(missing)} (the pool is not kept in git: "
                           "the run's own machine has it)")
    folder = league_dir / f"{side}-average"
    target = folder / f"{side}.mixture.json"
    if target.exists():
        raise CommandError(f"{target} exists; remove it first to write it again")
    folder.mkdir(exist_ok=True)
    for m in chosen:
        shutil.copyfile(league_dir / m.file, folder / Path(m.file).name)
    mixture = {"about": f"{side}: the main learner of {league_dir.name}, rounds {first}-{chosen[-1].round}, "
                        "equally weighted: the league's average strategy (training/league/average.py)",
               "members": [{"actor": Path(m.file).name, "weight": 1.0} for m in chosen]}
    target.write_text(json.dumps(mixture, indent=1) + "\n", encoding="utf-8")
    return target
