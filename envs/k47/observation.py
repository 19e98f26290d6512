"""The observation vector of one side: public state only (KC-HID-1..5, KC-HID-7).

Layout (float32, all in [0, 1] or small counts scaled):
  globals (24): turn/7, bag dice per side /16 (KC-HID-3), my side, I decide, decision kind one-hot (9; the
                tenth, `opening`, at index 22),
                options (3), VP/20 per side, game over, pending keep choices of mine (KC-TURN-9) /16, sides a unit
                inside has declared targets for (KB-FROM-3, N/E/S/W as bits) /16, [22] above, the sides of those
                declared with HE (KC-HE-1, bits) /16
  decision (32): the unit the decision is about (one-hot 16), the other unit it names (mover, firer,
                 assaulter; one-hot 16); in a target decision, the targets declared so far, each as the bits of the
                 sides it was declared through /16 (KC-HID-5)
  sections (8 x 4): exists, intact, burning, rubble
  units (16 x 35): see `unit_block` (UNIT_FEATURES)
  cells (432): terrain of each cell / 4 (KC-MAP-8, collapsed sections read as rubble)
  ranging (2 x 16 x 16, appended in version 2): per firer and target uid, the ranging-in (7 - need) / 5 (KC-IND-2;
                zeroed reads 1, KC-IND-3) and whether it was fired this turn (KC-HID-3)
  revealed (16, appended in version 2): per uid, whether both sides know the unit (KC-HID-6/8/9: always, but
                for an occupant still hidden under `hidden_occupants`), which its owner could not see before

Version 1 ended with the cells (1080 features): an actor trained on it reads that prefix (PREFIX_SIZES).
"""
from __future__ import annotations

import struct

import numpy as np

from envs.engine.contract import ObservationLayout, Planes
from envs.engine.derived import PREFIX, remember, unchanged_since

from . import firefrom, hidden, public
from .actions import MAX_CELLS, MAX_SECTIONS
from .board import BUILDING, BUNKER, BURNING, INTACT, RUBBLE, RUINED
from .flow import Decision
from .state import MAX_UNITS, ORDERS

KINDS = list(Decision)
GLOBALS, DECISION, SECTION, UNIT = 24, 32, 4, 35
#: KC-HID-3: a firer's ranging-in on a target, and whether it fired at it this turn
RANGING_FEATURES = ("ranging_in", "ranged_this_turn")
RANGING = len(RANGING_FEATURES) * MAX_UNITS * MAX_UNITS
SIZE = GLOBALS + DECISION + MAX_SECTIONS * SECTION + MAX_UNITS * UNIT + MAX_CELLS + RANGING + MAX_UNITS
GLOBAL_FEATURES = ("turn", "bag_a", "bag_b", "side", "deciding",
                   *(f"decision_{k}" for k in KINDS if k != Decision.OPENING),
                   "no_building_entry", "hidden_occupants", "pinned_out", "vp_a", "vp_b", "game_over", "my_pending_keep",
                   "declared_sides", f"decision_{Decision.OPENING}", "declared_he")
SECTION_FEATURES = ("exists", "intact", "burning", "rubble")
UNIT_FEATURES = ("exists", "alive", "own", "infantry", "artillery", "vehicle", "x", "y", "inside", "section", "floor",
                 "models", "start_models", "pins", *(f"order_{o}" for o in ORDERS), "kept", "moved", "small",
                 "immobile", "facing", "team", "heavy_weapon", "flamethrower", "indirect", "shots", "morale",
                 "damage_value", "range", "veteran", "fixed_opening")
#: pins past this read as this many (a count the rules never bound: KC-ORD-12 is an option); at 20 every order test
#: but Rally has long been impossible (2D6 <= morale - pins, morale at most 10, KC-TAB-1)
PIN_CAP = 20
# the names follow the layout encode() writes: a decision kind or a unit feature added there must be named here
assert len(GLOBAL_FEATURES) == GLOBALS and len(UNIT_FEATURES) == UNIT and len(SECTION_FEATURES) == SECTION
SECTIONS_AT = GLOBALS + DECISION
UNITS_AT = SECTIONS_AT + MAX_SECTIONS * SECTION
CELLS_AT = UNITS_AT + MAX_UNITS * UNIT
RANGING_AT = CELLS_AT + MAX_CELLS
REVEALED_AT = RANGING_AT + RANGING
#: the sizes of earlier versions whose features are a prefix of this one's: version 1 ended with the cells
PREFIX_SIZES = (RANGING_AT,)


