"""Unit cards: each unit's state as one side may know it (None: the umpire, who knows all), in the game's own words.

The replay viewer shows them as cards beside the board; the play screen prints them as its unit panel where the
text map does not list the units itself (Rifles). Each ruleset's cards read the state through the same filters as
its own renderings, so a side's cards hold nothing its view hides: Cityfight's enemy elements never appear
(CF-HID-3), nor a Rifles sewer group to the enemy (RB-HID-3); a K47 occupant not yet revealed shows only what
KC-HID-9 makes public; an Urban War face-down order stays "face down" to the other side (UW-HID-2). The tests
check this against every ruleset's `hidden_variants`.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from envs.cityfight import render as cityfight_render
from envs.cityfight.state import DEAD
from envs.engine.secret_orders import HIDDEN
from envs.k47 import hidden as k47_hidden
from envs.rifles import render as rifles_render
from envs.urbanwar.config import SIZE as URBANWAR_SIZE


@dataclass(frozen=True)
class Card:
    """One unit: its owner, its name and its state as (what, value) pairs."""

    side: int
    name: str
    fields: tuple[tuple[str, str], ...]

    def line(self, viewer: int | None) -> str:
        """The card on one line, as the play screen's panel prints it."""
        whose = "" if viewer is None else f" ({'yours' if self.side == viewer else 'enemy'})"
        return f"{self.name}{whose}: " + ", ".join(f"{what} {value}" if what else value for what, value in self.fields)

    def to_json(self) -> list:
        return [self.side, self.name, [list(f) for f in self.fields]]


def card(side: int, name: str, *fields: tuple[str, str] | None) -> Card:
    """A card of the fields given (None: a field that does not apply now)."""
    return Card(side, name, tuple(f for f in fields if f is not None))


def flag(on: bool, what: str, value: str = "") -> tuple[str, str] | None:
    return (what, value) if on else None


# Rifles in the Ruins: a card per group on the map, a line per counter ----------------------------------------------------
def rifles(game, side: int | None) -> list[Card]:
    """Each group the side's map shows (RB-HID-3: not the player's sewer groups to the enemy): where it is, each
    living counter's weapon and results (RB-HIT-1), close combat and this turn's activation."""
    return [rifles_group(game, g) for g in game.players + game.enemies if rifles_render.shown(game, side, g)]


#: a place's kind in words (the map marks it MS, BLD, ...)
RIFLES_KIND = {"ms": "megasquare"}


def rifles_group(game, group) -> Card:
    feature = game.places[group.stripe][group.place]
    place = "Open" if feature is None else f"{feature.fid} {RIFLES_KIND.get(feature.kind, feature.kind)}" + \
        (", sealed" if feature.sealed else "")
    where = f"Stripe {group.stripe}, {place}" + (", First Floor" if group.level else "") + \
        (", in the sewer" if group.in_sewer else "")
    counters = [(u.name, rifles_counter(u, rifles_render.night(game))) for u in group.units if u.alive]
    return card(group.side, group.name, ("at", where), *counters,
                flag(group.engaged, "engaged", "in close combat"), flag(group.activated, "", "activated this turn"),
                flag(group.demo_charges > 0, "demo charges", str(group.demo_charges)))


def rifles_counter(unit, darkness: bool) -> str:
    """Weapon, kind (a Darkness enemy's type, where it is not its weapon's name), Leader and results: suppressed
    (SHAKEN for the player in Darkness, RD-GEN-2), or the results counted where a unit never is (RD-GEN-4)."""
    words = [unit.weapon, *([unit.kind] if unit.kind and unit.kind != unit.weapon else []), *(["Leader"] if unit.leader else [])]
    if unit.hits:
        words.append(("shaken" if darkness else "suppressed") if unit.suppressed else f"{unit.hits} result(s)")
    return " ".join(words)


# Cityfight: a card per element the side may see ------------------------------------------------------------------------
def cityfight(game, side: int | None) -> list[Card]:
    """The umpire's view: every element on the map; a side's: its own only (CF-HID-3)."""
    return [cityfight_element(game, e) for e in cityfight_render.shown_elements(game, side)]


