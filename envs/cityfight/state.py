"""The pieces of a Cityfight game: elements, sections, the changing map (CF-GRID, CF-TER, CF-BLD).

Plain mutable records with dict conversion, so `clone()` (a round trip through `to_dict`) never aliases
and a game saves to JSON. Squares are flat indices y * W + x of the scenario's map.
"""
from __future__ import annotations

ATTACKER, DEFENDER = 0, 1
SIDE_NAMES = ("attacker", "defender")
DEAD = -1


def new_stamp() -> object:
    """A stamp of what changes in place and is read at every decision (a side's reports, the public map): a writer
    takes a new one, so a reader compares one token (by identity) to know nothing changed. A bare object carries
    nothing a side could read (a counter's value would count the other side's reports and other games' writes), and
    the reader holding the last one keeps it from being freed and reused (as an id() could be)."""
    return object()


class Element:
    """One element (CF-TAB-1 row) of a section: where it is, its status and this turn's flags."""

    __slots__ = (
        "slot", "side", "name", "row", "section", "leader", "special", "shots", "smoke", "square", "roof",
        "suppressed", "ap_spent", "activated", "fired", "entered", "diagonal", "rubble_steps", "stopped",
        "fired_on", "assaulted", "overwatch", "fired_still", "seen_still", "ooa", "ooa_turn", "special_ooa",
        "special_ooa_turn", "smoke_spent", "suppressed_engaging", "reported",
    )

    def __init__(self, slot, side, name, row, section, leader=False, special=None, shots=0, smoke=False, square=DEAD,
                 **flags):
        self.slot, self.side, self.name, self.row, self.section = slot, side, name, row, section
        self.leader, self.special, self.shots, self.smoke, self.square = leader, special, shots, smoke, square
        self.roof = flags.get("roof", False)              # CF-TER-4
        self.suppressed = flags.get("suppressed", False)
        self.ap_spent = flags.get("ap_spent", 0)          # CF-AP-9: at most 2 per turn
        self.activated = flags.get("activated", False)    # CF-TURN-4: once per phase
        self.fired = flags.get("fired", False)            # CF-ACT-8: one fire per turn
        self.entered = flags.get("entered", 0)            # CF-MOVE-8: squares entered this turn
        self.diagonal = flags.get("diagonal", False)      # CF-MOVE-1
        self.rubble_steps = flags.get("rubble_steps", 0)  # CF-MOVE-5
        self.stopped = flags.get("stopped", False)        # CF-MOVE-2/7: movement ended for the turn
        self.fired_on = flags.get("fired_on", False)      # CF-RES-8
        self.assaulted = flags.get("assaulted", False)    # CF-CA-10
        self.overwatch = flags.get("overwatch", DEAD)     # CF-OW-1: the watched square
        self.fired_still = flags.get("fired_still", False)  # CF-SRCH-14: fired this turn, not moved since
        self.seen_still = flags.get("seen_still", False)    # CF-SRCH-15: declared/revealed this turn, not moved since
        self.ooa = flags.get("ooa", False)                # CF-FIRE-16/17: kinetic weapons out of ammunition
        self.ooa_turn = flags.get("ooa_turn", 0)
        self.special_ooa = flags.get("special_ooa", False)  # CF-HE-11
        self.special_ooa_turn = flags.get("special_ooa_turn", 0)
        self.smoke_spent = flags.get("smoke_spent", False)  # CF-SMK-3
        self.suppressed_engaging = flags.get("suppressed_engaging", False)  # CF-CA-8
        self.reported = flags.get("reported", DEAD)       # CF-OW-3: the watched square it was reported entering

    @property
    def alive(self) -> bool:
        return self.square != DEAD

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.__slots__}

    @classmethod
    def from_dict(cls, d: dict) -> Element:
        e = cls.__new__(cls)
        for k in cls.__slots__:
            setattr(e, k, d[k])
        return e


class Section:
    """A section: its AP pool (CF-AP-1..11), its leader's LR and who leads it now (CF-LDR-3)."""

    __slots__ = ("index", "side", "name", "lr", "pool", "leader")

    def __init__(self, index, side, name, lr, pool=0, leader=DEAD):
        self.index, self.side, self.name, self.lr, self.pool, self.leader = index, side, name, lr, pool, leader

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.__slots__}

    @classmethod
    def from_dict(cls, d: dict) -> Section:
        return cls(**d)


class Smoke:
    """One smoke block (CF-SMK-2): its centre, the turn it landed and the keypad squares still smoking."""

    __slots__ = ("centre", "turn", "left")

    def __init__(self, centre, turn, left):
        self.centre, self.turn, self.left = centre, turn, list(left)

    def to_dict(self) -> dict:
        return {"centre": self.centre, "turn": self.turn, "left": list(self.left)}
