"""Search (CF-SRCH-1..23, CF-ACT-4, CF-ACT-12, CF-HID-5/6): joint search, the search number, IFA."""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from envs.engine.events import private

from . import ap, fire, knowledge
from .board import sight_row
from .flow import Decision, answer, task
from .movement import STACK
from .state import DEAD
from .tasks import IfaOffer, SearchOffer, SearchResolve, SearchRoll


# Legality ---------------------------------------------------------------------------------------------
def may_search(game, e) -> bool:
    """CF-SRCH-2 / CF-AUTO-2: not suppressed, not from an Engaged square; 1 AP (CF-ACT-4)."""
    return not e.suppressed and e.square != DEAD and not game.engaged(e.square) and ap.can_spend(game, e, 1)


def target_msqs(game, e) -> list[int]:
    """CF-SRCH-1/3: own, adjacent or peri-adjacent MSqs with LOS to one of their squares; only the own from smoke."""
    if not may_search(game, e):
        return []
    board = game.board
    own = board.msq[e.square]
    if game.smoke[e.square]:
        return [own]                                          # CF-SRCH-3
    if not game.smoke_count:
        return list(clear_search_msqs(board)[e.square])      # no smoke anywhere: the static LOS decides
    return msqs_in_sight(board, e.square, sight_row(game, e.square))


def msqs_in_sight(board, square: int, sees: np.ndarray) -> list[int]:
    """CF-SRCH-1: the own MSq, and the MSqs within 2 of it holding a square in `sees` (the searcher's sight)."""
    own = board.msq[square]
    seen = np.bincount(board.msq_array, weights=sees, minlength=len(board.msq_squares)) > 0
    seen[own] = True
    return (seen & (board.msq_range[own] <= 2)).nonzero()[0].tolist()   # flatnonzero without its numpy wrappers


@lru_cache(maxsize=8)
def clear_search_msqs(board) -> tuple[tuple[int, ...], ...]:
    """Per square, `msqs_in_sight` under the static LOS: what a search may target when no smoke is on the map,
    built once per map as every element's legal actions ask it at every decision."""
    return tuple(tuple(msqs_in_sight(board, a, board.los[a])) for a in range(board.size))


#: CF-GRID-5: a square holds at most 3 friendly elements, so a search has at most 2 joiners (CF-ACT-12)
JOIN_SLOTS = STACK - 1


def joiners(game, searcher) -> list[int]:
    """CF-ACT-12: unsuppressed same-section elements in the searcher's square, with 1 AP to pay."""
    return [e.slot for e in game.elements[searcher.side] if e is not searcher and may_join(game, searcher, e)]


def may_join(game, searcher, e) -> bool:
    """CF-ACT-12: same section, same square, not suppressed, 1 AP to pay."""
    return (e.square == searcher.square and e.section == searcher.section and not e.suppressed
            and ap.can_spend(game, e, 1))


def slots(found: list[int]) -> list[int]:
    """`found` (element slots) padded with DEAD to JOIN_SLOTS: CF-HID-4/5, the searching side is always asked the
    same number of questions, so that who decides next never tells the enemy how many elements share the
    searcher's square or searched."""
    return list(found) + [DEAD] * (JOIN_SLOTS - len(found))


# Resolution -----------------------------------------------------------------------------------------------
def do_search(game, e, msq: int) -> None:
    ap.spend(game, e, 1)
    game.push(SearchOffer(e.side, e.slot, msq, [], slots(joiners(game, e))))


@task(SearchOffer)
def search_offer(game, side: int, searcher: int, msq: int, joined: list, candidates: list) -> None:
    """CF-ACT-12: each possible joiner in element order, a yes/no decision of the searching side.
    CF-HID-4/5: JOIN_SLOTS questions whatever the square holds; a slot with no element able to join (none there,
    or it has no AP left) asks about the searcher itself, with Pass as the only legal answer."""
    if not candidates:
        game.push(SearchRoll(side, searcher, msq, joined))
        return
    slot = candidates[0]
    able = slot != DEAD and may_join(game, game.element(side, searcher), game.element(side, slot))
    game.decide(Decision.JOIN, side, element=slot if able else searcher, able=able, searcher=searcher, msq=msq,
                joined=joined, rest=candidates[1:])


@answer(Decision.JOIN)
def answer_join(game, ctx, name, *args) -> None:
    joined = list(ctx["joined"])
    if name == "join":
        ap.spend(game, game.element(ctx["side"], ctx["element"]), 1)
        joined.append(ctx["element"])
    game.push(SearchOffer(ctx["side"], ctx["searcher"], ctx["msq"], joined, ctx["rest"]))


def spotter_dm(game, e, msq: int, joined: int) -> int:
    """CF-SRCH-10..12, CF-SRCH-19/20."""
    t, board, c = game.tables.search, game.board, game.conditions
    distance = int(board.msq_range[board.msq[e.square]][msq])
    dm = t["own_msq"] if distance == 0 else t["peri_adjacent"] if distance == 2 else 0
    dm += t["per_joiner"] * joined
    if distance > 0:
        dm += t["weather"][c["weather"]]                      # CF-SRCH-19: not in the own MSq
    if c["time"] == "night":
        dm += t["night"]                                      # CF-SRCH-20
    return dm


