"""`rubble play ENV --web` in a browser: a whole game of every ruleset clicked through the page (headless Debian Chromium
driven by Playwright) against the scripted agent, its replay verified. Skipped, saying why, without Chromium, Playwright
or the 'web' extra."""
from __future__ import annotations

import io
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run"]
RULESETS = ["rifles-urban", "rifles-darkness", "cityfight", "k47", "urbanwar"]
#: clicks per game: the person ends or passes where it can, so no game of the default scenarios comes near this
MAX_CLICKS = 400


def missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ModuleNotFoundError as exc:
        return f"{exc.name} is not installed (pip install -e '.[web,replay]')"
    if not CHROMIUM.exists():
        return f"no {CHROMIUM} (apt-get install -y chromium)"
    return None


pytestmark = pytest.mark.skipif(missing() is not None, reason=f"the browser game's test needs: {missing()}")


class Served:
    """A WebGame's server on a free port of 127.0.0.1, in a thread, for the length of a `with`."""

    def __init__(self, game) -> None:
        from training.play.web import bound_socket, server

        self.sock = bound_socket(0)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/"
        self.server = server(game, self.sock)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        return self.url

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(30)
        self.sock.close()


#: where the page stands, and the button to press: the first choice that ends a phase or passes, else the first
PICK = """() => {
  const all = [...document.querySelectorAll('#choices button.choice')];
  const b = all.find((x) => /^(end|pass)/i.test(x.dataset.label)) || all[0];
  const group = b ? b.closest('details') : null;
  return {over: document.body.dataset.over === '1', version: document.body.dataset.version,
          action: b ? b.dataset.action : null, closed: !!group && !group.open};
}"""
SETTLED = "(v) => document.body.dataset.busy === '0' && document.body.dataset.version !== v"


def click_through(tab, url: str) -> int:
    """Play the game on the page at `url` to its end by clicking; the number of choices made."""
    tab.goto(url)
    tab.wait_for_selector("body[data-version][data-busy='0']", timeout=30_000)
    for clicks in range(MAX_CLICKS):
        page = tab.evaluate(PICK)
        if page["over"]:
            return clicks
        assert page["action"] is not None, f"no choice on the page at decision {page['version']}"
        button = tab.locator(f'#choices button.choice[data-action="{page["action"]}"]')
        if page["closed"]:                               # a long list comes in groups: open the group first
            button.locator("xpath=ancestor::details[1]/summary").click()
        button.click()
        if tab.locator("#confirm").is_visible():         # a final choice is asked twice
            tab.click("#confirm-yes")
        tab.wait_for_function(SETTLED, arg=page["version"], timeout=60_000)
        error = tab.locator("#error").text_content()
        assert not error, error
    raise AssertionError(f"no end after {MAX_CLICKS} clicks")


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.mark.parametrize("env", RULESETS)
def test_a_whole_game_is_clicked_through_the_page_and_its_replay_verifies(env, browser, tmp_path):
    from envs import registry
    from training import lookup
    from training.play.web import WebGame
    from training.replay import files as replay
    from training.replay.recorder import Recorder

    rs = registry.get(env)
    side = rs.default_learner_side
    enemy = lookup.agent(rs, "scripted", tuple(s for s in range(len(rs.sides)) if s != side))
    agents = ["person" if s == side else "scripted" for s in range(len(rs.sides))]
    game = WebGame(rs, None, side, enemy, 1, Recorder(tmp_path, tuple(agents), numbered=True), agents, out=io.StringIO())
    tab = browser.new_page(viewport={"width": 1500, "height": 1000})
    errors: list[str] = []
    tab.on("pageerror", lambda e: errors.append(str(e)))
    tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        with Served(game) as url:
            clicks = click_through(tab, url)
            over = tab.locator("#over").text_content()
            board = tab.evaluate("[document.getElementById('board').naturalWidth, document.querySelectorAll('.card').length]")
    finally:
        tab.close()
    assert clicks > 0 and not errors, errors
    assert game.state.is_over and over.startswith(("you win", "you lose", "a draw"))
    assert board[0] > 0 and board[1] > 0, "the board picture and the unit cards are shown"
    path = Path(game.replay)
    assert path.parent == tmp_path and f"replay: {path}" in over
    data, state = replay.verify(path)
    assert state.is_over and data["agents"] == agents and data["seed"] == 1
    assert sum(step["side"] == side for step in data["steps"]) == clicks
