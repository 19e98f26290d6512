"""The one source of legality: which actions each decision allows, why others are illegal, and their names.

Every mask depends only on what the deciding side may observe (CF-HID-14): its own elements, the
public map and markers, Engaged squares, and its own knowledge.
"""
from __future__ import annotations

import numpy as np

from envs.engine.events import private

from . import ap, assault, fire, he, movement, overwatch, search, smoke
from .actions import CODEC, DIRECTION_NAMES, NUM_ACTIONS, OFF, SQUARES
from .config import CATEGORIES
from .flow import Decision, answer
from .state import DEAD, SIDE_NAMES
from .tasks import ActPrompt, EndActivation


def mask(game) -> np.ndarray:
    """Bool mask of the legal actions of the pending decision."""
    kind, ctx = game.decision
    return mask_of(LEGAL[kind](game, ctx))


#: up to this many actions a mask is written one action at a time (an index array costs as much as ~25 such writes)
FEW_ACTIONS = 24


def mask_of(actions: list[int]) -> np.ndarray:
    """The bool mask of a list of actions: a reaction's or an activation's few one by one, a longer list through an
    index array (numpy converts a list of Python ints item by item at about twice the cost)."""
    m = np.zeros(NUM_ACTIONS, dtype=bool)
    if len(actions) <= FEW_ACTIONS:
        for action in actions:
            m[action] = True
    else:
        m[np.fromiter(actions, dtype=np.intp, count=len(actions))] = True
    return m


def squares_to_actions(game, family: str, allowed) -> list[int]:
    """Flat actions of a square family from a bool (size,) array or a list of board squares."""
    base = OFF[family]
    if isinstance(allowed, np.ndarray):
        return (game.board.code_array[allowed] + base).tolist()
    code = game.board.code
    return [base + code[s] for s in allowed]


# The decisions --------------------------------------------------------------------------------------------
def activate_legal(game, ctx) -> list[int]:
    """CF-TURN-4..6: an element that may activate, or declare Out."""
    side = ctx["side"]
    return [OFF["out"]] + [OFF["activate"] + e.slot for e in game.elements[side] if ap.can_activate(game, e)]


def act_legal(game, ctx) -> list[int]:
    return act_actions(game, game.element(ctx["side"], ctx["element"]))


def act_actions(game, e, runs: bool = True) -> list[int]:
    """CF-ACT-1..11: the actions the activating element may take now; Pass is always legal (CF-ACT-10).
    Without the runs if `runs` is False (a doctrine that plans step by step skips their 64 checks)."""
    found = [OFF["pass"]]
    if not may_act(game, e):
        return found
    if runs:                                                  # the moves and the runs from one walk of the steps
        moves, pairs = movement.move_and_run_targets(game, e)
        found += [OFF["move"] + d for d in moves]
        found += [OFF["run"] + 8 * a + b for a, b in pairs]
    else:
        found += move_actions(game, e)
    for family in ACT_FAMILIES_AFTER_RUNS:
        found += ACT_FAMILIES[family](game, e)
    return found


def may_act(game, e) -> bool:
    """An action other than Pass is possible: CF-ACT-11, a suppressed element and a killed one (CF-HID-4) may only
    pass; so may one that cannot pay 1 AP (CF-AP-9), the least any action costs (CF-ACT-1..7, CF-CA-1), which the act
    mask of an element that has spent its 2 AP, asked all the same (CF-HID-4), learns without asking every family."""
    return not (e.suppressed or e.square == DEAD) and ap.can_spend(game, e, 1)


