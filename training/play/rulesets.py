"""The small per-ruleset pieces of the play screen: the map legend, the victory condition, the score so far, the AP
left and, for fire, the to-hit chance. Everything else on the screen comes from the contract (labels, decision kinds,
render_text). A ruleset without an entry (the toy race of the tests) gets the contract-only screen."""
from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

from envs.cityfight import fire as cf_fire
from envs.cityfight import render as cityfight_render
from envs.cityfight.actions import CODEC as CITYFIGHT_CODEC
from envs.cityfight.flow import Decision as CityfightDecision
from envs.engine.d10 import p_natural
from envs.k47 import render as k47_render
from envs.k47 import shooting as k47_shooting
from envs.k47.actions import CODEC as K47_CODEC
from envs.rifles import fire, geometry
from envs.rifles import render as rifles_render
from envs.rifles.actions import CODEC as RIFLES_CODEC
from envs.urbanwar import activation as uw_activation
from envs.urbanwar import combat as uw_combat
from envs.urbanwar import geometry as uw_geo
from envs.urbanwar import render as urbanwar_render
from envs.urbanwar.actions import CODEC as URBANWAR_CODEC
from envs.urbanwar.actions import HOLD as URBANWAR_HOLD
from training.replay import unit_cards


@dataclass(frozen=True)
class Pieces:
    """What one ruleset adds to the generic screen; each callable reads only what `side` may know."""

    legend: tuple[tuple[str, str], ...] = ()
    victory: Callable[[object], str] = lambda state: ""
    score: Callable[[object, int], str] = lambda state, side: ""
    #: the AP the deciding side has left (None where the game has no AP)
    ap_left: Callable[[object], int | None] = lambda state: None
    #: for a fire choice: what each die needs, in words (None for other choices)
    to_hit: Callable[[object, int], str | None] = lambda state, action: None
    #: what a choice costs (AP, BAP...), from the ruleset's own tables, in words; None for a free choice
    cost: Callable[[object, int], str | None] = lambda state, action: None
    #: the units' state beside the map, where the text map itself does not list them
    panel: Callable[[object, int], list[str]] = lambda state, side: []
    #: the play screen's words for one of the person's own choices where they say more than the ruleset's label (which
    #: replays record and check, so it stays as it is); None: the label. Never used for the other side's choices
    label: Callable[[object, int], str | None] = lambda state, action: None
    #: decision kinds whose answer the other side does not learn: the person sees that such a decision was made, and
    #: the events (the rules' announcements), never its label
    secret_kinds: frozenset = frozenset()


# Rifles in the Ruins (Urban Warfare and Darkness) ----------------------------------------------------------------
def rifles_victory(game) -> str:
    v = game.scenario.victory
    if v["kind"] == "hold":     # RU-SCN-4
        return (f"hold {v['objective']} with an unengaged group at the end of turn {game.scenario.turns}, "
                f"no enemy in {', '.join(v['clear_of_enemy'])}; you lose if squad morale breaks (RB-VIC-3)")
    return (f"get {v['units_to_exit']} units off the far edge (Stripe 6); you lose at "     # RD-SCN-3
            f"{v['loss_eliminated']} units eliminated")


def rifles_score(game, side: int) -> str:
    exited = f", {game.exited_units} exited" if game.scenario.victory["kind"] == "exit" else ""
    return f"player units eliminated {game.eliminated_units}{exited}"


def rifles_to_hit(game, action: int) -> str | None:
    """RB-FIRE-2/3/4: each shooting unit needs its target number on a d6 less the DRM; 6 always hits, 1 always misses."""
    name, args = RIFLES_CODEC.decode(action)
    if name != "fire" or game.active < 0:
        return None
    firer, target = game.players[game.active], game.enemies[args[0]]
    units = fire.shooters(game, firer, target)
    if not units:
        return None
    # RB-AP-3: a BAP adds 1 to every die; firing down from a First Floor may add its bonus too (as fire.resolve)
    drm = args[1] + geometry.first_floor_bonus(firer.position, target.position, game.tables)
    needs = sorted({max(2, min(6, tn - drm)) for tn in _target_numbers(game, firer, target, units)})
    chances = [f"{n}+ ({(7 - n) / 6:.0%})" for n in needs]
    dice = sum(game.tables.weapons[u.weapon].cf for u in units)      # RB-FIRE-1: each weapon rolls its CF in dice
    return f"{len(units)} unit(s), {dice} dice (each weapon's CF), hit on {' or '.join(chances)}"