#: where each side's observation buffer and the states its parts were last written from are kept on the game
BUFFER_KEYS = tuple(f"{PREFIX}k47_observation_{side}" for side in (0, 1))
BOARD_KEYS = tuple(f"{PREFIX}k47_board_{side}" for side in (0, 1))
UNIT_KEYS = tuple(f"{PREFIX}k47_units_{side}" for side in (0, 1))
BLOCKS_KEY = f"{PREFIX}k47_unit_blocks"
RANGING_KEYS = tuple(f"{PREFIX}k47_ranging_{side}" for side in (0, 1))

LOADOUT_KEYS = tuple(f"{PREFIX}k47_loadout_{uid}" for uid in range(MAX_UNITS))

#: the board the cells are laid out for (KC-MAP-1: the default 24 x 18 board; the only one a scenario ships)
BOARD_WIDTH, BOARD_HEIGHT = 24, 18
assert BOARD_WIDTH * BOARD_HEIGHT == MAX_CELLS


def layout() -> ObservationLayout:
    """One plane, the terrain of the 24 x 18 cells (row y, column x), after the units; the vector part is the
    globals, the decision, the sections and the units (whose cells are their x, y features), and after the plane
    the ranging-in of every firer on every target (KC-HID-3)."""
    planes = Planes(1, BOARD_HEIGHT, BOARD_WIDTH, CELLS_AT, names=("terrain",))
    return ObservationLayout(SIZE, planes, vector="globals, the decision, sections, units, ranging-in")


def encode(game, side: int) -> np.ndarray:
    """A fresh copy of `side`'s observation. It is kept written in a buffer per side: the globals and the decision
    every time, a unit's block only when a field of the unit was set (Unit.changes) or it lost a model since it was
    written, the sections and cells only when a section's state did (most decisions change one unit or none). Parts
    are written through `struct` into the buffer's bytes: a list into a numpy slice converts item by item, at about
    twice the cost."""
    out = game.__dict__.get(BUFFER_KEYS[side])
    if out is None:               # an array, not a memoryview of one: a game pickles (and deep-copies) with it
        out = game.__dict__[BUFFER_KEYS[side]] = np.zeros(SIZE, dtype=np.float32)
    _HEAD_BYTES.pack_into(out, 0, *write_globals(game, side))
    if unchanged_since(game, BOARD_KEYS[side], (game.section_state,)) is None:
        write_board(game, out)
        remember(game, BOARD_KEYS[side], (game.section_state,), True)
    units = game.units
    states = [(u.changes, len(u.models)) for u in units]     # asked of every unit at every call: inline
    kept = game.__dict__
    written = kept.get(UNIT_KEYS[side])                      # the unit states the blocks were written from
    if written != states:                                    # one comparison when no unit changed (most steps)
        blocks = kept.get(BLOCKS_KEY)
        if blocks is None:
            blocks = kept[BLOCKS_KEY] = {}
        for u, state in zip(units, states):
            if written is None or written[u.uid] != state:
                _UNIT_BYTES.pack_into(out, 4 * (UNITS_AT + u.uid * UNIT), *block_of(game, u, side, state, blocks))
                write_revealed(u, out)
        kept[UNIT_KEYS[side]] = states                       # kept whatever the state: the next call compares
    write_ranging(game, out, side)
    return out.copy()


def write_revealed(u, out: np.ndarray) -> None:
    """KC-HID-6/8/9: whether both sides know the unit (a reveal is public), so that an owner sees its occupant
    revealed; written with the unit's block, as `revealed` is one of its fields."""
    out[REVEALED_AT + u.uid] = public.known_to_both(u)


def write_ranging(game, out: np.ndarray, side: int) -> None:
    """KC-HID-3: every ranging-in and zeroed state, public to both sides (public.ranging_states), in the firer x
    target planes; cleared first (a move ends one, KC-MOVE-3). Written only when the states differ from those the
    side's buffer holds (most steps: none at all)."""
    states = public.ranging_states(game)
    if game.__dict__.get(RANGING_KEYS[side]) == states:
        return
    game.__dict__[RANGING_KEYS[side]] = states           # a fresh dict each call: kept as it is
    out[RANGING_AT:REVEALED_AT] = 0
    for (firer, target), state in states.items():
        at = RANGING_AT + firer * MAX_UNITS + target
        if state == public.ZEROED:                     # KC-IND-3: hits on 2+ until either moves
            out[at] = 1.0
        else:                                          # KC-IND-2: 5+, 4+, 3+, 2+ in consecutive turns
            need, this_turn = state
            out[at] = (7 - need) / 5
            out[at + MAX_UNITS * MAX_UNITS] = this_turn


