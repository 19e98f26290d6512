"""The observation vector of one side: only what that side may know (CF-HID-1..15).

Layout (float32, fixed size, squares in codec order y * 18 + x):
  GLOBAL     turn, phase, whose decision (own decisions only, CF-HID-4), Outs, enemy activations taken,
             own section pools and LRs, conditions and options;
  CONTEXT    the element of the own decision in progress and its options (react choices);
  PLANES     per square: terrain class, building, doorway, damage, rubble, smoke, prepared, objective,
             overwatch markers (own / enemy), Engaged, own elements, knowledge (occupied, empty, SPOTTED,
             fire origins, exposed own squares, last enemy search, own searches by age), the decision's
             squares, chokepoints;
  OWN        every own element fully (CF-HID-2);
  ENEMY      the enemy's starting order of battle (CF-HID-1) and its elements seen killed (CF-CA-11).
Never the truth about enemy elements (CF-HID-3).
"""
from __future__ import annotations

from functools import lru_cache
from operator import attrgetter
from struct import Struct

import numpy as np

from envs.engine.contract import ObservationLayout, Planes
from envs.engine.derived import remember, unchanged_since

from .actions import MAX_H, MAX_W, SQUARES
from .config import COVER_NAMES, MAX_ELEMENTS, WEATHERS
from .knowledge import NEVER, SEARCHED
from .state import DEAD

PHASES = ("setup", "upkeep", "command", "action", "ammo", "recovery", "end")
DECISIONS = ("activate", "act", "dice", "join", "announce", "ifa", "return_fire", "overwatch_fire")
ROWS = ("A", "B", "C", "D", "E", "F", "L", "S")
WEAPONS = ("UGL", "RPG", "RCL", "LAW")
SECTIONS = 2
GLOBAL = 2 + len(PHASES) + 2 + len(DECISIONS) + 3 + 2 * SECTIONS + 2 + len(WEATHERS) + 3
CONTEXT = 2 * MAX_ELEMENTS
PLANE_NAMES = (*COVER_NAMES, "building", "door_open", "door_blocked", "damage", "rubble", "smoke", "prepared",
               "objective", "own_overwatch", "enemy_overwatch", "engaged", "own_count", "own_suppressed",
               "seen_occupied", "seen_empty", "spotted", "fire_origin", "exposed", "enemy_search", "own_search",
               "decision_square",
               "chokepoint", "on_map", "he_impact", "illuminated")
PLANES = len(PLANE_NAMES)
P = {name: i for i, name in enumerate(PLANE_NAMES)}
OWN = 16 + len(ROWS) + len(WEAPONS)
ENEMY = len(ROWS) + len(WEAPONS) + 1
SIZE = GLOBAL + CONTEXT + PLANES * SQUARES + MAX_ELEMENTS * OWN + MAX_ELEMENTS * ENEMY


def layout() -> ObservationLayout:
    """PLANES planes of the 18 x 18 codec squares (row y, column x), one after another after GLOBAL and CONTEXT;
    the vector part is GLOBAL, CONTEXT, OWN and ENEMY."""
    planes = Planes(PLANES, MAX_H, MAX_W, GLOBAL + CONTEXT, names=PLANE_NAMES)
    return ObservationLayout(SIZE, planes, vector="globals, the decision's context, own elements, enemy order of battle")


def encode(game, side: int) -> np.ndarray:
    """The observation of `side` as one float32 vector of length SIZE (a copy of the side's Written buffer, brought
    up to date where the state changed since its last observation)."""
    written = game.__dict__.get(WRITTEN[side])
    if written is None:
        written = game.__dict__[WRITTEN[side]] = Written(game, side)
    decision = own_decision(game, side)
    written.update_globals(game, side, decision)
    written.update_decision(decision)
    own = list(map(OWN_FIELDS, game.elements[side]))          # read once: the own rows and the own places
    changed = own != written.fields
    written.update_planes(game, side, changed)
    written.update_own(game, side, own, changed)
    written.update_enemy(game, side)
    return written.obs.copy()


