"""What one side may know, as an object for scripted agents and renderers (RB-HID-*).

The enemy's view leaves out player groups in the sewer (RB-HID-3); no view shows marker contents
(RB-HID-2) or the dice to come (RB-HID-4).
"""
from __future__ import annotations

from envs.engine.derived import PREFIX

from . import fire, geometry
from .state import ENEMY, PLAYER


class SideView:
    """Read-only queries a side's policy may ask."""

    def __init__(self, game, side: int) -> None:
        self._game, self.side = game, side

    @property
    def decision(self) -> tuple[str, dict]:
        kind, ctx = self._game.decision
        return kind, dict(ctx)

    @property
    def decision_kind(self) -> str:
        """The kind of decision asked (the decision's first part, without a copy of its context)."""
        return self._game.decision[0]

    @property
    def turn(self) -> int:
        return self._game.turn

    @property
    def ap(self) -> int:
        return self._game.ap

    @property
    def bap(self) -> int:
        return self._game.bap

    @property
    def recon(self) -> int:
        return self._game.recon

    @property
    def active(self):
        """The active player group; for the enemy, None while it is in the sewer (RB-HID-3)."""
        g = self._game
        return self.group(PLAYER, g.active) if g.active >= 0 else None

    @property
    def scenario(self):
        return self._game.scenario

    @property
    def tables(self):
        return self._game.tables

    @property
    def places(self):
        return self._game.places

    def own_groups(self) -> list:
        return [g for g in self._game.side_groups(self.side) if g.units and not g.exited]     # Group.on_map

    def foe_groups(self) -> list:
        """The other side's groups this side can see."""
        groups = self._game.side_groups(1 - self.side)
        if self.side == ENEMY:                                               # Group.on_map read as fields
            return [g for g in groups if g.units and not g.exited and not g.in_sewer]
        return [g for g in groups if g.units and not g.exited]

    def group(self, side: int, slot: int):
        group = self._game.group(side, slot)
        if side == PLAYER and self.side == ENEMY and group.in_sewer:
            return None
        return group

    def markers(self) -> list:
        return [(m.slot, m.stripe) for m in self._game.markers if m is not None]

    def demolition_pending(self, group) -> bool:
        """Whether the group has a demolition charge that failed to detonate (RU-DC-4: it may retry or take it back)."""
        return group.gid in self._game.demo

    def marker_on(self, stripe: int) -> bool:
        """Whether a marker lies on the Stripe (markers() holds one with it)."""
        return any(m is not None and m.stripe == stripe for m in self._game.markers)

    def distance(self, a, b) -> int:
        return geometry.group_distance(self._game, a, b)

    def priority_rank(self, stripe: int, place: int) -> int:
        return geometry.priority_rank(self._game, stripe, place, self.side)

    def kind_at(self, stripe: int, place: int) -> str:
        return geometry.kind_at(self._game, stripe, place)

    def target_number(self, firer, target, weapon_name: str) -> int:
        return fire.target_number(self._game, firer.position, target.position, self.tables.weapons[weapon_name])

    def best_target_number(self, firer, target, weapon_names, default: int = 7) -> int:
        """The lowest target_number over the weapons named; `default` when none is."""
        weapons = [self.tables.weapons[name] for name in weapon_names]
        return fire.best_target_number(self._game, firer.position, target.position, weapons, default)

    def lowest_tn(self, firer, target, names=None, default: int = 7) -> int:
        """The lowest TN among the firer's shooters at the target (only the units named, when given), `default` when
        none can fire."""
        units = None if names is None else [u for u in firer.units if u.name in names]
        return fire.lowest_tn(self._game, firer, target, units, default)

    def shooters(self, firer, target) -> list:
        return fire.shooters(self._game, firer, target)

    def feature(self, fid: str):
        return self._game.feature_by_id(fid)

    def order_table(self) -> tuple:
        """The enemy's order table and the posture added to its d6 (RB-AI-4, or RD-AI-2 in the Darkness)."""
        return self._game.module.order_table(self._game)


#: where each side's view is kept on the game (a view holds nothing but the game and the side, so one serves every
#: decision; envs.engine.derived: a restored or cloned game makes its own)
VIEW_KEYS = tuple(f"{PREFIX}rifles_view_{side}" for side in (0, 1))


def view(game, side: int) -> SideView:
    kept = game.__dict__.get(VIEW_KEYS[side])
    if kept is None:
        kept = game.__dict__[VIEW_KEYS[side]] = SideView(game, side)
    return kept
