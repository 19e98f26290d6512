"""RiflesGame: the Rifles solo system with its Urban module as a `GameState` (rules catalog rifles.md).

Side 0 is the player's squad, side 1 the enemy: the automaton's choices (§13) are enemy decisions.
"""
from __future__ import annotations

import copy

from envs.engine import derived
from envs.engine.dice import Dice
from envs.engine.events import event_from_dict, event_to_dict, roll
from envs.engine.taskgame import TaskGame

from . import config, enemy, flow, geometry, legal, movement, render, turns, views  # noqa: F401  (their tasks register with flow)
from .actions import CODEC, ENEMY_SLOTS, PLAYER_DECISIONS
from .flow import Decision
from .modules import MODULES
from .observation import encode
from .player_actions import PLAYER_ACTIONS
from .state import ENEMY, PLAYER, QUALITY, Feature, Group, Marker, Unit
from .tasks import PLAYER_DECIDE, PLAYER_PHASE, REVEAL_SWEEP

FEATURE_NAMES = f"{derived.PREFIX}rifles_feature_names"   # feature_by_id's table, kept on the game


class RiflesGame(TaskGame):
    """One game of Rifles on a six-Stripe Map Card."""

    # The Rifles parts TaskGame's task loop calls
    FLOW, CODEC = flow.FLOW, CODEC
    config, legal, render = config, legal, render
    encode, view_of = staticmethod(encode), staticmethod(views.view)

    def __init__(self, scenario: config.Scenario, dice: Dice, options: dict | None = None, *, _setup: bool = True) -> None:
        super().__init__(scenario, dice, options)
        self.module = MODULES["darkness" if "darkness" in scenario.modules else "urban"]
        self._checked_counts = None   # (eliminated, exited) at the last check_at_once
        if _setup:
            self._setup()

    # Setup (`new` is TaskGame's; the default scenario is Block Six) ------------------------------------
    def refresh(self) -> None:
        super().refresh()
        self._checked_counts = None
        derived.forget(self)          # the observation buffers: a test may have changed a unit by hand

    def _setup(self) -> None:
        """RU-SCN-1: terrain, groups and markers as the scenario places them, then RB-EM-2."""
        self.lay_out()
        self.push(REVEAL_SWEEP, PLAYER_PHASE)
        self.run()

    def lay_out(self) -> None:
        """RU-SCN-1: terrain (RU-ADV-1 rolled with the game's dice), groups and markers as the scenario places them;
        no task yet (envs/rifles/position.py lays a game out, changes it, then starts it where its spec says)."""
        self.turn, self.phase, self.outcome, self.game_over = 1, "player", None, False
        self.ap = self.bap = 0
        self.recon = self.scenario.recon_points
        self.active, self.decision, self.tasks = -1, None, []
        self.barred, self.demo = set(), {}
        self.exited_units = self.eliminated_units = 0
        self.lost_this_turn = False
        self.exposed = (None, -1)      # RU-EXP-1 of the player's last move: (effect, free attacker's slot) (RB-HID-1)
        self.enemy_orders: dict[int, int] = {}   # RB-AI-4: enemy group slot -> its order in the last Enemy Phase
        self.graveyard: list[str] = []
        self.terrain_changes = 0       # features changed by demo charges (RU-DC-5/7): what reads the map reads it anew
        self._build_map()
        self.players = [self._group(i, spec, PLAYER, spec.units) for i, spec in enumerate(self.scenario.player_groups)]
        self.enemies: list[Group] = []
        for spec in self.scenario.enemy_groups:
            group = self.new_enemy_group(spec.id, [(u.weapon, u.leader) for u in spec.units], spec.stripe, [u.id for u in spec.units])
            group.place = self.place_of(spec.feature)
        self.markers = [Marker(i, m, s) for i, (m, s) in enumerate(self.scenario.markers)]
        self.start_units = sum(len(g.units) for g in self.players)

    def _build_map(self) -> None:
        self.places = [[None] for _ in range(config.STRIPES + 1)]
        self.complexes: dict[str, list[Feature]] = {}
        for spec in self.scenario.features:
            kind = self._advanced_kind(spec) if spec.advanced and self.options["advanced_urban"] else spec.kind
            f = Feature(spec.id, spec.stripe, len(self.places[spec.stripe]), kind, spec.sealed, spec.complex)
            self.places[spec.stripe].append(f)
            if spec.complex is not None:
                self.complexes.setdefault(spec.complex, []).append(f)

    def _advanced_kind(self, spec) -> str:
        """RU-ADV-1 / RU-TAB-1: the building is rolled: 1-3 Building, 4-5 MS, 6 Rubble."""
        die = self.dice.d6()
        kind = next(k for top, k in self.tables.advanced_building if die <= top)
        self.log.add("advanced_urban", f"{spec.id} is a {kind}", dice=(die,), rule="RU-ADV-1",
                     rolls=[roll((die,), kind, table="the Advanced Urban building table")])
        return kind

    def _group(self, slot, spec, side, units) -> Group:
        members = [Unit(u.id, side, QUALITY[u.quality], u.weapon, u.leader) for u in units]
        group = Group(slot, spec.id, side, members, spec.stripe, demo_charges=spec.demo_charges, sewers=spec.sewers)
        group.place = self.place_of(spec.feature)
        return group

    def new_enemy_group(self, name: str, units, stripe: int, names=None) -> Group:
        """A revealed enemy group in the next free slot, in the Open until placed.

        RD-GEN-3: a Darkness type in `units` makes a Darkness unit (`kind` = the type), counted Regular: never
        a Recruit nor a Veteran (RD-CC-4, RD-CC-7)."""
        slot = len(self.enemies)
        if slot >= ENEMY_SLOTS:
            raise RuntimeError(f"scenario {self.scenario.path} makes more than {ENEMY_SLOTS} enemy groups")
        quality = QUALITY[self.scenario.enemy_quality]
        types = self.scenario.darkness.types if self.scenario.darkness is not None else {}
        members = [Unit(names[i] if names else f"{name}.{i + 1}", ENEMY, QUALITY["regular"], weapon, leader, kind=weapon)
                   if weapon in types else Unit(names[i] if names else f"{name}.{i + 1}", ENEMY, quality, weapon, leader)
                   for i, (weapon, leader) in enumerate(units)]
        group = Group(slot, name, ENEMY, members, stripe)
        self.enemies.append(group)
        return group

    def place_of(self, feature_id: str | None) -> int:
        if feature_id is None:
            return 0
        for stripe in self.places[1:]:
            for f in stripe[1:]:
                if f.fid == feature_id:
                    return f.place
        raise KeyError(feature_id)

    # The flow (push, run, apply: TaskGame) -------------------------------------------------------------
    def decide(self, kind: Decision, **ctx) -> None:
        """Pause the flow for a decision of the side that owns `kind`."""
        self.decision = (kind, ctx)

    #: `outcome is not None`, set with `outcome` (lay_out, finish, from_dict): a field, not a property, since the
    #: task loop asks it after every task
    game_over = False

    def after_task(self) -> None:
        """The game can end at once in the middle of a phase (RB-VIC-2, the scenario's conditions)."""
        # Asked after every task: the counts check_at_once starts with, compared here first (one call fewer)
        if (self.eliminated_units, self.exited_units) != self._checked_counts:
            self.check_at_once()

    @property
    def current_side(self) -> int | None:
        if self.outcome is not None:
            return None
        return PLAYER if self.decision[0] in PLAYER_DECISIONS else ENEMY

    def answer(self, kind: str, ctx: dict, name: str, args: tuple) -> None:
        """A player decision is a menu of actions, not a question: the action is played and, unless it ended the
        phase, the menu is offered again (`player_decide`). Ending the phase may also answer a rubble-cost question."""
        if name == "end_phase" and kind == "rubble_cost":
            flow.FLOW.answers[kind](self, ctx, False)          # RB-TURN-4: ending the phase declines the rubble cost
            PLAYER_ACTIONS[name](self)
        elif kind == "player":
            if name != "end_phase":
                self.push(PLAYER_DECIDE)
            PLAYER_ACTIONS[name](self, *args)
        else:
            flow.FLOW.answers[kind](self, ctx, *legal.answer_args(name, args))

    # Victory -------------------------------------------------------------------------------------
    def check_at_once(self) -> None:
        """RB-VIC-2 and the scenario's 'at once' conditions (RD-SCN-3)."""
        # They can change only when a player unit is eliminated or exits: skip the scan otherwise.
        counts = (self.eliminated_units, self.exited_units)
        if self.outcome is not None or counts == self._checked_counts:
            return
        self._checked_counts = counts
        v = self.scenario.victory
        if v["kind"] == "exit" and self.exited_units >= v["units_to_exit"]:
            self.finish(1, "enough units have exited")
        elif v["kind"] == "exit" and self.eliminated_units >= v["loss_eliminated"]:
            self.finish(-1, "too many units lost")
        elif not any(g.on_map for g in self.players):
            self.finish(-1, "no player unit is left on the map")

    def finish(self, result: int, why: str) -> None:
        self.outcome, self.game_over, self.decision, self.tasks = result, True, None, []
        self.log.add("game_over", f"{'player wins' if result > 0 else 'player loses'}: {why}", rule="RB-VIC-1")

    def hold_objective(self) -> bool:
        """RU-SCN-4: a non-Engaged player group with an OK unit in the objective, no enemy in the listed features."""
        v = self.scenario.victory
        objective = self.feature_by_id(v["objective"])
        held = any(g.ok_units() and not g.engaged for g in geometry.groups_at(self.players, objective.stripe, objective.place))
        clear = all(not geometry.groups_at(self.enemies, f.stripe, f.place) for f in map(self.feature_by_id, v["clear_of_enemy"]))
        return held and clear

    def feature_by_id(self, fid: str) -> Feature:
        """The feature named `fid` (KeyError if the map has none). Features change but never come or go, so the
        names are looked up in a table made once per game (envs.engine.derived: `refresh` drops it)."""
        named = self.__dict__.get(FEATURE_NAMES)
        if named is None:
            named = self.__dict__[FEATURE_NAMES] = {f.fid: f for stripe in self.places[1:] for f in stripe[1:]}
        return named[fid]

    # Shared helpers for the rules ------------------------------------------------------------------
    def side_groups(self, side: int) -> list[Group]:
        return self.players if side == PLAYER else self.enemies

    def group(self, side: int, slot: int) -> Group:
        return self.side_groups(side)[slot]

    def eliminate(self, group: Group, unit: Unit) -> None:
        """Remove a unit for good; a player loss is remembered for RB-VIC-3."""
        unit.alive = False
        group.units.remove(unit)
        group.unit_changes += 1
        self.graveyard.append(unit.name)
        if group.side == PLAYER:
            self.eliminated_units += 1
            self.lost_this_turn = True
        if not group.units:
            self.disband(group)

    def disband(self, group: Group) -> None:
        """A group with no units leaves play; its opponent in a fight is no longer Engaged (RU-CC-13)."""
        if group.engaged:
            foe = self.group(1 - group.side, group.engaged_with)
            foe.engaged_with, foe.defending, foe.rounds = -1, False, 0
        group.engaged_with = -1
        if group.side == PLAYER:
            self.demo.pop(group.gid, None)
            if self.active == group.gid:
                self.active = -1

    def merge(self, joiner: Group, into: Group) -> None:
        """RU-CC-15 / RD-CC-9: the joiner's units and charges pass to the group already fighting."""
        into.units.extend(joiner.units)
        into.unit_changes += 1
        into.demo_charges += joiner.demo_charges
        joiner.units, joiner.demo_charges = [], 0
        if joiner.side == PLAYER:
            self.demo.pop(joiner.gid, None)
            if self.active == joiner.gid:
                self.active = into.gid

    def hits_to_eliminate(self, unit: Unit) -> int:
        return self.module.hits_to_eliminate(self, unit)

    def suppressed_word(self, unit: Unit) -> str:
        return self.module.suppressed_word(unit)

    def fire_barred(self, unit, target, rng: int) -> bool:
        return self.module.fire_barred(self, unit, target, rng)

    def cc_modifier(self, group, foe) -> int:
        return self.module.cc_modifier(self, group, foe)

    def veterans_possible(self, group) -> bool:
        return self.module.veterans_possible(group)

    def place_name(self, stripe: int, place: int) -> str:
        if place >= len(self.places[stripe]):
            return f"Stripe {stripe} place {place} (no such feature)"
        f = geometry.feature(self, stripe, place)
        return f"Stripe {stripe} Open" if f is None else f"{f.fid} ({f.kind})"

    def describe(self, group: Group) -> str:
        return ", ".join(f"{u.weapon}{'+leader' if u.leader else ''}" for u in group.units)

    # Protocol (observation, view, labels and rendering: TaskGame) ---------------------------------------
    def returns(self) -> tuple[float, float]:
        r = float(self.outcome or 0)
        return r, -r

    def check_invariants(self) -> None:
        """AP, BAP and Recon Points never below zero; eliminated units stay eliminated."""
        assert self.ap >= 0 and self.bap >= 0 and self.recon >= 0, (self.ap, self.bap, self.recon)
        living = {u.name for g in self.players + self.enemies for u in g.units}
        assert not living & set(self.graveyard), living & set(self.graveyard)
        assert self.turn <= self.scenario.turns

    # Copy and save (clone: TaskGame) -------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "ruleset": "rifles", "scenario": self.scenario.path, "options": dict(self.options),
            "scenario_built": copy.deepcopy(self.scenario.built), "dice": self.dice.to_dict(),
            "setup_events": [event_to_dict(e) for e in self.setup_events],   # what the set-up rolled (RU-ADV-1)
            "turn": self.turn, "phase": self.phase, "outcome": self.outcome,
            "ap": self.ap, "bap": self.bap, "recon": self.recon, "active": self.active,
            "decision": None if self.decision is None else [self.decision[0], dict(self.decision[1])],
            "tasks": [flow.FLOW.save(t) for t in self.tasks], "barred": sorted(list(b) for b in self.barred),
            "demo": {str(k): list(v) for k, v in self.demo.items()},
            "exited_units": self.exited_units, "eliminated_units": self.eliminated_units,
            "lost_this_turn": self.lost_this_turn, "exposed": list(self.exposed), "graveyard": list(self.graveyard),
            "enemy_orders": {str(k): v for k, v in self.enemy_orders.items()},
            "start_units": self.start_units,
            "features": [f.to_dict() for stripe in self.places[1:] for f in stripe[1:]],
            "players": [g.to_dict() for g in self.players], "enemies": [g.to_dict() for g in self.enemies],
            "markers": [None if m is None else m.to_dict() for m in self.markers],
        }

    @classmethod
    def from_dict(cls, data: dict, dice: Dice | None = None) -> RiflesGame:
        game = cls._without_setup(data, dice)
        for key in ("turn", "phase", "outcome", "ap", "bap", "recon", "active", "exited_units", "eliminated_units",
                    "lost_this_turn", "start_units"):
            setattr(game, key, data[key])
        game.game_over = game.outcome is not None
        game.decision = None if data["decision"] is None else (Decision(data["decision"][0]), dict(data["decision"][1]))
        game.tasks = [flow.FLOW.load(t) for t in data["tasks"]]
        game.barred = {tuple(b) for b in data["barred"]}
        game.demo = {int(k): tuple(v) for k, v in data["demo"].items()}
        game.graveyard = list(data["graveyard"])
        game.exposed = tuple(data.get("exposed", (None, -1)))       # a save from before RU-EXP-1 was shown
        game.enemy_orders = {int(k): v for k, v in data.get("enemy_orders", {}).items()}   # or RB-AI-4
        game.places = [[None] for _ in range(config.STRIPES + 1)]
        game.complexes = {}
        game.terrain_changes = 0      # counted from the restore on: a restored game has no map read yet
        for fd in data["features"]:
            f = Feature(**fd)
            game.places[f.stripe].append(f)
            if f.complex is not None:
                game.complexes.setdefault(f.complex, []).append(f)
        game.players = [Group.from_dict(g) for g in data["players"]]
        game.enemies = [Group.from_dict(g) for g in data["enemies"]]
        game.markers = [None if m is None else Marker(**m) for m in data["markers"]]
        game.setup_events = [event_from_dict(e) for e in data.get("setup_events", [])]
        return game

    @classmethod
    def _without_setup(cls, data: dict, dice: Dice | None) -> RiflesGame:
        """A game of a built position's own scenario (data, or changed weapons: no file says it) is rebuilt from the
        `scenario_built` record its save carries (envs/rifles/position.py)."""
        if data.get("scenario_built") is None:
            return super()._without_setup(data, dice)
        from .built import scenario_for
        return cls(scenario_for(data["scenario_built"]), dice or Dice.from_dict(data["dice"]), data["options"],
                   _setup=False)
