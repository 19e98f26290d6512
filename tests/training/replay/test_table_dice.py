"""Replays of games whose dice were rolled at the table (`rubble play --dice manual --record`, format version 3):
the faces typed are recorded and `--verify` plays the same game with them, step by step; a changed, missing or
extra face fails naming the step or the roll."""
from __future__ import annotations

import json
import random
from copy import deepcopy

import pytest

from envs import registry
from envs.engine.contract import decide
from envs.engine.dice import ManualDice, agent_seed
from tests.training.helpers import run_cli
from training import lookup
from training.replay import files as replay
from training.replay.table_dice import table_dice

RULESETS = ["rifles-urban", "k47", "urbanwar", "cityfight"]


def table_game(name: str, seed: int = 3, stop_after: int | None = None) -> dict:
    """A scripted game played with dice 'typed' by a person (random faces), recorded; as the file's dict."""
    rs = registry.get(name)
    person = random.Random(seed)
    dice = ManualDice(lambda count, sides: [person.randint(1, sides) for _ in range(count)], seed)
    record = replay.Replay(rs.name, rs.default_scenario, seed, list(rs.sides), ["scripted"] * len(rs.sides))
    state = replay.RecordingState(rs.new_game(seed=seed, dice=dice), record)
    make = lookup.agent(rs, "scripted")
    agents = [make(side, agent_seed(seed, side)) for side in range(len(rs.sides))]
    while not state.is_over and (stop_after is None or len(record.steps) < stop_after):
        side = state.current_side
        state.apply(decide(agents[side], state, side))
    record.finish(state)
    return json.loads(replay.dumps(record))


def write(tmp_path, data, name="t.rubble.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", RULESETS)
def test_a_table_game_replays_with_the_faces_typed(name, tmp_path):
    data = table_game(name)
    assert data["version"] == 3 and data["dice"]["kind"] == "table"
    rolled = sum(len(step["rolled"]) for step in data["steps"]) + len(data["dice"]["setup"])
    _, final = replay.verify(write(tmp_path, data))
    assert final.is_over and rolled == len(final.dice.log) > 0
    # the seed alone does not give the same game: the faces are what was played
    seeded = {**data, "dice": None}
    with pytest.raises(replay.ReplayError):
        replay.verify(write(tmp_path, seeded, "s.rubble.json"))


def first_step_rolling(data: dict) -> int:
    return next(i for i, step in enumerate(data["steps"]) if step["rolled"])


def test_a_changed_face_fails_at_its_step(tmp_path, capsys):
    data = table_game("rifles-urban")
    i = first_step_rolling(data)
    sides, face = data["steps"][i]["rolled"][0]
    data["steps"][i]["rolled"][0] = [sides, face % sides + 1]
    code, _, err = run_cli(capsys, "replay", write(tmp_path, data), "--verify")
    assert code == 1 and f": step {i + 1}: " in err and err.count("\n") == 1, err


def test_a_face_missing_or_extra_fails_naming_the_step_or_the_roll(tmp_path, capsys):
    data = table_game("rifles-urban")
    i = first_step_rolling(data)
    extra = deepcopy(data)
    extra["steps"][i]["rolled"].append([6, 1])
    code, _, err = run_cli(capsys, "replay", write(tmp_path, extra, "e.rubble.json"), "--verify")
    assert code == 1 and f"step {i + 1}: the game rolled " in err and "the file says" in err, err
    short = deepcopy(data)
    for step in short["steps"]:
        step["rolled"] = []
    short["dice"]["setup"] = []
    code, _, err = run_cli(capsys, "replay", write(tmp_path, short, "m.rubble.json"), "--verify")
    assert code == 1 and "field 'dice': the game asks for " in err and "no more rolls" in err, err


@pytest.mark.parametrize("change, field", [
    (lambda d: d.pop("dice"), "field 'dice': missing"),
    (lambda d: d.update(dice={"kind": "seeded"}), "field 'dice': expected null or"),
    (lambda d: d["dice"].update(setup=[[6, 7]]), "field 'dice': setup: roll 1: expected [sides, face]"),
    (lambda d: d["dice"].update(setup=[[1000000, 5]]), "field 'dice': setup: roll 1: expected [sides, face]"),
    (lambda d: d["steps"][0].pop("rolled"), "step 1: field 'rolled': expected a list of [sides, face] rolls"),
    (lambda d: d["steps"][0].update(rolled=[[6, True]]), "step 1: field 'rolled': roll 1: expected"),
    (lambda d: d["options"].update(dice="table"), "field 'options': 'dice' is no rule option"),
])
def test_a_bad_table_dice_field_fails_in_one_line_naming_it(change, field, tmp_path, capsys):
    data = table_game("rifles-urban", stop_after=5)
    change(data)
    code, _, err = run_cli(capsys, "replay", write(tmp_path, data), "--verify")
    assert code == 2 and field in err and err.count("\n") == 1, err


def test_a_seeded_game_has_no_table_dice():
    data = table_game("rifles-urban", stop_after=3)
    assert table_dice({**data, "dice": None}, "x") is None
    assert isinstance(table_dice(data, "x"), ManualDice)


def test_the_viewer_draws_a_table_game(tmp_path, capsys):
    path = write(tmp_path, table_game("k47", stop_after=8))
    code, _, err = run_cli(capsys, "replay", path, "--html", str(tmp_path / "game.html"))
    assert (code, err) == (0, "") and (tmp_path / "game.html").stat().st_size > 10_000


def test_the_v3_schema_holds_a_table_game():
    jsonschema = pytest.importorskip("jsonschema")
    from envs.paths import PROJECT_ROOT

    schema = json.loads((PROJECT_ROOT / "schemas" / "rubble-replay-v3.schema.json").read_text(encoding="utf-8"))
    data = table_game("rifles-urban", stop_after=6)
    jsonschema.validate(data, schema)
    data["steps"][0]["rolled"] = [[6, 0]]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, schema)
