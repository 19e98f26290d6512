"""`rubble play ENV --web` over plain HTTP (Starlette's TestClient): the page receives nothing the person's side may not
know, a stale, illegal or malformed choice changes nothing and is refused in one line, and the command serves the page
on 127.0.0.1 and writes its replay when stopped. The whole games, clicked through the page, are in
test_play_web_browser.py."""
from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import urllib.request

import pytest

pytest.importorskip("starlette", reason="the 'web' extra is not installed (pip install -e '.[web]')")
pytest.importorskip("uvicorn", reason="the 'web' extra is not installed (pip install -e '.[web]')")

from starlette.testclient import TestClient  # noqa: E402

import agents.scripted  # noqa: E402, F401  (registers the scripted agents)
from envs import registry  # noqa: E402
from envs.paths import PROJECT_ROOT  # noqa: E402
from tests.checkers import scripted_states  # noqa: E402
from training import lookup  # noqa: E402
from training.play.rulesets import pieces  # noqa: E402
from training.play.web import WebGame, app, board_view  # noqa: E402
from training.replay import files as replay  # noqa: E402
from training.replay.recorder import Recorder  # noqa: E402
from training.replay.unit_cards import cards  # noqa: E402

#: (ruleset, scenario): K47's variant with hidden occupants (KC-HID-6) hides the most
GAMES = [("rifles-urban", None), ("rifles-darkness", None), ("cityfight", None), ("k47", "village_crossroads_hidden"),
         ("urbanwar", None)]


def new_game(name: str, scenario=None, seed: int = 0, recorder=None) -> WebGame:
    rs = registry.get(name)
    side = rs.default_learner_side
    enemy = lookup.agent(rs, "scripted", tuple(s for s in range(len(rs.sides)) if s != side))
    agents = ["person" if s == side else "scripted" for s in range(len(rs.sides))]
    return WebGame(rs, scenario, side, enemy, seed, recorder, agents, out=io.StringIO())


def client(game: WebGame) -> TestClient:
    return TestClient(app(game), base_url="http://127.0.0.1")


def first_choice(view: dict) -> dict:
    """The first choice ending a phase or passing, if any, else the first: a game played so ends soon."""
    items = [item for group in view["choices"] for item in group["items"]]
    return next((i for i in items if i["label"].lower().startswith(("end", "pass"))), items[0])


# Hidden information ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "scenario"), GAMES)
def test_what_the_page_shows_is_the_same_in_every_game_that_differs_only_in_what_the_person_may_not_know(name, scenario):
    """The picture, the cards, the head and the choices, for the person's side, over `hidden_variants` of states of
    a scripted game: what the enemy hides (its dice, hidden places, face-down orders) never reaches the page."""
    rs = registry.get(name)
    side, found, checked = rs.default_learner_side, pieces(name), 0
    for i, state in enumerate(scripted_states(rs, 3, scenario)):
        if i % 9 or i > 200:
            continue
        mine = board_view(rs, state, side, found)
        for variant in rs.hidden_variants(state, side)[:3]:
            theirs = board_view(rs, variant, side, found)
            for key in mine:
                assert theirs[key] == mine[key], f"{name}, decision {i}: the page's {key!r} shows hidden information"
            checked += 1
    assert checked


def test_UW_HID_2_the_page_names_no_face_down_enemy_order_and_logs_only_that_it_was_given():
    """Urban War's enemy orders are face down (UW-HID-2): the umpire's cards name them, the page's say 'face down', and
    the log says the enemy 'decides (order)', never which."""
    game = new_game("urbanwar")
    c = client(game)
    view = c.get("/state").json()
    for _ in range(400):
        hidden = [m for m in game.state.models if m.placed and m.side != game.side and game.state.face_down(m)]
        if hidden:
            break
        view = c.post("/choose", json={"version": view["version"], "action": first_choice(view)["action"]}).json()
    assert hidden, "no face-down enemy order in the game"
    text = json.dumps(view)
    umpire = {card.name: dict(card.fields) for card in cards("urbanwar", game.state, None)}
    page = {name: dict(fields) for side, name, fields in view["cards"]}
    for m in hidden:
        assert umpire[m.id]["order"] in ("Overwatch, face down", "Snap-fire, face down")
        assert page[m.id]["order"] == "face down", f"{m.id}'s face-down order reaches the page"
    assert "decides (order)" in text
    assert not re.search(r"order B\d+ (Overwatch|Snap-fire)", text), "an enemy's order label reaches the log"


def test_KC_HID_9_a_hidden_enemy_occupant_shows_the_page_its_place_and_order_only():
    game = new_game("k47", "village_crossroads_hidden")
    view = client(game).get("/state").json()
    occupants = [u for u in game.state.living() if u.side != game.side and not u.revealed]
    assert occupants
    page = {name: fields for side, name, fields in view["cards"]}
    for u in occupants:
        umpire = next(c for c in cards("k47", game.state, None) if c.name == u.name)
        assert len(umpire.fields) > 3
        assert page[u.name][0] == ["", "hidden occupant (KC-HID-9)"] and len(page[u.name]) == 3


