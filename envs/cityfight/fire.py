"""Kinetic fire and fire results (CF-FIRE-1..19, CF-RES-1..8, CF-AUTO-4/5, CF-ACT-6/8)."""
from __future__ import annotations

import numpy as np

from envs.engine import reaction as reaction_window
from envs.engine.events import private

from . import ap, damage, knowledge
from .board import reach_row, sight
from .config import ANNOUNCED, CATEGORIES, OPEN
from .flow import Decision, answer, task
from .state import DEAD
from .tasks import KineticFire

S, K = "S", "K"
CATEGORY_WORDS = {"rifles": "rifles", "rifles_mg": "rifles and MG", "mg": "MG", "sniper": "sniper"}


def row(game, e):
    return game.tables.elements[e.row]


# Legality (read by legal.py) --------------------------------------------------------------------------
def may_fire(game, e) -> bool:
    """CF-ACT-8 / CF-ACT-11 / CF-FIRE-3: one fire a turn, not suppressed, not out of ammunition."""
    return not (e.fired or e.suppressed or e.ooa) and e.square != DEAD


def target_squares(game, e) -> np.ndarray:
    """CF-FIRE-1/2 / CF-AUTO-2: bool (size,) of the squares `e` may fire at: in LOS, range 1..Max, not Engaged,
    no own element there; none from an Engaged square."""
    board = game.board
    if game.engaged(e.square):
        return np.zeros(board.size, dtype=bool)
    return without_own(game, e.side, reach_row(game, e.square, 1, row(game, e).max_range))


def without_own(game, side: int, squares: np.ndarray) -> np.ndarray:
    """A copy of `squares` less those holding `side`'s elements (Engaged squares hold one too): CF-FIRE-2, they are
    never targets. Cleared one by one in the copy, where a blocked-squares array to invert and AND cost twice as
    many numpy calls."""
    out = squares.copy()
    for e in game.elements[side]:
        if e.square != DEAD:
            out[e.square] = False
    return out


def can_fire_at(game, e, target: int) -> bool:
    return may_fire(game, e) and bool(target_squares(game, e)[target])


def dice_choices(game, e) -> tuple[int, ...]:
    """CF-FIRE-4: 1 or 2 dice; a sniper rolls 1."""
    return (1,) if row(game, e).dice == 1 else (1, 2)


# Resolution ---------------------------------------------------------------------------------------------
def fire_strength(game, e, target: int) -> int:
    """CF-FIRE-5: the CF-TAB-1 value for the range band 1-2, 3-10 or 11-Max."""
    rng = int(game.board.range[e.square][target])
    first, second = game.tables.range_bands
    band = 0 if rng <= first else 1 if rng <= second else 2
    return row(game, e).fs[band]


def halve(value: int) -> int:
    """Halving rounds up (§1)."""
    return (value + 1) // 2


def modified_fs(fs: int, occupants, spotted: bool) -> int:
    """CF-FIRE-6: x2 if every occupant moved twice; CF-FIRE-7: halved if every occupant is suppressed;
    CF-FIRE-8: halved if unspotted (doubling first, each halving rounded up)."""
    if occupants and all(o.entered >= 2 for o in occupants):
        fs *= 2
    if occupants and all(o.suppressed for o in occupants):
        fs = halve(fs)
    if not spotted:
        fs = halve(fs)
    return fs


def die_result(die: int, fs: int, cover: tuple[int, int]) -> str | None:
    """CF-FIRE-10: die + FS against the cover row; CF-FIRE-11: a 6 gives at least S."""
    total = die + fs
    if total >= cover[1]:
        return K
    if total >= cover[0] or die == 6:
        return S
    return None


def better(a, b):
    """CF-FIRE-13: K beats S beats nothing."""
    order = {None: 0, S: 1, K: 2}
    return a if order[a] >= order[b] else b


def roll_result(dice: list[int], fs: int, cover: tuple[int, int]) -> str | None:
    """CF-FIRE-10..13: each die separately, a double 6 is K, the better result applies."""
    result = None
    for die in dice:
        result = better(result, die_result(die, fs, cover))
    if len(dice) == 2 and dice[0] == dice[1] == 6:
        result = K                                            # CF-FIRE-12
    return result


