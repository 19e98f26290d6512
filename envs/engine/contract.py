"""The ruleset contract: everything a ruleset provides to the suite, declared once, here.

A ruleset is two classes:

  * a `Ruleset` subclass: its metadata (name, Gymnasium id, sides, sizes, default scenario) as class
    attributes, and the verbs that make games (`scenarios`, `new_game`, `build_position`, `from_dict`) and
    that the generic suite needs (`hidden_variants`, `public_facts`, `turn_limit`);
  * a `GameState` subclass: one game in progress, with the state verbs (mask, apply, observation, view,
    returns, clone, save/restore, labels, renders, invariants).

The adapters (Gymnasium, PettingZoo), the CLI and the generic test suite read only what is declared here.
A class that leaves out a required part cannot be instantiated, and the error names the part (abstract
methods by Python itself, metadata by `Ruleset.__init__`). Rules know *sides* (0, 1, ...); the
adapters map agents to sides. `envs/README.md` walks through writing a ruleset against this contract.

Where the board lies in the flat observation is declared here too (`ObservationLayout`, returned by every
ruleset's `observation_layout`): a library that wants the map as a grid of planes (a convolutional policy,
an entity encoder) reshapes the same vector every other consumer reads, and the observation never changes.

The agent interface lives here too, since the Gymnasium adapter plays opponents with it: an agent is any
object with `act(observation, mask, view) -> int`; `agents/` provides the policies and registers them.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar, NamedTuple, Protocol

import numpy as np

from .dice import Dice
from .events import Event


class IllegalActionError(ValueError):
    """An action outside the legal mask; the state is left unchanged."""


class GameOverError(IllegalActionError):
    """A game that is over was asked for a mask or an action."""


# One game in progress ------------------------------------------------------------------------------------
class GameState(ABC):
    """One game in progress: what every ruleset's state class provides."""

    #: who decides now; None when the game is over
    current_side: int | None
    #: the game turn (1, 2, ...); the adapters report it in `info["turn"]`
    turn: int
    #: the injected dice every roll goes through (seeded, or scripted in rule tests)
    dice: Dice
    #: what the set-up rolled before the first decision (the adapters hand it out at reset, with the umpire's log)
    setup_events: list[Event]

    @abstractmethod
    def legal_action_mask(self) -> np.ndarray:
        """Bool array of shape (num_actions,), never all false while the game is not over; callers must not
        mutate it (a ruleset may cache it)."""

    @abstractmethod
    def apply(self, action: int) -> list[Event]:
        """Play `action` for `current_side`; IllegalActionError (changing nothing) if it is not legal."""

    @abstractmethod
    def observation(self, side: int) -> np.ndarray:
        """A fresh float32 vector (observation_size,) of what `side` may know, nothing more."""

    @abstractmethod
    def view(self, side: int) -> Any:
        """A read-only view of what `side` may know, for scripted agents and renderers."""

    @abstractmethod
    def returns(self) -> tuple[float, ...]:
        """Per-side result: +1 win, -1 loss, 0 draw or not over."""

    @abstractmethod
    def clone(self) -> GameState:
        """An independent copy whose dice stream is branched (rollouts never shift this game's dice)."""

    @abstractmethod
    def to_dict(self) -> dict:
        """Everything needed to continue this game identically (JSON-compatible)."""

    @classmethod
    @abstractmethod
    def from_dict(cls, data: dict) -> GameState:
        """Restore a game saved with `to_dict` (never aliasing `data`)."""

    @abstractmethod
    def action_label(self, action: int) -> str:
        """The action in the game's own words, for every index 0..num_actions-1, legal or not."""

    @abstractmethod
    def render_text(self, side: int | None = None) -> str:
        """A text map as `side` sees it (None: the umpire's view)."""

    @abstractmethod
    def render_rgb(self, side: int | None = None) -> np.ndarray:
        """An (H, W, 3) uint8 picture as `side` sees it (None: the umpire's view)."""

    @abstractmethod
    def check_invariants(self) -> None:
        """Raise AssertionError if the state breaks a rule that must always hold (AP never negative, dead units
        stay dead...); the generic suite calls it after every decision of its random games."""

    def decision_kind(self) -> str | None:
        """The kind of decision `current_side` faces (a ruleset's decision enum), or None: a game of one kind of
        decision need not say. The generic suite reads it to find reaction windows (`Ruleset.reaction_kinds`)."""
        return None

    # Shared conveniences -------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.current_side is None

    def atomically(self, resolve: Callable[[], list[Event]]) -> list[Event]:
        """Run `resolve` (the rules answering an action) so that an exception leaves the game exactly as before.

        Only a finite dice script can fail mid-resolution (a rule test one die short): then the game is saved
        first and put back on failure. Seeded dice never run out, so the hot path saves nothing; an exception
        with them would be a rules bug, which the generic suite's random games are there to catch.
        """
        if not self.dice.finite:
            return resolve()
        saved = self.to_dict()
        try:
            return resolve()
        except Exception:
            restored = type(self).from_dict(saved)
            self.__dict__.clear()
            self.__dict__.update(restored.__dict__)
            raise

    def check_legal(self, action: int, mask: np.ndarray, why: Callable[[int], str]) -> None:
        """Raise IllegalActionError naming the action and the reason unless mask[action]."""
        if not isinstance(action, (int, np.integer)) or not 0 <= int(action) < mask.shape[0]:
            raise IllegalActionError(f"action {action!r} is not an integer in 0..{mask.shape[0] - 1}")
        if self.current_side is None:
            raise GameOverError(f"action {action}: the game is over")
        if not mask[action]:
            raise IllegalActionError(f"action {action} ({self.action_label(int(action))}) is illegal: {why(int(action))}")


