"""The one source of legality: which actions each decision allows, why others are illegal, and their names."""
from __future__ import annotations

import numpy as np

from envs.engine import derived

from . import demo, fire, geometry
from .actions import CODEC, NUM_ACTIONS, PLACES
from .config import STRIPES
from .enemy import ORDER_NAMES
from .movement import movement_barred
from .state import FIRST, GROUND

OFF = {name: f.offset for name, f in CODEC.families.items()}
MASK_SHAPE, BOOL = (NUM_ACTIONS,), np.dtype(bool)


def mask(game) -> np.ndarray:
    """Bool mask of the legal actions of the pending decision."""
    kind, ctx = game.decision
    # Set in a bytearray, then viewed as bools (one byte each, 0 or 1): cheaper than numpy's fancy indexing
    # for the few legal actions of a decision. np.ndarray over the buffer with a dtype made once costs 60 % of
    # np.frombuffer(legal, dtype=bool) (which parses its keyword and dtype at every call): the same array.
    legal = bytearray(NUM_ACTIONS)
    for action in LEGAL[kind](game, ctx):
        legal[action] = 1
    return np.ndarray(MASK_SHAPE, BOOL, legal)


# Player decisions ----------------------------------------------------------------------------------
# Each helper appends the actions it allows to `out` (one list per mask, no generator chain to resume).
def player(game, ctx) -> list:
    """RB-TURN-3/4: end the phase; activate a group; act with the active one; Recon reveal (RB-AP-4).

    RB-GEN-5: there is no split or merge action; groups merge only by joining a Close Combat (RU-CC-15).
    """
    out = [OFF["end_phase"]]
    recon_reveals(game, out)
    if game.ap >= 1:
        activate = OFF["activate"]
        for g in game.players:
            if g.units and not g.exited and not g.activated and g.gid != game.active:     # Group.on_map as fields
                out.append(activate + g.gid)
    if game.active >= 0:
        out.append(OFF["end_activation"])
        group_actions(game, game.players[game.active], out)
    return out


def recon_reveals(game, out: list) -> None:
    """RB-AP-4: a marker within range 2 of a visible player group."""
    if game.recon <= 0:
        return
    near = set()
    for g in game.players:
        if g.units and not g.exited and not g.in_sewer:
            near.update(RANGE_2[g.stripe])
    reveal = OFF["recon_reveal"]
    for m in game.markers:
        if m is not None and m.stripe in near:
            out.append(reveal + m.slot)


#: the Stripes within range 2 of each Stripe (RB-MAP-3: range is the difference of Stripe numbers)
RANGE_2 = [range(s - 2, s + 3) for s in range(STRIPES + 1)]


def group_actions(game, g, out: list) -> None:
    costs, ap = game.tables.ap_costs, game.ap
    if g.engaged:                                         # RU-CC-14: only fight a round
        if not g.fought and ap >= costs["close_combat"]:
            out.append(OFF["close_combat"] + 2 * g.engaged_with)
        return
    if ap >= costs["rally"] and any(u.suppressed for u in g.units):
        with_bap(game, OFF["rally"], out)
    if g.in_sewer:
        sewer_actions(game, g, out)
        return
    if not movement_barred(g) and not sealed_in(game, g):
        moves(game, g, out)
        floor_and_hop(game, g, out)
        # RU-SEW-1: only groups the scenario allows; RU-SEW-2: on a Stripe with a Sewer Entrance
        if g.sewers and g.stripe in game.scenario.sewer_stripes and g.level == GROUND and ap >= costs["sewer"]:
            out.append(OFF["sewer_enter"])
    if ap >= costs["fire"] and not g.fired:
        for e in fire.targets_with_shooter(game, g, game.enemies):   # a gone group is no target (RB-EM-4)
            with_bap(game, OFF["fire"] + 2 * e.gid, out)
    if ap >= costs["close_combat"] and not g.fought:
        for e in cc_targets(game, g):
            with_bap(game, OFF["close_combat"] + 2 * e.gid, out)
    demo_actions(game, g, out)
    if game.options["exit_allowed"] and g.stripe == STRIPES and ap >= costs["exit"]:
        out.append(OFF["exit"])                           # RB-VIC-4


def with_bap(game, action: int, out: list) -> None:
    """The action without and, if a BAP is left, with a BAP spent (RB-AP-3)."""
    out.append(action)
    if game.bap > 0:
        out.append(action + 1)


def sealed_in(game, g) -> bool:
    """RU-TER-4: a Sealed Building can be neither entered nor left."""
    f = geometry.feature(game, g.stripe, g.place)
    return f is not None and f.sealed


