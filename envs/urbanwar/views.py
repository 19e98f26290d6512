"""A side's read-only view for scripted agents and renderers: public state plus its own orders (UW-HID-1/2)."""
from __future__ import annotations

from types import MappingProxyType

from . import activation, public
from . import geometry as geo


class SideView:
    def __init__(self, game, side: int) -> None:
        self._game, self.side = game, side

    @property
    def decision(self):
        """The decision in progress if it is this side's (UW-HID-7: never the other side's)."""
        g = self._game
        if g.decision is None or g.current_side != self.side:
            return None
        return g.decision

    def order(self, m) -> int | None:
        """The order as this side sees it (None: none, or face down, not its own and not known Overwatch: UW-HID-4)."""
        return public.order_seen_by(self._game, self.side, m)

    @property
    def models(self):
        return self._game.models

    def own(self):
        return [m for m in self._game.side_models(self.side) if m.placed]

    def foes(self):
        return [m for m in self._game.side_models(1 - self.side) if m.placed]

    @property
    def model_changes(self) -> list[int]:
        """The models whose shown (public) fields changed, in turn (models.Model.changes): read-only."""
        return self._game.model_changes

    @property
    def act(self):
        return self._game.act

    @property
    def board(self):
        return self._game.board

    @property
    def tables(self):
        return self._game.tables

    # Public geometry the doctrine may ask about (UW-GRID-6: distances are public, measured at any time) -----------
    def los(self, a, b, a_cell=None, b_cell=None) -> bool:
        return self._game.los(a, b, a_cell, b_cell)

    def in_contact(self, m) -> bool:
        return self._game.in_contact(m)

    def touching(self, side: int):
        """The cells in base contact with a placed enemy of `side`, each with those enemies as bits (bit i: model i;
        game.touching, the public places), read-only."""
        return MappingProxyType(self._game.touching(side))

    def enemies_in_contact(self, m):
        return self._game.enemies_in_contact(m)

    def destinations(self, m, kind):
        return activation.destinations(self._game, m, kind)

    def targets(self, m, cell=None):
        return list(activation.legal_targets(self._game, m, cell))     # a copy: the game keeps its answer cached

    def targets_from(self, m, cells):
        """`targets(m, cell)` for each of `cells`, in order."""
        return activation.targets_from(self._game, m, cells)

    def priority(self, m, targets, cell=None):
        return activation.priority_targets(self._game, m, targets, cell)

    def cover(self, a_cell: int, b_cell: int) -> int:
        return geo.cover_class(self._game.board, a_cell, b_cell)

    def check_bonus(self, m, extra=0) -> int:
        from .command import check_bonus
        return check_bonus(self._game, m, extra)

    def deploy_cells(self):
        from .turns import deploy_cells
        return deploy_cells(self._game, self.side)

    @property
    def edges(self):
        return tuple(self._game.edges)
