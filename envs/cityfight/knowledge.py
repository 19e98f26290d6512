"""What each side knows about the enemy (CF-HID-1..15): updated ONLY by what the rules tell that side.

The game state holds the truth (the umpire). A side's Knowledge is plain data: per square the turn it
was last reported occupied or found empty, the squares SPOTTED in the current activation (CF-SRCH-22),
the last announcements made to it, and counters. Observations, views and the scripted doctrine read it;
nothing here is ever read from the enemy's real positions except through the functions below, each
called where the catalog says the side is told something.

The per-square reports are numpy arrays of turns (one row each of `turns`), and every function below that writes
them takes a new `stamp`: the observation and the doctrine compare that one token to know the reports are
unchanged, instead of comparing six board-sized lists at every decision. A position edited by hand must call
`touch` (the game's `refresh` does it for both sides).
"""
from __future__ import annotations

import numpy as np

from .state import new_stamp

NEVER = -1
REPORTS_KEPT = 8
#: the per-square reports, the rows of Knowledge.turns in this order (then `searched`, per MSq)
PER_SQUARE_ROWS = ("occupied", "empty", "exposed", "origins", "impacts")
OCCUPIED, EMPTY, EXPOSED, ORIGINS, IMPACTS, SEARCHED = range(len(PER_SQUARE_ROWS) + 1)   # rows of row_stamps
PER_SQUARE = ("occupied", "empty", "searched", "exposed", "origins", "impacts")
#: what to_dict saves, in order (the arrays' views and the stamp are not state of their own)
SAVED = ("side", "occupied", "empty", "spotted", "searched", "exposed", "origins", "enemy_activations", "killed",
         "reports", "last_search", "last_fire", "enemy_out_told", "impacts")


class Knowledge:
    """One side's record of reports (CF-HID-5..13)."""

    __slots__ = ("side", "occupied", "empty", "spotted", "searched", "exposed", "origins", "enemy_activations",
                 "killed", "reports", "last_search", "last_fire", "enemy_out_told", "impacts", "turns", "stamp",
                 "row_stamps")

    def __init__(self, side: int, squares: int, msqs: int) -> None:
        self.side = side
        # Per square, the turn of the last report (NEVER: none), one row each, written in place (see `stamp`):
        #   occupied  the square was reported holding enemy
        #   empty     a search found the (Open) square empty
        #   exposed   own squares the enemy declared or revealed (CF-HID-5)
        #   origins   an enemy fire was announced from the square (CF-HID-7)
        #   impacts   an HE impact on the square (CF-HID-9: public)
        self.turns = np.full((len(PER_SQUARE_ROWS), squares), NEVER, dtype=np.int32)
        self.occupied, self.empty, self.exposed, self.origins, self.impacts = self.turns
        self.searched = np.full(msqs, NEVER, dtype=np.int32)   # turn this side last searched each MSq (CF-BOT-8/11)
        self.spotted: list[int] = []          # CF-SRCH-22 / CF-AUTO-1: SPOTTED squares this activation
        self.enemy_activations = 0            # CF-HID-4: activations the enemy took this phase
        self.killed: dict[str, int] = {}      # CF-CA-11: enemy elements seen killed, by row
        self.reports: list[list] = []         # CF-OW-2/3: [turn, square, row, entry dir, exit dir]
        self.last_search: list = [NEVER, 0, NEVER]   # CF-HID-5: the enemy's last search here: [msq, N, turn]
        self.last_fire: list = [NEVER, NEVER, -1, NEVER]  # CF-HID-7: [origin or -1, target, category, turn]
        self.enemy_out_told = False
        self.stamp = new_stamp()
        self.row_stamps = [self.stamp] * (len(PER_SQUARE_ROWS) + 1)   # per row of `turns`, then `searched`

    def __getstate__(self) -> dict:
        """What a copy (pickle, deepcopy) needs: not the rows' views, which a copy would make arrays of their own,
        apart from `turns`, so that the writers' reports never reached the copy's observation."""
        return {key: getattr(self, key) for key in self.__slots__ if key not in PER_SQUARE_ROWS}

    def __setstate__(self, state: dict) -> None:
        for key, value in state.items():
            setattr(self, key, value)
        self.occupied, self.empty, self.exposed, self.origins, self.impacts = self.turns

    def touch(self, *rows: int) -> None:
        """A new stamp: the per-square reports or `searched` changed (every writer below calls it), for these rows
        (OCCUPIED ... SEARCHED) or, with none named, all of them (a position edited by hand)."""
        self.stamp = stamp = new_stamp()
        for row in rows or range(len(self.row_stamps)):
            self.row_stamps[row] = stamp

    def to_dict(self) -> dict:
        """Plain data; the per-square turn lists are saved sparsely ([[square, turn], ...]) as most are NEVER."""
        data = {}
        for key in SAVED:
            value = getattr(self, key)
            if key in PER_SQUARE:
                data[key] = [[i, int(value[i])] for i in np.flatnonzero(value != NEVER).tolist()]
            elif isinstance(value, dict):
                data[key] = dict(value)
            elif isinstance(value, list):
                data[key] = [list(v) if isinstance(v, list) else v for v in value]
            else:
                data[key] = value
        data["squares"], data["msqs"] = len(self.occupied), len(self.searched)
        return data

    @classmethod
    def from_dict(cls, d: dict) -> Knowledge:
        k = cls(d["side"], d["squares"], d["msqs"])
        for key in SAVED:
            value = d[key]
            if key in PER_SQUARE:
                turns = getattr(k, key)                       # written in place: the rows of k.turns stay its views
                for i, t in value:
                    turns[i] = t
            elif isinstance(value, dict):
                setattr(k, key, dict(value))
            elif isinstance(value, list):
                setattr(k, key, [list(v) if isinstance(v, list) else v for v in value])
            else:
                setattr(k, key, value)
        return k


