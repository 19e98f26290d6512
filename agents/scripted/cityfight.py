"""Cityfight scripted doctrine (rules catalog §3, CF-BOT-1..13) for either side, and the agent factories.

It reads only its side's view (envs.cityfight.views.SideView: own elements, knowledge, public state)
and the legal mask, so hidden state cannot change its choice (CF-BOT-1); it makes no rolls; ties go
to the lowest element ID, then the square in reading order.
"""
from __future__ import annotations

import numpy as np

from agents.base import RandomAgent
from envs.cityfight.actions import CODEC, OFF
from envs.cityfight.state import ATTACKER

PASS, OUT = OFF["pass"], OFF["out"]


class CityfightDoctrine:
    """The scripted doctrine of one side."""

    name = "scripted"
    needs_observation = False

    def __init__(self, side: int = 0, seed: int | None = 0) -> None:
        self.side = side
        self._walk: dict = {}

    def act(self, observation, mask, view) -> int:
        kind, ctx = view.decision
        choice = getattr(self, f"_{kind}")(view, ctx, mask)
        return choice if choice is not None and mask[choice] else first(mask)

    # Reactions and small decisions (CF-BOT-5) ------------------------------------------------------------
    def _dice(self, view, ctx, mask):
        e = view.element(ctx["element"])
        if not ctx["spotted"] and view.has_mg(e):
            return OFF["dice"]                                # CF-BOT-7: 1 die with an MG when unspotted
        return OFF["dice"] + 1

    def _join(self, view, ctx, mask):
        return OFF["join"]

    def _announce(self, view, ctx, mask):
        return OFF["announce"]

    def _return_fire(self, view, ctx, mask):
        return OFF["react"] + min(ctx["options"])             # CF-BOT-5

    def _overwatch_fire(self, view, ctx, mask):
        special = 1 in ctx["options"] and view.board.building[ctx["target"]] >= 0
        return OFF["weapon"] + (1 if special else 0) if ctx["options"] else PASS

    def _ifa(self, view, ctx, mask):
        """CF-BOT-6: the spotted square of lowest cover, then nearest."""
        e = view.element(ctx["element"])
        best = min(ctx["options"], key=lambda s: (view.cover(s), view.board.range[e.square][s], s))
        return OFF["fire"] + view.board.code[best]

    # Activation (CF-BOT-3, CF-BOT-13) ------------------------------------------------------------------------
    def _activate(self, view, ctx, mask):
        candidates = [e for e in view.own_elements() if mask[OFF["activate"] + e.slot]]
        useful = [e for e in candidates if self.plan(view, e) is not None]
        if not useful:
            return OUT                                        # CF-BOT-13
        engaged = view.engaged_squares()
        contacts = self.contacts(view)

        def rank(e):
            return (e.square not in engaged, not self.contact_targets(view, e, contacts),
                    view.section_leader(e) == e.slot, self.objective_distance(view, e.square), e.slot)
        return OFF["activate"] + min(useful, key=rank).slot

    def _act(self, view, ctx, mask):
        e = view.element(ctx["element"])
        for action in self.plan(view, e, mask) or []:
            if mask[action]:
                return action
        return PASS

    # The plan of one element -----------------------------------------------------------------------------------
    def plan(self, view, e, mask=None):
        """The actions this element wants, best first (None: nothing to do); filtered by the mask when given."""
        contacts = self.contacts(view)
        targets = self.contact_targets(view, e, contacts)
        wants = []
        if targets:                                           # CF-BOT-6
            target = min(targets, key=lambda s: (view.board.range[e.square][s], s))
            if e.ap_spent == 0:
                wants.append(OFF["search"] + view.board.mcode[view.board.msq[target]])
            wants.append(OFF["fire"] + view.board.code[target])
        if self.side == ATTACKER:
            wants += self.advance(view, e)                    # CF-BOT-8
        else:
            wants += self.hold(view, e)                       # CF-BOT-11
        if mask is None:
            return wants or None
        return [a for a in wants if mask[a]] or None

    def contacts(self, view) -> list[int]:
        """CF-BOT-2: squares seen occupied this turn or last."""
        k, turn = view.knowledge, view.turn
        return [s for s, t in enumerate(k.occupied) if t >= 0 and turn - t <= 1]

    def contact_targets(self, view, e, contacts) -> list[int]:
        own = {f.square for f in view.own_elements()}
        engaged = view.engaged_squares()
        return [s for s in contacts if s not in own and s not in engaged and 1 <= view.board.range[e.square][s] <= view.fire_range(e)
                and view.sight(e.square, s)]

    def objective_distance(self, view, square: int) -> int:
        goals = self.goals(view)
        return min((self.walk(view, g)[square] for g in goals if self.walk(view, g)[square] >= 0), default=99)

    def goals(self, view) -> list[int]:
        objectives = view.objectives()
        held = {e.square for e in view.own_elements()}
        open_goals = [s for s in objectives if s not in held]
        return open_goals or objectives

    def walk(self, view, goal: int) -> list[int]:
        key = (goal, tuple(view._game.door))
        if key not in self._walk:
            self._walk[key] = view.walk_distances(goal)
        return self._walk[key]

    def advance(self, view, e) -> list[int]:
        """CF-BOT-8: search ahead once per MSq, then step nearer the nearest uncontrolled objective."""
        wants = []
        goal = min(self.goals(view), key=lambda g: (self.walk(view, g)[e.square] if self.walk(view, g)[e.square] >= 0 else 99, g))
        dist = self.walk(view, goal)
        board = view.board
        here = board.msq[e.square]
        k = view.knowledge
        ahead = [m for m in range(len(board.msq_squares)) if board.msq_range[here][m] <= 1
                 and k.searched[m] < view.turn - 1
                 and min(dist[s] for s in board.msq_squares[m] if dist[s] >= 0) < dist[e.square]] if dist[e.square] > 0 else []
        for m in sorted(ahead, key=lambda m: (board.msq_range[here][m], m)):
            wants.append(OFF["search"] + board.mcode[m])
        steps = []
        for d in range(8):
            there = board.step(e.square, d)
            if there >= 0 and 0 <= dist[there] < dist[e.square]:
                steps.append((view.cover(there) == 0, dist[there], d))
        for _, _, d in sorted(steps):
            wants.append(OFF["move"] + d)
        return wants

    def hold(self, view, e) -> list[int]:
        """CF-BOT-11: search the nearest MSq not searched this turn or last, towards the attacker."""
        board, k = view.board, view.knowledge
        here = board.msq[e.square]
        near = [m for m in range(len(board.msq_squares)) if 1 <= board.msq_range[here][m] <= 2 and k.searched[m] < view.turn - 1]
        near.sort(key=lambda m: (board.msq_range[here][m], -m))
        return [OFF["search"] + board.mcode[m] for m in near]


def first(mask) -> int:
    return int(np.flatnonzero(mask)[0])


def agent_factories() -> dict:
    """Agent name -> factory(side, seed) for Cityfight."""
    return {
        "random": lambda side, seed=0: RandomAgent(side, seed),
        "scripted": lambda side, seed=0: CityfightDoctrine(side, seed),
    }


__all__ = ["CODEC"]
