"""Leaders (CF-LDR-1..3): a leader is an element of row L (non-combat for CF-RES-6/7); when the section's
leader dies, the LR changes on CF-TAB-5 and the nearest survivor acts as leader."""
from __future__ import annotations

from envs.engine.events import private

from .state import DEAD


def leader_lost(game, e, square: int) -> None:
    """CF-LDR-2: the section's leader is dead: D6 on CF-TAB-5 once for the new LR (kept in 1..6). An acting
    leader's own death rolls nothing (CF-LDR-3 only passes the role on). Who leads next is chosen once the whole
    result is applied (appoint_acting_leaders), so an element dying in the same result never takes over."""
    section = game.section_of(e)
    if section.leader != e.slot:
        return
    if e.leader:
        die = game.dice.d6()
        old = section.lr
        section.lr = min(6, max(1, old + game.tables.leader_replacement[die - 1]))
        game.log.add("leader_lost", f"section {section.name} loses its leader: LR {old} -> {section.lr}", e.side,
                     dice=(die,), rule="CF-LDR-2", **private(e.side))     # CF-HID-3: enemy LR and rolls
    section.leader = DEAD
    game.leaderless.append((e.side, section.index, square))


def appoint_acting_leaders(game) -> None:
    """CF-LDR-3, after a result: each section that lost its (acting) leader is led by its surviving element
    nearest the dead leader's square (ties: lowest ID)."""
    for side, index, square in game.leaderless:
        section = game.sections[side][index]
        if section.leader != DEAD:
            continue
        section.leader = acting_leader(game, side, index, square)
        if section.leader != DEAD:
            who = game.element(side, section.leader).name
            game.log.add("acting_leader", f"{who} leads section {section.name}", side, rule="CF-LDR-3",
                         **private(side))                 # CF-HID-3: enemy LR, and who survives
    game.leaderless = []


def acting_leader(game, side: int, section: int, square: int) -> int:
    """CF-LDR-3: the surviving element of the section nearest the dead leader's square, lowest ID on ties."""
    survivors = [f for f in game.elements[side] if f.section == section and f.square != DEAD]
    if not survivors:
        return DEAD
    distance = game.board.range[square]
    return min(survivors, key=lambda f: (int(distance[f.square]), f.slot)).slot
