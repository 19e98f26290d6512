"""What both sides of a Rifles game may know (RB-HID-1), as the contract's `public_facts` (envs.engine.contract).

Every die already rolled is public too (RB-HID-1), but it belongs to the event log, not to the position."""
from __future__ import annotations

from .observation import terrain_state


def public_facts(game) -> tuple:
    """RB-HID-1: the turn, phase and points left, the terrain state, the revealed groups and the enemy markers; the
    Exposed Movement roll of the player's last move this turn and the group that made its free attack (RU-EXP-1/4:
    a missed one leaves no other trace, yet the enemy was asked to choose it); the order each enemy group took in the
    last Enemy Phase (RB-AI-4: its die, or RB-AI-1 choice; an order may run without a trace, yet it decides what the
    enemy is asked)."""
    return (game.turn, game.phase, game.outcome, points_left(game), terrain_state(game),
            tuple(group_facts(g) for g in (*game.players, *game.enemies) if g.on_map),
            tuple((m.slot, m.stripe) for m in game.markers if m is not None), tuple(game.exposed),
            tuple(sorted(game.enemy_orders.items())))


def points_left(game) -> tuple:
    """RB-HID-1: AP, BAP and Recon Points left."""
    return game.ap, game.bap, game.recon


def group_facts(group) -> tuple:
    """RB-HID-1: a group's place, state, Engaged, demolition charges and units; RB-HID-3: a group in the sewer
    shows that it is there, never its Stripe."""
    where = None if group.in_sewer else (group.stripe, group.place)
    return (group.side, group.gid, where, group.level, group.in_sewer, group.engaged_with, group.defending,
            group.activated, group.fired, group.fought, group.demo_charges, units_facts(group))


def units_facts(group) -> tuple:
    """RB-HID-1: its units' weapons (or Darkness types), quality, Leader flags and results, as a multiset."""
    return tuple(sorted((str(u.kind or u.weapon), u.quality, bool(u.leader), u.hits) for u in group.units))
