"""What one side may know (KC-HID-1..5, KC-HID-7): a public copy of the position, for the scripted player
and the renderers. It carries the same attributes the rule functions read (`board`, `units`, `section_state`,
`tables`, `options`), so the scripted player measures with the rules' own geometry (KC-AI-1)."""
from __future__ import annotations

from dataclasses import dataclass

from . import hidden
from .board import centre


@dataclass
class View:
    side: int
    board: object
    tables: object
    options: dict
    units: list
    section_state: list
    bag: tuple
    turn: int
    decision: tuple | None        # (kind, ctx) when this side decides, else None
    ranging: dict
    scenario: object

    def living(self):
        return [u for u in self.units if u.alive]

    def point_of(self, unit):
        if unit.cell is not None:
            return centre(unit.cell)
        s = self.board.sections[unit.section]
        return ((s.x0 + s.x1 + 1) / 2, (s.y0 + s.y1 + 1) / 2)


def view(game, side: int) -> View:
    decision = None
    if game.decision is not None and game.decision[1]["side"] == side:
        decision = (game.decision[0], dict(game.decision[1]))
    units = [u.copy() if hidden.known_to(u, side) else hidden.stand_in(u) for u in game.units]   # KC-HID-9
    return View(side, game.board, game.tables, dict(game.options), units,
                list(game.section_state), tuple(game.bag.counts), game.turn, decision,
                {k: list(v) for k, v in game.ranging.items()}, game.scenario)