def act_mask(game, e) -> np.ndarray:
    """mask_of(act_actions(game, e)), each family's moves, MSqs or squares written straight into the mask (the act
    prompt builds it at every act decision; a list of actions to convert cost a third of it)."""
    m = np.zeros(NUM_ACTIONS, dtype=bool)
    m[OFF["pass"]] = True                                     # CF-ACT-10
    if not may_act(game, e):
        return m
    steps = movement.step_actions(game, e)
    if len(steps):                                            # none when it may not move (an empty index write costs)
        m[steps] = True
    board = game.board
    for msq in search.target_msqs(game, e):
        m[OFF["search"] + board.mcode[msq]] = True
    for family, squares_of in SQUARE_FAMILIES_IN_ORDER:
        squares = squares_of(game, e)
        if isinstance(squares, np.ndarray):
            write_squares(m, OFF[family], board, squares)
        else:
            for square in squares:
                m[OFF[family] + board.code[square]] = True
    return m


def write_squares(m: np.ndarray, base: int, board, squares: np.ndarray) -> None:
    """A square family's bool (board squares,) array into the mask at `base` (each family is written once, so its
    part is still clear): on an 18 x 18 map board order is codec order and it is one slice copy, else by the codes."""
    if board.size == SQUARES:
        m[base:base + SQUARES] = squares
    else:
        m[base:base + SQUARES][board.code_array] = squares


class ActionsOf:
    """`action in ActionsOf(game, e)` answers as `action in act_actions(game, e, runs=False)`, building only the
    families asked about (each once): a doctrine asks about a few actions of every element at each activation."""

    def __init__(self, game, e) -> None:
        self.game, self.e, self.found = game, e, {}

    def __contains__(self, action: int) -> bool:
        family = FAMILY_OF[action]
        if family == "pass":
            return True                                       # CF-ACT-10
        return action in self.family(family)

    def family(self, family: str) -> set[int]:
        """The legal actions of one act family (none for the runs, or when suppressed: CF-ACT-11)."""
        found = self.found.get(family)
        if found is None:
            if self.e.suppressed or family == "run" or family not in ACT_FAMILIES:
                found = set()
            else:
                found = set(ACT_FAMILIES[family](self.game, self.e))
            self.found[family] = found
        return found

    def squares(self, family: str) -> np.ndarray:
        """Bool (board squares,) of the squares the element may aim `family` (fire, special, overwatch) at now, indexed
        by square: what `family(...)` holds as actions, without building them (a doctrine asks it of a few
        contacts per element)."""
        key = "squares of " + family
        found = self.found.get(key)
        if found is None:
            squares = [] if self.e.suppressed else SQUARE_FAMILIES[family](self.game, self.e)   # CF-ACT-11
            if not isinstance(squares, np.ndarray):           # a list of squares (a bool array is read as it is)
                found = np.zeros(self.game.board.size, dtype=bool)
                found[squares] = True
                squares = found
            self.found[key] = found = squares
        return found


def move_actions(game, e) -> list[int]:
    return [OFF["move"] + d for d in movement.move_targets(game, e)]


def run_actions(game, e) -> list[int]:
    return [OFF["run"] + 8 * a + b for a, b in movement.run_targets(game, e)]


def search_actions(game, e) -> list[int]:
    return [OFF["search"] + game.board.mcode[m] for m in search.target_msqs(game, e)]


def overwatch_actions(game, e) -> list[int]:
    return squares_to_actions(game, "overwatch", watch_squares(game, e))


def watch_squares(game, e) -> np.ndarray | list[int]:
    """CF-ACT-5: the squares the element may put Overwatch on (none: an empty list)."""
    ow = overwatch.watch_squares(game, e)
    return [] if ow is None else ow


def fire_actions(game, e) -> list[int]:
    """CF-ACT-6 at a target square, and CF-CA-1 into the own Engaged square."""
    return squares_to_actions(game, "fire", fire_squares(game, e))


def fire_squares(game, e) -> np.ndarray | list[int]:
    """CF-CA-1: the own square when it is Engaged and the element may fire into it (no other target from an
    Engaged square, CF-AUTO-2); else CF-ACT-6's target squares (bool array) when it may fire."""
    own = own_square_assault(game, e)
    if own:
        return own
    if fire.may_fire(game, e) and ap.can_spend(game, e, 1):
        return fire.target_squares(game, e)
    return []