#: the keys of the two sides' Written buffers in the game's __dict__ (dropped by refresh, absent from a clone)
WRITTEN = ("_written_obs_0", "_written_obs_1")
#: the planes drawn from where the elements are: overwatch markers (own, enemy), Engaged, own counts, suppressed own
PLACED = slice(P["own_overwatch"], P["own_suppressed"] + 1)
#: what of an element those planes read (the enemy's suppression is never shown: CF-HID-3)
OWN_PLACE = attrgetter("square", "suppressed", "overwatch")
ENEMY_PLACE = attrgetter("square", "overwatch")
#: the rows of the public map (map_planes) that may change in a game
MAP_ROWS = slice(0, P["smoke"] + 1)
#: the GLOBAL values as the buffer holds them (native float32, each rounded as numpy rounds a Python float)
GLOBALS_PACKED = Struct(f"={GLOBAL}f")


class Written:
    """One side's observation, kept between calls and updated in place: the map's rows when the public map changed,
    the reports' rows when the side's reports or the turn changed (their ages), an own element's row when one of its
    fields changed, the globals when one of them changed, the decision's context and squares when the decision changed,
    the enemy's order of battle when the side saw one more killed (CF-CA-11). The map and the reports are known
    unchanged by their stamps (one token each: every rule that writes them in place takes a new one, and a position
    edited by hand is `refresh`ed); the rest is compared by value against a copy of what was written: the own
    elements' fields (read once per observation for their rows and their places), the places of the enemy's
    elements (for the markers and Engaged), the squares SPOTTED or searched now, the decision's marks, the globals."""

    __slots__ = ("obs", "planes", "view", "own_rows", "map", "turn", "reports", "rows", "own", "fields", "leaders",
                 "placed", "now", "decision", "decided", "globals", "killed")

    def __init__(self, game, side: int) -> None:
        board = game.board
        self.obs = np.zeros(SIZE, dtype=np.float32)
        self.planes = self.obs[GLOBAL + CONTEXT:GLOBAL + CONTEXT + PLANES * SQUARES].reshape(PLANES, SQUARES)
        # An 18 x 18 map: board order is codec order, so the planes are written in place; else in board order beside.
        self.view = self.planes if board.size == SQUARES else np.empty((PLANES, board.size), dtype=np.float32)
        self.own_rows = own_rows(self.obs)
        self.view[:] = static_planes(game)
        self.forget()

    def __reduce__(self):
        """A copy (pickle, deepcopy) keeps what was written but trusts none of it: a copy turns `planes`, a view
        into `obs`, into an array of its own, so the copy's planes are views of its own `obs` again and every part
        that play changes is written afresh at its next observation (the static planes are never written again)."""
        return _copied_written, (self.obs, None if self.view is self.planes else self.view)

    def forget(self) -> None:
        """Every stamp back to 'nothing written', and the parts whose rewrite does not clear them cleared."""
        self.map = self.turn = self.reports = None            # the map's stamp, the turn and Knowledge stamp written
        self.rows: list = []                                  # and the stamps of its rows (Knowledge.row_stamps)
        self.own: list = [None] * MAX_ELEMENTS                # slot -> the row's fields written (None: a zero row)
        self.fields = self.leaders = None                     # the own elements' OWN_FIELDS and the sections' leaders
        self.placed = self.now = None                         # the places and the reports of now written
        self.decision = False                                 # the decision's marks written (None: no own decision)
        self.decided: list = []                               # the decision's squares written
        self.globals = self.killed = None                     # the GLOBAL values, the enemy seen killed written
        self.view[P["decision_square"]] = 0                   # rewritten square by square, never cleared whole
        at = GLOBAL + CONTEXT + PLANES * SQUARES
        self.obs[at:at + MAX_ELEMENTS * OWN] = 0              # a dead element's row is cleared only once written

    def update_globals(self, game, side: int, decision) -> None:
        """The GLOBAL values, written at once when one of them changed (most decisions change one), packed straight
        into the buffer: numpy converting the list costs five times as much."""
        values = global_values(game, side, decision)
        if values != self.globals:
            GLOBALS_PACKED.pack_into(self.obs, 0, *values)
            self.globals = values

    def update_decision(self, decision) -> None:
        """CF-HID-4: the context of the side's own decision and its squares, rewritten when the decision shows
        something else (its kind, element, target, origin or options); most decisions in a row are one element's."""
        marks = decision_marks(decision)
        if marks == self.decision:
            return
        self.obs[GLOBAL:GLOBAL + CONTEXT] = 0
        encode_context(decision, self.obs, GLOBAL)
        decided = decision_squares(decision)
        if decided != self.decided:                           # mostly none (an index list costs even when empty)
            row = self.view[P["decision_square"]]
            for square in self.decided:                       # square by square: a few, where an index list costs more
                row[square] = 0
            for square in decided:
                row[square] = 1
            self.decided = decided
        self.decision = marks

    def update_planes(self, game, side: int, own_changed: bool) -> None:
        """The planes of the map, the reports and the places, then (a map not 18 x 18) copied into codec order."""
        view, k = self.view, game.knowledge[side]
        if game.map_stamp is not self.map:                    # the public map written since (map_planes: its stamp)
            view[MAP_ROWS] = map_planes(game)[MAP_ROWS]
            self.map = game.map_stamp
        self.update_reports(game, k)
        # The own places (square, suppressed, overwatch) are among the own fields: read anew only when those changed.
        own_places = tuple(map(OWN_PLACE, game.elements[side])) if own_changed else self.placed[0]
        placed = (own_places, tuple(map(ENEMY_PLACE, game.elements[1 - side])))
        if placed != self.placed:                             # one element moved, went on overwatch, was suppressed...
            view[PLACED] = 0
            encode_placed(game, side, view)
            self.placed = placed
        now = (game.turn, tuple(k.spotted), tuple(k.last_search))
        if now != self.now:
            view[P["spotted"]] = view[P["enemy_search"]] = 0
            encode_reports_now(game, k, view)
            self.now = now
        if view is not self.planes:
            self.planes[:, game.board.code] = view

    def update_reports(self, game, k) -> None:
        """CF-HID-5..13: the report planes and the own searches rewritten when the turn (their ages: all of them) or
        the side's reports changed (only the rows whose stamps moved: every writer in knowledge.py takes a new one,
        and a decision that tells the side something changes one or two); most decisions change neither."""
        turn = game.turn
        if turn == self.turn and k.stamp == self.reports:
            return
        ages, view, rows, written = ages_by_turn(turn), self.view, k.row_stamps, self.rows
        if turn != self.turn:
            view[REPORT_PLANES] = ages[k.turns - NEVER]       # he_impact: CF-HID-9
        else:
            for row, plane in enumerate(REPORT_PLANES):
                if rows[row] != written[row]:
                    view[plane] = ages[k.turns[row] - NEVER]
        # The side's own searches, by age, on every square of the MSq searched: the side knows what it searched and
        # when, and CF-BOT-8/11 choose by it ("unsearched this turn or last"); without it a policy cannot tell.
        if turn != self.turn or rows[SEARCHED] != written[SEARCHED]:
            view[P["own_search"]] = ages[k.searched - NEVER][game.board.msq_array]
        self.turn, self.reports, self.rows = turn, k.stamp, list(rows)

    def update_own(self, game, side: int, own: list, changed: bool) -> None:
        """CF-HID-2: every living own element's row, by slot, rewritten when its fields (`own`: OWN_FIELDS of each
        element, `changed` since the last observation) or its leading (CF-LDR-3) changed; none looked at when
        neither changed for any element."""
        leaders = [section.leader for section in game.sections[side]]
        if not changed and leaders == self.leaders:
            return
        block, width, written = self.own_rows, game.board.width, self.own
        for e, fields in zip(game.elements[side], own):
            slot = e.slot
            if fields[0] != DEAD:                             # OWN_FIELDS starts with the square
                row = (leaders[e.section] == slot, fields)
                if row != written[slot]:
                    block[slot] = own_row(width, *row)
                    written[slot] = row
            elif written[slot] is not None:
                block[slot] = 0
                written[slot] = None
        self.fields, self.leaders = own, leaders

    def update_enemy(self, game, side: int) -> None:
        """CF-HID-1 / CF-CA-11: the enemy's order of battle, rewritten when the side saw one more killed."""
        killed = game.knowledge[side].killed
        if killed != self.killed:
            encode_enemy_oob(game, side, self.obs, GLOBAL + CONTEXT + PLANES * SQUARES + MAX_ELEMENTS * OWN)
            self.killed = dict(killed)


