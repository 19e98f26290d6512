"""Suppression recovery (CF-REC-1..14).

TODO(stage 2): leaders first, then the rest in element order, D6 <= LR + DMs.
"""
from __future__ import annotations


def recover_all(game) -> None:
    """CF-REC-1 hook (stage 2)."""