def moves(game, g, out: list) -> None:
    """RB-MOVE-1: an adjacent Stripe or another place on its own; never a level held by the enemy (RB-MAP-4)."""
    if game.ap < game.tables.ap_costs["move"]:
        return
    recon_ok = game.recon > 0 and game.options["exposed_movement"]
    held = enemy_ground(game)      # once per mask, not once per place
    barred, gid, here, at = game.barred, g.gid, g.stripe, g.place
    for stripe, place, f, action in move_table(game, here):
        if stripe == here and place == at:
            continue
        if f is not None:              # the Open is always enterable; a feature neither Sealed (RU-TER-4), nor Rubble
            # this group gave up this turn (RU-RUB-3), nor a Ground level the enemy holds
            if f.sealed or (stripe, place) in held or barred and (gid, stripe, place) in barred:
                continue
        out.append(action)
        if recon_ok and stripe != here:
            out.append(action + 1)                        # RU-EXP-2


MOVES = f"{derived.PREFIX}rifles_moves"   # move_table's table, kept on the game


def move_table(game, here: int) -> list:
    """The places a move from Stripe `here` may reach (RB-MOVE-1: its own and the adjacent Stripes) as (stripe, place,
    feature or None for the Open, move action without a Recon Point), made once per game and Stripe: features change
    (RU-DC-5/7) but never come or go, so `moves` reads their state from the features themselves."""
    table = game.__dict__.get(MOVES)
    if table is None:
        table = game.__dict__[MOVES] = [None] * (STRIPES + 1)
    row = table[here]
    if row is None:
        row = table[here] = [(stripe, place, f, OFF["move"] + ((stripe - 1) * PLACES + place) * 2)
                             for stripe in range(max(1, here - 1), min(STRIPES, here + 1) + 1)
                             for place, f in enumerate(game.places[stripe])]
    return row


def enemy_ground(game) -> set:
    """(stripe, place) of every Ground level an enemy group holds: the places `geometry.groups_at(game.enemies,
    stripe, place, GROUND)` finds someone in."""
    return {(e.stripe, e.place) for e in game.enemies if e.units and not e.exited and not e.in_sewer and e.level == GROUND}


def floor_and_hop(game, g, out: list) -> None:
    costs = game.tables.ap_costs
    if game.ap >= costs["floor"] and geometry.kind_at(game, g.stripe, g.place) == "ms" \
            and not geometry.groups_at(game.enemies, g.stripe, g.place, 1 - g.level):
        out.append(OFF["floor"])                          # RU-MS-3
    partner = geometry.complex_partner(game, g.stripe, g.place)
    if game.ap >= costs["hop"] and partner is not None and not partner.sealed \
            and not geometry.groups_at(game.enemies, partner.stripe, partner.place, g.level):
        out.append(OFF["hop"])                            # RU-CPX-4


def sewer_actions(game, g, out: list) -> None:
    costs = game.tables.ap_costs
    if game.ap < costs["sewer"] or movement_barred(g):
        return
    for direction, delta in ((0, -1), (1, 1)):
        if 1 <= g.stripe + delta <= STRIPES:
            out.append(OFF["sewer_move"] + direction)     # RU-SEW-3
    if g.stripe in game.scenario.sewer_stripes:
        out.append(OFF["sewer_leave"])                    # RU-SEW-4


def cc_targets(game, g) -> list:
    """RU-CC-1 / RD-CC-1: enemy groups at range 0 in sight, not in a Sealed Building (RU-TER-4); Engaged ones as the
    module allows (RU-CC-15: only while the friend in that fight has not activated; RD-CC-9: always)."""
    found = []
    for e in game.enemies:
        if abs(e.stripe - g.stripe) > 1:                  # range 2+ (RB-MAP-3): never range 0, skip the rest
            continue
        if not e.units or e.exited or not geometry.groups_see(game, g, e):     # Group.on_map as fields
            continue
        if geometry.group_distance(game, g, e) != 0 or sealed_in(game, e):
            continue
        if game.module.may_attack(game, g, e):
            found.append(e)
    return found


def demo_actions(game, g, out: list) -> None:
    costs = game.tables.ap_costs
    pending = game.demo.get(g.gid)
    if pending is not None:
        if game.ap >= costs["demo_charge"] and demo_target_valid(game, g, pending):
            out.append(OFF["demo_retry"])
        if game.ap >= costs["demo_take_back"]:
            out.append(OFF["demo_take_back"])
        return
    if g.demo_charges > 0 and game.ap >= costs["demo_charge"]:   # RU-DC-1: only groups given charges
        for place, mode in demo.legal_targets(game, g):
            out.append(OFF["demo_place"] + 2 * place + mode)


def demo_target_valid(game, g, pending) -> bool:
    stripe, place, mode = pending
    return stripe == g.stripe and (place, mode) in demo.legal_targets(game, g)


def rubble_cost(game, ctx):
    """RU-RUB-2: pay the 2 AP or decline; RB-TURN-4: ending the phase is legal here too."""
    yield OFF["end_phase"]
    yield OFF["rubble_pay"]
    yield OFF["rubble_decline"]


