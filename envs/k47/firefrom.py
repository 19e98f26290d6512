"""Fire from a building (KB-FROM-3/4): a unit inside declares one target per side (N/E/S/W) of its section; the
firers of each side are assigned in declaration order, each model once, and each side fires as its own attack.

A declaration is [side, target id, HE (0/1), [model indices]], kept in the TARGET decision's context until the
unit stops declaring (pass, or nothing left to declare)."""
from __future__ import annotations

from envs.engine.derived import BoundedStore

from .shooting import firers_by_side, firing_weapons

SIDES = ("N", "E", "S", "W")
#: process-wide (envs.engine.derived.BoundedStore): a side and its firers are a pure function of the firing key
#: (board, tables, the two units' places and loadout) and the sides and models already declared, so any game or
#: side's view may read what another filled. Kept per activation and beyond: the mask asks for every enemy, the HE
#: modes and the answer ask again, and the scripted player weighs each target through the side it would take.
BEST_SIDES = BoundedStore("k47 best sides", 20_000)


def spent(declared: list) -> set:
    """KB-FROM-4: the models already assigned to an earlier side (each model fires once)."""
    return {m for d in declared for m in d[3]}


def side_firers(pos, unit, target, moved: bool, side: str, declared: list) -> list:
    """KB-FROM-4: the models that would fire at `target` through openings on `side`, none already assigned (in HE
    mode too: the unit's other weapons still fire, KC-HE-1)."""
    used = spent(declared)
    free = [m for m in range(len(unit.models)) if m not in used]
    return sorted({m for m, *_ in firing_weapons(pos, unit, target, moved, sides=(side,), models=free)})


def best_side(pos, unit, target, moved: bool, declared: list):
    """KB-FROM-3 (reading 18): a target goes to the not yet declared side through which most free models fire at
    it (ties: N, E, S, W); (side, models), or None when no free side reaches it. Shared (BEST_SIDES): read only."""
    return best_side_from(pos, unit, target, moved, declared, sides_key(pos, unit, moved, declared))


def sides_key(pos, unit, moved: bool, declared: list) -> tuple:
    """What `best_side` reads besides the target's place: `shooting.firing_key`'s board, tables and unit, and the
    sides and models already declared (worked out once for all the enemies a decision weighs)."""
    return (pos.ground, unit.alive, unit.cell, unit.section, unit.floor,
            unit.kind, unit.facing, unit.fixed_opening, unit.loadout(), moved,
            tuple((d[0], tuple(d[3])) for d in declared))


def best_side_from(pos, unit, target, moved: bool, declared: list, common: tuple):
    """`best_side`, `common` being its `sides_key`."""
    key = (common, target.alive, target.cell, target.section, target.floor)
    return BEST_SIDES.get(key, _best_side, pos, unit, target, moved, declared)


def _best_side(pos, unit, target, moved: bool, declared: list):
    used = {d[0] for d in declared}
    spent_models = spent(declared)
    free = [m for m in range(len(unit.models)) if m not in spent_models]
    firers = firers_by_side(pos, unit, target, moved, [side for side in SIDES if side not in used], free)
    best = None
    for side, models in firers.items():      # side_firers of each free side, asked at once
        if models and (best is None or len(models) > len(best[1])):
            best = (side, tuple(models))
    return best


def declarable(pos, unit, moved: bool, declared: list) -> list:
    """KB-FROM-3: enemy ids the unit may still declare (a free side reaches them), ascending."""
    common = sides_key(pos, unit, moved, declared)
    return [t.uid for t in pos.living() if t.side != unit.side and best_side_from(pos, unit, t, moved, declared, common)]


def declare(pos, unit, target, moved: bool, declared: list, he: bool) -> list:
    """KB-FROM-3/4: the declarations with `target` added on its side."""
    side, models = best_side(pos, unit, target, moved, declared)
    return declared + [[side, target.uid, int(he), list(models)]]
