"""One playtest game played to its end with its telemetry: outcome and victory condition, length, casualties (type,
turn, board cell), how often each rule fired, and a check that its dice were the streams of its seed."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from envs.engine.contract import decide
from envs.engine.dice import agent_seed

from . import scenario as playtest_scenario
from .board import units as live_units
from .dice import PhaseClock, PhaseDice, game_dice, rolled_as_given

MAX_DECISIONS = 200_000   # as `rubble simulate`: a game this long is a bug, not a long game
_NUMBER = re.compile(r"\d+")


@dataclass(frozen=True)
class Casualty:
    side: int
    unit: str        # the unit's type (weapon, element row, Darkness type)
    turn: int
    cell: tuple[int, int]


@dataclass(frozen=True)
class GameTelemetry:
    """What one game of one variant did."""

    table: int
    variant: int
    seed: int
    returns: tuple[float, ...]
    decisions: int
    turns: int
    victory: str                     # the rule and words that ended it, numbers as N: "RB-VIC-1: the objective is held"
    rules: Counter                   # rule ID -> times an event cited it
    casualties: tuple[Casualty, ...] | None = ()   # None: the ruleset does not say where its units are
    dice: tuple[int, ...] = ()       # every face rolled, in order
    dice_from_seed: bool = True      # every roll came from the streams of `seed` its pairing gives, in order


def victory_condition(events) -> str:
    """The last game-over event's rule and reason, with its numbers as N so that equal reasons count together."""
    for event in reversed(events):
        if event.kind == "game_over":
            reason = event.text.partition(":")[2].strip() or event.text
            return f"{event.rule}: {_NUMBER.sub('N', reason)}"
    return "no game-over event"


def _casualties(before, after, turn: int) -> list[Casualty]:
    return [Casualty(side, unit, turn, cell) for key, (side, unit, cell) in before.items() if key not in after]


def play(rs, variant, factories, seed: int, table: int = 0, index: int = 0, pairing: str = "decision") -> GameTelemetry:
    """Game `seed` of `variant`, side s played by `factories[s]`, its dice paired by `pairing`, with its telemetry."""
    dice = game_dice(pairing, seed)
    state = playtest_scenario.new_game(rs, variant, seed, dice)
    agents = [make(side, agent_seed(seed, side)) for side, make in enumerate(factories)]
    units = live_units(rs, state)    # None: casualties are not measured
    rules, casualties, tail = Counter(e.rule for e in state.setup_events), [], state.setup_events
    decisions, phase = 0, PhaseClock(pairing)
    while not state.is_over:
        side, turn = state.current_side, state.turn
        if isinstance(dice, PhaseDice):
            dice.enter(phase.key(turn, side))
        new = state.apply(decide(agents[side], state, side))
        rules.update(e.rule for e in new)
        tail = new or tail   # the game-over event is among the last decision's events
        if units is not None:
            now = live_units(rs, state)
            casualties += _casualties(units, now, turn)
            units = now
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise RuntimeError(f"{rs.name} game seed {seed} passed {MAX_DECISIONS} decisions without ending")
    rules.pop("", None)   # an event no rule claims is not a rule firing
    return GameTelemetry(table, index, seed, tuple(state.returns()), decisions, state.turn, victory_condition(tail),
                         rules, None if units is None else tuple(casualties), tuple(f for _, f in dice.log), rolled_as_given(dice, seed))
