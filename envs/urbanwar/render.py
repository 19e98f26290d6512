"""Text map and rgb picture of a side's view: terrain, models with wounds and panic, face-up orders, and face-down
orders only for their owner (UW-HID-2); None = the umpire's view."""
from __future__ import annotations

import numpy as np

from . import public
from .config import SIZE

PX = 20
COLOURS = {".": (200, 200, 190), ":": (170, 160, 140), "D": (150, 110, 70), "#": (60, 60, 60), "W": (120, 170, 210),
           "=": (140, 140, 150), "%": (160, 130, 90)}
SIDE_COLOURS = ((30, 80, 220), (220, 40, 40))
#: the text map's symbols in words (the play screen and the picture's key strip show them)
LEGEND = (
    (".", "open"), (":", "building floor"), ("#", "wall"), ("D", "door"), ("W", "window"), ("=", "low wall"),
    ("%", "debris"), ("A B", "side A / B model (a b: panicked), named after its row, left to right"),
    ("order[?]", "face-down order; O Overwatch, S Snap-fire once face up"),
)


def order_mark(game, m, side) -> str:
    seen = game.orders.seen_by(side, m.idx) if side is None else public.order_seen_by(game, side, m)   # UW-HID-4
    if seen is None:
        return "?" if game.orders.is_face_down(m.idx) else " "
    return "O" if seen == 1 else "S"


#: the text map's width: a row's model names stop here (the play screen is 80 columns)
WIDTH = 80


def row_names(game, y: int) -> str:
    """The IDs of the models on row `y`, left to right, after the row: one character a cell leaves no room for an
    ID on the map, and these are the names the lists, the choices and the events use. Public, like the models'
    places; never their face-down orders (UW-HID-2). What does not fit in 80 columns is counted (`+2`)."""
    ids = [m.id for m in sorted((m for m in game.models if m.placed and m.cell // SIZE == y), key=lambda m: m.cell)]
    room = WIDTH - 3 - SIZE - 2
    for shown in range(len(ids), -1, -1):            # as many as fit with the count of the rest
        names = " ".join(ids[:shown]) + (f" +{len(ids) - shown}" if shown < len(ids) else "")
        if len(names) <= room:
            return f"  {names.strip()}" if ids else ""
    return ""


def text(game, side) -> str:
    rows = [list(r) for r in game.board.rows]
    for m in game.models:
        if m.placed:
            rows[m.cell // SIZE][m.cell % SIZE] = ("a" if m.side == 0 else "b") if m.panic else ("A" if m.side == 0 else "B")
    lines = [f"Urban War, turn {game.turn}, view of {'umpire' if side is None else game.scenario.sides[side].name}"]
    # x along the top (tens, then units) and y down the side, as the lists and the move choices name cells: (x,y)
    lines.append("   " + "".join(str(x // 10) if x % 10 == 0 and x else " " for x in range(SIZE)).rstrip())
    lines.append("   " + "".join(str(x % 10) for x in range(SIZE)))
    lines += [f"{y:>2} " + "".join(r) + row_names(game, y) for y, r in enumerate(rows)]
    for m in game.models:
        if m.placed:
            lines.append(f"{m.id} ({m.cell % SIZE},{m.cell // SIZE}) W{m.w}/{m.profile.W}{' panic' if m.panic else ''}"
                         f" order[{order_mark(game, m, side)}]{' done' if m.activated else ''}")
    return "\n".join(lines)


PICTURE_KEY = [(COLOURS["."], "open"), (COLOURS[":"], "building floor"), (COLOURS["#"], "wall"), (COLOURS["D"], "door"),
               (COLOURS["W"], "window"), (COLOURS["="], "low wall"), (COLOURS["%"], "debris"), (SIDE_COLOURS[0], "side A model"),
               (SIDE_COLOURS[1], "side B model"), ((0, 255, 0), "left bar: wounds left"), ((255, 255, 0), "bottom left: panicked"),
               ((128, 128, 128), "bottom right: face-down order"), ((255, 255, 255), "Overwatch"), ((0, 0, 0), "Snap-fire")]


def picture_key(game=None) -> list:
    """The picture's key strip (the ruleset's `picture_key`): the same for every game."""
    return PICTURE_KEY


def rgb(game, side) -> np.ndarray:
    """The board with each model's ID on it (as the text map's list names it) and a key strip under it."""
    from PIL import Image, ImageDraw

    from ..engine import picture_key as key_strip

    board = Image.fromarray(board_rgb(game, side))
    items = picture_key(game)
    strip = key_strip.height(ImageDraw.Draw(Image.new("RGB", (1, 1))), items, board.width)
    image = Image.new("RGB", (board.width, board.height + strip), (245, 245, 245))
    image.paste(board, (0, 0))
    draw = ImageDraw.Draw(image)
    for m in game.models:
        if m.placed:
            y, x = divmod(m.cell, SIZE)
            draw.text((x * PX + 4, y * PX + 1), m.id[-2:], fill=(255, 255, 255))
    key_strip.draw(draw, items, board.height, board.width)
    return np.asarray(image, dtype=np.uint8).copy()


def board_rgb(game, side) -> np.ndarray:
    """The board alone: terrain, models with wounds, panic and the orders `side` may see (UW-HID-2)."""
    img = np.zeros((SIZE * PX, SIZE * PX, 3), dtype=np.uint8)
    for i, ch in enumerate(game.board.chars):
        y, x = divmod(i, SIZE)
        img[y * PX:(y + 1) * PX, x * PX:(x + 1) * PX] = COLOURS.get(ch, (255, 0, 255))
    for m in game.models:
        if not m.placed:
            continue
        y, x = divmod(m.cell, SIZE)
        block = img[y * PX:(y + 1) * PX, x * PX:(x + 1) * PX]
        block[1:-1, 1:-1] = SIDE_COLOURS[m.side]
        block[1:1 + max(1, (PX - 2) * m.w // m.profile.W), 1] = (0, 255, 0)      # wounds bar
        if m.panic:                                   # bottom left; the ID is written across the top
            block[-6:-1, 3:8] = (255, 255, 0)
        mark = order_mark(game, m, side)
        if mark != " ":                               # bottom right
            block[-6:-1, -6:-1] = {"O": (255, 255, 255), "S": (0, 0, 0), "?": (128, 128, 128)}[mark]
    return img
