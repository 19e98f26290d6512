"""HE/AS fire (CF-HE-1..13, CF-ACT-7): an accuracy roll on the weapon's grid, then impact and blast."""
from __future__ import annotations

import numpy as np

from envs.engine.events import private

from . import ap, damage, fire, knowledge
from .board import reach_row
from .config import ANNOUNCED
from .flow import task
from .state import DEAD
from .tasks import HeFire

RING = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))   # N, NE, E, SE, S, SW, W, NW (clockwise)
# CF-HE-3: grid cell (row 0 over / 1 level / 2 short, column 0 left / 1 line / 2 right) -> ring steps clockwise
# from the line of fire; the centre (level, line) is the target itself.
CELL_TURN = {(0, 1): 0, (0, 2): 1, (1, 2): 2, (2, 2): 3, (2, 1): 4, (2, 0): 5, (1, 0): 6, (0, 0): 7}


def weapon(game, e):
    return game.tables.he_weapons[e.special] if e.special else None


# Legality --------------------------------------------------------------------------------------------------
def may_fire_special(game, e) -> bool:
    """CF-HE-1/11/12, CF-ACT-8/11: a special weapon still carried and not OOA; one fire a turn; not suppressed."""
    return (e.special is not None and not e.special_ooa and not e.fired and not e.suppressed and e.square != DEAD
            and not game.engaged(e.square))


def in_reach(game, e, min_range: int, max_range: int) -> np.ndarray:
    """Squares in sight within min..max range."""
    return reach_row(game, e.square, max(min_range, 1), max_range)


def special_squares(game, e) -> np.ndarray:
    """CF-HE-1: in LOS, within the weapon's range, targets as CF-FIRE-2."""
    w = weapon(game, e)
    return fire.without_own(game, e.side, in_reach(game, e, w.min_range, w.max_range))


def he_targets(game, e) -> np.ndarray | list:
    """CF-ACT-7: Fire Special Weapon, 2 AP."""
    if not may_fire_special(game, e) or not ap.can_spend(game, e, 2):
        return []
    return special_squares(game, e)


def can_fire_special(game, e, square: int) -> bool:
    """CF-OW-4: a watcher's special weapon at the watched square (no AP)."""
    return may_fire_special(game, e) and bool(special_squares(game, e)[square])


def do_special(game, e, target: int) -> None:
    ap.spend(game, e, 2)
    spotted = target in game.knowledge[e.side].spotted
    begin_special(game, e, target, spotted, "")


def begin_special(game, e, target: int, spotted: bool, reaction: str) -> None:
    game.push(HeFire(e.side, e.slot, target, spotted, reaction))