def _target_numbers(game, firer, target, units):
    return [fire.target_number(game, firer.position, target.position, game.tables.weapons[u.weapon]) for u in units]


#: RB-AP-1: the AP cost entry of each player action family
COST_ENTRY = {"move": "move", "fire": "fire", "close_combat": "close_combat", "rally": "rally", "floor": "floor",
              "hop": "hop", "sewer_enter": "sewer", "sewer_move": "sewer", "sewer_leave": "sewer", "demo_place": "demo_charge",
              "demo_retry": "demo_charge", "demo_take_back": "demo_take_back", "exit": "exit"}


def rifles_cost(game, action: int) -> str | None:
    """The AP of RB-AP-1's table, the BAP (RB-AP-3) or Recon Point (RU-EXP-2) a choice spends; rubble's d6 (RU-RUB-1)."""
    name, args = RIFLES_CODEC.decode(action)
    if name not in COST_ENTRY:
        return None
    ap = f"{game.tables.ap_costs[COST_ENTRY[name]]} AP"
    if name == "move" and geometry.kind_at(game, args[0] + 1, args[1]) == "rubble":
        ap = f"1 AP, 2 on a d6 of {game.tables.rubble_two_ap_from}+ (RU-RUB-1)"
    extra = {"fire": " + 1 BAP", "close_combat": " + 1 BAP", "rally": " + 1 BAP", "move": " + 1 Recon Point"}
    return ap + (extra.get(name, "") if args and args[-1] else "")


def rifles_panel(game, side: int) -> list[str]:
    """Each group on the map as `side` sees it, a line per group: its unit cards (training/replay/unit_cards.py), which the
    replay viewer shows too."""
    return [c.line(side) for c in unit_cards.rifles(game, side)]


def rifles_label(game, action: int) -> str | None:
    """A Recon reveal names its marker as the map does (E1, K2), not by its slot number."""
    name, args = RIFLES_CODEC.decode(action)
    if name != "recon_reveal" or args[0] >= len(game.markers) or game.markers[args[0]] is None:
        return None
    return f"spend a Recon Point to reveal marker {game.markers[args[0]].name}"


RIFLES = Pieces(rifles_render.LEGEND, rifles_victory, rifles_score, lambda game: game.ap, rifles_to_hit, rifles_cost,
                rifles_panel, label=rifles_label)


# Cityfight --------------------------------------------------------------------------------------------------------
def cityfight_victory(game) -> str:
    v, names = game.scenario.victory, [_square_name(xy) for xy in game.scenario.objectives]
    at_once = f"all of {' '.join(names)} at any end of turn, or " if v.get("all_at_once") else ""
    them = "them" if at_once else " ".join(names)
    return (f"the attacker wins controlling {at_once}at least {v['at_end']} of {them} at the end of turn "
            f"{game.scenario.turns}, otherwise the defender (CF-SCN-7); a square is controlled with an element there "
            "and none of the enemy's (CF-VIC-1)")


def _square_name(xy) -> str:
    return f"{chr(ord('a') + xy[0])}{xy[1] + 1}"


def cityfight_score(game, side: int) -> str:
    """Objectives your own elements stand on (the other side's are hidden, CF-HID-3)."""
    mine = {game.name(e.square) for e in game.elements[side] if e.square >= 0}
    held = [n for n in map(_square_name, game.scenario.objectives) if n in mine]
    return f"objectives you stand on: {' '.join(held) or 'none'}"


