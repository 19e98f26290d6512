"""What each player action does once the mask has allowed it (AP costs RB-AP-1, BAP RB-AP-3)."""
from __future__ import annotations

from . import closecombat, demo, fire, morale, movement
from .state import PLAYER
from .tasks import ENEMY_PHASE


def end_phase(game) -> None:
    """RB-TURN-4: unspent AP and BAP are lost (RB-TURN-2)."""
    game.active = -1
    game.ap = game.bap = 0
    game.log.add("end_phase", "player ends the Player Phase", side=PLAYER, rule="RB-TURN-4")
    # At a player decision nothing of the Player Phase is left to run but the next player decision
    # (pending only at the Rubble cost prompt), so the phase ends by replacing the task stack.
    game.tasks = [ENEMY_PHASE]


def end_activation(game) -> None:
    game.active = -1


def activate(game, slot: int) -> None:
    """RB-TURN-3: activating a group closes the previous activation; once per turn."""
    group = game.players[slot]
    game.active = slot
    group.activated, group.fired, group.fought = True, False, False
    game.log.add("activate", f"player activates {group.name}", side=PLAYER, rule="RB-TURN-3")


def active(game):
    return game.players[game.active]


def move(game, stripe_index: int, place: int, recon: int) -> None:
    movement.start_move(game, active(game), stripe_index + 1, place, bool(recon))


def spend(game, cost_name: str, bap: int) -> None:
    game.ap -= game.tables.ap_costs[cost_name]
    game.bap -= bap


def fire_at(game, slot: int, bap: int) -> None:
    """RB-FIRE-1, RB-AP-2: one Fire per activation; a BAP gives +1 to every die."""
    spend(game, "fire", bap)
    group = active(game)
    group.fired = True
    fire.resolve(game, group, game.enemies[slot], bap)


def close_combat(game, slot: int, bap: int) -> None:
    """RU-CC-1/14: attack at range 0 (morale first), or fight a round when already Engaged."""
    spend(game, "close_combat", bap)
    group, target = active(game), game.enemies[slot]
    group.fought = True
    if group.engaged:
        closecombat.fight_round(game, group, target)
    else:
        game.module.player_close_combat(game, group, target, bool(bap))


def rally(game, bap: int) -> None:
    spend(game, "rally", bap)
    morale.rally(game, active(game), bap)


PLAYER_ACTIONS = {
    "end_phase": end_phase,
    "end_activation": end_activation,
    "activate": activate,
    "move": move,
    "fire": fire_at,
    "close_combat": close_combat,
    "rally": rally,
    "floor": lambda game: movement.change_floor(game, active(game)),
    "hop": lambda game: movement.hop(game, active(game)),
    "sewer_enter": lambda game: movement.sewer_enter(game, active(game)),
    "sewer_move": lambda game, direction: movement.sewer_move(game, active(game), 1 if direction else -1),
    "sewer_leave": lambda game: movement.sewer_leave(game, active(game)),
    "demo_place": lambda game, place, mode: demo.place(game, active(game), place, mode),
    "demo_retry": lambda game: demo.retry(game, active(game)),
    "demo_take_back": lambda game: demo.take_back(game, active(game)),
    "exit": lambda game: movement.exit_map(game, active(game)),
    "recon_reveal": movement.recon_reveal,
}
