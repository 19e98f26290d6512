"""The Urban War flow registry (envs.engine.flow) and the decisions its rules ask a side for (UW-DEC-1..8)."""
from envs.engine.flow import DecisionKind, Flow

FLOW = Flow()
task = FLOW.task
answer = FLOW.answer


class Decision(DecisionKind):
    EDGE = "edge"                    # UW-DEC-1
    DEPLOY_FIRST = "deploy_first"    # UW-DEC-1
    DEPLOY = "deploy"                # UW-DEC-1
    ORDER = "order"                  # UW-DEC-2
    INITIATIVE = "initiative"        # UW-DEC-3
    ACTIVATE = "activate"            # UW-DEC-4
    ACTION = "action"                # UW-DEC-5
    DEST = "dest"                    # UW-DEC-5
    REACT = "react"                  # UW-DEC-6
    SHOOT = "shoot"                  # UW-DEC-7
    CC_TARGET = "cc_target"          # UW-DEC-7
    FOLLOWUP = "followup"            # UW-DEC-8
