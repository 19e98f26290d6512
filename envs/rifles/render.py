"""Text and picture renderings of the Map Card, as a side sees it (None: the umpire)."""
from __future__ import annotations

import numpy as np

from .config import STRIPES
from .state import ENEMY

KIND_MARK = {"ms": "MS", "building": "BLD", "rubble": "%%%", "wall": "===", "woods": "^^^"}
KIND_COLOUR = {"open": (206, 196, 160), "ms": (120, 110, 100), "building": (150, 140, 128), "rubble": (170, 150, 120),
               "wall": (185, 175, 150), "woods": (90, 140, 80)}
SIDE_COLOUR = ((40, 90, 200), (200, 50, 40))


def shown(game, side, group) -> bool:
    """RB-HID-3: the enemy does not see where a sewer group is."""
    return group.on_map and not (side == ENEMY and group.side == 0 and group.in_sewer)


def group_text(game, group) -> str:
    ok = sum(not u.suppressed for u in group.units)
    flags = ("@" + str(group.level) if group.level else "") + ("~sewer" if group.in_sewer else "") + ("*CC" if group.engaged else "")
    return f"{group.name}[{ok}/{len(group.units)}]{flags}"


def text(game, side=None) -> str:
    """The map, Stripe 6 at the top, with groups at their places and markers at the right."""
    lines = [f"Turn {game.turn}/{game.scenario.turns}  phase {game.phase}  AP {game.ap}  BAP {game.bap}  Recon {game.recon}"]
    groups = [g for g in game.players + game.enemies if shown(game, side, g)]
    for stripe in range(STRIPES, 0, -1):
        cells = []
        for place, f in enumerate(game.places[stripe]):
            here = " ".join(group_text(game, g) for g in groups if g.stripe == stripe and g.place == place)
            name = "Open" if f is None else f"{f.fid} {KIND_MARK[f.kind]}{' sealed' if f.sealed else ''}"
            cells.append(f"[{name}{': ' + here if here else ''}]")
        markers = " ".join(m.name for m in game.markers if m is not None and m.stripe == stripe)
        sewer = " (S)" if stripe in game.scenario.sewer_stripes else ""
        lines.append(f" S{stripe} | {' '.join(cells)}{sewer} | {markers}")
    if game.outcome is not None:
        lines.append("Game over: " + ("player wins" if game.outcome > 0 else "player loses"))
    return "\n".join(lines)


CELL_W, CELL_H = 120, 60


def rgb(game, side=None) -> np.ndarray:
    """A picture: one row per Stripe (6 at the top), one box per place, a dot per unit (blue player, red enemy)."""
    img = np.full((CELL_H * STRIPES, CELL_W * 5, 3), 235, dtype=np.uint8)
    groups = [g for g in game.players + game.enemies if shown(game, side, g)]
    for stripe in range(1, STRIPES + 1):
        top = (STRIPES - stripe) * CELL_H
        for place, f in enumerate(game.places[stripe]):
            left = place * CELL_W
            img[top + 2:top + CELL_H - 2, left + 2:left + CELL_W - 2] = KIND_COLOUR["open" if f is None else f.kind]
            if f is not None and f.sealed:
                img[top + 2:top + 6, left + 2:left + CELL_W - 2] = (0, 0, 0)
            draw_units(img, [g for g in groups if g.stripe == stripe and g.place == place], top, left)
        for i, m in enumerate(m for m in game.markers if m is not None and m.stripe == stripe):
            x = CELL_W * 4 + 10 + i * 18
            img[top + 20:top + 36, x:x + 14] = (60, 60, 60)
    return img


def draw_units(img, groups, top: int, left: int) -> None:
    x = left + 8
    for group in groups:
        y = top + (14 if group.level else 34)
        for unit in group.units:
            colour = np.array(SIDE_COLOUR[group.side]) // (2 if unit.suppressed else 1)
            img[y:y + 10, x:x + 8] = colour
            x += 10
        x += 6
