"""Text and picture renderings of the map, as a side sees it (fog of war) or as the umpire does (side None).

A side's rendering shows only its own elements and its knowledge marks (CF-HID-1..13), so it is
unchanged by anything hidden from it (tests check this with hidden_variants).
"""
from __future__ import annotations

import numpy as np

from .config import COVER_NAMES
from .knowledge import NEVER
from .state import DEAD, SIDE_NAMES

TERRAIN_CHAR = {0: ".", 1: ":", 2: "T", 3: "W", 4: "B", 5: "C"}
COVER_COLOUR = {0: (222, 214, 190), 1: (180, 160, 130), 2: (90, 140, 80), 3: (170, 130, 90), 4: (160, 80, 60),
                5: (140, 140, 150)}
SIDE_COLOUR = ((40, 90, 200), (200, 50, 40))
#: the text map's symbols in words (the play screen and the picture's key strip show them)
LEGEND = (
    (".", "open"), (":", "cluttered"), ("T", "wood"), ("W", "wooden/metal building"), ("B", "brick building"),
    ("C", "concrete building"), ("b w c", "lower case: a building square with a doorway"), ("%", "rubble"),
    ("A D", "an attacker / defender element (a d: suppressed)"), ("2-9", "that many of your elements"),
    ("*", "engaged (close assault)"), ("!", "enemy spotted"), ("?", "enemy seen there lately"),
    ("o", "overwatch marker"), ("~", "smoke"),
    ("A1..C3", "search areas: 3x3 megasquares, column letter A.. and row 1.."),
)


def shown_elements(game, side):
    """The elements a rendering may show: all for the umpire, own only for a side (CF-HID-3)."""
    sides = (0, 1) if side is None else (side,)
    return [e for s in sides for e in game.elements[s] if e.square != DEAD]


def square_char(game, side, square: int, elements) -> str:
    here = [e for e in elements if e.square == square]
    if here:
        mark = "ad"[here[0].side] if all(e.suppressed for e in here) else "AD"[here[0].side]
        if side is None and len({e.side for e in here}) == 2:
            return "*"
        return mark if len(here) == 1 else str(len(here))
    engaged = game.engaged_squares()
    if square in engaged:
        return "*"
    if side is not None:
        k = game.knowledge[side]
        if square in k.spotted:
            return "!"
        if k.occupied[square] != NEVER and game.turn - k.occupied[square] <= 1:
            return "?"
    if any(e.overwatch == square for s in (0, 1) for e in game.elements[s]):
        return "o"
    if game.smoke[square]:
        return "~"
    ch = TERRAIN_CHAR[game.cover[square]]
    if game.board.building[square] >= 0 and game.door[square] == 1:
        ch = ch.lower()
    return "%" if game.rubble[square] and ch == ":" else ch


def status_line(game, side) -> str:
    who = "umpire" if side is None else SIDE_NAMES[side]
    deciding = game.current_side
    pools = " ".join(f"{s.name}:{s.pool}AP/LR{s.lr}" for sd in ((0, 1) if side is None else (side,)) for s in game.sections[sd])
    outs = "".join(f" {SIDE_NAMES[s]} Out" for s in (0, 1) if game.outs[s])
    turn = f"Turn {game.turn}/{game.scenario.turns} {game.phase}{conditions_words(game)}"
    if deciding is not None and (side is None or deciding == side):
        turn += f", {SIDE_NAMES[deciding]} decides {game.decision[0]}"
    return f"{turn} [{who} view] {pools}{outs}"


def conditions_words(game) -> str:
    """CF-COND-1 / CF-HID-1: public conditions, when not day and clear."""
    c = game.conditions
    words = [w for w in (c["time"], c["weather"]) if w not in ("day", "clear")]
    if c["time"] == "night" and c["illuminated"]:
        words.append("lit " + " ".join(game.board.msq_names[m] for m in c["illuminated"]))
    return f" ({', '.join(words)})" if words else ""


def damage_line(game) -> str:
    """CF-HID-1 / CF-HID-9: building damage points are public; '#' marks blocked doorways (CF-BLD-4)."""
    hit = [f"{game.name(s)} {game.damage[s]}{'#' if game.door[s] == 2 else ''}"
           for s in range(game.board.size) if game.damage[s]]
    return "  damage: " + ", ".join(hit) if hit else ""


