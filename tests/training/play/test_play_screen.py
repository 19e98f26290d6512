"""The play screen's pieces: grouping and confirmation of choices, 80-column layout, and the per-ruleset notes (the
to-hit a choice promises is the one the rules then roll against)."""
from __future__ import annotations

import re

import numpy as np

from agents.base import decide
from envs import registry
from training import lookup
from training.play.menu import Choice, group_of, group_title, grouped, needs_confirmation, needs_grouping, numbered
from training.play.rulesets import pieces
from training.play.screen import HELP, legend, screen


def scripted_game(name: str, seed: int):
    rs = registry.get(name)
    state = rs.new_game(seed=seed)
    return rs, state, {s: lookup.agent(rs, "scripted")(s, s + 1) for s in range(len(rs.sides))}


def test_choices_group_by_what_they_do():
    labels = ["end phase", "end activation (A)", "move A to 1a (wall)", "move A to 2b (wall)", "A fires at S",
              "A fires at E1 with a BAP", "pass / decline", "search MSq C3"]
    assert [group_of(label) for label in labels] == ["end", "end", "move", "move", "fires", "fires", "pass", "search"]
    groups = grouped([Choice(i, label) for i, label in enumerate(labels)])
    assert list(groups) == ["end", "move", "fires", "pass", "search"]
    assert group_title(groups["move"]) == "move A to ... (2)" and group_title(groups["pass"]) == "pass / decline"
    assert not needs_grouping([Choice(i, label) for i, label in enumerate(labels)])      # 8 fit on one screen


def test_final_choices_are_confirmed_and_reaction_answers_are_not():
    assert needs_confirmation("end phase", 5) and needs_confirmation("declare Out", 8)
    assert needs_confirmation("pass / decline", 20)          # giving up an activation's actions
    assert not needs_confirmation("pass / decline", 2)       # a reaction window: fire or not
    assert not needs_confirmation("move N to k13", 20)


def test_long_lists_go_in_columns_within_80():
    lines = numbered([f"overwatch {c}{r}" for c in "abcdefgh" for r in range(1, 19)])
    assert len(lines) < 144 / 3 and max(map(len, lines)) <= 80
    assert numbered(["a " * 60])[1].startswith("       ")    # a long item wraps under itself


def test_every_ruleset_screen_fits_80_columns_with_its_legend():
    for name in ("rifles-urban", "rifles-darkness", "cityfight", "k47", "urbanwar"):
        rs, state, _ = scripted_game(name, 1)
        text = screen(rs, rs.default_scenario, state, 0, pieces(name), colour=False)
        assert max(map(len, text.splitlines())) <= 80, name
        assert legend(pieces(name))[0].startswith("Key: ") and "Victory: " in text and "Score: " in text
    assert max(map(len, HELP.splitlines())) <= 80


def test_k47_to_hit_shown_is_the_need_the_shot_rolls_against():
    """KC-SHOOT-5: the d6 score the menu names per weapon is the one the to_hit event then reports."""
    checked = 0
    for seed in range(4):
        rs, state, agents = scripted_game("k47", seed)
        while not state.is_over:
            side = state.current_side
            action = decide(agents[side], state, side)
            shown = pieces("k47").to_hit(state, action) if state.decision_kind() == "target" else None
            events = state.apply(action)
            rolled = sorted(m.groups() for e in events if e.kind == "to_hit"
                            for m in [re.search(r"'s (\w+) x\d+ needs (\d)\+", e.text)] if m)
            if shown and rolled:   # as sets: a unit inside may fire one target from two sides (KB-FROM-3)
                assert set(re.findall(r"(\w+) (\d)\+ \(", shown)) == set(rolled)
                checked += 1
    assert checked > 20


def test_rifles_to_hit_and_costs_read_the_tables():
    """RB-FIRE-2/4, RB-AP-1/3: a fire choice names each die's need (6 always hits, 1 always misses) and its cost."""
    from envs.rifles import fire
    from envs.rifles.actions import CODEC

    rs, state, agents = scripted_game("rifles-urban", 3)
    while not any(CODEC.decode(int(a))[0] == "fire" for a in np.flatnonzero(state.legal_action_mask())):
        state.apply(decide(agents[state.current_side], state, state.current_side))
    action = next(int(a) for a in np.flatnonzero(state.legal_action_mask()) if CODEC.decode(int(a)) [0] == "fire")
    _, (slot, bap) = CODEC.decode(action)
    firer, target = state.players[state.active], state.enemies[slot]
    tn = min(fire.target_number(state, firer.position, target.position, state.tables.weapons[u.weapon])
             for u in fire.shooters(state, firer, target))
    need = max(2, min(6, tn - bap))
    assert f"hit on {need}+ ({(7 - need) / 6:.0%})" in pieces("rifles-urban").to_hit(state, action)
    assert pieces("rifles-urban").cost(state, action) == "1 AP" + (" + 1 BAP" if bap else "")


