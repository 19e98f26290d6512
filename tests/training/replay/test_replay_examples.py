"""The committed example replays (results/<env>/replays/): each verifies, and its viewer page works in a real
browser (headless system Chromium through Playwright; skipped, saying why, when either is missing)."""
import pytest

from envs.paths import PROJECT_ROOT
from training.cli import main
from training.replay import files as replay
from training.replay import unit_cards
from training.replay.browser import missing, open_viewer, page
from training.replay.examples import EXAMPLES, trained_side

REPLAYS = {env: sorted((PROJECT_ROOT / "results" / env / "replays").glob("*.rubble.json")) for env in EXAMPLES}


@pytest.mark.parametrize("env", sorted(EXAMPLES))
def test_the_committed_replay_verifies_and_the_trained_side_wins(env, capsys):
    (path,) = REPLAYS[env]
    assert main(["replay", str(path), "--verify"]) == 0
    assert capsys.readouterr().out.startswith(f"verified: {env}")
    data = replay.load(path)
    trained = trained_side(EXAMPLES[env])
    assert data["outcome"]["returns"][trained] > 0 and data["agents"][trained].endswith(".zip")
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


def cards_shown(tab) -> list[tuple[str, str, list[str]]]:
    """(name, owner, the lines under it) of every unit card on the page."""
    return [tuple(c) for c in tab.evaluate(
        "Array.from(document.querySelectorAll('#cards .card')).map((c) => [c.querySelector('b').textContent, "
        "c.querySelector('.owner').textContent, Array.from(c.querySelectorAll('div')).slice(1).map((d) => d.textContent)])")]


def cards_expected(env: str, step: int, side: int | None) -> list[tuple[str, str, list[str]]]:
    """The unit cards (training/replay/unit_cards.py) of the replay's state after `step`, as the page should show them."""
    data, found = replay.load(REPLAYS[env][0]), {}
    replay.replay_steps(data, REPLAYS[env][0],
                        lambda i, state: found.setdefault(i, unit_cards.cards(env, state, side)) if i == step else None)
    return [(c.name, data["sides"][c.side], [f"{what} {value}" if what else value for what, value in c.fields])
            for c in found[step]]


@browser
@pytest.mark.parametrize("env", sorted(EXAMPLES))
def test_the_viewer_steps_with_the_keyboard(env):
    steps = len(replay.load(REPLAYS[env][0])["steps"])
    with page() as tab:
        open_viewer(tab, html_of(env))
        start = state_of_view(tab)
        assert start[0] == f"step 0 / {steps}"
        start_cards = cards_shown(tab)
        assert start_cards == cards_expected(env, 0, None)
        tab.keyboard.press("ArrowRight")
        one = state_of_view(tab)
        assert one[0] == f"step 1 / {steps}" and one[2] != start[2]
        for _ in range(5):
            tab.keyboard.press("ArrowRight")
        six = state_of_view(tab)
        assert six[0] == f"step 6 / {steps}" and six[1] != start[1] and six[2] != start[2]
        assert cards_shown(tab) == cards_expected(env, 6, None) != start_cards       # the cards follow the steps
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
        assert {owner for _, owner, _ in cards_shown(tab)} == {"attacker", "defender"}
        tab.keyboard.press("1")
        assert tab.get_attribute("#board", "data-view") == "0"
        assert pixel(tab, px, py) != SIDE_COLOUR[1]
        # the attacker's cards: its own elements only, none of the hidden defender's (CF-HID-3)
        assert cards_shown(tab) == cards_expected("cityfight", 0, 0)
        assert {owner for _, owner, _ in cards_shown(tab)} == {"attacker"} and defender.name not in tab.inner_text("#cards")
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
        assert {owner for _, owner, _ in cards_shown(tab)} == {"defender"}
        tab.keyboard.press("u")
        assert pixel(tab, px, py) == SIDE_COLOUR[1]
        assert tab.errors == []


@browser
def test_a_sides_view_does_not_show_the_enemys_face_down_orders():
    """Urban War: in team_a's view every team_b card says only "face down" (UW-HID-2); team_b's own view and the
    umpire's name the order."""
    data = replay.load(REPLAYS["urbanwar"][0])
    step = len(data["steps"]) * 2 // 3
    secret = ("order Overwatch, face down", "order Snap-fire, face down")
    with page() as tab:
        open_viewer(tab, html_of("urbanwar"))
        for _ in range(step):
            tab.keyboard.press("ArrowRight")
        umpire = cards_shown(tab)
        assert any(line in secret for _, owner, lines in umpire if owner == "team_b" for line in lines)
        tab.keyboard.press("1")
        seen = cards_shown(tab)
        assert seen == cards_expected("urbanwar", step, 0)
        assert not any(line in secret for _, owner, lines in seen if owner == "team_b" for line in lines)
        tab.keyboard.press("2")
        assert any(line in secret for _, owner, lines in cards_shown(tab) if owner == "team_b" for line in lines)
        assert tab.errors == []