def _copied_written(obs: np.ndarray, view: np.ndarray | None) -> Written:
    """A side's Written rebuilt over a copied buffer (`view`: the copied board-order planes of a map not 18 x 18)."""
    written = Written.__new__(Written)
    written.obs = obs
    written.planes = obs[GLOBAL + CONTEXT:GLOBAL + CONTEXT + PLANES * SQUARES].reshape(PLANES, SQUARES)
    written.view = written.planes if view is None else view
    written.own_rows = own_rows(obs)
    written.forget()
    return written


def own_rows(obs: np.ndarray) -> np.ndarray:
    """The OWN part of a buffer as one row per slot (a view, made once per buffer: slicing and reshaping it at every
    observation cost two numpy calls)."""
    at = GLOBAL + CONTEXT + PLANES * SQUARES
    return obs[at:at + MAX_ELEMENTS * OWN].reshape(MAX_ELEMENTS, OWN)


def own_decision(game, side: int):
    """CF-HID-4: a side sees its own decision, never the enemy's (reaction prompts included)."""
    if game.decision is None or game.winner is not None or game.decision[1]["side"] != side:
        return None
    return game.decision


#: where the globals that change in a game start: after turn and side, the phases, whose decision and game over,
#: the decisions, Outs and activations, the section pools and LRs; the rest (conditions, options) is fixed
PHASE_AT = 2
DECIDES_AT = PHASE_AT + len(PHASES)
DECISION_AT = DECIDES_AT + 2
OUTS_AT = DECISION_AT + len(DECISIONS)
SECTIONS_AT = OUTS_AT + 3
PHASE_INDEX = {phase: i for i, phase in enumerate(PHASES)}
DECISION_INDEX = {decision: i for i, decision in enumerate(DECISIONS)}


