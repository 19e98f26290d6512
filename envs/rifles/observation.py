"""The observation vector of one side: only what that side may know (RB-HID-1..5).

Layout (float32, fixed size): global state, decision in progress, map, player groups, enemy groups,
markers, and (appended in version 2) the Exposed Movement roll of the player's last move this turn: its RB-TAB-8
effect one-hot (none, sniper, opportunity fire, contact, ambush; all 0 when the move rolled none, RU-EXP-2/3) and
the enemy group that made its opportunity free attack, one-hot (RU-EXP-4), public to both sides (RB-HID-1): a
missed free attack changes nothing else, yet it asked the enemy a decision; then per enemy slot the order it took in
the last Enemy Phase, one-hot (RB-AI-4's die or an RB-AI-1 choice: cover, attack, advance, close combat; an order
can run without a trace, yet it decides which decisions the enemy is asked). The enemy's vector never holds the
Stripe of a player group in the sewer (RB-HID-3/5); no vector holds marker contents (RB-HID-2) or future dice
(RB-HID-4).

Version 1 ended with the markers (989 features): an actor trained on it reads that prefix (PREFIX_SIZES).
"""
from __future__ import annotations

from array import array
from operator import attrgetter
from struct import Struct

import numpy as np

from envs.engine.contract import ObservationLayout, Planes
from envs.engine.derived import PREFIX

from .actions import ENEMY_SLOTS, MARKER_SLOTS, PLACES, PLAYER_SLOTS
from .config import FEATURE_KINDS, MAX_FEATURES, STRIPES
from .state import ENEMY

DECISIONS = ("player", "rubble_cost", "activate", "order", "place", "level", "target", "advance",
             "move_up", "through_complex", "free_attacker", "fast")
WEAPONS = ("flamethrower", "hmg", "mortar", "at", "lmg", "ar", "smg", "rifle", "pistol")
MODES = ("fire", "cover_fire", "close_combat")
WEAPON_INDEX = {w: i for i, w in enumerate(WEAPONS)}
N_WEAPONS = len(WEAPONS)

GLOBAL = 8 + len(DECISIONS) + (PLAYER_SLOTS + 1)
CONTEXT = ENEMY_SLOTS + PLAYER_SLOTS + STRIPES + PLACES + len(MODES) + 1
FEATURE = 1 + len(FEATURE_KINDS) + 2
MAP = STRIPES * (MAX_FEATURES * FEATURE + 1)
GROUP = 1 + STRIPES + PLACES + 8 + 6 + len(WEAPONS) + 2
MARKER = 1 + STRIPES
#: RU-EXP-1 / RB-TAB-8: the effects of an Exposed Movement roll (schema.py's list), in the appended block
EXPOSED_EFFECTS = ("none", "sniper", "opportunity_fire", "contact", "ambush")
ENEMY_ORDERS = ("cover", "attack", "advance", "close_combat")     # enemy.ORDER_NAMES
EXPOSED = len(EXPOSED_EFFECTS) + ENEMY_SLOTS + ENEMY_SLOTS * len(ENEMY_ORDERS)
EXPOSED_AT = GLOBAL + CONTEXT + MAP + (PLAYER_SLOTS + ENEMY_SLOTS) * GROUP + MARKER_SLOTS * MARKER
SIZE = EXPOSED_AT + EXPOSED
#: the sizes of earlier versions whose features are a prefix of this one's: version 1 ended with the markers
PREFIX_SIZES = (EXPOSED_AT,)
ZEROS = array("f", bytes(4 * SIZE))      # a blank vector, the buffer's start
DECISION_INDEX = {kind: i for i, kind in enumerate(DECISIONS)}
# Runs of floats written in one call (struct rounds each float64 to float32 to nearest, as numpy does);
# pack_into takes a byte offset, 4 bytes a float.
GLOBAL_STATE = Struct("8f")
GROUP_STATE = Struct("8f")
GROUP_UNITS = Struct(f"{6 + len(WEAPONS)}f")

