"""The Cityfight action space: one flat Discrete split into families, each with an exact mask.

Squares are coded y * 18 + x and MSqs by * 6 + bx whatever the scenario's map size (config.MAX_W/MAX_H).
Directions follow envs.engine.grid.DIRECTIONS8: N, E, S, W, NE, SE, SW, NW.
"""
from __future__ import annotations

from envs.engine.actions import ActionCodec

from .config import MAX_ELEMENTS, MAX_H, MAX_MSQ, MAX_W

SQUARES = MAX_W * MAX_H
DIRECTION_NAMES = ("N", "E", "S", "W", "NE", "SE", "SW", "NW")

CODEC = ActionCodec([
    ("pass", ()),                    # CF-ACT-10: end the activation; in reactions and offers: decline
    ("out", ()),                     # CF-TURN-6: declare Out
    ("activate", (MAX_ELEMENTS,)),   # CF-TURN-4: the element to activate
    ("move", (8,)),                  # CF-ACT-1
    ("run", (8, 8)),                 # CF-ACT-2: first and second step
    ("search", (MAX_MSQ,)),          # CF-ACT-4
    ("overwatch", (SQUARES,)),       # CF-ACT-5
    ("fire", (SQUARES,)),            # CF-ACT-6 (also IFA, CF-SRCH-23)
    ("special", (SQUARES,)),         # CF-ACT-7: HE/AS
    ("smoke", (SQUARES,)),           # CF-SMK-1
    ("dice", (2,)),                  # CF-FIRE-4: 1 or 2 dice
    ("join", ()),                    # CF-ACT-12: this element joins the search
    ("react", (MAX_ELEMENTS,)),      # CF-AUTO-4: the element that returns fire
    ("weapon", (2,)),                # CF-OW-4: overwatch fire with 0 kinetic / 1 special weapon
    ("announce", (13,)),             # CF-SRCH-7: announce N minus 0..12
])

NUM_ACTIONS = CODEC.size
OFF = {name: f.offset for name, f in CODEC.families.items()}
