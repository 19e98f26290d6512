"""The play screens show the person only the events its side may read (envs.engine.events.events_seen_by): the
terminal's event lines and the web page's log. At the table (manual dice) the person rolls for both sides, so the
terminal shows every event there; replays keep every event whole (the umpire's record)."""
from __future__ import annotations

import io

import pytest

from envs import registry
from envs.engine.events import events_seen_by
from training.play.terminal import Table

ATTACKER = 0


def cityfight_setups(seed: int = 0):
    state = registry.get("cityfight").new_game(seed=seed)
    setups = [e for e in state.setup_events if e.kind == "setup"]
    assert setups and all(e.side != ATTACKER and e.dice for e in setups), "the defender sets up hidden (CF-SCN-6)"
    return state, setups


def test_CF_HID_3_the_hidden_setup_die_is_not_shown_to_the_attacker():
    state, setups = cityfight_setups()
    rs = registry.get("cityfight")
    attacker = Table(rs, None, ATTACKER, io.StringIO(), io.StringIO()).event_lines(state.setup_events)
    hidden = [line for line in attacker if "sets up hidden" in line]
    assert len(hidden) == len(setups) and not any("rolled" in line for line in hidden), attacker
    defender = Table(rs, None, 1 - ATTACKER, io.StringIO(), io.StringIO()).event_lines(state.setup_events)
    assert sum("sets up hidden; rolled" in line for line in defender) == len(setups), "its owner sees its die"

    pytest.importorskip("starlette", reason="the 'web' extra is not installed")
    from training import lookup
    from training.play.web import WebGame, event_json
    enemy = lookup.agent(rs, "scripted", (1 - ATTACKER,))
    game = WebGame(rs, None, ATTACKER, enemy, 0, out=io.StringIO())
    setup = next(entry for entry in game.log if entry["who"] == "set-up")
    shown = [e for e in setup["events"] if "sets up hidden" in e["text"]]
    assert len(shown) == len(setups) and all(e["rolled"] == "" for e in shown), shown
    # the rest of the page's log: only what the attacker may read of the events the game made
    assert setup["events"] == [event_json(e) for e in events_seen_by(game.state.setup_events, ATTACKER)]


def test_the_terminal_table_companion_shows_every_die():
    state, setups = cityfight_setups()
    table = Table(registry.get("cityfight"), None, ATTACKER, io.StringIO(), io.StringIO(), manual=True)
    assert sum("sets up hidden; rolled" in line for line in table.event_lines(state.setup_events)) == len(setups)


def test_the_web_log_shows_no_enemy_activation_roll_or_move_in_cityfight():
    """CF-HID-3/4: the enemy's activations are read as "the defender takes an activation", its AP rolls, moves and
    recovery rolls not at all."""
    pytest.importorskip("starlette", reason="the 'web' extra is not installed")
    from training import lookup
    from training.play.web import WebGame
    rs = registry.get("cityfight")
    game = WebGame(rs, None, ATTACKER, lookup.agent(rs, "scripted", (1 - ATTACKER,)), 1, out=io.StringIO())
    for _ in range(60):
        if game.state.is_over:
            break
        items = [a for a in range(game.state.legal_action_mask().size) if game.state.legal_action_mask()[a]]
        game.play(items[-1])
        game.advance()
    enemy = [e["text"] for entry in game.log if entry["who"] == rs.sides[1 - ATTACKER] for e in entry["events"]]
    assert any(t == "the defender takes an activation" for t in enemy), enemy[:20]
    defenders = {e.name for e in game.state.elements[1 - ATTACKER]}
    assert not [t for t in enemy if t.split(" ")[0] in defenders and t.endswith(("activates", "recovers", "stays suppressed"))
                or t.startswith("section ") and " AP" in t or " moves to " in t], enemy
