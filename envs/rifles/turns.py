"""The turn: Player Phase, Enemy Phase, End Phase (RB-TURN-*, RB-VIC-1/3, RU-SCN-4)."""
from __future__ import annotations

from . import morale
from .flow import Decision, task
from .tasks import PLAYER_DECIDE, PLAYER_PHASE, EndPhase, PlayerDecide, PlayerPhase


@task(PlayerPhase)
def player_phase(game) -> None:
    """RB-TURN-2: AP from the scenario, one BAP per unsuppressed Leader; per-turn flags cleared."""
    game.phase = "player"
    game.ap = game.scenario.ap
    game.bap = sum(1 for g in game.players if g.on_map for u in g.units if u.leader and not u.suppressed)
    game.active = -1
    game.exposed = (None, -1)                            # the last turn's Exposed Movement roll is cleared
    game.barred.clear()
    for group in game.players + game.enemies:
        group.activated = group.fired = group.fought = False
        for unit in group.units:
            unit.fired = False
    game.push(PLAYER_DECIDE)


@task(PlayerDecide)
def player_decide(game) -> None:
    """RB-TURN-3: the player acts with the active group or picks another; a gone group's activation ends."""
    if game.active >= 0 and not game.players[game.active].on_map:
        game.active = -1
    game.decide(Decision.PLAYER)


@task(EndPhase)
def end_phase(game) -> None:
    """RB-TURN-6: scenario and squad-morale checks, flags cleared, next turn; time-out after the last."""
    game.phase = "end"
    if game.scenario.victory["kind"] == "hold" and game.hold_objective():
        game.finish(1, "the objective is held")
        return
    if game.lost_this_turn and 2 * game.eliminated_units > game.start_units and not morale.squad_morale_holds(game):
        game.finish(-1, "squad morale breaks")            # RB-VIC-3
        return
    if game.turn >= game.scenario.turns:
        game.finish(-1, "time is up")                      # RU-SCN-4 / RD-SCN-3: loss at the last End Phase
        return
    game.turn += 1
    game.lost_this_turn = False
    game.push(PLAYER_PHASE)