def text(game, side=None) -> str:
    """The map with column letters and row numbers, then a line per shown element."""
    board, elements = game.board, shown_elements(game, side)
    lines = [status_line(game, side), "    " + "".join(chr(ord("a") + x) for x in range(board.width))]
    for y in range(board.height):
        row = "".join(square_char(game, side, y * board.width + x, elements) for x in range(board.width))
        lines.append(f"{y + 1:>3} {row}")
    if damage_line(game):
        lines.append(damage_line(game))
    for e in elements:
        flags = "".join(f for f, on in (("S", e.suppressed), ("F", e.fired), ("OW", e.overwatch != DEAD),
                                        ("OOA", e.ooa)) if on)
        lines.append(f"  {e.name} ({e.row}{'+' + e.special if e.special else ''}) at {game.name(e.square)} "
                     f"AP {e.ap_spent} {flags}".rstrip())
    if game.winner is not None:
        lines.append("Game over: " + ("draw" if game.winner == 2 else f"{SIDE_NAMES[game.winner]} wins"))
    return "\n".join(lines)


CELL, HEADER, MARGIN, PANEL, GRID = 36, 40, 22, 190, (30, 40, 110)
PICTURE_KEY = [(COVER_COLOUR[c], name) for c, name in enumerate(("open", "cluttered", "wood", "wooden/metal bldg", "brick bldg",
                                                                 "concrete bldg"))]
