"""Leaders (CF-LDR-1..3): a dead leader's replacement and the acting leader.

TODO(stage 2): CF-LDR-2 (CF-TAB-5 roll) and CF-LDR-3 (nearest survivor acts as leader).
"""
from __future__ import annotations

from .state import DEAD


def leader_lost(game, e, square: int) -> None:
    """CF-LDR-2/3 hook (stage 2): for now the section is left without a leader."""
    section = game.section_of(e)
    if section.leader == e.slot:
        section.leader = DEAD
