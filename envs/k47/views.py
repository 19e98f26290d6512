"""What one side may know (KC-HID-1..5, KC-HID-7): a public copy of the position, for the scripted player
and the renderers. It carries the same attributes the rule functions read (`board`, `units`, `section_state`,
`tables`, `options`, `ground`), so the scripted player measures with the rules' own geometry (KC-AI-1).

A view's units are read-only snapshots (`Seen`), kept on the game and shared by its views while the unit they show
stays the same: a view costs a comparison per unit, not a copy, and a reader may tell an unchanged unit by identity
(the scripted player keeps its estimates per snapshot)."""
from __future__ import annotations

from dataclasses import dataclass

from envs.engine.derived import PREFIX

from . import hidden
from .board import centre
from .state import Unit

#: the game's snapshots, (stand-ins, known units): uid -> (the unit, what the snapshot shows, the snapshot); dropped
#: by `refresh` (derived.forget), and copied with the game (a copy's snapshots are its own and show its own units)
SEEN_KEY = f"{PREFIX}k47_seen"


class Seen(Unit):
    """A unit as a view shows it: read-only, since the same snapshot serves every view until the unit changes
    (`copy()` gives a Unit to change)."""

    def __setattr__(self, name, value):
        raise AttributeError(f"a view's unit is read-only (Unit.copy() one to change it): {name}")


def snapshot(unit: Unit) -> Seen:
    """A read-only copy of `unit` (its own list of models; the models are shared as in Unit.copy)."""
    seen = Seen.__new__(Seen)
    seen.__dict__.update(unit.__dict__)
    seen.__dict__["models"] = list(unit.models)
    return seen


def seen_units(game, side: int) -> list:
    """The snapshots of the game's units as `side` sees them, each made again only when what it shows may have
    changed: after a field of the unit was set (Unit.changes) or it lost a model; KC-HID-9: for a unit the side
    does not know, a stand-in, made again only when the public fields it shows changed (so that not even a new
    snapshot tells of a hidden change). One loop over the units: a view is taken at every decision."""
    kept = game.__dict__.get(SEEN_KEY)
    if kept is None:
        kept = game.__dict__[SEEN_KEY] = ({}, {})
    known_to, facts = hidden.known_to, hidden.stand_in_facts
    units = []
    for unit in game.units:
        known = known_to(unit, side)
        shown = (unit.changes, len(unit.models)) if known else facts(unit)
        mine = kept[known]
        last = mine.get(unit.uid)
        if last is None or last[0] is not unit or last[1] != shown:
            last = mine[unit.uid] = (unit, shown, snapshot(unit if known else hidden.stand_in(unit)))
        units.append(last[2])
    return units


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
    ground: str                   # its game's (geometry.ground): the same public key, hashed once

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
    return View(side, game.board, game.tables, dict(game.options), seen_units(game, side),
                list(game.section_state), tuple(game.bag.counts), game.turn, decision,
                {k: list(v) for k, v in game.ranging.items()}, game.scenario, game.ground)
