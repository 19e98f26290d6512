"""Cityfight scripted doctrine (rules catalog §3, CF-BOT-1..13) for either side, and the agent factories.

CF-BOT-1: it reads only its side's view (envs.cityfight.views.SideView: own elements, own knowledge, public
state) and the legal mask, so hidden enemy state cannot change its choice; it makes no rolls; ties go to the
lowest element ID, then the square (or MSq) in reading order.

Each decision is answered from a `Picture` of the view (contacts, objectives, walking costs). An element's
`Plan` is the CF-BOT rule that applies to it and that rule's wanted actions, best first; the first legal one
is played, and an element with no wanted legal action is not activated (CF-BOT-13: Out when none has one).

Played as written: CF-BOT-1..5, 7, 10..13 and the defender's CF-BOT-6. Readings where the catalog leaves room:
  * CF-BOT-3: the leader activates last of all; CF-BOT-6: the contact engaged is the nearest, then reading order;
    CF-ACT-12: it joins a search of an MSq holding a contact (its IFA follows), else declines; CF-SRCH-7: N in full.
  * Special weapons (CF-BOT-6, both sides): only at a building square its best effect roll can kill in
    (6 + FS reaches the K of its cover, CF-HE-6), with no own element in or next to it (CF-HE-8 blast).
  * The attacker's CF-BOT-6/8/9 are refined, as read literally they froze it: any contact in range (up to 80
    squares) and LOS stopped an element to fire (CF-ACT-9), and searching every MSq nearer the objective
    halved its pace, so it hardly ever left its start line (see `attacker_rules`):
      - CF-BOT-6 covers the special weapon at a contact on an objective; the goal objective when it is a contact
        within 2 squares; and, for an element with no step nearer its goal, contacts within 2 squares (the
        first FS band, CF-FIRE-5). Other contacts do not stop the advance.
      - CF-BOT-8 searches the MSq of its goal objective (the MSq nearest it) when unsearched this turn or last;
        walking costs count a diagonal step as 3 and an orthogonal one as 2 (CF-MOVE-1: one diagonal a turn);
        an element that alone holds an objective keeps it; a contact on the goal next to it is assaulted (the
        step in) once an own element within 2 squares of it has fired this turn, when the element cannot fire
        at it, or in the last turn.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from envs import registry
from envs.cityfight.actions import CODEC, OFF
from envs.cityfight.config import OPEN
from envs.cityfight.knowledge import EMPTY, OCCUPIED
from envs.cityfight.state import ATTACKER
from envs.engine.derived import PREFIX, BoundedStore, remember, unchanged_since

from ..priority import Ablatable, Criterion, Priority

PASS, OUT = OFF["pass"], OFF["out"]
ONLY_PASS = {PASS}               # an act mask with nothing but Pass, as Picture.known_acts reads it
KINETIC, SPECIAL = 0, 1          # overwatch fire weapons (CF-OW-4)
FAR = 10 ** 6
CLOSE = 2                        # CF-FIRE-5: the first range band
ORTHOGONAL, DIAGONAL = 2, 3      # walking costs: one diagonal step a turn (CF-MOVE-1)
RANK = {"CF-BOT-4": 0, "CF-BOT-6": 1}   # CF-BOT-3: Engaged elements first, then those engaging a contact
REPORTED = PREFIX + "reported"   # the doctrine's own derived value (envs.engine.derived): its side's recent reports
#: Walking costs, process-wide (envs.engine.derived.BoundedStore): (board, doorways, goal, avoid) -> cost per square.
#: A pure function of its key: the links are the terrain's steps (movement.step_table, itself by board and doorways),
#: CF-BOT-1 lets the doctrine read only public terrain, and boards are shared per map (board.board_for), so any
#: doctrine of either side, in any game on the same map and doorways, asks and fills the same entries.
WALKS = BoundedStore("cityfight walking costs", 20_000)


# The list as an audit sees it (agents/priority.py): every decision is taken by one catalog rule. An element's plan is
# the first rule of its side's sequence that wants a legal action (attacker: CF-BOT-4, 12, 6, 8, 9; defender: CF-BOT-4,
# 10, 6, 11); a rule of it may be struck out, the next applying. CF-BOT-3 orders the activations, CF-BOT-13 is Out.
DECISION_RULES = {"dice": "CF-BOT-7", "join": "CF-BOT-6", "announce": "CF-SRCH-7", "return_fire": "CF-BOT-5",
                  "overwatch_fire": "CF-BOT-5", "ifa": "CF-BOT-6"}
RULE_WORDS = {
    "CF-BOT-3": "activation order: Engaged, then a contact in range and LOS, then nearest an objective; leader last",
    "CF-BOT-4": "an Engaged element fires into its own square, else passes",
    "CF-BOT-5": "always return fire and take overwatch fire (special weapon on a building square)",
    "CF-BOT-6": "a contact in range and LOS: search its MegaSquare and fire at the spotted square, else fire unspotted",
    "CF-BOT-7": "unspotted kinetic fire: 1 die with an MG, else 2",
    "CF-BOT-8": "attacker: search ahead, then move on a shortest path to the nearest uncontrolled objective",
    "CF-BOT-9": "attacker leader: to a suppressed friend within 1 MegaSquare, else as CF-BOT-8 avoiding the Open",
    "CF-BOT-10": "defender, first activation: an MG element takes Overwatch on an unwatched chokepoint",
    "CF-BOT-11": "defender, no contact: search towards the attacker's edge; fill an empty objective; else pass",
    "CF-BOT-12": "attacker UGL element smokes the first Open square of its path in sight of a contact",
    "CF-BOT-13": "declare Out when no element has an action under these rules",
    "CF-SRCH-7": "announce a search's number in full",
}
ATTACKER_SEQUENCE = ("CF-BOT-4", "CF-BOT-12", "CF-BOT-6", "CF-BOT-8", "CF-BOT-9")
DEFENDER_SEQUENCE = ("CF-BOT-4", "CF-BOT-10", "CF-BOT-6", "CF-BOT-11")


def _lowest_cover(view, ctx):
    return lambda s: view.cover(s)


def _nearest_to_firer(view, ctx):
    square = view.element(ctx["element"]).square
    return lambda s: int(view.board.range[square][s])


def _reading_order(view, ctx):
    return lambda s: s


PRIORITIES = {p.rule: p for p in (
    Priority("CF-BOT-6", "ifa", (Criterion("lowest cover", _lowest_cover), Criterion("nearest", _nearest_to_firer),
                                 Criterion("reading order", _reading_order))),
)}


@dataclass
class Plan:
    """What one element wants: the CF-BOT rule that decided and its actions, best first."""

    rule: str
    actions: list = field(default_factory=list)


class once:  # noqa: N801 (used as a decorator, like property)
    """A property worked out on first reading and then kept in the instance (functools.cached_property without its
    lock, which in Python 3.11 cost more than most of the facts it kept)."""

    def __init__(self, compute) -> None:
        self.compute, self.name = compute, compute.__name__

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.compute(instance)   # the instance's entry now shadows this
        return value


@dataclass
class Planned:
    """The plan of the element the doctrine has just activated, made at the activate decision. It stands for the
    element's first act decision: answering the activation (CF-TURN-4) changes only the element's activated flag,
    whose activation it is and the enemy's count of activations (CF-HID-4), none of which a plan reads (CF-BOT-10
    counts the element's own activation either way), and the act mask's actions are those the plan was filtered
    by (act_set: the same families, without the runs a plan never wants)."""

    view: object
    slot: int
    plan: Plan

    def holds_for(self, view, slot: int) -> bool:
        """`view` is the act decision right after that activation: the same game, element and no AP spent yet."""
        return slot == self.slot and view.same_game(self.view) and view.element(slot).ap_spent == 0


class Picture:
    """The side's view at one decision and the facts the doctrine derives from it (each computed once)."""

    def __init__(self, doctrine: CityfightDoctrine, view) -> None:
        self.doctrine, self.view, self.side = doctrine, view, view.side
        self.board, self.turn = view.board, view.turn
        doctrine.sync(view)
        self._acts: dict = {}
        self._goals: dict = {}
        self._objective_distances: dict = {}
        self._targets: dict = {}
        self._target_ranges: dict = {}

    # The facts below are worked out when first asked: a reaction (dice, join, return fire...) asks one or none.
    @once
    def own(self) -> list:
        return self.view.own_elements()

    @once
    def engaged(self) -> set[int]:
        return self.view.engaged_squares()

    @once
    def own_squares(self) -> set[int]:
        return {e.square for e in self.own}

    @once
    def objectives(self) -> list[int]:
        return self.doctrine.objectives(self.view)

    @once
    def markers(self) -> list[int]:
        """The enemy's public OVERWATCH markers, in reading order."""
        return sorted(self.view.overwatch_markers(1 - self.side))

    @once
    def own_markers(self) -> set[int]:
        return set(self.view.overwatch_markers(self.side))

    @once
    def activations_taken(self) -> int:
        """The side's activations in this Action Phase (CF-BOT-10 asks it of every MG element)."""
        return self.view.activations_taken()

    @once
    def contacts(self) -> list[int]:
        """CF-BOT-2: squares seen occupied this turn or last (declared, revealed, fire origins, overwatch reports,
        Engaged, return fire all land in Knowledge.occupied), dropped once a later search declared them empty;
        Engaged squares always; never a square only own elements hold. Reading order."""
        found = set(self.engaged)
        own = self.own_squares
        found.update(s for s in self.doctrine.reported(self.view) if s not in own)
        return sorted(found)

    @once
    def contact_msqs(self) -> set[int]:
        return {self.board.msq[c] for c in self.contacts}

    # Queries ------------------------------------------------------------------------------------------------
    def acts(self, e):
        """The actions own element `e` may take now, for `in` (its act mask without runs: the doctrine steps)."""
        if e.slot not in self._acts:
            self._acts[e.slot] = self.view.act_set(e)
        return self._acts[e.slot]

    def may_aim(self, e, family: str, square: int) -> bool:
        """`e` may take the `family` action (fire, special, overwatch) at `square` now."""
        acts = self.acts(e)
        if isinstance(acts, set):                             # read from the act mask
            return self.square_action(family, square) in acts
        return bool(acts.squares(family)[square])

    def known_acts(self, slot: int, mask) -> None:
        """The actions of own element `slot` are the legal mask's (its act decision): acts() reads them."""
        self._acts[slot] = set(mask.nonzero()[0].tolist())   # flatnonzero of a 1-D mask, without its numpy wrappers

    def targets(self, e) -> list[int]:
        """The contacts own element `e` may fire at now (kinetic or special), nearest first, then reading order;
        worked out once per element, as several CF-BOT rules ask it with different ranges."""
        if e.slot not in self._targets:
            if not self.contacts:                             # the families are built only when asked about
                self._targets[e.slot] = []
                return []
            acts, near = self.acts(e), self.board.range[e.square]
            if isinstance(acts, set):                         # read from the act mask
                code, at_fire, at_special = self.board.code, OFF["fire"], OFF["special"]
                found = [c for c in self.contacts if at_fire + code[c] in acts or at_special + code[c] in acts]
            else:                                             # the squares themselves: no action set built
                fire, special = acts.squares("fire"), acts.squares("special")
                found = [c for c in self.contacts if fire[c] or special[c]]
            # by range, then reading order: one item at a time, as an element sees a few contacts at most
            ranked = sorted([(int(near[c]), c) for c in found])
            self._targets[e.slot] = [c for _, c in ranked]
            self._target_ranges[e.slot] = [r for r, _ in ranked]
        return self._targets[e.slot]

    def targets_within(self, e, within: int) -> list[int]:
        """targets(e) at most `within` squares away."""
        targets = self.targets(e)
        return [c for c, r in zip(targets, self._target_ranges.get(e.slot, ()), strict=False) if r <= within]

    def walk(self, goal: int, avoid: tuple = ()) -> list[int]:
        return self.doctrine.walk(self.board, goal, avoid)

    def controls(self, square: int) -> bool:
        """CF-VIC-1 as the side sees it: an own element there and the square not Engaged."""
        return square in self.own_squares and square not in self.engaged

    @once
    def uncontrolled(self) -> list[int]:
        """The objectives the side does not control (CF-VIC-1 as it sees it), in list order."""
        return [g for g in self.objectives if not self.controls(g)]

    def goal(self, e) -> int | None:
        """CF-BOT-8: the nearest uncontrolled objective by walking cost (ties: reading order)."""
        if e.slot not in self._goals:
            square = e.square
            reachable = [(cost, g) for g in self.uncontrolled if (cost := self.walk(g)[square]) >= 0]
            self._goals[e.slot] = min(reachable)[1] if reachable else None
        return self._goals[e.slot]

    def objective_distance(self, e) -> int:
        """CF-BOT-3: walking cost to the nearest uncontrolled objective (to any objective if all are held); kept per
        element, as CF-BOT-3 orders the elements by it more than once a decision."""
        found = self._objective_distances.get(e.slot)
        if found is None:
            square = e.square
            found = self._objective_distances[e.slot] = min(
                [cost for g in self.uncontrolled or self.objectives if (cost := self.walk(g)[square]) >= 0], default=FAR)
        return found

    def holds_alone(self, e) -> bool:
        """`e` is the only own element on an objective its side controls."""
        return (e.square in self.objectives and self.controls(e.square)
                and sum(1 for f in self.own if f.square == e.square) == 1)

    def is_leader(self, e) -> bool:
        return self.view.section_leader(e) == e.slot

    def usable(self, e, cost: int) -> bool:
        return self.view.can_spend(e, cost)

    def two_ap(self, e) -> bool:
        """CF-BOT-6: 2 AP are usable (its first AP of the turn and 2 in the pool)."""
        return e.ap_spent == 0 and self.usable(e, 2)

    def range(self, a: int, b: int) -> int:
        return int(self.board.range[a][b])

    def is_building(self, square: int) -> bool:
        return self.board.building[square] >= 0

    def is_open(self, square: int) -> bool:
        return self.view.cover(square) == OPEN

    def msq_action(self, m: int) -> int:
        return OFF["search"] + self.board.mcode[m]

    def square_action(self, family: str, square: int) -> int:
        return OFF[family] + self.board.code[square]


