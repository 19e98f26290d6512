"""The typed flow tasks of Urban War (envs.engine.flow): what the rules do next, as plain records."""
from typing import NamedTuple


class RollOff(NamedTuple):          # UW-SETUP-2
    pass


class Deploy(NamedTuple):           # UW-SETUP-4
    side: int


class TurnStart(NamedTuple):        # UW-TURN-1..4
    pass


class AskOrder(NamedTuple):         # UW-TURN-5
    pass


class Initiative(NamedTuple):       # UW-TURN-6..8
    pass


class NextActivation(NamedTuple):   # UW-TURN-9..12
    side: int


class TurnEnd(NamedTuple):         # UW-TURN-12: a built position at the turn's end (position.py)
    pass


class BeginAction(NamedTuple):      # UW-TURN-10, UW-FU-1..4, UW-PANIC-8
    model: int
    followup: bool


class Window(NamedTuple):           # UW-OW-3
    stage: int


class Traverse(NamedTuple):         # UW-MOVE-4, UW-OW-9
    pass


class ChooseShot(NamedTuple):       # UW-ACT-3
    pass


class ChooseFight(NamedTuple):      # UW-ACT-7/8
    charged: bool


class BreakOff(NamedTuple):         # UW-CC-11..13
    pass


class ActionEnd(NamedTuple):        # UW-FU-1
    pass
