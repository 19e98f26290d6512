"""Action points (CF-AP-1..11): section pools rolled in Command-Control, spent by elements, lost by results."""
from __future__ import annotations

from envs.engine.events import private

from .state import ATTACKER, DEAD, DEFENDER


def roll_pools(game) -> None:
    """CF-AP-8: the attacker's sections roll first, then the defender's."""
    for side in (ATTACKER, DEFENDER):
        for section in game.sections[side]:
            roll_pool(game, section)


def base_ap(game, section) -> int:
    """CF-AP-1: 2 x the section's non-suppressed elements, leader included."""
    fit = sum(1 for e in game.elements[section.side] if e.section == section.index and e.square != DEAD and not e.suppressed)
    return game.tables.ap["per_element"] * fit


def roll_pool(game, section) -> None:
    """CF-AP-2..7: D6 (2D6 for an attacking company-level pool); the excess over the leader's LR is lost."""
    base = base_ap(game, section)
    count = 2 if game.options["force_level"] == "company" and section.side == ATTACKER else 1   # CF-AP-7
    dice = game.dice.dice(count)
    lr = effective_lr(game, section)
    pool = base - max(0, sum(dice) - lr)
    if base == 2:
        pool = max(pool, game.tables.ap["min_when_base_two"])     # CF-AP-3
    section.pool = max(pool, 0)                                   # CF-AP-4
    game.log.add("ap", f"section {section.name}: base {base} AP, LR {lr}, {section.pool} AP", section.side, dice=dice, rule="CF-AP-3",
                 **private(section.side))     # CF-HID-3: enemy AP pools, rolls and LR


def effective_lr(game, section) -> int:
    """CF-AP-5, CF-AP-6: the leader's LR (scenario default 3), -2 while the (acting) leader is suppressed."""
    leader = section.leader
    if leader != DEAD and game.element(section.side, leader).suppressed:
        return section.lr + game.tables.ap["suppressed_leader_lr"]
    return section.lr


def can_spend(game, e, cost: int) -> bool:
    """CF-AP-9: from the section's pool, at most 2 per element per turn; CF-CA-10 bars elements that fought."""
    if e.assaulted or e.ap_spent + cost > game.tables.ap["element_cap"]:
        return False
    return game.sections[e.side][e.section].pool >= cost     # section_of inlined: asked several times per element


def spend(game, e, cost: int) -> None:
    """CF-AP-9: pay `cost` from the section's pool."""
    e.ap_spent += cost
    game.section_of(e).pool -= cost


def lose(game, e, amount: int) -> None:
    """CF-AP-11: AP lost to a result leave the section's pool at once, floor 0."""
    section = game.section_of(e)
    section.pool = max(0, section.pool - amount)


def can_activate(game, e) -> bool:
    """CF-TURN-4, CF-TURN-5: not yet this phase; not suppressed, 2 AP spent, barred by CF-CA-10 or without pool AP."""
    if e.square == DEAD or e.activated or e.suppressed or e.assaulted or e.overwatch != DEAD:
        return False
    return e.ap_spent < game.tables.ap["element_cap"] and game.sections[e.side][e.section].pool >= 1
