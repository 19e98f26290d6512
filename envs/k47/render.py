"""Two renderings of a side's view: a text map and an RGB picture (buildings with floors and occupants, openings,
burning and rubble, units with their pins and order dice)."""
from __future__ import annotations

import numpy as np

from . import geometry, hidden
from .board import BUILDING, BUNKER, BURNING, OPEN, RUBBLE, RUINED, SCRUB

TERRAIN_CHAR = {OPEN: ".", SCRUB: "s", RUBBLE: "r", BUILDING: "#", BUNKER: "K"}
PX = 28
COLOURS = {OPEN: (196, 186, 150), SCRUB: (120, 160, 90), RUBBLE: (140, 130, 120), BUILDING: (150, 90, 60),
           BUNKER: (110, 110, 110)}
SIDE_COLOURS = ((90, 110, 200), (200, 70, 60))
ORDER_COLOURS = {None: (255, 255, 255), "fire": (230, 50, 50), "advance": (60, 170, 60), "run": (240, 200, 40),
                 "ambush": (40, 40, 40), "rally": (60, 120, 230), "down": (140, 60, 160)}
#: the text map's symbols in words (the play screen and the picture's key strip show them)
LEGEND = (
    ("..", "open"), ("ss", "scrub"), ("rr", "rubble"), ("##", "building"), ("KK", "bunker"), ("^^", "burning"),
    ("A1 B2", "a unit by name (side A or B, its number)"), ("T1/floor 1", "in a building: see the unit list"),
)


def text(game, side: int | None) -> str:
    grid = []
    for y in range(game.board.height):
        row = []
        for x in range(game.board.width):
            kind = geometry.terrain_at(game, (x, y))
            sid = game.board.section_at((x, y))
            ch = TERRAIN_CHAR[kind]
            if sid is not None and game.section_state[sid] == BURNING:
                ch = "^"
            row.append(ch * 2)          # two characters a cell, so that a unit shows its whole name
        grid.append(row)
    for u in game.living():
        if u.cell is not None:
            grid[u.cell[1]][u.cell[0]] = u.name[:2].ljust(2)
    lines = [f"turn {game.turn}  bag A {game.bag.counts[0]} B {game.bag.counts[1]}  VP {game.vp[0]}-{game.vp[1]}"]
    # x along the top and y down the side, as the move choices name cells: (x, y)
    width = game.board.width
    lines.append("   " + "".join(f"{x // 10 if x % 10 == 0 and x else ' '} " for x in range(width)).rstrip())
    lines.append("   " + "".join(f"{x % 10} " for x in range(width)).rstrip())
    lines += [f"{y:>2} " + "".join(r) for y, r in enumerate(grid)]
    for u in game.units:
        where = f"({u.cell[0]},{u.cell[1]})" if u.cell is not None else \
            f"{game.board.sections[u.section].name}/floor {u.floor}" if u.section is not None else "-"
        strength = f"{len(u.models)} models, {u.pins} pins" if hidden.known_to(u, side) else "hidden occupant"  # KC-HID-9
        state = "destroyed" if not u.alive else f"{strength}, order {u.order or '-'}" + (" (kept)" if u.kept else "")
        lines.append(f"{u.name} [{game.scenario.side_names[u.side]}] {where}: {state}")
    for s in game.board.sections:
        lines.append(f"section {s.name} ({s.material}, {s.floors} floors): {game.section_state[s.index]}")
    return "\n".join(lines)


