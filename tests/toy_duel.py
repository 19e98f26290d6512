"""Toy duel: rock, paper, scissors as a two-side game, for the league and best-response tests.

Rules (DUEL-1..DUEL-3):
  DUEL-1  Blue chooses first, then red; neither sees the other's choice (the observation hides it).
  DUEL-2  Paper beats rock, scissors beat paper, rock beats scissors; the winner's return is 1, the loser's -1.
  DUEL-3  The same choice on both sides is a draw.
The registered "scripted" agent always plays rock: its known counter is paper, for either side.
Only registered (as "toy-duel") when a test calls `register()`, never by `import envs`.
"""
from __future__ import annotations

import numpy as np

import envs
from envs import registry
from envs.engine.contract import GameState, ObservationLayout, Ruleset
from envs.engine.dice import Dice, SeededDice
from envs.engine.events import EventLog

NAME = "toy-duel"
SIDES = ("blue", "red")
ROCK, PAPER, SCISSORS = 0, 1, 2
NUM_ACTIONS = 3
OBSERVATION_SIZE = 2          # which side I am (one-hot): never the other side's choice (DUEL-1)
_LABELS = ("rock", "paper", "scissors")
_BEATS = {PAPER: ROCK, SCISSORS: PAPER, ROCK: SCISSORS}   # DUEL-2


class DuelState(GameState):
    def __init__(self, dice: Dice) -> None:
        self.dice = dice
        self.choices: list[int | None] = [None, None]
        self.current_side: int | None = 0
        self.turn = 1
        self._log = EventLog()
        self.setup_events: list = []

    def legal_action_mask(self) -> np.ndarray:
        return np.full(NUM_ACTIONS, self.current_side is not None)

    def apply(self, action: int) -> list:
        self.check_legal(action, self.legal_action_mask(), lambda a: "the duel is over")
        side = self.current_side
        self.choices[side] = int(action)
        self._log.add("choose", f"{SIDES[side]} chooses", side, rule="DUEL-1")
        self.current_side = 1 if side == 0 else None
        return self._log.take()

    def observation(self, side: int) -> np.ndarray:
        return np.eye(2, dtype=np.float32)[side]

    def view(self, side: int) -> int:
        return side

    def returns(self) -> tuple[float, float]:
        blue, red = self.choices
        if self.current_side is not None or blue == red:   # DUEL-3
            return (0.0, 0.0)
        return (1.0, -1.0) if _BEATS[blue] == red else (-1.0, 1.0)

    def clone(self) -> DuelState:
        copy = DuelState.from_dict(self.to_dict())
        copy.dice = self.dice.branch()
        return copy

    def to_dict(self) -> dict:
        return {"choices": list(self.choices), "current_side": self.current_side, "dice": self.dice.to_dict()}

    @classmethod
    def from_dict(cls, data: dict) -> DuelState:
        state = cls(Dice.from_dict(data["dice"]))
        state.choices, state.current_side = list(data["choices"]), data["current_side"]
        return state

    def action_label(self, action: int) -> str:
        return _LABELS[action]

    def render_text(self, side: int | None = None) -> str:
        return " vs ".join("?" if c is None or side not in (None, s) else _LABELS[c] for s, c in enumerate(self.choices))

    def render_rgb(self, side: int | None = None) -> np.ndarray:
        return np.full((8, 8, 3), 255, dtype=np.uint8)

    def check_invariants(self) -> None:
        assert self.current_side is not None or None not in self.choices


class AlwaysRock:
    """The fixed toy agent: rock, whatever happens."""

    name = "scripted"

    def __init__(self, side: int = 0, seed: int | None = 0) -> None:
        self.side = side

    def act(self, observation, mask, view) -> int:
        return ROCK


class ToyDuel(Ruleset):
    name = NAME
    gym_id = "rubble/ToyDuel-v0"
    sides = SIDES
    num_actions = NUM_ACTIONS
    observation_size = OBSERVATION_SIZE
    default_scenario = "standard"
    state_type = DuelState
    rule_prefixes = ("DUEL-",)

    def scenarios(self) -> dict[str, str]:
        return {"standard": "<built in>"}

    def new_game(self, scenario=None, seed=0, dice=None, **options) -> DuelState:
        return DuelState(dice if dice is not None else SeededDice(seed))

    def build_position(self, spec: dict, dice=None, **options) -> DuelState:
        return self.new_game(dice=dice)

    def hidden_variants(self, state, side: int) -> list[DuelState]:
        return []

    def public_facts(self, state) -> tuple:
        """Nothing is public in a duel of sealed choices."""
        return ()

    def turn_limit(self, state) -> int:
        return 1

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        return np.zeros(OBSERVATION_SIZE, np.float32), np.ones(OBSERVATION_SIZE, np.float32)

    def observation_layout(self) -> ObservationLayout:
        """No board: the duel's vector is all there is."""
        return ObservationLayout(OBSERVATION_SIZE)


def register() -> Ruleset:
    """Register the duel and its always-rock agent (idempotent)."""
    if NAME not in registry.names():
        envs.register(NAME, ToyDuel.gym_id, ToyDuel())
        registry.register_agent("scripted", AlwaysRock, rulesets=(NAME,))
    return registry.get(NAME)