#: where each side's observation buffer and the states its parts were last written from are kept on the game
#: (and the game's features in Map order)
#: (envs.engine.derived: a restored or cloned game starts without them, `refresh` drops them)
BUFFER_KEYS = tuple(f"{PREFIX}rifles_observation_{side}" for side in (0, 1))
MAP_KEYS = tuple(f"{PREFIX}rifles_map_{side}" for side in (0, 1))
MARKER_KEYS = tuple(f"{PREFIX}rifles_markers_{side}" for side in (0, 1))
EXPOSED_KEYS = tuple(f"{PREFIX}rifles_exposed_{side}" for side in (0, 1))
FEATURES_KEY = f"{PREFIX}rifles_features"
GROUP_KEYS = tuple(tuple(tuple(f"{PREFIX}rifles_group_{side}_{owner}_{slot}" for slot in range(slots))
                         for owner, slots in ((0, PLAYER_SLOTS), (ENEMY, ENEMY_SLOTS))) for side in (0, 1))
HEAD = GLOBAL + CONTEXT                     # the globals and the decision: written afresh every time
GROUPS_AT = HEAD + MAP
MARKERS_AT = GROUPS_AT + (PLAYER_SLOTS + ENEMY_SLOTS) * GROUP
FEATURE_STATE = attrgetter("kind", "sealed", "complex")   # what the map block shows of a feature
GONE = ()                                   # the state of a group out of play: its block is blank
# Blank parts, copied over a part before it is written again
BLANK_HEAD, BLANK_MAP, BLANK_GROUP, BLANK_MARKERS, BLANK_EXPOSED = (
    array("f", bytes(4 * n)) for n in (HEAD, MAP, GROUP, EXPOSED_AT - MARKERS_AT, EXPOSED))


def layout() -> ObservationLayout:
    """The map as a board of one row of six Stripes (RB-MAP-1; range is the difference of Stripe numbers, RB-MAP-3),
    each Stripe a square whose channels are everything the map says about it: each feature slot's presence, kind,
    seal and complex (RB-MAP-2; slots have no geometry within a Stripe), then its sewer entrance. The map stores a
    Stripe's features together, so the channel stride is 1 and the Stripe stride one Stripe's block."""
    block = MAX_FEATURES * FEATURE + 1
    names = tuple(f"slot{i}.{part}" for i in range(MAX_FEATURES)
                  for part in ("present", *FEATURE_KINDS, "sealed", "complex")) + ("sewer",)
    planes = Planes(block, STRIPES, 1, GLOBAL + CONTEXT, strides=(1, block, 1), names=names)
    return ObservationLayout(SIZE, planes, vector="globals, the decision in progress, groups, markers, exposed movement, enemy orders")


def encode(game, side: int) -> np.ndarray:
    """A fresh copy of `side`'s observation, a float32 vector of length SIZE.

    It is kept written in a buffer per side: the globals and the decision every time, the map only when the terrain
    changed (RU-DC-5/7), the markers only when one was revealed, a group's block only when something it shows changed
    (most decisions change one group or none), the exposed movement and the enemy's orders only when they changed."""
    # An array('f'): a store into it costs a third of a numpy item store, and both round each float64 to float32
    # the same way (to nearest), so the vector is bit-for-bit the same.
    kept = game.__dict__
    obs = kept.get(BUFFER_KEYS[side])
    if obs is None:
        obs = kept[BUFFER_KEYS[side]] = array("f", ZEROS)
    obs[:HEAD] = BLANK_HEAD
    encode_context(game, obs, encode_global(game, side, obs, 0))
    encode_map(game, side, obs, HEAD)
    keys = GROUP_KEYS[side]
    encode_groups(game, game.players, keys[0], obs, GROUPS_AT, hide_stripe=(side == ENEMY))
    encode_groups(game, game.enemies, keys[1], obs, GROUPS_AT + PLAYER_SLOTS * GROUP, hide_stripe=False)
    encode_markers(game, side, obs, MARKERS_AT)
    encode_exposed(game, side, obs, EXPOSED_AT)
    return np.frombuffer(obs[:], dtype=np.float32)        # a copy: the buffer changes with the game


