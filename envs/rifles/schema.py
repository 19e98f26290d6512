"""The shape of a Rifles scenario file (configs/rifles/scenarios/*.yaml; rules catalog §15), for both modules.

Exported to configs/rifles/scenario.schema.json by `python -m envs.schemas`; config.load_scenario checks every file
against it before reading it.
"""
from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from envs.engine.schema import Spec

Stripe = Annotated[int, Meta(ge=1, le=6, description="a stripe, RB-MAP-1")]
Quality = Literal["recruit", "regular", "veteran"]


class Feature(Spec):
    id: str
    kind: Literal["ms", "building", "rubble", "wall", "woods"]
    sealed: bool = False
    complex: str | None = None
    advanced: bool = False                    # RU-VAR-1


class StripeSpec(Spec):
    stripe: Stripe
    sewer: bool = False                       # RU-SEW-1
    features: Annotated[list[Feature], Meta(max_length=3)] = []


class At(Spec):
    stripe: Stripe
    feature: str | None = None


class Unit(Spec):
    id: str
    quality: Quality
    weapon: str
    leader: bool = False


class Group(Spec, kw_only=True):
    id: str
    name: str | None = None                   # a label for the designer only
    at: At
    units: Annotated[list[Unit], Meta(min_length=1)]
    demo_charges: Annotated[int, Meta(ge=0, le=20)] = 0    # RU-DC-1
    sewers: bool = False


class Player(Spec):
    groups: Annotated[list[Group], Meta(min_length=1)]


class Marker(Spec):
    id: str
    stripe: Stripe


class Enemy(Spec):
    quality: Quality
    reveal_table: str
    groups: list[Group] = []
    markers: list[Marker] = []


class Options(Spec):
    advanced_urban: bool = False              # RU-VAR-1
    exposed_movement: bool = True             # RU-VAR-2
    enemy_rolls_as_choices: bool = False      # RB-AI-1
    exit_allowed: bool = False                # RB-VIC-4
    night_visibility: bool = False            # RD-VAR-1 (Darkness scenarios only)


class Hold(Spec, tag="hold", tag_field="kind"):
    objective: str
    clear_of_enemy: list[str] = []


class Exit(Spec, tag="exit", tag_field="kind"):
    units_to_exit: Annotated[int, Meta(ge=1, le=100, description="units to exit, RB-VIC-4")]   # far above any squad
    loss_eliminated: Annotated[int, Meta(ge=1)]


class Scenario(Spec, kw_only=True):
    name: str
    modules: list[Literal["urban", "darkness"]]
    tables: str = "standard"
    darkness_tables: str | None = None        # RD-GEN-1
    turns: Annotated[int, Meta(ge=1, le=100)]   # RB-TURN-1
    ap: Annotated[int, Meta(ge=1, le=20)]     # RB-TURN-2
    recon_points: Annotated[int, Meta(ge=0, le=20)]  # RB-AP-4
    posture: Annotated[int, Meta(ge=-1, le=1)]  # RU-SCN-3
    options: Options = Options()
    stripes: Annotated[list[StripeSpec], Meta(min_length=1)]
    player: Player
    enemy: Enemy
    reveal_tables: dict[str, dict[int, list[str]]]   # RB-TAB-6 / RD-TAB-2: d6 face -> the new group's units
    victory: Hold | Exit


# Tables (configs/rifles/tables/): the standard tables and the Darkness module's -----------------------------------
D6 = Annotated[int, Meta(ge=1, le=7, description="a d6 face; 7: never")]
NonNegative = Annotated[int, Meta(ge=0)]


class WeaponRow(Spec):                        # RB-TAB-3 (heaviness: the order of the table, heaviest first)
    cf: NonNegative
    min_range: NonNegative
    max_range: NonNegative
    cc_mod: int
    cc_cf: Annotated[float, Meta(ge=0)]
    ignores_cover: bool = False


