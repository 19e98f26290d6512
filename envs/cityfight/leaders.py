"""Leaders (CF-LDR-1..3): a leader is an element of row L (non-combat for CF-RES-6/7); when the section's
leader dies, the LR changes on CF-TAB-5 and the nearest survivor acts as leader."""
from __future__ import annotations

from .state import DEAD


def leader_lost(game, e, square: int) -> None:
    """CF-LDR-2/3: D6 on CF-TAB-5 for the new LR (kept in 1..6); the nearest survivor (ties: lowest ID) leads."""
    section = game.section_of(e)
    if section.leader != e.slot:
        return
    die = game.dice.d6()
    old = section.lr
    section.lr = min(6, max(1, old + game.tables.leader_replacement[die - 1]))
    section.leader = acting_leader(game, e.side, section.index, square)
    who = game.element(e.side, section.leader).name if section.leader != DEAD else "nobody"
    game.log.add("leader_lost", f"section {section.name} loses its leader: LR {old} -> {section.lr}, {who} leads",
                 e.side, dice=(die,), rule="CF-LDR-2")


def acting_leader(game, side: int, section: int, square: int) -> int:
    """CF-LDR-3: the surviving element of the section nearest the dead leader's square, lowest ID on ties."""
    survivors = [f for f in game.elements[side] if f.section == section and f.square != DEAD]
    if not survivors:
        return DEAD
    distance = game.board.range[square]
    return min(survivors, key=lambda f: (int(distance[f.square]), f.slot)).slot
