"""Movement (CF-MOVE-1..8, CF-ACT-1..3, CF-AUTO-3): steps, runs, and what a step sets off."""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from envs.engine.events import private

from . import ap, assault, overwatch
from .actions import OFF
from .config import WOOD
from .flow import task
from .state import DEAD
from .tasks import Step

STACK = 3   # CF-GRID-5


def is_diagonal(direction: int) -> bool:
    return direction >= 4


def ends_movement(game, square: int) -> bool:
    """CF-MOVE-2: a step into Wood or a building square ends movement for the turn."""
    return game.board.building[square] >= 0 or game.board.base_cover[square] == WOOD


def step_table(game) -> list[list[int]]:
    """Per square and direction, the square a step reaches by the terrain alone (CF-MOVE-3/4/6), or -1.

    Doorways change only by breaches and damage, so tables are shared by map and doorway states; the game keeps the
    one of its map's stamp (game.map_stamp), as turning the doorways into a key cost more than the moves it serves."""
    kept = game.__dict__.get("_step_table")
    if kept is not None and kept[0] == game.map_stamp:
        return kept[1]
    table = _step_table(game.board, bytes(game.door))
    game.__dict__["_step_table"] = (game.map_stamp, table)
    return table


@lru_cache(maxsize=64)
def _step_table(board, doors: bytes) -> list[list[int]]:
    b = board.building
    table = [[-1] * 8 for _ in range(board.size)]
    for here in range(board.size):
        for d in range(8):
            there = board.step(here, d)
            if there < 0:
                continue
            if b[here] < 0 and b[there] < 0:
                table[here][d] = there
            elif not is_diagonal(d) and (b[here] == b[there] if b[here] >= 0 and b[there] >= 0
                                         else doors[there if b[there] >= 0 else here] == 1):
                table[here][d] = there                        # CF-MOVE-3/4 as building_step_ok
    return table


def walk_links(game) -> list[list[int]]:
    """Per square, the squares one step reaches by the terrain alone (step_table without the directions), shared
    by map and doorways as the step table is (read it, never change it): a scripted side asks it at its first
    decision of every game and whenever the doorways change."""
    return _walk_links(game.board, bytes(game.door))


@lru_cache(maxsize=64)
def _walk_links(board, doors: bytes) -> list[list[int]]:
    return [[t for t in steps if t >= 0] for steps in _step_table(board, doors)]


def friend_counts(game, side: int) -> dict[int, int]:
    counts: dict[int, int] = {}
    for f in game.elements[side]:
        if f.square != DEAD:
            counts[f.square] = counts.get(f.square, 0) + 1
    return counts


def steps_from(game, square: int, diagonal_used: bool, rubble_steps: int, counts, table) -> list[tuple[int, int]]:
    """(direction, square reached) of every legal step from `square` (observable facts only, CF-HID-14), the 8
    directions in one pass: a run asks it of up to 9 squares per decision. `table` is `step_table(game)`, looked up
    once by the caller (it hashes the doorways), `counts` the side's `friend_counts`."""
    rubble = game.rubble
    return [(d, there) for d, there in enumerate(table[square])
            if there >= 0 and not (d >= 4 and diagonal_used)          # CF-MOVE-3/4/6; CF-MOVE-1
            and not (rubble[there] and rubble_steps >= 1)               # CF-MOVE-5
            and counts.get(there, 0) < STACK]                           # CF-MOVE-6 / CF-GRID-5


def building_step_ok(game, here: int, there: int, diagonal: bool) -> bool:
    """CF-MOVE-3/4: into or out of a building orthogonally through an open doorway or breach; inside, orthogonal."""
    b = game.board.building
    if b[here] < 0 and b[there] < 0:
        return True
    if diagonal:
        return False
    if b[here] >= 0 and b[there] >= 0:
        return b[here] == b[there]                            # CF-MOVE-4: stay in that building
    door = there if b[there] >= 0 else here
    return game.door[door] == 1


def can_move(game, e) -> bool:
    """CF-ACT-9 / CF-ACT-11 / CF-MOVE-2: fired, suppressed or stopped elements do not move."""
    return not (e.fired or e.suppressed or e.stopped)


def move_targets(game, e) -> list[int]:
    """CF-ACT-1: the legal step directions."""
    return move_and_run_targets(game, e)[0]


def run_targets(game, e) -> list[tuple[int, int]]:
    """CF-ACT-2, CF-ACT-3: two steps; no run whose first step would end movement (CF-MOVE-2, CF-MOVE-5)."""
    return move_and_run_targets(game, e)[1]


def move_and_run_targets(game, e) -> tuple[list[int], list[tuple[int, int]]]:
    """(move_targets, run_targets) from one walk of the first steps: a run's first step is a legal move."""
    moves, runs, _ = kept_moves(game, e)
    return moves, runs


