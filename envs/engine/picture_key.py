"""The key strip under a picture: a swatch (a colour or a symbol) and its meaning per item, packed into rows.

The renders draw with PIL's ImageDraw and hand it in (a scratch one on a 1-pixel image measures a strip before its
picture is made); this module only lays out, so the engine imports no drawing library."""
from __future__ import annotations

ROW_H, SWATCH, GAP = 16, 12, 14

#: one item: an RGB swatch (or a short symbol drawn as text) and its meaning
KeyItem = tuple


def item_width(item: KeyItem, measure) -> float:
    swatch, meaning = item
    mark = SWATCH if isinstance(swatch, tuple) else measure(swatch)
    return mark + 4 + measure(meaning) + GAP


def rows(items: list[KeyItem], width: int, measure) -> list[list[KeyItem]]:
    """Items packed left to right into rows no wider than `width`; `measure(text)` is the text's width in pixels."""
    packed: list[list[KeyItem]] = [[]]
    used = 0.0
    for item in items:
        w = item_width(item, measure)
        if packed[-1] and used + w > width:
            packed.append([])
            used = 0
        packed[-1].append(item)
        used += w
    return packed if packed[0] else []


def height(draw_, items: list[KeyItem], width: int) -> int:
    """The strip's height in pixels (a title row and the item rows) as `draw_` (a PIL ImageDraw) would draw it."""
    return ROW_H * (1 + len(rows(items, width - 12, draw_.textlength))) + 4 if items else 0


def draw(draw_, items: list[KeyItem], top: int, width: int, title: str = "Key", ink=(20, 20, 20)) -> None:
    """Draw the strip with `draw_` (a PIL ImageDraw) from `top` down."""
    draw_.text((6, top + 3), title, fill=ink)
    for r, row in enumerate(rows(items, width - 12, draw_.textlength)):
        x, y = 6, top + ROW_H * (r + 1) + 2
        for swatch, meaning in row:
            if isinstance(swatch, tuple):
                draw_.rectangle((x, y, x + SWATCH - 1, y + SWATCH - 2), fill=swatch, outline=(0, 0, 0))
                x += SWATCH + 4
            else:
                draw_.text((x, y + 1), swatch, fill=ink)
                x += draw_.textlength(swatch) + 4
            draw_.text((x, y + 1), meaning, fill=ink)
            x += draw_.textlength(meaning) + GAP
