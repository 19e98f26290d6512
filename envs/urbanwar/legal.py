"""The one source of legality: each decision carries its legal actions (built when it is asked)."""
from __future__ import annotations

import numpy as np

from .actions import ACTION_KINDS, CODEC, HOLD, REACH
from .config import SIZE


def mask(game) -> np.ndarray:
    return CODEC.mask(game.decision[1]["legal"])


def why(game, action: int) -> str:
    kind = game.decision[0]
    name, _ = CODEC.decode(action)
    return f"not one of the legal answers to the {kind} decision (family {name})"


def label(game, action: int) -> str:
    name, args = CODEC.decode(action)
    if name == "edge":
        return f"edge {('north', 'south')[args[0]]}"
    if name == "deploy_first":
        return "deploy first" if args[0] == 0 else "opponent deploys first"
    if name == "deploy":
        return f"deploy x={args[0]} row {args[1]} from own edge"
    if name == "order":
        return "order Snap-fire" if args[0] == 0 else "order Overwatch"
    if name == "initiative":
        return "activate first" if args[0] == 0 else "opponent activates first"
    if name == "activate":
        return f"activate model slot {args[0]}"
    if name == "action":
        return f"action {ACTION_KINDS[args[0]]}"
    if name == "dest":
        return f"dest dx={args[0] - REACH} dy={args[1] - REACH}"
    if name == "shoot":
        return "shoot hold fire" if args[0] == HOLD else f"shoot enemy slot {args[0]}"
    if name == "cc_target":
        return f"fight enemy slot {args[0]}"
    if name == "react_none":
        return "react none"
    if name == "react":
        return f"react slot {args[0]} {('disruption', 'intercept')[args[1]]} at step {args[2]}"
    return "followup no" if args[0] == 0 else "followup yes"


assert SIZE == 48