# Where the board lies in the observation ---------------------------------------------------------------------
@dataclass(frozen=True)
class Planes:
    """A board of `channels` planes, each `height` rows by `width` columns, inside the flat observation vector.

    The feature of channel c at row y, column x is `observation[offset + c * strides[0] + y * strides[1] +
    x * strides[2]]`, strides counted in features (not bytes). The default strides, (height * width, width, 1),
    are planes stored one after another, row by row; a ruleset that stores everything about a square together
    declares other strides. `indices()` gives the whole grid as positions in the vector, so any library can
    gather it: `observation[..., layout.planes.indices()]` has shape (..., channels, height, width).
    """

    channels: int
    height: int
    width: int
    offset: int
    strides: tuple[int, int, int] | None = None
    #: a name per channel, e.g. ('open', 'building', ...): what each plane means, in the ruleset's words
    names: tuple[str, ...] = ()

    @property
    def shape(self) -> tuple[int, int, int]:
        return self.channels, self.height, self.width

    def steps(self) -> tuple[int, int, int]:
        """The strides, or the default (planes one after another, row by row)."""
        return self.strides or (self.height * self.width, self.width, 1)

    def indices(self) -> np.ndarray:
        """(channels, height, width) int64 positions of the grid's features in the observation vector."""
        c, y, x = np.ogrid[:self.channels, :self.height, :self.width]
        sc, sy, sx = self.steps()
        return (self.offset + c * sc + y * sy + x * sx).astype(np.int64)

    def to_dict(self) -> dict:
        return {"channels": self.channels, "height": self.height, "width": self.width, "offset": self.offset,
                "strides": list(self.steps()), "names": list(self.names)}


