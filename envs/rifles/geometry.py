"""Positions, range, sight and cover on the Map Card (RB-MAP-*, RU-MS-*, RU-CPX-*)."""
from __future__ import annotations

from .state import FIRST, OPEN, Group

# RB-AI-5 / SEED U §4: enemy terrain priorities, best first (complex buildings are ranked above all)
PRIORITY = ("ms", "building", "rubble", "wall", "woods")


def feature(game, stripe: int, place: int):
    """The Feature at (stripe, place), None for the Open."""
    return None if place == OPEN else game.places[stripe][place]


def kind_at(game, stripe: int, place: int) -> str:
    f = feature(game, stripe, place)
    return "open" if f is None else f.kind


def complex_partner(game, stripe: int, place: int):
    """The other building of this building's complex (RU-CPX-1), or None."""
    f = feature(game, stripe, place)
    if f is None or f.complex is None:
        return None
    for other in game.complexes[f.complex]:
        if other is not f and other.complex == f.complex:
            return other
    return None


def across_complex(game, a: tuple, b: tuple) -> bool:
    """True when positions a and b are in the two different buildings of one complex."""
    partner = complex_partner(game, a[0], a[1])
    return partner is not None and (partner.stripe, partner.place) == (b[0], b[1])


def distance(game, a: tuple, b: tuple) -> int:
    """Range in Stripes (RB-MAP-3); same level of a complex's two buildings is range 0 (RU-CPX-2).

    The two levels of one MS share its Stripe, so they are at range 0 to each other (RU-MS-5).
    """
    gap = abs(a[0] - b[0])
    if gap == 1 and a[2] == b[2] and across_complex(game, a, b):   # a complex spans Stripes n, n+1 (RU-CPX-1)
        return 0
    return gap


def group_distance(game, a, b) -> int:
    """distance() between the positions of groups `a` and `b`, read from their fields: the rules ask it for many
    pairs at every decision, and only a range of 1 on one level can be a complex's range 0 (RU-CPX-2)."""
    gap = abs(a.stripe - b.stripe)
    if gap == 1 and a.level == b.level and groups_across_complex(game, a, b):
        return 0
    return gap


def groups_across_complex(game, a, b) -> bool:
    """across_complex() for the positions of groups `a` and `b`, read from their fields: a group in the Open (place
    0) is in no building, and most are, so most pairs need no feature looked up."""
    if a.place == OPEN or b.place == OPEN:
        return False
    partner = complex_partner(game, a.stripe, a.place)
    return partner is not None and partner.stripe == b.stripe and partner.place == b.place


def groups_see(game, a, b) -> bool:
    """can_see() between the positions of groups `a` and `b`, read from their fields (RU-CPX-3)."""
    return a.level == b.level or not groups_across_complex(game, a, b)


def can_see(game, a: tuple, b: tuple) -> bool:
    """Different levels of a complex's two buildings cannot fire at each other (RU-CPX-3)."""
    return not (a[2] != b[2] and across_complex(game, a, b))


def same_ms_other_level(game, a: tuple, b: tuple) -> bool:
    return a[0] == b[0] and a[1] == b[1] and a[1] != OPEN and a[2] != b[2]


def cover(game, firer: tuple, target: tuple) -> int:
    """TN added for the target's position (RB-TAB-2, RB-MAP-5, RU-TER-1, RU-TER-3, RU-MS-6)."""
    if same_ms_other_level(game, firer, target):
        return game.tables.own_ms_other_level_cover
    return game.tables.cover[kind_at(game, target[0], target[1])]


def first_floor_bonus(firer: tuple, target: tuple, tables) -> int:
    """RU-MS-4: +1 DRM firing from a First Floor at a target not on a First Floor, at any range."""
    return tables.first_floor_drm if firer[2] == FIRST and target[2] != FIRST else 0


def groups_at(groups, stripe: int, place: int, level: int | None = None) -> list[Group]:
    """Living on-map, out-of-sewer groups at a place (either level when level is None)."""
    # The place first (most groups are elsewhere), then Group.on_map read as fields: asked many times a decision
    return [g for g in groups if g.stripe == stripe and g.place == place and g.units and not g.exited and not g.in_sewer
            and (level is None or g.level == level)]


def priority_rank(game, stripe: int, place: int, side: int) -> int:
    """RB-AI-5 rank of a place for `side` (lower is better); Open ranks last."""
    f = feature(game, stripe, place)
    if f is None:
        return len(PRIORITY) + 1
    partner = complex_partner(game, stripe, place)
    if partner is not None and complex_free(game, f, partner, side):
        return 0   # RU-AI-4: a complex building whose whole complex is free of the other side
    return 1 + PRIORITY.index(f.kind)


def complex_free(game, f, partner, side: int) -> bool:
    """No unit of the side opposing `side` in either building of the complex."""
    foes = game.side_groups(1 - side)
    return not (groups_at(foes, f.stripe, f.place) or groups_at(foes, partner.stripe, partner.place))
