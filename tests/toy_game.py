"""Toy dice race: a tiny two-side game that implements the whole GameState protocol, for the adapter tests.

Rules (TOY-1..TOY-6):
  TOY-1  Each side has 2 AP per turn; blue starts; a turn ends when its AP run out or the side passes.
  TOY-2  ROLL (1 AP): a d6 is added to your score.
  TOY-3  SPRINT (2 AP, only with full AP): 2d6 are added to your score.
  TOY-4  Each side has a secret lucky number (a d6 at the start, hidden from the other side):
         every die showing it adds 3 more.
  TOY-5  First to `target` (default 30) wins at once.
  TOY-6  After `turn_limit` (default 8) full turns the higher score wins; equal scores draw.
Only registered (as "toy-race") when the tests call `register()`, never by `import envs`.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

import envs
from envs import registry
from envs.engine.contract import GameState, ObservationLayout, Ruleset
from envs.engine.dice import Dice, SeededDice
from envs.engine.events import EventLog

NAME = "toy-race"
SIDES = ("blue", "red")
PASS, ROLL, SPRINT = 0, 1, 2
NUM_ACTIONS = 3
AP_PER_TURN = 2
LUCKY_BONUS = 3
OBSERVATION_SIZE = 11  # own score, other score, AP, my turn, turn, lucky number one-hot (6)
_LABELS = ("pass", "roll a d6", "sprint: roll 2d6")
_COST = (0, 1, 2)


@dataclass(frozen=True)
class ToyView:
    """What one side may know."""

    side: int
    my_score: int
    their_score: int
    ap: int
    my_turn: bool
    turn: int
    lucky: int
    target: int


class ToyRaceState(GameState):
    """One dice race in progress."""

    def __init__(self, dice: Dice, target: int = 30, turn_limit: int = 8) -> None:
        self.dice, self.target, self.turn_limit = dice, target, turn_limit
        self.scores = [0, 0]
        self.lucky = [dice.d6(), dice.d6()]  # TOY-4
        self.ap = AP_PER_TURN
        self.current_side: int | None = 0
        self.turn = 1
        self.winner: int | None = None  # None: not over or a draw
        self._log = EventLog()
        self.setup_events: list = []   # the lucky numbers are rolled unlogged: secret from the other side

    # Legality: one function for the mask and for apply -------------------------------------------
    def _why_illegal(self, action: int) -> str | None:
        if action == SPRINT and self.ap < AP_PER_TURN:
            return f"sprint needs {AP_PER_TURN} AP, {self.ap} left (TOY-3)"
        return None

    def legal_action_mask(self) -> np.ndarray:
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        if self.current_side is not None:
            mask[PASS] = mask[ROLL] = True
            mask[SPRINT] = self.ap >= AP_PER_TURN
        return mask

    def apply(self, action: int) -> list:
        self.check_legal(action, self.legal_action_mask(), self._why_illegal)
        return self.atomically(lambda: self._resolve(action))

    def _resolve(self, action: int) -> list:
        side = self.current_side
        if action == PASS:
            self._log.add("pass", f"{SIDES[side]} passes", side, rule="TOY-1")
            self._end_turn()
        else:
            faces = self.dice.dice(action)  # ROLL rolls one die, SPRINT two
            self.ap -= _COST[action]  # before scoring: a winning roll ends the game with 0 AP
            self._score(side, faces)
            if self.current_side is not None and self.ap == 0:
                self._end_turn()
        return self._log.take()

    def _score(self, side: int, faces: list[int]) -> None:
        bonus = LUCKY_BONUS * sum(f == self.lucky[side] for f in faces)  # TOY-4
        self.scores[side] += sum(faces) + bonus
        self._log.add("roll", f"{SIDES[side]} rolls, score {self.scores[side]}", side, faces, rule="TOY-2", bonus=bonus)
        if self.scores[side] >= self.target:  # TOY-5
            self._finish(side)

    def _end_turn(self) -> None:
        if self.current_side == 1:
            if self.turn >= self.turn_limit:  # TOY-6
                blue, red = self.scores
                self._finish(None if blue == red else int(red > blue))
                return
            self.turn += 1
        self.current_side = 1 - self.current_side
        self.ap = AP_PER_TURN

    def _finish(self, winner: int | None) -> None:
        self.winner, self.current_side, self.ap = winner, None, 0
        self._log.add("end", "draw" if winner is None else f"{SIDES[winner]} wins", rule="TOY-6" if winner is None else "TOY-5")

    # What each side knows -------------------------------------------------------------------------
    def observation(self, side: int) -> np.ndarray:
        obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
        # A winning roll may pass the target; the observation clips there, so the bounds are [0, 1].
        obs[0] = min(self.scores[side], self.target) / self.target
        obs[1] = min(self.scores[1 - side], self.target) / self.target
        obs[2] = self.ap / AP_PER_TURN
        obs[3] = self.current_side == side
        obs[4] = self.turn / self.turn_limit
        obs[4 + self.lucky[side]] = 1.0  # never the other side's lucky number
        return obs

    def view(self, side: int) -> ToyView:
        return ToyView(side, self.scores[side], self.scores[1 - side], self.ap, self.current_side == side,
                       self.turn, self.lucky[side], self.target)

    def returns(self) -> tuple[float, float]:
        if self.current_side is not None or self.winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if self.winner == 0 else (-1.0, 1.0)

    # Copies and saves ------------------------------------------------------------------------------
    def clone(self) -> ToyRaceState:
        copy = ToyRaceState.__new__(ToyRaceState)
        copy.__dict__.update(self.__dict__)
        copy.scores, copy.lucky = list(self.scores), list(self.lucky)
        copy.dice, copy._log = self.dice.branch(), EventLog()
        return copy

    def to_dict(self) -> dict:
        return {"target": self.target, "turn_limit": self.turn_limit, "scores": list(self.scores),
                "lucky": list(self.lucky), "ap": self.ap, "current_side": self.current_side,
                "turn": self.turn, "winner": self.winner, "dice": self.dice.to_dict()}

    @classmethod
    def from_dict(cls, data: dict) -> ToyRaceState:
        state = cls.__new__(cls)
        state.target, state.turn_limit = data["target"], data["turn_limit"]
        state.scores, state.lucky = list(data["scores"]), list(data["lucky"])
        state.ap, state.current_side, state.turn = data["ap"], data["current_side"], data["turn"]
        state.winner, state.dice, state._log = data["winner"], Dice.from_dict(data["dice"]), EventLog()
        state.setup_events = []
        return state

    # For people ------------------------------------------------------------------------------------
    def action_label(self, action: int) -> str:
        return _LABELS[action]

    def render_text(self, side: int | None = None) -> str:
        lines = [f"turn {self.turn}/{self.turn_limit}, target {self.target}"]
        for s, name in enumerate(SIDES):
            lucky = self.lucky[s] if side in (None, s) else "?"
            marker = ">" if self.current_side == s else " "
            lines.append(f"{marker} {name:<4} score {self.scores[s]:>2}  lucky {lucky}")
        return "\n".join(lines)

    def render_rgb(self, side: int | None = None) -> np.ndarray:
        picture = np.full((16, 64, 3), 255, dtype=np.uint8)
        for s, colour in enumerate(((0, 0, 200), (200, 0, 0))):
            length = min(64, 64 * self.scores[s] // self.target)
            picture[8 * s:8 * s + 6, :length] = colour
        return picture

    def check_invariants(self) -> None:
        """Toy-specific invariants, called by the generic tests after every step."""
        assert 0 <= self.ap <= AP_PER_TURN, self.ap
        assert min(self.scores) >= 0 and 1 <= self.turn <= self.turn_limit
        assert (self.current_side is None) == (self.ap == 0)  # a turn ends the moment its AP run out
        assert self.winner is None or self.current_side is None


def hidden_variants(state: ToyRaceState, side: int) -> list[ToyRaceState]:
    """Copies of `state` that differ only in the other side's lucky number (hidden from `side`)."""
    data = state.to_dict()
    variants = []
    for lucky in range(1, 7):
        if lucky != data["lucky"][1 - side]:
            changed = dict(data, lucky=list(data["lucky"]))
            changed["lucky"][1 - side] = lucky
            variants.append(ToyRaceState.from_dict(changed))
    return variants


