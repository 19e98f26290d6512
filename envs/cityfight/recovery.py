"""Suppression recovery (CF-REC-1..14): in the Suppression Recovery Phase each suppressed element rolls D6 <= LR + DMs."""
from __future__ import annotations

from envs.engine.events import private

from .board import sight
from .config import OPEN
from .state import ATTACKER, DEAD, DEFENDER


def recover_all(game) -> None:
    """CF-REC-2: per side (attacker first), leaders first (higher command first), then the rest in element order."""
    for side in (ATTACKER, DEFENDER):
        for e in recovery_order(game, side):
            if e.suppressed and e.square != DEAD:
                roll(game, e)


def recovery_order(game, side: int) -> list:
    leaders = [game.element(side, s.leader) for s in game.sections[side] if s.leader != DEAD]
    return leaders + [e for e in game.elements[side] if e not in leaders]


def is_leader(game, e) -> bool:
    return game.section_of(e).leader == e.slot


def leader_dm(game, e, leader) -> int:
    """CF-REC-4..6: where the leader is, seen from the element (a missing leader counts as far away)."""
    t, board = game.tables.recovery, game.board
    if leader is None or leader.square == DEAD:
        return t["leader_not_in_msq"]
    if leader.square == e.square:
        return t["leader_in_square"]                                   # CF-REC-5
    dm = t["leader_not_in_msq"] if board.msq[leader.square] != board.msq[e.square] else 0   # CF-REC-4
    if sight(game, e.square, leader.square):
        dm += t["leader_in_sight"]                                     # CF-REC-6 (adds to CF-REC-4)
    return dm


def own_dm(game, e) -> int:
    """CF-REC-7..11: cover or smoke, not fired on, sniper, night without light, the scenario's bonus."""
    t = game.tables.recovery
    dm = t["cover_or_smoke"] if game.smoke[e.square] or game.cover[e.square] != OPEN else 0
    if not e.fired_on:
        dm += t["not_fired_on"]                                        # CF-REC-8
    if game.tables.elements[e.row].sniper:
        dm += t["sniper"]                                              # CF-REC-9
    c = game.conditions
    if c["time"] == "night" and game.board.msq[e.square] not in c["illuminated"]:
        dm += t["night_unlit"]                                         # CF-REC-10
    return dm + game.scenario.recovery_bonus[e.side]                   # CF-REC-11


def target(game, e) -> int:
    """CF-REC-1/3/12/13/14: the number to roll at or under."""
    section = game.section_of(e)
    if game.tables.elements[e.row].sniper:
        return game.tables.recovery["sniper_rating"] + own_dm(game, e)   # CF-REC-13: own rating, no leader DMs
    if is_leader(game, e):
        best = section.lr                                              # CF-REC-12: no leader DMs on its own roll
        higher = higher_leader(game, e)
        if higher is not None:                                         # CF-REC-14: the higher leader's LR and DMs
            best = max(best, game.section_of(higher).lr + leader_dm(game, e, higher))
        return best + own_dm(game, e)
    leader = game.element(e.side, section.leader) if section.leader != DEAD else None
    return section.lr + leader_dm(game, e, leader) + own_dm(game, e)   # CF-REC-3: without CF-AP-5's -2


def higher_leader(game, e):
    """CF-REC-14 (company option): the first section's leader commands the others' leaders."""
    if game.options["force_level"] != "company" or e.section == 0:
        return None
    first = game.sections[e.side][0]
    if first.leader == DEAD:
        return None
    leader = game.element(e.side, first.leader)
    return leader if leader.square != DEAD else None


def roll(game, e) -> None:
    """CF-REC-1: D6 <= LR + DMs recovers."""
    need = target(game, e)
    die = game.dice.d6()
    if die <= need:
        e.suppressed = False
        game.log.add("recovered", f"{e.name} recovers", e.side, dice=(die,), rule="CF-REC-1", **private(e.side))   # CF-HID-3
    else:
        game.log.add("still_suppressed", f"{e.name} stays suppressed", e.side, dice=(die,), rule="CF-REC-1",
                     **private(e.side))                   # CF-HID-3: enemy recovery rolls
