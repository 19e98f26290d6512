"""Smoke (CF-SMK-1..5): blocks of 3x3 squares that stop sight (CF-LOS-4) and decay (CF-TAB-6).

TODO(stage 2): firing smoke (CF-SMK-1..3) and decay (CF-SMK-5).
"""
from __future__ import annotations


def smoke_targets(game, e) -> list[int]:
    """CF-SMK-1 (stage 2)."""
    return []


def do_smoke(game, e, target: int) -> None:
    raise NotImplementedError("smoke is not implemented yet")


def decay(game) -> None:
    """CF-SMK-5 hook (stage 2)."""
