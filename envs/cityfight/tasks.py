"""The tasks of Cityfight's flow as typed records (envs.engine.flow): what each task carries, by name.

A rule pushes a record (`game.push(Reveal(marker_slot, target_slot, drm))`); the handler registered for its
type (`@task(Reveal)`) runs it. Each record is documented where its handler is.
"""
from __future__ import annotations

from typing import NamedTuple


class AssaultRound(NamedTuple):
    """assault.assault_round: CF-CA-1..10: the initiator's roll, then the strike-backs; everyone there spends no more
    AP this turn.
    """
    side: int
    slot: int
    square: int
    terrain: bool
    first: bool


class KineticFire(NamedTuple):
    """fire.kinetic_fire: CF-FIRE-1..19: roll, judge against the target's cover, apply; then the chance of return
    fire.
    """
    side: int
    slot: int
    target: int
    count: int
    spotted: bool
    reaction: str


class HeFire(NamedTuple):
    """he.he_fire: CF-HE-1..13: accuracy, announcement, impact and blast, breach, OOA and one-shot weapons; then
    return fire.
    """
    side: int
    slot: int
    target: int
    spotted: bool
    reaction: str


class Step(NamedTuple):
    """movement.step: One step; a run's second step is skipped once movement has ended (CF-MOVE-2/7, CF-OW-5)."""
    side: int
    slot: int
    direction: int


class OverwatchOffer(NamedTuple):
    """overwatch.overwatch_offer: CF-OW-5/6: watchers in element order, each a fire-or-not decision of its side,
    before the mover's next step.
    """
    side: int
    square: int
    mover: int
    slots: list


class IfaOffer(NamedTuple):
    """search.ifa_offer: CF-SRCH-23: each element that searched, in order, may make an Immediate Fire Action."""
    side: int
    searchers: list


class SearchOffer(NamedTuple):
    """search.search_offer: CF-ACT-12: each possible joiner in element order, a yes/no decision of the searching
    side.
    """
    side: int
    searcher: int
    msq: int
    joined: list
    candidates: list


class SearchResolve(NamedTuple):
    """search.search_resolve: CF-SRCH-4/8, CF-HID-5/6: Open squares declared, others revealed on N + DMs >= SR; then
    IFA.
    """
    side: int
    searcher: int
    msq: int
    joined: list
    number: int


class SearchRoll(NamedTuple):
    """search.search_roll: CF-SRCH-6/7: 2D6 once plus DMs = N; announced in full unless the option lets the searcher
    say less.
    """
    side: int
    searcher: int
    msq: int
    joined: list


class SmokeFire(NamedTuple):
    """smoke.smoke_fire: CF-SMK-2/3: the landing square from the weapon's grid, no DMs; any double ends this weapon's
    smoke.
    """
    side: int
    slot: int
    target: int


class ActPrompt(NamedTuple):
    """turn.act_prompt: CF-TURN-4: the activation goes on until the element passes, has spent 2 AP or cannot act."""


class ActionPhase(NamedTuple):
    """turn.action_phase: CF-TURN-3: the initiative side activates first; the sides then alternate."""


class AmmoPhase(NamedTuple):
    """turn.ammo_phase"""


class CommandPhase(NamedTuple):
    """turn.command_phase: CF-AP-1..8: each section's AP pool."""


class EndActionPhase(NamedTuple):
    """turn.end_action_phase: CF-AP-10: unspent pool AP are lost; CF-OW-6: overwatch ends with the Action Phase."""


class EndActivation(NamedTuple):
    """turn.end_activation"""


class EndCheck(NamedTuple):
    """turn.end_check: CF-TURN-8 / CF-SCN-7: the end-of-turn check; the game ends after the last turn's."""


class HiddenSetup(NamedTuple):
    """turn.hidden_setup: CF-SCN-6: each element with set-up alternatives rolls a D6 in order: 1-3 the first square,
    4-6 the second.
    """


class NextActivation(NamedTuple):
    """turn.next_activation: CF-TURN-6: a side that cannot activate is Out; the other activates its remaining
    elements in a row.
    """


class RecoveryPhase(NamedTuple):
    """turn.recovery_phase"""


class TurnStart(NamedTuple):
    """turn.turn_start: CF-TURN-1, CF-TURN-2: upkeep (smoke decays, per-turn flags clear), then the phases of the
    turn.
    """

