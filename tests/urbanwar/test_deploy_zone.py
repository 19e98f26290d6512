"""UW-SETUP-5: the deploy decision's mask, made from a kept zone (turns.deploy_places) less the taken cells, offers
exactly the passable empty cells within 6" of the side's edge, at every deploy decision of scripted games."""
from __future__ import annotations

import numpy as np

from envs.urbanwar import turns
from envs.urbanwar.flow import Decision
from tests.urbanwar.test_hidden import umpire_games


def listed_deploy_actions(game, side: int) -> list[int]:
    """The deploy actions worked out cell by cell from the zone's places (what the mask must equal)."""
    edge = game.edges[side]
    return sorted(action for cell, action in turns.deploy_places(game.board, edge).places if game.occ[cell] < 0)


def test_UW_SETUP_5_the_deploy_mask_is_the_zone_less_the_taken_cells():
    deploys = 0
    for game in umpire_games(range(2)):
        if game.decision is None or game.decision[0] != Decision.DEPLOY:
            continue
        side = game.current_side
        expected = listed_deploy_actions(game, side)
        assert game.decision[1]["legal"] == expected
        assert np.flatnonzero(game.legal_action_mask()).tolist() == expected
        assert turns.deploy_cells(game, side) == expected
        deploys += 1
    assert deploys >= 20
    for zone in turns.DEPLOY_PLACES.values.values():
        assert not zone.mask.flags.writeable and zone.action_at == dict(zone.places)
        assert np.flatnonzero(zone.mask).tolist() == sorted(action for _, action in zone.places)