def test_labels_name_what_the_maps_show():
    """Urban War names models by ID and moves by cell; the play screen says where a Cityfight move ends and names the
    marker a Rifles reveal is for."""
    rs, state, agents = scripted_game("urbanwar", 1)
    seen = set()
    while not state.is_over and len(seen) < 2:
        kind = state.decision_kind()
        labels = [state.action_label(int(a)) for a in np.flatnonzero(state.legal_action_mask())]
        if kind == "activate" and state.current_side == 0:
            assert all(re.fullmatch(r"activate A\d", label) for label in labels)
            seen.add(kind)
        if kind == "dest":
            assert all(re.fullmatch(r"move to \(\d+,\d+\), [+-]\d+,[+-]\d+", label) for label in labels)
            seen.add(kind)
        state.apply(decide(agents[state.current_side], state, state.current_side))
    assert seen == {"activate", "dest"}
    rows = {int(line[:2]): line for line in state.render_text(0).splitlines() if line[:2].strip().isdigit() and line[2] == " "}
    for m in (m for m in state.models if m.placed):      # the map names each model after its row, as the list does
        assert m.id in rows[m.cell // 48].split("  ")[-1].split() and f"{m.id} ({m.cell % 48},{m.cell // 48})" in state.render_text(0)
    rs, state, _ = scripted_game("cityfight", 1)
    state.apply(next(int(a) for a in np.flatnonzero(state.legal_action_mask()) if state.action_label(int(a)) == "activate element AL"))
    labels = [pieces("cityfight").label(state, int(a)) or state.action_label(int(a)) for a in np.flatnonzero(state.legal_action_mask())]
    assert "move N to k13" in labels and "run N then S back to k14" in labels
    rs, state, _ = scripted_game("rifles-urban", 1)
    labels = [pieces("rifles-urban").label(state, int(a)) for a in np.flatnonzero(state.legal_action_mask())]
    assert "spend a Recon Point to reveal marker E1" in labels


def test_urbanwar_to_hit_shown_is_the_modifier_the_shot_rolls_with():
    """UW-SHOOT-8: the d10 modifier the menu names is the one each to_hit event then adds."""
    checked = 0
    for seed in range(3):
        rs, state, agents = scripted_game("urbanwar", seed)
        while not state.is_over:
            side = state.current_side
            action = decide(agents[side], state, side)
            shown = pieces("urbanwar").to_hit(state, action) if state.decision_kind() == "shoot" else None
            events = state.apply(action)
            rolled = {re.search(r": \d+([+-]\d+) (hit|miss)", e.text).group(1) for e in events
                      if e.kind == "to_hit" and "shoots" in e.text}
            if shown and rolled:
                assert rolled == {re.search(r"d10 ([+-]\d+)", shown).group(1)}
                checked += 1
    assert checked > 20


def test_rifles_events_say_what_each_die_needed_and_what_followed():
    """Scripted dice: C's two rifles at TN 4 with a BAP need 3+ each; a 3 hits and a 2 misses (RB-FIRE-3); the
    D66 of an exposed move is read on its table (RU-EXP-1)."""
    from tests.rifles.builders import act, dice, move_args, one_on_one
    from tests.rifles.test_urban_movement import marker_game
    from training.play.screen import event_lines
    game, c, x = one_on_one("C", 1, ["rifle", "rifle"], 2)
    dice(game, 3, 2, 1, 1)
    fired = [e for e in act(game, "fire", x.gid, 1) if e.kind == "fire"]
    assert event_lines(fired) == ["  - C fires at X (2 units, DRM +1): 1 hit(s); rolled 3 2, needing 3+ each: hit,",
                                  "    miss [RB-FIRE-1]"]
    game, a = marker_game(marker=3, a_at=1)
    dice(game, 4, 6, 1, 1)                     # D66 46: sniper, on A's unit the d4 picks; the reveal of E1: 1
    moved = act(game, "move", *move_args(game, 2))
    assert event_lines([e for e in moved if e.kind == "exposed"]) == [
        "  - exposed movement of A: 46 sniper; rolled 4 6 on the Exposed Movement table",
        "    (D66): sniper [RU-EXP-1]"]
