"""The committed example replays (results/<env>/replays/): each verifies, and its viewer page works in a real
browser (headless system Chromium through Playwright; skipped, saying why, when either is missing)."""
import pytest

from envs.paths import PROJECT_ROOT
from training import replay
from training.cli import main
from training.replay_browser import missing, open_viewer, page
from training.replay_examples import EXAMPLES

REPLAYS = {env: sorted((PROJECT_ROOT / "results" / env / "replays").glob("*.rubble.json")) for env in EXAMPLES}


@pytest.mark.parametrize("env", sorted(EXAMPLES))
def test_the_committed_replay_verifies_and_side_0_wins(env, capsys):
    (path,) = REPLAYS[env]
    assert main(["replay", str(path), "--verify"]) == 0
    assert capsys.readouterr().out.startswith(f"verified: {env}")
    data = replay.load(path)
    assert data["outcome"]["returns"][0] > 0 and data["agents"][0].endswith(".zip")
    assert path.with_name(path.name.replace(".rubble.json", ".html")).is_file()
    assert path.with_name(path.name.replace(".rubble.json", ".png")).is_file()


def html_of(env):
    (path,) = REPLAYS[env]
    return path.with_name(path.name.replace(".rubble.json", ".html"))


browser = pytest.mark.skipif(missing() is not None, reason=f"browser test needs Chromium and Playwright: {missing()}")


def state_of_view(tab) -> tuple[str, str, str, str]:
    """(step counter, picture as a data URL, event list text, frame index) as the page shows them."""
    return (tab.inner_text("#counter"), tab.evaluate("document.getElementById('board').toDataURL()"),
            tab.inner_text("#events"), tab.get_attribute("#board", "data-frame"))


@browser
@pytest.mark.parametrize("env", sorted(EXAMPLES))
def test_the_viewer_steps_with_the_keyboard(env):
    steps = len(replay.load(REPLAYS[env][0])["steps"])
    with page() as tab:
        open_viewer(tab, html_of(env))
        start = state_of_view(tab)
        assert start[0] == f"step 0 / {steps}"
        tab.keyboard.press("ArrowRight")
        one = state_of_view(tab)
        assert one[0] == f"step 1 / {steps}" and one[2] != start[2]
        for _ in range(5):
            tab.keyboard.press("ArrowRight")
        six = state_of_view(tab)
        assert six[0] == f"step 6 / {steps}" and six[1] != start[1] and six[2] != start[2]
        tab.keyboard.press("ArrowLeft")
        assert state_of_view(tab)[0] == f"step 5 / {steps}"
        tab.keyboard.press("End")
        assert state_of_view(tab)[0] == f"step {steps} / {steps}"
        tab.keyboard.press("Home")
        assert state_of_view(tab)[1] == start[1]
        assert tab.errors == []


def pixel(tab, x: int, y: int) -> tuple[int, int, int]:
    return tuple(tab.evaluate(f"Array.from(document.getElementById('board').getContext('2d')"
                              f".getImageData({x}, {y}, 1, 1).data.slice(0, 3))"))


@browser
def test_a_sides_view_does_not_show_the_hidden_enemy():
    """Cityfight: at the start the defender is set up hidden (CF-HID-3); the umpire's view shows its element,
    the attacker's view draws nothing there."""
    from envs.cityfight.render import CELL, HEADER, MARGIN, SIDE_COLOUR

    _, state = replay.new_state(replay.load(REPLAYS["cityfight"][0]))
    defender = state.elements[1][0]
    own = {e.square for e in state.elements[0]}
    assert defender.square not in own
    x, y = state.board.xy(defender.square)
    # the first element's name tag in its square (render.draw_elements), right of where its name is written
    px, py = MARGIN + x * CELL + 10 + 14, HEADER + y * CELL + 2 + 9
    with page() as tab:
        open_viewer(tab, html_of("cityfight"))
        assert pixel(tab, px, py) == SIDE_COLOUR[1]
        tab.keyboard.press("1")
        assert tab.get_attribute("#board", "data-view") == "0"
        assert pixel(tab, px, py) != SIDE_COLOUR[1]
        data = replay.load(REPLAYS["cityfight"][0])
        defender_step = next(i for i, s in enumerate(data["steps"], 1) if s["side"] == 1)
        tab.keyboard.press("End")
        tab.keyboard.press("Home")
        for _ in range(defender_step):
            tab.keyboard.press("ArrowRight")
        assert tab.inner_text("#action") == "(hidden in this view)"   # the defender's move, in the attacker's view
        assert tab.inner_text("#events") == "events hidden in this view"
        tab.keyboard.press("Home")
        tab.keyboard.press("2")
        assert pixel(tab, px, py) == SIDE_COLOUR[1]   # the defender sees its own element
        tab.keyboard.press("u")
        assert pixel(tab, px, py) == SIDE_COLOUR[1]
        assert tab.errors == []
