"""What an audit plays, and the audited agent: a scripted side that declares its priority list."""
from __future__ import annotations

from dataclasses import dataclass

from agents.priority import Ablatable
from training import lookup


@dataclass(frozen=True)
class AuditSetup:
    """What an audit plays: the audited side's scripted list against `against` on every other side."""

    ruleset: str
    scenario: str | None
    side: int
    against: str
    seeds: tuple[int, ...]
    audited: str = "scripted"          # the list audited: the scripted agent, or distilled:PATH


def audited_factory(rs, setup: AuditSetup):
    """The audited agent of the setup's side, which must declare its priority list (agents/priority.py)."""
    factory = lookup.agent(rs, setup.audited)
    if not isinstance(factory(setup.side, 0), Ablatable):
        raise lookup.CommandError(f"{rs.name}'s {setup.audited} {rs.sides[setup.side]} declares no priority list to "
                                  "audit (agents/priority.py: Ablatable); auditable: every ruleset's scripted sides and "
                                  "distilled lists (distilled:PATH)")
    return factory
