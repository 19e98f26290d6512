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


CELL_W, CELL_H, HEADER, BAND = 150, 64, 34, 14
NIGHT, NIGHT_INK, SIGHT, REACH = (28, 32, 58), (225, 225, 235), (240, 210, 60), (220, 60, 50)
PICTURE_KEY = [(KIND_COLOUR[k], name) for k, name in (("open", "Open"), ("ms", "MS megasquare"), ("building", "BLD building"),
                                                      ("rubble", "%%% rubble"), ("wall", "=== wall"), ("woods", "^^^ woods"))]
PICTURE_KEY += [(SIDE_COLOUR[0], "player unit"), (SIDE_COLOUR[1], "enemy unit"), (tuple(c // 2 for c in SIDE_COLOUR[0]),
                "darker: with a result"), ((70, 70, 70), "E1 marker, not revealed"),
                ("A[3/4]", "group, units OK / all; upper row: First Floor"), ("(S)", "sewer"), ("thick border", "sealed")]


def night(game) -> bool:
    """The Darkness module's games are fought at night (RD-GEN-1)."""
    return "darkness" in game.scenario.modules


def sight_stripes(groups) -> set:
    """RB-EM-2: markers within range 1 of a visible player group are revealed: the player sees that far."""
    return {s for g in groups if g.side == 0 for s in range(g.stripe - 1, g.stripe + 2)}


def reach_stripes(groups) -> set:
    """RD-AI-1: a Darkness group attacks player groups at range 1 or less: how far it reaches."""
    return {s for g in groups if g.side == 1 for s in range(g.stripe - 1, g.stripe + 2)}


def night_key(game) -> list:
    fire = "1 Stripe (RD-VAR-1)" if game.options["night_visibility"] else "weapon range"
    return [(SIGHT, "you see: markers revealed within 1 Stripe (RB-EM-2)"), (REACH, "their reach: attack at range 1 or less (RD-AI-1)"),
            ("night:", f"dim Stripes are out of your sight; fire reaches {fire}")]


def picture_key(game=None) -> list:
    """The picture's key strip (the ruleset's `picture_key`); at night (a Darkness game) with its night cue, which
    names the visibility the game's options set."""
    return PICTURE_KEY + (night_key(game) if game is not None and night(game) else [])


def rgb(game, side=None) -> np.ndarray:
    """A picture: one row per Stripe (6 at the top), one box per place, a square per unit and the group's label as on
    the text map; markers at the right; a key strip under it. At night (Darkness), dark ground, the Stripes out of the
    player's sight dimmed, a yellow band where the player sees and a red one where the Darkness groups reach."""
    from PIL import Image, ImageDraw

    from ..engine import picture_key as key_strip

    dark = night(game)
    items = picture_key(game)
    width, board_h = BAND + CELL_W * 5 + BAND, HEADER + CELL_H * STRIPES
    strip = key_strip.height(ImageDraw.Draw(Image.new("RGB", (1, 1))), items, width)
    image = Image.new("RGB", (width, board_h + strip), NIGHT if dark else (235, 235, 235))
    draw = ImageDraw.Draw(image)
    ink = NIGHT_INK if dark else (0, 0, 0)
    draw.text((6, 4), f"Turn {game.turn}/{game.scenario.turns}  {game.phase}  AP {game.ap}  BAP {game.bap}  Recon {game.recon}",
              fill=ink)
    draw.text((6, 18), game.scenario.name + ("  (night)" if dark else ""), fill=ink)
    groups = [g for g in game.players + game.enemies if shown(game, side, g)]
    seen, reach = sight_stripes(groups), reach_stripes(groups)
    for stripe in range(1, STRIPES + 1):
        top = HEADER + (STRIPES - stripe) * CELL_H
        dim = dark and stripe not in seen
        for place, f in enumerate(game.places[stripe]):
            draw_place(draw, game, (stripe, place), f, top, [g for g in groups if g.stripe == stripe and g.place == place], dim)
        draw_markers(draw, game, stripe, top, ink)
        if dark:
            night_bands(draw, stripe, top, stripe in seen, stripe in reach)
    key_strip.draw(draw, items, board_h, width, ink=ink)
    return np.asarray(image, dtype=np.uint8).copy()


def night_bands(draw, stripe: int, top: int, seen: bool, reached: bool) -> None:
    if seen:
        draw.rectangle((2, top + 2, BAND - 4, top + CELL_H - 3), fill=SIGHT)
    if reached:
        right = BAND + CELL_W * 5
        draw.rectangle((right + 2, top + 2, right + BAND - 4, top + CELL_H - 3), fill=REACH)


def draw_markers(draw, game, stripe: int, top: int, ink) -> None:
    left = BAND + CELL_W * 4
    draw.text((left + 4, top + 4), f"S{stripe}" + (" (S)" if stripe in game.scenario.sewer_stripes else ""), fill=ink)
    for i, m in enumerate(m for m in game.markers if m is not None and m.stripe == stripe):
        x = left + 6 + i * 26
        draw.rectangle((x, top + 24, x + 22, top + 44), fill=(70, 70, 70), outline=(150, 150, 150))
        draw.text((x + 3, top + 28), m.name, fill=(255, 255, 255))


def draw_place(draw, game, at: tuple, f, top: int, groups, dim: bool) -> None:
    left = BAND + at[1] * CELL_W
    kind = "open" if f is None else f.kind
    fill = tuple(c * 2 // 5 for c in KIND_COLOUR[kind]) if dim else KIND_COLOUR[kind]
    draw.rectangle((left + 2, top + 2, left + CELL_W - 3, top + CELL_H - 3), fill=fill,
                   outline=(0, 0, 0) if f is not None and f.sealed else None, width=3)
    draw.text((left + 6, top + 4), "Open" if f is None else f"{f.fid} {KIND_MARK[f.kind]}", fill=(200, 200, 210) if dim else (20, 20, 20))
    x = left + 8
    for group in groups:
        y = top + (20 if group.level else 40)
        for unit in group.units:
            if not unit.alive:
                continue
            colour = tuple(c // (2 if unit.hits else 1) for c in SIDE_COLOUR[group.side])   # suppressed, SHAKEN or wounded
            draw.rectangle((x, y, x + 8, y + 10), fill=colour)
            x += 11
        label = group_text(game, group)
        draw.text((x, y), label, fill=(0, 0, 0))
        x += 8 + 6 * len(label)