def board_rgb(game, side: int | None) -> np.ndarray:
    """The board alone: terrain, floors and their occupants, openings, units with their order die and pins."""
    b = game.board
    img = np.zeros((b.height * PX, b.width * PX, 3), dtype=np.uint8)
    for y in range(b.height):
        for x in range(b.width):
            colour = COLOURS[geometry.terrain_at(game, (x, y))]
            sid = b.section_at((x, y))
            if sid is not None and game.section_state[sid] == BURNING:
                colour = (240, 120, 30)
            img[y * PX:(y + 1) * PX, x * PX:(x + 1) * PX] = colour
            img[y * PX, x * PX:(x + 1) * PX] = (170, 160, 130)
    for s in b.sections:
        if game.section_state[s.index] == RUINED:
            continue
        for f in range(s.floors):        # floor bands along the section's west edge, occupant coloured
            occupant = geometry.unit_on_floor(game, s.index, f)
            colour = SIDE_COLOURS[occupant.side] if occupant else (230, 230, 230)
            y0 = (s.y1 + 1) * PX - (f + 1) * 8
            img[y0:y0 + 6, s.x0 * PX + 2:s.x0 * PX + 14] = colour
            if occupant is not None:
                pip(img, occupant, y0 - 1, s.x0 * PX + 16, hidden.known_to(occupant, side))
    for o in b.openings:
        if game.section_state[o.section] == RUINED:
            continue
        px, py = int(o.point[0] * PX), int(o.point[1] * PX)
        colour = {"door": (60, 40, 20), "window": (170, 220, 250), "slit": (20, 20, 20)}[o.kind]
        img[max(0, py - 2):py + 2, max(0, px - 2):px + 2] = colour
    for u in game.living():
        if u.cell is None:
            continue
        x0, y0 = u.cell[0] * PX, u.cell[1] * PX
        img[y0 + 3:y0 + PX - 3, x0 + 3:x0 + PX - 3] = SIDE_COLOURS[u.side]
        if u.vehicle:
            img[y0 + 7:y0 + PX - 7, x0 + 7:x0 + PX - 7] = (30, 30, 30)
        pip(img, u, y0 + 3, x0 + 3)
    return img


PICTURE_KEY = [(COLOURS[OPEN], "open"), (COLOURS[SCRUB], "scrub"), (COLOURS[RUBBLE], "rubble"), (COLOURS[BUILDING], "building"),
               (COLOURS[BUNKER], "bunker"), ((240, 120, 30), "burning"), (SIDE_COLOURS[0], "side A unit"),
               (SIDE_COLOURS[1], "side B unit"), ((30, 30, 30), "dark centre: vehicle"),
               ("west-edge bars:", "floors, coloured by who holds them"), ((60, 40, 20), "door"), ((170, 220, 250), "window"),
               ((20, 20, 20), "slit or pin (dots)")]
PICTURE_KEY += [(colour, f"order die: {order}") for order, colour in ORDER_COLOURS.items() if order is not None]


def picture_key(game=None) -> list:
    """The picture's key strip (the ruleset's `picture_key`): the same for every game."""
    return PICTURE_KEY


def rgb(game, side: int | None) -> np.ndarray:
    """The board with each unit's name on it (as on the text map) and a key strip under it."""
    from PIL import Image, ImageDraw

    from ..engine import picture_key as key_strip

    board = Image.fromarray(board_rgb(game, side))
    width = max(board.width, 640)
    items = picture_key(game)
    strip = key_strip.height(ImageDraw.Draw(Image.new("RGB", (1, 1))), items, width)
    image = Image.new("RGB", (width, board.height + strip), (245, 245, 245))
    image.paste(board, (0, 0))
    draw = ImageDraw.Draw(image)
    for u in game.living():
        if u.cell is not None:
            draw.text((u.cell[0] * PX + 9, u.cell[1] * PX + 12), u.name[:2], fill=(255, 255, 255))
    for s in game.board.sections:
        for f in range(s.floors if game.section_state[s.index] != RUINED else 0):
            occupant = geometry.unit_on_floor(game, s.index, f)
            if occupant is not None:     # beside its floor's bar and order die
                draw.text((s.x0 * PX + 22, (s.y1 + 1) * PX - (f + 1) * 8 - 5), occupant.name[:2], fill=(255, 255, 255))
    key_strip.draw(draw, items, board.height, width)
    return np.asarray(image, dtype=np.uint8).copy()


def pip(img, u, y, x, known: bool = True) -> None:
    """The order die (colour) and one dark dot per pin (up to 4; none shown for a hidden occupant, KC-HID-9)."""
    img[y:y + 4, x:x + 4] = ORDER_COLOURS.get(u.order, (255, 255, 255))
    for p in range(min(u.pins, 4) if known else 0):
        img[y + 5:y + 7, x + p * 3:x + p * 3 + 2] = (0, 0, 0)