def global_values(game, side: int, decision) -> list:
    """The GLOBAL values: the fixed ones (side, conditions, options) copied from fixed_globals, the rest filled in
    (`decision`: the side's own, own_decision)."""
    values = fixed_globals(game, side)[:]
    values[0] = game.turn / game.scenario.turns
    values[PHASE_AT + PHASE_INDEX[game.phase]] = 1
    values[DECIDES_AT], values[DECIDES_AT + 1] = decision is not None, game.winner is not None
    if decision is not None:
        values[DECISION_AT + DECISION_INDEX[decision[0]]] = 1
    values[OUTS_AT:OUTS_AT + 3] = (game.outs[side], game.outs[1 - side],
                                   game.knowledge[side].enemy_activations / 16.0)   # CF-HID-1/4
    i = SECTIONS_AT
    for j, section in enumerate(game.sections[side][:SECTIONS]):
        values[i + 2 * j], values[i + 2 * j + 1] = section.pool / 16.0, section.lr / 6.0
    values[-1] = game.active_side == side
    return values


#: the keys of the two sides' fixed globals in the game's __dict__ (dropped by refresh, absent from a clone)
FIXED_GLOBALS = ("_fixed_globals_0", "_fixed_globals_1")


def fixed_globals(game, side: int) -> list:
    """The globals no play changes (the side, conditions and options: CF-HID-1), the others zero; kept on the game."""
    key = FIXED_GLOBALS[side]
    kept = game.__dict__.get(key)
    if kept is None:
        values = [0.0] * GLOBAL
        values[1] = side
        i = SECTIONS_AT + 2 * SECTIONS
        c = game.conditions
        values[i], values[i + 1] = c["time"] == "night", game.options["smoke"]
        i += 2
        values[i + WEATHERS.index(c["weather"])] = 1
        i += len(WEATHERS)
        values[i:i + 2] = game.options["allow_under_announce"], game.options["force_level"] == "company"
        kept = game.__dict__[key] = values
    return kept