def runs_out(game, e, dice: list[int]) -> bool:
    """CF-FIRE-16/17: two dice showing a double: any double with an MG, else a double of 1s, 2s or 3s."""
    if len(dice) != 2 or dice[0] != dice[1]:
        return False
    return row(game, e).mg or dice[0] <= 3


def category_of(game, e) -> int:
    return CATEGORIES.index(row(game, e).category)


def announce(game, e, target: int, category: int, dice, origin_known: bool = True) -> None:
    """CF-FIRE-18 / CF-HID-7: the target side is told origin, category, target and dice, never the firers;
    CF-HID-8: the firing side is told nothing about the result."""
    origin = e.square if origin_known else -1
    knowledge.told_fire(game.knowledge[1 - e.side], origin, target, category, game.turn)
    where = game.name(e.square) if origin_known else "an unannounced square"
    game.log.add("fire", f"fire from {where} at {game.name(target)} ({ANNOUNCED[category]})", e.side,
                 dice=tuple(dice), origin=origin, target=target, rule="CF-FIRE-18")


def begin_fire(game, e, target: int, spotted: bool, reaction: str) -> None:
    """Ask for the number of dice (CF-FIRE-4), then resolve; a sniper has no choice."""
    choices = dice_choices(game, e)
    if len(choices) == 1:
        game.push(KineticFire(e.side, e.slot, target, choices[0], spotted, reaction))
    else:
        game.decide(Decision.DICE, e.side, element=e.slot, target=target, spotted=spotted, reaction=reaction)


@answer(Decision.DICE)
def answer_dice(game, ctx, name, *args) -> None:
    game.push(KineticFire(ctx["side"], ctx["element"], ctx["target"], args[0] + 1, ctx["spotted"], ctx["reaction"]))


@task(KineticFire)
def kinetic_fire(game, side: int, slot: int, target: int, count: int, spotted: bool, reaction: str) -> None:
    """CF-FIRE-1..19: roll, judge against the target's cover, apply; then the chance of return fire."""
    e = game.element(side, slot)
    e.fired, e.fired_still = True, True                       # CF-ACT-8, CF-FIRE-19 (only CF-SRCH-14)
    occupants = game.at(target, 1 - side)
    fs = fire_strength(game, e, target)
    dice = game.dice.dice(count)
    announce(game, e, target, category_of(game, e), dice)
    damage_result = roll_result(dice, halve(fs) if not spotted else fs, game.tables.cover[game.cover[target]])
    result = roll_result(dice, modified_fs(fs, occupants, spotted), game.tables.cover[game.cover[target]])
    if result == K and not spotted:
        result = S                                            # CF-FIRE-15
    if runs_out(game, e, dice):
        e.ooa, e.ooa_turn = True, game.turn
        game.log.add("ooa", f"{e.name} is out of ammunition", side, dice=tuple(dice), rule="CF-FIRE-16",
                     **private(side))                         # CF-HID-3: enemy OOA, which element acted
    mark_fired_on(occupants)
    apply_result(game, target, result, side)
    damage.hit_square(game, target, damage_result, e.square)  # CF-BLD-1/8: judged before CF-FIRE-6/7
    offer_return_fire(game, e, target, reaction)


def mark_fired_on(elements) -> None:
    """CF-RES-8: in the target, impact or blast square of enemy fire this turn."""
    for o in elements:
        o.fired_on = True


def apply_result(game, square: int, result: str | None, firing_side: int, spread: bool = True) -> None:
    """CF-RES-1..7 on the square (CF-FIRE-14: every element there, non-combat too), then CF-RES-2 / CF-RES-4
    to the other Open squares of its MSq."""
    if result is None:
        # CF-HID-8: the firing side is told nothing of the result (it depends on the occupants); CF-HID-7: the
        # target side is told the effects on its own elements
        game.log.add("result", f"no effect on {game.name(square)}", firing_side, square=square, rule="CF-FIRE-10",
                     **private(1 - firing_side))
        return
    occupants = game.at(square, 1 - firing_side)
    game.log.add("result", f"{result} on {game.name(square)}", firing_side, square=square, result=result, rule="CF-FIRE-10",
                 **private(1 - firing_side))                  # CF-HID-7/8, as above
    if result == K:
        kill_square(game, occupants)
    else:
        for o in occupants:
            suppress(game, o)
    if spread and (result == K or game.is_open(square)):
        spread_suppression(game, square, firing_side)


