"""Close quarters: assaults outside, into and inside buildings, reaction fire, rounds (catalog sections 5 and 6)."""
from __future__ import annotations

from . import geometry, hidden
from .board import INTACT, centre, inches
from .flow import Decision, answer, task
from .movement import allowance, leave_starts, reach_once
from .state import FIRE, RUN
from .tasks import Assault, Charge, Declare, Fight

MAX_ROUNDS = 50   # a tie repeats (KC-CQ-6); this only guards against a rules bug looping for ever


def assault_options(game, unit, paths: dict | None = None) -> dict:
    """KC-CQ-1/2, KB-ASLT-1/3/4: enemy uid -> (destination cell or None, start point for KC-CQ-3 or None)
    (`paths`: the decision's paths walked so far, movement.reach_once)."""
    found = {}
    run = allowance(game, unit, RUN)
    cache: dict = {} if paths is None else paths
    for t in game.living():
        if t.side == unit.side or t.vehicle:
            continue
        if unit.inside:
            if t.inside and inside_reach(game, unit, t):       # KB-ASLT-3: no reaction fire
                found[t.uid] = (None, None)
            elif not t.inside and unit.floor == 0:             # KB-ASLT-4: leaping out
                for start in leave_starts(game, unit):
                    dest = adjacent_cell(game, unit, t.cell, start, 1.0, run, cache)
                    if dest is not None and game.sees(unit, t):
                        found[t.uid] = (dest, nearest_door_point(game, unit, start))
                        break
            continue
        if t.inside:
            if t.floor != 0 or game.section_state[t.section] != INTACT:
                continue
            dest = door_cell(game, unit, t.section, run, cache)       # KB-ASLT-1
            if dest is not None and game.sees_section(unit, t.section):
                found[t.uid] = (dest, centre(unit.cell))
        else:
            dest = adjacent_cell(game, unit, t.cell, unit.cell, 0.0, run, cache)
            if dest is not None and game.sees(unit, t):
                found[t.uid] = (dest, centre(unit.cell))
    return found


def inside_reach(game, unit, t) -> bool:
    """KB-ASLT-3: the floor directly above or below, or the same floor of a connected adjoining section."""
    if unit.section == t.section:
        return abs(unit.floor - t.floor) == 1
    return unit.floor == t.floor and game.board.are_connected(unit.section, t.section) \
        and game.section_state[t.section] == INTACT


def adjacent_cell(game, unit, target_cell, start, start_cost, run, cache=None):
    """KC-CQ-2: the cheapest free cell 8-adjacent to the target the Run reaches (lowest index on ties, KC-DEC-4)."""
    costs = reach_once(game, unit, run, {} if cache is None else cache, start, start_cost)
    taken = geometry.occupied_cells(game)
    best = None
    x, y = target_cell
    for dx, dy, _ in geometry.NEIGHBOURS:             # the 8 cells around the target, not every cell reached
        cell = (x + dx, y + dy)
        cost = costs.get(cell)
        if cost is None or (cell != unit.cell and cell in taken):
            continue
        key = (cost, game.board.cell_index(cell))
        if best is None or key < best[0]:
            best = (key, cell)
    return best[1] if best else None


def door_cell(game, unit, sid: int, run, cache=None):
    """KB-ASLT-1 / KB-BUNK-2: the cheapest reachable free outside cell of a floor-0 opening (bunker: door)."""
    s = game.board.sections[sid]
    costs = reach_once(game, unit, run, {} if cache is None else cache)
    best = None
    for i in s.openings:
        o = game.board.openings[i]
        if o.floor != 0 or (s.material == "bunker" and o.kind != "door"):
            continue
        cost = costs.get(o.outside)
        if cost is None or (o.outside != unit.cell and geometry.unit_at(game, o.outside) is not None):
            continue
        key = (cost, game.board.cell_index(o.outside))
        if best is None or key < best[0]:
            best = (key, o.outside)
    return best[1] if best else None


def nearest_door_point(game, unit, start):
    """KC-CQ-3: leaping out measures from the opening point it uses."""
    s = game.board.sections[unit.section]
    for i in s.openings:
        o = game.board.openings[i]
        if o.floor == 0 and o.outside == start:
            return o.point
    return centre(start)


def start_assault(game, unit, target, how) -> None:
    """KC-CQ-2/3: the assault is declared where the assaulter stands; any reaction fire comes before it moves
    (KC-CQ-3, clarified 2026-11-28), then it Runs into contact and the fight follows."""
    dest, start_point = how
    distance = -1.0
    if start_point is not None:
        distance = reaction_distance(game, start_point, target)
    for u in (unit, target):                        # KC-HID-6: assaulting and being assaulted reveal
        hidden.reveal(game, u, "close quarters", "KC-HID-6")
    game.log.add("assault", f"{unit.name} assaults {target.name}", unit.side, rule="KC-CQ-2", uid=unit.uid)
    leaping = leap_opening(game, unit, start_point) if unit.inside and not target.inside else None
    game.push(Assault(unit.uid, target.uid, distance, leaping), Charge(unit.uid, target.uid, dest),
              Fight(unit.uid, target.uid, 1))