@dataclass(frozen=True)
class ObservationLayout:
    """How a ruleset's flat observation of `size` features splits: a grid of `planes` (None: the ruleset has no
    board worth reading as one) and the vector part, every feature not in the grid, in vector order."""

    size: int
    planes: Planes | None = None
    #: what the vector part holds, in the ruleset's words (documentation: a ruleset's observation.py has the detail)
    vector: str = ""

    def plane_indices(self) -> np.ndarray | None:
        """(channels, height, width) positions of the grid in the vector, or None without planes."""
        return None if self.planes is None else self.planes.indices()

    @cached_property
    def _vector(self) -> np.ndarray:
        keep = np.ones(self.size, dtype=bool)
        if self.planes is not None:
            keep[self.planes.indices().reshape(-1)] = False
        positions = np.flatnonzero(keep)
        positions.setflags(write=False)
        return positions

    def vector_indices(self) -> np.ndarray:
        """The positions of every feature outside the grid, ascending (read-only)."""
        return self._vector

    def split(self, observation: np.ndarray) -> tuple[np.ndarray | None, np.ndarray]:
        """(grid (..., channels, height, width) or None, vector part (..., vector size)) of observations (..., size)."""
        grid = None if self.planes is None else observation[..., self.planes.indices()]
        return grid, observation[..., self.vector_indices()]

    def check(self) -> None:
        """ValueError unless the grid lies inside the vector and no two of its features share a position."""
        if self.planes is None:
            return
        flat = self.planes.indices().reshape(-1)
        if flat.min() < 0 or flat.max() >= self.size:
            raise ValueError(f"planes reach positions {flat.min()}..{flat.max()} of an observation of {self.size}")
        if np.unique(flat).size != flat.size:
            raise ValueError("two features of the planes share a position in the observation")
        if self.planes.names and len(self.planes.names) != self.planes.channels:
            raise ValueError(f"{len(self.planes.names)} channel names for {self.planes.channels} channels")

    def to_dict(self) -> dict:
        """JSON-compatible (a trained actor keeps the layout it was trained on)."""
        return {"size": self.size, "planes": None if self.planes is None else self.planes.to_dict()}

    @classmethod
    def from_dict(cls, data: dict) -> ObservationLayout:
        """The layout `to_dict` wrote; ValueError (or KeyError, TypeError) for anything else."""
        p = data["planes"]
        planes = None if p is None else Planes(int(p["channels"]), int(p["height"]), int(p["width"]), int(p["offset"]),
                                               tuple(int(v) for v in p["strides"]), tuple(str(n) for n in p.get("names", ())))
        layout = cls(int(data["size"]), planes)
        layout.check()
        return layout


class LiveUnit(NamedTuple):
    """A unit on the board, as `Ruleset.live_units` declares it: its side, its type in the ruleset's words, and its
    cell (row, column) on the grid of the ruleset's board picture."""

    side: int
    kind: str
    cell: tuple[int, int]


# A registered ruleset ---------------------------------------------------------------------------------------
#: The metadata every concrete Ruleset subclass sets, with what each must be.
METADATA: dict[str, tuple[type, str]] = {
    "name": (str, "the CLI name, e.g. 'rifles-urban'"),
    "gym_id": (str, "the Gymnasium id, e.g. 'rubble/RiflesUrban-v0'"),
    "sides": (tuple, "the side names in side order, also the PettingZoo agent names"),
    "num_actions": (int, "the size of the flat Discrete action space"),
    "observation_size": (int, "the length of the observation vector"),
    "default_scenario": (str, "the scenario played when none is named"),
    "state_type": (type, "the GameState subclass of this ruleset"),
    "rule_prefixes": (tuple, "the catalog ID prefixes its events cite, e.g. ('CF-',)"),
}


