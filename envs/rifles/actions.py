"""The Rifles action space: one flat Discrete split into families, each with an exact mask.

Player decisions (side 0) and the enemy decisions of rules catalog §13 (side 1) share one codec.
"""
from __future__ import annotations

from envs.engine.actions import ActionCodec

from .config import MAX_FEATURES, STRIPES

PLAYER_SLOTS = 8      # player groups
ENEMY_SLOTS = 12      # revealed enemy groups (markers + scenario groups)
MARKER_SLOTS = 8
PLACES = MAX_FEATURES + 1

CODEC = ActionCodec([
    ("end_phase", ()),                          # RB-TURN-4
    ("end_activation", ()),                     # RB-TURN-3
    ("activate", (PLAYER_SLOTS,)),
    ("move", (STRIPES, PLACES, 2)),             # stripe-1, place, spend a Recon Point (RU-EXP-2)
    ("fire", (ENEMY_SLOTS, 2)),                 # target, spend a BAP (RB-AP-3)
    ("close_combat", (ENEMY_SLOTS, 2)),
    ("rally", (2,)),
    ("floor", ()),
    ("hop", ()),
    ("sewer_enter", ()),
    ("sewer_move", (2,)),                       # 0 toward Stripe 1, 1 toward Stripe 6
    ("sewer_leave", ()),
    ("demo_place", (PLACES, 2)),                # target place on the Stripe, 0 breach / 1 direct
    ("demo_retry", ()),
    ("demo_take_back", ()),
    ("exit", ()),
    ("recon_reveal", (MARKER_SLOTS,)),
    ("rubble_pay", ()),
    ("rubble_decline", ()),
    ("e_activate", (ENEMY_SLOTS,)),             # RB-AI-2
    ("e_order", (4,)),                          # RB-AI-1/4
    ("e_place", (PLACES,)),                     # RB-AI-5
    ("e_level", (2,)),                          # RU-AI-2 under RB-AI-1
    ("e_target", (PLAYER_SLOTS,)),              # RB-AI-6, RB-AI-10
    ("e_advance", (3,)),                        # RB-AI-9: stripe -1, stay, +1
    ("e_yes", ()),                              # RU-AI-3, RU-AI-4
    ("e_no", ()),
    ("e_free_attacker", (ENEMY_SLOTS,)),        # RB-AI-11
    ("e_fast", (2,)),                           # RD-AI-1: 0 fight, 1 Fast attack
])

NUM_ACTIONS = CODEC.size
PLAYER_DECISIONS = ("player", "rubble_cost")