def step_actions(game, e) -> np.ndarray:
    """The flat actions (codec) of move_and_run_targets, as one index array: the act mask writes them at once."""
    return kept_moves(game, e)[2]


NO_STEPS = ([], [], np.zeros(0, dtype=np.intp))


def kept_moves(game, e) -> tuple[list[int], list[tuple[int, int]], np.ndarray]:
    """(moves, runs, their flat actions) of element `e` now.

    Kept on the game until the map changes (game.map_stamp: doorways, rubble), under all else they read: the square,
    the diagonal and rubble already used (CF-MOVE-1/5), whether a run is affordable, and the squares a step may not
    enter for their stack (CF-GRID-5), counted after the element has left its own square. The act mask asks them at
    every act decision, and elements mostly stand where an earlier decision found them. Read them, never change them."""
    if not can_move(game, e) or not ap.can_spend(game, e, 1):
        return NO_STEPS
    counts = friend_counts(game, e.side)
    counts[e.square] -= 1                                     # as runs_after counts the second steps
    runs = ap.can_spend(game, e, 2)
    key = (e.square, e.diagonal, e.rubble_steps, runs, tuple(s for s, n in counts.items() if n >= STACK))
    kept = kept_steps(game)
    found = kept.get(key)
    if found is None:
        counts[e.square] += 1
        table = step_table(game)
        first = steps_from(game, e.square, e.diagonal, e.rubble_steps, counts, table)
        moves = [d for d, _ in first]
        pairs = runs_after(game, e, first, counts, table) if runs else []
        actions = [OFF["move"] + d for d in moves] + [OFF["run"] + 8 * a + b for a, b in pairs]
        found = kept[key] = moves, pairs, np.array(actions, dtype=np.intp)
    return found


def kept_steps(game) -> dict:
    """kept_moves' answers for the map of game.map_stamp (a copy gets its own: see derived values)."""
    kept = game.__dict__.get("_kept_steps")
    if kept is None or kept[0] is not game.map_stamp:
        kept = game.__dict__["_kept_steps"] = (game.map_stamp, {})
    return kept[1]


def runs_after(game, e, first: list[tuple[int, int]], counts, table) -> list[tuple[int, int]]:
    """CF-ACT-2/3: the second steps after each legal first step (`first`: steps_from the element's square)."""
    found = []
    for d1, mid in first:
        if ends_movement(game, mid):
            continue
        diag, rubble = e.diagonal or is_diagonal(d1), e.rubble_steps + game.rubble[mid]
        counts[e.square] -= 1                                 # it has left its square
        found += [(d1, d2) for d2, _ in steps_from(game, mid, diag, rubble, counts, table)]
        counts[e.square] += 1
    return found


def do_move(game, e, direction: int) -> None:
    ap.spend(game, e, 1)
    game.push(Step(e.side, e.slot, direction))


def do_run(game, e, first: int, second: int) -> None:
    ap.spend(game, e, 2)
    game.push(Step(e.side, e.slot, first), Step(e.side, e.slot, second))


@task(Step)
def step(game, side: int, slot: int, direction: int) -> None:
    """One step; a run's second step is skipped once movement has ended (CF-MOVE-2/7, CF-OW-5)."""
    e = game.element(side, slot)
    if e.square == DEAD or e.suppressed or e.stopped or e.fired:   # CF-OW-5; CF-ACT-9 after return fire
        return
    here = e.square
    there = game.board.step(here, direction)
    if game.engaged(here):                                    # CF-AUTO-3: leaving is announced, no direction
        game.log.add("leaves_engaged", f"an element leaves the Engaged square {game.name(here)}", side, square=here, rule="CF-OW-3")
    overwatch.left(game, e, here, there)                      # CF-OW-3
    was_engaged = game.engaged(there)
    enter(game, e, there, is_diagonal(direction))
    if game.at(there, 1 - side):                              # CF-MOVE-7: a step into enemy starts close assault
        e.stopped = True
        assault.start_by_move(game, e, there, was_engaged)
    overwatch.entered(game, e, there, here)                   # CF-OW-2/4


def enter(game, e, there: int, diagonal: bool) -> None:
    """CF-MOVE-8: count the square entered, the diagonal, the rubble; clear the 'not moved since' DMs."""
    e.square = there
    e.entered += 1
    e.diagonal = e.diagonal or diagonal
    e.rubble_steps += game.rubble[there]
    e.fired_still = e.seen_still = False                      # CF-SRCH-14/15: it has moved
    if ends_movement(game, there):
        e.stopped = True
    game.log.add("move", f"{e.name} moves to {game.name(there)}", e.side, square=there, rule="CF-MOVE-8",
                 **private(e.side))                           # CF-HID-3: enemy squares (reports: CF-HID-5..12)
