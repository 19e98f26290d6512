"""The scripted Urban War opponent (UW-AI-1..13): reads only its side's view, exact odds, no randomness."""
from __future__ import annotations

import numpy as np

from envs import registry
from envs.engine.d10 import p_command
from envs.engine.derived import BoundedStore
from envs.urbanwar import geometry as geo
from envs.urbanwar.actions import BREAK_OFF, CHARGE, CODEC, DISRUPT, FIGHT, HOLD, INTERCEPT, MOVE_SHOOT, REACH, RUSH
from envs.urbanwar.config import DEPLOY_ROWS

from ..priority import Ablatable, Criterion, Priority

N = geo.N


def first(mask) -> int:
    return int(np.flatnonzero(mask)[0])


def path_cost(view, path) -> int:
    cost = 0
    for a, b in zip(path, path[1:]):
        cost += view.board.cost[b][int(a % N != b % N and a // N != b // N)]
    return cost


#: process-wide (envs.engine.derived.BoundedStore): a board's digest -> `covered_neighbours`, a pure function of the
#: terrain (public), so either side's player may read what the other's filled
COVERED = BoundedStore("urbanwar covered neighbours", 16)


def covered_neighbours(board) -> list[int]:
    """UW-AI-3: per cell, how many of its neighbours give cover (terrain never changes)."""
    return COVERED.get(board.key, _count_covered, board)


def _count_covered(board) -> list[int]:
    return [sum(1 for c, _ in geo.NEIGHBOURS[cell] if board.cover[c]) for cell in range(geo.CELLS)]


def first_covered(board, shooter: int, cells) -> int | None:
    """The first of `cells` where a shot from `shooter` finds cover (UW-COVER-2/3: geo.cover_class != NO_COVER),
    or None; each cell's cover column read as it is reached (the first cells asked usually settle it)."""
    solid, flimsy = board.cover_from(shooter)
    either, sx, sy = solid | flimsy, shooter % N, shooter // N - (N - 1)
    for c in cells:
        if either & geo.cover_column(c % N - sx)[c // N - sy]:
            return c
    return None


#: process-wide: (a board's digest, deploying from the north) -> each deploy action's UW-AI-3 rank (public terrain)
DEPLOY_RANKS = BoundedStore("urbanwar deploy ranks", 32)


def _deploy_ranks(board, north: bool) -> dict[int, int]:
    """UW-AI-3's order of the deploy actions: most covered neighbours, then nearest the centre line, lowest y, x."""
    covered = covered_neighbours(board)
    keys = {}
    for x in range(N):
        for r in range(DEPLOY_ROWS):
            y = r if north else N - 1 - r
            keys[CODEC.encode("deploy", x, r)] = (-covered[y * N + x], abs(x - 23.5), y, x)
    return {a: rank for rank, a in enumerate(sorted(keys, key=keys.__getitem__))}


def place_key(cell: int) -> tuple[int, int]:
    """UW-AI-1 ties: lowest y, then lowest x."""
    return cell // N, cell % N


# The list as an audit sees it (agents/priority.py): every decision is taken by one catalog rule. UW-AI-7..11 are a
# sequence (the first that applies plans a model's action and destination); one may be struck out, the next applying.
DECISION_RULES = {"edge": "UW-AI-3", "deploy_first": "UW-AI-3", "deploy": "UW-AI-3", "order": "UW-AI-4",
                  "initiative": "UW-AI-5", "activate": "UW-AI-6", "shoot": "UW-AI-9", "cc_target": "UW-AI-7",
                  "followup": "UW-AI-12", "react": "UW-AI-13"}
RULE_WORDS = {
    "UW-AI-3": "set-up: opponent deploys first, default edge, deploy where most neighbouring cells give cover",
    "UW-AI-4": "orders: Overwatch for models that cannot strike now but an enemy is near; at most half",
    "UW-AI-5": "initiative: first iff a Snap-fire model can charge or shoot without moving",
    "UW-AI-6": "activate: in contact, else able to charge, else a shooter able to shoot, else any",
    "UW-AI-7": "in contact: break off if panicked or a shooter, else fight the weakest enemy",
    "UW-AI-8": "melee able to charge: charge by the cheapest path",
    "UW-AI-9": "a shooter with a target where it stands shoots at the priority target",
    "UW-AI-10": "else a shooter moves to the best cell to shoot from, and shoots",
    "UW-AI-11": "else Rush toward the closest enemy, keeping cover (panicked: away)",
    "UW-AI-12": "follow-up iff not panicked and it could then fight, charge or shoot",
    "UW-AI-13": "reaction: a melee model's intercept first, else the best disruption shot, if p >= 0.45",
}
SEQUENCE = ("UW-AI-7", "UW-AI-8", "UW-AI-9", "UW-AI-10")         # UW-AI-11 is the catch-all: nothing after it


def _fewest_wounds(view, ctx):
    return lambda e: e.w


def _lowest_toughness(view, ctx):
    return lambda e: e.profile.T


def _roster(view, ctx):
    return lambda e: e.slot


def _intercept_first(view, ctx):
    return lambda option: option[0][0]


def _uncovered_target(view, ctx):
    return lambda option: option[0][1]


def _shorter_band(view, ctx):
    return lambda option: option[0][2]


def _earlier_position(view, ctx):
    return lambda option: option[0][3:]


PRIORITIES = {p.rule: p for p in (
    Priority("UW-AI-7", "cc_target", (Criterion("fewest W left", _fewest_wounds), Criterion("lowest T", _lowest_toughness),
                                      Criterion("roster order", _roster))),
    Priority("UW-AI-13", "react", (Criterion("a melee model's intercept", _intercept_first),
                                   Criterion("target uncovered", _uncovered_target),
                                   Criterion("shorter band", _shorter_band),
                                   Criterion("earlier position, then roster order", _earlier_position))),
)}


class UrbanWarDoctrine(Ablatable):
    name = "scripted"
    needs_observation = False
    RULES = ("UW-AI-3", "UW-AI-4", "UW-AI-5", "UW-AI-6", *SEQUENCE, "UW-AI-11", "UW-AI-12", "UW-AI-13")
    SEQUENCE = SEQUENCE

    def __init__(self, side: int = 0, seed: int | None = 0) -> None:
        self.side = side                              # UW-AI-1: no randomness, the seed is unused
        self._plans_for, self._plans = None, {}
        self.priorities = PRIORITIES

    def act(self, observation, mask, view) -> int:
        kind, ctx = view.decision
        self._rule = DECISION_RULES.get(kind, "UW-AI-1")          # action, dest: the plan's rule (plan)
        choice = getattr(self, f"_{kind}")(view, ctx, mask)
        return self.answered(self._rule, int(choice) if choice is not None and mask[choice] else first(mask), mask)

    def rule_for(self, view) -> str | None:
        return self.last_rule

    def rule_words(self, rule: str) -> str:
        return RULE_WORDS[rule]

    def applies(self, rule: str) -> bool:
        """`rule` of the sequence may decide (not struck out by an audit)."""
        return not self.struck or rule not in self.struck

    # Set-up (UW-AI-3) ---------------------------------------------------------------------------------------------
    def _edge(self, view, ctx, mask):
        return CODEC.encode("edge", ("north", "south").index(view.edges[self.side]))

    def _deploy_first(self, view, ctx, mask):
        return CODEC.encode("deploy_first", 1)

    def _deploy(self, view, ctx, mask):
        north = view.edges[self.side] == "north"
        rank = DEPLOY_RANKS.get((view.board.key, north), _deploy_ranks, view.board, north)
        return min(ctx["legal"], key=rank.__getitem__)          # the keys are distinct: one cell each

    # Orders and initiative (UW-AI-4/5) -------------------------------------------------------------------------------
    def wants_overwatch(self, view, m) -> bool:
        p = m.profile
        if m.panic:
            return False
        foes = view.foes()
        if p.role == "melee":
            if view.destinations(m, CHARGE):
                return False
            reach = 2 * (2 * p.MV + p.CAL)
            return any(geo.within(m.cell, e.cell, reach) for e in foes)
        if view.targets(m):
            return False
        return any(geo.within(m.cell, e.cell, 24) for e in foes)

    def _order(self, view, ctx, mask):
        return CODEC.encode("order", int(ctx["model"] in self.overwatch(view)))

    def overwatch(self, view) -> set[int]:
        """UW-AI-4: the models to put on Overwatch, kept while no model changes (one order asked per model)."""
        plans = self.plans(view)
        if "overwatch" not in plans:
            own = view.own()
            asked = [m for m in own if not view.in_contact(m)]
            wants = [m for m in asked if self.wants_overwatch(view, m)]
            plans["overwatch"] = {m.idx for m in wants[:len(own) // 2]}          # the last in roster order revert
        return plans["overwatch"]

    def can_strike_now(self, view, m) -> bool:
        return view.in_contact(m) or (not m.panic and bool(view.destinations(m, CHARGE))) or bool(view.targets(m))

    def _initiative(self, view, ctx, mask):
        """UW-AI-5: first iff one of its Snap-fire models can charge or shoot without moving."""
        snap = [m for m in view.own() if not m.activated and view.order(m) == 0]
        return CODEC.encode("initiative", 0 if any(self.can_strike_now(view, m) for m in snap) else 1)

    # Activation and actions (UW-AI-6..11) ------------------------------------------------------------------------------
    def _activate(self, view, ctx, mask):
        models = [m for m in view.own() if mask[CODEC.encode("activate", m.slot)]]
        for test in (lambda m: view.in_contact(m),
                     lambda m: not m.panic and m.profile.role == "melee" and bool(view.destinations(m, CHARGE)),
                     lambda m: m.profile.role == "shooter" and bool(view.targets(m)),
                     lambda m: True):
            for m in models:
                if test(m):
                    return CODEC.encode("activate", m.slot)
        return None

    def plan(self, view, m, panicked: bool, mask=None):
        """(action kind, destination cell or None) of UW-AI-7..11, kept while no model changes: the action and the
        destination decisions of one action ask for the same plan, which weighs every reachable cell."""
        plans = self.plans(view)
        key = (m.idx, panicked)
        if key not in plans:
            plans[key] = self.first_rule(view, m, panicked)
        kind, cell, self._rule = plans[key]
        return kind, cell

    def plans(self, view) -> dict:
        """What this player worked out for the position as it stands, dropped when a model changes: when the game's
        list of the models' shown changes (view.model_changes, which only grows) is another or has grown. The plans
        read only those fields (cells, wounds, panic) and the profiles, which play never changes."""
        changes = view.model_changes
        if self._plans_for is None or self._plans_for[0] is not changes or self._plans_for[1] != len(changes):
            self._plans_for, self._plans = (changes, len(changes)), {}
        return self._plans

    def first_rule(self, view, m, panicked: bool):
        """`plan` worked out, with the rule that made it."""
        if view.in_contact(m) and self.applies("UW-AI-7"):
            return (BREAK_OFF if panicked or m.profile.role == "shooter" else FIGHT), None, "UW-AI-7"
        if m.profile.role == "melee" and not panicked and self.applies("UW-AI-8"):
            dests = view.destinations(m, CHARGE)
            if dests:                                                                             # UW-AI-8
                foes, touching = view.foes(), view.touching(m.side)
                def key(cell):          # the fewest W left of the enemies the cell touches (the weakest's, by W)
                    bits = touching[cell]
                    return (dests[cell], min(e.w for e in foes if bits >> e.idx & 1)) + place_key(cell)
                return CHARGE, min(dests, key=key), "UW-AI-8"
        if view.targets(m) and self.applies("UW-AI-9"):
            return MOVE_SHOOT, m.cell, "UW-AI-9"                                                  # UW-AI-9
        if m.profile.role == "shooter" and not panicked and self.applies("UW-AI-10"):            # UW-AI-10
            dests = view.destinations(m, MOVE_SHOOT)
            best = None
            # view.priority's free targets (UW-SHOOT-4: in contact with none of the shooter's side, wherever it
            # stands) worked out once; the closest of them, else of all targets, is its priority target's choice
            free = {e.idx: not view.in_contact(e) for e in view.foes()}
            for (cell, cost), targets in zip(dests.items(), view.targets_from(m, list(dests))):
                if not targets:
                    continue
                t = min([e for e in targets if free[e.idx]] or targets, key=lambda e: (geo.d2(cell, e.cell), e.slot))
                band = geo.band_of(view.tables.bands, cell, t.cell)
                key = (view.cover(cell, t.cell) != 0, view.cover(t.cell, cell) == 0, band, cost) \
                    + place_key(cell)
                if best is None or key < best[0]:
                    best = (key, cell)
            if best:
                return MOVE_SHOOT, best[1], "UW-AI-10"
        dests = view.destinations(m, RUSH)                                                        # UW-AI-11
        foes = view.foes()
        if not foes:
            return RUSH, m.cell, "UW-AI-11"
        enemy = min(foes, key=lambda e: (geo.d2(m.cell, e.cell), e.side, e.slot))
        # the best cell with cover from the enemy, else the best of all: the cells in the order of the key
        # (+-d2, place_key(c)), as one integer (place_key orders cells as their index does, 0 <= c < CELLS)
        cells = np.fromiter(dests, np.int64, len(dests))
        sign = -1 if panicked else 1
        keys = sign * ((cells % N - enemy.cell % N) ** 2 + (cells // N - enemy.cell // N) ** 2) * geo.CELLS + cells
        ranked = (np.sort(keys) % geo.CELLS).tolist()
        best = first_covered(view.board, enemy.cell, ranked)
        return RUSH, ranked[0] if best is None else best, "UW-AI-11"

    def acting(self, view):
        act = view.act
        return view.models[act["model"]], act

    def _action(self, view, ctx, mask):
        m, act = self.acting(view)
        kind, _ = self.plan(view, m, act["panicked"])
        return CODEC.encode("action", kind)

    def _dest(self, view, ctx, mask):
        m, act = self.acting(view)
        kind, cell = self.plan(view, m, act["panicked"])
        if kind != ctx["move"] or cell is None:
            cell = None
            if ctx["move"] == BREAK_OFF:    # away from the enemies: the legal cell farthest from the nearest one
                foes = view.foes()
                dests = view.destinations(m, BREAK_OFF)
                cell = max(dests, key=lambda c: (min(geo.d2(c, e.cell) for e in foes), -c)) if dests and foes else None
            if cell is None:
                return None
        return CODEC.encode("dest", cell % N - m.cell % N + REACH, cell // N - m.cell // N + REACH)

    def _shoot(self, view, ctx, mask):
        """UW-AI-9: the priority target; another one only if the priority has cover, it has none and p >= 0.5."""
        m, act = self.acting(view)
        targets = view.targets(m)
        priority = view.priority(m, targets)
        if priority:
            p = min(priority, key=lambda e: (geo.d2(m.cell, e.cell), e.slot))
            if view.cover(m.cell, p.cell):
                others = [e for e in targets if e not in priority and not view.cover(m.cell, e.cell)]
                if others and p_command(view.check_bonus(m, 2)) >= 0.5:
                    return CODEC.encode("shoot", min(others, key=lambda e: (geo.d2(m.cell, e.cell), e.slot)).slot)
            return CODEC.encode("shoot", p.slot)
        if targets and p_command(view.check_bonus(m)) >= 0.5:
            return CODEC.encode("shoot", min(targets, key=lambda e: (geo.d2(m.cell, e.cell), e.slot)).slot)
        return CODEC.encode("shoot", HOLD)

    def _cc_target(self, view, ctx, mask):
        m, _ = self.acting(view)
        foes = sorted(view.enemies_in_contact(m), key=lambda e: e.slot)
        return CODEC.encode("cc_target", self.priorities["UW-AI-7"].choose(foes, view, ctx).slot)   # UW-AI-7

    def _followup(self, view, ctx, mask):
        """UW-AI-12: iff not panicked and it could then fight, charge or shoot without moving."""
        m = view.models[ctx["model"]]
        return CODEC.encode("followup", int(not m.panic and self.can_strike_now(view, m)))

    def _react(self, view, ctx, mask):
        """UW-AI-13: options with p >= 0.45; a melee model's intercept first, else the best disruption shot."""
        act = view.act
        actor = view.models[act["model"]]
        path = act["path"]
        options = []                                # (key, action): the catalog's order is the key's
        for a in np.flatnonzero(mask).tolist():
            name, args = CODEC.decode(a)
            if name != "react":
                continue
            slot, kind, pos = args
            r = [m for m in view.models if m.side == self.side][slot]
            cell = path[pos] if ctx["stage"] == 1 else actor.cell
            extra = 0
            band = geo.band_of(view.tables.bands, r.cell, cell)
            if kind == DISRUPT:
                extra = view.tables.bands[band - 1].disruption
            if p_command(view.check_bonus(r, extra)) < 0.45:
                continue
            if kind == INTERCEPT:
                if r.profile.role != "melee":
                    continue
                key = (0, 0, 0, pos, r.slot)
            else:
                key = (1, view.cover(r.cell, cell) != 0, band, pos, r.slot)
            options.append((key, a))
        if not options:
            return CODEC.encode("react_none")
        return self.priorities["UW-AI-13"].choose(sorted(options), view, ctx)[1]


registry.register_agent("scripted", UrbanWarDoctrine, rulesets=("urbanwar",))
