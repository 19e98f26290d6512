"""Morale checks, group quality, rally and squad morale (RB-MOR-*, RB-VIC-3)."""
from __future__ import annotations

from collections import Counter

from envs.engine.events import roll

from .state import QUALITY

QUALITY_NAMES = {v: k for k, v in QUALITY.items()}


def check(game, quality: int, drm: int, why: str) -> bool:
    """RB-MOR-1: d6 + DRM >= the quality's target; a natural 1 always fails."""
    die = game.dice.d6()
    target = game.tables.morale_target[QUALITY_NAMES[quality]]
    passed = die != 1 and die + drm >= target
    game.log.add("morale", f"{why}: morale {die}{drm:+d} vs {target}: {'pass' if passed else 'fail'}", dice=(die,), rule="RB-MOR-1",
                 rolls=[roll((die,), "pass" if passed else "fail", needs=need(target - drm))])
    return passed


def need(score: int) -> str:
    """What the morale die needs, in words: at least 2, since a natural 1 always fails (RB-MOR-1)."""
    return f"{max(2, score)}+" if score <= 6 else "7+, so it cannot pass"


def group_quality(units) -> int:
    """RB-MOR-2: the quality most common among the units; a tie takes the lowest tied quality."""
    counts = Counter(u.quality for u in units)
    top = max(counts.values())
    return min(q for q, n in counts.items() if n == top)


def has_unsuppressed_leader(group) -> bool:
    return any(u.leader and not u.suppressed for u in group.units)


def rally(game, group, bap_drm: int) -> None:
    """RB-MOR-3: each Suppressed unit checks its own quality, +1 with an unsuppressed Leader; a pass makes it OK."""
    drm = bap_drm + (1 if has_unsuppressed_leader(group) else 0)
    for unit in [u for u in group.units if u.suppressed]:
        if check(game, unit.quality, drm, f"rally {unit.name}"):
            unit.hits = 0
            group.unit_changes += 1


def squad_morale_holds(game) -> bool:
    """RB-VIC-3: check with the best unsuppressed Leader's quality (none: Recruit)."""
    leaders = [u.quality for g in game.players for u in g.units if u.leader and not u.suppressed and not g.exited]
    quality = max(leaders) if leaders else QUALITY["recruit"]
    return check(game, quality, 0, "squad morale")