# The grid (CF-HE-3/4, CF-TAB-4) ----------------------------------------------------------------------------
def line_index(game, origin: int, target: int) -> int:
    """CF-HE-3: the line of fire rounded to 45 degrees, as a RING index."""
    (ox, oy), (tx, ty) = game.board.xy(origin), game.board.xy(target)
    angle = np.degrees(np.arctan2(tx - ox, -(ty - oy))) % 360     # clockwise from north
    return int(((angle + 22.5) // 45) % 8)


def landing(game, origin: int, target: int, grid: str, total: int, against_building: bool) -> int:
    """The square a modified 2D6 total lands on (-1 off the map, CF-HE-5)."""
    row, column = game.tables.grids[grid][total]
    if against_building and row == 0:
        row = 1                                                    # CF-HE-4: the top row counts as the cell below
    if (row, column) == (1, 1):
        return target
    dx, dy = RING[(line_index(game, origin, target) + CELL_TURN[(row, column)]) % 8]
    x, y = game.board.xy(target)
    return game.board.at(x + dx, y + dy)


def accuracy(game, target: int, spotted: bool, dice: list[int]) -> int:
    """CF-HE-2: 2D6, -2 once if the target is not SPOTTED or not a building square, clamped to 2..12."""
    total = sum(dice)
    if not spotted or game.board.building[target] < 0:
        total -= 2
    return min(12, max(2, total))


def runs_out(rule: str, dice: list[int]) -> bool:
    """CF-HE-11 / CF-TAB-3: an accuracy-roll double checked on the weapon's OOA rule."""
    if dice[0] != dice[1]:
        return False
    return rule == "any_double" or (rule == "low_double" and dice[0] <= 3)


# Resolution ----------------------------------------------------------------------------------------------------
@task(HeFire)
def he_fire(game, side: int, slot: int, target: int, spotted: bool, reaction: str) -> None:
    """CF-HE-1..13: accuracy, announcement, impact and blast, breach, OOA and one-shot weapons; then return fire."""
    e = game.element(side, slot)
    w = weapon(game, e)
    e.fired, e.fired_still = True, True                             # CF-ACT-8, CF-SRCH-14
    dice = game.dice.dice(2)
    impact = landing(game, e.square, target, w.grid, accuracy(game, target, spotted, dice),
                     game.board.building[target] >= 0)
    origin_known = w.announces_origin                               # CF-HE-10
    fire.announce(game, e, target, ANNOUNCED.index(w.name), dice, origin_known)
    if runs_out(w.ooa, dice):
        e.special_ooa, e.special_ooa_turn = True, game.turn        # CF-HE-11
        game.log.add("ooa", f"{e.name}'s {w.name} is out of ammunition", side, rule="CF-HE-11", **private(side))   # CF-HID-3
    spend_shot(game, e, w)
    if impact >= 0:
        explode(game, e, w, impact)
    else:
        game.log.add("impact", "the round lands off the map", side, rule="CF-HE-6")   # CF-HE-5
    fire.offer_return_fire(game, e, target, reaction, origin_known)


def spend_shot(game, e, w) -> None:
    """CF-HE-12: a LAW (or disposable RCL) fires once and is removed."""
    if w.shots:
        e.shots -= 1
        if e.shots <= 0:
            e.special = None


def explode(game, e, w, impact: int) -> None:
    """CF-HE-6..9, CF-HE-13: effect roll on the impact square, half the higher die on the 8 around it."""
    dice = game.dice.dice(2)
    high = max(dice)
    for k in game.knowledge:
        knowledge.told_impact(k, impact, game.turn)                 # CF-HID-9: public
    game.log.add("impact", f"{w.name} impact on {game.name(impact)}", e.side, dice=tuple(dice), square=impact, rule="CF-HE-6")
    results = [(impact, he_result(game, impact, high + w.fs))]
    x, y = game.board.xy(impact)
    for dx, dy in RING:
        square = game.board.at(x + dx, y + dy)
        if square >= 0:
            results.append((square, he_result(game, square, (high + 1) // 2 + w.fs)))   # CF-HE-8
    for square, result in results:
        hit_all(game, square, result, e.side)
        damage.hit_square(game, square, result, e.square)            # CF-BLD-1: impact and blast
    if w.breaches and damage.breach(game, impact):                  # CF-HE-13, blocked at once by CF-BLD-4 damage
        game.log.add("breach", f"{game.name(impact)} is breached", e.side, square=impact, rule="CF-HE-13")


def he_result(game, square: int, total: int) -> str | None:
    """CF-HE-6, CF-HE-7: total against the square's cover row; no spotting reduction, no six or double-six rules."""
    s, k = game.tables.cover[game.cover[square]]
    return "K" if total >= k else "S" if total >= s else None


def hit_all(game, square: int, result: str | None, firing_side: int) -> None:
    """CF-HE-9: impact and blast hit every element there, both sides; CF-RES-2/4 spread to the firer's enemy."""
    fire.mark_fired_on(game.at(square, 1 - firing_side))            # CF-RES-8: whatever the result
    if result is None:
        return
    for side in (0, 1):
        here = game.at(square, side)
        if result == "K":
            fire.kill_square(game, here)
        else:
            for o in here:
                fire.suppress(game, o)
    if result == "K" or game.is_open(square):
        fire.spread_suppression(game, square, firing_side)