def suppress(game, e) -> None:
    """CF-RES-1: an unsuppressed element is suppressed and its section loses 1 AP."""
    if e.square == DEAD or e.suppressed:
        return
    e.suppressed = True
    e.overwatch = DEAD                                        # CF-OW-6: a suppressed watcher stops watching
    ap.lose(game, e, 1)
    game.log.add("suppressed", f"{e.name} is suppressed", e.side, rule="CF-RES-1", **private(e.side))   # CF-HID-3


def kill_square(game, occupants, told: bool = False) -> None:
    """CF-RES-3/6/7: K kills every element; a leader with combat elements rolls (1-3 killed, 4-6 suppressed).
    `told`: the enemy is told each kill by type (close assault, CF-CA-11)."""
    combat = [o for o in occupants if game.tables.elements[o.row].combat]
    for o in occupants:
        if not game.tables.elements[o.row].combat and combat:
            die = game.dice.d6()                              # CF-RES-6
            if die <= game.tables.leader_killed_on:
                ap.lose(game, o, 2)
                game.kill(o, f"K, leader roll {die}", told)
            else:
                game.log.add("leader_roll", f"{o.name} survives the K", o.side, dice=(die,), rule="CF-RES-6",
                             **private(o.side))           # CF-HID-3: enemy rolls
                suppress(game, o)
            continue
        ap.lose(game, o, 2)                                   # CF-RES-3 / CF-RES-7
        game.kill(o, "K", told)


def spread_suppression(game, square: int, firing_side: int) -> None:
    """CF-RES-2/4/5: the non-firing side's elements in the MSq's other Open squares are suppressed; not leaders."""
    board, held = game.board, game.by_square(1 - firing_side)
    for other in board.msq_squares[board.msq[square]]:
        if other == square or game.cover[other] != OPEN:
            continue
        for o in held.get(other, ()):
            o.fired_on = True                                 # CF-RES-8
            if not o.leader:                                  # CF-RES-5
                suppress(game, o)


# Return fire (CF-AUTO-4/5) ---------------------------------------------------------------------------------
def return_firers(game, origin: int, target: int, side: int) -> list:
    """CF-AUTO-4: surviving unsuppressed elements of `side` in `target` able to fire 1 AP at the origin."""
    found = []
    for e in game.at(target, side):
        if not may_fire(game, e) or e.overwatch != DEAD or not ap.can_spend(game, e, 1):   # CF-AUTO-5: not on overwatch
            continue
        if game.engaged(target) or game.engaged(origin):                                      # CF-AUTO-2
            continue
        if 1 <= game.board.range[target][origin] <= row(game, e).max_range and sight(game, target, origin):
            found.append(e.slot)
    return found


def offer_return_fire(game, firer, target: int, reaction: str, origin_known: bool = True) -> None:
    """CF-AUTO-4/5: after a fire with an announced origin; never against return fire. CF-HID-4/8: the window
    opens whenever the firing side could face return fire by what it knows (origin announced, firer alive, nothing
    Engaged, the origin in LOS and within the longest range any element has), and the target's side is asked even
    with nothing there able to fire back: then it may only pass."""
    origin = firer.square
    could = (reaction != "return" and origin_known and origin != DEAD and not game.engaged(target)
             and not game.engaged(origin) and 1 <= game.board.range[target][origin] <= longest_range(game)
             and sight(game, target, origin))
    options = return_firers(game, origin, target, 1 - firer.side) if could else []
    reaction_window.open_window(game, Decision.RETURN_FIRE, 1 - firer.side, could, options, origin=origin,
                                target=target, firer=firer.slot)


def longest_range(game) -> int:
    """The longest Max range of any element row (CF-TAB-1): public, unlike which row stands in a hidden square."""
    return max(r.max_range for r in game.tables.elements.values())


@answer(Decision.RETURN_FIRE)
def answer_return_fire(game, ctx, name, *args) -> None:
    if name == "pass":
        return
    side = ctx["side"]
    e = game.element(side, args[0])
    ap.spend(game, e, 1)
    # CF-HID-12: the original firer learns the returning square is occupied, and the category.
    knowledge.told_occupied(game.knowledge[1 - side], ctx["target"], game.turn)
    game.log.add("return_fire", f"return fire from {game.name(ctx['target'])}", side, rule="CF-HID-12")
    begin_fire(game, e, ctx["origin"], True, "return")