def decision_marks(decision) -> tuple | None:
    """What the CONTEXT and the decision's squares show of the side's own `decision` (None: none)."""
    if decision is None:
        return None
    kind, ctx = decision
    options = ctx.get("options")
    return (kind, ctx.get("element"), ctx.get("target"), ctx.get("origin"), None if options is None else tuple(options))


def encode_context(decision, obs: np.ndarray, at: int) -> None:
    """The element of the side's own `decision` and a return fire's options (zero when called)."""
    if decision is not None:
        ctx = decision[1]
        if "element" in ctx:
            obs[at + ctx["element"]] = 1
        if decision[0] == "return_fire":
            for slot in ctx["options"]:
                obs[at + MAX_ELEMENTS + slot] = 1


@lru_cache(maxsize=64)
def ages_by_turn(now: int) -> np.ndarray:
    """CF-HID-13: the recency of every turn a report can carry (NEVER, then 0 .. now), indexed by turn - NEVER,
    read-only: 1 this turn, 1/2 last turn, ..., 0 never."""
    t = np.arange(NEVER, now + 1, dtype=np.int32).astype(np.float32)
    ages = np.where(t == NEVER, 0.0, 1.0 / (1.0 + now - t))
    ages.setflags(write=False)
    return ages


STATIC_PLANES = ("building", "prepared", "objective", "chokepoint", "on_map", "illuminated")


def static_planes(game) -> np.ndarray:
    """The planes that never change in a game (map, scenario marks, conditions), cached on the game."""
    cached = game.__dict__.get("_static_planes")
    if cached is None:
        board, spec = game.board, game.scenario
        cached = np.zeros((PLANES, board.size), dtype=np.float32)
        cached[P["building"]] = np.asarray(board.building) >= 0
        for plane, squares in (("prepared", spec.prepared), ("objective", spec.objectives),
                               ("chokepoint", spec.chokepoints)):
            for xy in squares:
                cached[P[plane], board.at(*xy)] = 1
        cached[P["on_map"]] = 1
        for msq in game.conditions["illuminated"]:            # CF-COND-1 / CF-HID-1: conditions are public
            cached[P["illuminated"], board.msq_squares[msq]] = 1
        cached.setflags(write=False)
        game._static_planes = cached
    return cached


def map_planes(game) -> np.ndarray:
    """The static planes plus the public map (cover, doorways, damage, rubble, smoke: CF-HID-1), read-only,
    rebuilt only when one of those changed (game.map_stamp: damage.py and smoke.py take a new one)."""
    state = (game.map_stamp,)
    cached = unchanged_since(game, "_map_planes", state)
    if cached is not None:
        return cached
    view = static_planes(game).copy()                         # (PLANES, board squares) in board order
    view[np.asarray(game.cover), np.arange(game.board.size)] = 1
    door = np.asarray(game.door)
    view[P["door_open"]], view[P["door_blocked"]] = door == 1, door == 2
    if game.damage_total():
        view[P["damage"]] = np.minimum(np.asarray(game.damage), 8) / 8.0
    view[P["rubble"]] = game.rubble
    if game.smoke_count:
        view[P["smoke"]] = np.asarray(game.smoke) > 0
    view.setflags(write=False)
    return remember(game, "_map_planes", state, view)