def encode_markers(game, side: int, obs: array, at: int) -> None:
    """Where each marker lies (RB-EM-1; never its contents, RB-HID-2). Markers never move, they only go when revealed,
    so the block is rewritten only when one went."""
    markers = tuple(game.markers)
    kept = game.__dict__
    if kept.get(MARKER_KEYS[side]) != markers:
        obs[at:EXPOSED_AT] = BLANK_MARKERS
        for marker in markers:
            if marker is not None:
                obs[at + marker.slot * MARKER] = 1
                obs[at + marker.slot * MARKER + marker.stripe] = 1
        kept[MARKER_KEYS[side]] = markers


def encode_exposed(game, side: int, obs: array, at: int) -> None:
    """RU-EXP-1 (RB-HID-1: every die rolled is public): the effect of the player's last move's Exposed Movement roll
    this turn, and the enemy group that made its opportunity free attack (RU-EXP-4), hit or miss; both sides see it.
    Rewritten only when the roll or the orders differ from those the block was written from (most decisions change
    neither)."""
    kept = game.__dict__.get(EXPOSED_KEYS[side])
    if kept is not None and kept[0] == game.exposed and kept[1] == game.enemy_orders:
        return
    game.__dict__[EXPOSED_KEYS[side]] = (game.exposed, dict(game.enemy_orders))     # a copy: orders are set in place
    obs[at:] = BLANK_EXPOSED
    effect, attacker = game.exposed
    if effect is not None:
        obs[at + EXPOSED_EFFECTS.index(effect)] = 1
    if attacker >= 0:
        obs[at + len(EXPOSED_EFFECTS) + attacker] = 1
    at += len(EXPOSED_EFFECTS) + ENEMY_SLOTS
    for slot, order in game.enemy_orders.items():      # RB-AI-4: the last Enemy Phase's orders, public
        obs[at + slot * len(ENEMY_ORDERS) + order] = 1


def encode_global(game, side: int, obs: array, at: int) -> int:
    s = game.scenario
    GLOBAL_STATE.pack_into(obs, 4 * at, game.turn / s.turns, game.phase == "player", game.phase == "enemy", game.ap / s.ap,
                           game.bap / 3.0, game.recon / 3.0, side, game.current_side == side)
    at += 8
    if game.decision is not None:
        obs[at + DECISION_INDEX[game.decision[0]]] = 1
    at += len(DECISIONS)
    obs[at + (game.active if game.active >= 0 else PLAYER_SLOTS)] = 1
    return at + PLAYER_SLOTS + 1


def encode_context(game, obs: array, at: int) -> int:
    """The decision in progress: which enemy group, which player group, which Stripe and place, what mode."""
    ctx = game.decision[1] if game.decision is not None else {}
    kind = game.decision[0] if game.decision is not None else ""
    if "group" in ctx and kind != "rubble_cost":
        obs[at + ctx["group"]] = 1
    if "target" in ctx:
        obs[at + ENEMY_SLOTS + ctx["target"]] = 1
    if kind == "rubble_cost":
        obs[at + ENEMY_SLOTS + ctx["group"]] = 1
    base = at + ENEMY_SLOTS + PLAYER_SLOTS
    if "stripe" in ctx:
        obs[base + ctx["stripe"] - 1] = 1
    if "place" in ctx:
        obs[base + STRIPES + ctx["place"]] = 1
    if "mode" in ctx:
        obs[base + STRIPES + PLACES + MODES.index(ctx["mode"])] = 1
    obs[base + STRIPES + PLACES + len(MODES)] = ctx.get("drm", 0)
    return at + CONTEXT