class Ruleset(ABC):
    """A registered environment: its metadata and how its games start. One instance per ruleset."""

    name: ClassVar[str]
    gym_id: ClassVar[str]
    sides: ClassVar[tuple[str, ...]]
    num_actions: ClassVar[int]
    observation_size: ClassVar[int]
    default_scenario: ClassVar[str]
    state_type: ClassVar[type[GameState]]
    #: every event names the catalog rule that produced it; these are the catalog's ID prefixes
    rule_prefixes: ClassVar[tuple[str, ...]]
    #: the side a learner plays when none is named
    default_learner_side: ClassVar[int] = 0
    #: the decision kinds by which a side that is not acting reacts (envs/engine/reaction.py); the generic suite
    #: checks that whether such a window opens never depends on what the acting side may not know
    reaction_kinds: ClassVar[tuple[str, ...]] = ()
    #: the observation sizes of earlier versions of this ruleset whose features are each a prefix of today's (later
    #: versions only appended features): an actor trained on one of them plays by reading that many leading features
    #: (agents/trained.py), so a shipped actor keeps playing when the observation grows
    prefix_observation_sizes: ClassVar[tuple[int, ...]] = ()

    def __init__(self) -> None:
        # Checked here, not at class creation: only a concrete class is instantiated (ABCMeta refuses the rest).
        for field, (kind, meaning) in METADATA.items():
            value = getattr(self, field, None)
            if not isinstance(value, kind):
                raise TypeError(f"ruleset class {type(self).__name__} must set {field} ({kind.__name__}: {meaning}); "
                                f"got {value!r}")

    # How a game starts ------------------------------------------------------------------------------------
    @abstractmethod
    def scenarios(self) -> dict[str, str]:
        """Scenario name -> the path of its YAML file."""

    @abstractmethod
    def new_game(self, scenario: str | None = None, seed: int | None = 0, dice: Dice | None = None,
                 **options) -> GameState:
        """A new game of `scenario` (None: the default) with seeded dice (or the dice given) and rule options.
        `scenario` is a name of `scenarios()` or the path of a YAML scenario file (a playtest plays edited copies)."""

    @abstractmethod
    def build_position(self, spec: dict, dice: Dice | None = None, **options) -> GameState:
        """A game set up from a compact position spec (units, places, states, markers), every cache derived;
        the spec format is in the ruleset's README. For rule tests and scenario checks."""

    def from_dict(self, data: dict) -> GameState:
        """Restore a game saved with `GameState.to_dict`."""
        return self.state_type.from_dict(data)

    # What the generic suite needs ---------------------------------------------------------------------------
    @abstractmethod
    def hidden_variants(self, state: GameState, side: int) -> list[GameState]:
        """Copies of `state` that differ only in what `side` may not know (the other dice, hidden positions...):
        side's observation, its mask when it decides, and everything the adapters show it must not change."""

    @abstractmethod
    def public_facts(self, state: GameState) -> Hashable:
        """What both sides may know of `state` by the catalog's public rules (its `Public:` lists), as one hashable
        value in the ruleset's words: e.g. Konflikt '47's dice in the bag and ranging-in states (KC-HID-3). A policy
        without memory decides from its observation, so each side's observation determines these facts: two states
        whose observations for a side are equal have equal public facts (tests/generic/test_public_facts.py). What
        only history holds (the dice already rolled, the event log) is not a fact of the state and is left out."""

    @abstractmethod
    def turn_limit(self, state: GameState) -> int:
        """The last turn of this game: no game passes it."""

    @abstractmethod
    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """(low, high), float32 arrays of shape (observation_size,): every feature of every observation of every
        game of this ruleset's scenarios lies in [low, high], and the bounds are as tight as the rules allow (the
        adapters' observation Box; anything that rescales by it, e.g. SuperSuit's normalize_obs, relies on it)."""

    @abstractmethod
    def observation_layout(self) -> ObservationLayout:
        """Where the board's planes lie in the observation and what the rest is (ObservationLayout); a ruleset
        without a board worth reading as a grid returns ObservationLayout(observation_size)."""

    # What a learner may be rewarded by ------------------------------------------------------------------------
    def standing(self, state: GameState, side: int) -> float | None:
        """How the game stands for `side` by the scenario's own victory measure, in -1..1, from what both sides
        know (never from hidden information); None: the ruleset declares no standing. The Gymnasium env's
        `reward_shaping=w` adds w times its change at each learner step: potential-based shaping (Ng, Harada &
        Russell 1999), so with gamma = 1 an episode's shaped return is its result plus w times the final standing."""
        return None

    @property
    def declares_standing(self) -> bool:
        """Whether this ruleset declares a standing (overrides `standing`): what `reward_shaping` needs."""
        return type(self).standing is not Ruleset.standing

    # What a playtest counts ------------------------------------------------------------------------------------
    def live_units(self, state: GameState) -> dict[Hashable, LiveUnit] | None:
        """Every unit on the board and alive, by a key that stays the unit's for the whole game: a playtest counts a
        unit present before a decision and gone after it as a casualty, of its type, where it stood. None: the
        ruleset does not say, and a playtest shows its casualties as not measured (never as zeros)."""
        return None

    def cell_box(self, cell: tuple[int, int]) -> tuple[int, int, int, int] | None:
        """(x0, y0, x1, y1): the pixels of `cell` (a `LiveUnit.cell`) on `render_rgb(None)`'s picture, for a heat
        map of where units were lost; None: cells are not located on the picture."""
        return None

    def cell_name(self, state: GameState, cell: tuple[int, int]) -> str:
        """A `LiveUnit.cell` in the game's words."""
        return f"row {cell[0]}, column {cell[1]}"

    # What the pictures show ------------------------------------------------------------------------------------
    def picture_key(self, state: GameState | None = None) -> list[tuple]:
        """The key of this ruleset's `render_rgb` picture, declared once by its render: (swatch, meaning) per
        item, the swatch an RGB tuple or a short symbol (envs/engine/picture_key.py draws it as the strip under
        the picture; the replay viewer lists it as its legend). `state`: the game pictured, where the key depends
        on it (the Darkness night cue); None for what every game of the ruleset shows. No picture key: []."""
        return []

    # Sides ---------------------------------------------------------------------------------------------------
    def side_number(self, side: int | str | None) -> int:
        """A side number from a number, a side name, or None (the default learner side)."""
        if side is None:
            return self.default_learner_side
        if isinstance(side, str):
            if side.isdigit():
                return self.side_number(int(side))
            if side not in self.sides:
                raise ValueError(f"unknown side {side!r} for {self.name}; known: {', '.join(self.sides)}")
            return self.sides.index(side)
        if not 0 <= int(side) < len(self.sides):
            raise ValueError(f"side {side} outside 0..{len(self.sides) - 1} for {self.name}")
        return int(side)

    def __repr__(self) -> str:
        return f"<Ruleset {self.name}>"


