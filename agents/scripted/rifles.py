"""Rifles scripted policies: the enemy automaton (rules catalog §13) and a heuristic player.

Both read only their side's view (envs.rifles.views.SideView) and the legal mask; any randomness
comes from the seeded generator they are given.
"""
from __future__ import annotations

import numpy as np

from envs import registry
from envs.rifles.actions import CODEC
from envs.rifles.enemy import ORDER_NAMES

from ..priority import Ablatable, Ablation, Criterion, Priority

ENEMY_SIDE = 1
# The player's actions by their arguments (CODEC.table): looked up at every decision
ACTIVATE, MOVE, FIRE, CLOSE_COMBAT, RALLY = (CODEC.table(f) for f in ("activate", "move", "fire", "close_combat", "rally"))
# The automaton's answers likewise (CODEC.encode checks its arguments: more than the answer costs)
E_ACTIVATE, E_ORDER, E_PLACE, E_LEVEL, E_TARGET, E_ADVANCE, E_FREE_ATTACKER, E_FAST = (
    CODEC.table(f) for f in ("e_activate", "e_order", "e_place", "e_level", "e_target", "e_advance", "e_free_attacker",
                             "e_fast"))
E_YES, RUBBLE_PAY, END_PHASE, END_ACTIVATION, EXIT = (
    CODEC.encode(f) for f in ("e_yes", "rubble_pay", "end_phase", "end_activation", "exit"))
DEMO_OPTIONS = [CODEC.encode("demo_retry")] + [CODEC.encode("demo_place", p, m) for p in range(4) for m in (1, 0)]


# RB-AI-2, RB-AI-5, RB-AI-6, RB-AI-10, RB-AI-11 as ranked lists (agents/priority.py), so an audit can change them.
def _engaged_first(view, ctx):
    return lambda g: not g.engaged


def _nearest_visible_player(view, ctx):
    foes = view.foe_groups()      # once per decision, not once per group
    return lambda g: nearest_distance(view, g, foes)


def _lower_stripe(view, ctx):
    return lambda g: g.stripe


def _lower_id(view, ctx):
    return lambda g: g.gid


def _terrain_priority(view, ctx):
    return lambda place: view.priority_rank(ctx["stripe"], place)


def _lower_place(view, ctx):
    return lambda place: place


def _nearest_target(view, ctx):
    me = view.group(1, ctx["group"])
    return lambda t: view.distance(me, t)


def _lowest_tn(view, ctx):
    me, units = view.group(1, ctx["group"]), ctx.get("units")      # RB-AI-8: only the units named in ctx fire
    return lambda t: best_tn(view, me, t, units)


def _fewest_units(view, ctx):
    return lambda t: len(t.units)


def _nearest_to_mover(view, ctx):
    mover = view.group(0, ctx["target"])
    return lambda g: view.distance(g, mover)


PRIORITIES = {p.rule: p for p in (
    Priority("RB-AI-2", "activate", (Criterion("Engaged first", _engaged_first),
                                     Criterion("nearest to a visible player group", _nearest_visible_player),
                                     Criterion("lower Stripe", _lower_stripe), Criterion("lower ID", _lower_id))),
    Priority("RB-AI-5", "place", (Criterion("terrain priority", _terrain_priority), Criterion("lower ID", _lower_place))),
    Priority("RB-AI-6", "target", (Criterion("nearest", _nearest_target), Criterion("lowest TN", _lowest_tn),
                                   Criterion("lower ID", _lower_id))),
    Priority("RB-AI-10", "target", (Criterion("fewest units", _fewest_units), Criterion("lower ID", _lower_id))),
    Priority("RB-AI-11", "free_attacker", (Criterion("nearest with the mover in range", _nearest_to_mover),
                                           Criterion("lower ID", _lower_id))),
)}

# The rules list these rankings' options already in the catalog's order, each sorted by its rule's whole key
# (enemy.enemy_next by RB-AI-2's activation_key; enemy.targets by RB-AI-6's range, TN and ID; enemy.cc_targets and
# darkness.attack_targets by RB-AI-10's units and ID; movement.opportunity_firers by RB-AI-11's range and ID): the
# catalog's list chooses the first option, and only a list an audit changed ranks them again
# (tests/rifles/test_fast_paths.py checks the first is the ranking's choice at every such decision of seeded games).
LISTED_IN_ORDER = ("RB-AI-2", "RB-AI-6", "RB-AI-10", "RB-AI-11")