def encode_map(game, side: int, obs: array, at: int) -> None:
    """Terrain state both sides see (RB-HID-1); it changes only by demo charges (RU-DC-5/7, counted in
    `terrain_changes`), so it is rewritten only then."""
    kept = game.__dict__
    if kept.get(MAP_KEYS[side]) != game.terrain_changes:
        obs[at:at + MAP] = BLANK_MAP
        build_map(game, obs, at)
        kept[MAP_KEYS[side]] = game.terrain_changes


def terrain_state(game) -> tuple:
    """What the map block shows of every feature: kind, seal, complex (RU-DC-5 unseals, RU-DC-7 collapses), read
    from the game's features in Map order (the list is made once per game: features change, never come or go)."""
    features = game.__dict__.get(FEATURES_KEY)
    if features is None:
        features = game.__dict__[FEATURES_KEY] = [f for stripe in game.places[1:] for f in stripe[1:]]
    return tuple(map(FEATURE_STATE, features))


def build_map(game, obs, at: int) -> int:
    """Kinds, seals, complexes and sewer entrances of every Stripe."""
    for stripe in range(1, STRIPES + 1):
        features = game.places[stripe]
        for i in range(MAX_FEATURES):
            if i + 1 < len(features):
                f = features[i + 1]
                obs[at] = 1
                obs[at + 1 + FEATURE_KINDS.index(f.kind)] = 1
                obs[at + 1 + len(FEATURE_KINDS)] = f.sealed
                obs[at + 2 + len(FEATURE_KINDS)] = f.complex is not None
            at += FEATURE
        obs[at] = stripe in game.scenario.sewer_stripes
        at += 1
    return at


def encode_groups(game, groups, keys: tuple, obs: array, at: int, hide_stripe: bool) -> None:
    """The blocks of one side's groups, each rewritten only if its state changed since it was last written, and then
    only the parts whose values changed (most changes are a flag: activated, fired); a gone group's block is blank."""
    kept = game.__dict__
    for group in groups:
        state = group_state(game, group)
        key = keys[group.gid]
        old = kept.get(key)
        if old == state:
            continue
        start = at + group.gid * GROUP
        if state is GONE:
            obs[start:start + GROUP] = BLANK_GROUP
        else:
            if old is None or old is GONE:                # a blank block: every part is written
                obs[start] = 1
                old = UNWRITTEN
            if old[WHERE] != state[WHERE]:
                encode_where(group, obs, start, hide_stripe)
            if old[FLAGS] != state[FLAGS]:
                encode_flags(game, group, obs, start)
            if old[UNITS] != state[UNITS]:
                encode_units(game, group, obs, start)
        kept[key] = state


def group_state(game, group) -> tuple:
    """Everything a group's block shows that can change: its fields, and for which units it has, their results and
    quality (RU-CC-16 makes a Veteran) the count of their changes (Group.unit_changes: reading every unit cost more
    than the rest); GONE for a group out of play (no units, or exited), whose block is blank. One tuple of values
    that never change in place, so it is kept as it is; WHERE, FLAGS and UNITS are the values each part reads."""
    if not group.units or group.exited:
        return GONE
    return (group.stripe, group.place, group.in_sewer, group.level, group.engaged_with, group.defending,
            group.activated, group.fired, group.fought, group.demo_charges, group.side == 0 and group.gid in game.demo,
            group.unit_changes)


# The values of group_state that encode_where, encode_flags and encode_units read (in_sewer: both the first two)
WHERE, FLAGS, UNITS = slice(0, 3), slice(2, 11), 11
UNWRITTEN = (None,) * 12                    # the state of a blank block: no part equal
WHERE_AT, FLAGS_AT, UNITS_AT = 1, 1 + STRIPES + PLACES, 1 + STRIPES + PLACES + 8     # the parts in a group's block
BLANK_WHERE = array("f", bytes(4 * (STRIPES + PLACES)))


def encode_where(group, obs: array, at: int, hide_stripe: bool) -> None:
    """Where a group in play is: its Stripe and place, unless hidden in the sewer."""
    obs[at + WHERE_AT:at + FLAGS_AT] = BLANK_WHERE
    if not (hide_stripe and group.in_sewer):
        obs[at + group.stripe] = 1
        obs[at + 1 + STRIPES + group.place] = 1


