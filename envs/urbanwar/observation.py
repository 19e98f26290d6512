"""The observation vector of one side (UW-HID-1/2/7): public state plus its own face-down orders.

Layout (float32):
  terrain planes 3 x 48 x 48: impassable (wall 1, window 0.5), difficult, cover (solid 1, flimsy 0.5)
  models 16 x 24: per model (team A slots 0..7, team B 8..15) the features of MODEL_FEATURES
  globals 36: the features of GLOBAL_FEATURES

What never changes within a game (terrain, profiles, which models are the side's own) is written once per game and
side into a template, kept as a buffer in which a model's row is rewritten when the model changes; an observation
is a copy of it with the globals filled in.
"""
from __future__ import annotations

import struct

import numpy as np

from envs.engine.contract import ObservationLayout, Planes
from envs.engine.derived import PREFIX, BoundedStore, remember, unchanged_since
from envs.engine.secret_orders import HIDDEN

from . import public
from .config import MAX_MODELS, SIZE
from .flow import Decision

CELLS = SIZE * SIZE
TERRAIN_PLANES = ("impassable", "difficult", "cover")
MODEL_FEATURES = ("placed", "x", "y", "wounds_left", "panic", "activated", "face_down", "seen_snap_fire",
                  "seen_overwatch", "follow_ups_used", "commander", "melee", "AS", "SH", "ST", "T", "W", "CD", "SZ",
                  "MV", "CAL", "own", "acting", "removed")
MODEL = {name: i for i, name in enumerate(MODEL_FEATURES)}
#: stat -> its scale: stats are divided by a typical maximum, not clipped (UW-STAT-1 sets no upper limit for W, MV..)
STAT_SCALE = {"AS": 10, "SH": 10, "ST": 10, "T": 10, "W": 4, "CD": 10, "SZ": 4, "MV": 6, "CAL": 3}
MODEL_FEATURES_COUNT = len(MODEL_FEATURES)
KINDS = list(Decision)
SLOTS = 2 * MAX_MODELS
GLOBAL_FEATURES = ("turn", "side", "deciding", "north_edge", *(f"decision_{k}" for k in KINDS),
                   *(f"acting_slot_{s}" for s in range(SLOTS)), "declared_x", "declared_y", "action_kind",
                   "interrupt_attempted")
GLOBAL = {name: i for i, name in enumerate(GLOBAL_FEATURES)}
GLOBALS = len(GLOBAL_FEATURES)
MODELS_AT = 3 * CELLS
GLOBALS_AT = MODELS_AT + SLOTS * MODEL_FEATURES_COUNT
SIZE_OBS = GLOBALS_AT + GLOBALS
# One model's feature offsets, for the hot path below.
_PLACED, _X, _Y, _W, _PANIC, _ACTIVATED, _FACE_DOWN, _SNAP, _OVERWATCH, _FU = range(10)
_ACTING, _REMOVED = MODEL["acting"], MODEL["removed"]
_KIND_AT = GLOBAL[f"decision_{KINDS[0]}"]
_ACTING_AT = GLOBAL["acting_slot_0"]
_DECLARED_AT = GLOBAL["declared_x"]


def layout() -> ObservationLayout:
    """The three terrain planes of the 48 x 48 cells (UW-GRID-1; row y, column x) first; the vector part is the
    models and the globals (a model's cell is its x, y features)."""
    planes = Planes(len(TERRAIN_PLANES), SIZE, SIZE, 0, names=TERRAIN_PLANES)
    return ObservationLayout(SIZE_OBS, planes, vector="models, globals")


#: process-wide (envs.engine.derived.BoundedStore): a board's digest -> its terrain planes (public, the same in
#: both sides' observations; read-only)
TERRAIN = BoundedStore("urbanwar terrain planes", 16)


def terrain_planes(board) -> np.ndarray:
    """UW-TAB-2 as three planes: impassable (wall 1, window 0.5), difficult, cover (solid 1, flimsy 0.5)."""
    return TERRAIN.get(board.key, _draw_terrain, board)


