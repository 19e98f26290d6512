"""A model on the table: its profile and everything that changes in play (public per UW-HID-1)."""
from __future__ import annotations

OFF = -1       # a cell for a model not (or no longer) on the table
#: the fields play changes that a side's observation shows (observation.encode rewrites the rows of the models
#: that `changes` names since it last wrote)
SHOWN = frozenset(("cell", "w", "panic", "activated", "fu_used"))
_set = object.__setattr__


class Model:
    # `changes` first: a copy (pickle, deepcopy) sets the slots in this order, and setting a SHOWN one reads it
    __slots__ = ("changes", "idx", "side", "slot", "id", "profile", "commander", "cell", "w", "panic", "activated",
                 "fu_used", "halved", "first_enemy", "shield_enemy", "placed")

    def __init__(self, idx: int, side: int, slot: int, mid: str, profile, commander: bool,
                 changes: list[int] | None = None) -> None:
        # `changes`: one list shared by a game's models, of the models (idx) whose SHOWN field changed, in turn
        _set(self, "changes", [] if changes is None else changes)
        self.idx, self.side, self.slot, self.id = idx, side, slot, mid
        self.profile, self.commander = profile, commander
        self.cell, self.w = OFF, profile.W
        self.panic = False          # a panic counter (UW-PANIC-1)
        self.activated = False      # activated this turn (UW-TURN-9, UW-OW-5)
        self.fu_used = 0            # follow-ups spent this game (UW-FU-2)
        self.halved = False         # UW-PANIC-4 already triggered
        self.first_enemy = -1       # UW-CC-2: the first enemy that attacked it this turn
        self.shield_enemy = -1      # UW-SPEC-5/6: the enemy its Battleshield guards against

    def __setattr__(self, name: str, value) -> None:
        if name in SHOWN and getattr(self, name, None) != value:
            self.changes.append(self.idx)
        _set(self, name, value)
        if name == "cell" or name == "w":
            # `placed`, on the table (a cell, wounds left), kept as a field: the rules and the players read it
            # far more often than a model moves or is wounded
            _set(self, "placed", getattr(self, "cell", OFF) >= 0 and getattr(self, "w", 0) > 0)

    @property
    def alive(self) -> bool:
        return self.w > 0

    def to_list(self) -> list:
        return [self.profile.key, self.cell, self.w, self.panic, self.activated, self.fu_used, self.halved,
                self.first_enemy, self.shield_enemy]

    def load(self, data: list, profiles: dict) -> None:
        (key, self.cell, self.w, self.panic, self.activated, self.fu_used, self.halved, self.first_enemy,
         self.shield_enemy) = data
        self.profile = profiles[key]
