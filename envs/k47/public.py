"""What both sides of a Konflikt '47 game may know (KC-HID-1/2/3/5, KC-HID-9), as the contract's `public_facts`
(envs.engine.contract); and the ranging-in states as the rules read them (KC-IND-2/3), which the observation shows.

The dice rolled are public too, but they belong to the event log, not to the position."""
from __future__ import annotations

from . import hidden

ZEROED = "zeroed"


def public_facts(game) -> tuple:
    """KC-HID-1: sections, turn, VP; KC-HID-2: the units; KC-HID-3: the bag and the ranging-in; KC-HID-5: the
    declarations made."""
    return (game.turn, game.outcome, tuple(game.section_state), tuple(game.vp), tuple(game.bag.counts),
            tuple(sorted(ranging_states(game).items())), tuple(unit_facts(u) for u in game.units),
            declarations(game), tuple(sorted(game.options.items())))


def ranging_states(game) -> dict:
    """KC-HID-3, KC-IND-2/3: (firer uid, target uid) -> ZEROED, or (need, fired this turn) for a ranging-in still
    running: fired at this turn or the last. An older ranging-in has lapsed (not consecutive turns) and a shot
    would start afresh, so it is no state at all."""
    states = {}
    for key, (need, last) in game.ranging.items():
        firer, target = (int(uid) for uid in key.split("-"))
        if need == 2:                                  # KC-IND-3: zeroed until either moves (KC-MOVE-3)
            states[firer, target] = ZEROED
        elif last in (game.turn, game.turn - 1):       # KC-IND-2: consecutive turns
            states[firer, target] = (need, last == game.turn)
    return states


def unit_facts(u) -> tuple:
    """KC-HID-2: side, place, facing, order dice, destroyed, and (KC-HID-9: once known to both sides) type, models
    by weapon and pins."""
    place = (u.uid, u.side, u.alive, u.cell, u.section, u.floor, u.order, u.kept, u.moved)
    if not known_to_both(u):
        return place
    return (*place, u.kind, u.facing, u.immobile, u.pins, u.fixed_opening, tuple(w for _, w, _ in u.weapons()))


def known_to_both(u) -> bool:
    """KC-HID-6/8/9: a unit both sides know: every unit but an occupant still hidden (a reveal is public)."""
    return hidden.known_to(u, 0) and hidden.known_to(u, 1)


def declarations(game) -> tuple | None:
    """KC-HID-5: the open decision's kind, who takes it, the units it names and the targets declared so far (with
    their HE choice); never its options."""
    if game.decision is None:
        return None
    kind, ctx = game.decision
    other = ctx.get("mover", ctx.get("firer", ctx.get("attacker")))
    declared = tuple((d[0], d[1], bool(d[2])) for d in ctx.get("declared", ()))
    return str(kind), ctx["side"], ctx.get("uid"), other, declared
