"""Secret simultaneous orders: every side chooses face-down before any choice is revealed.

A board game settles this with counters placed face down at the same time. An engine must ask one side
after the other, so three things have to hold for the later chooser to learn nothing from the earlier:

  * the order of the questions is fixed before the first answer (`SecretOrders(slots)`): who is asked
    next never depends on what was chosen, so a PettingZoo `agent_selection` sequence shows nothing;
  * a sealed choice is visible only to its owner (`seen_by`), until the rules turn it face up (`reveal`);
  * the hidden values can be swapped by tests (`swapped`) to check that nothing a side sees depends on them.

The store keeps every face-down order of the current round (key -> owner, value, face up or not); keys are
the ruleset's model ids. It is plain data (`to_dict`/`from_dict`), so a game paused mid-round saves. Each change
through its methods is logged by key (`changed`), so a reader that keeps what it saw (an observation) rereads
only the counters changed since; a loaded or swapped copy is another store, with its own log.
"""
from __future__ import annotations

from dataclasses import dataclass, field

HIDDEN = None   # what `seen_by` answers for an order the side may not see


@dataclass
class SecretOrders:
    """One round of face-down orders asked in a fixed sequence of (side, key) slots."""

    slots: list[tuple[int, int]] = field(default_factory=list)
    values: dict[int, int] = field(default_factory=dict)      # key -> chosen value (sealed or face up)
    owners: dict[int, int] = field(default_factory=dict)      # key -> owning side
    face_up: set[int] = field(default_factory=set)
    asked: int = 0                                            # slots answered so far
    changed: list[int] = field(default_factory=list, compare=False, repr=False)   # keys, as their counters changed

    def __post_init__(self) -> None:
        for side, key in self.slots:
            if key in self.owners:
                raise ValueError(f"secret order slot {key} listed twice")
            self.owners[key] = side

    # The round ---------------------------------------------------------------------------------------------
    def pending(self) -> tuple[int, int] | None:
        """The (side, key) asked next, or None once every slot has a sealed value."""
        return self.slots[self.asked] if self.asked < len(self.slots) else None

    def choose(self, value: int) -> None:
        """Seal the pending slot's value; the next slot is the one fixed at the start, whatever the value."""
        slot = self.pending()
        if slot is None:
            raise ValueError("no secret order is pending")
        self.values[slot[1]] = int(value)
        self.asked += 1
        self.changed.append(slot[1])

    def place_face_up(self, side: int, key: int, value: int) -> None:
        """An order the rules place face up (never asked, seen by all)."""
        self.owners[key], self.values[key] = side, int(value)
        self.face_up.add(key)
        self.changed.append(key)

    # What a side may see --------------------------------------------------------------------------------------
    def has(self, key: int) -> bool:
        return key in self.values

    def is_face_down(self, key: int) -> bool:
        """Public: a counter lies face down (its value is not)."""
        return key in self.values and key not in self.face_up

    def seen_by(self, side: int | None, key: int) -> int | None:
        """The value as `side` sees it (None = the umpire, who sees all): HIDDEN unless owned or face up."""
        if key not in self.values:
            return HIDDEN
        if side is None or key in self.face_up or self.owners[key] == side:
            return self.values[key]
        return HIDDEN

    def all_seen_by(self, side: int | None) -> dict[int, tuple[bool, int | None]]:
        """Every counter at once, key -> (`is_face_down`, `seen_by(side, key)`): a side's whole view in one pass."""
        up, owners = self.face_up, self.owners
        return {k: (k not in up, v if side is None or k in up or owners[k] == side else HIDDEN)
                for k, v in self.values.items()}

    def true_value(self, key: int) -> int | None:
        """The rules' own read (never handed to a side)."""
        return self.values.get(key)

    def reveal(self, key: int) -> int:
        """Turn a counter face up; its value is public from now on."""
        self.face_up.add(key)
        self.changed.append(key)
        return self.values[key]

    def remove(self, key: int) -> None:
        """Take a counter away. A removed face-down counter's value is forgotten (it stays hidden)."""
        self.values.pop(key, None)
        self.face_up.discard(key)
        self.changed.append(key)

    # Tests of hidden information ---------------------------------------------------------------------------------
    def swapped(self, a: int, b: int) -> SecretOrders:
        """A copy with the sealed values of keys a and b exchanged (same owner, both face down)."""
        if self.owners.get(a) != self.owners.get(b) or not (self.is_face_down(a) and self.is_face_down(b)):
            raise ValueError("only two face-down orders of one side can be swapped")
        copy = SecretOrders.from_dict(self.to_dict())
        copy.values[a], copy.values[b] = self.values[b], self.values[a]
        return copy

    # Save -----------------------------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {"slots": [list(s) for s in self.slots], "values": [[k, v] for k, v in sorted(self.values.items())],
                "owners": [[k, v] for k, v in sorted(self.owners.items())], "face_up": sorted(self.face_up),
                "asked": self.asked}

    @classmethod
    def from_dict(cls, data: dict) -> SecretOrders:
        orders = cls([tuple(s) for s in data["slots"]])
        orders.owners.update({k: v for k, v in data["owners"]})
        orders.values = {k: v for k, v in data["values"]}
        orders.face_up, orders.asked = set(data["face_up"]), data["asked"]
        return orders
