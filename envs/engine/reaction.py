"""Reaction windows that reveal nothing (Cityfight CF-HID-4; Urban War's face-down Overwatch, UW-HID-6).

A reaction by the side that is not acting (return fire, overwatch fire, an interrupt) is a decision of that side.
Were it asked only when the reaction is really possible, the asking would itself tell the acting side that a
hidden unit is there: PettingZoo's `agent_selection` would switch, the acting side's mask would go all-zero. So a
window opens whenever the reaction COULD be possible by what the acting side knows, and is offered to the reacting
side even when it has nothing able to react, with pass as its only legal choice. The sequence of deciders, the
masks the acting side sees and the timing are then the same whether or not the hidden unit exists; the cost is a
pass-only decision now and then (each ruleset's README gives the figure).
"""
from __future__ import annotations

from typing import Any


def open_window(game: Any, kind: str, reacting_side: int, could_react: bool, options: list, **context) -> bool:
    """Offer reaction `kind` to `reacting_side` when `could_react` — judged from the acting side's knowledge alone,
    never from the reacting side's units. `options` are the reactions it really has (empty: it may only pass).
    The ruleset's `decide(kind, side, **context)` asks; its legal mask must always hold pass for `kind`.
    Returns whether the window opened."""
    if could_react:
        game.decide(kind, reacting_side, options=list(options), **context)
    return could_react
