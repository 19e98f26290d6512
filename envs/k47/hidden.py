"""Hidden information: what a side may not know (KC-HID-4, KC-TURN-9) and the `hidden_occupants` variant
(KC-HID-6/8/9): who is revealed, when a hidden occupant is revealed, the copies of a game that differ only in
what a side may not know, and the stand-in a side's view shows for an occupant it has not seen."""
from __future__ import annotations

from operator import attrgetter

from envs.engine.dice import with_other_dice
from envs.engine.events import private

from .board import centre
from .state import Model, Unit

REVEAL_IN = 6.0                  # KC-HID-8: 6" from the occupant's section
#: KC-HID-9: what a side's view holds for an enemy occupant it has not seen: the same stand-in for every one,
#: so nothing the side reads depends on the truth (a regular squad of five riflemen, not small).
STAND_IN_MODELS = 5


def hiding(game) -> bool:
    return bool(game.options["hidden_occupants"])


def known_to(unit, side: int | None) -> bool:
    """KC-HID-9: a unit's type, models, weapons and pins are known to its owner, to everyone once it is revealed,
    and to the umpire (side None)."""
    return side is None or unit.side == side or unit.revealed


def concealed(game, unit) -> bool:
    """KC-HID-6/9: whether `unit` is a hidden occupant its opponent has not seen yet."""
    return hiding(game) and not unit.revealed


def owner_only(game, unit, public: str | None = None, public_dice: bool = False) -> dict:
    """KC-HID-9: the `data` of an event about a hidden occupant's pins, casualties, damage or morale dice, or its
    order tests, which only its owner reads until it is revealed (the others read `public`, or nothing); {}
    for a unit everyone sees (events.private)."""
    if not concealed(game, unit):
        return {}
    return private(unit.side, public=public, public_dice=public_dice)


def conceal_occupants(game) -> None:
    """KC-HID-6: with the variant on, every unit set up inside starts hidden; units outside are always seen."""
    if not hiding(game):
        return
    for u in game.living():
        u.revealed = not u.inside
    reveal_nearby(game)


def reveal(game, unit, why: str, rule: str) -> None:
    """KC-HID-6/8: once revealed, a unit stays revealed for the rest of the game."""
    if unit.revealed:
        return
    unit.revealed = True
    game.log.add("revealed", f"{unit.name} is revealed ({why})", unit.side, rule=rule, uid=unit.uid)


def reveal_nearby(game) -> None:
    """KC-HID-8: an occupant is revealed when an enemy unit outside has its cell centre within 6" of the section,
    or an enemy unit inside is in a section within 6" of it (adjoining sections are 0"); a hidden unit that
    leaves its building is outside, and so seen (KC-HID-6)."""
    if not hiding(game):
        return
    board = game.board
    for u in game.living():
        if u.revealed:
            continue
        if not u.inside:
            reveal(game, u, "it left its building", "KC-HID-6")
            continue
        for e in game.living():
            if e.side == u.side:
                continue
            d = board.distance_to_section(centre(e.cell), u.section) if e.cell is not None else \
                board.section_distance(e.section, u.section)
            if d <= REVEAL_IN + 1e-9:
                reveal(game, u, f"{e.name} is within 6\"", "KC-HID-8")
                break


#: the fields of a hidden occupant its stand-in shows
stand_in_facts = attrgetter("uid", "side", "section", "floor", "order", "kept", "alive", "moved")


def stand_in(unit: Unit) -> Unit:
    """KC-HID-9: the public face of a hidden occupant: id, side, place and order dice; nothing of its own."""
    return Unit(unit.uid, "?", unit.side, "infantry", "regular", False,
                [Model("rifleman", [("rifle", "hand")]) for _ in range(STAND_IN_MODELS)], STAND_IN_MODELS, None,
                unit.section, unit.floor, order=unit.order, kept=unit.kept, alive=unit.alive, moved=unit.moved,
                revealed=False)


def hidden_variants(state, side: int) -> list:
    """KC-HID-4: another future dice stream; KC-TURN-9: the other side's keep choices not yet public, flipped;
    KC-HID-9: the other side's hidden occupants with other models and pins."""
    variants = [with_other_dice(state)]
    theirs = [k for k in state.pending_keep if state.units[int(k)].side != side]
    if theirs:
        data = state.to_dict()
        for k in theirs:
            data["pending_keep"][k] = not data["pending_keep"][k]
        variants.append(type(state).from_dict(data))
    occupants = [u for u in state.living() if not known_to(u, side)]
    if occupants:
        variants.append(other_occupants(state, occupants))
    return variants


def other_occupants(state, occupants: list):
    """A copy in which each hidden occupant has one more pin and the first two (by id, no Fixed weapon) have
    swapped their models, size and starting strength: the type, models, weapons and pins the opponent never sees."""
    data = state.to_dict()
    for u in occupants:
        data["units"][u.uid]["pins"] += 1
    free = [u.uid for u in occupants if u.fixed_opening is None]
    if len(free) >= 2:
        a, b = data["units"][free[0]], data["units"][free[1]]
        for key in ("models", "small", "start_models", "kind"):
            a[key], b[key] = b[key], a[key]
    return type(state).from_dict(data)