def cityfight_element(game, e) -> Card:
    section = game.section_of(e)
    return card(e.side, e.name, ("row", e.row + (f" + {e.special}" if e.special else "") + (", leader" if e.leader else "")),
                ("at", game.name(e.square) + (", on the roof" if e.roof else "")),            # CF-TER-4
                ("", "suppressed" if e.suppressed else "not suppressed"),
                ("AP spent", str(e.ap_spent)),                                              # CF-AP-9
                ("section", f"{section.name}, pool {section.pool} AP, LR {section.lr}"),
                flag(e.fired, "", "fired this turn"),                                        # CF-ACT-8
                flag(e.overwatch != DEAD, "overwatch on", game.name(e.overwatch) if e.overwatch != DEAD else ""),
                flag(e.ooa, "", "out of ammunition"), flag(e.special_ooa, "", "special weapon out of ammunition"))


# Konflikt '47: a card per living unit ------------------------------------------------------------------------------------
def k47(game, side: int | None) -> list[Card]:
    """Every living unit (KC-HID-2: public on the open table); an occupant not yet revealed to `side` shows only its
    name, place and order dice (KC-HID-9)."""
    return [k47_unit(game, u, k47_hidden.known_to(u, side)) for u in game.living()]


def k47_unit(game, u, known: bool) -> Card:
    where = f"({u.cell[0]},{u.cell[1]})" if u.cell is not None else \
        f"{game.board.sections[u.section].name}, floor {u.floor}"
    order = (u.order or "none") + (" (kept)" if u.kept else "")
    if not known:
        return card(u.side, u.name, ("", "hidden occupant (KC-HID-9)"), ("in", where), ("order", order))
    kind = f"{u.quality} {u.vclass or u.kind}" + (", small" if u.small else "")
    return card(u.side, u.name, ("", kind), ("at" if u.cell is not None else "in", where),
                ("models", f"{len(u.models)} of {u.start_models}"), ("weapons", k47_weapons(u)),
                ("pins", str(u.pins)), ("order", order), flag(u.moved, "", "moved this turn"),
                flag(u.immobile, "", "immobilised"))                                         # KV-TAB-1


def k47_weapons(u) -> str:
    counts: dict[str, int] = {}
    for _, name, _ in u.weapons():
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(f"{n} {name}" if n > 1 else name for name, n in counts.items()) or "none"


# Urban War: a card per model on the table ---------------------------------------------------------------------------------
def urbanwar(game, side: int | None) -> list[Card]:
    """Every model on the table (UW-HID-1: public), its order as `side` may see it (UW-HID-2)."""
    return [urbanwar_model(game, m, side) for m in game.models if m.placed]


def urbanwar_model(game, m, side: int | None) -> Card:
    return card(m.side, m.id, ("", m.profile.name + (", commander" if m.commander else "")),
                ("at", f"({m.cell % URBANWAR_SIZE},{m.cell // URBANWAR_SIZE})"), ("wounds", f"{m.w} of {m.profile.W}"),
                flag(m.panic, "", "panicked"), ("order", urbanwar_order(game, m, side)),
                flag(m.activated, "", "activated this turn"), flag(m.fu_used > 0, "follow-ups used", str(m.fu_used)))


def urbanwar_order(game, m, side: int | None) -> str:
    seen = game.orders.seen_by(side, m.idx)
    down = game.orders.is_face_down(m.idx)
    if seen is HIDDEN:
        return "face down" if down else "none"
    return ("Overwatch" if seen == 1 else "Snap-fire") + (", face down" if down else "")


CARDS: dict[str, Callable[[object, int | None], list[Card]]] = {
    "rifles-urban": rifles, "rifles-darkness": rifles, "cityfight": cityfight, "k47": k47, "urbanwar": urbanwar}


def cards(ruleset_name: str, state, side: int | None) -> list[Card]:
    """The cards of `ruleset_name`'s units as `side` sees them (none for a ruleset without cards, as the toy race)."""
    found = CARDS.get(ruleset_name)
    return found(state, side) if found else []
