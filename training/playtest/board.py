"""Where units are, for casualty telemetry and the heat map: per ruleset, the live units (type and board cell) and
where a cell lies on the ruleset's board picture (its `render_rgb`).

A casualty is a unit alive before a decision and gone after it; it is placed where it stood before.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

#: unit key -> (side, unit type, cell); a cell is (row, column) of the board picture's grid
Units = dict[tuple, tuple[int, str, tuple[int, int]]]


@dataclass(frozen=True)
class BoardGeometry:
    """How to find units and cells on one ruleset's board."""

    units: Callable[[object], Units]
    box: Callable[[tuple[int, int]], tuple[int, int, int, int]]   # cell -> (x0, y0, x1, y1) in picture pixels
    label: Callable[[object, tuple[int, int]], str]                # cell -> its name in the game's words


def _rifles_units(game) -> Units:
    found = {}
    for group in game.players + game.enemies:
        for unit in group.units:
            kind = unit.kind or unit.weapon + (" leader" if unit.leader else "")
            found[(group.side, unit.name)] = (group.side, kind, (group.stripe, group.place))
    return found


def _rifles_box(cell):
    from envs.rifles.render import CELL_H, CELL_W, HEADER, STRIPES

    stripe, place = cell
    top = HEADER + (STRIPES - stripe) * CELL_H   # as envs/rifles/render.py draws it: Stripe 6 at the top
    return place * CELL_W, top, place * CELL_W + CELL_W - 1, top + CELL_H - 1


def _rifles_label(game, cell) -> str:
    stripe, place = cell
    feature = game.places[stripe][place]
    return f"Stripe {stripe} " + ("Open" if feature is None else f"{feature.fid} ({feature.kind})")


def _cityfight_units(game) -> Units:
    from envs.cityfight.state import DEAD

    found = {}
    for side in (0, 1):
        for e in game.elements[side]:
            if e.square != DEAD:
                x, y = game.board.xy(e.square)
                found[(side, e.slot)] = (side, game.tables.elements[e.row].name, (y, x))
    return found


def _cityfight_box(cell):
    from envs.cityfight.render import CELL, HEADER, MARGIN

    y, x = cell
    return MARGIN + x * CELL, HEADER + y * CELL, MARGIN + x * CELL + CELL - 1, HEADER + y * CELL + CELL - 1


def _cityfight_label(game, cell) -> str:
    y, x = cell
    return game.name(y * game.board.width + x)


GEOMETRIES = {
    "rifles": BoardGeometry(_rifles_units, _rifles_box, _rifles_label),
    "cityfight": BoardGeometry(_cityfight_units, _cityfight_box, _cityfight_label),
}


def geometry(game) -> BoardGeometry | None:
    """The geometry of a game's ruleset, or None where casualties are not yet located (k47, urbanwar)."""
    package = type(game).__module__.split(".")   # envs.<ruleset>.game
    return GEOMETRIES.get(package[1]) if package[0] == "envs" and len(package) > 2 else None
