"""The event log: what happened, which dice were rolled, in words a player understands."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened. `kind` is a stable machine tag; `text` is for people; `dice` the faces rolled;
    `rule` the catalog rule ID that produced it (e.g. "RB-FIRE-3"), for playtest counts and replays."""

    kind: str
    text: str
    side: int | None = None
    dice: tuple[int, ...] = ()
    rule: str = ""
    data: dict = field(default_factory=dict, compare=False)

    def __str__(self) -> str:
        rolled = f" [dice {' '.join(map(str, self.dice))}]" if self.dice else ""
        return f"{self.text}{rolled}"


class EventLog:
    """Collects the events of one `apply` call; rulesets append, the caller gets the list."""

    __slots__ = ("events", "enabled")

    def __init__(self, enabled: bool = True) -> None:
        self.events: list[Event] = []
        self.enabled = enabled

    def add(self, kind: str, text: str, side: int | None = None, dice=(), rule: str = "", **data) -> None:
        """Record an event; `rule` names the catalog rule that produced it."""
        if self.enabled:
            self.events.append(Event(kind, text, side, tuple(dice), rule, data))

    def take(self) -> list[Event]:
        events, self.events = self.events, []
        return events