def cityfight_ap(game) -> int | None:
    side = game.current_side
    return None if side is None else sum(s.pool for s in game.sections[side])


#: the AP of each action family, from the section's pool: move CF-ACT-1, run CF-ACT-2, search CF-ACT-4, overwatch
#: CF-ACT-5, fire CF-ACT-6, special weapon and smoke CF-ACT-7, joining a search CF-ACT-12, return fire CF-AUTO-4
CITYFIGHT_AP = {"move": 1, "run": 2, "search": 1, "overwatch": 2, "fire": 1, "special": 2, "smoke": 2, "join": 1, "react": 1}


def cityfight_cost(game, action: int) -> str | None:
    name, _ = CITYFIGHT_CODEC.decode(action)
    return f"{CITYFIGHT_AP[name]} AP" if name in CITYFIGHT_AP else None


def cityfight_to_hit(game, action: int) -> str | None:
    """CF-FIRE-5/8/10..15: the chance that kinetic fire suppresses (S) or kills (K) whoever is in the square, from the
    firer's strength at that range, halved unless the square is spotted, against the square's cover. The occupants'
    own modifiers (CF-FIRE-6/7) are left out: the firer does not know who is there."""
    name, args = CITYFIGHT_CODEC.decode(action)
    if name != "fire" or game.active_side != game.current_side or game.active < 0:
        return None
    e, target = game.element(game.active_side, game.active), game.board.uncode.get(args[0])
    if target is None or target == e.square:        # firing into its own square is a close assault (CF-CA-2)
        return None
    spotted = game.decision_kind() == "ifa"         # CF-SRCH-23: fire at a square the search SPOTTED
    fs = cf_fire.fire_strength(game, e, target)
    fs, cover = fs if spotted else cf_fire.halve(fs), game.tables.cover[game.cover[target]]
    chances = []
    for count in cf_fire.dice_choices(game, e):
        rolls = list(itertools.product(range(1, 7), repeat=count))
        results = [cf_fire.roll_result(list(r), fs, cover) for r in rolls]
        hit = sum(r is not None for r in results) / len(rolls)
        kill = sum(r == cf_fire.K for r in results) / len(rolls) if spotted else 0.0   # CF-FIRE-15: unspotted, K is S
        chances.append(f"{count}d {hit:.0%}" + (f" K {kill:.0%}" if kill else ""))
    return "S+ if occupied: " + ", ".join(chances)


def cityfight_label(game, action: int) -> str | None:
    """A move or run with where the active element would end ('run N then N to k12'; 'back to k14' for a run out and
    back). Only for the person's own elements: the other side's stay hidden (CF-HID-3)."""
    name, args = CITYFIGHT_CODEC.decode(action)
    if name not in ("move", "run") or game.active < 0 or game.active_side != game.current_side:
        return None
    start = square = game.element(game.active_side, game.active).square
    for direction in args:
        square = game.board.step(square, direction) if square >= 0 else -1
    if square < 0 or start < 0:
        return None
    return f"{game.action_label(action)} {'back ' if square == start else ''}to {game.name(square)}"


#: CF-HID-3: the other side's elements are hidden, so none of its choices is shown, only what the rules announce
CITYFIGHT_SECRET = frozenset(str(kind) for kind in CityfightDecision)

CITYFIGHT = Pieces(cityfight_render.LEGEND, cityfight_victory, cityfight_score, cityfight_ap, cityfight_to_hit, cityfight_cost,
                   label=cityfight_label, secret_kinds=CITYFIGHT_SECRET)


# Konflikt '47 -----------------------------------------------------------------------------------------------------
def k47_victory(game) -> str:
    s = game.scenario
    return (f"most VP at the end: {s.objective_vp} VP an objective held ({', '.join(s.objectives)}), "
            f"{s.kill_vp} VP an enemy unit destroyed (KC-SCN-9)")


