"""What differs between the Urban and the Darkness modules, behind one small interface.

The engine calls `game.module.<hook>`; everything else is written once (RD-GEN-1: standard rules apply).
"""
from __future__ import annotations

from . import closecombat, enemy


class Urban:
    """Urban Warfare module (and the base system): RU-CC close combat, the RB-AI-4 order roll."""

    name = "urban"

    @staticmethod
    def hits_to_eliminate(unit) -> int:
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
        return True

    @staticmethod
    def player_close_combat(game, group, target, bap: bool) -> None:
        closecombat.attack(game, group, target, bap)

    @staticmethod
    def enemy_order_tasks(game, group) -> list:
        return enemy.roll_order(game, group)

    @staticmethod
    def enemy_close_combat(game, group, target) -> None:
        """RU-CC-17: no morale check; the enemy moves onto the target (a charge from range 1) and fights."""
        closecombat.engage(game, group, target)
        closecombat.fight_round(game, group, target)


MODULES = {"urban": Urban}
