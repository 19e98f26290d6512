"""The observation vector of one side: public state only (KC-HID-1..5, KC-HID-7).

Layout (float32, all in [0, 1] or small counts scaled):
  globals (24): turn/7, bag dice per side /16 (KC-HID-3), my side, I decide, decision kind one-hot (9; the
                tenth, `opening`, at index 22),
                options (3), VP/20 per side, game over, pending keep choices of mine (KC-TURN-9) /16, sides a unit
                inside has declared targets for (KB-FROM-3, N/E/S/W as bits) /16, [22] above, 1 spare
  decision (32): the unit the decision is about (one-hot 16), the other unit it names (mover, firer,
                 assaulter; one-hot 16)
  sections (8 x 4): exists, intact, burning, rubble
  units (16 x 35): see `unit_block`
  cells (432): terrain of each cell / 4 (KC-MAP-8, collapsed sections read as rubble)
"""
from __future__ import annotations

import numpy as np

from . import firefrom, geometry, hidden
from .actions import MAX_CELLS, MAX_SECTIONS
from .board import BURNING, INTACT, RUINED
from .flow import Decision
from .state import MAX_UNITS, ORDERS

KINDS = list(Decision)
GLOBALS, DECISION, SECTION, UNIT = 24, 32, 4, 35
SIZE = GLOBALS + DECISION + MAX_SECTIONS * SECTION + MAX_UNITS * UNIT + MAX_CELLS


def encode(game, side: int) -> np.ndarray:
    out = np.zeros(SIZE, dtype=np.float32)
    g = out[:GLOBALS]
    g[0] = game.turn / 7
    g[1], g[2] = game.bag.counts[0] / 16, game.bag.counts[1] / 16
    g[3] = side
    if game.decision is not None:
        kind, ctx = game.decision
        g[4] = ctx["side"] == side
        g[5 + KINDS.index(kind) if kind != Decision.OPENING else 22] = 1   # the tenth kind came after the options
        d = out[GLOBALS:GLOBALS + DECISION]
        if "uid" in ctx:
            d[ctx["uid"]] = 1
        other = ctx.get("mover", ctx.get("firer", ctx.get("attacker")))
        if other is not None:
            d[16 + other] = 1
    g[14] = game.options["no_building_entry"]
    g[15] = game.options["hidden_occupants"]
    g[16] = game.options["pinned_out"]
    g[17], g[18] = game.vp[0] / 20, game.vp[1] / 20
    g[19] = game.outcome is not None
    g[20] = sum(1 for k in game.pending_keep if game.units[int(k)].side == side) / 16
    if game.decision is not None:          # KB-FROM-3 / KC-HID-5: the sides already declared (public), as bits
        g[21] = sum(1 << firefrom.SIDES.index(d[0]) for d in game.decision[1].get("declared", [])) / 16
    base = GLOBALS + DECISION
    for s in range(len(game.board.sections)):
        state = game.section_state[s]
        out[base + s * SECTION: base + (s + 1) * SECTION] = (1, state == INTACT, state == BURNING, state == RUINED)
    base += MAX_SECTIONS * SECTION
    for u in game.units:
        unit_block(game, u, side, out[base + u.uid * UNIT: base + (u.uid + 1) * UNIT])
    base += MAX_UNITS * UNIT
    for y in range(game.board.height):
        for x in range(game.board.width):
            out[base + y * game.board.width + x] = geometry.terrain_at(game, (x, y)) / 4
    return out


def unit_block(game, u, side: int, b) -> None:
    """KC-HID-2: side, type, place, facing, models, pins, dice, destroyed (KC-HID-9: for an enemy occupant not
    yet revealed, only its place and dice)."""
    b[0] = 1
    b[1] = u.alive
    b[2] = u.side == side
    b[3 + ("infantry", "artillery", "vehicle").index(u.kind)] = 1
    if u.cell is not None:
        b[6], b[7] = (u.cell[0] + 0.5) / game.board.width, (u.cell[1] + 0.5) / game.board.height
    else:
        b[8] = 1
        b[9] = (u.section + 1) / MAX_SECTIONS
        b[10] = u.floor / 6
    if u.order is not None:
        b[14 + ORDERS.index(u.order)] = 1
    b[20] = u.kept
    b[21] = u.moved
    if not hidden.known_to(u, side):
        b[3:6] = 0                 # KC-HID-9: a hidden occupant shows no type (all zero), models, weapons or pins
        return
    b[11] = len(u.models) / 10
    b[12] = u.start_models / 10
    b[13] = u.pins / 10
    b[22] = u.small
    b[23] = u.immobile
    b[24] = u.facing / 8
    b[25] = u.team
    weapons = [game.tables.weapons[w] for _, w, _ in u.weapons()]
    b[26] = any(not w.small_arms for w in weapons)
    b[27] = any("flamethrower" in w.rules for w in weapons)
    b[28] = any("indirect" in w.rules for w in weapons)
    b[29] = sum(w.shots for w in weapons) / 20
    b[30] = game.tables.quality[u.quality][0] / 12
    b[31] = (game.tables.vehicle_damage[u.vclass] / 12) if u.vclass else game.tables.quality[u.quality][1] / 12
    b[32] = max([w.range for w in weapons] + [0]) / 72
    b[33] = u.quality == "veteran"
    if u.fixed_opening is not None:                         # KB-FROM-5 / KB-ART-1: its designated opening
        b[34] = (u.fixed_opening + 1) / 64
