"""Ammunition (CF-AMMO-1): OOA weapons recover in the Ammunition Resupply Phase.

TODO(stage 2, CF-AMMO-1): from the turn after it ran out, each OOA weapon (kinetic `ooa`, special
`special_ooa`) recovers on D6 <= the side's AR (scenario.ammo_rating).
"""
from __future__ import annotations


def resupply(game) -> None:
    """CF-AMMO-1 hook (stage 2)."""
