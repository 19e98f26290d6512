"""Replay files: recording from simulate / play / the adapters, verification, and every way a file can be bad."""
import gzip
import json

import gymnasium
import numpy as np
import pytest

import envs
from envs.paths import PROJECT_ROOT
from tests.training.helpers import run_cli
from training.cli import main
from training.replay import files as replay
from training.replay.wrappers import RecordAECReplays, RecordReplays

SCHEMA = PROJECT_ROOT / "schemas" / "rubble-replay-v3.schema.json"
SCHEMA_V2 = PROJECT_ROOT / "schemas" / "rubble-replay-v2.schema.json"
SCHEMA_V1 = PROJECT_ROOT / "schemas" / "rubble-replay-v1.schema.json"
#: A version 1 replay written before the Rifles events carried `rolls` (the committed Darkness example as it was)
V1_BEFORE_ROLLS = PROJECT_ROOT / "tests" / "training" / "data" / "rifles-darkness-v1-before-rolls.rubble.json"


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """Four rifles-urban games recorded by `rubble simulate --record`, as (folder, the plain JSON of seed 1)."""
    folder = tmp_path_factory.mktemp("rec")
    assert main(["simulate", "rifles-urban", "--games", "4", "--seed", "1", "--record", str(folder), "--quiet"]) == 0
    data = json.loads(gzip.decompress((folder / "rifles-urban-scripted-vs-scripted-seed1.rubble.json.gz").read_bytes()))
    return folder, data


def write_json(path, data):
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_simulate_records_every_game_and_each_verifies(recorded, capsys):
    folder, _ = recorded
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == [f"rifles-urban-scripted-vs-scripted-seed{s}.rubble.json.gz" for s in range(1, 5)]
    for f in files:
        code, out, err = run_cli(capsys, "replay", f, "--verify")
        assert (code, err) == (0, "") and out.startswith("verified: rifles-urban, scenario block_six")


def test_a_replay_holds_the_game_as_played(recorded):
    _, data = recorded
    state = envs.registry.get("rifles-urban").new_game(seed=1)
    assert (data["format"], data["version"], data["seed"], data["agents"]) == ("rubble-replay", 3, 1, ["scripted"] * 2)
    assert data["dice"] is None                          # the program's seeded dice: rolled again from the seed
    first = data["steps"][0]
    assert first["label"] == state.action_label(first["action"])
    assert [e["text"] for e in first["events"]] == [e.text for e in state.apply(first["action"])]
    assert data["outcome"]["over"] and data["outcome"]["decisions"] == len(data["steps"])


def test_the_schema_names_exactly_the_fields_written(recorded):
    _, data = recorded
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert set(schema["required"]) == set(data)
    assert set(schema["$defs"]["step"]["required"]) == set(data["steps"][0])
    event = next(e for s in data["steps"] for e in s["events"])
    assert set(schema["$defs"]["event"]["required"]) == set(event)
    assert set(schema["$defs"]["outcome"]["required"]) == set(data["outcome"])


def test_record_every_and_losses_select_games(tmp_path, capsys):
    code, _, _ = run_cli(capsys, "simulate", "rifles-urban", "--games", "6", "--record", tmp_path / "every",
                     "--record-every", "3", "--quiet")
    assert code == 0
    assert sorted(f.name for f in (tmp_path / "every").iterdir()) == [
        "rifles-urban-scripted-vs-scripted-seed0.rubble.json.gz", "rifles-urban-scripted-vs-scripted-seed3.rubble.json.gz"]
    run_cli(capsys, "simulate", "rifles-urban", "--games", "6", "--record", tmp_path / "losses", "--record-losses", "--quiet")
    lost = [replay.load(f) for f in (tmp_path / "losses").iterdir()]
    assert lost and all(d["outcome"]["returns"][0] < 0 for d in lost)
    assert len(lost) < 6