def block_of(game, u, side: int, state: tuple, blocks: dict) -> list:
    """`unit_block`, or the block last built for the unit's `state` (`blocks`: uid -> (state, side, block)): a
    change is written into both sides' buffers, and a unit both sides know (KC-HID-9: revealed, one of `state`'s
    fields) shows them the same block but its `own` flag."""
    last = blocks.get(u.uid)
    if last is not None and last[0] == state:
        if last[1] == side:
            return last[2]
        if u.revealed:
            b = last[2].copy()
            b[2] = u.side == side
            return b
    b = unit_block(game, u, side)
    blocks[u.uid] = (state, side, b)
    return b


#: float32 runs as `struct` packs them into the buffer (the same rounding as numpy's float32 cast)
_HEAD_BYTES, _UNIT_BYTES = struct.Struct(f"={SECTIONS_AT}f"), struct.Struct(f"={UNIT}f")


#: the globals and the decision, as written when no decision is open (`write_globals` fills in a copy)
_HEAD = [0.0] * SECTIONS_AT


def write_globals(game, side: int) -> list:
    """The globals and the decision's units (KC-HID-3/5: bag counts, VP, the open decision are public), as one list
    the caller writes at once (item by item, each write is a numpy call)."""
    g = _HEAD.copy()
    g[0] = game.turn / 7
    counts = game.bag.counts
    g[1], g[2] = counts[0] / 16, counts[1] / 16
    g[3] = side
    decision = game.decision
    if decision is not None:
        kind, ctx = decision
        g[4] = ctx["side"] == side
        g[KIND_AT[kind]] = 1
        uid = ctx.get("uid")
        if uid is not None:
            g[GLOBALS + uid] = 1
        other = ctx.get("mover", ctx.get("firer", ctx.get("attacker")))
        if other is not None:
            g[GLOBALS + 16 + other] = 1
        declared = ctx.get("declared")
        if declared:       # KB-FROM-3 / KC-HID-5: the sides already declared (public), as bits
            write_declared(g, declared)
    options = game.options
    g[14] = options["no_building_entry"]
    g[15] = options["hidden_occupants"]
    g[16] = options["pinned_out"]
    g[17], g[18] = game.vp[0] / 20, game.vp[1] / 20
    g[19] = game.outcome is not None
    if game.pending_keep:
        g[20] = sum(1 for k in game.pending_keep if game.units[int(k)].side == side) / 16
    return g


def write_declared(g: list, declared: list) -> None:
    """KC-HID-5, KB-FROM-3: the declarations made (side, target uid, HE, models): the sides as bits, those with HE
    (KC-HE-1), and in each target's decision slot the sides it was declared through."""
    for side, target, he, _models in declared:
        bit = (1 << firefrom.SIDES.index(side)) / 16
        g[21] += bit
        g[23] += bit * bool(he)
        g[GLOBALS + MAX_UNITS + target] += bit


#: where a decision kind's flag sits in the globals (the tenth kind, `opening`, came after the options)
KIND_AT = {kind: 5 + KINDS.index(kind) if kind != Decision.OPENING else 22 for kind in KINDS}


def write_board(game, out: np.ndarray) -> None:
    """The sections' states and the cells' terrain (KC-MAP-8, KB-RUIN-1)."""
    for s in range(len(game.board.sections)):
        state = game.section_state[s]
        out[SECTIONS_AT + s * SECTION: SECTIONS_AT + (s + 1) * SECTION] = (1, state == INTACT, state == BURNING,
                                                                           state == RUINED)
    cells = terrain_cells(game)
    out[CELLS_AT:CELLS_AT + cells.size] = cells


def terrain_cells(game) -> np.ndarray:
    """KC-MAP-8: each cell's terrain / 4, row by row; a collapsed section's building cells read as rubble (KB-RUIN-1,
    as geometry.terrain_at), so that only the few ruined sections are walked cell by cell."""
    board = game.board
    cells = np.array(board.terrain, dtype=np.float32).reshape(-1)
    for s in board.sections:
        if game.section_state[s.index] == RUINED:
            for x, y in s.cells():
                if board.terrain[y][x] in (BUILDING, BUNKER) and board.section_at((x, y)) == s.index:
                    cells[y * board.width + x] = RUBBLE
    return cells / 4


_KINDS = ("infantry", "artillery", "vehicle")