PICTURE_KEY += [(SIDE_COLOUR[0], "attacker element"), (SIDE_COLOUR[1], "defender element"),
                (tuple(c // 2 for c in SIDE_COLOUR[0]), "darker: suppressed"), ((230, 180, 20), "objective (corner)"),
                ((250, 250, 250), "doorway (bottom bar)"), ((60, 40, 30), "blocked doorway"), ((240, 160, 0), "engaged (border)"),
                ("X", "overwatch"), ("%", "rubble"), ("3", "damage points"), ("?", "enemy seen"), ("O", "smoke"),
                (GRID, "search areas: 3x3 megasquares, named at the top and right (A1...)")]


def picture_key(game=None) -> list:
    """The picture's key strip (the ruleset's `picture_key`): the same for every game."""
    return PICTURE_KEY


def rgb(game, side=None) -> np.ndarray:
    """A picture: terrain colours, doorways, damage, smoke, Engaged squares, overwatch markers, own (or all)
    elements labelled by name, knowledge marks, the search areas (megasquares, CF-GRID-2) with their names; square
    IDs on the edges, a list of the shown elements at the right and a key strip under it."""
    from PIL import Image, ImageDraw

    from ..engine import picture_key as key_strip

    board, elements = game.board, shown_elements(game, side)
    width, board_h = MARGIN + CELL * board.width + PANEL, HEADER + CELL * board.height + 4
    items = picture_key(game)
    image = Image.new("RGB", (width, board_h + key_strip.height(ImageDraw.Draw(Image.new("RGB", (1, 1))), items, width)),
                      (245, 245, 245))
    draw = ImageDraw.Draw(image)
    draw.text((4, 2), status_line(game, side)[:140], fill=(0, 0, 0))
    for x in range(board.width):
        draw.text((MARGIN + x * CELL + 15, HEADER - 12), chr(ord("a") + x), fill=(60, 60, 60))
    for y in range(board.height):
        draw.text((3, HEADER + y * CELL + 12), str(y + 1), fill=(60, 60, 60))
    engaged = game.engaged_squares()
    for square in range(board.size):
        x, y = board.xy(square)
        box = (MARGIN + x * CELL, HEADER + y * CELL, MARGIN + x * CELL + CELL - 1, HEADER + y * CELL + CELL - 1)
        draw.rectangle(box, fill=COVER_COLOUR[game.cover[square]], outline=(120, 120, 120))
        draw_marks(draw, game, side, square, box, engaged)
    draw_search_areas(draw, board)
    for square in {e.square for e in elements}:
        draw_elements(draw, game, [e for e in elements if e.square == square], board.xy(square))
    draw_panel(draw, game, elements, MARGIN + CELL * board.width + 22)
    key_strip.draw(draw, items, board_h, width)
    return np.asarray(image, dtype=np.uint8).copy()


def draw_search_areas(draw, board) -> None:
    """CF-GRID-2: the megasquares searches are made in, 3x3 squares each, outlined and named (column letter at the top,
    row number at the right)."""
    right = MARGIN + CELL * board.width
    for m, name in enumerate(board.msq_names):
        mx, my = m % board.mwidth, m // board.mwidth
        left, top = MARGIN + 3 * mx * CELL, HEADER + 3 * my * CELL
        draw.rectangle((left, top, min(left + 3 * CELL, right) - 1, min(top + 3 * CELL, HEADER + CELL * board.height) - 1),
                       outline=GRID, width=2)
        if my == 0:
            draw.text((left + 3 * CELL // 2 - 3, HEADER - 26), name[0], fill=GRID)
        if mx == board.mwidth - 1:
            draw.text((right + 4, top + 3 * CELL // 2 - 6), name[1:], fill=GRID)


def draw_panel(draw, game, elements, left: int) -> None:
    """One line per shown element: name, row, square, status."""
    for i, e in enumerate(elements):
        status = "supp" if e.suppressed else "ok"
        text = f"{e.name} {e.row}{'+' + e.special if e.special else ''} {game.name(e.square)} {status}"
        draw.text((left, HEADER + 2 + 14 * i), text, fill=SIDE_COLOUR[e.side])


def draw_marks(draw, game, side, square: int, box, engaged) -> None:
    x0, y0, x1, y1 = box
    if game.board.building[square] >= 0 and game.door[square] == 1:
        draw.rectangle((x0 + 11, y1 - 5, x1 - 11, y1), fill=(250, 250, 250))
    if game.board.building[square] >= 0 and game.door[square] == 2:
        draw.rectangle((x0 + 11, y1 - 5, x1 - 11, y1), fill=(60, 40, 30))     # CF-BLD-4: a blocked way in
    if game.damage[square]:
        draw.text((x1 - 9, y1 - 12), str(min(game.damage[square], 9)), fill=(250, 250, 250))   # CF-BLD-1
    if game.rubble[square]:
        draw.text((x0 + 1, y1 - 12), "%", fill=(90, 70, 50))
    if game.board.xy(square) in game.scenario.objectives:
        draw.rectangle((x0 + 2, y0 + 2, x0 + 8, y0 + 8), fill=(230, 180, 20), outline=(0, 0, 0))   # CF-SCN-3
    if game.smoke[square]:
        draw.ellipse((x0 + 3, y0 + 3, x1 - 3, y1 - 3), outline=(110, 110, 110), width=3)
    if square in engaged:
        draw.rectangle(box, outline=(240, 160, 0), width=3)
    if any(e.overwatch == square for s in (0, 1) for e in game.elements[s]):
        draw.line((x0, y0, x1, y1), fill=(0, 0, 0), width=1)
        draw.line((x0, y1, x1, y0), fill=(0, 0, 0), width=1)
    if side is not None:
        k = game.knowledge[side]
        if square in k.spotted or (k.occupied[square] != NEVER and game.turn - k.occupied[square] <= 1):
            draw.text((x1 - 9, y0 + 1), "?", fill=SIDE_COLOUR[1 - side])


def draw_elements(draw, game, here, xy) -> None:
    """Each element as a tag with its name, as on the text map's list (darker: suppressed); a fourth and more as '+n'."""
    x, y = xy
    left = MARGIN + x * CELL + 10              # the square's left edge keeps its rubble and objective marks
    for i, e in enumerate(here[:3]):
        top = HEADER + y * CELL + 2 + 11 * i
        colour = tuple(c // 2 for c in SIDE_COLOUR[e.side]) if e.suppressed else SIDE_COLOUR[e.side]
        draw.rectangle((left, top, left + 15, top + 10), fill=colour)
        draw.text((left + 2, top - 1), e.name, fill=(255, 255, 255))
    if len(here) > 3:
        draw.text((left + 17, HEADER + y * CELL + 24), f"+{len(here) - 3}", fill=(0, 0, 0))


__all__ = ["COVER_NAMES"]