class ToyScripted:
    """Sprint when behind with full AP, pass when far ahead, otherwise roll."""

    name = "scripted"

    def __init__(self, side: int = 0, seed: int | None = 0) -> None:
        self.side = side

    def act(self, observation: np.ndarray, mask: np.ndarray, view: ToyView) -> int:
        if view.my_score >= view.their_score + 10:
            return PASS
        return SPRINT if mask[SPRINT] and view.my_score < view.their_score else ROLL


def new_game(scenario: str | None = None, seed: int = 0, dice: Dice | None = None, **options) -> ToyRaceState:
    """A fresh race; `scenario` "sprint" is a short race; options `target` and `turn_limit` override."""
    if scenario not in (None, "standard", "sprint"):
        raise ValueError(f"unknown toy scenario {scenario!r}; known: standard, sprint")
    rules = {"target": 15, "turn_limit": 4} if scenario == "sprint" else {}
    unknown = set(options) - {"target", "turn_limit"}
    if unknown:
        raise TypeError(f"unknown toy-race options {sorted(unknown)}; known: target, turn_limit")
    return ToyRaceState(dice if dice is not None else SeededDice(seed), **{**rules, **options})


def build_position(spec: dict, dice: Dice | None = None, **options) -> ToyRaceState:
    """A race from a small dict: scores, lucky numbers, AP, turn and who decides (every other field its default)."""
    known = {"scores", "lucky", "ap", "current_side", "turn"}
    unknown = set(spec) - known
    if unknown:
        raise ValueError(f"unknown toy position fields {sorted(unknown)}; known: {', '.join(sorted(known))}")
    state = new_game(dice=dice, **options)
    data = {**state.to_dict(), **{k: (list(v) if isinstance(v, (list, tuple)) else v) for k, v in spec.items()}}
    return ToyRaceState.from_dict({**data, "dice": state.dice.to_dict()})


