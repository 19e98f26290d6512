"""Flamethrowers, burning sections and evacuation (KC-FLAME-1..6, KB-FLAME-1..6, KB-RUIN-1)."""
from __future__ import annotations

from . import geometry, hidden
from .board import BURNING
from .shooting import casualties, morale_after, need, pin, vehicle_hits


def flame_attack(game, unit, t, entry) -> None:
    """KC-FLAME-6 dice order: to hit (open only), D6 hits, D3+1 pins, damage, morale, catch fire, fuel."""
    m, name, dist, _ = entry
    w = game.tables.weapons[name]
    section = t.section
    if t.inside:
        hit = True                                   # KB-FLAME-1: automatic against a unit inside
        game.log.add("flame", f"{unit.name} flames {t.name} inside", unit.side, rule="KB-FLAME-1")
    else:
        n = flame_need(game, unit, name, t, dist)
        face = game.dice.d6()
        hit = face != 1 and face >= n
        game.log.add("flame", f"{unit.name} flames {t.name}: {'hit' if hit else 'miss'}", unit.side, (face,),
                     rule="KC-FLAME-1")
    if hit:
        hits = game.dice.d6()
        game.log.add("flame_hits", f"{hits} flame hits", unit.side, (hits,), rule="KC-FLAME-1")
        if t.vehicle:                                # KC-FLAME-4: top armour, no long-range loss
            vehicle_hits(game, unit, t, [(name, hits, 0.0)], top=True)
            if t.alive:
                morale_after(game, t, 0, forced=True)
        else:
            extra = game.dice.d3()
            if not pin(game, t, extra + 1, "KC-FLAME-2"):
                dv = game.tables.quality[t.quality][1]
                faces = game.dice.dice(hits)
                kills = sum(1 for f in faces if f != 1 and f + w.pen >= dv)   # no Extra Protection (KB-FLAME-1)
                game.log.add("damage", f"{t.name}: {kills} casualties", unit.side, tuple(faces), rule="KC-FLAME-1",
                             **hidden.owner_only(game, t))   # KC-HID-9: damage dice on a hidden occupant
                casualties(game, t, kills, "KC-FLAME-1")
                morale_after(game, t, kills, forced=True)          # KC-FLAME-3: one check serves both
        if section is not None:
            catch_fire(game, section)
    fuel = game.dice.d6()
    game.log.add("fuel", f"{unit.name} fuel check", unit.side, (fuel,), rule="KC-FLAME-5")
    if fuel == 1 and unit.alive:
        game.destroy(unit, "its fuel explodes", "KC-FLAME-5")


def flame_need(game, unit, name, t, dist) -> int:
    """KC-FLAME-1: the to-hit score ignoring cover and Down."""
    return need(game, unit, name, t, dist, False, flame=True)


def catch_fire(game, section: int) -> None:
    """KB-FLAME-2: d6 4+ sets the section on fire; then KB-FLAME-4/5/6. KB-GRID-9: only this section burns."""
    if game.section_state[section] != "intact":
        return
    face = game.dice.d6()
    burns = face >= 4
    game.log.add("catch_fire", f"{game.board.sections[section].name} {'catches fire' if burns else 'does not burn'}",
                 dice=(face,), rule="KB-FLAME-2")
    if burns:
        game.section_state[section] = BURNING            # KB-FLAME-3: impassable, still blocks LOS
        evacuate(game, section)


def evacuate(game, section: int) -> None:
    """KB-FLAME-4/5/6: artillery dies; infantry leave one at a time by unit id to the lowest-index free outside
    cell of a floor-0 opening (bunker: door), else a free cell sharing an edge with the section, else die;
    each takes 1 pin and goes Down."""
    s = game.board.sections[section]
    for u in sorted((u for u in game.living() if u.section == section), key=lambda u: u.uid):
        if u.kind == "artillery":
            game.destroy(u, "burnt in its building", "KB-FLAME-5")
            continue
        cell = exit_cell(game, s)
        if cell is None:
            game.destroy(u, "trapped by the fire", "KB-FLAME-4")
            continue
        game.move_unit(u, cell, rule="KB-FLAME-6")
        if not pin(game, u, 1, "KB-FLAME-4"):
            game.force_down(u, "KB-FLAME-4")


def exit_cell(game, s):
    """KB-FLAME-6: the lowest-index free outside cell of a floor-0 opening (bunker: door), else the lowest-index
    free cell sharing an edge with the section; None: trapped."""
    board = game.board
    door_cells = {board.openings[i].outside for i in s.openings if board.openings[i].floor == 0
                  and (s.material != "bunker" or board.openings[i].kind == "door")}
    for cells in (door_cells, edge_ring(s)):
        for c in sorted((c for c in cells if board.in_bounds(c)), key=board.cell_index):
            if free(game, c):
                return c
    return None


def edge_ring(s) -> list:
    """The cells sharing an edge with section `s` (off the board too: the caller keeps those on it). Sorted by cell
    index, never by truthiness: cell (0, 0) has index 0 and comes first (KB-FLAME-6)."""
    ring = []
    for x in range(s.x0, s.x1 + 1):
        ring += [(x, s.y0 - 1), (x, s.y1 + 1)]
    for y in range(s.y0, s.y1 + 1):
        ring += [(s.x0 - 1, y), (s.x1 + 1, y)]
    return ring


def free(game, cell) -> bool:
    """KB-FLAME-6: no unit, not a building or bunker cell."""
    return geometry.passable(game, cell) and geometry.unit_at(game, cell) is None
