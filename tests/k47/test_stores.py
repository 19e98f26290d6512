"""The values K47 keeps across games (envs.engine.derived.BoundedStore): keyed on game data alone, so a side's
scripted player answers alike whatever the stores hold, whoever filled them: the other side's view, the rules
reading the whole position, or a copy differing in what the side may not know (KC-HID-4, and KC-HID-9 under the
`hidden_occupants` variant, whose stand-ins must never read what the real occupants filled)."""
from __future__ import annotations

import shutil

import pytest

from agents.scripted import k47 as scripted
from envs.engine.contract import decide
from envs.engine.derived import BoundedStore
from envs.k47 import config, firefrom, geometry, shooting
from envs.k47.ruleset import K47

RS = K47()
STORES = (geometry.COVER, geometry.SIGHTS, geometry.CLEAR, geometry.BLOCKING, geometry.REACH, shooting.PLANS,
          shooting.FIRING, firefrom.BEST_SIDES, scripted.VALUES, scripted.FLAMERS)
DECISIONS = 300


def test_a_store_works_a_value_out_once_and_starts_afresh_past_its_limit():
    store, calls = BoundedStore("test", 2), []

    def work(x):
        calls.append(x)
        return x * 10
    assert store.get(1, work, 1) == 10 and store.get(1, work, 1) == 10 and calls == [1]
    store.get(2, work, 2)
    store.get(3, work, 3)                       # the store held 2: it starts afresh with this one
    assert len(store) == 1 and store.get(1, work, 1) == 10 and calls == [1, 2, 3, 1]


def test_tables_are_named_in_keys_by_their_content_not_their_identity(tmp_path):
    path = config.CONFIG_DIR / "tables" / "k47.yaml"
    copy = tmp_path / "copy.yaml"
    shutil.copy(path, copy)
    a, b = config.load_tables(str(path)), config.load_tables(str(copy))
    assert a is not b and a.digest == b.digest and len(a.digest) == 64
    changed = tmp_path / "changed.yaml"           # another path: load_tables keeps each path's tables
    changed.write_text(copy.read_text().replace("floor_roll_explodes_on: 4", "floor_roll_explodes_on: 5"))
    other = config.load_tables(str(changed))
    assert other.floor_explodes_on == 5 and other.digest != a.digest


@pytest.mark.parametrize("scenario", ["village_crossroads", "village_crossroads_hidden"])
def test_KC_HID_4_KC_HID_9_scripted_answers_do_not_depend_on_what_the_stores_hold(scenario):
    """At each decision: the scripted answer with the stores as both sides and the rules left them, the answer in
    each copy that differs in what the deciding side may not know (read with those stores still warm), and the
    answer with every store emptied are the same action."""
    game = RS.new_game(scenario, seed=7)
    players = {side: scripted.K47Scripted(side) for side in (0, 1)}
    hidden_copies = 0
    for _ in range(DECISIONS):
        if game.game_over:
            break
        side = game.current_side
        warm = decide(players[side], game, side)
        for variant in RS.hidden_variants(game, side):
            assert decide(scripted.K47Scripted(side), variant, side) == warm
            hidden_copies += any(not u.revealed for u in variant.units if u.side != side)
        for store in STORES:
            store.clear()
        assert decide(scripted.K47Scripted(side), game, side) == warm
        game.apply(warm)
    assert hidden_copies > 0 if scenario.endswith("hidden") else True
