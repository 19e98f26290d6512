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
    # CF-TER-5: one row per MegaSquare row; left out, each MSq gets the CF-TAB-7 default (config.default_search_ratings)
    search_ratings: list[list[Annotated[int, Meta(ge=2, le=12)]]] | None = None
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


# Tables (configs/cityfight/tables/*.yaml; CF-TAB-1..7) ---------------------------------------------------------------
NonNegative = Annotated[int, Meta(ge=0)]
Total2d6 = Annotated[int, Meta(ge=2, le=12)]


class ElementRow(Spec, kw_only=True):                          # CF-TAB-1
    name: str
    ca: NonNegative
    fs: Annotated[list[NonNegative], Meta(min_length=3, max_length=3, description="range bands 1-2, 3-10, 11-max")]
    max_range: Annotated[int, Meta(ge=1)]
    mg: bool
    category: Literal["rifles", "rifles_mg", "mg", "sniper"]
    dice: Annotated[int, Meta(ge=1, le=2)] = 2
    sniper: bool = False
    combat: bool = True


class CoverRow(Spec):
    name: Literal["open", "cluttered", "wood", "wooden_metal", "brick", "concrete"]
    s: Annotated[int, Meta(ge=2)]
    k: Annotated[int, Meta(ge=2)]


class DamageThreshold(Spec, kw_only=True):
    points: Annotated[int, Meta(ge=1)]
    cover_down: NonNegative
    rubble: NonNegative
    blocks_doors: bool = False


class HEWeapon(Spec):                                          # CF-HE-1..
    fs: NonNegative
    min_range: NonNegative
    max_range: Annotated[int, Meta(ge=1)]
    grid: str
    ooa: Literal["low_double", "any_double", "none"]
    shots: NonNegative
    announces_origin: bool
    breaches: bool


Cells = Annotated[list[list[Total2d6]], Meta(min_length=3, max_length=3, description="left, line, right")]


class Grid(Spec):                                              # CF-HE-3
    over: Cells
    level: Cells
    short: Cells


class DefaultSr(Spec):
    max: Annotated[int, Meta(ge=0, le=9)]
    sr: Total2d6


class WeatherSearch(Spec):                                     # CF-SRCH-19
    clear: int
    rain: int
    fog: int
    snow: int


class Search(Spec):                                            # CF-SRCH-9..21
    own_msq: int
    peri_adjacent: int
    per_joiner: int
    own_msq_sr_cap: int
    suppressed: int
    fired_not_moved: int
    fired_not_moved_night: int
    seen_not_moved: int
    prepared: int
    sniper: int
    roof: int
    weather: WeatherSearch
    night: int


class Recovery(Spec):                                          # CF-REC-4..13
    leader_not_in_msq: int
    leader_in_square: int
    leader_in_sight: int
    cover_or_smoke: int
    not_fired_on: int
    sniper: int
    night_unlit: int
    sniper_rating: int


class Ap(Spec):                                                # CF-AP-1..9
    per_element: int
    element_cap: int
    suppressed_leader_lr: int
    min_when_base_two: int


class Tables(Spec, kw_only=True):
    elements: dict[str, ElementRow]
    range_bands: Annotated[list[Annotated[int, Meta(ge=1)]], Meta(min_length=2, max_length=2)]
    cover: Annotated[list[CoverRow], Meta(min_length=6, max_length=6)]
    damage_steps: list[Literal["open", "cluttered", "wood", "wooden_metal", "brick", "concrete"]]
    damage_thresholds: list[DamageThreshold]
    he_weapons: dict[str, HEWeapon]
    grids: dict[str, Grid]
    leader_replacement: Annotated[list[int], Meta(min_length=6, max_length=6, description="LR change for D6 1..6")]
    smoke_decay: Annotated[list[list[Annotated[int, Meta(ge=1, le=9)]]], Meta(min_length=1)]
    default_sr: list[DefaultSr]
    search: Search
    recovery: Recovery
    ap: Ap
    leader_killed_on: Annotated[int, Meta(ge=0, le=6)]
