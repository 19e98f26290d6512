"""The shape of a Rifles scenario file (configs/rifles/scenarios/*.yaml; rules catalog §15), for both modules.

Exported to configs/rifles/scenario.schema.json by `python -m envs.schemas`; config.load_scenario checks every file
against it before reading it.
"""
from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from envs.engine.schema import Spec

Stripe = Annotated[int, Meta(ge=1, le=6, description="RB-MAP-1: stripe 1..6")]
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
    demo_charges: Annotated[int, Meta(ge=0)] = 0    # RU-DC-1
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
    units_to_exit: Annotated[int, Meta(ge=1)]
    loss_eliminated: Annotated[int, Meta(ge=1)]


class Scenario(Spec, kw_only=True):
    name: str
    modules: list[Literal["urban", "darkness"]]
    tables: str = "standard"
    darkness_tables: str | None = None        # RD-GEN-1
    turns: Annotated[int, Meta(ge=1, le=100)]   # RB-TURN-1
    ap: Annotated[int, Meta(ge=1)]            # RB-TURN-2
    recon_points: Annotated[int, Meta(ge=0)]  # RB-AP-4
    posture: Annotated[int, Meta(ge=-1, le=1)]  # RU-SCN-3
    options: Options = Options()
    stripes: Annotated[list[StripeSpec], Meta(min_length=1)]
    player: Player
    enemy: Enemy
    reveal_tables: dict[str, dict[int, list[str]]]   # RB-TAB-6 / RD-TAB-2: d6 face -> the new group's units
    victory: Hold | Exit
