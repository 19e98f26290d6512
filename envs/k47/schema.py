"""The shape of a Konflikt '47 scenario file (configs/k47/scenarios/*.yaml; KC-SCN-1..12) and of its tables
(configs/k47/tables/*.yaml; KC-TAB-1..6, KB-TAB-1/2).

Exported to configs/k47/scenario.schema.json and configs/k47/tables.schema.json by `python -m envs.schemas`;
config.load_scenario and config.load_tables check every file against them before reading it. What a schema cannot
say stays in the loader: the map against the board's size, sections on their building letters and inside the board,
openings on an outer wall, units in their set-up zone and one to a place, ids that must exist.

A scenario `based_on` another (KC-SCN-12) names only what it changes: it is checked as a `Variant` (the same fields,
none required), the scenario it builds on as a whole `Scenario`.
"""
from __future__ import annotations

from typing import Annotated, Literal

from msgspec import UNSET, Meta, UnsetType, field

from envs.engine.schema import BasedOn, Spec

# The board is at most 48 x 48 cells (KC-MAP-1), a building at most 6 floors.
Coord = Annotated[int, Meta(ge=0, le=47, description="a cell coordinate")]
Cell = Annotated[tuple[Coord, Coord], Meta(description="[x, y]")]
Edge = Annotated[tuple[Coord, Coord, Literal["N", "E", "S", "W"]], Meta(description="[x, y, side]: a cell's wall")]
Floor = Annotated[int, Meta(ge=0, le=5, description="0: the ground floor")]
NonNegative = Annotated[int, Meta(ge=0)]
Material = Literal["wooden", "brick", "bunker"]                # KB-GRID-5
WeaponRule = Literal["assault", "team", "fixed", "shaped", "flamethrower", "indirect"]
HeDice = Literal["D2", "D3", "D6", "2D6", "3D6"]               # KC-HE-1


class Board(Spec):                                             # KC-MAP-1
    width: Annotated[int, Meta(ge=4, le=48)]
    height: Annotated[int, Meta(ge=4, le=48)]
    cell_in: Annotated[float, Meta(ge=0.5, description="inches a cell")]


class Opening(Spec):                                           # KB-GRID-4: one `edge` or a list of `edges`
    floor: Floor
    kind: Literal["door", "window", "slit"]
    edge: Edge | None = None
    edges: Annotated[list[Edge], Meta(min_length=1)] | None = None


class Section(Spec, kw_only=True):                             # KB-GRID-1
    id: str
    cells: Annotated[list[Cell], Meta(min_length=2, max_length=2, description="two corner cells [[x0, y0], [x1, y1]]")]
    floors: Annotated[int, Meta(ge=1, le=6)]
    openings: list[Opening] = []


class Building(Spec, kw_only=True):
    id: str
    material: Material
    sections: Annotated[list[Section], Meta(min_length=1)]
    # KB-GRID-2: absent, sections sharing a wall connect; else the pairs that do ([] for none)
    connected: list[Annotated[list[str], Meta(min_length=2, max_length=2, description="two section ids")]] | None = None


class Victory(Spec):                                           # KC-SCN-9
    objective_vp: NonNegative
    kill_vp: NonNegative


class Inside(Spec):                                            # KB-GRID-6
    section: str
    floor: Floor


class Vehicle(Spec):
    class_: str = field(name="class")                          # a class of the tables' vehicle_damage (KC-TAB-5)
    tracked: bool = True


class Mounted(Spec):                                           # a vehicle's weapon
    weapon: str
    mount: Literal["turret", "hull"]


class Model(Spec):
    weapon: str | None = None                                  # a weapon of the tables, carried by hand
    weapons: Annotated[list[Mounted], Meta(min_length=1)] | None = None
    role: Literal["rifleman", "nco", "crew", "carrier"] = "rifleman"
    count: Annotated[int, Meta(ge=1, le=10)] = 1                 # a unit's models: the observation counts tenths


class Unit(Spec, kw_only=True):                                # KC-SCN-6/7: `at` a cell outside or `in` a section
    id: str
    kind: Literal["infantry", "artillery", "vehicle"]
    quality: Literal["inexperienced", "regular", "veteran"]
    small: bool = False
    models: Annotated[list[Model], Meta(min_length=1)]
    at: Cell | None = None
    in_: Inside | None = field(default=None, name="in")
    facing: Literal["N", "NE", "E", "SE", "S", "SW", "W", "NW"] = "N"    # KV-MOVE-2
    vehicle: Vehicle | None = None
    fixed_opening: Edge | None = None                          # KB-FROM-5, KB-ART-1


class SideSpec(Spec):                                          # KC-SCN-5
    name: str
    zone_rows: Annotated[list[Coord], Meta(min_length=2, max_length=2, description="[first, last] rows")]
    units: Annotated[list[Unit], Meta(min_length=1)]


class Options(Spec):                                           # KC-SCN-11, KC-SCN-12
    no_building_entry: bool
    hidden_occupants: bool
    pinned_out: bool


Placed = dict[str, Cell]                                       # unit id -> the cell it sets up on instead


class Variants(Spec):                                          # KC-SCN-11: where units start when an option is on
    no_building_entry: Placed = {}
    hidden_occupants: Placed = {}
    pinned_out: Placed = {}