def test_a_replay_is_never_overwritten(recorded, capsys):
    folder, _ = recorded
    before = {f: f.read_bytes() for f in folder.iterdir()}
    code, _, err = run_cli(capsys, "simulate", "rifles-urban", "--games", "2", "--seed", "1", "--record", folder, "--quiet")
    assert code == 2 and "exists: replays never overwrite a file" in err and len(err.splitlines()) == 1
    assert {f: f.read_bytes() for f in folder.iterdir()} == before


def bad_replay(capsys, path, status: int = 1) -> str:
    """The one-line error of `rubble replay PATH --verify`, no traceback: exit 1 for a replay that reads but does not
    replay as recorded, 2 for a file that is no readable replay (a bad request, as every other)."""
    code, out, err = run_cli(capsys, "replay", path, "--verify")
    assert code == status and out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    return err


def test_a_tampered_action_fails_naming_the_step(recorded, tmp_path, capsys):
    _, data = recorded
    tampered = json.loads(json.dumps(data))
    state = envs.registry.get("rifles-urban").new_game(seed=1)
    for step in tampered["steps"][:6]:
        state.apply(step["action"])
    other = next(int(a) for a in np.flatnonzero(state.legal_action_mask()) if a != tampered["steps"][6]["action"])
    tampered["steps"][6]["action"] = other          # a legal move, so only the check of label and events catches it
    err = bad_replay(capsys, write_json(tmp_path / "t.rubble.json", tampered))
    assert "step 7:" in err and "the file says" in err
    tampered["steps"][6]["label"] = state.action_label(other)   # label made consistent: the events differ
    err = bad_replay(capsys, write_json(tmp_path / "t2.rubble.json", tampered))
    assert "step 7" in err or "step 8" in err


def test_an_illegal_action_fails_naming_the_step(recorded, tmp_path, capsys):
    _, data = recorded
    tampered = json.loads(json.dumps(data))
    tampered["steps"][2].update(action=10**6, label=None)
    err = bad_replay(capsys, write_json(tmp_path / "i.rubble.json", tampered))
    assert "step 3: action 1000000 is not an integer in" in err


def test_a_changed_event_fails_naming_the_step_and_field(recorded, tmp_path, capsys):
    _, data = recorded
    tampered = json.loads(json.dumps(data))
    i = next(i for i, s in enumerate(tampered["steps"]) if any(e["dice"] for e in s["events"]))
    event = next(e for e in tampered["steps"][i]["events"] if e["dice"])
    event["dice"] = [7] + event["dice"][1:]
    assert f"step {i + 1}: event" in bad_replay(capsys, write_json(tmp_path / "e.rubble.json", tampered))


