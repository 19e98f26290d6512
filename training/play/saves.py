"""A game kept with `rubble play --save FILE` and taken up again with `--resume FILE`.

A save is JSON, written after every whole decision: the game's state (`GameState.to_dict`), who plays what, the
screen's history and, when the game is being recorded, the replay so far. Reading one is bounded (MAX_MB) and
checked field by field, so a save that is not one, or was edited by hand, fails in one line naming the file and
the field; loading it runs no code (json and the ruleset's own `from_dict`)."""
from __future__ import annotations

import json
from pathlib import Path

from envs.engine.dice import ManualDice

FORMAT = "rubble-play-save"
#: A save holds one game (its state, the replay so far, 200 screen lines): a long Cityfight game comes to a few MB.
MAX_MB = 32
#: characters a history line may not hold: it is printed to the terminal as it is, and an escape sequence would
#: run there (move the cursor, retitle the window...)
CONTROL = {chr(c) for c in range(32) if chr(c) != "\t"} | {chr(127)}


class SaveError(ValueError):
    """A file that is not a save this rubble can take up again; the message is one line naming the file."""


def write_save(path: Path, data: dict) -> None:
    """Write `data` (see `save_data`) to `path` through a temporary file, so a crash never leaves half a save."""
    tmp = Path(str(path) + ".tmp")
    tmp.write_text(json.dumps(data, default=str))
    tmp.replace(path)


def save_data(rs, state, scenario: str, side: int, seed: int, enemy: str, manual: bool, history: list[str]) -> dict:
    """What a save holds: `state` is the game (a recording one brings its replay along)."""
    from training.replay.files import plain

    replay = getattr(state, "replay", None)
    inner = getattr(state, "_state", state)
    return {"format": FORMAT, "env": rs.name, "scenario": scenario, "side": side, "enemy": enemy, "seed": seed,
            "dice": "manual" if manual else "seeded", "state": plain(inner.to_dict()),
            "replay_steps": replay.steps if replay is not None else None,
            "replay_dice": replay.dice if replay is not None else None, "history": history[-200:]}


#: field -> (accepted types, what it must be)
FIELDS = {
    "env": (str, "an environment name"),
    "scenario": (str, "a scenario name"),
    "side": (int, "the person's side (a whole number)"),
    "enemy": (str, "the enemy agent's name"),
    "seed": (int, "the game's seed (a whole number)"),
    "dice": (str, "'seeded' or 'manual'"),
    "state": (dict, "the game's state (an object)"),
    "replay_steps": ((list, type(None)), "the replay's steps so far, or null"),
    "replay_dice": ((dict, type(None)), "the replay's table dice, or null"),
    "history": (list, "the screen's lines (a list of text)"),
}


def read_save(path: Path) -> dict:
    """The save in `path`, its fields checked; SaveError (one line) if it is not one."""
    try:
        with open(path, "rb") as file:
            raw = file.read((MAX_MB << 20) + 1)        # never more than the bound, whatever the file holds
        if len(raw) > MAX_MB << 20:
            raise SaveError(f"{path}: holds more than {MAX_MB} MB; expected one saved game")
        data = json.loads(raw.decode("utf-8"))
    except FileNotFoundError:
        raise SaveError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError, RecursionError) as exc:
        raise SaveError(f"{path}: not a readable save ({exc.__class__.__name__})") from None
    except json.JSONDecodeError as exc:
        raise SaveError(f"{path}: not complete JSON (truncated?): {exc.msg} at line {exc.lineno}") from None
    check_fields(data, path)
    return data


def check_fields(data, path) -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError(f"{path}: field 'format': expected {FORMAT!r}; this is not a saved `rubble play` game")
    data.setdefault("replay_dice", None)           # saves written before table dice were recorded
    for name, (kind, meaning) in FIELDS.items():
        value = data.get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise SaveError(f"{path}: field {name!r}: expected {meaning}, got {value!r:.60}")
    if data["dice"] not in ("seeded", "manual"):
        raise SaveError(f"{path}: field 'dice': expected 'seeded' or 'manual', got {data['dice']!r:.40}")
    if data["seed"] < 0 or data["side"] < 0:
        raise SaveError(f"{path}: field {'seed' if data['seed'] < 0 else 'side'!r}: expected a whole number >= 0")
    for i, line in enumerate(data["history"], 1):
        if not isinstance(line, str) or CONTROL.intersection(line):
            raise SaveError(f"{path}: field 'history': line {i}: expected text without control characters")


def restore(rs, data: dict, dice=None, path="save"):
    """The saved game of `rs`, playing on with `dice` (the person's ManualDice) or its own seeded dice;
    SaveError naming the file if the state is not one of `rs`'s games."""
    state_type = type(rs.new_game(scenario=data["scenario"], seed=0))
    try:
        if dice is None:
            return state_type.from_dict(data["state"])
        dice.log = [tuple(r) for r in data["state"]["dice"].get("log", [])]
        return state_type.from_dict(data["state"], dice=dice)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise SaveError(f"{path}: field 'state': expected a {rs.name} game as `rubble play --save` writes it "
                        f"({exc.__class__.__name__}: {str(exc)[:80]})") from None


def check_restorable(rs, data: dict, path) -> None:
    """SaveError now, before the screen opens, if the saved state does not restore (a table game's dice are
    not asked for while restoring)."""
    restore(rs, data, ManualDice(_no_rolls) if data["dice"] == "manual" else None, path)


def _no_rolls(count: int, sides: int):
    raise SaveError("restoring a save rolls no dice")