def _draw_terrain(board) -> np.ndarray:
    planes = np.zeros((3, CELLS), dtype=np.float32)
    for i, ch in enumerate(board.chars):
        planes[0, i] = 1.0 if ch == "#" else 0.5 if ch == "W" else 0.0
        planes[1, i] = 1.0 if board.cost[i][0] > 2 else 0.0
        planes[2, i] = {0: 0.0, 1: 1.0, 2: 0.5}[board.cover[i]]
    planes = planes.reshape(-1)
    planes.flags.writeable = False
    return planes


def roster_features(m) -> list[float]:
    """The features a model's profile and role fix for the whole game (public, UW-HID-1)."""
    p = m.profile
    return [float(m.commander), float(p.role == "melee"), *(getattr(p, stat) / scale for stat, scale in STAT_SCALE.items())]


def template(game, side: int) -> np.ndarray:
    """Everything of `side`'s observation that no play changes: terrain, rosters, own models, the side."""
    out = np.zeros(SIZE_OBS, dtype=np.float32)
    out[:MODELS_AT] = terrain_planes(game.board)
    models = out[MODELS_AT:GLOBALS_AT].reshape(SLOTS, MODEL_FEATURES_COUNT)
    for m in game.models:
        row = models[m.side * MAX_MODELS + m.slot]
        row[MODEL["commander"]:MODEL["CAL"] + 1] = roster_features(m)
        row[MODEL["own"]] = float(m.side == side)
    out[GLOBALS_AT + GLOBAL["side"]] = float(side)
    return out


BUFFER_KEYS = tuple(f"{PREFIX}obs_buffer_{side}" for side in range(2))
OFF_TABLE = -1 / 47                                  # x and y of a model off the table
_NO_ORDER = (False, HIDDEN)                          # no counter: not face down, nothing seen


def encode(game, side: int) -> np.ndarray:
    """A fresh observation of `side` (UW-HID-1: public; UW-HID-2: own orders). It is kept written in a buffer per
    side, the game's `template` at first, beside what it was written from (`Written`): how far the models' list of
    changes was read (models.Model.changes), how far the order counters' (SecretOrders.changed), the acting model
    and the globals' sources. Only the rows of models changed since, or whose order as the side sees it changed,
    are written again (a model that only became or stopped being the acting one: that flag alone), and only the
    parts of the globals whose sources changed."""
    kept = unchanged_since(game, BUFFER_KEYS[side], ())
    if kept is None:
        buffer = template(game, side)
        kept = remember(game, BUFFER_KEYS[side], (), (buffer, Written(buffer)))
    buffer, written = kept
    orders, act, floats = game.orders, game.act, written.floats
    acting = act.get("model", -1) if act is not None else -1
    changes = game.model_changes
    orders_changed = orders is not written.orders or len(orders.changed) != written.orders_read
    if len(changes) != written.changes or orders_changed or acting != written.acting:
        models = game.models
        dirty = set(changes[written.changes:]) if written.changes >= 0 else {m.idx for m in models}
        if orders_changed:
            dirty.update(written.read_orders(game, side))
        seen = written.seen
        for i in dirty:
            write_model(models[i], seen.get(i, _NO_ORDER), acting == i, floats)
        if acting != written.acting:
            for i in (written.acting, acting):
                if i >= 0 and i not in dirty:
                    floats[row_at(models[i]) + _ACTING] = float(i == acting)
        written.changes, written.acting = len(changes), acting
    decision = game.decision
    head = (game.turn, None if decision is None else decision[0], game.current_side, game.edges[side])
    if head != written.head:
        floats[GLOBALS_AT:GLOBALS_AT + _ACTING_AT] = written.heads.get(head) or written.keep_head(head, game, side)
        written.head = head
    tail = None if act is None or "path" not in act else (acting, act["path"][-1], act["kind"], act["attempted"])
    if tail != written.tail:
        write_tail(game, floats)
        written.tail = tail
    return buffer.copy()