def special_actions(game, e) -> list[int]:
    return squares_to_actions(game, "special", he.he_targets(game, e))


def smoke_actions(game, e) -> list[int]:
    return squares_to_actions(game, "smoke", smoke.smoke_targets(game, e))


#: The act decision's families, in the order act_actions lists them
ACT_FAMILIES = {"move": move_actions, "run": run_actions, "search": search_actions, "overwatch": overwatch_actions,
                "fire": fire_actions, "special": special_actions, "smoke": smoke_actions}
#: The squares (bool array or list) of the families aimed at a square, as ActionsOf.squares reads them
SQUARE_FAMILIES = {"fire": fire_squares, "special": he.he_targets, "overwatch": watch_squares}
#: The families after the searches, in act_actions' order, by their squares (act_mask writes them)
SQUARE_FAMILIES_IN_ORDER = (("overwatch", watch_squares), ("fire", fire_squares), ("special", he.he_targets),
                            ("smoke", smoke.smoke_targets))
ACT_FAMILIES_AFTER_RUNS = tuple(ACT_FAMILIES)[2:]
assert tuple(ACT_FAMILIES)[:2] == ("move", "run")
#: The family name of every action: one list lookup where decoding costs a few microseconds
FAMILY_OF = [CODEC.decode(a)[0] for a in range(NUM_ACTIONS)]


def own_square_assault(game, e) -> list[int]:
    """CF-CA-1: fire into the own Engaged square starts an open close-assault round."""
    return [e.square] if assault.may_assault_own_square(game, e) else []


def options_of(family: str, squares: bool = False):
    def legal(game, ctx):
        if squares:
            return [OFF["pass"]] + squares_to_actions(game, family, ctx["options"])
        return [OFF["pass"]] + [OFF[family] + o for o in ctx["options"]]
    return legal


def dice_legal(game, ctx) -> list[int]:
    """CF-FIRE-4: 1 or 2 dice (a sniper's choice is made for it)."""
    e = game.element(ctx["side"], ctx["element"])
    return [OFF["dice"] + n - 1 for n in fire.dice_choices(game, e)]


def join_legal(game, ctx) -> list[int]:
    """CF-ACT-12; CF-HID-4/5: a join slot with no element able to join may only pass."""
    return [OFF["pass"], OFF["join"]] if ctx.get("able", True) else [OFF["pass"]]


def ifa_legal(game, ctx) -> list[int]:
    """CF-SRCH-23: Pass, or fire at one of the options; CF-HID-4/5: a slot that cannot fire may only pass."""
    return options_of("fire", squares=True)(game, ctx) if ctx.get("able", True) else [OFF["pass"]]


def announce_legal(game, ctx) -> list[int]:
    """CF-SRCH-7: the full N or any lower figure (down by at most 12)."""
    return [OFF["announce"] + k for k in range(13)]


def weapon_legal(game, ctx) -> list[int]:
    return [OFF["pass"]] + [OFF["weapon"] + w for w in ctx["options"]]


LEGAL = {
    "activate": activate_legal, "act": act_legal, "dice": dice_legal, "join": join_legal,
    "announce": announce_legal, "ifa": ifa_legal, "return_fire": options_of("react"),
    "overwatch_fire": weapon_legal,
}


# Answers to the act decision --------------------------------------------------------------------------------
@answer(Decision.ACT)
def answer_act(game, ctx, name, *args) -> None:
    """CF-ACT-1..10: carry out the chosen action, then ask again (CF-TURN-4)."""
    e = game.element(ctx["side"], ctx["element"])
    if name == "pass":
        game.log.add("pass", f"{e.name} passes", e.side, rule="CF-ACT-10", **private(e.side))   # CF-HID-3/4: which element
        game.push(EndActivation())
        return
    game.push(ActPrompt())
    board = game.board
    if name == "move":
        movement.do_move(game, e, args[0])
    elif name == "run":
        movement.do_run(game, e, *args)
    elif name == "search":
        search.do_search(game, e, board.muncode[args[0]])
    elif name == "overwatch":
        overwatch.do_overwatch(game, e, board.uncode[args[0]])
    elif name == "fire":
        do_fire(game, e, board.uncode[args[0]])
    elif name == "special":
        he.do_special(game, e, board.uncode[args[0]])
    elif name == "smoke":
        smoke.do_smoke(game, e, board.uncode[args[0]])


