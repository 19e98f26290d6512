"""The turn sequence (CF-TURN-1..8): upkeep, Command-Control, the alternating Action Phase, resupply, recovery, check."""
from __future__ import annotations

from envs.engine.events import private

from . import ammo, ap, knowledge, recovery, smoke, victory
from .flow import Decision, answer, task
from .legal import act_mask
from .state import DEAD, DEFENDER, SIDE_NAMES
from .tasks import (
    ActionPhase,
    ActPrompt,
    AmmoPhase,
    CommandPhase,
    EndActionPhase,
    EndActivation,
    EndCheck,
    HiddenSetup,
    NextActivation,
    RecoveryPhase,
    TurnStart,
)

PER_TURN_FLAGS = {"ap_spent": 0, "activated": False, "fired": False, "entered": 0, "diagonal": False, "rubble_steps": 0,
                  "stopped": False, "fired_on": False, "assaulted": False, "fired_still": False, "seen_still": False,
                  "suppressed_engaging": False}


@task(HiddenSetup)
def hidden_setup(game) -> None:
    """CF-SCN-6: each element with set-up alternatives rolls a D6 in order: 1-3 the first square, 4-6 the second."""
    for side in (0, 1):
        specs = [e for sec in game.scenario.sections[side] for e in sec.elements]
        for element, spec in zip(game.elements[side], specs):
            if len(spec.squares) > 1:
                die = game.dice.d6()
                choice = 0 if die <= 3 else 1
                element.square = game.board.at(*spec.squares[min(choice, len(spec.squares) - 1)])
                element.roof = spec.squares[choice] in game.scenario.roofs
                # CF-HID-3: the enemy never sees setup choices, and the die says which square was taken; that the
                # element sets up hidden follows from the public order of battle and scenario (CF-HID-1): it reads that
                game.log.add("setup", f"{element.name} sets up hidden", side, dice=(die,), rule="CF-SCN-6",
                             **private(side, public=f"{element.name} sets up hidden"))


@task(TurnStart)
def turn_start(game) -> None:
    """CF-TURN-1, CF-TURN-2: upkeep (smoke decays, per-turn flags clear), then the phases of the turn."""
    game.phase = "upkeep"
    game.log.add("turn", f"turn {game.turn} begins", rule="CF-TURN-1")
    smoke.decay(game)                                           # CF-SMK-5
    for side in (0, 1):
        for e in game.elements[side]:
            for key, value in PER_TURN_FLAGS.items():
                setattr(e, key, value)
    game.push(CommandPhase(), ActionPhase(), AmmoPhase(), RecoveryPhase(), EndCheck())


@task(CommandPhase)
def command_phase(game) -> None:
    """CF-AP-1..8: each section's AP pool."""
    game.phase = "command"
    ap.roll_pools(game)


@task(ActionPhase)
def action_phase(game) -> None:
    """CF-TURN-3: the initiative side activates first; the sides then alternate."""
    game.phase = "action"
    game.outs, game.next_side = [False, False], game.scenario.initiative
    for k in game.knowledge:
        k.enemy_activations, k.enemy_out_told = 0, False
    game.push(NextActivation())


def eligible(game, side: int) -> list:
    return [e for e in game.elements[side] if ap.can_activate(game, e)]


@task(NextActivation)
def next_activation(game) -> None:
    """CF-TURN-6: a side that cannot activate is Out; the other activates its remaining elements in a row.
    CF-HID-4: a side whose turn it is is always asked, even when it cannot activate (then Out is its only legal
    answer): passing it over would tell the enemy, through who decides next, that its elements are all spent,
    suppressed or out of AP (CF-HID-3)."""
    if all(game.outs):
        game.push(EndActionPhase())
        return
    side = game.next_side if not game.outs[game.next_side] else 1 - game.next_side
    game.decide(Decision.ACTIVATE, side)


def declare_out(game, side: int, why: str) -> None:
    """CF-TURN-6 / CF-HID-1: an Out declaration is public."""
    game.outs[side] = True
    game.knowledge[1 - side].enemy_out_told = True
    # CF-HID-1: the Out is public; CF-HID-4: whether the side could still activate (the why) is not
    game.log.add("out", f"the {SIDE_NAMES[side]} is Out ({why})", side, rule="CF-TURN-6",
                 **private(side, public=f"the {SIDE_NAMES[side]} is Out"))


@answer(Decision.ACTIVATE)
def answer_activate(game, ctx, name, *args) -> None:
    side = ctx["side"]
    if name == "out":
        declare_out(game, side, "declared" if eligible(game, side) else "cannot activate")
        game.push(NextActivation())
        return
    e = game.element(side, args[0])
    e.activated = True
    game.active, game.active_side = e.slot, side
    game.knowledge[1 - side].enemy_activations += 1          # CF-HID-4: only "the enemy took an activation"
    game.log.add("activate", f"{e.name} activates", side, rule="CF-TURN-4",     # CF-HID-3/4: not which element
                 **private(side, public=f"the {SIDE_NAMES[side]} takes an activation"))
    game.push(ActPrompt())


@task(ActPrompt)
def act_prompt(game) -> None:
    """CF-TURN-4: the activation goes on until the element passes, has spent 2 AP or cannot act.
    CF-HID-4: it ends only by the acting side's Pass. An element that has spent 2 AP, cannot act (its pool, its
    suppression) or was killed is still asked, with Pass as its only legal answer: ending the activation unasked
    would tell the enemy, through who decides next, the hidden AP and state of the element (CF-HID-3) or that its
    fire killed it (CF-HID-8)."""
    side = game.active_side
    e = game.element(side, game.active)
    game.decide(Decision.ACT, side, element=e.slot)
    game.prepared_mask = act_mask(game, e)                    # the mask of this decision, already computed


@task(EndActivation)
def end_activation(game) -> None:
    side = game.active_side
    knowledge.end_activation(game.knowledge)                  # CF-SRCH-22
    game.active, game.active_side = DEAD, DEAD
    game.next_side = 1 - side
    game.push(NextActivation())


@task(EndActionPhase)
def end_action_phase(game) -> None:
    """CF-AP-10: unspent pool AP are lost; CF-OW-6: overwatch ends with the Action Phase."""
    for side in (0, 1):
        for s in game.sections[side]:
            s.pool = 0
        for e in game.elements[side]:
            e.overwatch = DEAD


@task(AmmoPhase)
def ammo_phase(game) -> None:
    game.phase = "ammo"
    ammo.resupply(game)                                       # CF-AMMO-1


@task(RecoveryPhase)
def recovery_phase(game) -> None:
    game.phase = "recovery"
    recovery.recover_all(game)                                # CF-REC-1..14


@task(EndCheck)
def end_check(game) -> None:
    """CF-TURN-8 / CF-SCN-7: the end-of-turn check; the game ends after the last turn's."""
    game.phase = "end"
    if victory.end_of_turn(game):
        return
    game.turn += 1
    game.push(TurnStart())


__all__ = ["DEFENDER"]