@task(SearchRoll)
def search_roll(game, side: int, searcher: int, msq: int, joined: list) -> None:
    """CF-SRCH-6/7: 2D6 once plus DMs = N; announced in full unless the option lets the searcher say less."""
    e = game.element(side, searcher)
    dice = game.dice.dice(2)
    number = sum(dice) + spotter_dm(game, e, msq, len(joined))
    # CF-HID-5: the searched side is told the announced N (the "search" event), never the dice: N less the dice
    # are the DMs, which tell the searcher's distance and how many joined
    game.log.add("search_roll", f"search of {game.board.msq_names[msq]}: N = {number}", side, dice=tuple(dice), rule="CF-SRCH-6",
                 **private(side))
    if game.options["allow_under_announce"]:
        game.decide(Decision.ANNOUNCE, side, element=searcher, msq=msq, joined=joined, number=number)
    else:
        game.push(SearchResolve(side, searcher, msq, joined, number))


@answer(Decision.ANNOUNCE)
def answer_announce(game, ctx, name, *args) -> None:
    game.push(SearchResolve(ctx["side"], ctx["element"], ctx["msq"], ctx["joined"], ctx["number"] - args[0]))


def effective_sr(game, e, msq: int) -> int:
    """CF-SRCH-9: the MSq's SR, at most 7 when the searcher is in that MSq."""
    sr = game.scenario.search_ratings[msq]
    if game.board.msq[e.square] == msq:
        sr = min(sr, game.tables.search["own_msq_sr_cap"])
    return sr


def target_dm(game, t) -> int:
    """CF-SRCH-13..18, CF-SRCH-21: the DMs of one hidden element."""
    s, night = game.tables.search, game.conditions["time"] == "night"
    dm = s["suppressed"] if t.suppressed else 0
    if t.fired_still:
        dm += s["fired_not_moved_night"] if night else s["fired_not_moved"]
    if t.seen_still:
        dm += s["seen_not_moved"]
    if game.board.xy(t.square) in game.scenario.prepared:
        dm += s["prepared"]
    if game.tables.elements[t.row].sniper:
        dm += s["sniper"]
    if t.roof:
        dm += s["roof"]
    return dm


def searchable(game, e, square: int, msq: int) -> bool:
    """CF-SRCH-5: smoke squares are skipped unless the searcher is in the target MSq."""
    return not game.smoke[square] or game.board.msq[e.square] == msq


@task(SearchResolve)
def search_resolve(game, side: int, searcher: int, msq: int, joined: list, number: int) -> None:
    """CF-SRCH-4/8, CF-HID-5/6: Open squares declared, others revealed on N + DMs >= SR; then IFA."""
    e = game.element(side, searcher)
    mine, theirs = game.knowledge[side], game.knowledge[1 - side]
    sr, found = effective_sr(game, e, msq), []
    held = game.by_square(1 - side)
    for square in game.board.msq_squares[msq]:
        if not searchable(game, e, square, msq):
            continue
        enemies = held.get(square)
        if game.is_open(square):
            if enemies:
                found.append(square)                          # CF-SRCH-4: declared, no roll
            else:
                knowledge.told_empty(mine, square, game.turn)
        elif enemies and any(number + target_dm(game, t) >= sr for t in enemies):
            found.append(square)                              # CF-SRCH-8: revealed
    for square in found:
        knowledge.told_occupied(mine, square, game.turn, spotted=True)   # CF-SRCH-22
        for t in held[square]:
            t.seen_still = True                               # CF-SRCH-15
    knowledge.told_searched(theirs, msq, number, found, game.turn)
    knowledge.searched_by_side(mine, msq, game.turn)
    game.log.add("search", f"search of {game.board.msq_names[msq]} (N {number}): "
                 f"{len(found)} square(s) occupied " + " ".join(game.name(s) for s in found), side, msq=msq, found=found, rule="CF-SRCH-8")
    if found:                                                 # CF-SRCH-23: only after a search that spotted squares
        game.push(IfaOffer(side, [searcher] + slots(joined)))


def ifa_targets(game, e) -> list[int]:
    """CF-SRCH-23: SPOTTED squares it may fire at (1 AP), if it has not fired this turn."""
    if not fire.may_fire(game, e) or not ap.can_spend(game, e, 1):
        return []
    allowed = fire.target_squares(game, e)
    return [s for s in game.knowledge[e.side].spotted if allowed[s]]


@task(IfaOffer)
def ifa_offer(game, side: int, searchers: list) -> None:
    """CF-SRCH-23: each element that searched, in order, may make an Immediate Fire Action.
    CF-HID-4/5: the searcher and every join slot are asked, whether or not the element is there, may still fire or
    has a target: the enemy knows the search spotted its squares, never how many searched nor their AP. A slot
    that cannot fire (no element, fired already, no AP, nothing in range) may only pass; its options are then the
    squares SPOTTED now (what the side knows), `able` False."""
    if not searchers:
        return
    slot, rest = searchers[0], searchers[1:]
    targets = ifa_targets(game, game.element(side, slot)) if slot != DEAD else []
    element = slot if slot != DEAD else searchers_first(game, side)
    game.decide(Decision.IFA, side, element=element, able=bool(targets),
                options=targets or list(game.knowledge[side].spotted), rest=rest)


def searchers_first(game, side: int) -> int:
    """The element whose activation this is: an empty IFA slot is asked about it."""
    return game.active if game.active_side == side else 0


@answer(Decision.IFA)
def answer_ifa(game, ctx, name, *args) -> None:
    side = ctx["side"]
    game.push(IfaOffer(side, ctx["rest"]))
    if name == "pass":
        return
    e = game.element(side, ctx["element"])
    ap.spend(game, e, 1)
    fire.begin_fire(game, e, game.board.uncode[args[0]], True, "ifa")