def unit_block(game, u, side: int) -> list:
    """KC-HID-2: side, type, place, facing, models, pins, dice, destroyed (KC-HID-9: for an enemy occupant not
    yet revealed, only its place and dice). One list, written into the observation with one slice assignment."""
    b = [0.0] * UNIT
    b[0] = 1
    b[1] = u.alive
    b[2] = u.side == side
    known = hidden.known_to(u, side)
    if known:                      # KC-HID-9: a hidden occupant shows no type (all zero), models, weapons or pins
        b[3 + _KINDS.index(u.kind)] = 1
    if u.cell is not None:
        b[6], b[7] = (u.cell[0] + 0.5) / game.board.width, (u.cell[1] + 0.5) / game.board.height
    else:
        b[8] = 1
        b[9] = (u.section + 1) / MAX_SECTIONS
        b[10] = u.floor / 6
    if u.order is not None:
        b[14 + ORDERS.index(u.order)] = 1
    b[20] = u.kept
    b[21] = u.moved
    if not known:
        return b
    b[13] = min(u.pins, PIN_CAP) / 10
    b[23] = u.immobile
    b[24] = u.facing / 8
    for at, value in zip(LOADOUT, loadout(game, u)):
        b[at] = value
    if u.fixed_opening is not None:                         # KB-FROM-5 / KB-ART-1: its designated opening
        b[34] = (u.fixed_opening + 1) / 64
    return b


#: the features of a unit's models, weapons and quality (KC-HID-2), which change only as it loses models
LOADOUT = [UNIT_FEATURES.index(f) for f in ("models", "start_models", "small", "team", "heavy_weapon",
                                            "flamethrower", "indirect", "shots", "morale", "damage_value", "range",
                                            "veteran")]


def loadout(game, u) -> list:
    """The LOADOUT features of `u`, worked out again only when it has lost a model."""
    found = unchanged_since(game, LOADOUT_KEYS[u.uid], (len(u.models),))
    if found is None:
        weapons = [game.tables.weapons[w] for _, w, _ in u.weapons()]
        damage = game.tables.vehicle_damage[u.vclass] if u.vclass else game.tables.quality[u.quality][1]
        found = remember(game, LOADOUT_KEYS[u.uid], (len(u.models),), [
            len(u.models) / 10, u.start_models / 10, u.small, u.team,
            any(not w.small_arms for w in weapons),
            any("flamethrower" in w.rules for w in weapons),
            any("indirect" in w.rules for w in weapons),
            sum(w.shots for w in weapons) / 20,
            game.tables.quality[u.quality][0] / 12,
            damage / 12,
            max([w.range for w in weapons] + [0]) / 72,
            u.quality == "veteran"])
    return found


# Bounds (the contract's observation_bounds) ----------------------------------------------------------------------
def feature_names() -> list[str]:
    """A name for every feature, e.g. 'vp_a', 'unit[3].pins', 'terrain[40]' (cell y * width + x)."""
    names = list(GLOBAL_FEATURES)
    names += [f"decision_unit_{u}" for u in range(MAX_UNITS)] + [f"decision_other_{u}" for u in range(MAX_UNITS)]
    names += [f"section[{s}].{f}" for s in range(MAX_SECTIONS) for f in SECTION_FEATURES]
    names += [f"unit[{u}].{f}" for u in range(MAX_UNITS) for f in UNIT_FEATURES]
    names += [f"terrain[{c}]" for c in range(MAX_CELLS)]
    names += [f"{f}[{firer}>{target}]" for f in RANGING_FEATURES for firer in range(MAX_UNITS)
              for target in range(MAX_UNITS)]
    return names + [f"revealed[{u}]" for u in range(MAX_UNITS)]