# The rule that governs each decision the automaton is asked (a target is RB-AI-10's in close combat).
DECISION_RULES = {"activate": "RB-AI-2", "order": "RB-AI-4", "place": "RB-AI-5", "level": "RU-AI-2", "target": "RB-AI-6",
                  "advance": "RB-AI-9", "fast": "RD-AI-1", "move_up": "RU-AI-3", "through_complex": "RU-AI-4",
                  "free_attacker": "RB-AI-11"}


class RollsLater:
    """An agent whose generator is made from its seed at its first use: most games never use it (the automaton rolls
    only for the RB-AI-1 order choice and RU-AI-2's floor), and making a numpy Generator costs more than a decision.
    Assigning `rng` (envs.gym_env.reseed) replaces it."""

    _rng = None

    @property
    def rng(self) -> np.random.Generator:
        if self._rng is None:
            self._rng = np.random.default_rng(self._seed)
        return self._rng

    @rng.setter
    def rng(self, generator: np.random.Generator) -> None:
        self._rng = generator


class ScriptedEnemy(RollsLater, Ablatable):
    """The enemy automaton: RB-AI-2..11, RU-AI-1..5 (and RD-AI-1/2 in the Darkness) as choices among the legal answers."""

    name = "scripted"
    needs_observation = False
    RULES = (*DECISION_RULES.values(), "RB-AI-10")

    def __init__(self, side: int = ENEMY_SIDE, seed: int | None = 0) -> None:
        self.side, self._seed = side, seed
        self.priorities = PRIORITIES

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.METHODS = decision_methods(cls)         # a subclass's own methods where it has them (DistilledEnemy)

    def act(self, observation, mask, view) -> int:
        kind, ctx = view.decision
        if self.is_off(rule_of(kind, ctx)):
            return self.random_legal(mask)
        return self.METHODS[kind](self, view, ctx)

    def as_listed(self, rule: str) -> bool:
        """True when `rule` ranks as the catalog has it, so the first of the options the rules list is its choice
        (LISTED_IN_ORDER); False once an audit changed it."""
        return self.priorities[rule] is PRIORITIES[rule]

    def rule_for(self, view) -> str:
        return rule_of(*view.decision)

    def _activate(self, view, ctx) -> int:
        """RB-AI-2: Engaged first, then nearest to a visible player group, lower Stripe, lower ID."""
        if self.as_listed("RB-AI-2"):
            return E_ACTIVATE[ctx["options"][0]]
        groups = [view.group(1, slot) for slot in ctx["options"]]
        best = self.priorities["RB-AI-2"].choose(groups, view, ctx)
        return E_ACTIVATE[best.gid]

    def _order(self, view, ctx) -> int:
        """RB-AI-4 (RD-AI-2 in the Darkness) under RB-AI-1: the automaton still rolls the order, with its own die."""
        table, posture = view.order_table()
        total = int(self.rng.integers(1, 7)) + posture
        order = next(o for top, o in table if total <= top)
        return E_ORDER[ORDER_NAMES.index(order)]

    def _place(self, view, ctx) -> int:
        """RB-AI-5: terrain priority (complex, MS, Building, Rubble, Wall, Woods), ties lower ID, else Open."""
        best = self.priorities["RB-AI-5"].choose(ctx["options"], view, ctx)
        return E_PLACE[best]

    def _level(self, view, ctx) -> int:
        """RU-AI-2 under RB-AI-1: First Floor on the automaton's own d6 of 4+."""
        up = int(self.rng.integers(1, 7)) >= view.tables.ms_first_floor_from
        return E_LEVEL[int(up) if mask_allows_first(view, ctx) else 0]

    def _target(self, view, ctx) -> int:
        """RB-AI-6 for fire (nearest, lowest TN, lower ID); RB-AI-10 for close combat (fewest units, lower ID; the
        Darkness attack of RD-AI-1 too, its options holding only the nearest ring, range 0 before range 1)."""
        rule = rule_of("target", ctx)
        if self.as_listed(rule):
            return E_TARGET[ctx["options"][0]]
        targets = [view.group(0, slot) for slot in ctx["options"]]
        best = self.priorities[rule].choose(targets, view, ctx)
        return E_TARGET[best.gid]

    def _advance(self, view, ctx) -> int:
        """RB-AI-9: one Stripe toward the nearest visible player group (none: toward Stripe 1); stay if it shares ours."""
        me = view.group(1, ctx["group"])
        _, target = nearest(view, me)
        if target is None:
            wanted = -1
        else:
            wanted = (target.stripe > me.stripe) - (target.stripe < me.stripe)
        delta = wanted if wanted in ctx["options"] else 0
        return E_ADVANCE[delta + 1]

    def _fast(self, view, ctx) -> int:
        """RD-AI-1: a Fast group makes Fast attacks rather than fight."""
        return E_FAST[1]

    def _move_up(self, view, ctx) -> int:
        return E_YES                                    # RU-AI-3

    def _through_complex(self, view, ctx) -> int:
        return E_YES                                    # RU-AI-4

    def _free_attacker(self, view, ctx) -> int:
        """RB-AI-11: the nearest group with the mover in range, ties lower ID."""
        if self.as_listed("RB-AI-11"):
            return E_FREE_ATTACKER[ctx["options"][0]]
        options = [view.group(1, s) for s in ctx["options"]]
        return E_FREE_ATTACKER[self.priorities["RB-AI-11"].choose(options, view, ctx).gid]