class Written:
    """What a side's buffer (`floats`: its items) was last written from (`encode`): how many of the models' changes
    (-1: no row yet), the order counters (`orders`, how many of its changes were read, which sides' face-down ones
    were known to be Overwatch) and the side's view of them (`seen`), the acting model, the globals' sources before
    the acting slots (`head_of`) and from them on (`write_tail`; None: no declared path); and the globals' first part
    by its sources, as written before (a game has a few dozen)."""
    __slots__ = ("buffer", "floats", "changes", "orders", "orders_read", "known", "seen", "acting", "head", "tail",
                 "heads")

    def __init__(self, buffer: np.ndarray) -> None:
        self.buffer, self.floats = buffer, memoryview(buffer)
        self.changes, self.orders, self.orders_read, self.known, self.seen, self.acting = -1, None, 0, None, {}, -1
        self.head = self.tail = False
        self.heads: dict[tuple, memoryview] = {}

    def __reduce__(self):
        """A copy (pickle, deepcopy) knows nothing written: its buffer is written afresh at the next observation (a
        memoryview does not copy)."""
        return Written, (self.buffer,)

    def read_orders(self, game, side: int) -> list[int]:
        """The models whose counter as `side` sees it (UW-HID-2, UW-HID-4) changed since the orders were last read:
        of the same store with the same sides known to be on Overwatch, only the counters it logged since are looked
        at; else (a new turn's store, a side's Overwatch just became known) every counter."""
        orders, seen = game.orders, self.seen
        known = public.overwatch_known(game)
        if orders is self.orders and known == self.known:
            dirty = []
            for i in set(orders.changed[self.orders_read:]):
                now = public.counter_seen_by(game, side, i, known)
                if now != seen.get(i):
                    dirty.append(i)
                    if now is None:
                        del seen[i]
                    else:
                        seen[i] = now
        else:
            self.seen = now = public.orders_seen_by(game, side, known)
            dirty = [i for i in now.keys() | seen.keys() if now.get(i) != seen.get(i)]
        self.orders, self.orders_read, self.known = orders, len(orders.changed), known
        return dirty

    def keep_head(self, head: tuple, game, side: int) -> memoryview:
        self.heads[head] = memoryview(np.array(head_of(game, side), dtype=np.float32))
        return self.heads[head]


_ROW_START = struct.Struct(f"{_FU + 1}f")            # a row's features up to follow_ups_used
_ROW_END = struct.Struct("2f")                       # acting, removed
_DECLARED = struct.Struct("4f")                      # declared_x, declared_y, action_kind, interrupt_attempted
_NO_TAIL = memoryview(np.zeros(GLOBALS - _ACTING_AT, dtype=np.float32))


def row_at(m) -> int:
    """Where model `m`'s row starts in the observation."""
    return MODELS_AT + (m.side * MAX_MODELS + m.slot) * MODEL_FEATURES_COUNT


