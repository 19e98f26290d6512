"""Vehicles ramming buildings (KV-RAM-1..7, KB-TAB-1, KV-TAB-2)."""
from __future__ import annotations

from . import geometry
from .board import INTACT, centre, inches
from .flow import Decision, task
from .state import DOWN
from .tasks import Ram


def can_ram(game, unit) -> bool:
    """KV-RAM-1: heavy and super-heavy tanks and super-heavy walkers (those KB-TAB-1 scores)."""
    return unit.vehicle and unit.vclass in game.tables.ram_vehicle


def ram_options(game, unit, reach: dict) -> dict:
    """KV-RAM-1/2, KB-BUNK-4: section -> (cheapest reachable free cell sharing an edge with it, cost)."""
    out = {}
    for s in game.board.sections:
        if s.material not in game.tables.ram_building or game.section_state[s.index] != INTACT:
            continue
        if any(u.section == s.index and u.side == unit.side for u in game.living()):
            continue
        ring = [(x, s.y0 - 1) for x in range(s.x0, s.x1 + 1)] + [(x, s.y1 + 1) for x in range(s.x0, s.x1 + 1)] + \
               [(s.x0 - 1, y) for y in range(s.y0, s.y1 + 1)] + [(s.x1 + 1, y) for y in range(s.y0, s.y1 + 1)]
        best = None
        for cell in ring:
            cost = reach.get(cell)
            if cost is None or (cell != unit.cell and geometry.unit_at(game, cell) is not None):
                continue
            key = (cost, game.board.cell_index(cell))
            if best is None or key < best[0]:
                best = (key, cell)
        if best is not None:
            out[s.index] = (best[1], best[0][0])
    return out


def start_ram(game, unit, sid: int, how) -> None:
    """KC-CQ-3 for a ram: reaction distance from the start cell centre to the nearest perimeter point."""
    distance = game.board.distance_to_section(centre(unit.cell), sid)
    game.log.add("ram", f"{unit.name} rams {game.board.sections[sid].name}", unit.side, rule="KV-RAM-2")
    game.push(Ram(unit.uid, sid, distance, -1, how[0]))


@task(Ram)
def ram(game, uid: int, section: int, distance: float, after: int, cell=()) -> None:
    """KV-RAM-2 / KC-CQ-3 (clarified 2026-11-28): the occupants' reaction fire comes while the vehicle is still at
    its start, lowest id first; then it Runs to `cell` (unless the fire destroyed or immobilised it) and rams."""
    unit = game.units[uid]
    if not unit.alive:
        return
    if distance > 6.0 + 1e-9:
        for u in sorted(game.living(), key=lambda u: u.uid):
            if u.section == section and u.uid > after and u.order is None and not u.kept \
                    and game.weapons_reaching(u, unit):
                game.push(Ram(uid, section, distance, u.uid, cell))
                game.decide(Decision.REACT_FIRE, side=u.side, uid=u.uid, attacker=uid)
                return
    if unit.immobile:
        game.log.add("ram_stopped", f"{unit.name} is immobilised before it reaches "
                     f"{game.board.sections[section].name}", unit.side, rule="KV-RAM-2")
        return
    game.move_unit(unit, tuple(cell), rule="KV-RAM-2")
    resolve_ram(game, unit, section)


def resolve_ram(game, unit, sid: int) -> None:
    """KV-RAM-3..7: d6 + the vehicle's score against the building's dice."""
    s = game.board.sections[sid]
    face = game.dice.d6()
    score = face + game.tables.ram_vehicle[unit.vclass]
    building = game.dice.dice(game.tables.ram_building[s.material])
    total = sum(building)
    game.log.add("ram_roll", f"{unit.name} scores {score} against {s.name}'s {total}", unit.side,
                 (face, *building), rule="KV-RAM-3")
    if total > score:                                           # KV-RAM-4: the vehicle stays put
        if s.material == "brick":
            from .shooting import vehicle_damage
            vehicle_damage(game, unit)
        else:
            superficial(game, unit)
    else:
        if total == score:                                      # KV-RAM-5
            superficial(game, unit)
        game.collapse(sid, "KV-RAM-6" if total < score else "KV-RAM-5")
        if unit.alive:
            cell = min(s.cells(), key=lambda c: (inches(centre(c), centre(unit.cell), game.board.cell_in),
                                                 game.board.cell_index(c)))
            game.move_unit(unit, cell, rule="KV-RAM-6")
            unit.order = DOWN
    if unit.alive:
        from .shooting import pin
        pin(game, unit, 1, "KV-RAM-7")


def superficial(game, unit) -> None:
    """KV-TAB-2: +1 pin, then d6: 1-3 nothing more, 4-5 crew stunned, 6 immobilised."""
    from .shooting import pin
    if pin(game, unit, 1, "KV-TAB-2"):
        return
    face = game.dice.d6()
    game.log.add("superficial", f"{unit.name} superficial damage", unit.side, (face,), rule="KV-TAB-2")
    if face >= 6:
        unit.immobile = True
        pin(game, unit, 1, "KV-TAB-2")
    elif face >= 4:
        if not pin(game, unit, 1, "KV-TAB-2"):
            game.force_down(unit, "KV-TAB-2")
