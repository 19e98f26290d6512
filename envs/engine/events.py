"""The event log: what happened, which dice were rolled, in words a player understands."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened. `kind` is a stable machine tag; `text` is for people; `dice` the faces rolled;
    `rule` the catalog rule ID that produced it (e.g. "RB-FIRE-3"), for playtest counts and replays.

    `data["rolls"]`, where a ruleset gives it, says what each die needed and what followed (see `roll`); it is
    data, not text, so the golden traces (which fingerprint the text) stay as they were and a screen words it."""

    kind: str
    text: str
    side: int | None = None
    dice: tuple[int, ...] = ()
    rule: str = ""
    data: dict = field(default_factory=dict, compare=False)

    def __str__(self) -> str:
        rolled = f" [dice {' '.join(map(str, self.dice))}]" if self.dice else ""
        return f"{self.text}{rolled}"


_NO_DATA = object()   # `data` left out: a new empty dict, as the field's default_factory gives


def _event_init(slots):
    """Event's __init__, setting its slots through their descriptors: the same fields and defaults as the
    generated one, in well under half its time (a frozen dataclass's generated __init__ goes through
    object.__setattr__ field by field, and every rule that happens makes an Event)."""
    set_kind, set_text, set_side, set_dice, set_rule, set_data = (getattr(Event, name).__set__ for name in slots)

    def __init__(self, kind: str, text: str, side: int | None = None, dice: tuple[int, ...] = (), rule: str = "",
                 data: dict = _NO_DATA) -> None:
        set_kind(self, kind)
        set_text(self, text)
        set_side(self, side)
        set_dice(self, dice)
        set_rule(self, rule)
        set_data(self, {} if data is _NO_DATA else data)
    return __init__


Event.__init__ = _event_init(Event.__slots__)


class _Recording:
    """Event's slots, written like any object's: `EventLog.add` fills a blank one and then makes it the Event it is
    (its `__class__` set once, allowed because the slots are the same). Event's own __init__ must pass each field
    through its slot's descriptor, the frozen dataclass refusing plain writes; this costs about a third of that, on
    the path of every rule that happens. Nothing else ever holds a _Recording."""

    __slots__ = Event.__slots__


_blank = object.__new__   # a _Recording with no field set yet (no __init__ call: `add` writes them)


def roll(dice, result: str, needs: str = "", table: str = "") -> dict:
    """What one die (or one set of dice read together, such as a D66) of an event needed and what followed:
    `needs` a score in words ("5+", "3 or less to move") or `table` the table the dice are read on, and
    `result` what came of it ("hit", "miss", "sniper"). Plain data, so replays store it as it is."""
    return {"dice": list(map(int, dice)), "needs": needs, "table": table, "result": result}


#: the `data` keys of an event readable by only some sides: who may read it, what the others read instead, and
#: whether they read its dice too
SEEN_BY, PUBLIC, PUBLIC_DICE = "seen_by", "public", "public_dice"


def private(*sides: int, public: str | None = None, public_dice: bool = False) -> dict:
    """The `data` of an event only `sides` may read (hidden information, each ruleset's *-HID-* rules): pass it
    to `EventLog.add` as `**private(side)`. The other sides read `public` in its place, without data and without
    dice unless `public_dice` (dice the rules show them, words that are not), or nothing when `public` is None.
    Data, not text, dice or side: the golden traces do not see it, and saved games and replays (the umpire's
    record) keep it as it is."""
    seen = {SEEN_BY: list(map(int, sides))}   # (map: a comprehension is a call of its own in this Python)
    if public is not None:
        seen[PUBLIC] = public
        if public_dice:
            seen[PUBLIC_DICE] = True
    return seen


def readable_by(event: Event, side: int | None) -> bool:
    """Whether `side` may read `event` as it is (None: the umpire, who reads everything)."""
    seen = event.data.get(SEEN_BY) if event.data else None
    return seen is None or side is None or side in seen


def event_seen_by(event: Event, side: int | None) -> Event | None:
    """`event` as `side` may read it: itself, its public wording (no data; no dice unless `public_dice`), or None."""
    if readable_by(event, side):
        return event
    public = event.data.get(PUBLIC)
    if public is None:
        return None
    return Event(event.kind, public, event.side, event.dice if event.data.get(PUBLIC_DICE) else (), event.rule, {})


def events_seen_by(events, side: int | None) -> list[Event]:
    """What `side` may read of `events`, in order (None: the umpire, every event as it is). The one way a screen
    for a person, or anything that plays a side, reads the event log (DESIGN section 2, hidden information)."""
    seen = []
    for event in events:
        shown = event_seen_by(event, side)
        if shown is not None:
            seen.append(shown)
    return seen


def event_to_dict(event: Event) -> dict:
    """An event as JSON-ready data (a saved game carries its set-up's events)."""
    return {"kind": event.kind, "text": event.text, "side": event.side, "dice": list(event.dice), "rule": event.rule,
            "data": _plain(event.data)}


def event_from_dict(data: dict) -> Event:
    """The event `event_to_dict` wrote (never aliasing `data`)."""
    return Event(data["kind"], data["text"], data["side"], tuple(data["dice"]), data["rule"], _plain(data["data"]))


def _plain(value):
    """A copy of JSON-like data: dicts and lists copied all the way down, tuples as lists."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


class EventLog:
    """Collects the events of one `apply` call; rulesets append, the caller gets the list."""

    __slots__ = ("events", "enabled")

    def __init__(self, enabled: bool = True) -> None:
        self.events: list[Event] = []
        self.enabled = enabled

    def add(self, kind: str, text: str, side: int | None = None, dice=(), rule: str = "", **data) -> None:
        """Record an event; `rule` names the catalog rule that produced it."""
        if self.enabled:
            event = _blank(_Recording)
            event.kind = kind
            event.text = text
            event.side = side
            event.dice = dice if dice.__class__ is tuple else tuple(dice)
            event.rule = rule
            event.data = data
            event.__class__ = Event
            self.events.append(event)

    def take(self) -> list[Event]:
        events, self.events = self.events, []
        return events
