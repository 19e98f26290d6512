"""The tasks of Rifles's flow as typed records (envs.engine.flow): what each task carries, by name.

A rule pushes a record (`game.push(Reveal(marker_slot, target_slot, drm))`); the handler registered for its
type (`@task(Reveal)`) runs it. Each record is documented where its handler is.
"""
from __future__ import annotations

from typing import NamedTuple


class DarkClose(NamedTuple):
    """darkness.dark_close: RD-AI-1: choose the player group to attack (the enemy's `target` decision, mode
    close_combat).
    """
    slot: int
    left: int
    first: int


class DarkFire(NamedTuple):
    """darkness.dark_fire: RD-AI-2 @Attack: Fire at the RB-AI-6 target; RD-TRT-3: `left` attacks to go, each choosing
    its target.
    """
    slot: int
    left: int
    first: int


class DarkOrder(NamedTuple):
    """darkness.dark_order: RD-AI-2: @Attack with ranged CF (none or no target: @Advance); @Advance as RB-AI-9 with
    RB-AI-5 placement.
    """
    slot: int
    order: int


class FastAttack(NamedTuple):
    """darkness.fast_attack"""
    slot: int
    target_slot: int


class Advance(NamedTuple):
    """enemy.advance"""
    slot: int


class Attack(NamedTuple):
    """enemy.attack: RB-AI-7: Fire at the target; none in range: @Advance (not for a group bound by RU-AI-5)."""
    slot: int
    drm: int


class CloseCombat(NamedTuple):
    """enemy.close_combat: RU-CC-17: under a Close Combat order, no morale check; no eligible target: @Attack."""
    slot: int


class Cover(NamedTuple):
    """enemy.cover: RB-AI-8: move to a better free feature on its Stripe, Suppressed units rally, OK units fire at
    -1.
    """
    slot: int
    sealed: int


class CoverFire(NamedTuple):
    """enemy.cover_fire: RB-AI-8 after the move: Suppressed units test to rally; the units already OK fire at -1 DRM."""
    slot: int


class EnemyAct(NamedTuple):
    """enemy.enemy_act: RB-AI-3: an Engaged group fights a round; otherwise it rolls its order (RB-AI-4)."""
    slot: int


class EnemyNext(NamedTuple):
    """enemy.enemy_next: RB-TURN-5: each revealed enemy group activates once; the choice of which is the enemy's (RB-
    AI-2).
    """


class EnemyPhase(NamedTuple):
    """enemy.enemy_phase"""


class MoveUp(NamedTuple):
    """enemy.move_up: RU-AI-3: on an MS Ground Floor with @Cover or @Attack, first move up, free (the enemy may
    decline).
    """
    slot: int


class Order(NamedTuple):
    """enemy.order: RB-AI-7..10; RU-AI-5 binds groups in a Sealed Building; RU-CC-18 turns an ineligible Close Combat
    into @Attack.
    """
    slot: int
    order: int


class Exposed(NamedTuple):
    """movement.exposed: RU-EXP-1: D66 on RB-TAB-8 before any marker is revealed."""
    slot: int


class FreeAttack(NamedTuple):
    """movement.free_attack: RU-EXP-4: an ordinary Fire outside the enemy's activation, not limited by RB-AP-2 (RD-
    GEN-5 in the Darkness).
    """
    enemy_slot: int
    target_slot: int
    drm: int


class MsFloor(NamedTuple):
    """movement.ms_floor: RU-AI-2: an enemy group entering an MS goes to the First Floor on d6 4+ (a choice under RB-
    AI-1).
    """
    slot: int


class Place(NamedTuple):
    """movement.place"""
    slot: int
    stripe: int


class Reveal(NamedTuple):
    """movement.reveal: RB-EM-3: d6 on the reveal table; 1 removes the marker, else a group is placed on its Stripe
    (RB-AI-5).
    """
    marker_slot: int
    target_slot: int
    drm: int


class RevealSweep(NamedTuple):
    """movement.reveal_sweep: RB-EM-2: every marker within range 1 of a visible player group is revealed, lowest
    Stripe then ID.
    """


class EndPhase(NamedTuple):
    """turns.end_phase: RB-TURN-6: scenario and squad-morale checks, flags cleared, next turn; time-out after the
    last.
    """


class PlayerDecide(NamedTuple):
    """turns.player_decide: RB-TURN-3: the player acts with the active group or picks another; a gone group's
    activation ends.
    """


class PlayerPhase(NamedTuple):
    """turns.player_phase: RB-TURN-2: AP from the scenario, one BAP per unsuppressed Leader; per-turn flags cleared."""


# The records without fields, made once: a record is an immutable tuple, so one serves every push (making one calls
# the NamedTuple's __new__, a Python function, and the flow pushes these at most decisions)
PLAYER_DECIDE, PLAYER_PHASE, ENEMY_PHASE, ENEMY_NEXT, END_PHASE, REVEAL_SWEEP = (
    PlayerDecide(), PlayerPhase(), EnemyPhase(), EnemyNext(), EndPhase(), RevealSweep())