class Cover(Spec):                            # RB-TAB-2 / RB-MAP-5
    open: NonNegative
    wall: NonNegative
    woods: NonNegative
    building: NonNegative
    ms: NonNegative
    rubble: NonNegative


class MoraleTarget(Spec):                     # RB-TAB-4
    recruit: Annotated[int, Meta(ge=1, le=7)]
    regular: Annotated[int, Meta(ge=1, le=7)]
    veteran: Annotated[int, Meta(ge=1, le=7)]


class ApCosts(Spec):                          # RB-AP-1
    move: NonNegative
    fire: NonNegative
    rally: NonNegative
    close_combat: NonNegative
    floor: NonNegative
    hop: NonNegative
    sewer: NonNegative
    demo_charge: NonNegative
    demo_take_back: NonNegative
    exit: NonNegative


class EnemyOrder(Spec):                       # RB-TAB-7
    max: int
    order: Literal["cover", "attack", "advance", "close_combat"]


class ExposedMovement(Spec):                  # RB-TAB-8: D66 ranges
    min: Annotated[int, Meta(ge=11, le=66)]
    max: Annotated[int, Meta(ge=11, le=66)]
    effect: Literal["none", "sniper", "opportunity_fire", "contact", "ambush"]


class DemoAttack(Spec):                       # RU-DC-6
    cf: NonNegative
    tn: Annotated[int, Meta(ge=2, le=6)]


class AdvancedBuilding(Spec):                 # RU-TAB-1
    max: Annotated[int, Meta(ge=1, le=6)]
    kind: Literal["building", "ms", "rubble"]


class Tables(Spec, kw_only=True):
    range_tn: Annotated[list[int], Meta(min_length=4)]   # RB-TAB-1: TN at range 0, 1, 2, 3+
    tn_cap: Annotated[int, Meta(ge=2, le=6)]             # RB-FIRE-2
    cover: Cover
    own_ms_other_level_cover: NonNegative                # RU-MS-6
    first_floor_drm: int                                 # RU-MS-4
    morale_target: MoraleTarget
    weapons: dict[str, WeaponRow]
    ap_costs: ApCosts
    enemy_orders: list[EnemyOrder]
    exposed_movement: list[ExposedMovement]
    rubble_two_ap_from: D6                               # RU-RUB-1
    sewer_stuck_on: D6                                   # RU-SEW-3
    dc_fail_on: Annotated[int, Meta(ge=2, le=12)]        # RU-DC-3/4: 2d6
    dc_attack: DemoAttack
    dc_collapse_on: D6                                   # RU-DC-7
    ms_first_floor_from: D6                              # RU-AI-2
    advanced_building: list[AdvancedBuilding]


class DarknessType(Spec, kw_only=True):                  # RD-TAB-1 / RD-GEN-3; traits RD-TRT-1..5
    cf: NonNegative
    min_range: NonNegative | None = None      # needed when cf > 0
    max_range: NonNegative | None = None
    cc_cf: Annotated[float, Meta(ge=0)]
    # crawling, fast, multiple_attacks(X), wounds(X) (RD-TRT-1..5): read, with its own errors, by config._traits
    traits: list[str] = []


class DarknessOrder(Spec):                    # RD-AI-2
    max: Annotated[int, Meta(ge=1)]
    order: Literal["attack", "advance"]


class CloseCombatModifiers(Spec):             # RD-CC-3..7
    shaken: int
    recruit: int
    building: int
    feature_first_round: int
    more_veterans: int


class DarknessTables(Spec, kw_only=True):
    types: Annotated[dict[str, DarknessType], Meta(min_length=1, max_length=9)]
    results_to_eliminate: Annotated[int, Meta(ge=1)]     # RD-GEN-4
    orders: Annotated[list[DarknessOrder], Meta(min_length=1)]
    cc_cf_rounding: Literal["sum_then_floor", "per_unit_floor"]   # RD-CC-2
    cc_modifiers: CloseCombatModifiers
    fast_attack_min_dice: NonNegative                    # RD-TRT-2