def encode_flags(game, group, obs: array, at: int) -> None:
    """A group's state: level, sewer, fight, activation, charges (and at the block's end a pending charge and the
    enemy it fights)."""
    GROUP_STATE.pack_into(obs, 4 * (at + FLAGS_AT), group.level, group.in_sewer, group.engaged_with >= 0,
                          group.defending, group.activated, group.fired, group.fought, group.demo_charges / 2.0)
    obs[at + GROUP - 2] = group.side == 0 and group.gid in game.demo
    obs[at + GROUP - 1] = group.engaged_with + 1


def encode_units(game, group, obs: array, at: int) -> None:
    """A group's units: how many, OK, Suppressed, Leaders, Veterans, Recruits, and per weapon."""
    ok = leaders = veterans = recruits = 0
    kinds = [0] * N_WEAPONS
    for u in group.units:
        ok += u.hits == 0
        veterans += u.quality == 2
        recruits += u.quality == 0
        if u.kind is None:
            leaders += u.leader
            kinds[WEAPON_INDEX[u.weapon]] += 1
        else:        # RD-GEN-3/4: a Darkness unit counts in its type's slot; its results taken in the Leader slot
            leaders += u.hits
            kinds[game.scenario.darkness.slots[u.kind]] += 1
    n = len(group.units)
    GROUP_UNITS.pack_into(obs, 4 * (at + UNITS_AT), n / 4.0, ok / 4.0, (n - ok) / 4.0, leaders, veterans, recruits,
                          *kinds)


def side_units(scenario, side: int) -> int:
    """The most units `side` can ever have on the table in `scenario`: its groups, and for the enemy every marker
    revealed as the largest group of the reveal table (RB-TAB-6 / RD-TAB-2). Groups only merge, never grow."""
    if side != ENEMY:
        return sum(len(g.units) for g in scenario.player_groups)
    largest_reveal = max((len(units) for units in scenario.reveal_table.values()), default=0)
    return sum(len(g.units) for g in scenario.enemy_groups) + len(scenario.markers) * largest_reveal


def bounds(scenarios) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) of every feature over `scenarios`. Flags, one-hots and fractions lie in [0, 1]; the counts of a
    group block are bounded by the units its side can have; the decision's DRM by a d6's range."""
    low, high = np.zeros(SIZE, dtype=np.float32), np.ones(SIZE, dtype=np.float32)
    high[5] = max(max(s.recon_points for s in scenarios), 3) / 3.0      # recon points, shown / 3
    drm = GLOBAL + CONTEXT - 1
    low[drm], high[drm] = -6, 6                                           # a DRM beyond a d6's faces changes nothing
    at = GLOBAL + CONTEXT + MAP
    for side, slots in ((0, PLAYER_SLOTS), (ENEMY, ENEMY_SLOTS)):
        units = max(side_units(s, side) for s in scenarios)
        hits = max([1] + [s.darkness.results_to_eliminate for s in scenarios if s.darkness is not None]
                   + [t.wounds or 1 for s in scenarios if s.darkness is not None for t in s.darkness.types.values()])
        charges = max(sum(g.demo_charges for g in (s.player_groups if side != ENEMY else s.enemy_groups))
                      for s in scenarios)
        for slot in range(slots):
            block = at + slot * GROUP + 1 + STRIPES + PLACES
            high[block + 7] = max(charges / 2.0, 1.0)   # never narrower than [0, 1]: Gymnasium refuses low == high
            high[block + 8:block + 11] = units / 4.0                      # units, unhurt, hit (each / 4)
            high[block + 11] = units * hits                               # leaders, or a Darkness group's results
            high[block + 12:block + 14 + len(WEAPONS)] = units            # veterans, recruits, units by weapon
            high[block + 14 + len(WEAPONS) + 1] = ENEMY_SLOTS if side != ENEMY else PLAYER_SLOTS   # engaged_with + 1
        at += slots * GROUP
    return low, high
