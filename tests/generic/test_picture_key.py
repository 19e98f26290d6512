"""One picture key per ruleset (`Ruleset.picture_key`, declared by its render): the rgb picture draws it as its
key strip and the replay viewer lists it as its legend, so the two never disagree."""
from __future__ import annotations

import importlib

from training.replay.viewer import legend


def test_the_picture_draws_the_key_the_ruleset_declares(ruleset, monkeypatch):
    state = ruleset.new_game(seed=1)
    key = ruleset.picture_key(state)
    if not key:                                       # the toy race of the tests has no picture key
        assert ruleset.picture_key() == [] and legend(ruleset.name, state) == []
        return
    assert all((isinstance(swatch, tuple) and len(swatch) == 3 and all(0 <= c <= 255 for c in swatch)
                or isinstance(swatch, str) and swatch) and isinstance(meaning, str) and meaning for swatch, meaning in key)
    full = state.render_rgb(0)
    render = importlib.import_module(type(ruleset).__module__.rsplit(".", 1)[0] + ".render")
    monkeypatch.setattr(render, "picture_key", lambda game=None: [])
    assert state.render_rgb(0).shape[0] < full.shape[0], "the picture's key strip is the declared key"


def test_the_viewer_legend_is_the_picture_key_with_the_night_cue_in_the_darkness():
    from envs import registry
    for name in ("rifles-urban", "rifles-darkness", "cityfight", "k47", "urbanwar"):
        rs = registry.get(name)
        state = rs.new_game(seed=1)
        rows = legend(name, state)
        assert [meaning for _, meaning in rows][-1].endswith(rs.picture_key(state)[-1][1])
        assert len(rows) == len(rs.picture_key(state)) and all(sw.startswith("#") or len(sw) <= 2 for sw, _ in rows)
        night = any("you see" in meaning for _, meaning in rows)
        assert night == (name == "rifles-darkness"), name
