"""Compact set-ups for Cityfight rule tests: a text map, elements placed by hand, dice scripted.

    game = build(MAP, attackers=[("A1", "C", "b2")], defenders=[("D1", "B", "e2", "RPG")], dice=[6, 3], pools=(8, 8))
    activate(game, "A1")                 # the attacker's activation decision -> A1 acts
    act(game, "fire", "e2")              # square families take square IDs; `dice` takes the number of dice
    act(game, "dice", 2)
    assert el(game, "D1").suppressed
    illegal(game, "move", 0)             # masked out, raises IllegalActionError, changes nothing

`build` starts in the Action Phase of turn 1 with the attacker to activate; each side has one section
(index 0) with the given pool and LR, its first row-L element as leader. Without a map it plays on The
Office Block's map. `office(seed)` is the real scenario after its hidden set-up. Dice are scripted face by
face (a D6 per die, 2D6 = two faces); a test runs out of faces with a DiceError if the rules roll more.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

from envs.cityfight import config, position
from envs.cityfight.actions import CODEC
from envs.cityfight.game import CityfightGame
from envs.cityfight.position import build_position, scenario_on_map
from envs.cityfight.state import Element
from envs.engine.contract import IllegalActionError
from envs.engine.dice import ScriptedDice, SeededDice

OFFICE = config.load_scenario(config.scenario_path("office_block"))
SQUARE_FAMILIES = ("overwatch", "fire", "special", "smoke")


def scenario(map_text: str | None = None, **changes) -> config.Scenario:
    """The Office Block, or its rules on another map (no objectives, default SRs unless given)."""
    return scenario_on_map(OFFICE, map_text, **changes)


def build(map_text: str | None = None, attackers=(), defenders=(), dice=(), pools=(12, 12), lr=(3, 3),
          spec: config.Scenario | None = None, **options) -> CityfightGame:
    """A game in the Action Phase of turn 1 with exactly these elements, the attacker to activate."""
    elements = {"attackers": attackers, "defenders": defenders, "pools": pools, "lr": lr}
    if spec is None:
        return build_position({"map": map_text, **elements}, ScriptedDice(list(dice)), **options)
    return position.set_up(spec, elements, ScriptedDice(list(dice)), **options)


def place(game, side: int, name: str, row: str, square: str, special: str | None = None, **flags) -> Element:
    """Add an element of `side` (section 0) on `square`; a row-L element leads the section if none does."""
    return position.place(game, side, name, row, square, special, **flags)


def office(seed: int = 0, **options) -> CityfightGame:
    """The Office Block after its hidden set-up, at the attacker's first decision; later dice scripted."""
    game = CityfightGame.new(seed=seed, **options)
    game.dice = ScriptedDice([])
    return game


def dice(game, *faces: int) -> ScriptedDice:
    """Script the next rolls (each a primitive die face)."""
    game.dice = ScriptedDice(list(faces))
    return game.dice


def sq(game, name: str) -> int:
    """The board square of an ID such as 'k6'."""
    from envs.engine.grid import parse_square_id
    return game.board.at(*parse_square_id(name))


def el(game, name: str) -> Element:
    return next(e for side in game.elements for e in side if e.name == name)


def action(game, family: str, *args) -> int:
    """The flat action index: square families take square IDs, `search` an MSq ID, `activate`/`react` a name,
    `dice` the number of dice."""
    if family in SQUARE_FAMILIES:
        args = (game.board.code[sq(game, args[0])],)
    elif family == "search":
        args = (game.board.mcode[game.board.msq_names.index(args[0])],)
    elif family in ("activate", "react"):
        args = (el(game, args[0]).slot,)
    elif family == "dice":
        args = (args[0] - 1,)
    return CODEC.encode(family, *args)


def legal(game, family: str, *args) -> bool:
    return bool(game.legal_action_mask()[action(game, family, *args)])


def act(game, family: str, *args) -> list:
    """Apply one decision; fails if it is illegal."""
    return game.apply(action(game, family, *args))


def activate(game, name: str) -> list:
    return act(game, "activate", name)


def search_msq(game, msq: str, joiners=()) -> list:
    """Search MSq `msq`, then answer the join questions (CF-ACT-12; CF-HID-4/5: always JOIN_SLOTS of them): join
    for the elements named in `joiners`, pass for the rest."""
    events = act(game, "search", msq)
    while decision(game) == "join":
        name = game.element(game.current_side, game.decision[1]["element"]).name
        events += act(game, "join" if name in joiners and game.decision[1]["able"] else "pass")
    return events


def forced(game) -> bool:
    """Whether the pending decision allows nothing but pass (CF-HID-4: asked rather than skipped)."""
    mask = game.legal_action_mask()
    return np.count_nonzero(mask) == 1 and bool(mask[action(game, "pass")])


def pass_forced(game) -> list:
    """Answer pass to every pending decision that allows nothing else."""
    events = []
    while game.current_side is not None and forced(game):
        events += act(game, "pass")
    return events


def illegal(game, family: str, *args) -> None:
    """CF legality both ways: masked out, IllegalActionError, state unchanged."""
    a = action(game, family, *args)
    assert not game.legal_action_mask()[a], f"{game.action_label(a)} is legal"
    before = json.dumps(game.to_dict(), sort_keys=True)
    with pytest.raises(IllegalActionError):
        game.apply(a)
    assert json.dumps(game.to_dict(), sort_keys=True) == before


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def decision(game) -> str:
    return game.decision[0] if game.decision else None


def seeded(game, seed: int = 0) -> None:
    game.dice = SeededDice(seed)


__all__ = ["np"]
