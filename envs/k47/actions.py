"""The Konflikt '47 action space: one flat Discrete index per (family, arguments) (envs.engine.actions)."""
from envs.engine.actions import ActionCodec

from .state import MAX_UNITS

MAX_CELLS = 24 * 18          # the default board; a larger board is refused on load
MAX_SECTIONS = 8
MAX_FLOORS = 6

CODEC = ActionCodec([
    ("unit", (MAX_UNITS,)),                     # KC-TURN-2: order this unit
    ("order", (6,)),                            # KC-ORD-1..6 in ORDERS order
    ("cell", (MAX_CELLS,)),                     # move to (or leave into) this cell
    ("enter", (MAX_SECTIONS,)),                 # KB-ENTER-2: Run into this section's floor 0
    ("floor", (MAX_SECTIONS, MAX_FLOORS)),      # KB-ORD-1/2: move inside to (section, floor)
    ("assault", (MAX_UNITS,)),                  # KC-CQ-2, KB-ASLT-1/3/4
    ("ram", (MAX_SECTIONS,)),                   # KV-RAM-2: Run a vehicle into this section
    ("target", (MAX_UNITS, 2)),                 # KC-SHOOT-3; mode 1 = HE (KC-HE-1)
    ("yes", ()),                                # take the reaction / keep the die
    ("pass", ()),                               # decline: always legal in a reaction (KC-DEC-2)
])
NUM_ACTIONS = CODEC.size
