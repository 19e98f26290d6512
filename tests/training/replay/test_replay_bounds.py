"""A replay is read in bounded chunks (training/replay/files.py read_bounded): a gzip bomb is refused in one line,
fast and in little memory; a record cut short is told from a game stopped on purpose."""
from __future__ import annotations

import gzip
import json

import pytest

import envs
from tests.training.helpers import cost
from training.replay import files as replay

BOMB_MB = 256             # inflated: 256 MB of spaces inside a JSON string; gzipped: about 250 KB


def gzip_bomb(path, megabytes: int = BOMB_MB):
    """A .rubble.json.gz whose one string field inflates to `megabytes` MB, written a MB at a time."""
    with gzip.open(path, "wb", compresslevel=9) as f:
        f.write(b'{"format": "rubble-replay", "padding": "')
        chunk = b" " * (1 << 20)
        for _ in range(megabytes):
            f.write(chunk)
        f.write(b'"}')
    return path


def test_a_gzip_bomb_is_refused_in_under_a_second_and_100_mb(tmp_path):
    path = gzip_bomb(tmp_path / "bomb.rubble.json.gz")
    assert path.stat().st_size < 1 << 20
    raised, seconds, peak = cost(lambda: replay.load(path))
    assert isinstance(raised, replay.ReplayError), raised
    assert str(raised) == (f"{path}: inflates to more than {replay.MAX_MB} MB of JSON; expected at most that for one "
                           f"game (RUBBLE_REPLAY_MAX_MB raises the bound)")
    assert seconds < 1 and peak < 100 << 20, (seconds, peak)


def recorded_game(tmp_path, steps: int | None = None):
    """A scripted rifles-urban game recorded whole, or stopped on purpose after `steps` decisions."""
    from agents.base import decide
    from training import lookup

    rs = envs.registry.get("rifles-urban")
    state, record = replay.start(rs, None, 3, ["scripted"] * 2)
    agents = [lookup.agent(rs, "scripted")(side, side) for side in range(2)]
    while not state.is_over and (steps is None or len(record.steps) < steps):
        state.apply(decide(agents[state.current_side], state, state.current_side))
    record.finish(state)
    return replay.write(record, tmp_path / f"game-{steps}.rubble.json"), record.to_dict()


def test_the_bound_is_configurable_and_a_real_game_is_far_below_it(tmp_path, monkeypatch):
    path, _ = recorded_game(tmp_path)
    assert path.stat().st_size < (replay.MAX_MB << 20) // 100
    replay.load(path)
    with pytest.raises(replay.ReplayError, match=r"holds more than 1024 bytes of JSON"):
        replay.load(path, limit=1 << 10)
    monkeypatch.setenv("RUBBLE_REPLAY_MAX_MB", "0.001")
    with pytest.raises(replay.ReplayError, match=f"^{path}: holds more than 1048 bytes"):
        replay.load(path)
    monkeypatch.setenv("RUBBLE_REPLAY_MAX_MB", "lots")
    with pytest.raises(replay.ReplayError, match="RUBBLE_REPLAY_MAX_MB='lots': expected a positive number"):
        replay.load(path)


def test_json_nested_past_the_stack_is_refused_in_one_line(tmp_path):
    path = tmp_path / "deep.rubble.json"
    path.write_bytes(b"[" * 200_000 + b"]" * 200_000)
    with pytest.raises(replay.ReplayError, match="JSON nested too deep"):
        replay.load(path)


def test_a_record_cut_short_is_told_from_a_game_stopped_on_purpose(tmp_path):
    _, whole = recorded_game(tmp_path)
    cut = {**whole, "steps": whole["steps"][:-5], "outcome": None}   # the last steps and the outcome lost
    path = tmp_path / "cut.rubble.json"
    path.write_text(json.dumps(cut), encoding="utf-8")
    early = f"the record ends early, after step {len(cut['steps'])}, with no outcome (a file cut short?)"
    with pytest.raises(replay.ReplayError, match=r"field 'outcome': missing: the record ends early"):
        replay.verify(path)
    assert replay.summary(replay.load(path)).endswith(early)
    stopped, _ = recorded_game(tmp_path, steps=10)                   # stopped on purpose: outcome over: false
    data, _ = replay.verify(stopped)
    assert replay.summary(data).endswith("10 steps, not finished")


def test_a_gzip_stream_cut_short_still_fails_as_unreadable(tmp_path):
    path, _ = recorded_game(tmp_path)
    raw = gzip.compress(path.read_bytes())
    cut = tmp_path / "cut.rubble.json.gz"
    cut.write_bytes(raw[: len(raw) // 2])
    with pytest.raises(replay.ReplayError, match="not a readable gzip file"):
        replay.load(cut)