def leap_opening(game, unit, point) -> int:
    """KB-ASLT-4: the floor-0 opening of its section a unit inside leaps out through (the one at `point`)."""
    s = game.board.sections[unit.section]
    return next(i for i in s.openings if game.board.openings[i].floor == 0 and game.board.openings[i].point == point)


def reaction_distance(game, start_point, target) -> float:
    """KC-CQ-3: to the target's centre, or (inside) to the nearest floor-0 opening point the assault may use."""
    if not target.inside:
        return inches(start_point, centre(target.cell), game.board.cell_in)
    s = game.board.sections[target.section]
    points = [game.board.openings[i].point for i in s.openings if game.board.openings[i].floor == 0
              and (s.material != "bunker" or game.board.openings[i].kind == "door")]
    return min(inches(start_point, p, game.board.cell_in) for p in points)


@task(Assault)
def assault(game, attacker: int, target: int, distance: float, leaping: int | None = None) -> None:
    """KC-CQ-3: a target with no order may fire at an assaulter that started more than 6" away. The assaulter has
    not moved yet (clarified 2026-11-28): range, sight and every to-hit modifier are taken from its start, so it is
    never point blank to this fire; one leaping out is shot in the open at its opening's point (KB-ASLT-4)."""
    a, t = game.units[attacker], game.units[target]
    if not a.alive or not t.alive:
        return
    if distance > 6.0 + 1e-9 and t.order is None and not t.kept and reaction_reaches(game, t, a, leaping):
        game.decide(Decision.REACT_FIRE, side=t.side, uid=target, attacker=attacker, leaping=leaping)


def reaction_reaches(game, t, a, leaping: int | None) -> bool:
    """KC-CQ-3: a weapon of `t` reaches the assaulter where it starts (leaping out: at its opening's point)."""
    if leaping is None:
        return bool(game.weapons_reaching(t, a))
    from .shooting import in_the_open, weapons_at_point
    with in_the_open(game, a, leaping) as point:
        return bool(weapons_at_point(game, t, a, point))


@task(Charge)
def charge(game, attacker: int, target: int, cell) -> None:
    """KC-CQ-2: the assaulter, if still standing, Runs into contact once any reaction fire is over."""
    a, t = game.units[attacker], game.units[target]
    if cell is not None and a.alive and t.alive:
        game.move_unit(a, tuple(cell), rule="KC-CQ-2")


@answer(Decision.REACT_FIRE)
def react_fire(game, ctx, name) -> None:
    if name == "yes":                      # KC-TURN-8: the die comes out of the bag
        t = game.units[ctx["uid"]]
        t.order = FIRE
        game.bag.take(t.side)
        game.log.add("react_fire", f"{t.name} fires at its assaulter", t.side,
                     rule="KV-RAM-2" if game.units[ctx["attacker"]].vehicle else "KC-CQ-3")
        game.push(Declare(t.uid, ctx["attacker"], False, leaping=ctx.get("leaping")))


def attacks(game, unit) -> list:
    """KC-CQ-4 / KC-WPN-1: (attacks, pen) per model: 2 with an Assault weapon."""
    out = []
    for m in unit.models:
        names = [w for w, _ in m.weapons]
        assault_weapon = any("assault" in game.tables.weapons[w].rules for w in names)
        pen = max([game.tables.weapons[w].pen or 0 for w in names] + [0])
        out.append((2 if assault_weapon else 1, pen))
    return out


def strike(game, unit, foe) -> int:
    """KC-CQ-4: automatic hits, d6 + Pen >= damage value, a natural 1 fails; pins don't count."""
    dv = game.tables.quality[foe.quality][1]
    kills, faces = 0, []
    for count, pen in attacks(game, unit):
        for _ in range(count):
            f = game.dice.d6()
            faces.append(f)
            kills += f != 1 and f + pen >= dv
    game.log.add("cq_attacks", f"{unit.name} strikes {foe.name}: {kills} kills", unit.side, tuple(faces), rule="KC-CQ-4")
    return kills


@task(Fight)
def fight(game, attacker: int, target: int, round: int) -> None:
    """KC-CQ-5/6, KB-ASLT-2 (defenders inside strike first in round 1), KB-ASLT-5, KC-CQ-7."""
    from .shooting import casualties
    a, t = game.units[attacker], game.units[target]
    if not a.alive or not t.alive:
        return
    first, second = (t, a) if (round == 1 and t.inside and not a.inside) else (a, t)
    k1 = strike(game, first, second)
    casualties(game, second, k1, "KC-CQ-5")
    k2 = strike(game, second, first) if second.alive else 0
    casualties(game, first, k2, "KC-CQ-5")
    by_a, by_t = (k1, k2) if first is a else (k2, k1)
    if not a.alive or not t.alive:
        loser = a if not a.alive else t
    elif by_a == by_t:
        if round < MAX_ROUNDS:
            game.push(Fight(attacker, target, round + 1))
            return
        loser = a
    else:
        loser = a if by_a < by_t else t
    if loser.alive:
        game.destroy(loser, "beaten in close quarters", "KC-CQ-6")
    winner = t if loser is a else a
    if winner is a and t.inside and winner.alive:                    # KB-ASLT-5
        game.move_unit(a, None, section=t.section, floor=t.floor, rule="KB-ASLT-5")