def thirds() -> np.ndarray:
    """n / 3 for n own elements on a square, as float32 adds of 1/3 one element at a time make it (the values the
    planes always held), read-only."""
    total, table = np.zeros(1, dtype=np.float32), np.zeros(MAX_ELEMENTS + 1, dtype=np.float32)
    for n in range(1, MAX_ELEMENTS + 1):
        total[0] += 1 / 3
        table[n] = total[0]
    table.setflags(write=False)
    return table


THIRDS = thirds()


def encode_placed(game, side: int, view: np.ndarray) -> None:
    """The PLACED planes (zero when called): overwatch markers, Engaged squares, own elements and their suppression."""
    for s, plane in ((side, P["own_overwatch"]), (1 - side, P["enemy_overwatch"])):
        for e in game.elements[s]:
            if e.overwatch != DEAD:
                view[plane, e.overwatch] = 1
    for square in game.engaged_squares():                      # CF-HID-11: known to both, numbers hidden
        view[P["engaged"], square] = 1
    held, suppressed = {}, {}                                  # square -> own elements there, suppressed ones
    for e in game.elements[side]:
        if e.square != DEAD:
            held[e.square] = held.get(e.square, 0) + 1
            if e.suppressed:
                suppressed[e.square] = suppressed.get(e.square, 0) + 1
    for plane, counts in ((P["own_count"], held), (P["own_suppressed"], suppressed)):
        row = view[plane]                                      # square by square: a few, where an index list costs more
        for square, n in counts.items():
            row[square] = THIRDS[n]


def decision_squares(decision) -> list[int]:
    """The squares of the side's own `decision`: its target or origin, the squares an IFA may fire at."""
    if decision is None:
        return []
    ctx = decision[1]
    squares = [ctx[key] for key in ("target", "origin") if key in ctx]
    if decision[0] == "ifa":
        squares += ctx["options"]
    return squares


def encode_reports_now(game, k, view: np.ndarray) -> None:
    """CF-SRCH-22 / CF-HID-5: the squares SPOTTED in this activation and the enemy's search of this turn."""
    spotted, searched = view[P["spotted"]], view[P["enemy_search"]]
    for square in k.spotted:                                  # square by square: a few, where an index list costs more
        spotted[square] = 1
    if k.last_search[0] != NEVER and k.last_search[2] == game.turn:
        for square in game.board.msq_squares[k.last_search[0]]:
            searched[square] = 1


#: The planes of the side's reports, in the order of the rows of Knowledge.turns (occupied, empty, exposed, origins,
#: impacts); its searches (by MSq) go to own_search
REPORT_PLANES = [P["seen_occupied"], P["seen_empty"], P["exposed"], P["fire_origin"], P["he_impact"]]


#: What an own element's row shows (CF-HID-2), read in one C call
OWN_FIELDS = attrgetter("square", "suppressed", "ap_spent", "activated", "fired", "entered", "diagonal", "stopped",
                        "ooa", "special_ooa", "overwatch", "smoke", "smoke_spent", "assaulted", "row", "special",
                        "shots")


