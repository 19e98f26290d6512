"""Konflikt '47 units and models: the counters on the board (KC-MAP-3), their orders, pins and models."""
from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter

SIDE_A, SIDE_B = 0, 1
ORDERS = ("fire", "advance", "run", "ambush", "rally", "down")    # KC-ORD-1..6
FIRE, ADVANCE, RUN, AMBUSH, RALLY, DOWN = ORDERS
MAX_UNITS = 16                                                   # action and observation slots


@dataclass
class Model:
    """One model: its role (KC-SHOOT-9 casualty order) and its weapons as (name, mount)."""

    role: str
    weapons: list

    def to_list(self) -> list:
        return [self.role, [list(w) for w in self.weapons]]

    @classmethod
    def from_list(cls, data) -> Model:
        return cls(data[0], [tuple(w) for w in data[1]])


@dataclass
class Unit:
    """One unit (KC-MAP-3): outside in `cell`, or inside at (`section`, `floor`)."""

    uid: int
    name: str
    side: int
    kind: str                     # infantry | artillery | vehicle
    quality: str
    small: bool
    models: list
    start_models: int
    cell: tuple | None
    section: int | None = None
    floor: int = 0
    facing: int = 0               # KV-MOVE-2: 0 = N, clockwise in eighths
    vclass: str | None = None
    tracked: bool = False
    fixed_opening: int | None = None
    order: str | None = None      # this turn's order die, face up (KC-TURN-2)
    kept: bool = False            # KC-TURN-5: the order die was kept from last turn
    pins: int = 0
    alive: bool = True
    moved: bool = False           # KC-MOVE-3 this turn (ranging-in resets)
    immobile: bool = False        # KV-TAB-1 result 2
    revealed: bool = True         # KC-HID-6 (hidden_occupants)

    def __setattr__(self, name, value):
        """Every field set is counted in `changes` (not a field: it is not saved), so that what is kept of a unit
        (a view's snapshot, its observation block) is made again only after one; a model lost (KC-SHOOT-9) changes
        `len(models)`, and models changed by hand call `forget_arms`, which counts too."""
        kept = self.__dict__
        kept[name] = value
        kept["changes"] = kept.get("changes", 0) + 1

    @property
    def inside(self) -> bool:
        return self.section is not None

    @property
    def vehicle(self) -> bool:
        """KV-GEN-1: a one-model unit with a damage value, ordered, tested and pinned as infantry."""
        return self.kind == "vehicle"

    @property
    def team(self) -> bool:
        return any(m.role == "carrier" for m in self.models)

    @property
    def holds_die(self) -> bool:
        return self.order is not None

    def weapons(self) -> list:
        """(model index, weapon name, mount) of every weapon in the unit."""
        return list(self.arms()[2])

    def loadout(self) -> str:
        """The models' roles and weapons, as game data for the keys of values kept across games (a unit's weapons
        and its team's carrier are all a key needs of its models): the repr of ((role, ((weapon, mount), ...)),
        ...), a string, so that it hashes once (the keys are looked up tens of times per decision)."""
        return self.arms()[1]

    def arms(self) -> tuple:
        """(models counted, `loadout`, `weapons` as a tuple), worked out once per unit and again only when it loses a
        model: in play a model is only ever lost (KC-SHOOT-9), never re-armed; a position whose models are changed by
        hand calls the game's `refresh`, which forgets these (`forget_arms`)."""
        kept = self.__dict__.get("_arms")
        if kept is None or kept[0] != len(self.models):
            kept = self.__dict__["_arms"] = (
                len(self.models), repr(tuple((m.role, tuple(m.weapons)) for m in self.models)),
                tuple((i, w, mount) for i, m in enumerate(self.models) for w, mount in m.weapons))
        return kept

    def forget_arms(self) -> None:
        self.__dict__.pop("_arms", None)
        self.__dict__["changes"] += 1                     # its models changed: what is kept of it is stale

    def copy(self) -> Unit:
        """A copy sharing nothing the game changes (as copy.deepcopy, without walking every field: the scripted
        player's view copies every unit at every decision). Its list of models is its own; the models themselves
        are shared, as the game never changes a model (it only loses them: KC-SHOOT-9)."""
        other = Unit.__new__(Unit)
        other.__dict__.update(self.__dict__)
        other.models = list(self.models)
        return other

    FIELDS = ("uid", "name", "side", "kind", "quality", "small", "start_models", "section", "floor", "facing",
              "vclass", "tracked", "fixed_opening", "order", "kept", "pins", "alive", "moved", "immobile", "revealed")

    def to_dict(self) -> dict:
        data = {k: getattr(self, k) for k in self.FIELDS}
        data["cell"] = list(self.cell) if self.cell is not None else None
        data["models"] = [m.to_list() for m in self.models]
        return data

    @classmethod
    def from_dict(cls, data: dict) -> Unit:
        fields = {k: data[k] for k in cls.FIELDS}
        return cls(cell=tuple(data["cell"]) if data["cell"] is not None else None,
                   models=[Model.from_list(m) for m in data["models"]], **fields)


#: every field of a unit but its models
_FIELDS = attrgetter(*(f for f in Unit.__dataclass_fields__ if f != "models"))


def unit_state(u: Unit) -> tuple:
    """Every field of a unit, its models counted: in play a unit's models are only ever lost (KC-SHOOT-9), so this
    tells two states of one unit apart (a position set up by hand that changes a model calls the game's refresh)."""
    return _FIELDS(u), len(u.models)
