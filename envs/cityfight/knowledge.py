"""What each side knows about the enemy (CF-HID-1..15): updated ONLY by what the rules tell that side.

The game state holds the truth (the umpire). A side's Knowledge is plain data: per square the turn it
was last reported occupied or found empty, the squares SPOTTED in the current activation (CF-SRCH-22),
the last announcements made to it, and counters. Observations, views and the scripted doctrine read it;
nothing here is ever read from the enemy's real positions except through the functions below, each
called where the catalog says the side is told something.
"""
from __future__ import annotations

NEVER = -1
REPORTS_KEPT = 8


class Knowledge:
    """One side's record of reports (CF-HID-5..13)."""

    __slots__ = ("side", "occupied", "empty", "spotted", "searched", "exposed", "origins", "enemy_activations",
                 "killed", "reports", "last_search", "last_fire", "enemy_out_told", "impacts")

    def __init__(self, side: int, squares: int, msqs: int) -> None:
        self.side = side
        self.occupied = [NEVER] * squares     # turn the square was last reported holding enemy
        self.empty = [NEVER] * squares        # turn a search last found the (Open) square empty
        self.spotted: list[int] = []          # CF-SRCH-22 / CF-AUTO-1: SPOTTED squares this activation
        self.searched = [NEVER] * msqs        # turn this side last searched each MSq (CF-BOT-8/11)
        self.exposed = [NEVER] * squares      # own squares the enemy declared or revealed (CF-HID-5), by turn
        self.origins = [NEVER] * squares      # turn an enemy fire was last announced from the square (CF-HID-7)
        self.enemy_activations = 0            # CF-HID-4: activations the enemy took this phase
        self.killed: dict[str, int] = {}      # CF-CA-11: enemy elements seen killed, by row
        self.reports: list[list] = []         # CF-OW-2/3: [turn, square, row, entry dir, exit dir]
        self.last_search: list = [NEVER, 0, NEVER]   # CF-HID-5: the enemy's last search here: [msq, N, turn]
        self.last_fire: list = [NEVER, NEVER, -1, NEVER]  # CF-HID-7: [origin or -1, target, category, turn]
        self.enemy_out_told = False
        self.impacts = [NEVER] * squares      # CF-HID-9: turn of the last HE impact on each square (public)

    def to_dict(self) -> dict:
        """Plain data; the per-square turn lists are saved sparsely ([[square, turn], ...]) as most are NEVER."""
        data = {}
        for key in self.__slots__:
            value = getattr(self, key)
            if key in PER_SQUARE:
                data[key] = [[i, t] for i, t in enumerate(value) if t != NEVER]
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
        for key in cls.__slots__:
            value = d[key]
            if key in PER_SQUARE:
                turns = getattr(k, key)
                for i, t in value:
                    turns[i] = t
            elif isinstance(value, dict):
                setattr(k, key, dict(value))
            elif isinstance(value, list):
                setattr(k, key, [list(v) if isinstance(v, list) else v for v in value])
            else:
                setattr(k, key, value)
        return k


PER_SQUARE = ("occupied", "empty", "searched", "exposed", "origins", "impacts")


# What a side is told ---------------------------------------------------------------------------------
def told_occupied(k: Knowledge, square: int, turn: int, spotted: bool = False) -> None:
    """The square holds enemy (declared, revealed, return fire, Engaged, overwatch report)."""
    k.occupied[square] = turn
    if spotted and square not in k.spotted:
        k.spotted.append(square)


def told_empty(k: Knowledge, square: int, turn: int) -> None:
    """CF-HID-6: a searchable Open square read 'empty'."""
    k.empty[square] = turn
    if k.occupied[square] == turn:
        k.occupied[square] = NEVER


def told_fire(k: Knowledge, origin: int, target: int, category: int, turn: int) -> None:
    """CF-HID-7: the origin (or -1 for UGL, CF-HE-10), category and target of an enemy fire at this side."""
    k.last_fire = [origin, target, category, turn]
    if origin >= 0:
        k.origins[origin] = turn
        k.occupied[origin] = turn


def told_searched(k: Knowledge, msq: int, number: int, squares, turn: int) -> None:
    """CF-HID-5: the enemy searched this MSq with number N and declared or revealed these own squares."""
    k.last_search = [msq, number, turn]
    for square in squares:
        k.exposed[square] = turn


def told_report(k: Knowledge, square: int, row: str, entry: int, exit_: int, turn: int) -> None:
    """CF-OW-2/3: an overwatch report: type, square, entry or exit direction."""
    k.reports.append([turn, square, row, entry, exit_])
    del k.reports[:-REPORTS_KEPT]
    if exit_ < 0:
        k.occupied[square] = turn


def told_impact(k: Knowledge, square: int, turn: int) -> None:
    """CF-HID-9: an HE impact square is public."""
    k.impacts[square] = turn


def told_killed(k: Knowledge, row: str) -> None:
    """CF-CA-11: an enemy element of this type was killed in close assault."""
    k.killed[row] = k.killed.get(row, 0) + 1


def end_activation(knowledges) -> None:
    """CF-SRCH-22 / CF-HID-13: SPOTTED flags last only for the current activation."""
    for k in knowledges:
        k.spotted = []