def write_model(m, order: tuple, acting: bool, floats: memoryview) -> None:
    """A model's row from its state, its order as the side sees it (face down, value) and whether it acts."""
    cell, w, at = m.cell, m.w, row_at(m)
    placed = cell >= 0 and w > 0
    x, y = (cell % 48 / 47, cell // 48 / 47) if placed else (OFF_TABLE, OFF_TABLE)
    face_down, seen = order
    _ROW_START.pack_into(floats, 4 * at, placed, x, y, w / m.profile.W, m.panic, m.activated, face_down, seen == 0,
                         seen == 1, m.fu_used / max(1, m.profile.CAL))
    _ROW_END.pack_into(floats, 4 * (at + _ACTING), acting, cell >= 0 and w <= 0)


def head_of(game, side: int) -> list[float]:
    """The globals before the acting slots: the turn, the side, the open decision and who takes it (public,
    UW-HID-8), the side's edge."""
    g = [0.0] * _ACTING_AT
    g[GLOBAL["turn"]] = game.turn / game.scenario.turns
    g[GLOBAL["side"]] = float(side)
    if game.decision is not None:
        g[GLOBAL["deciding"]] = float(game.current_side == side)
        g[_KIND_AT + KINDS.index(game.decision[0])] = 1.0
    g[GLOBAL["north_edge"]] = float(game.edges[side] == "north")
    return g


def write_tail(game, floats: memoryview) -> None:
    """The globals from the acting slots on: the acting model's slot and its declared path's end, its action kind
    and whether an interrupt was tried (all zero before a path is declared)."""
    floats[GLOBALS_AT + _ACTING_AT:] = _NO_TAIL
    act = game.act
    if act is not None and "path" in act:
        a = game.models[act["model"]]
        floats[GLOBALS_AT + _ACTING_AT + a.side * MAX_MODELS + a.slot] = 1.0
        end = act["path"][-1]
        _DECLARED.pack_into(floats, 4 * (GLOBALS_AT + _DECLARED_AT), end % 48 / 47, end // 48 / 47, act["kind"] / 4,
                            act["attempted"])


# Bounds (the contract's observation_bounds) ----------------------------------------------------------------------
def feature_names() -> list[str]:
    """A name for every feature, e.g. 'cover(3,40)', 'team_b[0].panic', 'turn'."""
    names = [f"{plane}({i % SIZE},{i // SIZE})" for plane in TERRAIN_PLANES for i in range(CELLS)]
    names += [f"team_{'ab'[s // MAX_MODELS]}[{s % MAX_MODELS}].{f}" for s in range(SLOTS) for f in MODEL_FEATURES]
    return names + list(GLOBAL_FEATURES)


def bounds(games) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(low, high, constant) over fresh `games`, one per scenario and variant of terrain and profiles.

    What a game fixes (terrain, rosters, the turn limit) is read from the games; what play changes has the range
    the rules give it. A feature that is the same in every game (a cell no variant changes, an empty model slot, the
    follow-ups of a CAL 0 model) gets the unit interval around its value, so that rescaling by the bounds never
    divides by zero: `constant` marks those, the only bounds no game need reach."""
    low, high = np.full(SIZE_OBS, np.inf, np.float32), np.full(SIZE_OBS, -np.inf, np.float32)
    for game in games:
        for side in range(2):
            fixed = template(game, side)
            np.minimum(low, fixed, out=low)
            np.maximum(high, fixed, out=high)
        models = (low[MODELS_AT:GLOBALS_AT].reshape(SLOTS, -1), high[MODELS_AT:GLOBALS_AT].reshape(SLOTS, -1))
        for m in game.models:
            slot = m.side * MAX_MODELS + m.slot
            for name, (lo, hi) in played_ranges(m).items():
                at = MODEL[name]
                models[0][slot, at], models[1][slot, at] = min(models[0][slot, at], lo), max(models[1][slot, at], hi)
            low[GLOBALS_AT + _ACTING_AT + slot], high[GLOBALS_AT + _ACTING_AT + slot] = 0.0, 1.0
    # UW-WIN-3: the turn counter runs 1..turns and shows turns + 1 once the limit has ended the game
    limits = [game.scenario.turns for game in games]
    low[GLOBALS_AT + GLOBAL["turn"]] = min(1 / turns for turns in limits)
    high[GLOBALS_AT + GLOBAL["turn"]] = max((turns + 1) / turns for turns in limits)
    flags = [g for g in GLOBAL_FEATURES if g != "turn" and not g.startswith("acting_slot")]
    for name in flags:
        low[GLOBALS_AT + GLOBAL[name]], high[GLOBALS_AT + GLOBAL[name]] = 0.0, 1.0
    low[GLOBALS_AT + GLOBAL["action_kind"]] = -1 / 4      # the action kind is -1 until UW-DEC-5 is answered
    constant = low == high
    low[constant] = np.minimum(low[constant], 0.0)
    high[constant] = np.maximum(high[constant], 1.0)
    return low, high, constant


def played_ranges(m) -> dict[str, tuple[float, float]]:
    """The range play gives each changing feature of a model on a roster."""
    ranges = dict.fromkeys(("placed", "wounds_left", "panic", "activated", "face_down", "seen_snap_fire",
                            "seen_overwatch", "acting", "removed"), (0.0, 1.0))
    ranges["x"] = ranges["y"] = (-1 / 47, 1.0)         # -1/47 off the table; 0..47 over 47 on it (UW-GRID-1)
    ranges["follow_ups_used"] = (0.0, 1.0 if m.profile.CAL else 0.0)   # UW-FU-2: at most CAL per game
    return ranges
