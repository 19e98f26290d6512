"""The shape of a Cityfight scenario file (configs/cityfight/scenarios/*.yaml; CF-SCN-1..8).

Exported to configs/cityfight/scenario.schema.json by `python -m envs.schemas`; config.load_scenario checks every
file against it before reading it (squares on the map, element rows and weapons from the tables, unique ids: there).
"""
from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta, field

from envs.engine.schema import Spec

Side = Literal["attacker", "defender"]
Time = Literal["day", "night"]
Weather = Literal["clear", "rain", "fog", "snow"]            # CF-COND-1
Squares = list[Annotated[str, Meta(description="a square ID such as 'k6'")]]
MegaSquares = list[Annotated[str, Meta(description="a MegaSquare ID such as 'D3'")]]


def _pair(low: int, high: int, what: str):
    return Annotated[list[Annotated[int, Meta(ge=low, le=high)]], Meta(min_length=2, max_length=2, description=what)]


class Conditions(Spec):
    time: Time = "day"
    weather: Weather = "clear"
    illuminated: MegaSquares = []


class Victory(Spec):                                         # CF-SCN-7
    kind: Literal["objectives"] = "objectives"
    all_at_once: bool = True
    at_end: Annotated[int, Meta(ge=0)] = 2


class Options(Spec):
    night: bool = False                                      # CF-VAR-1
    smoke: bool = False                                      # CF-VAR-2
    allow_under_announce: bool = False                       # CF-SRCH-7
    force_level: Literal["section", "company"] = "section"   # CF-AP-7
    weather: Weather | None = None                           # CF-COND-1


class Night(Spec):
    time: Time = "night"
    illuminated: MegaSquares = []


class Smoke(Spec):
    smoke_weapons: list[str] = []                            # element ids


class Variants(Spec):
    night: Night = Night()
    smoke: Smoke = Smoke()


class Element(Spec):
    id: str
    row: str                                                 # a row of the tables' element table
    weapons: Annotated[list[str], Meta(max_length=1)] = []   # one special (HE) weapon at most
    square: str | None = None
    squares: Annotated[Squares, Meta(min_length=2)] | None = None   # hidden setup alternatives (CF-SCN-6)


class Section(Spec):
    id: str
    lr: Annotated[int, Meta(ge=1, le=6)]
    elements: Annotated[list[Element], Meta(min_length=1)]


class SideSpec(Spec, kw_only=True):
    name: str | None = None                                  # a label; the order gives attacker, defender
    sections: Annotated[list[Section], Meta(min_length=1)]


class Scenario(Spec, kw_only=True):
    name: str
    tables: str = "standard"
    turns: Annotated[int, Meta(ge=1, le=100)] = 8            # CF-TURN-8
    map: Annotated[str, Meta(description="rows of legend characters; sides multiples of 3 (CF-GRID-1), at most 18x18")]
    search_ratings: list[list[Annotated[int, Meta(ge=2, le=12)]]]   # one row per MegaSquare row
    prepared: Squares = []
    objectives: Squares = []
    chokepoints: Squares = []
    roofs: Squares = []
    conditions: Conditions = Conditions()
    initiative: Side = "attacker"                            # CF-TURN-3
    ammo_rating: _pair(0, 6, "attacker, defender: an OOA weapon recovers on D6 <= AR (CF-AMMO-1)") = field(default_factory=lambda: [3, 3])
    recovery_bonus: _pair(-6, 6, "attacker, defender: added to recovery rolls (CF-REC-11)") = field(default_factory=lambda: [0, 0])
    victory: Victory = Victory()
    options: Options = Options()
    variants: Variants = Variants()
    sides: Annotated[list[SideSpec], Meta(min_length=2, max_length=2)]