def test_truncated_files_fail_in_one_line(recorded, tmp_path, capsys):
    folder, data = recorded
    text = json.dumps(data)
    (tmp_path / "cut.rubble.json").write_text(text[: len(text) // 2], encoding="utf-8")
    assert "not complete JSON (truncated?)" in bad_replay(capsys, tmp_path / "cut.rubble.json", 2)
    raw = (folder / "rifles-urban-scripted-vs-scripted-seed1.rubble.json.gz").read_bytes()
    (tmp_path / "cut.rubble.json.gz").write_bytes(raw[: len(raw) // 2])
    assert "not a readable gzip file" in bad_replay(capsys, tmp_path / "cut.rubble.json.gz", 2)
    fewer = {**data, "steps": data["steps"][:10]}
    assert "field 'outcome': over is True in the file" in bad_replay(capsys, write_json(tmp_path / "f.rubble.json", fewer))


def test_an_unknown_version_or_a_bad_field_fails_naming_it(recorded, tmp_path, capsys):
    _, data = recorded
    for version in (4, 0, "2", True, None):
        path = write_json(tmp_path / "v.rubble.json", {**data, "version": version})
        err = bad_replay(capsys, path, 2)
        assert err.startswith(f"rubble replay: {path}: field 'version': expected one of the replay format versions "
                              f"this rubble reads (1, 2, 3), the file is version {version!r}"), err
    assert "field 'seed'" in bad_replay(capsys, write_json(tmp_path / "s.rubble.json", {**data, "seed": "one"}), 2)
    assert "field 'ruleset': unknown ruleset" in bad_replay(capsys, write_json(tmp_path / "r.rubble.json",
                                                                               {**data, "ruleset": "chess"}), 2)
    assert "not a rubble replay" in bad_replay(capsys, write_json(tmp_path / "p.rubble.json", [1, 2]), 2)


def test_play_records_the_persons_game_even_on_quit(tmp_path, capsys):
    code, out, _ = run_cli(capsys, "play", "rifles-urban", "--record", tmp_path, stdin="1\ny\nq\n")   # end phase, confirmed
    assert code == 0
    (path,) = tmp_path.iterdir()
    data, _ = replay.verify(path)
    assert data["agents"] == ["person", "scripted"] and data["outcome"]["over"] is False and data["steps"]
    before = path.read_bytes()
    run_cli(capsys, "play", "rifles-urban", "--record", tmp_path, stdin="q\n")   # the same seed again: numbered, not overwritten
    assert path.read_bytes() == before
    assert replay.load(tmp_path / path.name.replace("seed0", "seed0-2"))["steps"] == []


def test_the_gymnasium_wrapper_records_both_sides_of_foreign_episodes(tmp_path):
    env = RecordReplays(gymnasium.make("rubble/RiflesDarkness-v0"), tmp_path)
    rng = np.random.default_rng(0)
    for episode in range(2):
        _, info = env.reset(seed=episode)
        done = False
        while not done:
            _, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            done = term or trunc
    env.reset(seed=5)
    env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))
    env.close()
    assert len(env.written) == 3
    finished = [replay.verify(p)[0] for p in env.written]
    assert [d["outcome"]["over"] for d in finished] == [True, True, False]
    assert all(d["agents"] == ["external", "scripted"] for d in finished)
    assert {s["side"] for s in finished[0]["steps"]} == {0, 1}   # the scripted enemy's moves inside step() too


def test_the_pettingzoo_wrapper_records_a_game(tmp_path):
    aec = RecordAECReplays(envs.make_aec("rifles-urban"), tmp_path)
    rng = np.random.default_rng(1)
    aec.reset(seed=3)
    for _ in aec.agent_iter():
        obs, _, term, trunc, _ = aec.last()
        aec.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    aec.close()
    (path,) = aec.written
    data, state = replay.verify(path)
    assert data["outcome"]["over"] and list(data["outcome"]["returns"]) == list(state.returns())


def test_gif_of_a_sides_view(recorded, tmp_path, capsys):
    pytest.importorskip("imageio", reason="--gif needs imageio (the 'replay' extra)")
    from PIL import Image

    folder, data = recorded
    source = folder / "rifles-urban-scripted-vs-scripted-seed1.rubble.json.gz"
    code, out, _ = run_cli(capsys, "replay", source, "--gif", tmp_path / "g.gif", "--side", "enemy", "--scale", "0.25")
    assert code == 0
    with Image.open(tmp_path / "g.gif") as gif:
        assert gif.n_frames >= 2 and gif.n_frames <= len(data["steps"]) + 1   # identical frames may merge
    code, _, err = run_cli(capsys, "replay", source, "--gif", tmp_path / "g.gif")
    assert code == 2 and "exists" in err


def test_mp4_of_the_umpires_view_has_a_frame_per_step(recorded, tmp_path, capsys):
    pytest.importorskip("imageio_ffmpeg", reason="--mp4 needs imageio-ffmpeg (the 'replay' extra)")
    import imageio.v3 as iio

    folder, data = recorded
    source = folder / "rifles-urban-scripted-vs-scripted-seed1.rubble.json.gz"
    code, out, _ = run_cli(capsys, "replay", source, "--mp4", tmp_path / "g.mp4", "--scale", "0.5")
    assert code == 0 and "written:" in out
    frames = iio.imread(tmp_path / "g.mp4", plugin="FFMPEG")
    assert len(frames) == len(data["steps"]) + 1 and frames.shape[1] % 16 == 0 and frames.shape[2] % 16 == 0
    code, _, err = run_cli(capsys, "replay", source, "--mp4", tmp_path / "g.avi")
    assert code == 1 and "expected a file name ending in .gif or .mp4" in err


def test_serve_answers_with_the_viewer_page_on_localhost(recorded, tmp_path):
    import threading
    import urllib.request

    from training.replay.serve import page_server
    from training.replay.viewer import write_html

    folder, _ = recorded
    page = write_html(folder / "rifles-urban-scripted-vs-scripted-seed1.rubble.json.gz", tmp_path / "v.html").read_bytes()
    server = page_server(page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        host, port = server.server_address
        assert host == "127.0.0.1"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/") as reply:
            assert reply.status == 200 and reply.read() == page
    finally:
        server.shutdown()
        server.server_close()


def test_evaluate_records_every_pairings_games(tmp_path, capsys):
    code, _, err = run_cli(capsys, "evaluate", "rifles-darkness", "--agents", "random", "scripted", "--games", "2",
                       "--results", tmp_path / "results", "--record", tmp_path / "rec", "--quiet")
    assert code == 0, err
    names = sorted(f.name for f in (tmp_path / "rec").iterdir())
    pairings = [f"{a}-vs-{b}" for a in ("random", "scripted") for b in ("random", "scripted")]
    assert names == sorted(f"rifles-darkness-{p}-seed{s}.rubble.json.gz" for p in pairings for s in (10**6, 10**6 + 1))
    assert all(replay.verify(tmp_path / "rec" / n)[0]["agents"] == n.split("-seed")[0].split("-", 2)[2].split("-vs-")
               for n in names)


# Format versions: the current one compared exactly, version 1 read with its one named gap ----------------------
def first_event_with(data: dict, key: str) -> tuple[int, int, dict]:
    """(step number, event number, the event) of the first event whose data has `key`, counted from 1."""
    return next((i, j, e) for i, s in enumerate(data["steps"], 1) for j, e in enumerate(s["events"], 1)
                if key in e["data"])


def copy(data: dict) -> dict:
    return json.loads(json.dumps(data))


def test_the_current_version_fails_a_missing_data_key_naming_the_step_and_key(recorded, tmp_path, capsys):
    _, data = recorded
    tampered = copy(data)
    step, event, found = first_event_with(tampered, "rolls")
    del found["data"]["rolls"]
    err = bad_replay(capsys, write_json(tmp_path / "m.rubble.json", tampered))
    assert f"step {step}: event {event} lacks data key 'rolls': the game gives [{{'dice'" in err


def test_the_current_version_fails_an_extra_data_key_naming_the_step_and_key(recorded, tmp_path, capsys):
    _, data = recorded
    tampered = copy(data)
    step, event, found = first_event_with(tampered, "rolls")
    found["data"]["luck"] = 6
    err = bad_replay(capsys, write_json(tmp_path / "x.rubble.json", tampered))
    assert f"step {step}: event {event} has data key 'luck', which the game does not give: the file has 6" in err
    del found["data"]["luck"]
    found["mood"] = "grim"                                   # an extra field of the event itself
    err = bad_replay(capsys, write_json(tmp_path / "x2.rubble.json", tampered))
    assert f"step {step}: event {event} has field 'mood', which the game does not give" in err


def test_the_current_version_fails_a_changed_data_value_naming_the_step_and_key(recorded, tmp_path, capsys):
    _, data = recorded
    tampered = copy(data)
    step, event, found = first_event_with(tampered, "rolls")
    found["data"]["rolls"][0]["result"] = "something else"
    err = bad_replay(capsys, write_json(tmp_path / "c.rubble.json", tampered))
    assert f"step {step}: event {event} differs in data key 'rolls'[0]['result']: the file has 'something else', " in err


def test_a_version_1_file_written_before_the_rolls_verifies_and_as_version_2_it_would_not(tmp_path, capsys):
    assert replay.VERSIONS == {1: frozenset({"rolls"}), 2: frozenset(), 3: frozenset()} and replay.VERSION == 3
    old = replay.load(V1_BEFORE_ROLLS)
    assert old["version"] == 1 and not any("rolls" in e["data"] for s in old["steps"] for e in s["events"])
    code, out, err = run_cli(capsys, "replay", V1_BEFORE_ROLLS, "--verify")
    assert (code, err) == (0, "") and out.startswith("verified: rifles-darkness")
    step, event, _ = first_event_with(replay.rerecord(old, V1_BEFORE_ROLLS).to_dict(), "rolls")
    err = bad_replay(capsys, write_json(tmp_path / "as2.rubble.json", {**old, "version": 2}))
    assert f"step {step}: event {event} lacks data key 'rolls'" in err


def test_version_1_excuses_only_a_missing_rolls_key(recorded, tmp_path, capsys):
    """A version 1 file that has `rolls` (written after the annotation) has them compared; any other key missing or
    extra fails as in version 2."""
    _, data = recorded
    changed = {**copy(data), "version": 1}
    step, event, found = first_event_with(changed, "rolls")
    found["data"]["rolls"][0]["result"] = "something else"
    assert f"step {step}: event {event} differs in data key 'rolls'" in bad_replay(
        capsys, write_json(tmp_path / "r.rubble.json", changed))
    other = {**copy(data), "version": 1}
    step, event, found = first_event_with(other, "rolls")
    found["data"]["luck"] = 6
    assert f"step {step}: event {event} has data key 'luck'" in bad_replay(
        capsys, write_json(tmp_path / "o.rubble.json", other))
    del found["data"]["luck"], found["rules"]
    assert f"step {step}: event {event} lacks field 'rules'" in bad_replay(
        capsys, write_json(tmp_path / "o2.rubble.json", other))


def test_rerecord_brings_a_version_1_file_to_the_current_version_with_the_same_game(tmp_path, capsys):
    old = replay.load(V1_BEFORE_ROLLS)
    again = replay.rerecord(old, V1_BEFORE_ROLLS).to_dict()
    assert again["version"] == replay.VERSION and again["outcome"] == old["outcome"]
    assert [(s["side"], s["action"], s["label"]) for s in again["steps"]] == [
        (s["side"], s["action"], s["label"]) for s in old["steps"]]
    for s in again["steps"]:
        for e in s["events"]:
            e["data"].pop("rolls", None)
    assert again.pop("dice") is None
    assert {**again, "version": 1} == old                   # nothing but the version and the rolls changed
    path = replay.write(replay.rerecord(old, V1_BEFORE_ROLLS), tmp_path / "v2.rubble.json")
    assert run_cli(capsys, "replay", path, "--verify")[0] == 0


def test_files_of_each_version_match_their_schema(recorded):
    jsonschema = pytest.importorskip("jsonschema")
    _, data = recorded
    jsonschema.validate(data, json.loads(SCHEMA.read_text(encoding="utf-8")))
    jsonschema.validate(replay.load(V1_BEFORE_ROLLS), json.loads(SCHEMA_V1.read_text(encoding="utf-8")))
    for committed in sorted(PROJECT_ROOT.glob("results/*/replays/*.rubble.json")):   # written as version 2
        jsonschema.validate(replay.load(committed), json.loads(SCHEMA_V2.read_text(encoding="utf-8")))
    with pytest.raises(jsonschema.ValidationError):                     # each schema names its version
        jsonschema.validate(data, json.loads(SCHEMA_V1.read_text(encoding="utf-8")))