class CityfightDoctrine(Ablatable):
    """The scripted doctrine of one side (CF-BOT-1..13)."""

    name = "scripted"
    needs_observation = False

    def __init__(self, side: int = 0, seed: int | None = 0) -> None:
        self.side = side                                      # CF-BOT-1: no rolls, so the seed is unused
        self.SEQUENCE = ATTACKER_SEQUENCE if side == ATTACKER else DEFENDER_SEQUENCE
        self.RULES = ("CF-BOT-3", *self.SEQUENCE, "CF-BOT-13", "CF-BOT-5", "CF-BOT-7", "CF-SRCH-7")
        self.priorities = PRIORITIES
        self._doors, self._links, self._ground, self._edge = None, [], None, None
        self._walks: dict = {}                            # (goal, avoid) -> WALKS' costs on the ground of the last sync
        self._map_stamp = None                            # the public map's stamp at the last sync
        self._objectives = self._chokepoints = None
        self._planned: Planned | None = None     # the plan of the element just activated, for its first act

    def act(self, observation, mask, view) -> int:
        kind, ctx = view.decision
        planned, self._planned = self._planned, None
        self._rule = DECISION_RULES.get(kind, "CF-BOT-1")      # activate, act: named by their method
        if kind == "act" and planned is not None and planned.holds_for(view, ctx["element"]):
            choice = self.first_legal(planned.plan, mask)
            self._rule = planned.plan.rule
        elif kind in DECISION_RULES and np.count_nonzero(mask) == 1:
            choice = first(mask)      # a reaction with one legal answer: its rule is the kind's, so no Picture is made
        else:
            picture = Picture(self, view)
            if kind == "act":   # the mask is the acting element's actions (runs too, never wanted): not built again
                picture.known_acts(ctx["element"], mask)
            choice = getattr(self, f"_{kind}")(picture, ctx, mask)
        if choice is not None and mask[choice]:
            action = int(choice)
        else:
            action = PASS if mask[PASS] else first(mask)
        answer = self.answered(self._rule, action, mask)
        if answer != action:
            self._planned = None                              # an audit's random answer: the plan no longer holds
        return answer

    def rule_for(self, view) -> str | None:
        return self.last_rule

    def rule_words(self, rule: str) -> str:
        return RULE_WORDS[rule]

    def reported(self, view) -> list[int]:
        """CF-BOT-2: the squares the side's knowledge reports occupied this turn or last and no later search declared
        empty, in reading order; kept until those reports or the turn change (most decisions change neither)."""
        k, turn = view.knowledge, view.turn
        # the stamps of the two rows read (knowledge.py renews a row's at every write to it): the side's own searches
        # and the enemy's announcements write other rows and leave the reports as they were
        state = (turn, k.row_stamps[OCCUPIED], k.row_stamps[EMPTY])
        found = unchanged_since(self, REPORTED, state)
        if found is None:
            # seen >= 0 and turn - seen <= 1 (turns start at 1), and no later empty
            occupied = k.occupied
            found = remember(self, REPORTED, state,
                             ((occupied >= max(0, turn - 1)) & (k.empty <= occupied)).nonzero()[0].tolist())
        return found

    def objectives(self, view) -> list[int]:
        """The scenario's objective squares (fixed for a game: kept with the scenario they came from)."""
        if self._objectives is None or self._objectives[0] is not view.scenario:
            self._objectives = (view.scenario, view.objectives())
        return self._objectives[1]

    def sync(self, view) -> None:
        """Renew the walking links when the public map changed (doorways, breaches, blocked doorways): the doorways
        read only when the map's stamp moved (most decisions change no square of it)."""
        stamp = view.map_stamp()
        if stamp != self._map_stamp:
            doors = view.doors()
            if self._doors != doors:
                # bytes: hashed once (its hash is kept), as every walk's key holds the doorways
                self._doors, self._links, self._ground = doors, view.walk_links(), (view.board, bytes(doors))
                self._walks = {}
            self._map_stamp = stamp
        if self._edge is None:
            self._edge = view.attacker_edge()

    def walk(self, board, goal: int, avoid: tuple = ()) -> list[int]:
        """Walking costs to `goal` never crossing `avoid` over the map and doorways of the last sync (WALKS), kept by
        goal and avoid until the doorways change: WALKS' key (the map, the doorways' bytes) costs more to hash than
        the lookup saves, and a decision asks it for every element and objective."""
        found = self._walks.get((goal, avoid))
        if found is None:
            ground = self._ground
            found = self._walks[goal, avoid] = WALKS.get((*ground, goal, avoid), distances, ground[0], self._links,
                                                          goal, avoid)
        return found

    # Reactions and small decisions (CF-BOT-5, CF-BOT-6, CF-BOT-7) -------------------------------------------------
    def _dice(self, p, ctx, mask):
        """CF-BOT-7: unspotted kinetic fire with 1 die for an element with an MG; else 2 (CF-BOT-5/6)."""
        e = p.view.element(ctx["element"])
        if not ctx["spotted"] and p.view.has_mg(e):
            return OFF["dice"]
        return OFF["dice"] + 1

    def _join(self, p, ctx, mask):
        """CF-ACT-12: join a search of an MSq holding a contact (its IFA follows, CF-BOT-6); else decline."""
        return OFF["join"] if ctx["msq"] in p.contact_msqs else PASS

    def _announce(self, p, ctx, mask):
        return OFF["announce"]                                # CF-SRCH-7: N in full

    def _return_fire(self, p, ctx, mask):
        """CF-BOT-5: always, by the lowest element ID; a window with nobody able to fire back is passed."""
        return OFF["react"] + min(ctx["options"]) if ctx["options"] else PASS

    def _overwatch_fire(self, p, ctx, mask):
        """CF-BOT-5: always fire; the special weapon on a building square, else the kinetic weapons."""
        options = ctx["options"]
        if SPECIAL in options and (p.is_building(ctx["target"]) or KINETIC not in options):
            return OFF["weapon"] + SPECIAL
        return OFF["weapon"] + KINETIC if KINETIC in options else PASS

    def _ifa(self, p, ctx, mask):
        """CF-BOT-6: IFA at the spotted square of lowest cover, then nearest, then reading order."""
        best = self.priorities["CF-BOT-6"].choose(sorted(ctx["options"]), p.view, ctx)
        return p.square_action("fire", best)

    # Activation (CF-BOT-3, CF-BOT-10, CF-BOT-13) ------------------------------------------------------------------
    def _activate(self, p, ctx, mask):
        candidates = [e for e in p.own if mask[OFF["activate"] + e.slot]]
        watchers = self.watchers(p, candidates)
        if watchers:                                          # CF-BOT-10: the defender's first activation
            self._rule = "CF-BOT-10"
            return OFF["activate"] + min(watchers, key=lambda e: (self.chokepoints(p).index(self.chokepoint(p, e)),
                                                                  e.slot)).slot
        # CF-BOT-3: the leader last, so the leaders' plans are made only when no other element has a use.
        for leaders in (False, True):
            found = self.first_useful(p, [e for e in candidates if p.is_leader(e) == leaders])
            if found is not None:
                self._planned = Planned(p.view, *found)
                self._rule = "CF-BOT-3"
                return OFF["activate"] + found[0]
        self._rule = "CF-BOT-13"
        return OUT                                            # CF-BOT-13

    def first_useful(self, p, group) -> tuple[int, Plan] | None:
        """CF-BOT-3: the (slot, plan) of the element of `group` with a wanted legal action that comes first by its
        plan's rank (Engaged, then engaging a contact, then the rest), walking cost to the nearest uncontrolled
        objective and ID; None when no element has one. The same element as planning all of them and taking the
        least, with fewer plans made: an Engaged square is what makes a plan CF-BOT-4, and a CF-BOT-6 plan engages
        one of the element's targets, so only the elements with one are planned before the rest, which are planned
        in walking-cost order until the first with a use."""
        plans: dict[int, Plan] = {}

        def planned(e) -> Plan:
            if e.slot not in plans:
                plans[e.slot] = self.plan(p, e)
            return plans[e.slot]

        # sorted once: (cost, slot) orders the elements totally, so each rank's elements come in this order too
        ordered = sorted(group, key=lambda e: (p.objective_distance(e), e.slot))
        for rank, may_rank in ((0, lambda e: e.square in p.engaged), (1, lambda e: p.targets(e))):
            for e in [e for e in ordered if may_rank(e)]:
                plan = planned(e)
                if plan.actions and RANK.get(plan.rule, 2) == rank:
                    return e.slot, plan
        for e in ordered:
            plan = planned(e)
            if plan.actions:                                  # ranks 0 and 1 were all seen above: this one is 2
                return e.slot, plan
        return None

    def watchers(self, p, candidates) -> list:
        """The defender's elements whose plan is CF-BOT-10 (overwatch on a chokepoint): not Engaged (CF-BOT-4
        comes first), and a chokepoint to watch."""
        if self.side == ATTACKER or "CF-BOT-10" in self.struck:
            return []
        return [e for e in candidates if e.square not in p.engaged and self.watch(p, e) is not None]

    def _act(self, p, ctx, mask):
        plan = self.plan(p, p.view.element(ctx["element"]))
        self._rule = plan.rule
        return self.first_legal(plan, mask)

    @staticmethod
    def first_legal(plan: Plan, mask) -> int:
        for action in plan.actions:
            if mask[action]:
                return action
        return PASS

    # The plan of one element ------------------------------------------------------------------------------------
    def plan(self, p: Picture, e) -> Plan:
        """The CF-BOT rule that applies to `e` and its legal wanted actions, best first (none: it passes)."""
        acts = p.acts(e)
        if acts == ONLY_PASS:   # no rule's wanted action survives the filter below: CF-BOT-4's plan or none
            return self.passing(p, e)
        rules = self.attacker_rules(p, e) if self.side == ATTACKER else self.defender_rules(p, e)
        for rule in rules:
            plan = rule(p, e)
            if plan is None or (self.struck and plan.rule in self.struck):
                continue
            plan.actions = [a for a in plan.actions if a in acts]
            if plan.actions or plan.rule == "CF-BOT-4":
                return plan
        return Plan("CF-BOT-13")

    def passing(self, p, e) -> Plan:
        """The plan of an element whose only legal action is Pass (CF-ACT-10, CF-HID-4: asked all the same): CF-BOT-4
        when it applies (Engaged: it would fire into its square), else CF-BOT-13, as `plan` finds it."""
        plan = self.engaged(p, e)
        if plan is None or plan.rule in self.struck:
            return Plan("CF-BOT-13")
        plan.actions = []
        return plan

    def attacker_rules(self, p, e) -> list:
        """Engaged (CF-BOT-4), smoke (CF-BOT-12), special weapon at an objective contact and the goal objective's
        contact (CF-BOT-6, assault per CF-BOT-8), the advance (CF-BOT-8, the leader CF-BOT-9), then the nearest
        contact within 2 squares (CF-BOT-6) for an element that cannot step nearer its goal."""
        advance = self.leader if p.is_leader(e) else self.advance
        return [self.engaged, self.smoke, self.special_at_objective, self.goal_contact, advance, self.close_contact]

    def defender_rules(self, p, e) -> list:
        """Engaged (CF-BOT-4), chokepoint overwatch (CF-BOT-10), contacts (CF-BOT-6), then CF-BOT-11."""
        return [self.engaged, self.watch, self.contact, self.hold]

    # Both sides ----------------------------------------------------------------------------------------------------
    def engaged(self, p, e) -> Plan | None:
        """CF-BOT-4: in an Engaged square: fire into it (close assault) if able, else Pass."""
        if e.square not in p.engaged:
            return None
        return Plan("CF-BOT-4", [p.square_action("fire", e.square)])

    def contact_targets(self, p, e, within: int = FAR) -> list[int]:
        """Contacts in range and LOS that `e` may fire at now (kinetic or special), nearest first, reading order."""
        return p.targets_within(e, within)

    def special_ok(self, p, e, square: int) -> bool:
        """A Fire Special Weapon shot at a building square: legal with 2 AP usable, its best effect roll can kill
        there (6 + FS reaches K, CF-HE-6), and no own element in or next to it (CF-HE-8)."""
        if not (p.is_building(square) and p.two_ap(e) and p.may_aim(e, "special", square)):
            return False
        tables = p.view.tables
        if 6 + tables.he_weapons[e.special].fs < tables.cover[p.view.cover(square)][1]:
            return False
        return not any(p.range(f.square, square) <= 1 for f in p.own)

    def engage(self, p, e, target: int, rule: str = "CF-BOT-6") -> Plan:
        """CF-BOT-6: with 2 AP usable and the contact's MSq searchable, Search it (IFA follows); else fire unspotted,
        the special weapon at a building square if 2 AP are usable."""
        search = p.msq_action(p.board.msq[target])
        if p.two_ap(e) and search in p.acts(e):
            return Plan(rule, [search])
        wants = [p.square_action("special", target)] if self.special_ok(p, e, target) else []
        return Plan(rule, wants + [p.square_action("fire", target)])

    def contact(self, p, e) -> Plan | None:
        """CF-BOT-6 (defender): the nearest contact in range and LOS."""
        targets = self.contact_targets(p, e)
        return self.engage(p, e, targets[0]) if targets else None

    # Attacker ----------------------------------------------------------------------------------------------------
    def special_at_objective(self, p, e) -> Plan | None:
        """CF-BOT-6: the special weapon at a contact on an objective (nearest, then reading order)."""
        for target in self.contact_targets(p, e):
            if target in p.objectives and self.special_ok(p, e, target):
                return Plan("CF-BOT-6", [p.square_action("special", target)])
        return None

    def goal_contact(self, p, e) -> Plan | None:
        """A contact on its goal objective within 2 squares: assault it (the step in, CF-BOT-8) next to it once an
        own element within 2 squares of it has fired this turn, when it cannot fire at it, or in the last turn;
        else engage it (CF-BOT-6)."""
        goal = p.goal(e)
        if goal is None or goal not in p.contacts or p.range(e.square, goal) > CLOSE:
            return None
        can_fire = goal in self.contact_targets(p, e, CLOSE)
        if p.range(e.square, goal) == 1:
            covered = any(f.fired and f is not e and p.range(f.square, goal) <= CLOSE for f in p.own)
            step = self.steps_towards(p, e, goal)
            if step and (covered or not can_fire or p.turn >= p.view.turns):
                return Plan("CF-BOT-8", step)
        return self.engage(p, e, goal) if can_fire else None

    def close_contact(self, p, e) -> Plan | None:
        """CF-BOT-6: the nearest contact within 2 squares, for an element with no step nearer its goal."""
        targets = self.contact_targets(p, e, CLOSE)
        return self.engage(p, e, targets[0]) if targets else None

    def path(self, p, e, goal: int, avoid: tuple) -> list[int]:
        """The squares of the preferred shortest path to `goal` (non-Open first, then reading order)."""
        dist = p.walk(goal, avoid)
        here, squares = e.square, []
        while dist[here] > 0:
            cost = step_costs(p.board)[here]
            nxt = [t for t in self._links[here] if 0 <= dist[t] == dist[here] - cost[t]]
            if not nxt:
                break
            here = min(nxt, key=lambda t: (p.is_open(t), t))
            squares.append(here)
        return squares

    def avoid(self, p, e, goal: int) -> tuple:
        """CF-BOT-8: avoid the enemy's overwatch markers except on the objective, unless no way avoids them."""
        avoid = tuple(m for m in p.markers if m != goal)
        if avoid and p.walk(goal, avoid)[e.square] < 0:
            return ()
        return avoid

    def steps_towards(self, p, e, target: int, avoid: tuple = (), allowed=None) -> list[int]:
        """Move actions that bring `e` nearer `target`: those on a shortest path first (walking costs: orthogonal
        2, diagonal 3), then non-Open squares, then reading order; `allowed` filters the squares stepped into."""
        dist = p.walk(target, avoid)
        here = dist[e.square]
        if here <= 0:
            return []
        steps, cost = [], step_costs(p.board)[e.square]
        for d, there in enumerate(p.board.neighbours[e.square]):   # board.step of each direction, read at once
            if there >= 0 and 0 <= dist[there] < here and (allowed is None or allowed(there)):
                detour = dist[there] + cost[there] - here
                steps.append((detour, p.is_open(there), there, OFF["move"] + d))
        return [a for *_, a in sorted(steps)]

    def advance(self, p, e, allowed=None, rule: str = "CF-BOT-8") -> Plan | None:
        """CF-BOT-8: search the goal objective's MSq (unsearched this turn or last), then step on a shortest legal
        path to it, preferring non-Open squares, avoiding overwatch markers except on the objective. Only for an
        element with a step to take (or a search ahead of one): one that alone holds an objective keeps it."""
        goal = p.goal(e)
        if goal is None or p.holds_alone(e):
            return None
        steps = [a for a in self.steps_towards(p, e, goal, self.avoid(p, e, goal), allowed) if a in p.acts(e)]
        if not steps:
            return None
        m = p.board.msq[goal]
        search = [p.msq_action(m)] if p.board.msq[e.square] != m and p.view.knowledge.searched[m] < p.turn - 1 else []
        return Plan(rule, search + steps)

    def leader(self, p, e) -> Plan | None:
        """CF-BOT-9: towards a suppressed own element within 1 MSq (nearest, then lowest ID); else as CF-BOT-8,
        never stepping into an Open square of an MSq with a contact."""
        board = p.board
        near = [f for f in p.own if f.suppressed and f is not e
                and board.msq_range[board.msq[f.square]][board.msq[e.square]] <= 1]
        if near:
            friend = min(near, key=lambda f: (cost_or_far(p.walk(f.square)[e.square]), f.slot))
            return Plan("CF-BOT-9", self.steps_towards(p, e, friend.square))

        def safe(square):
            return not (p.is_open(square) and board.msq[square] in p.contact_msqs)
        return self.advance(p, e, safe, "CF-BOT-9")

    def smoke(self, p, e) -> Plan | None:
        """CF-BOT-12: a UGL element smokes the first Open square of its path in LOS of a contact or an overwatch
        marker; one smoke per turn (no smoke block landed this turn)."""
        if e.special != "UGL" or not e.smoke or any(turn == p.turn for _, turn in p.view.smoke_blocks()):
            return None
        goal = p.goal(e)
        if goal is None or p.holds_alone(e):
            return None
        watchers = p.contacts + p.markers
        for square in self.path(p, e, goal, self.avoid(p, e, goal)):
            if p.is_open(square) and any(p.view.sight(w, square) for w in watchers):
                return Plan("CF-BOT-12", [p.square_action("smoke", square)])
        return None

    # Defender ------------------------------------------------------------------------------------------------
    def chokepoints(self, p) -> list[int]:
        """The scenario's chokepoints (fixed for a game: kept with the scenario they came from, as the objectives;
        CF-BOT-10 asks them for every MG element at every activation)."""
        view = p.view
        if self._chokepoints is None or self._chokepoints[0] is not view.scenario:
            self._chokepoints = (view.scenario, view.chokepoints())
        return self._chokepoints[1]

    def chokepoint(self, p, e) -> int | None:
        """CF-BOT-10: at the side's first activation of the turn, the first unwatched chokepoint (list order) this
        MG element may put Overwatch on now."""
        if not p.view.has_mg(e) or p.activations_taken > (1 if e.activated else 0):
            return None
        for square in self.chokepoints(p):
            if square not in p.own_markers and p.may_aim(e, "overwatch", square):
                return square
        return None

    def watch(self, p, e) -> Plan | None:
        square = self.chokepoint(p, e)
        return None if square is None else Plan("CF-BOT-10", [p.square_action("overwatch", square)])

    def towards_attacker(self, p, m: int, here: int) -> bool:
        """MSq `m` lies nearer the attacker's edge than MSq `here`."""
        return nearer_edge(p.board.mwidth, self._edge, m, here)

    def msqs_towards_attacker(self, p) -> tuple[tuple[int, ...], ...]:
        """Per MSq, the MSqs nearer the attacker's edge (towards_attacker), in order; built once per map and edge
        as CF-BOT-11 asks it of every MSq for every element at every decision."""
        return msqs_towards(p.board.mwidth, len(p.board.msq_squares), self._edge)

    def hold(self, p, e) -> Plan | None:
        """CF-BOT-11: search the nearest MSq in reach towards the attacker's edge unsearched this turn or last
        (then reading order); then, if an objective has no friend and is no contact, the nearest element not on
        another objective moves to it; else Pass."""
        board, searched = p.board, p.view.knowledge.searched.tolist()   # plain ints: read once per MSq below
        here = board.msq[e.square]
        near = [m for m in self.msqs_towards_attacker(p)[here] if searched[m] < p.turn - 1]
        reach = board.msq_range[here].tolist()               # plain ints: one numpy lookup per MSq cost more
        wants = [p.msq_action(m) for m in sorted(near, key=lambda m: (reach[m], m))]
        goal = self.unheld_objective_for(p, e)
        if goal is not None:
            wants += self.steps_towards(p, e, goal)
        return Plan("CF-BOT-11", wants)

    def unheld_objective_for(self, p, e) -> int | None:
        """CF-BOT-11: the first objective (list order) with no friend and no contact whose nearest element not on
        another objective (ties: lowest ID) is `e`."""
        for goal in p.objectives:
            if goal in p.own_squares or goal in p.contacts:
                continue
            dist = p.walk(goal)
            movers = [(dist[f.square], f.slot) for f in p.own
                      if not (f.square in p.objectives and f.square != goal) and dist[f.square] >= 0]
            if movers and min(movers)[1] == e.slot:
                return goal
        return None


