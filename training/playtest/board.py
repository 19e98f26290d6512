"""Where units are, for casualty telemetry and the heat map: what the ruleset declares through the contract
(envs/engine/contract.py: `live_units`, `cell_box`, `cell_name`), read the same way for every ruleset.

A casualty is a unit alive before a decision and gone after it; it is placed where it stood before. A ruleset
whose `live_units` is None does not say where its units are: its casualties are not measured (never zeros).
"""
from __future__ import annotations

from dataclasses import dataclass

#: unit key -> (side, unit type, cell); a cell is (row, column) of the board picture's grid (contract.LiveUnit)
Units = dict


def units(rs, state) -> Units | None:
    """The live units of `state` as the ruleset declares them; None when it declares none."""
    return rs.live_units(state)


def measures_casualties(rs, state) -> bool:
    """Whether the ruleset says where its units are (its `live_units` is not None)."""
    return units(rs, state) is not None


@dataclass(frozen=True)
class BoardPicture:
    """The baseline game's board picture, where each cell lies on it, and how the game names a cell."""

    picture: object          # (H, W, 3) uint8, or None where cells are not located on the picture
    box: object              # cell -> (x0, y0, x1, y1) pixels
    label: object            # cell -> its name in the game's words


def board_picture(rs, state) -> BoardPicture:
    """The picture of `state` (None if the ruleset does not locate cells on it) with the ruleset's cell geometry."""
    label = lambda cell: rs.cell_name(state, cell)   # noqa: E731
    live = units(rs, state)
    probe = next(iter(live.values())).cell if live else (0, 0)
    if live is None or rs.cell_box(probe) is None:
        return BoardPicture(None, None, label)
    return BoardPicture(state.render_rgb(None), rs.cell_box, label)
