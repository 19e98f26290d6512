"""The Konflikt '47 flow registry (envs.engine.flow): rules register their tasks and decision answers here."""
from envs.engine.flow import DecisionKind, Flow

FLOW = Flow()
task = FLOW.task
answer = FLOW.answer


class Decision(DecisionKind):
    """KC-DEC-1/2: the decisions the rules ask a side for; `ctx["side"]` is always the deciding side."""

    UNIT = "unit"              # KC-TURN-2: the drawn side picks the unit to order
    ORDER = "order"            # KC-ORD-1..6
    MOVE = "move"              # KC-ORD-2/3: destination cell, assault target, or stay
    TARGET = "target"          # KC-SHOOT-3: fire target, or hold fire
    DOWN = "down"              # KC-SHOOT-2: a targeted unit with no order may go Down
    REACT_FIRE = "react_fire"  # KC-CQ-3: a unit assaulted may fire at the assaulter
    AMBUSH = "ambush"          # KC-AMB-1: an Ambush unit may fire at a mover
    KEEP = "keep"              # KC-TURN-5/9: keep or return a Down/Ambush die
    FRIENDLY = "friendly"      # KC-ORD-10: the opponent picks the friendly-fire target
    OPENING = "opening"        # KB-FROM-5: the opening a Fixed weapon fires from (its outside cell), or keep
