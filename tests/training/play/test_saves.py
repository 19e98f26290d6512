"""Saves of `rubble play --save` taken up with `--resume`: a file that is not one fails in one line naming the
file and the field, before the screen opens; the read is bounded; a line it would print holds no escape."""
from __future__ import annotations

import json

import pytest

from envs import registry
from tests.training.helpers import run_cli
from training.play import saves


def a_save(tmp_path, **changes) -> tuple:
    rs = registry.get("rifles-urban")
    state = rs.new_game(seed=2)
    data = saves.save_data(rs, state, rs.default_scenario, 0, 2, "scripted", False, ["set-up:", "  a line"])
    data.update(changes)
    path = tmp_path / "game.json"
    saves.write_save(path, data)
    return path, data


def test_a_written_save_reads_back_and_restores_the_same_game(tmp_path):
    path, data = a_save(tmp_path)
    read = saves.read_save(path)
    rs = registry.get("rifles-urban")
    restored = saves.restore(rs, read)
    assert restored.to_dict() == rs.new_game(seed=2).to_dict()
    assert read["history"] == ["set-up:", "  a line"] and read["replay_dice"] is None


@pytest.mark.parametrize("changes, field", [
    ({"format": "something"}, "field 'format': expected 'rubble-play-save'"),
    ({"seed": "two"}, "field 'seed': expected the game's seed"),
    ({"seed": -1}, "field 'seed': expected a whole number >= 0"),
    ({"side": True}, "field 'side': expected the person's side"),
    ({"dice": "loaded"}, "field 'dice': expected 'seeded' or 'manual'"),
    ({"state": []}, "field 'state': expected the game's state"),
    ({"history": ["fine", "\x1b]0;owned\x07"]}, "field 'history': line 2: expected text without control characters"),
    ({"replay_steps": "all"}, "field 'replay_steps': expected the replay's steps so far, or null"),
])
def test_a_bad_field_fails_in_one_line_naming_it(changes, field, tmp_path):
    path, _ = a_save(tmp_path, **changes)
    with pytest.raises(saves.SaveError) as caught:
        saves.read_save(path)
    assert str(caught.value).startswith(f"{path}: {field}"), caught.value


def test_a_state_of_another_game_fails_naming_the_field(tmp_path):
    path, data = a_save(tmp_path)
    data["state"] = {"units": "none"}
    with pytest.raises(saves.SaveError, match=r"field 'state': expected a rifles-urban game as `rubble play --save`"):
        saves.check_restorable(registry.get("rifles-urban"), data, path)


def test_the_read_is_bounded(tmp_path, monkeypatch):
    path, _ = a_save(tmp_path)
    monkeypatch.setattr(saves, "MAX_MB", 0)           # any save is then past the bound
    with pytest.raises(saves.SaveError, match="holds more than 0 MB; expected one saved game"):
        saves.read_save(path)


def test_not_json_or_no_file_fails_in_one_line(tmp_path):
    path = tmp_path / "cut.json"
    path.write_text('{"format": "rubble-play-save", "env": ')
    with pytest.raises(saves.SaveError, match="not complete JSON"):
        saves.read_save(path)
    with pytest.raises(saves.SaveError, match="no such file"):
        saves.read_save(tmp_path / "none.json")


@pytest.mark.parametrize("changes, message", [
    ({"state": {"units": 1}}, "field 'state': expected a rifles-urban game"),
    ({"env": "chess"}, "chess"),
    ({"history": ["\x1b[2J"]}, "field 'history'"),
])
def test_resume_refuses_a_bad_save_before_the_screen_opens(changes, message, tmp_path, capsys):
    path, _ = a_save(tmp_path, **changes)
    code, out, err = run_cli(capsys, "play", "--resume", path)
    assert code == 2 and message in err and err.count("\n") == 1 and out == "", (out, err)
    assert json.loads(path.read_text())["format"] == "rubble-play-save"     # the file is left as it was