def decision_methods(cls) -> dict:
    """Each decision's method of an automaton class, looked up once when the class is made (not by name at every
    decision); the table is never changed after."""
    return {kind: getattr(cls, f"_{kind}") for kind in DECISION_RULES}


ScriptedEnemy.METHODS = decision_methods(ScriptedEnemy)


def rule_of(kind: str, ctx) -> str:
    """The rule that decides `kind` (RB-AI-10 for a close-combat target)."""
    if kind == "target" and ctx["mode"] == "close_combat":
        return "RB-AI-10"
    return DECISION_RULES[kind]


def nearest(view, group):
    """(distance, group) of the nearest visible player group (ties lower ID); (99, None) if none."""
    foes = view.foe_groups()
    if not foes:
        return 99, None
    best = min(foes, key=lambda p: (view.distance(group, p), p.gid))
    return view.distance(group, best), best


def nearest_distance(view, group, foes) -> int:
    """The range to the nearest of `foes` (nearest's distance, for foes fetched once), 99 if none."""
    return min((view.distance(group, p) for p in foes), default=99)


def best_tn(view, firer, target, units=None) -> int:
    """The lowest TN among the firer's shooters (only the units named, when given), 7 when none can fire."""
    return view.lowest_tn(firer, target, units, default=7)


def mask_allows_first(view, ctx) -> bool:
    me = view.group(1, ctx["group"])
    return not any(p.stripe == me.stripe and p.place == me.place and p.level == 1 for p in view.foe_groups())