# What a side is told ---------------------------------------------------------------------------------
def told_occupied(k: Knowledge, square: int, turn: int, spotted: bool = False) -> None:
    """The square holds enemy (declared, revealed, return fire, Engaged, overwatch report)."""
    k.occupied[square] = turn
    k.touch(OCCUPIED)
    if spotted and square not in k.spotted:
        k.spotted.append(square)


def told_empty(k: Knowledge, square: int, turn: int) -> None:
    """CF-HID-6: a searchable Open square read 'empty'."""
    k.empty[square] = turn
    if k.occupied[square] == turn:
        k.occupied[square] = NEVER
        k.touch(EMPTY, OCCUPIED)
    else:
        k.touch(EMPTY)


def told_fire(k: Knowledge, origin: int, target: int, category: int, turn: int) -> None:
    """CF-HID-7: the origin (or -1 for UGL, CF-HE-10), category and target of an enemy fire at this side."""
    k.last_fire = [origin, target, category, turn]
    if origin >= 0:
        k.origins[origin] = turn
        k.occupied[origin] = turn
        k.touch(ORIGINS, OCCUPIED)


def told_searched(k: Knowledge, msq: int, number: int, squares, turn: int) -> None:
    """CF-HID-5: the enemy searched this MSq with number N and declared or revealed these own squares."""
    k.last_search = [msq, number, turn]
    if squares:
        k.exposed[squares] = turn
        k.touch(EXPOSED)


def told_report(k: Knowledge, square: int, row: str, entry: int, exit_: int, turn: int) -> None:
    """CF-OW-2/3: an overwatch report: type, square, entry or exit direction."""
    k.reports.append([turn, square, row, entry, exit_])
    del k.reports[:-REPORTS_KEPT]
    if exit_ < 0:
        k.occupied[square] = turn
        k.touch(OCCUPIED)


def told_impact(k: Knowledge, square: int, turn: int) -> None:
    """CF-HID-9: an HE impact square is public."""
    k.impacts[square] = turn
    k.touch(IMPACTS)


def searched_by_side(k: Knowledge, msq: int, turn: int) -> None:
    """CF-BOT-8/11: the side searched this MSq (it knows its own searches and when)."""
    k.searched[msq] = turn
    k.touch(SEARCHED)


def told_killed(k: Knowledge, row: str) -> None:
    """CF-CA-11: an enemy element of this type was killed in close assault."""
    k.killed[row] = k.killed.get(row, 0) + 1


def end_activation(knowledges) -> None:
    """CF-SRCH-22 / CF-HID-13: SPOTTED flags last only for the current activation."""
    for k in knowledges:
        k.spotted = []
