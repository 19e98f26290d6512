"""Building damage (CF-BLD-1..8): damage points on building squares lower their cover, block their doorways
and turn neighbouring squares to rubble."""
from __future__ import annotations

from envs.engine.grid import DIRECTIONS4, euclidean_sq

from .config import CLUTTERED, COVER_NAMES, WOOD


def hit_square(game, square: int, result: str | None, firer_square: int) -> None:
    """CF-BLD-1: each S or K on a building square adds 1 damage point, occupied or not.

    The one hook every fire calls, once per square it judged: kinetic fire with its result judged with the
    FS before CF-FIRE-6/7 (CF-BLD-8: the damage must not depend on who is inside), HE for its impact and
    each blast square (CF-HE-6/8). `result` is "S", "K" or None; `firer_square` orders the rubble
    neighbours (CF-BLD-2). Everything it changes is public (CF-HID-1, CF-HID-9).
    """
    if result is None or game.board.building[square] < 0:
        return
    before = game.damage[square]
    game.damage[square] = after = before + 1
    game.map_changed()
    game.log.add("damage", f"{game.name(square)} takes damage ({after} points)", None, square=square, points=after, rule="CF-BLD-1")
    for points, cover_down, rubble, blocks in game.tables.damage_thresholds:
        if before < points <= after:
            reach_threshold(game, square, cover_down, rubble, blocks, firer_square)


def reach_threshold(game, square: int, cover_down: int, rubble: int, blocks: bool, firer_square: int) -> None:
    """One threshold of the table: CF-BLD-3 (2 points: 1st rubble neighbour), CF-BLD-4 (4 points: cover one class
    lower, doorways and breaches blocked, 2nd rubble neighbour), CF-BLD-5 (8 points: cover two classes below the
    original, 3rd rubble neighbour); the cover steps of CF-BLD-7."""
    if cover_down:
        game.cover[square] = lowered_cover(game, square, cover_down)
        game.map_changed()
        game.log.add("cover", f"{game.name(square)} is knocked down to {COVER_NAMES[game.cover[square]]}", None,
                     square=square, rule="CF-BLD-7")
    if blocks and game.door[square] == 1:
        game.door[square] = 2                                          # CF-BLD-4: doorways and breaches blocked
        game.map_changed()
        game.log.add("blocked", f"the way into {game.name(square)} is blocked", None, square=square, rule="CF-BLD-4")
    neighbours = rubble_neighbours(game, square, firer_square)
    if rubble and len(neighbours) >= rubble:
        make_rubble(game, neighbours[rubble - 1])


def doors_blocked(game, square: int) -> bool:
    """CF-BLD-4: from the blocking threshold on, a square's doorways and breaches stay blocked."""
    return any(blocks and game.damage[square] >= points for points, _, _, blocks in game.tables.damage_thresholds)


def breach(game, square: int) -> bool:
    """CF-HE-13 with CF-BLD-4: a breach makes a doorway on a building square that has none; on a square
    already damaged to the blocking threshold it is blocked at once. True if the square changed."""
    if game.board.building[square] < 0 or game.door[square] != 0:
        return False
    game.door[square] = 2 if doors_blocked(game, square) else 1
    game.map_changed()
    return True


def lowered_cover(game, square: int, steps: int) -> int:
    """CF-BLD-7: Concrete -> Brick -> Wooden/Metal -> Cluttered -> Open, counted from the original cover."""
    chain = game.tables.damage_steps
    original = game.board.base_cover[square]
    start = chain.index(original) if original in chain else 0
    return chain[min(start + steps, len(chain) - 1)]


def rubble_neighbours(game, square: int, firer_square: int) -> list[int]:
    """CF-BLD-2: orthogonal non-building neighbours, nearest the firer first, ties clockwise from north."""
    board = game.board
    x, y = board.xy(square)
    found = []
    for order, (dx, dy) in enumerate(DIRECTIONS4):
        n = board.at(x + dx, y + dy)
        if n >= 0 and board.building[n] < 0:
            found.append((euclidean_sq(board.xy(n), board.xy(firer_square)), order, n))
    return [n for _, _, n in sorted(found)]


def make_rubble(game, square: int) -> None:
    """CF-BLD-3, CF-BLD-4, CF-BLD-5: the square becomes rubble (Cluttered, CF-TER-1); CF-BLD-6: elements in it
    are killed. A square that is rubble already does not become rubble again (nobody is killed). Wood keeps
    its cover class (the same CF-TAB-2 row as Cluttered) and still blocks LOS and ends movement (CF-TER-3,
    CF-MOVE-2)."""
    if game.rubble[square]:
        return
    game.rubble[square] = True
    if game.cover[square] != WOOD:
        game.cover[square] = CLUTTERED
    game.map_changed()
    game.log.add("rubble", f"{game.name(square)} becomes rubble", None, square=square, rule="CF-BLD-3")
    for side in (0, 1):
        for e in game.at(square, side):
            game.kill(e, "buried as the square became rubble")       # CF-BLD-6