def bounds(games) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(low, high, constant) over fresh `games`, one per scenario and option set.

    What a game fixes (units, sections, the board) is read from its first observations; what play changes has the
    range the rules give it. A feature that is the same in every game (an empty unit slot, a spare, a cell that
    cannot collapse) gets the unit interval around its value, so that rescaling by the bounds never divides by zero:
    `constant` marks those, the only bounds no game need reach."""
    low, high = np.full(SIZE, np.inf, np.float32), np.full(SIZE, -np.inf, np.float32)
    for game in games:
        start = [encode(game, side) for side in (0, 1)]
        for obs in start:
            np.minimum(low, obs, out=low)
            np.maximum(high, obs, out=high)
        for at, lo, hi in played_ranges(game, start[0]):
            low[at], high[at] = min(low[at], lo), max(high[at], hi)
    constant = low == high
    low[constant] = np.minimum(low[constant], 0.0)
    high[constant] = np.maximum(high[constant], 1.0)
    return low, high, constant


def played_ranges(game, start: np.ndarray):
    """(feature, low, high) of every feature play changes, given the game's first observation `start`."""
    units = [sum(1 for u in game.units if u.side == s) for s in (0, 1)]
    yield 0, 1 / 7, (game.scenario.turns + 1) / 7                       # KC-TURN-7: a possible 7th turn
    yield 1, 0.0, units[0] / 16                                         # KC-TURN-1: a die per unit at most
    yield 2, 0.0, units[1] / 16
    for flag in ("side", "deciding", *(f"decision_{k}" for k in KINDS), "no_building_entry", "hidden_occupants",
                 "pinned_out", "game_over"):
        yield GLOBAL_FEATURES.index(flag), 0.0, 1.0
    held = game.scenario.objective_vp * len(game.scenario.objectives)   # KC-SCN-8/9: objectives and kills
    yield GLOBAL_FEATURES.index("vp_a"), 0.0, (held + game.scenario.kill_vp * units[1]) / 20
    yield GLOBAL_FEATURES.index("vp_b"), 0.0, (held + game.scenario.kill_vp * units[0]) / 20
    yield GLOBAL_FEATURES.index("my_pending_keep"), 0.0, max(units) / 16    # KC-TURN-9: one per own unit
    yield GLOBAL_FEATURES.index("declared_sides"), 0.0, 15 / 16             # KB-FROM-3: a bit per side of a section
    yield GLOBAL_FEATURES.index("declared_he"), 0.0, 15 / 16                # KC-HE-1: as many, with HE
    for u in game.units:
        yield GLOBALS + u.uid, 0.0, 1.0
        yield GLOBALS + MAX_UNITS + u.uid, 0.0, 1.0
    yield from ranging_ranges(game)
    for u in game.units:                                  # KC-HID-8: an occupant is revealed, once, for good
        yield REVEALED_AT + u.uid, float(start[REVEALED_AT + u.uid]), 1.0
    for s in range(len(game.board.sections)):
        for f in range(1, SECTION):
            yield SECTIONS_AT + s * SECTION + f, 0.0, 1.0
    for u in game.units:
        yield from unit_ranges(game, u, UNITS_AT + u.uid * UNIT, start)
    for y in range(game.board.height):
        for x in range(game.board.width):
            if game.board.terrain[y][x] in (BUILDING, BUNKER):                   # KB-RUIN-1: it may collapse
                yield CELLS_AT + y * game.board.width + x, RUBBLE / 4, game.board.terrain[y][x] / 4


def ranging_ranges(game):
    """KC-HID-3: an indirect-fire unit's ranging-in on each enemy unit (KC-IND-2/3: only indirect fire ranges in)."""
    for firer in game.units:
        if any("indirect" in game.tables.weapons[w].rules for _, w, _ in firer.weapons()):
            for target in game.units:
                if target.side != firer.side:
                    at = RANGING_AT + firer.uid * MAX_UNITS + target.uid
                    yield at, 0.0, 1.0
                    yield at + MAX_UNITS * MAX_UNITS, 0.0, 1.0


def unit_ranges(game, u, at: int, start: np.ndarray):
    """A unit's changing features: flags, place, pins, order; a vehicle's facing; infantry's and guns' models and
    the weapons they carry, which only fall."""
    f = {name: at + i for i, name in enumerate(UNIT_FEATURES)}
    width, height = game.board.width, game.board.height
    enters = u.kind == "infantry"                         # only infantry goes inside (KB-ENTER-1)
    for flag in ("alive", "own", *(f"order_{o}" for o in ORDERS), "kept", "moved"):
        yield f[flag], 0.0, 1.0
    yield f["x"], 0.0 if enters else 0.5 / width, (width - 0.5) / width
    yield f["y"], 0.0 if enters else 0.5 / height, (height - 0.5) / height
    if enters:
        yield f["inside"], 0.0, 1.0
        yield f["section"], 0.0, len(game.board.sections) / MAX_SECTIONS
        yield f["floor"], 0.0, (max(s.floors for s in game.board.sections) - 1) / 6
    yield f["pins"], 0.0, PIN_CAP / 10
    if u.kind == "artillery" or any("fixed" in game.tables.weapons[w].rules for _, w, _ in u.weapons()):
        yield f["fixed_opening"], 0.0, len(game.board.openings) / 64    # KB-FROM-5: re-designated on a move
    if u.vehicle:                                         # a vehicle turns (KV-MOVE-2) and is lost whole (KV-TAB-1)
        yield f["immobile"], 0.0, 1.0
        yield f["facing"], 0.0, 7 / 8
        return
    for name in ("models", "team", "heavy_weapon", "flamethrower", "indirect", "shots", "range"):
        yield f[name], 0.0, start[f[name]]               # KC-SHOOT-9: casualties take models and their weapons
