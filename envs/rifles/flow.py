"""The Rifles flow registry (envs.engine.flow): rules register their tasks and decision answers here."""
from envs.engine.flow import DecisionKind, Flow

FLOW = Flow()
task = FLOW.task
answer = FLOW.answer


class Decision(DecisionKind):
    """The decisions the rules can ask a side for (the first item of `game.decision`)."""

    ACTIVATE = "activate"
    ADVANCE = "advance"
    FAST = "fast"
    FREE_ATTACKER = "free_attacker"
    LEVEL = "level"
    MOVE_UP = "move_up"
    ORDER = "order"
    PLACE = "place"
    PLAYER = "player"
    RUBBLE_COST = "rubble_cost"
    TARGET = "target"
    THROUGH_COMPLEX = "through_complex"
