"""Command checks (UW-CMD-1..3), panic (UW-PANIC-1..5) and rallies (UW-PANIC-8)."""
from __future__ import annotations

from envs.engine.d10 import command_test, p_command

from . import geometry as geo


def commander_bonus(game, m) -> int:
    """UW-CMD-3: +1 if a non-panicked friendly commander (not the model itself) is within 9"."""
    for c in game.side_models(m.side):
        if c.commander and c is not m and c.placed and not c.panic and geo.within(c.cell, m.cell, 9):
            return 1
    return 0


def check_bonus(game, m, extra: int = 0) -> int:
    """UW-CMD-2 / UW-TAB-5: b = CD + CAL + modifiers."""
    return m.profile.CD + m.profile.CAL + commander_bonus(game, m) + extra


def command_check(game, m, why: str, rule: str, extra: int = 0) -> bool:
    """UW-CMD-1/2: 2d10; an unmodified total <= 5 fails, else total + b >= 15 passes."""
    roll = command_test(game.dice, check_bonus(game, m, extra))
    dice = game.dice.log[-2:]
    game.log.add("command_check", f"{m.id} {why}: 2d10 {roll.face} + {roll.total - roll.face} = {roll.total}, "
                 f"{'passed' if roll.success else 'failed'}", m.side, [f for _, f in dice], rule=rule)
    return roll.success


def pass_chance(game, m, extra: int = 0):
    return p_command(check_bonus(game, m, extra))


def panic_checks(game, checkers: set[int]) -> None:
    """UW-PANIC-5: after the triggering attack, in roster order, each model once; a panicked model takes none."""
    for idx in sorted(checkers):
        m = game.models[idx]
        if m.placed and not m.panic:
            if not command_check(game, m, "panic check", "UW-PANIC-1"):
                m.panic = True
                game.log.add("panicked", f"{m.id} is panicked", m.side, rule="UW-PANIC-1")


def triggers_after(game, deaths: list[tuple[int, int]], wounded: set[int], loser: int = -1) -> set[int]:
    """Who checks after an attack: UW-PANIC-2 (lost a close combat), UW-PANIC-3 (a friend killed within 9" of its
    last cell, unless in contact), UW-PANIC-4 (fell to half W, once, unless in contact)."""
    out = set()
    if loser >= 0:
        out.add(loser)
    for victim, cell in deaths:
        side = game.models[victim].side
        for m in game.side_models(side):
            if m.placed and geo.within(m.cell, cell, 9) and not game.in_contact(m):
                out.add(m.idx)
    for idx in wounded:
        m = game.models[idx]
        if m.placed and m.profile.W > 1 and not m.halved and 2 * m.w <= m.profile.W:
            m.halved = True
            if not game.in_contact(m):
                out.add(idx)
    return out