class ToyRace(Ruleset):
    """The toy race as a registered ruleset: the whole contract in a page."""

    name = NAME
    gym_id = "rubble/ToyRace-v0"
    sides = SIDES
    num_actions = NUM_ACTIONS
    observation_size = OBSERVATION_SIZE
    default_scenario = "standard"
    state_type = ToyRaceState
    rule_prefixes = ("TOY-",)

    def scenarios(self) -> dict[str, str]:
        return {"standard": "<built in>", "sprint": "<built in>"}

    def new_game(self, scenario=None, seed=0, dice=None, **options) -> ToyRaceState:
        return new_game(scenario, seed, dice, **options)

    def build_position(self, spec: dict, dice=None, **options) -> ToyRaceState:
        return build_position(spec, dice, **options)

    def hidden_variants(self, state, side: int) -> list[ToyRaceState]:
        return hidden_variants(state, side)

    def public_facts(self, state: ToyRaceState) -> tuple:
        """Both scores as shares of the target (reached: 1), the AP left and the turn as a share of the limit (the
        scenarios differ in both: the race is to the target); never a lucky number (TOY-4)."""
        scores = tuple(Fraction(min(s, state.target), state.target) for s in state.scores)
        return scores, state.ap, Fraction(state.turn, state.turn_limit)

    def turn_limit(self, state: ToyRaceState) -> int:
        return state.turn_limit

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Scores and turn as fractions of their limits (clipped), AP, flags and the lucky one-hot: all in [0, 1]."""
        return np.zeros(OBSERVATION_SIZE, np.float32), np.ones(OBSERVATION_SIZE, np.float32)

    def observation_layout(self) -> ObservationLayout:
        """No board: a race has no map worth reading as a grid, so the whole vector is the vector part."""
        return ObservationLayout(OBSERVATION_SIZE)


RULESET = ToyRace()


def register() -> Ruleset:
    """Register the toy ruleset, its agents and its Gymnasium id (idempotent: tests may call it many times)."""
    if NAME not in registry.names():
        envs.register(NAME, RULESET.gym_id, RULESET)
        registry.register_agent("scripted", ToyScripted, rulesets=(NAME,))
    return registry.get(NAME)


__all__ = ["RULESET", "ToyRaceState", "build_position", "hidden_variants", "new_game", "register"]