class Scenario(Spec, kw_only=True):
    name: str
    tables: str
    board: Board
    turns: Annotated[int, Meta(ge=1, le=100)]                  # KC-TURN-7
    extra_turn_on: Annotated[int, Meta(ge=1, le=7, description="a d6 score; 7: never")]   # KC-TURN-7
    map: list[str]                                             # KC-SCN-1: . s r, or a building letter
    buildings: list[Building]
    objectives: list[str]                                      # building ids (KC-SCN-8)
    victory: Victory
    sides: Annotated[list[SideSpec], Meta(min_length=2, max_length=2, description="side A, then side B")]
    options: Options
    variants: Variants = Variants()


class OptionsChanged(Spec):                                    # merged name by name into the base's options
    no_building_entry: bool | UnsetType = UNSET
    hidden_occupants: bool | UnsetType = UNSET
    pinned_out: bool | UnsetType = UNSET


class Variant(Spec, kw_only=True):                             # KC-SCN-12: each field replaces the base's
    based_on: Annotated[str, Meta(description="the scenario this one changes (not itself based on another)")]
    name: str | UnsetType = UNSET
    tables: str | UnsetType = UNSET
    board: Board | UnsetType = UNSET
    turns: Annotated[int, Meta(ge=1, le=100)] | UnsetType = UNSET
    extra_turn_on: Annotated[int, Meta(ge=1, le=7)] | UnsetType = UNSET
    map: list[str] | UnsetType = UNSET
    buildings: list[Building] | UnsetType = UNSET
    objectives: list[str] | UnsetType = UNSET
    victory: Victory | UnsetType = UNSET
    sides: Annotated[list[SideSpec], Meta(min_length=2, max_length=2, description="side A, then side B")] | UnsetType = UNSET
    options: OptionsChanged | UnsetType = UNSET
    variants: Variants | UnsetType = UNSET


SCENARIO = BasedOn(Scenario, Variant)


# Tables --------------------------------------------------------------------------------------------------------------
class QualityRow(Spec):                                        # KC-TAB-1
    morale: Annotated[int, Meta(ge=2, le=12)]
    damage: Annotated[int, Meta(ge=2, le=6)]


class Quality(Spec):
    inexperienced: QualityRow
    regular: QualityRow
    veteran: QualityRow


class ToHit(Spec, kw_only=True):                               # KC-TAB-2: the base score and its modifiers
    base: int
    point_blank: int
    point_blank_in: Annotated[int, Meta(ge=0, description="inches")]
    long_range: int
    per_pin: int
    inexperienced: int
    moved: int
    team_one_crew: int
    shaped: int
    down: int
    small: int
    soft_cover: int
    hard_cover: int
    inside: int
    bunker: int


class Weapon(Spec, kw_only=True):                              # KC-TAB-3
    range: Annotated[float, Meta(ge=1, description="inches")]
    min_range: Annotated[float, Meta(ge=0)] = 0
    shots: Annotated[int, Meta(ge=1)]
    pen: NonNegative | None = None                             # null: small arms (KC-SHOOT-11)
    he: HeDice | None = None                                   # null: no HE mode (KC-HE-1)
    rules: list[WeaponRule] = []
    # KC-TAB-3: an indirect weapon that also fires direct, to this range (the medium howitzer); null: indirect only
    direct_range: Annotated[float, Meta(ge=1, description="inches")] | None = None


class HeRow(Spec):
    pen: NonNegative
    pins: Literal["0", "D2", "D3", "D6"]                       # extra pins: a dice expression or "0"


class He(Spec):                                                # KC-TAB-4: by HE value
    d2: HeRow = field(name="D2")
    d3: HeRow = field(name="D3")
    d6: HeRow = field(name="D6")
    two_d6: HeRow = field(name="2D6")
    three_d6: HeRow = field(name="3D6")


class Fubar(Spec):                                             # KC-TAB-6: a d6 up to `max`
    max: Annotated[int, Meta(ge=1, le=6)]
    result: Literal["friendly_fire", "panic"]


class Rates(Spec):                                             # inches
    advance: Annotated[int, Meta(ge=1)]
    run: Annotated[int, Meta(ge=1)]


class Movement(Spec):                                          # KC-MOVE-1, KV-MOVE-1
    infantry: Rates
    tracked: Rates
    slow: Rates


class RamBuilding(Spec):                                       # d6s a building rolls; absent: not rammed
    wooden: Annotated[int, Meta(ge=1)] | UnsetType = UNSET
    brick: Annotated[int, Meta(ge=1)] | UnsetType = UNSET
    bunker: Annotated[int, Meta(ge=1)] | UnsetType = UNSET


class Ram(Spec):                                               # KB-TAB-1
    vehicle: dict[str, NonNegative]                            # vehicle class -> base score; absent: cannot ram
    building: RamBuilding


class Tables(Spec, kw_only=True):
    quality: Quality
    to_hit: ToHit
    weapons: dict[str, Weapon]
    he: He
    vehicle_damage: dict[str, Annotated[int, Meta(ge=2, le=12)]]   # KC-TAB-5: class -> damage value
    fubar: Annotated[list[Fubar], Meta(min_length=1)]
    movement: Movement
    ram: Ram
    floor_roll_explodes_on: Annotated[int, Meta(ge=1, le=6)]   # KB-TAB-2