# Agents -------------------------------------------------------------------------------------------------------
class Agent(Protocol):
    """What plays a side: random, scripted and trained policies alike."""

    name: str
    #: False for policies that read only the view and the mask; they are handed None for the observation
    needs_observation: bool

    def act(self, observation: np.ndarray | None, mask: np.ndarray, view: Any) -> int:
        """The chosen action index; must be legal under `mask`."""


#: factory(side, seed) -> an Agent for that side, drawing randomness only from a Generator seeded with `seed`
AgentFactory = Callable[[int, int], Agent]


def decide(agent: Agent, state: GameState, side: int) -> int:
    """Ask `agent` for `side`'s action in `state`, building the observation only if the agent reads it."""
    observation = state.observation(side) if getattr(agent, "needs_observation", True) else None
    return agent.act(observation, state.legal_action_mask(), state.view(side))


def advance(state: GameState, agents: Mapping[int, Agent], until_side: int | None = None) -> list[Event]:
    """Let `agents` (side -> agent) answer their sides' decisions until `until_side` must decide (None: a side
    with no agent), or the game ends; the events of every decision answered. E.g. a rule test answers a whole
    enemy phase with the scripted enemy: `advance(game, {ENEMY: ScriptedEnemy(1)}, until_side=PLAYER)`."""
    events: list[Event] = []
    side = state.current_side
    while side is not None and side != until_side and side in agents:
        events.extend(state.apply(decide(agents[side], state, side)))
        side = state.current_side
    return events
