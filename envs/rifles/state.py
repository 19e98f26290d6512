"""The pieces of a Rifles game: units, groups, terrain features, enemy markers (RB-GEN-4, RB-MAP-2, RB-EM-1).

Plain mutable records with dict conversion, so `clone()` (a round trip through `to_dict`) never aliases and a
game saves to JSON.
"""
from __future__ import annotations

PLAYER, ENEMY = 0, 1
OPEN = 0                       # place 0 on every Stripe is the Open; places 1.. are the Stripe's features
GROUND, FIRST = 0, 1           # levels (RB-MAP-2, RU-MS-1)
QUALITY = {"recruit": 0, "regular": 1, "veteran": 2}


class Unit:
    """One counter (RB-GEN-4): quality, one weapon, Leader flag; `hits` counts results taken (RB-HIT-1)."""

    __slots__ = ("name", "side", "quality", "weapon", "leader", "hits", "alive", "fired", "kind")

    def __init__(self, name, side, quality, weapon, leader=False, hits=0, alive=True, fired=False, kind=None):
        self.name, self.side, self.quality, self.weapon, self.leader = name, side, quality, weapon, leader
        self.hits, self.alive, self.fired, self.kind = hits, alive, fired, kind

    @property
    def suppressed(self) -> bool:
        """Suppressed (SHAKEN for the player in Darkness, RD-GEN-2) once it has taken a result.

        RD-GEN-4: a Darkness unit (`kind` = its type name) is never Suppressed; its results only count."""
        return self.hits > 0 and self.kind is None

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.__slots__}


class Group:
    """Units of one side on one position acting together (RB-GEN-4)."""

    #: the fields a save holds
    FIELDS = ("gid", "name", "side", "units", "stripe", "place", "level", "in_sewer", "exited",
              "activated", "fired", "fought", "start_stripe", "engaged_with", "defending", "rounds",
              "demo_charges", "sewers")
    # unit_changes: how often its units changed (a result taken or rallied, a Veteran made, a unit lost or joined),
    # counted where the rules change them, so the observation reads the units again only after one; not saved (what
    # was kept from it goes with a restore or `refresh`)
    __slots__ = (*FIELDS, "unit_changes")

    def __init__(self, gid, name, side, units, stripe, place=OPEN, level=GROUND, **flags):
        self.gid, self.name, self.side, self.units = gid, name, side, units
        self.stripe, self.place, self.level = stripe, place, level
        self.in_sewer = flags.get("in_sewer", False)
        self.exited = flags.get("exited", False)
        self.activated = flags.get("activated", False)   # RB-TURN-3: once per turn
        self.fired = flags.get("fired", False)           # RB-AP-2: this activation
        self.fought = flags.get("fought", False)         # RB-AP-2: a CC round started this activation
        self.start_stripe = flags.get("start_stripe", stripe)  # RU-CC-19
        self.engaged_with = flags.get("engaged_with", -1)
        self.defending = flags.get("defending", False)   # RU-CC-10
        self.rounds = flags.get("rounds", 0)             # CC rounds fought in this engagement (RU-CC-7)
        self.demo_charges = flags.get("demo_charges", 0)
        self.sewers = flags.get("sewers", False)
        self.unit_changes = 0

    @property
    def alive(self) -> bool:
        return bool(self.units)

    @property
    def on_map(self) -> bool:
        return bool(self.units) and not self.exited

    @property
    def engaged(self) -> bool:
        return self.engaged_with >= 0

    @property
    def position(self) -> tuple[int, int, int]:
        return self.stripe, self.place, self.level

    def ok_units(self) -> list[Unit]:
        return [u for u in self.units if not u.suppressed]

    def to_dict(self) -> dict:
        data = {k: getattr(self, k) for k in self.FIELDS if k != "units"}
        data["units"] = [u.to_dict() for u in self.units]
        return data

    @classmethod
    def from_dict(cls, d: dict) -> Group:
        flags = {k: d[k] for k in cls.FIELDS[7:]}
        return cls(d["gid"], d["name"], d["side"], [Unit(**u) for u in d["units"]], d["stripe"], d["place"], d["level"], **flags)


class Feature:
    """A terrain feature of a Stripe (RB-MAP-2); its kind and seal change in play (RU-DC-5, RU-DC-7)."""

    __slots__ = ("fid", "stripe", "place", "kind", "sealed", "complex")

    def __init__(self, fid, stripe, place, kind, sealed=False, complex=None):
        self.fid, self.stripe, self.place, self.kind, self.sealed, self.complex = fid, stripe, place, kind, sealed, complex

    @property
    def is_building(self) -> bool:
        """Building or Multi-Story Building; Rubble is not a Building (RU-TER-2)."""
        return self.kind in ("building", "ms")

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.__slots__}


class Marker:
    """A hidden enemy marker: only a Stripe; its content is rolled on reveal (RB-EM-1, RB-HID-2)."""

    __slots__ = ("slot", "name", "stripe")

    def __init__(self, slot, name, stripe):
        self.slot, self.name, self.stripe = slot, name, stripe

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.__slots__}
