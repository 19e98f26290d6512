"""The one source of legality: each decision carries its legal actions (built when it is asked)."""
from __future__ import annotations

import numpy as np

from envs.engine.derived import BoundedStore

from .actions import ACTION_KINDS, CODEC, HOLD, REACH
from .config import SIZE

#: process-wide (envs.engine.derived.BoundedStore): the legal actions of a small decision (an order, an activation, a
#: shot, a window...) -> its mask, read-only (the contract's callers never write to a mask); a pure function of the
#: actions, which only the deciding side's own mask shows
SMALL_MASKS = BoundedStore("urbanwar small decisions' masks", 4096)
SMALL = 16                  # the most options a kept mask has (a move's hundreds of destinations are built anew)


def mask(game) -> np.ndarray:
    """The decision's legal actions as a bool mask (CODEC.mask's result; `decide` keeps them sorted, so the range
    check is of the ends alone)."""
    legal = game.decision[1]["legal"]
    if len(legal) <= SMALL:
        return SMALL_MASKS.get(tuple(legal), _kept_mask, legal)
    return _mask_of(legal)


def _kept_mask(legal: list[int]) -> np.ndarray:
    out = _mask_of(legal)
    out.flags.writeable = False
    return out


def _mask_of(legal: list[int]) -> np.ndarray:
    if legal and (legal[0] < 0 or legal[-1] >= CODEC.size):
        raise ValueError(f"legal actions must be integers in 0..{CODEC.size - 1}; got {legal}")
    out = np.zeros(CODEC.size, dtype=bool)
    out[np.fromiter(legal, dtype=np.intp, count=len(legal))] = True
    return out


def why(game, action: int) -> str:
    kind = game.decision[0]
    name, _ = CODEC.decode(action)
    return f"not one of the legal answers to the {kind} decision (family {name})"


def label(game, action: int) -> str:
    """The action in words, naming models by their IDs and cells as (x, y), as the text map lists them."""
    name, args = CODEC.decode(action)
    if name == "edge":
        return f"edge {('north', 'south')[args[0]]}"
    if name == "deploy_first":
        return "deploy first" if args[0] == 0 else "opponent deploys first"
    if name == "deploy":
        return f"deploy {deciding_model(game)}at {deploy_cell(game, args[0], args[1])}"
    if name == "order":
        return f"order {deciding_model(game)}{'Snap-fire' if args[0] == 0 else 'Overwatch'}"
    if name == "initiative":
        return "activate first" if args[0] == 0 else "opponent activates first"
    if name == "activate":
        return f"activate {model_id(game, own_side(game), args[0])}"
    if name == "action":
        return f"action {ACTION_KINDS[args[0]].replace('_', ' ')}"
    if name == "dest":
        return f"move to {destination(game, args[0] - REACH, args[1] - REACH)}"
    if name == "shoot":
        return "hold fire" if args[0] == HOLD else f"shoot at {model_id(game, 1 - own_side(game), args[0])}"
    if name == "cc_target":
        return f"fight {model_id(game, 1 - own_side(game), args[0])}"
    if name == "react_none":
        return "no reaction"
    if name == "react":
        return (f"{model_id(game, own_side(game), args[0])} reacts: {('disruption shot', 'intercept charge')[args[1]]} "
                f"at step {args[2]}")
    return "no follow-up action" if args[0] == 0 else "take a follow-up action"


def own_side(game) -> int:
    return game.current_side if game.current_side is not None else 0


def model_id(game, side: int, slot: int) -> str:
    models = game.side_models(side)
    return models[slot].id if slot < len(models) else f"model slot {slot}"


def deciding_model(game) -> str:
    """The model a deploy or order decision is about ('A1 '), when one is open."""
    if game.decision is None or "model" not in game.decision[1]:
        return ""
    return f"{game.models[game.decision[1]['model']].id} "


def deploy_cell(game, x: int, row: int) -> str:
    """UW-SETUP-5: `row` counts from the deploying side's own edge."""
    y = row if game.edges[own_side(game)] == "north" else SIZE - 1 - row
    return f"({x},{y})"


def destination(game, dx: int, dy: int) -> str:
    """The cell the acting model would end on, and the step from where it stands."""
    act = getattr(game, "act", None)
    if not act or act.get("model", -1) < 0:
        return f"dx={dx} dy={dy}"
    cell = game.models[act["model"]].cell
    return f"({cell % SIZE + dx},{cell // SIZE + dy}), {dx:+d},{dy:+d}"


assert SIZE == 48