def test_CF_HID_3_the_page_has_no_card_for_an_enemy_element():
    game = new_game("cityfight")
    view = client(game).get("/state").json()
    assert view["cards"] and {side for side, _, _ in view["cards"]} == {game.side}
    enemy = [e.name for e in game.state.elements[1 - game.side]]
    assert not {name for _, name, _ in view["cards"]} & set(enemy)


# Refused choices --------------------------------------------------------------------------------------------------------
def test_a_stale_illegal_or_malformed_choice_changes_nothing_and_is_refused_in_one_line(tmp_path):
    game = new_game("rifles-urban", recorder=Recorder(tmp_path, ("person", "scripted"), numbered=True))
    c = client(game)
    view = c.get("/state").json()
    legal = {i["action"] for g in view["choices"] for i in g["items"]}
    illegal = next(a for a in range(game.rs.num_actions) if a not in legal)
    before, steps, page = json.dumps(game.state.to_dict()), len(game.state.replay.steps), c.get("/state").json()
    refused = [
        (c.post("/choose", json={"version": view["version"], "action": illegal}), 422, "not one of your legal choices"),
        (c.post("/choose", json={"version": view["version"], "action": -1}), 422, "not one of your legal choices"),
        (c.post("/choose", json={"version": view["version"], "action": 10 ** 9}), 422, "not one of your legal choices"),
        (c.post("/choose", json={"version": view["version"] + 5, "action": min(legal)}), 409, "stale choice"),
        (c.post("/choose", json={"version": view["version"], "action": str(min(legal))}), 400, "expected JSON"),
        (c.post("/choose", json={"version": True, "action": min(legal)}), 400, "expected JSON"),
        (c.post("/choose", json=[view["version"], min(legal)]), 400, "expected JSON"),
        (c.post("/choose", content=b"{not json", headers={"content-type": "application/json"}), 400, "expected JSON"),
        (c.post("/choose", content=json.dumps({"version": view["version"], "action": min(legal)}),
                headers={"content-type": "text/plain"}), 415, "application/json"),
    ]
    for response, status, reason in refused:
        assert response.status_code == status, response.text
        assert reason in response.text and "\n" not in response.text.strip()
    assert c.get("/choose").status_code == 405
    assert json.dumps(game.state.to_dict()) == before and len(game.state.replay.steps) == steps
    assert c.get("/state").json() == page
    # the choice shown is played, and the same post again is stale
    played = c.post("/choose", json={"version": view["version"], "action": min(legal)})
    assert played.status_code == 200 and played.json()["version"] > view["version"]
    again = c.post("/choose", json={"version": view["version"], "action": min(legal)})
    assert again.status_code == 409 and "stale choice" in again.text


def test_only_requests_addressed_to_this_machine_are_answered():
    c = client(new_game("cityfight"))
    assert c.get("/state").status_code == 200
    assert c.get("/state", headers={"host": "attacker.example"}).status_code == 400
    assert c.get("/", headers={"host": "localhost:8000"}).status_code == 200


def test_a_game_played_through_the_server_ends_and_its_replay_verifies(tmp_path):
    game = new_game("rifles-darkness", seed=4, recorder=Recorder(tmp_path, ("person", "scripted"), numbered=True))
    c = client(game)
    view = c.get("/state").json()
    for _ in range(500):
        if view["over"]:
            break
        view = c.post("/choose", json={"version": view["version"], "action": first_choice(view)["action"]}).json()
    assert view["over"]["result"] in ("you win", "you lose", "a draw") and not view["choices"]
    assert c.post("/choose", json={"version": view["version"], "action": 0}).status_code == 409
    data, state = replay.verify(view["over"]["replay"])
    assert state.is_over and data["agents"] == ["person", "scripted"] and data["seed"] == 4


# The command ------------------------------------------------------------------------------------------------------------
def test_rubble_play_web_serves_on_localhost_and_writes_the_replay_when_stopped(tmp_path):
    environ = {**os.environ, "BROWSER": "true"}     # webbrowser runs `true`: no browser window in a test
    child = subprocess.Popen([sys.executable, "-m", "training.cli", "play", "k47", "--web", "--seed", "3",
                              "--record", str(tmp_path)], cwd=PROJECT_ROOT, env=environ,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = child.stdout.readline()
        match = re.search(r"at (http://127\.0\.0\.1:(\d+)/) \(Ctrl-C stops the server\)", line)
        assert match, line + child.stderr.read() if child.poll() is not None else line
        url = match.group(1)
        with urllib.request.urlopen(url, timeout=30) as page:
            assert b'id="choices"' in page.read()
        with urllib.request.urlopen(url + "state", timeout=30) as answer:
            view = json.load(answer)
        assert view["you"] == "A" and view["choices"] and view["agents"] == ["you", "scripted"]
    finally:
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    assert child.returncode == 0, err
    assert "stopped before the end" in out
    written = list(tmp_path.glob("k47-person-vs-scripted-seed3*.rubble.json.gz"))
    assert len(written) == 1 and f"replay: {written[0]}" in out
    data, _ = replay.verify(written[0])
    assert data["outcome"]["over"] is False
