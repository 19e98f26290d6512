"""What one side may know, as an object for scripted agents and renderers (CF-HID-1..15).

A SideView exposes the side's own elements, its Knowledge, and the public state; never the enemy's
elements (CF-HID-3). The doctrine (agents/scripted/cityfight.py) reads only this.
"""
from __future__ import annotations

from . import ap, legal, movement, overwatch
from . import board as board_rules
from .state import DEAD


class SideView:
    """Read-only queries a side's policy may ask."""

    def __init__(self, game, side: int) -> None:
        self._game, self.side = game, side

    @property
    def decision(self) -> tuple[str, dict] | None:
        """The pending decision if it is this side's (CF-HID-4), else None."""
        g = self._game
        if g.decision is None or g.winner is not None or g.decision[1]["side"] != self.side:
            return None
        return g.decision[0], dict(g.decision[1])

    def same_game(self, other: SideView) -> bool:
        """`other` views the same game object for the same side (a doctrine's plan made at one decision may stand
        for the next one only within one game)."""
        return isinstance(other, SideView) and other._game is self._game and other.side == self.side

    @property
    def turn(self) -> int:
        return self._game.turn

    @property
    def turns(self) -> int:
        return self._game.scenario.turns

    @property
    def scenario(self):
        return self._game.scenario

    @property
    def tables(self):
        return self._game.tables

    @property
    def board(self):
        return self._game.board

    @property
    def knowledge(self):
        return self._game.knowledge[self.side]

    @property
    def options(self) -> dict:
        return dict(self._game.options)

    @property
    def outs(self) -> tuple[bool, bool]:
        return tuple(self._game.outs)

    def own_elements(self) -> list:
        """CF-HID-2: the side's own living elements."""
        return [e for e in self._game.elements[self.side] if e.square != DEAD]

    def element(self, slot: int):
        return self._game.elements[self.side][slot]

    def pool(self, e) -> int:
        return self._game.section_of(e).pool

    def section_leader(self, e) -> int:
        return self._game.section_of(e).leader

    def cover(self, square: int) -> int:
        return self._game.cover[square]

    def smoke(self, square: int) -> bool:
        return bool(self._game.smoke[square])

    def rubble(self, square: int) -> bool:
        return bool(self._game.rubble[square])

    def engaged_squares(self) -> set[int]:
        """CF-AUTO-1: public."""
        return self._game.engaged_squares()

    def overwatch_markers(self, side: int) -> list[int]:
        """CF-HID-1: public markers of either side."""
        return overwatch.markers(self._game, side)

    def sight(self, a: int, b: int) -> bool:
        return board_rules.sight(self._game, a, b)

    def objectives(self) -> list[int]:
        return [self._game.board.at(*xy) for xy in self._game.scenario.objectives]

    def chokepoints(self) -> list[int]:
        return [self._game.board.at(*xy) for xy in self._game.scenario.chokepoints]

    def own_at(self, square: int) -> list:
        return [e for e in self.own_elements() if e.square == square]

    def map_stamp(self) -> object:
        """A token renewed whenever the public map (cover, doorways, damage, rubble, smoke: CF-HID-1) is written, and
        only then (compare it with the last one read; it carries nothing else)."""
        return self._game.map_stamp

    def doors(self) -> tuple:
        """CF-HID-1: doorways, breaches and blocked doorways are public (0 none, 1 open, 2 blocked)."""
        return tuple(self._game.door)

    def smoke_blocks(self) -> list[tuple[int, int]]:
        """CF-HID-1: the public smoke blocks as (centre square, turn it landed)."""
        return [(b.centre, b.turn) for b in self._game.smoke_blocks]

    def activations_taken(self) -> int:
        """How many of the side's own elements (living or not) have activated in this Action Phase."""
        return sum(1 for e in self._game.elements[self.side] if e.activated)

    def attacker_edge(self) -> str:
        """The map edge ('N', 'E', 'S' or 'W') nearest the attacker's starting squares (CF-HID-1: both starting
        orders of battle are public); 'S' when the scenario places none on this map."""
        board = self._game.board
        xy = [sq for sec in self._game.scenario.sections[0] for el in sec.elements for sq in el.squares[:1]
              if board.at(*sq) >= 0]
        if not xy:
            return "S"
        mx, my = sum(x for x, _ in xy) / len(xy), sum(y for _, y in xy) / len(xy)
        gaps = {"N": my, "S": board.height - 1 - my, "W": mx, "E": board.width - 1 - mx}
        return min("NESW", key=lambda edge: gaps[edge])

    def act_mask(self, e, runs: bool = True) -> list[int]:
        """The actions own element `e` would have if it acted now (legal.act_actions: CF-HID-14, observable only);
        without the runs if `runs` is False (cheaper, for doctrines that step)."""
        assert e.side == self.side, "a view answers only for its own elements"
        return legal.act_actions(self._game, e, runs)

    def act_set(self, e) -> legal.ActionsOf:
        """act_mask(e, runs=False) for `in` questions only, each family of actions built when first asked about."""
        assert e.side == self.side, "a view answers only for its own elements"
        return legal.ActionsOf(self._game, e)

    def can_spend(self, e, cost: int) -> bool:
        """CF-AP-9: own element `e` may still pay `cost` AP from its section's pool."""
        return e.side == self.side and ap.can_spend(self._game, e, cost)

    # Helpers for doctrines: public terrain facts only -------------------------------------------------------
    def walk_links(self) -> list[list[int]]:
        """Per square, the squares one step can reach over the terrain (CF-MOVE-3/4: doorways, breaches), ignoring
        AP, stacks, diagonals used and rubble."""
        return movement.walk_links(self._game)

    def ends_movement(self, square: int) -> bool:
        from .movement import ends_movement
        return ends_movement(self._game, square)

    def fire_range(self, e) -> int:
        return self._game.tables.elements[e.row].max_range

    def has_mg(self, e) -> bool:
        return self._game.tables.elements[e.row].mg