# Walking (public terrain only) ------------------------------------------------------------------------------------
def step_cost(board, a: int, b: int) -> int:
    """2 for an orthogonal step, 3 for a diagonal one: only one step a turn may be diagonal (CF-MOVE-1)."""
    return DIAGONAL if a % board.width != b % board.width and a // board.width != b // board.width else ORTHOGONAL


@lru_cache(maxsize=8)
def step_costs(board) -> list[dict[int, int]]:
    """Per square, step_cost to each of its 8 neighbours, once per map: a walk reads one per link."""
    return [{there: step_cost(board, here, there) for there in neighbours if there >= 0}
            for here, neighbours in enumerate(board.neighbours)]


def distances(board, links: list[list[int]], goal: int, avoid: tuple = ()) -> list[int]:
    """Walking cost from every square to `goal` over `links`, never through `avoid` (-1: no way)."""
    dist = [-1] * len(links)
    blocked = set(avoid) - {goal}
    heap = [(0, goal)]
    costs, pop, push = step_costs(board), heapq.heappop, heapq.heappush
    while heap:
        d, here = pop(heap)
        if dist[here] >= 0:
            continue
        dist[here] = d
        cost = costs[here]
        for there in links[here]:
            if dist[there] < 0 and there not in blocked:
                push(heap, (d + cost[there], there))
    return dist


def nearer_edge(mwidth: int, edge: str, m: int, here: int) -> bool:
    """MSq `m` lies nearer the map edge `edge` ('N', 'E', 'S' or 'W') than MSq `here` (MSqs by * mwidth + bx)."""
    (mx, my), (hx, hy) = (m % mwidth, m // mwidth), (here % mwidth, here // mwidth)
    return {"S": my > hy, "N": my < hy, "E": mx > hx, "W": mx < hx}[edge]


@lru_cache(maxsize=32)
def msqs_towards(mwidth: int, count: int, edge: str) -> tuple[tuple[int, ...], ...]:
    """Per MSq, the MSqs nearer `edge` in reading order (nearer_edge), once per map shape and edge."""
    return tuple(tuple(m for m in range(count) if nearer_edge(mwidth, edge, m, here)) for here in range(count))


def cost_or_far(cost: int) -> int:
    return cost if cost >= 0 else FAR


def first(mask) -> int:
    """The first legal action (argmax: the first True of a bool mask)."""
    return int(mask.argmax())


__all__ = ["CODEC", "CityfightDoctrine", "Picture", "Plan"]


registry.register_agent("scripted", CityfightDoctrine, rulesets=("cityfight",))
