"""Dice rolled at the table in a replay (`rubble play --dice manual --record DIR`).

The program cannot roll a person's dice again from the seed, so a replay of such a game records every face typed
(format version 3): `dice` = {"kind": "table", "setup": the rolls before the first step} and each step's `rolled`,
a roll being [sides, face]. Verifying the replay hands those faces back in order through the same ManualDice the
game was played with, and checks that each step asks for exactly the dice its record holds."""
from __future__ import annotations

from envs.engine.dice import ManualDice

from .errors import ReplayError, ReplayFileError

#: the dice a replay's roll may be of (the suite rolls d3 to d100)
SIDES = range(2, 101)


def check_rolls(rolls, where: str) -> None:
    """ReplayFileError naming `where` unless `rolls` is a list of [sides, face] pairs a die can show."""
    if not isinstance(rolls, list):
        raise ReplayFileError(f"{where}: expected a list of [sides, face] rolls, got {rolls!r:.60}")
    for k, roll in enumerate(rolls, 1):
        if not (isinstance(roll, list) and len(roll) == 2 and all(type(x) is int for x in roll)
                and roll[0] in SIDES and 1 <= roll[1] <= roll[0]):
            raise ReplayFileError(f"{where}: roll {k}: expected [sides, face] with 2 <= sides <= 100 and "
                                  f"1 <= face <= sides, got {roll!r:.60}")


def check_table_header(data: dict, path) -> None:
    """The `dice` field (version 3 on) and, for a table game, every step's `rolled`."""
    if data["version"] < 3:
        return
    if "dice" not in data:
        raise ReplayFileError(f"{path}: field 'dice': missing; expected null (the program's seeded dice) or "
                              '{"kind": "table", "setup": [...]}')
    dice = data["dice"]
    if dice is None:
        return
    if not isinstance(dice, dict) or dice.get("kind") != "table" or set(dice) != {"kind", "setup"}:
        raise ReplayFileError(f"{path}: field 'dice': expected null or {{\"kind\": \"table\", \"setup\": [...]}}, "
                              f"got {dice!r:.60}")
    check_rolls(dice["setup"], f"{path}: field 'dice': setup")
    for i, step in enumerate(data["steps"], 1):
        check_rolls(step.get("rolled"), f"{path}: step {i}: field 'rolled'")


class FileRolls:
    """A ManualDice `ask` that answers with the recorded faces, in order, instead of asking a person."""

    def __init__(self, rolls: list, path) -> None:
        self.rolls, self.path, self.next = rolls, path, 0

    def __call__(self, count: int, sides: int) -> list[int]:
        handful = self.rolls[self.next:self.next + count]
        if len(handful) < count or any(s != sides for s, _ in handful):
            raise ReplayError(f"{self.path}: field 'dice': the game asks for {count} d{sides} at table roll "
                              f"{self.next + 1}, the file has {handful or 'no more rolls'}")
        self.next += count
        return [face for _, face in handful]


def table_dice(data: dict, path) -> ManualDice | None:
    """The dice to replay a table game with (None: the program's seeded dice, rolled again from the seed)."""
    if data.get("dice") is None:
        return None
    rolls = list(data["dice"]["setup"]) + [roll for step in data["steps"] for roll in step["rolled"]]
    return ManualDice(FileRolls(rolls, path), data["seed"])


def check_rolled(step: dict, state, rolled_before: int, where: str) -> None:
    """ReplayError unless the step just replayed rolled exactly the dice its record holds."""
    rolled = [list(r) for r in state.dice.log[rolled_before:]]
    if rolled != step["rolled"]:
        raise ReplayError(f"{where}: the game rolled {rolled} at the table here, the file says {step['rolled']}")
