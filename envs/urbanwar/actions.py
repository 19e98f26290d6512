"""The Urban War action space: one flat Discrete index per (family, arguments) (envs.engine.actions)."""
from envs.engine.actions import ActionCodec

from .config import DEPLOY_ROWS, MAX_MODELS, SIZE

REACH = 12                     # UW-MOVE-7: destination offsets |dx|, |dy| <= R (the scenarios' largest 2 x MV + CAL)
SPAN = 2 * REACH + 1
POSITIONS = REACH + 1          # UW-OW-3: path positions 0..L, L <= R (every step costs at least 1")
ACTION_KINDS = ("rush", "move_shoot", "charge", "fight", "break_off")    # UW-ACT-1, UW-ACT-7
RUSH, MOVE_SHOOT, CHARGE, FIGHT, BREAK_OFF = range(5)
DISRUPT, INTERCEPT = 0, 1
HOLD = MAX_MODELS              # the shoot family's "hold fire" argument

CODEC = ActionCodec([
    ("edge", (2,)),                      # 0 north, 1 south
    ("deploy_first", (2,)),              # 0 I deploy first, 1 the opponent does
    ("deploy", (SIZE, DEPLOY_ROWS)),     # x, row counted from the own edge
    ("order", (2,)),                     # 0 Snap-fire, 1 Overwatch
    ("initiative", (2,)),                # 0 activate first, 1 make the opponent go first
    ("activate", (MAX_MODELS,)),
    ("action", (len(ACTION_KINDS),)),
    ("dest", (SPAN, SPAN)),              # dx + R, dy + R
    ("shoot", (MAX_MODELS + 1,)),        # enemy slot, or HOLD
    ("cc_target", (MAX_MODELS,)),
    ("react_none", ()),
    ("react", (MAX_MODELS, 2, POSITIONS)),   # own slot, disruption / intercept, path position
    ("followup", (2,)),                  # 0 no, 1 yes
])
NUM_ACTIONS = CODEC.size
