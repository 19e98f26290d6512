"""What differs between the Urban and the Darkness modules, behind one small interface.

The engine calls `game.module.<hook>`; everything else is written once (RD-GEN-1: standard rules apply).
"""
from __future__ import annotations

from . import closecombat, darkness, enemy, fire
from .tasks import DarkOrder, Order


class Urban:
    """Urban Warfare module (and the base system): RU-CC close combat, the RB-AI-4 order roll."""

    name = "urban"
    orders = enemy.ORDER_NAMES          # RB-AI-1: the orders an enemy agent may choose
    order_task = Order                  # the task that carries out a chosen order

    @staticmethod
    def hits_to_eliminate(game, unit) -> int:
        """RB-HIT-1: the second result eliminates."""
        return 2

    @staticmethod
    def suppressed_word(unit) -> str:
        return "suppressed"

    @staticmethod
    def fire_barred(game, unit, target, rng: int) -> bool:
        return False

    @staticmethod
    def cc_modifier(game, group, foe) -> int:
        return closecombat.round_modifier(game, group, foe)

    @staticmethod
    def veterans_possible(group) -> bool:
        return True

    @staticmethod
    def may_attack(game, group, target) -> bool:
        """RU-CC-15: an Engaged enemy only while the friendly group in that fight has not activated this turn."""
        return not (target.engaged and game.players[target.engaged_with].activated)

    @staticmethod
    def player_close_combat(game, group, target, bap: bool) -> None:
        closecombat.attack(game, group, target, bap)

    @staticmethod
    def cc_morale_drm(game, group, target, bap: bool) -> int:
        return closecombat.morale_drm(game, group, target, bap)

    @staticmethod
    def player_join(game, group, target) -> None:
        """RU-CC-15: the joiner merges into the (unactivated) friendly group, which fights a round."""
        closecombat.fight_round(game, closecombat.join(game, group, target), target)

    @staticmethod
    def order_table(game) -> tuple:
        """RB-AI-4: the order table and the posture added to its d6."""
        return game.tables.enemy_orders, game.scenario.posture

    @staticmethod
    def enemy_order_tasks(game, group) -> list:
        return enemy.roll_order(game, group)

    @staticmethod
    def enemy_fire(game, group, target, ctx) -> None:
        """RB-AI-7 / RB-AI-8: the enemy's Fire at the target it chose."""
        units = None
        if ctx["mode"] == "cover_fire":
            units = [u for u in fire.shooters(game, group, target) if u.name in ctx["units"]]
        fire.resolve(game, group, target, ctx["drm"], units=units)

    @staticmethod
    def enemy_close_combat(game, group, target, ctx) -> None:
        """RU-CC-17: no morale check; the enemy moves onto the target (a charge from range 1) and fights."""
        closecombat.engage(game, group, target)
        closecombat.fight_round(game, group, target)

    @staticmethod
    def can_free_attack(game, group, target) -> bool:
        """RU-EXP-4: a revealed enemy group with the mover in range."""
        return bool(fire.shooters(game, group, target, free=True))

    @staticmethod
    def free_attack(game, group, target, drm: int) -> None:
        """RU-EXP-4: an ordinary Fire outside the enemy's activation, not limited by RB-AP-2."""
        if fire.shooters(game, group, target, free=True):
            fire.resolve(game, group, target, drm, free=True)


class Darkness(Urban):
    """Rifles in the Darkness (RD-*): SHAKEN, Darkness types and traits, RD-CC close combat, the RD-AI doctrine."""

    name = "darkness"
    orders = ("attack", "advance")      # RD-AI-2 under RB-AI-1
    order_task = DarkOrder

    @staticmethod
    def hits_to_eliminate(game, unit) -> int:
        """RB-HIT-1 for soldiers (SHAKEN, then eliminated); RD-GEN-4 / RD-TRT-5 for Darkness units."""
        return 2 if unit.kind is None else darkness.results_to_eliminate(game, unit)

    @staticmethod
    def suppressed_word(unit) -> str:
        """RD-GEN-2: results on player units are SHAKEN; a Darkness unit is only wounded (RD-GEN-4)."""
        return "SHAKEN" if unit.kind is None else "wounded"

    @staticmethod
    def fire_barred(game, unit, target, rng: int) -> bool:
        return darkness.fire_barred(game, unit, target, rng)

    @staticmethod
    def cc_modifier(game, group, foe) -> int:
        return darkness.round_modifier(game, group, foe)

    @staticmethod
    def veterans_possible(group) -> bool:
        """RD-CC-7: Darkness units are never Veterans; RD-CC-8 takes over no RU-CC-16 promotion."""
        return False

    @staticmethod
    def may_attack(game, group, target) -> bool:
        """RD-CC-9: an Engaged Darkness group may always be joined (the round may wait for the next turn)."""
        return True

    @staticmethod
    def cc_morale_drm(game, group, target, bap: bool) -> int:
        return darkness.morale_drm(game, group, target, bap)

    @staticmethod
    def player_join(game, group, target) -> None:
        darkness.join_fight(game, group, target)

    @staticmethod
    def order_table(game) -> tuple:
        """RD-AI-2: a plain d6, no posture."""
        return game.scenario.darkness.orders, 0

    @staticmethod
    def enemy_order_tasks(game, group) -> list:
        return darkness.order_tasks(game, group)

    @staticmethod
    def enemy_fire(game, group, target, ctx) -> None:
        darkness.enemy_fire(game, group, target, ctx)

    @staticmethod
    def enemy_close_combat(game, group, target, ctx) -> None:
        darkness.enemy_close_combat(game, group, target, ctx)

    @staticmethod
    def can_free_attack(game, group, target) -> bool:
        return darkness.can_free_attack(game, group, target)

    @staticmethod
    def free_attack(game, group, target, drm: int) -> None:
        darkness.free_attack(game, group, target, drm)


MODULES = {"urban": Urban, "darkness": Darkness}
