"""What each die of a Rifles event needed and what followed (the event's `rolls`, worded by the play screen):
the needs are the rules' own numbers (RB-FIRE-3/4, RB-MOR-1, RU-CC-11, RU-EXP-1, RB-EM-3, RU-SEW-3), and every
event that rolls dice, in either module, says so for each of its dice."""
from __future__ import annotations

import pytest

from agents.base import decide
from envs import registry
from training import lookup

from .builders import act, dice, fresh, move_args, one_on_one, only, ready
from .test_close_combat import regular_c
from .test_urban_movement import marker_game


def rolls_of(events, kind: str) -> list[tuple]:
    [event] = [e for e in events if e.kind == kind]
    return [(tuple(r["dice"]), r["needs"], r["table"], r["result"]) for r in event.data["rolls"]]


def test_RB_FIRE_3_each_die_needs_the_tn_less_the_drm_and_says_hit_or_miss():
    game, c, x = one_on_one("C", 1, ["rifle", "rifle"], 2)   # range 1, Open: TN 4; C's two rifles, one die each
    dice(game, 3, 2, 1, 1)                                     # a BAP: +1, so 3+; the hit's Unit Selection 1, pick 1
    events = act(game, "fire", x.gid, 1)
    assert rolls_of(events, "fire") == [((3,), "3+", "", "hit"), ((2,), "3+", "", "miss")]
    assert game.dice.remaining == 0


def test_RB_FIRE_4_a_need_never_reads_below_2_or_above_6():
    from envs.rifles import fire
    assert fire.need(drm=3, tn=3) == "2+" and fire.need(drm=-2, tn=6) == "6+" and fire.need(drm=0, tn=5) == "5+"


def test_RB_MOR_1_the_morale_die_needs_the_target_less_the_drm():
    game, c, x = one_on_one("C", 3, ("rifle", "rifle"), 3)
    regular_c(game)                                            # two Regulars, no Leader: target 4, DRM 0
    dice(game, 3)
    events = act(game, "close_combat", x.gid, 0)
    assert rolls_of(events, "morale") == [((3,), "4+", "", "fail")]


def test_RU_CC_11_each_close_combat_die_needs_what_beats_the_other_total():
    game, c, x = one_on_one("C", 3, ("rifle", "rifle"), 3)
    regular_c(game)
    dice(game, 4, 5, 2, 1, 1, 1)                               # morale 4 pass; C 5 vs X 2: 2d3 (1+1) results on X,
                                                               # the first to X1 or X2 by a d2
    events = act(game, "close_combat", x.gid, 0)
    [round_event] = [e for e in events if e.kind == "cc_round"]
    assert round_event.text == "close combat C 5 vs X 2"
    assert rolls_of(events, "cc_round") == [((5,), "3+ for C to beat X's 2", "", "C wins"),
                                            ((2,), "6+ for X to beat C's 5", "", "C wins")]


def test_RU_EXP_1_and_RB_EM_3_table_rolls_name_their_table_and_result():
    game, a = marker_game(marker=3, a_at=1)
    dice(game, 3, 6, 1)                                        # D66 36: nothing; the reveal of E1: 1, nothing
    events = act(game, "move", *move_args(game, 2))
    assert rolls_of(events, "exposed") == [((3, 6), "", "the Exposed Movement table (D66)", "none")]
    assert rolls_of(events, "reveal") == [((1,), "", "the scenario's reveal table", "nothing")]


def test_RU_SEW_3_the_sewer_die_needs_5_or_less_to_move():
    game = fresh()
    only(game, "A")
    ready(game, "A", 1)
    act(game, "sewer_enter")
    dice(game, 6)
    events = act(game, "sewer_move", 1)
    assert rolls_of(events, "sewer") == [((6,), "5 or less to move", "", "held up")]


@pytest.mark.parametrize("name", ["rifles-urban", "rifles-darkness"])
def test_every_event_with_dice_says_what_each_die_needed(name):
    """Scripted games of both modules (Advanced Urban on in every other one): no event rolls dice without its
    `rolls`, and the rolls name exactly the dice the event shows, each with a need or a table and a result."""
    rs, seen = registry.get(name), set()
    for seed in range(4):
        state = rs.new_game(seed=seed, **({"advanced_urban": True} if name == "rifles-urban" and seed % 2 else {}))
        agents = {s: lookup.agent(rs, "scripted")(s, s + 1) for s in range(len(rs.sides))}
        events = list(state.setup_events)
        while not state.is_over:
            events += state.apply(decide(agents[state.current_side], state, state.current_side))
        for e in (e for e in events if e.dice):
            rolls = e.data["rolls"]
            assert [d for r in rolls for d in r["dice"]] == list(e.dice), e
            assert all((r["needs"] or r["table"]) and r["result"] for r in rolls), e
            seen.add(e.kind)
    assert {"fire", "morale", "cc_round", "reveal"} <= seen, seen