def k47_to_hit(game, action: int) -> str | None:
    """KC-SHOOT-5/6, KC-TAB-2: what each weapon type that can fire at the target needs on a d6, and its chance a shot
    (a 7 is a 6 and then 4+); an indirect weapon's need depends on ranging in and is left out."""
    name, args = K47_CODEC.decode(action)
    if name != "target" or args[1] != 0 or game.decision is None or "uid" not in game.decision[1]:
        return None
    ctx = game.decision[1]
    unit, target = game.units[ctx["uid"]], game.units[args[0]]
    ranges: dict[str, float] = {}
    for _model, weapon, dist, _index in k47_shooting.firing_weapons(game, unit, target, ctx["moved"]):
        if "indirect" not in game.tables.weapons[weapon].rules:
            ranges[weapon] = min(dist, ranges.get(weapon, dist))      # as roll_hits: the nearest model's range
    needs = {w: k47_shooting.need(game, unit, w, target, d, ctx["moved"]) for w, d in ranges.items()}
    return ", ".join(f"{w} {n}+ ({float(k47_shooting.p_hit(n)):.0%})" if n < 8 else f"{w} cannot hit"
                     for w, n in needs.items()) or None


# KC-TURN-9: whether the other side keeps its Down or Ambush die stays hidden until it is used
K47 = Pieces(k47_render.LEGEND, k47_victory, lambda game, side: f"VP A {game.vp[0]} - B {game.vp[1]}", to_hit=k47_to_hit,
             secret_kinds=frozenset({"keep"}))


# Urban War --------------------------------------------------------------------------------------------------------
def urbanwar_victory(game) -> str:
    """UW-WIN-1, and UW-WIN-3 as the scenario's limit_result option sets it."""
    at_limit = ("have removed more of theirs than they of yours" if game.options["limit_result"] == "casualties"
                else "it is a draw")
    return f"remove every enemy model (UW-WIN-1); at the end of turn {game.scenario.turns}, {at_limit} (UW-WIN-3)"


def urbanwar_score(game, side: int) -> str:
    removed = [sum(1 for m in game.models if m.side == s and not m.alive) for s in (0, 1)]
    return f"models removed: yours {removed[side]}, theirs {removed[1 - side]}"


def urbanwar_to_hit(game, action: int) -> str | None:
    """UW-SHOOT-8 (UW-DICE-1): d10 + the modifier, a hit on 10 or more, a natural 10 always and a natural 1 never;
    a target that is not a priority one needs a target check first (UW-SHOOT-5)."""
    name, args = URBANWAR_CODEC.decode(action)
    act = getattr(game, "act", None)
    if name != "shoot" or args[0] == URBANWAR_HOLD or not act or act.get("model", -1) < 0:
        return None
    shooter = game.models[act["model"]]
    target = game.side_models(1 - shooter.side)[args[0]]
    drm = uw_combat.to_hit_modifier(game, shooter, target, moved=act["moved"], panicked=act["panicked"])
    band = uw_geo.band_of(game.tables.bands, shooter.cell, target.cell)
    shots = game.tables.weapons[shooter.profile.ranged].bands[band][1]
    checked = "" if target in uw_activation.priority_targets(game, shooter, uw_activation.legal_targets(game, shooter)) \
        else ", after a target check (UW-SHOOT-5)"
    return f"{shots} d10 {drm:+d}, hits on 10+: {float(p_natural(drm, 10)):.0%} each{checked}"


# UW-HID-2/5: orders are placed face down
URBANWAR = Pieces(urbanwar_render.LEGEND, urbanwar_victory, urbanwar_score, to_hit=urbanwar_to_hit,
                  secret_kinds=frozenset({"order"}))

PIECES = {"rifles-urban": RIFLES, "rifles-darkness": RIFLES, "cityfight": CITYFIGHT, "k47": K47, "urbanwar": URBANWAR}


def pieces(ruleset_name: str) -> Pieces:
    """The pieces of `ruleset_name`, or the contract-only default."""
    return PIECES.get(ruleset_name, Pieces())
