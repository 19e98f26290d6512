"""The Cityfight flow registry (envs.engine.flow): rules register their tasks and decision answers here."""
from envs.engine.flow import DecisionKind, Flow

FLOW = Flow()
task = FLOW.task
answer = FLOW.answer


class Decision(DecisionKind):
    """The decisions the rules can ask a side for (the first item of `game.decision`)."""

    ACT = "act"
    ACTIVATE = "activate"
    ANNOUNCE = "announce"
    DICE = "dice"
    IFA = "ifa"
    JOIN = "join"
    OVERWATCH_FIRE = "overwatch_fire"
    RETURN_FIRE = "return_fire"
