"""Every event names the catalog rule that produced it (the contract's `rule_prefixes`), in random games."""
from __future__ import annotations

import re

import numpy as np

from tests import checkers

RULE_ID = re.compile(r"^[A-Z0-9]+(-[A-Z]+)?-\d+$")


def test_every_event_names_a_rule_of_its_catalog(ruleset):
    seen = 0
    for seed in range(checkers.env_int("RUBBLE_EVENT_GAMES", 5)):
        state = ruleset.new_game(seed=seed)
        rng = np.random.default_rng(seed)
        while state.current_side is not None:
            for event in state.apply(checkers.random_action(rng, state.legal_action_mask())):
                assert RULE_ID.match(event.rule) and event.rule.startswith(ruleset.rule_prefixes), \
                    f"{ruleset.name} seed {seed}: event {event.kind!r} ({event.text}) names no rule of its catalog: {event.rule!r}"
                seen += 1
    assert seen > 0
