"""Smoke (CF-SMK-1..5): a Fire Special Weapon shot that fills a 3x3 block, stops sight (CF-LOS-4) and decays."""
from __future__ import annotations

import numpy as np

from envs.engine.events import private

from . import ap
from .flow import task
from .he import in_reach, landing, line_index  # noqa: F401
from .state import DEAD, Smoke
from .tasks import SmokeFire


def may_fire_smoke(game, e) -> bool:
    """CF-SMK-1/3: a smoke-capable weapon (scenario, CF-VAR-2) whose smoke has not ended; one fire a turn."""
    return (e.smoke and not e.smoke_spent and e.special is not None and not e.special_ooa and not e.fired
            and not e.suppressed and e.square != DEAD and not game.engaged(e.square))


def smoke_targets(game, e) -> np.ndarray | list:
    """CF-SMK-1: as Fire Special Weapon (2 AP), at a square in range and LOS."""
    if not may_fire_smoke(game, e) or not ap.can_spend(game, e, 2):
        return []
    w = game.tables.he_weapons[e.special]
    return in_reach(game, e, w.min_range, w.max_range)


def do_smoke(game, e, target: int) -> None:
    ap.spend(game, e, 2)
    game.push(SmokeFire(e.side, e.slot, target))


@task(SmokeFire)
def smoke_fire(game, side: int, slot: int, target: int) -> None:
    """CF-SMK-2/3: the landing square from the weapon's grid, no DMs; any double ends this weapon's smoke."""
    e = game.element(side, slot)
    e.fired, e.fired_still = True, True                           # CF-ACT-8
    w = game.tables.he_weapons[e.special]
    dice = game.dice.dice(2)
    centre = landing(game, e.square, target, w.grid, sum(dice), False)
    if dice[0] == dice[1]:
        e.smoke_spent = True
        game.log.add("smoke_ended", f"{e.name} has no more smoke", side, rule="CF-SMK-3", **private(side))   # CF-HID-3
    if centre < 0:
        game.log.add("smoke", "the smoke lands off the map", side, dice=tuple(dice), rule="CF-SMK-2")
        return
    place(game, centre)
    game.log.add("smoke", f"smoke lands on {game.name(centre)}", side, dice=tuple(dice), square=centre, rule="CF-SMK-2")


def block_squares(game, centre: int) -> list[tuple[int, int]]:
    """(keypad number 1..9, square) of the 3x3 block on the map; off-map parts are lost (CF-SMK-2)."""
    x, y = game.board.xy(centre)
    found = []
    for key in range(1, 10):
        dx, dy = (key - 1) % 3 - 1, (key - 1) // 3 - 1              # 1-3 north row, 4-6 middle, 7-9 south (CF-TAB-6)
        square = game.board.at(x + dx, y + dy)
        if square >= 0:
            found.append((key, square))
    return found


def place(game, centre: int) -> None:
    block = Smoke(centre, game.turn, [key for key, _ in block_squares(game, centre)])
    game.smoke_blocks.append(block)
    refresh(game)


def refresh(game) -> None:
    """Smoke per square = how many blocks cover it (CF-SMK-4: it blocks sight and counts for CF-REC-7)."""
    smoke = [0] * game.board.size
    for block in game.smoke_blocks:
        keys = set(block.left)
        for key, square in block_squares(game, block.centre):
            if key in keys:
                smoke[square] += 1
    game.smoke, game.smoke_count = smoke, sum(smoke)
    game.map_changed()


def decay(game) -> None:
    """CF-SMK-5 / CF-TAB-6: at the start of each later turn a block loses its next squares; gone after 5 turns."""
    if not game.smoke_blocks:
        return
    steps = game.tables.smoke_decay
    for block in game.smoke_blocks:
        age = game.turn - block.turn
        if 1 <= age <= len(steps):
            block.left = [k for k in block.left if k not in steps[age - 1]]
    game.smoke_blocks = [b for b in game.smoke_blocks if b.left and game.turn - b.turn < len(steps)]
    refresh(game)
