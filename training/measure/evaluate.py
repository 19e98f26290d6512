"""`rubble evaluate`: every ordered pair of agents on every side they can play, on held-out seeds; a rating ladder.

A built-in agent (random, scripted) plays every side; a trained model plays the side it was trained for (the
`side` `rubble train` stores in the zip). Each pairing plays the same seeds (from HELD_OUT_SEED up by default:
never used by any training evaluation), so pairings are compared on the same games.
The ladder rates each agent *on a side* ("scripted@player") with openskill's Plackett-Luce model: sides
are not symmetric (the scripted enemy beats the scripted player about 64 % of the time), so one rating per
agent would mix skill with the luck of the side.
"""
from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from training import lookup
from training.folders.rundir import is_saved_agent, model_label

from .series import SideResult, format_length, format_share, side_result
from .simulate import Matchup, run_series
from .stats import GameRecord


@dataclass(frozen=True)
class Contestant:
    """An agent name (or model path) as given, a short label, and the sides it can play."""

    name: str
    label: str
    sides: tuple[int, ...]


@dataclass(frozen=True)
class Pairing:
    """One ordered pairing: an agent per side, and the games they played."""

    agents: tuple[Contestant, ...]
    records: tuple[GameRecord, ...]

    def result(self, side: int) -> SideResult:
        return side_result(self.records, side)


def contestant(rs, name: str) -> Contestant:
    """Look `name` up (unknown names fail with CommandError) and find the sides it can play."""
    lookup.agent(rs, name)
    if not is_saved_agent(name):
        return Contestant(name, name, tuple(range(len(rs.sides))))
    from agents import mixture, trained

    # checked by lookup.agent: a side of this ruleset (a mixture's members all of one side)
    side = mixture.side(name) if name.endswith(mixture.SUFFIX) else trained.read_actor(name).meta["side"]
    return Contestant(name, model_label(name), (rs.sides.index(side),))


def unique_labels(contestants: list[Contestant]) -> list[Contestant]:
    """Number repeated labels (two runs' model.zip in folders of the same name)."""
    seen: dict[str, int] = {}
    out = []
    for c in contestants:
        seen[c.label] = seen.get(c.label, 0) + 1
        out.append(c if seen[c.label] == 1 else Contestant(c.name, f"{c.label}#{seen[c.label]}", c.sides))
    return out


def pairings(contestants: Sequence[Contestant], num_sides: int) -> list[tuple[Contestant, ...]]:
    """Every ordered assignment of agents to sides in which each agent can play its side."""
    per_side = [[c for c in contestants if side in c.sides] for side in range(num_sides)]
    return list(itertools.product(*per_side))


def play_pairings(rs, scenario, contestants, seeds, jobs: int = 1, progress=None, recorder=None) -> list[Pairing]:
    """Play every pairing on the same seeds; `recorder` (replay_record.Recorder) writes the replays it wants."""
    played = []
    for agents in pairings(contestants, len(rs.sides)):
        matchup = Matchup(rs.name, scenario, tuple(c.name for c in agents))
        record = recorder.for_agents(matchup.agents) if recorder else None
        played.append(Pairing(agents, tuple(run_series(matchup, seeds, jobs, recorder=record))))
        if progress:
            progress(played[-1])
    return played


def pairing_table(rs, played: Sequence[Pairing]) -> list[str]:
    """Markdown: one row per pairing, the first side's wins/draws/losses with 95 % intervals."""
    head = " | ".join(rs.sides)
    first = rs.sides[0]
    lines = [f"| {head} | games | {first} wins [95 % CI] | draws [95 % CI] | {first} losses [95 % CI] | mean game length |",
             "|" + " --- |" * len(rs.sides) + " ---: | --- | --- | --- | --- |"]
    for pairing in played:
        result = pairing.result(0)
        names = " | ".join(c.label for c in pairing.agents)
        lines.append(f"| {names} | {result.tally.games} | {format_share(result.tally)} | "
                     f"{format_share(result.tally, 'draws')} | {format_share(result.tally, 'losses')} | "
                     f"{format_length(result)} |")
    return lines


def evaluate(rs, scenario, names: Sequence[str], games: int, seed: int, jobs: int, out_dir: Path,
             progress: bool = True, recorder=None) -> str:
    """Play every pairing, rate the ladder, write ladder.md, ladder.csv and ladder.png in `out_dir`; returns the text."""
    from .ladder import ladder_table, plot_ladder, rate

    contestants = unique_labels([contestant(rs, n) for n in names])
    seeds = range(seed, seed + games)
    report = (lambda p: print(f"  {' vs '.join(c.label for c in p.agents)}: done", flush=True)) if progress else None
    played = play_pairings(rs, scenario, contestants, seeds, jobs, report, recorder)
    ratings = rate(played, rs.sides)
    out_dir.mkdir(parents=True, exist_ok=True)
    plot_ladder(ratings, out_dir / "ladder.png", f"{rs.name}: rating ladder ({games} games per pairing)")
    write_csv(out_dir / "pairings.csv", rs, played)
    text = "\n".join(evaluation_markdown(rs, scenario, contestants, seeds, played, ladder_table(ratings)))
    (out_dir / "ladder.md").write_text(text + "\n", encoding="utf-8")
    return text


def evaluation_markdown(rs, scenario, contestants, seeds, played, ladder_lines) -> list[str]:
    """ladder.md: what was played, the pairings table, the ladder."""
    agents = ", ".join(f"`{c.label}`" + (f" ({c.name})" if c.name != c.label else "") for c in contestants)
    return [f"# {rs.name}: evaluation and rating ladder", "",
            f"Scenario {scenario or rs.default_scenario}; agents {agents}; {len(seeds)} games per pairing on seeds "
            f"{seeds.start:,}..{seeds.stop - 1:,} (the same seeds for every pairing). A trained model plays only the "
            "side it was trained for, and deterministically.", "",
            "## Pairings", "", *pairing_table(rs, played), "",
            "## Ladder", "", "openskill Plackett-Luce, one rating per agent on a side, games rated in "
            "round-robin order; ranked by mu - 3 sigma.", "", *ladder_lines, "", "![ladder](ladder.png)"]


def write_csv(path: Path, rs, played: Sequence[Pairing]) -> None:
    """pairings.csv: one row per pairing with each side's wins, draws and losses."""
    import csv

    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow([*rs.sides, "games", *(f"{s}_{o}" for s in rs.sides for o in ("wins", "draws", "losses")),
                         "mean_decisions"])
        for p in played:
            tallies = [p.result(s).tally for s in range(len(rs.sides))]
            writer.writerow([*(c.label for c in p.agents), len(p.records),
                             *(n for t in tallies for n in (t.wins, t.draws, t.losses)), f"{p.result(0).decisions:.2f}"])
