"""Text and picture renderings of the Map Card, as a side sees it (None: the umpire)."""
from __future__ import annotations

import numpy as np

from .config import STRIPES
from .state import ENEMY

KIND_MARK = {"ms": "MS", "building": "BLD", "rubble": "%%%", "wall": "===", "woods": "^^^"}
KIND_COLOUR = {"open": (206, 196, 160), "ms": (120, 110, 100), "building": (150, 140, 128), "rubble": (170, 150, 120),
               "wall": (185, 175, 150), "woods": (90, 140, 80)}
SIDE_COLOUR = ((40, 90, 200), (200, 50, 40))
#: the text map's symbols in words (the play screen and the picture's key strip show them)
LEGEND = (
    ("S6..S1", "Stripes, 6 the farthest; the player enters at Stripe 1"),
    ("[...]", "a place on the Stripe: Open ground or a feature (its ID, e.g. 4b)"),
    ("MS", "megasquare"), ("BLD", "building"), ("%%%", "rubble"), ("===", "wall"), ("^^^", "woods"),
    ("sealed", "a building with no way in but a breach"),
    ("(S)", "a sewer runs under this Stripe"),
    ("A[3/4]", "group A: 3 of its 4 units without a result"),
    ("@1", "on the First Floor"), ("~sewer", "moving in the sewer"), ("*CC", "engaged in close combat"),
    ("E1 ...", "right of the bar: enemy markers, not yet revealed"),
)


def shown(game, side, group) -> bool:
    """RB-HID-3: the enemy does not see where a sewer group is."""
    return group.on_map and not (side == ENEMY and group.side == 0 and group.in_sewer)


def group_text(game, group) -> str:
    ok = sum(u.hits == 0 for u in group.units)      # units without a result (a wounded Darkness unit is not OK here)
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


CELL_W, CELL_H, HEADER = 150, 64, 20


def rgb(game, side=None) -> np.ndarray:
    """A picture: one row per Stripe (6 at the top), one box per place, a square per unit
    (blue player, red enemy, darker with a result: suppressed, SHAKEN or wounded; upper row = First Floor), grey markers
    at the right."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (CELL_W * 5, HEADER + CELL_H * STRIPES), (235, 235, 235))
    draw = ImageDraw.Draw(image)
    draw.text((4, 4), f"Turn {game.turn}/{game.scenario.turns}  {game.phase}  AP {game.ap}  BAP {game.bap}  Recon {game.recon}",
              fill=(0, 0, 0))
    groups = [g for g in game.players + game.enemies if shown(game, side, g)]
    for stripe in range(1, STRIPES + 1):
        top = HEADER + (STRIPES - stripe) * CELL_H
        for place, f in enumerate(game.places[stripe]):
            draw_place(draw, game, stripe, place, f, top, [g for g in groups if g.stripe == stripe and g.place == place])
        draw.text((CELL_W * 4 + 4, top + 4), f"S{stripe}" + (" (S)" if stripe in game.scenario.sewer_stripes else ""), fill=(0, 0, 0))
        for i, m in enumerate(m for m in game.markers if m is not None and m.stripe == stripe):
            x = CELL_W * 4 + 6 + i * 26
            draw.rectangle((x, top + 24, x + 22, top + 44), fill=(70, 70, 70))
            draw.text((x + 3, top + 28), m.name, fill=(255, 255, 255))
    return np.asarray(image, dtype=np.uint8).copy()


def draw_place(draw, game, stripe: int, place: int, f, top: int, groups) -> None:
    left = place * CELL_W
    kind = "open" if f is None else f.kind
    draw.rectangle((left + 2, top + 2, left + CELL_W - 3, top + CELL_H - 3), fill=KIND_COLOUR[kind],
                   outline=(0, 0, 0) if f is not None and f.sealed else None, width=3)
    draw.text((left + 6, top + 4), "Open" if f is None else f"{f.fid} {KIND_MARK[f.kind]}", fill=(20, 20, 20))
    x = left + 8
    for group in groups:
        y = top + (20 if group.level else 40)
        for unit in group.units:
            colour = tuple(c // (2 if unit.hits else 1) for c in SIDE_COLOUR[group.side])   # suppressed, SHAKEN or wounded
            draw.rectangle((x, y, x + 8, y + 10), fill=colour)
            x += 11
        draw.text((x, y), group.name, fill=(0, 0, 0))
        x += 8 + 7 * len(group.name)
