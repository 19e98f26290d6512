"""The shape of an Urban War scenario file (configs/urbanwar/scenarios/*.yaml; UW-SCEN-1..6).

Exported to configs/urbanwar/scenario.schema.json by `python -m envs.schemas`; config.load_scenario checks every
file against it before reading it (the map's symmetry, profiles from the tables, ids and deployment zones: there).
"""
from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from envs.engine.schema import Spec

Cell = Annotated[int, Meta(ge=0, le=47)]                     # UW-GRID-1: 48 x 48 cells of 1"
MAX_D2 = 2 * 47 * 47                                          # the board's diagonal squared, corner cell to corner cell
Span = Annotated[list[Cell], Meta(min_length=2, max_length=2, description="[first, last] cells")]


class Options(Spec):
    choose_edges: bool = False                               # UW-SETUP-2
    limit_result: Literal["casualties", "draw"] = "casualties"   # UW-WIN-3
    auto_forced: bool = True                                 # UW-DEC-9
    heavy_armour: bool = False                               # UW-SCEN-5
    dense_terrain: bool = False                              # UW-SCEN-6


class Model(Spec):
    id: str
    profile: str                                             # a profile of the tables
    commander: bool = False                                  # UW-SPEC-1: exactly one per side


class SideSpec(Spec):
    name: str
    edge: Literal["north", "south"]
    models: Annotated[list[Model], Meta(min_length=1, max_length=8)]


class HeavyArmour(Spec):
    replace: dict[str, str]                                  # model id -> the profile it takes (UW-SCEN-5)


class Patch(Spec):
    char: Annotated[str, Meta(min_length=1, max_length=1)]
    x: Span
    y: Span


class DenseTerrain(Spec):
    patches: list[Patch]                                     # UW-SCEN-6, mirrored by 180-degree rotation


class Variants(Spec):
    heavy_armour: HeavyArmour | None = None
    dense_terrain: DenseTerrain | None = None


class Scenario(Spec, kw_only=True):
    name: str
    tables: str
    turns: Annotated[int, Meta(ge=1, le=100)]                # UW-SCEN-3
    options: Options = Options()
    map: Annotated[list[Annotated[str, Meta(min_length=48, max_length=48)]], Meta(min_length=48, max_length=48)]
    sides: Annotated[list[SideSpec], Meta(min_length=2, max_length=2)]
    variants: Variants = Variants()
    placed: dict[str, Annotated[list[Cell], Meta(min_length=2, max_length=2)]] = {}   # model id -> [x, y]


# Tables (configs/urbanwar/tables/*.yaml; UW-TAB-1..4) -----------------------------------------------------------------
BandValues = Annotated[tuple[int, Annotated[int, Meta(ge=1, le=20, description="attack dice")], int,
                             Annotated[int, Meta(ge=1, le=10, description="damage rolls")]],
                       Meta(description="[to-hit modifier, dice >= 1, strength, damage rolls >= 1]")]


def _stat(name: str, low: int, high: int):
    return Annotated[int, Meta(ge=low, le=high, description=f"{name}, UW-STAT-1")]


Ten, Ninety = (1, 10), (1, 99)
Stats = Annotated[tuple[_stat("AS", *Ten), _stat("SH", *Ten), _stat("ST", *Ten), _stat("T", *Ten), _stat("W", *Ninety),
                        _stat("CD", *Ten), _stat("SZ", *Ninety), _stat("MV", *Ninety), _stat("CAL", 0, 99),
                        _stat("FS", 0, 99)], Meta(description="AS SH ST T W CD SZ MV CAL FS")]


class Band(Spec):                                            # UW-TAB-1
    name: str
    max_d2: Annotated[int, Meta(ge=1, le=MAX_D2, description="squared range in cells, at most the board's diagonal")]
    moved: Annotated[int, Meta(le=0)]
    disruption: Annotated[int, Meta(le=0)]


class Terrain(Spec):                                         # UW-TAB-2
    name: str
    cost: Annotated[list[Annotated[int, Meta(ge=0)]], Meta(min_length=2, max_length=2, description="orthogonal, diagonal")]
    blocks: bool
    cover: Literal["none", "solid", "flimsy"]


class CoverSaves(Spec):                                      # UW-COVER-4/5
    solid: Annotated[int, Meta(ge=1, le=10)]
    flimsy: Annotated[int, Meta(ge=1, le=10)]


class Weapon(Spec):                                          # UW-TAB-3: null where the weapon has no such band
    name: str
    cc: BandValues | None
    short: BandValues | None
    medium: BandValues | None
    long: BandValues | None
    extreme: BandValues | None
    fs: Annotated[int, Meta(ge=0)]


class Special(Spec):
    heavy_armour: Annotated[int, Meta(ge=0, le=9)] = 0
    high_morale: bool = False
    battleshield: bool = False


class Profile(Spec, kw_only=True):                           # UW-TAB-4, UW-STAT-1
    name: str
    stats: Stats
    ranged: str
    cc: str
    special: Special = Special()
    role: Literal["shooter", "melee"]                        # UW-AI-2


class Tables(Spec):
    bands: Annotated[list[Band], Meta(min_length=4)]
    terrain: dict[Annotated[str, Meta(min_length=1, max_length=1)], Terrain]
    cover_saves: CoverSaves
    weapons: dict[str, Weapon]
    profiles: dict[str, Profile]