@lru_cache(maxsize=4096)
def own_row(width: int, leads: bool, fields: tuple) -> np.ndarray:
    """CF-HID-2: square, status, AP spent, OOA, weapons of an own element from its OWN_FIELDS, read-only: a function
    of those values, remembered as most elements' rows repeat from one decision to the next."""
    (square, suppressed, ap_spent, activated, fired, entered, diagonal, stopped, ooa, special_ooa, overwatch, smoke,
     smoke_spent, assaulted, row, special, shots) = fields
    values = np.zeros(OWN, dtype=np.float32)
    values[:16] = (1, square % width / 17.0, square // width / 17.0, suppressed, ap_spent / 2.0, activated, fired,
                   entered / 2.0, diagonal, stopped, ooa, special_ooa, overwatch != DEAD, smoke and not smoke_spent,
                   assaulted, leads)
    values[16 + ROWS.index(row)] = 1
    if special is not None:
        values[16 + len(ROWS) + WEAPONS.index(special)] = 1 if shots == 0 else shots
    values.setflags(write=False)
    return values


def starting_specials(game, side: int) -> list:
    """Each element's special weapon in the starting order of battle: a spent LAW must not show which element
    fired it (CF-HID-1 makes the starting orders public, CF-HID-3 hides the rest)."""
    return [e.weapons[0] if e.weapons else None for sec in game.scenario.sections[side] for e in sec.elements]


def encode_enemy_oob(game, side: int, obs: np.ndarray, at: int) -> None:
    """CF-HID-1: the enemy's starting order of battle is public; CF-CA-11: killed types seen."""
    obs[at:at + MAX_ELEMENTS * ENEMY] = enemy_oob(game, side)
    seen_killed = dict(game.knowledge[side].killed)
    if not seen_killed:
        return
    for e in game.elements[1 - side]:
        if seen_killed.get(e.row, 0) > 0:
            seen_killed[e.row] -= 1
            obs[at + e.slot * ENEMY + len(ROWS) + len(WEAPONS)] = 1


def enemy_oob(game, side: int) -> np.ndarray:
    """The rows and starting special weapons of the enemy's elements (CF-HID-1), read-only, built once per game:
    neither ever changes."""
    key = f"_enemy_oob_{side}"
    cached = game.__dict__.get(key)
    if cached is None:
        cached = np.zeros(MAX_ELEMENTS * ENEMY, dtype=np.float32)
        specials = starting_specials(game, 1 - side)
        for e in game.elements[1 - side]:
            base = e.slot * ENEMY
            cached[base + ROWS.index(e.row)] = 1
            if specials[e.slot] is not None:
                cached[base + len(ROWS) + WEAPONS.index(specials[e.slot])] = 1
        cached.setflags(write=False)
        game.__dict__[key] = cached
    return cached


def bounds(tables) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) of every feature under `tables` (a list: the envelope over them). Flags, one-hots, fractions
    and recencies lie in [0, 1]; the counts below are bounded by the rules, not by what games happened to show."""
    low, high = np.zeros(SIZE, dtype=np.float32), np.ones(SIZE, dtype=np.float32)
    per_element = max(t.ap["per_element"] for t in tables)
    element_cap = max(t.ap["element_cap"] for t in tables)
    shots = max([1] + [w.shots for t in tables for w in t.he_weapons.values()])
    pools = 2 + len(PHASES) + 2 + len(DECISIONS) + 3
    # CF-AP-1/3/4: a pool is at most 2 AP per element of the section (its LR only takes away), or the minimum.
    pool_max = max(per_element * MAX_ELEMENTS, max(t.ap["min_when_base_two"] for t in tables)) / 16.0
    high[pools:pools + 2 * SECTIONS:2] = pool_max
    planes = GLOBAL + CONTEXT
    for plane in ("own_count", "own_suppressed"):             # every own element may stand on one square
        high[planes + P[plane] * SQUARES:planes + (P[plane] + 1) * SQUARES] = MAX_ELEMENTS / 3.0
    own = planes + PLANES * SQUARES
    for slot in range(MAX_ELEMENTS):
        at = own + slot * OWN
        high[at + 4] = element_cap / 2.0                      # CF-AP-9: AP spent in one activation
        high[at + 7] = element_cap / 2.0                      # squares entered: each costs at least 1 AP
        high[at + 16 + len(ROWS):at + OWN] = shots            # an HE weapon's shots left
    return low, high