# Enemy decisions -------------------------------------------------------------------------------------
def options_of(family: str):
    base = OFF[family]

    def legal(game, ctx):
        return [base + option for option in ctx["options"]]
    return legal


def advance_legal(game, ctx):
    return [OFF["e_advance"] + delta + 1 for delta in ctx["options"]]


def order_legal(game, ctx):
    """RB-AI-1: the module's orders (RB-TAB-7's four, or RD-AI-2's @Attack and @Advance)."""
    for name in game.module.orders:
        yield OFF["e_order"] + ORDER_NAMES.index(name)


def fast_legal(game, ctx):
    """RD-AI-1: a Fast group that can Fast-attack its target may fight instead (e_fast 0) or not (e_fast 1)."""
    yield OFF["e_fast"]
    yield OFF["e_fast"] + 1


def level_legal(game, ctx):
    g = game.enemies[ctx["group"]]
    yield OFF["e_level"]
    if not geometry.groups_at(game.players, g.stripe, g.place, FIRST):
        yield OFF["e_level"] + 1


def yes_no(game, ctx):
    yield OFF["e_yes"]
    yield OFF["e_no"]


LEGAL = {
    "player": player, "rubble_cost": rubble_cost,
    "activate": options_of("e_activate"), "order": order_legal, "place": options_of("e_place"),
    "level": level_legal, "target": options_of("e_target"), "advance": advance_legal,
    "move_up": yes_no, "through_complex": yes_no, "free_attacker": options_of("e_free_attacker"), "fast": fast_legal,
}


def answer_args(name: str, args: tuple) -> tuple:
    """Arguments an enemy answer handler takes for the chosen action."""
    if name in ("e_yes", "e_no", "rubble_pay", "rubble_decline"):
        return (name in ("e_yes", "rubble_pay"),)
    if name == "e_advance":
        return (args[0] - 1,)
    return args


# Words -------------------------------------------------------------------------------------------------
def why(game, action: int) -> str:
    """Why `action` is illegal now, in the game's words."""
    name, _ = CODEC.decode(action)
    kind, _ = game.decision
    side = "player" if game.current_side == 0 else "enemy"
    allowed = sorted({CODEC.decode(int(a))[0] for a in np.flatnonzero(game.legal_action_mask())})
    if name not in allowed:
        return f"the {side} is deciding '{kind}', where only {', '.join(allowed)} may be chosen"
    return f"its target or argument is not allowed now (AP {game.ap}, BAP {game.bap}, Recon {game.recon})"


def label(game, action: int) -> str:
    """The action in words, e.g. 'move A to 3a (rubble) with a Recon Point'."""
    name, args = CODEC.decode(action)
    active = game.players[game.active].name if game.active >= 0 else "-"
    words = {
        "activate": lambda: f"activate group {group_name(game.players, args[0])}",
        "move": lambda: f"move {active} to {game.place_name(args[0] + 1, args[1])}" + (" with a Recon Point" if args[2] else ""),
        "fire": lambda: f"{active} fires at {group_name(game.enemies, args[0])}" + (" with a BAP" if args[1] else ""),
        "close_combat": lambda: f"{active} close combat with {group_name(game.enemies, args[0])}" + (" with a BAP" if args[1] else ""),
        "rally": lambda: f"{active} rallies" + (" with a BAP" if args[0] else ""),
        "sewer_move": lambda: f"{active} moves in the sewer toward Stripe {'1' if args[0] == 0 else '6'}",
        "demo_place": lambda: f"{active} places a demo charge at place {args[0]} ({'breach' if args[1] == 0 else 'direct attack'})",
        "recon_reveal": lambda: f"spend a Recon Point to reveal marker {args[0]}",
        "e_activate": lambda: f"enemy activates {group_name(game.enemies, args[0])}",
        "e_order": lambda: f"enemy order {ORDER_NAMES[args[0]]}",
        "e_place": lambda: f"enemy takes place {args[0]}",
        "e_level": lambda: f"enemy to the {'First' if args[0] else 'Ground'} Floor",
        "e_target": lambda: f"enemy targets {group_name(game.players, args[0])}",
        "e_advance": lambda: f"enemy advance {('toward Stripe 1', 'stay', 'toward Stripe 6')[args[0]]}",
        "e_free_attacker": lambda: f"{group_name(game.enemies, args[0])} makes the free attack",
        "e_fast": lambda: "enemy makes a Fast attack" if args[0] else "enemy fights in close combat",
    }
    return words[name]() if name in words else name.replace("_", " ") + (f" ({active})" if name in GROUP_WORDS else "")


GROUP_WORDS = ("floor", "hop", "sewer_enter", "sewer_leave", "demo_retry", "demo_take_back", "exit", "end_activation")


def group_name(groups, slot: int) -> str:
    return groups[slot].name if slot < len(groups) else f"slot {slot}"
