"""What both sides of an Urban War game may know (UW-HID-1, UW-HID-4, UW-HID-8), as the contract's `public_facts`
(envs.engine.contract); and which face-down models both sides know to be on Overwatch (UW-HID-4), which the
observations show.

All dice are public too (UW-HID-1), but they belong to the event log, not to the position."""
from __future__ import annotations

OVERWATCH = 1


def public_facts(game) -> tuple:
    """UW-HID-1: the models and their counters, the declared action; UW-HID-4: the sides without Snap-fire left;
    UW-HID-8: the open decision and who takes it."""
    decision = None if game.decision is None else (str(game.decision[0]), game.current_side)
    return (game.turn, game.winner, tuple(game.edges), decision, declared_action(game),
            tuple(model_facts(game, m) for m in game.models), tuple(no_snap_fire_left(game, s) for s in (0, 1)))


def model_facts(game, m) -> tuple:
    """UW-HID-1: place, wounds, panic, follow-ups used, activated, the counter (face up: its order; face down:
    that there is one; UW-HID-4: Overwatch once known)."""
    orders = game.orders
    if not orders.has(m.idx):
        counter = None
    elif orders.is_face_down(m.idx):
        counter = OVERWATCH if known_overwatch(game, m) else "face down"
    else:
        counter = orders.true_value(m.idx)
    return m.idx, m.cell, m.w, m.panic, m.fu_used, m.activated, m.alive, counter


def declared_action(game) -> tuple | None:
    """UW-HID-1, UW-MOVE-4: the acting model, its declared action kind and path, and whether an interrupt was tried."""
    act = game.act
    if act is None or "path" not in act:
        return None
    return act["model"], act["kind"], tuple(act["path"]), act["attempted"]


def no_snap_fire_left(game, side: int) -> bool | None:
    """UW-HID-4: once every order is placed, whether `side` has no unactivated Snap-fire model left (public);
    None while the orders are being placed (UW-HID-5: the choices are sealed)."""
    if game.orders.pending() is not None:
        return None
    return not any(game.can_activate(m) for m in game.side_models(side))


def known_overwatch(game, m) -> bool:
    """UW-HID-4: a face-down model whose side has no unactivated Snap-fire model left is known to be on Overwatch
    (the only other order); a killed model's counter is gone with it, so its order stays hidden."""
    return game.orders.is_face_down(m.idx) and bool(no_snap_fire_left(game, m.side))


def overwatch_known(game) -> tuple[bool, bool]:
    """UW-HID-4 per side: whether its face-down models are known to be on Overwatch (no Snap-fire model left)."""
    return bool(no_snap_fire_left(game, 0)), bool(no_snap_fire_left(game, 1))


def orders_seen_by(game, side: int, known: tuple[bool, bool]) -> dict[int, tuple[bool, int | None]]:
    """Every counter as `side` sees it, model idx -> (face down, order or HIDDEN): its own and the face-up ones
    (UW-HID-2), and every face-down one known to be Overwatch (`known`: `overwatch_known`, UW-HID-4) of either side."""
    seen = game.orders.all_seen_by(side)
    for s in (0, 1):
        if known[s]:
            for m in game.side_models(s):
                if seen.get(m.idx, (False,))[0]:
                    seen[m.idx] = (True, OVERWATCH)
    return seen


def counter_seen_by(game, side: int, idx: int, known: tuple[bool, bool]) -> tuple[bool, int | None] | None:
    """Model `idx`'s counter as `orders_seen_by` shows it to `side` (None: it has none); one counter alone, for a
    reader that knows which changed."""
    orders = game.orders
    if not orders.has(idx):
        return None
    if orders.is_face_down(idx) and known[game.models[idx].side]:
        return True, OVERWATCH
    return orders.is_face_down(idx), orders.seen_by(side, idx)


def order_seen_by(game, side: int, m) -> int | None:
    """The order of model `m` as `side` sees it (HIDDEN: none, or face down and unknown); UW-HID-4 as above."""
    if known_overwatch(game, m):
        return OVERWATCH
    return game.orders.seen_by(side, m.idx)
