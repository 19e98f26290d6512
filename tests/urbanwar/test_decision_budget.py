"""`python -m training.measure.decision_budget`: decisions per kind of seeded random games (run as a user runs it)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]


def budget(*args: str) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-m", "training.measure.decision_budget", "urbanwar", "--quiet", *args], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    rows = [line.split() for line in out.splitlines()[1:]]
    return {row[0]: float(row[1]) for row in rows}


def test_every_kind_is_counted_and_orders_all_snap_fire_make_longer_games():
    uniform = budget("--games", "3")
    snap = budget("--games", "3", "--prefer", "order .* Snap-fire")
    assert uniform["deploy"] == snap["deploy"] == 12 and uniform["deploy_first"] == 1     # UW-DEC-1
    assert abs(sum(v for k, v in uniform.items() if k != "total") - uniform["total"]) < 0.2
    assert snap["total"] > 1.2 * uniform["total"]     # UW-TURN-12/14: Overwatch models act only by interrupting
    assert snap["activate"] > uniform["activate"]


def test_a_bad_probability_fails_in_one_line():
    run = subprocess.run([sys.executable, "-m", "training.measure.decision_budget", "urbanwar", "--prefer-p", "2"], cwd=ROOT,
                         capture_output=True, text=True)
    assert run.returncode == 2 and "--prefer-p in [0, 1]" in run.stderr