def do_fire(game, e, target: int) -> None:
    """CF-ACT-6: 1 AP; unspotted unless the square is SPOTTED for this activation via an automatic spot (CF-FIRE-9)."""
    ap.spend(game, e, 1)
    if target == e.square:
        from . import assault
        assault.start_by_fire(game, e)
        return
    fire.begin_fire(game, e, target, False, "")


# Words -------------------------------------------------------------------------------------------------
def why(game, action: int) -> str:
    """Why `action` is illegal now, in the game's words."""
    name, _ = CODEC.decode(action)
    kind, ctx = game.decision
    allowed = allowed_families(game)
    if name not in allowed:
        return f"the {SIDE_NAMES[ctx['side']]} is deciding '{kind}', where only {', '.join(allowed)} may be chosen"
    if "element" in ctx:
        e = game.element(ctx["side"], ctx["element"])
        return (f"its target or argument is not allowed now ({e.name}: AP spent {e.ap_spent}, "
                f"pool {game.section_of(e).pool}{', suppressed' if e.suppressed else ''}{', has fired' if e.fired else ''})")
    return "its argument is not allowed now"


def allowed_families(game) -> list[str]:
    """The families with a legal action now (cached with the mask: illegal attempts come in bursts)."""
    m = game.legal_action_mask()
    cached = getattr(game, "_families", None)
    if cached is None or cached[0] is not m:
        starts = np.flatnonzero(m)
        names = sorted({FAMILY_OF[a] for a in starts.tolist()})
        game._families = cached = (m, names)
    return cached[1]


FAMILY_OF = [CODEC.decode(a)[0] for a in range(NUM_ACTIONS)]


def square_name(game, code: int) -> str:
    square = game.board.uncode.get(code)
    return f"square #{code} (off this map)" if square is None else game.name(square)


def label(game, action: int) -> str:
    """The action in words, e.g. 'fire at k6'."""
    name, args = CODEC.decode(action)
    words = {
        "pass": lambda: "pass / decline",
        "out": lambda: "declare Out",
        "activate": lambda: f"activate element {element_name(game, args[0])}",
        "move": lambda: f"move {DIRECTION_NAMES[args[0]]}",
        "run": lambda: f"run {DIRECTION_NAMES[args[0]]} then {DIRECTION_NAMES[args[1]]}",
        "search": lambda: f"search MSq {msq_name(game, args[0])}",
        "overwatch": lambda: f"overwatch {square_name(game, args[0])}",
        "fire": lambda: f"fire at {square_name(game, args[0])}",
        "special": lambda: f"fire special weapon at {square_name(game, args[0])}",
        "smoke": lambda: f"fire smoke at {square_name(game, args[0])}",
        "dice": lambda: f"roll {args[0] + 1} {'die' if args[0] == 0 else 'dice'}",
        "join": lambda: "join the search",
        "react": lambda: f"return fire with element {element_name(game, args[0])}",
        "weapon": lambda: "overwatch fire with " + ("the kinetic weapons" if args[0] == 0 else "the special weapon"),
        "announce": lambda: f"announce the search number minus {args[0]}",
    }
    return words[name]()


def element_name(game, slot: int) -> str:
    side = game.current_side if game.current_side is not None else 0
    elements = game.elements[side]
    return elements[slot].name if slot < len(elements) else f"slot {slot}"


def msq_name(game, code: int) -> str:
    m = game.board.muncode.get(code)
    return f"MSq #{code} (off this map)" if m is None else game.board.msq_names[m]


__all__ = ["CATEGORIES", "CODEC"]