class ScriptedPlayer(RollsLater, Ablatable):
    """A sensible player: rally the shaken, shoot the best target, blow the strongpoint, push for the objective.

    Not a catalog list: our own heuristic, as a list of steps tried in order for the active group, the first that
    has a legal action deciding. An audit may strike a step out (`off`) or move it one step down (`lower`)."""

    name = "scripted"
    needs_observation = False
    STEPS = {"fight": "fight when Engaged", "rally": "rally when half the group is Suppressed",
             "demolish": "place or retry a demolition charge", "fire": "fire at the best target",
             "assault": "assault a weaker group", "advance": "advance toward the objective"}
    RULES = tuple(STEPS)

    def __init__(self, side: int = 0, seed: int | None = 0) -> None:
        self.side, self._seed = side, seed
        self.priorities, self.steps, self.last_step = {}, list(self.STEPS), None

    def act(self, observation, mask, view) -> int:
        self.last_step = None
        if view.decision_kind == "rubble_cost":
            return RUBBLE_PAY
        g = view.active
        if g is None:
            return self._activate(view, mask) or END_PHASE
        for step in self.steps:
            action = STEP_METHODS[step](self, view, mask, g)
            if action is not None:
                self.last_step = step
                return action
        return END_ACTIVATION

    def rule_for(self, view) -> str | None:
        """The step that took the last decision (None: activation, end of activation, rubble cost)."""
        return self.last_step

    def ablation_plan(self) -> list[Ablation]:
        return [*(Ablation("off", s) for s in self.steps), *(Ablation("lower", s) for s in self.steps[:-1])]

    def ablate(self, ablation: Ablation, seed: int | None = 0):
        if ablation.rule not in self.steps or ablation.kind == "drop":
            raise ValueError(f"ScriptedPlayer's steps are {', '.join(self.steps)} (off or lower); got {ablation}")
        i = self.steps.index(ablation.rule)
        if ablation.kind == "off":
            del self.steps[i]
        elif i + 1 < len(self.steps):
            self.steps[i], self.steps[i + 1] = self.steps[i + 1], self.steps[i]
        return self

    def rule_words(self, rule: str) -> str:
        return self.STEPS[rule]

    def describe(self, ablation: Ablation) -> str:
        words = f"'{self.STEPS[ablation.rule]}'"
        return f"{words} struck out" if ablation.kind == "off" else f"{words} moved one step down"

    def _activate(self, view, mask):
        order = sorted(view.own_groups(), key=lambda g: (not g.engaged, -len(g.ok_units()), g.gid))
        return first_legal(mask, [ACTIVATE[g.gid] for g in order])

    # Each step is asked for the active group `g`
    def _fight(self, view, mask, g):
        if g.engaged:
            return first_legal(mask, [CLOSE_COMBAT[g.engaged_with][0]])
        return None

    def _rally(self, view, mask, g):
        if 2 * sum(1 for u in g.units if u.suppressed) >= len(g.units):
            return first_legal(mask, [RALLY[1], RALLY[0]])
        return None

    def _demolish(self, view, mask, g):
        if g.demo_charges <= 0 and not view.demolition_pending(g):     # no demolition action can be legal (RU-DC-1)
            return None
        return first_legal(mask, DEMO_OPTIONS)

    def _fire(self, view, mask, g):
        # Only targets it may fire at are ranked: working out a TN costs more than the rest of the decision.
        targets = [e for e in view.foe_groups() if mask[FIRE[e.gid][1]] or mask[FIRE[e.gid][0]]]
        if not targets:
            return None
        if len(targets) > 1:                              # a lone target needs no TN
            targets.sort(key=lambda e: (view.lowest_tn(g, e), -len(e.units), e.gid))
        return first_legal(mask, [FIRE[e.gid][b] for e in targets for b in (1, 0)])

    def _assault(self, view, mask, g):
        ok = len(g.ok_units())                            # once, not once per enemy group
        return first_legal(mask, [CLOSE_COMBAT[e.gid][b] for e in view.foe_groups() if len(e.units) < ok for b in (1, 0)])

    def _advance(self, view, mask, g):
        """Toward the objective, into the best cover of the next Stripe; into the objective once beside it."""
        victory = view.scenario.victory
        if victory["kind"] != "hold":
            return first_legal(mask, [EXIT]) or self._step(view, mask, g, min(6, g.stripe + 1))
        objective = view.feature(victory["objective"])
        if g.stripe == objective.stripe:
            if g.place == objective.place:
                return None
            return first_legal(mask, [MOVE[g.stripe - 1][objective.place][0]])
        return self._step(view, mask, g, g.stripe + (1 if objective.stripe > g.stripe else -1))

    def _step(self, view, mask, g, stripe: int):
        # The features of the Stripe by cover, best first, then the Open (place 0, view.kind_at's "open", which ranks
        # below every feature kind), read from the features themselves: asked at most decisions of an advancing group
        features = view.places[stripe]
        ranked = sorted(range(1, len(features)), key=lambda p: COVER_RANK[features[p].kind])   # stable: ties by place
        ranked.append(0)
        moves = MOVE[stripe - 1]
        if view.marker_on(stripe):
            return first_legal(mask, [moves[p][r] for p in ranked for r in (1, 0)])
        return first_legal(mask, [moves[p][0] for p in ranked])


#: each step's method, looked up once (not by name at every decision)
STEP_METHODS = {step: getattr(ScriptedPlayer, f"_{step}") for step in ScriptedPlayer.STEPS}


COVER_ORDER = ("ms", "building", "rubble", "wall", "woods", "open")      # the player's cover, best first
COVER_RANK = {kind: rank for rank, kind in enumerate(COVER_ORDER)}


def first_legal(mask, actions):
    for action in actions:
        if mask[action]:
            return action
    return None


def scripted(side: int, seed: int = 0):
    """The scripted agent of `side`: the player heuristic (side 0) or the enemy automaton (side 1)."""
    return ScriptedPlayer(side, seed) if side == 0 else ScriptedEnemy(side, seed)


registry.register_agent("scripted", scripted, rulesets=("rifles-urban", "rifles-darkness"))
