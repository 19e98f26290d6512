"""The one source of legality: which actions each decision allows, why others are not, and their names."""
from __future__ import annotations

import numpy as np

from . import firefrom, movement, orders, turns
from .actions import CODEC, NUM_ACTIONS
from .flow import Decision
from .state import ADVANCE, ORDERS, RUN

OFF = {name: f.offset for name, f in CODEC.families.items()}
TABLE = {name: CODEC.table(name) for name in CODEC.families}   # flat indices by family, for the hot loops


def index(key: tuple) -> int:
    """CODEC.encode(*key) as table lookups: a move decision encodes tens of options."""
    found = TABLE[key[0]]
    for arg in key[1:]:
        found = found[arg]
    return found


def mask(game) -> np.ndarray:
    legal = bytearray(NUM_ACTIONS)
    for action in actions(game):
        legal[action] = 1
    return np.frombuffer(legal, dtype=bool)      # a fresh bytearray each call: the array is its own


def actions(game) -> list:
    kind, ctx = game.decision
    return LEGAL[kind](game, ctx)


def unit_choices(game, ctx):
    return [TABLE["unit"][u.uid] for u in turns.eligible(game, ctx["side"])]


def order_choices(game, ctx):
    """KC-DEC-3: Down is always legal; Advance and Run need a unit that can move; Ambush, Rally, Fire always."""
    if movement.can_move(game, game.units[ctx["uid"]]):
        return ALL_ORDERS.copy()
    return STILL_ORDERS.copy()


#: the ORDER decision's answers with and without Advance and Run (handed out as copies)
ALL_ORDERS = [TABLE["order"][i] for i in range(len(ORDERS))]
STILL_ORDERS = [TABLE["order"][i] for i, order in enumerate(ORDERS) if order not in (ADVANCE, RUN)]


def move_choices(game, ctx):
    """The MOVE decision's options as action indices, the cells' as movement.move_options gives them (a Run has a
    hundred and more); in no particular order: the mask only sets them."""
    unit = game.units[ctx["uid"]]
    cells, others = movement.move_options(game, unit, ctx["order"])
    out = [OFF["pass"], *cells]
    for key in others:
        out.append(index(key))
    return out


def target_choices(game, ctx):
    """KC-SHOOT-3/4 (inside: KB-FROM-3, a target a side not yet declared reaches); mode 1 fires the unit's
    weapon's second mode (shooting.second_mode): HE (KC-HE-1) or indirect (KC-TAB-3)."""
    from .shooting import firing_weapons, second_mode
    unit = game.units[ctx["uid"]]
    out = [OFF["pass"]]
    declared = ctx.get("declared", [])
    mode = second_mode(game.tables, unit)
    uids = firefrom.declarable(game, unit, ctx["moved"], declared) if unit.inside \
        else game.asked_targets(unit, ctx["moved"])
    common = firefrom.sides_key(game, unit, ctx["moved"], declared) if unit.inside and mode else None
    for uid in uids:
        out.append(TABLE["target"][uid][0])
        t = game.units[uid]
        if mode is None or (mode == "he" and t.vehicle):       # KC-HE-1: against armour it stays AT
            continue
        # mode 1 only where the weapon fires in it (inside: through the side the target would take)
        side = firefrom.best_side_from(game, unit, t, ctx["moved"], declared, common) if unit.inside else None
        sides, models = (None, None) if side is None else ((side[0],), side[1])
        if firing_weapons(game, unit, t, ctx["moved"], he=True, sides=sides, models=models, indirect=True):
            out.append(TABLE["target"][uid][1])
    return sorted(out)


def yes_or_pass(game, ctx):
    return [OFF["yes"], OFF["pass"]]


def down_choices(game, ctx):
    """KC-SHOOT-2; KC-HID-4: a target destroyed since the fire was declared is still asked, and may only pass."""
    return [OFF["yes"], OFF["pass"]] if game.units[ctx["uid"]].alive else [OFF["pass"]]


def ambush_choices(game, ctx):
    """KC-AMB-1: fire only with a weapon that reaches the mover (a hidden occupant's window may be pass-only)."""
    able = movement.ambush_can_fire(game, game.units[ctx["uid"]], game.units[ctx["mover"]])
    return [OFF["yes"], OFF["pass"]] if able else [OFF["pass"]]


def opening_choices(game, ctx):
    """KB-FROM-5: an opening's outside cell (only with a Fixed weapon); pass keeps a designation on this floor."""
    unit = game.units[ctx["uid"]]
    out = [CODEC.encode("cell", c) for c in movement.opening_cells(game, unit)] if movement.fixed_weapon(game, unit) else []
    if movement.may_keep_opening(game, unit) or not out:
        out.append(OFF["pass"])
    return sorted(out)


def friendly_choices(game, ctx):
    unit = game.units[ctx["uid"]]
    return [CODEC.encode("target", f.uid, 0) for f in orders.friendly_targets(game, unit)]


LEGAL = {
    Decision.UNIT: unit_choices, Decision.ORDER: order_choices, Decision.MOVE: move_choices,
    Decision.TARGET: target_choices, Decision.DOWN: down_choices, Decision.REACT_FIRE: yes_or_pass,
    Decision.AMBUSH: ambush_choices, Decision.KEEP: yes_or_pass, Decision.FRIENDLY: friendly_choices, Decision.OPENING: opening_choices,
}


def why(game, action: int) -> str:
    kind, _ = game.decision
    name, args = CODEC.decode(action)
    return f"not a legal answer to the {kind} decision now ({name}{list(args) if args else ''})"


def label(game, action: int) -> str:
    name, args = CODEC.decode(action)
    if name == "unit":
        return f"order unit {_unit(game, args[0])}"
    if name == "order":
        return f"order: {ORDERS[args[0]]}"
    if name == "cell" and game.decision is not None and game.decision[0] == Decision.OPENING:
        return f"fire the Fixed weapon through the opening onto ({args[0] % game.board.width}, {args[0] // game.board.width})"
    if name == "cell":
        return f"move to ({args[0] % game.board.width}, {args[0] // game.board.width})"
    if name == "enter":
        return f"enter section {_section(game, args[0])}"
    if name == "floor":
        return f"move inside to {_section(game, args[0])} floor {args[1]}"
    if name == "ram":
        return f"ram section {_section(game, args[0])}"
    if name == "assault":
        return f"assault {_unit(game, args[0])}"
    if name == "target":
        uid = game.decision[1].get("uid") if game.decision is not None else None
        return f"fire at {_unit(game, args[0])}{mode_words(game, None if uid is None else game.units[uid], args[1])}"
    return {"yes": "yes (react / keep)", "pass": "pass (decline / hold / stay / return)"}[name]


def mode_words(game, unit, mode: int) -> str:
    """The words of a target's mode 1 for `unit`: ' indirect' (KC-TAB-3) or ' with HE' (KC-HE-1)."""
    from .shooting import second_mode
    if not mode:
        return ""
    return " indirect" if unit is not None and second_mode(game.tables, unit) == "indirect" else " with HE"


def _unit(game, uid: int) -> str:
    return game.units[uid].name if uid < len(game.units) else f"slot {uid} (empty)"


def _section(game, sid: int) -> str:
    return game.board.sections[sid].name if sid < len(game.board.sections) else f"slot {sid} (none)"
