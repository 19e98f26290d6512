"""eval.csv, a run's periodic evaluations: one row each, read by reports and cut back by a resume.

Plain CSV through the standard library: reports read it without torch or stable-baselines3.
"""
from __future__ import annotations

import csv

from training.measure.series import SideResult

EVAL_FIELDS = ("timesteps", "seconds", "games", "wins", "draws", "losses", "win_rate", "win_low", "win_high",
               "mean_decisions", "mean_turns")


def eval_row(timesteps: int, seconds: float, result: SideResult) -> dict:
    """One eval.csv row."""
    tally, (lo, hi) = result.tally, result.win_interval()
    return {"timesteps": timesteps, "seconds": round(seconds, 1), "games": tally.games, "wins": tally.wins,
            "draws": tally.draws, "losses": tally.losses, "win_rate": round(result.win_rate, 4),
            "win_low": round(lo, 4), "win_high": round(hi, 4), "mean_decisions": round(result.decisions, 2),
            "mean_turns": "" if result.turns is None else round(result.turns, 3)}


def append_eval_row(path, row: dict) -> None:
    """Append a row to eval.csv (header first if the file is new): a resumed run adds to the same file."""
    new = not path.exists()
    with open(path, "a", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=EVAL_FIELDS)
        if new:
            writer.writeheader()
        writer.writerow(row)


def truncate_eval_rows(path, timesteps: int) -> int:
    """Drop eval.csv's rows past `timesteps` (a resume from an earlier save); how many were dropped."""
    if not path.exists():
        return 0
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    kept = [row for row in rows if float(row["timesteps"]) <= timesteps]
    if len(kept) < len(rows):
        from training.folders.rundir import replacing
        with replacing(path) as tmp, open(tmp, "w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=EVAL_FIELDS)
            writer.writeheader()
            writer.writerows(kept)
    return len(rows) - len(kept)


def read_eval_rows(path) -> list[dict]:
    """eval.csv as dicts of numbers (empty cells become None)."""
    if not path.exists():
        return []
    with open(path, newline="", encoding="utf-8") as f:
        return [{k: (float(v) if v != "" else None) for k, v in row.items()} for row in csv.DictReader(f)]
