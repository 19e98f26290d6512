"""K47Game: Konflikt '47 with its buildings chapter as a `GameState` (rules catalog shared/rules/k47.md).

Side 0 is side A (the German attacker), side 1 side B (the US defender). Every decision is the deciding side's
own (`decision[1]["side"]`), reactions included (KC-DEC-2).
"""
from __future__ import annotations

import copy

from envs.engine import derived
from envs.engine.dice import Dice
from envs.engine.events import Event
from envs.engine.orderbag import OrderBag
from envs.engine.taskgame import TaskGame

from . import closequarters, config, firefrom, flames, flow, geometry, hidden, legal, movement, orders, render, shooting, turns, vehicles, views  # noqa: F401  (their tasks register)
from .actions import CODEC
from .board import INTACT, RUINED, centre, inches
from .flow import Decision, answer, task
from .observation import encode
from .state import DOWN, MAX_UNITS, Model, Unit
from .tasks import AmbushWindow, AskTarget, Declare, StartTurn


class K47Game(TaskGame):
    """One game of Konflikt '47 on a gridded village."""

    FLOW, CODEC = flow.FLOW, CODEC
    config, legal, render = config, legal, render
    encode, view_of = staticmethod(encode), staticmethod(views.view)

    def __init__(self, scenario: config.Scenario, dice: Dice, options: dict | None = None, *, _setup: bool = True) -> None:
        super().__init__(scenario, dice, options)
        self.board = scenario.board
        if self.board.width * self.board.height > CODEC.families["cell"].size:
            raise ValueError(f"{scenario.path}: board larger than {CODEC.families['cell'].size} cells")
        self.turn, self.outcome, self.decision, self.tasks = 1, None, None, []
        self.units: list[Unit] = []
        self.bag = OrderBag.filled([0, 0])
        self.section_state = [INTACT] * len(self.board.sections)
        self.ranging: dict = {}        # KC-IND-2/3: "firer-target" -> [need, last turn fired]
        self.he_mode: dict = {}        # KC-HE-1: a declared attack's HE choice, by firer
        self.pending_keep: dict = {}   # KC-TURN-9: choices not yet public
        self.vp = [0, 0]
        self.destroyed: list[int] = []  # KC-SCN-9: units destroyed in play (ids), for kill VP
        self.drawn: int | None = None  # the side holding a drawn die not yet turned to a unit's order
        self._checked_losses = -1      # after_task: the units destroyed when both sides were last seen standing
        if _setup:
            self.place_units()
            hidden.conceal_occupants(self)               # KC-HID-6
            self.push(StartTurn())
            self.run()

    def place_units(self) -> None:
        """KC-SCN-6/7 (KC-SCN-11: `no_building_entry` places the listed units outside)."""
        moved = self.scenario.variants.get("no_building_entry", {}) if self.options["no_building_entry"] else {}
        for i, spec in enumerate(self.scenario.units):
            if i >= MAX_UNITS:
                raise ValueError(f"{self.scenario.path}: more than {MAX_UNITS} units")
            cell, section, floor = spec.cell, spec.section, spec.floor
            if spec.id in moved:
                cell, section, floor = moved[spec.id], None, 0
            models = [Model(m.role, list(m.weapons)) for m in spec.models]
            self.units.append(Unit(i, spec.id, spec.side, spec.kind, spec.quality, spec.small, models, len(models),
                                   cell, section, floor, "N NE E SE S SW W NW".split().index(spec.facing),
                                   spec.vehicle_class, spec.tracked, spec.fixed_opening if section is not None else None))

    # The flow ----------------------------------------------------------------------------------------
    def decide(self, kind: Decision, **ctx) -> None:
        self.decision = (kind, ctx)

    def decision_kind(self) -> str | None:
        return None if self.decision is None else str(self.decision[0])

    @property
    def game_over(self) -> bool:
        return self.outcome is not None

    @property
    def current_side(self) -> int | None:
        if self.outcome is not None or self.decision is None:
            return None
        return self.decision[1]["side"]

    def after_task(self) -> None:
        """KC-SCN-9: a side with no units left loses at once. Only a unit destroyed (`destroy`, which counts it)
        can leave a side with none, so the sides are counted again only after one was (a position set up by hand
        calls `refresh`, which asks for a count)."""
        if self.outcome is None and len(self.destroyed) != self._checked_losses:
            self._checked_losses = len(self.destroyed)
            standing = {u.side for u in self.units if u.alive}
            for side in (0, 1):
                if side not in standing:
                    self.finish(1 - side, f"{self.scenario.side_names[side]} has no units left")
                    return

    def finish(self, winner: int | None, why: str) -> None:
        self.outcome = -1 if winner is None else winner
        self.decision, self.tasks = None, []
        self.log.add("game_over", f"{'draw' if winner is None else self.scenario.side_names[winner] + ' wins'}: {why}",
                     rule="KC-SCN-9")

    def end_by_points(self) -> None:
        """KC-SCN-8/9: 2 VP per objective held, 1 VP per enemy unit destroyed; more VP wins."""
        vp = [0, 0]
        for obj in self.scenario.objectives:
            holder = self.holder(obj)
            if holder is not None:
                vp[holder] += self.scenario.objective_vp
        for uid in self.destroyed:
            vp[1 - self.units[uid].side] += self.scenario.kill_vp
        self.vp = vp
        winner = None if vp[0] == vp[1] else (0 if vp[0] > vp[1] else 1)
        self.finish(winner, f"{vp[0]} VP to {vp[1]}")

    def holder(self, building: str):
        """KC-SCN-8: the side with an infantry unit inside or on its rubble while the enemy has none."""
        sids = {s.index for s in self.board.sections if s.building == building}
        present = set()
        for u in self.living():
            if u.kind != "infantry":
                continue
            if u.section in sids or (u.cell is not None and self.board.section_at(u.cell) in sids):
                present.add(u.side)
        return present.pop() if len(present) == 1 else None

    def answer(self, kind, ctx, name, args) -> None:
        """The move options and targets cached for this decision's mask serve its answer only, then go (derived
        caches)."""
        try:
            super().answer(kind, ctx, name, args)
        finally:
            self._move_cache = self._target_cache = None

    def refresh(self) -> None:
        super().refresh()
        self._checked_losses = -1
        self._move_cache = self._target_cache = None
        derived.forget(self)          # the observation buffers: a test may have changed a model's weapons by hand
        for u in self.units:          # and so each unit's weapons (Unit.arms)
            u.forget_arms()

    # Shared helpers for the rules -----------------------------------------------------------------------
    @property
    def ground(self) -> str:
        """The board, tables and sections' states as one key of the values kept across games (geometry.ground)."""
        return geometry.ground(self)

    def living(self) -> list[Unit]:
        return [u for u in self.units if u.alive]

    def point_of(self, unit):
        """A unit's reference point: its cell centre, or its section's centre inside."""
        if unit.cell is not None:
            return centre(unit.cell)
        s = self.board.sections[unit.section]
        return ((s.x0 + s.x1 + 1) / 2, (s.y0 + s.y1 + 1) / 2)

    def sees(self, unit, other) -> bool:
        """LOS between two units (KC-MAP-7) by any of their fire and aim points (openings inside)."""
        for p, _ in geometry.fire_points(self, unit, None) if unit.inside else [(centre(unit.cell), None)]:
            aims = [a for a, _, _ in geometry.aim_points(self, other, "rifle")] if other.inside else [centre(other.cell)]
            if any(geometry.clear(self, p, a) for a in aims):
                return True
        return False

    def sees_section(self, unit, sid: int) -> bool:
        """KB-GRID-8: a wall of the section is visible from the unit's cell centre."""
        s = self.board.sections[sid]
        here = centre(unit.cell)
        for x in range(s.x0, s.x1 + 1):
            for cell, side in (((x, s.y0), "N"), ((x, s.y1), "S")):
                if geometry.outside_wall(here, cell, side) and geometry.clear(self, here, geometry.edge_point(*cell, side)):
                    return True
        for y in range(s.y0, s.y1 + 1):
            for cell, side in (((s.x0, y), "W"), ((s.x1, y), "E")):
                if geometry.outside_wall(here, cell, side) and geometry.clear(self, here, geometry.edge_point(*cell, side)):
                    return True
        return False

    def enemy_within(self, unit, limit: float) -> bool:
        here = self.point_of(unit)
        return any(inches(here, self.point_of(e), self.board.cell_in) <= limit + 1e-9
                   for e in self.living() if e.side != unit.side)

    def weapons_reaching(self, unit, target, ambush: bool = False, moved: bool = False) -> list:
        return shooting.firing_weapons(self, unit, target, moved, ambush=ambush)

    def targets(self, unit, moved: bool) -> list:
        """KC-SHOOT-4: enemy units in LOS and range of at least one weapon (ids, ascending)."""
        return [t.uid for t in self.living() if t.side != unit.side and shooting.firing_weapons(self, unit, t, moved)]

    def asked_targets(self, unit, moved: bool) -> list:
        """`targets` for the TARGET decision open now: those found when it was asked (nothing moves between the
        asking and the mask), else worked out again."""
        cached = getattr(self, "_target_cache", None)
        if cached is not None and cached[0] == (unit.uid, moved):
            return cached[1]
        return self.targets(unit, moved)

    def ask_target(self, unit, moved: bool) -> None:
        targets = self.targets(unit, moved)
        if targets:
            self.decide(Decision.TARGET, side=unit.side, uid=unit.uid, moved=moved)
            self._target_cache = ((unit.uid, moved), targets)
        else:
            self.log.add("no_target", f"{unit.name} has no target", unit.side, rule="KC-SHOOT-4")

    def push_target_after(self, unit) -> None:
        """Ambush windows first (KC-AMB-1: before the mover shoots), then the Advance's fire (KC-ORD-2)."""
        self.push(AmbushWindow(unit.uid, -1), AskTarget(unit.uid, True))

    def flame_attack(self, unit, target, entry) -> None:
        flames.flame_attack(self, unit, target, entry)

    def assault_options(self, unit, paths: dict | None = None) -> dict:
        return closequarters.assault_options(self, unit, paths)

    def start_assault(self, unit, target, how) -> None:
        closequarters.start_assault(self, unit, target, how)

    def can_ram(self, unit) -> bool:
        return vehicles.can_ram(self, unit)

    def ram_options(self, unit) -> dict:
        reach = movement.outside_destinations(self, unit, "run")
        reach[unit.cell] = 0.0
        return vehicles.ram_options(self, unit, reach)

    def start_ram(self, unit, sid, how) -> None:
        vehicles.start_ram(self, unit, sid, how)

    def move_unit(self, unit, cell, section=None, floor=0, rule: str = "KC-MAP-4") -> None:
        """Place a unit; KC-MOVE-3: changing cell, section or floor is moving (ranging-in resets)."""
        if unit.vehicle and unit.cell is not None and cell is not None and cell != unit.cell:
            dx, dy = cell[0] - unit.cell[0], cell[1] - unit.cell[1]
            step = (max(-1, min(1, dx)), max(-1, min(1, dy)))
            unit.facing = movement.FACINGS.index(step)              # KV-MOVE-2 (approximated: overall direction)
        unit.cell, unit.section, unit.floor = cell, section, floor
        if cell is not None:
            unit.fixed_opening = None                               # KB-FROM-5: outside, no designated opening
        unit.moved = True
        self.ranging = {k: v for k, v in self.ranging.items() if str(unit.uid) not in k.split("-")}
        where = f"({cell[0]}, {cell[1]})" if cell is not None else f"{self.board.sections[section].name} floor {floor}"
        self.log.add("move", f"{unit.name} moves to {where}", unit.side, rule=rule, uid=unit.uid)
        hidden.reveal_nearby(self)                                  # KC-HID-8: every move may reveal occupants

    def destroy(self, unit, why: str, rule: str) -> None:
        """KC-TURN-4 / KC-TURN-8: a unit destroyed with no order takes one of its side's dice out of the bag."""
        if not unit.alive:
            return
        unit.alive = False
        self.destroyed.append(unit.uid)
        if unit.order is None and not unit.kept and self.bag.counts[unit.side] > 0:
            self.bag.take(unit.side)
        unit.kept = False
        self.log.add("destroyed", f"{unit.name} is destroyed ({why})", unit.side, rule=rule, uid=unit.uid)

    def force_down(self, unit, rule: str) -> None:
        """KC-TURN-8: a unit without a die takes one from the bag; a unit holding one turns it to Down."""
        if unit.order is None and not unit.kept:
            self.bag.take(unit.side)
        unit.order = DOWN
        self.log.add("down", f"{unit.name} goes Down", unit.side, rule=rule)

    def collapse(self, sid: int, rule: str) -> None:
        """KB-RUIN-1: every unit in the section is destroyed; its cells become rubble without openings. KB-GRID-9:
        the section collapses alone, not the rest of its building."""
        self.section_state[sid] = RUINED
        self.log.add("collapse", f"{self.board.sections[sid].name} collapses", rule=rule)
        for u in self.living():
            if u.section == sid:
                self.destroy(u, "buried in the collapse", "KB-RUIN-1")

    def floor_roll(self, target):
        """KB-HE-1/2 / KB-TAB-2: from the top floor down, 4+ explodes here, 1-3 drops a floor; floor 0 always."""
        s = self.board.sections[target.section]
        for floor in range(s.floors - 1, -1, -1):
            if floor > 0:
                face = self.dice.d6()
                if face < self.tables.floor_explodes_on:
                    self.log.add("floor_roll", f"the shell drops through floor {floor}", dice=(face,), rule="KB-TAB-2")
                    continue
                self.log.add("floor_roll", f"the shell explodes on floor {floor}", dice=(face,), rule="KB-TAB-2")
            else:
                self.log.add("floor_roll", "the shell explodes on floor 0", rule="KB-TAB-2")
            victim = geometry.unit_on_floor(self, target.section, floor)
            if victim is None:
                self.log.add("empty_floor", "the blast hits an empty floor", rule="KB-HE-2")
            return victim
        return None

    def roll_expr(self, expr: str, rule: str) -> int:
        """D2, D3, D6, 2D6, 3D6 on d6s (catalog: D2 = 1-3 -> 1, 4-6 -> 2; D3 = ceil(d6/2))."""
        count, size = (int(expr[0]), expr[2:]) if expr[0].isdigit() else (1, expr[1:])
        total = 0
        for _ in range(count):
            f = self.dice.d6()
            total += {"2": 1 if f <= 3 else 2, "3": (f + 1) // 2, "6": f}[size]
        return total

    def ranged_need(self, unit, target) -> int:
        """KC-IND-1/2/3: 6 (natural 6 only) unless ranged in (5+, 4+, 3+, 2+) or zeroed (2+)."""
        entry = self.ranging.get(f"{unit.uid}-{target.uid}")
        if entry is None:
            return 6
        need, last = entry
        if need == 2:
            return 2
        return max(2, need - 1) if last == self.turn - 1 else 6

    def note_ranging(self, unit, target, hit: bool) -> None:
        key = f"{unit.uid}-{target.uid}"
        need = 2 if hit else self.ranged_need(unit, target)
        self.ranging[key] = [need, self.turn]
        if hit:
            self.log.add("zeroed", f"{unit.name} has zeroed in on {target.name}", unit.side, rule="KC-IND-3")

    # Protocol ---------------------------------------------------------------------------------------------
    def returns(self) -> tuple[float, float]:
        if self.outcome is None or self.outcome == -1:
            return 0.0, 0.0
        return (1.0, -1.0) if self.outcome == 0 else (-1.0, 1.0)

    def check_invariants(self) -> None:
        """KC-TURN-8: a side's dice in the bag equal its living units with no order and no kept die; pins never
        negative; one unit per cell and per floor (KC-MAP-3, KB-GRID-6); no unit in a burning or ruined section."""
        for side in (0, 1):
            free = sum(1 for u in self.living() if u.side == side and u.order is None and not u.kept)
            free -= self.drawn == side
            assert self.bag.counts[side] == free, (side, self.bag.counts, free)
        places = [(u.cell, u.section, u.floor) for u in self.living()]
        assert len(places) == len(set(places)), places
        for u in self.living():
            assert u.pins >= 0 and u.models
            assert u.section is None or self.section_state[u.section] == INTACT, (u.name, self.section_state)
        assert self.turn <= self.scenario.turns + 1

    def to_dict(self) -> dict:
        return {
            "scenario": self.scenario.path, "scenario_data": copy.deepcopy(self.scenario.data),
            "setup_events": [event_to_dict(e) for e in self.setup_events], "options": dict(self.options), "dice": self.dice.to_dict(),
            "turn": self.turn, "outcome": self.outcome, "vp": list(self.vp),
            "decision": [str(self.decision[0]), dict(self.decision[1])] if self.decision else None,
            "tasks": [self.FLOW.save(t) for t in self.tasks], "units": [u.to_dict() for u in self.units],
            "bag": self.bag.to_dict(), "section_state": list(self.section_state),
            "ranging": {k: list(v) for k, v in self.ranging.items()}, "he_mode": dict(self.he_mode),
            "pending_keep": dict(self.pending_keep), "drawn": self.drawn,
            "destroyed": list(self.destroyed),
        }

    @classmethod
    def from_dict(cls, data: dict, dice: Dice | None = None) -> K47Game:
        game = cls._without_setup(data, dice)
        game.turn, game.outcome, game.vp = data["turn"], data["outcome"], list(data["vp"])
        d = data["decision"]
        game.decision = (Decision(d[0]), dict(d[1])) if d else None
        game.tasks = [game.FLOW.load(list(t)) for t in data["tasks"]]
        game.units = [Unit.from_dict(u) for u in data["units"]]
        game.bag = OrderBag.from_dict(data["bag"])
        game.section_state = list(data["section_state"])
        game.ranging = {k: list(v) for k, v in data["ranging"].items()}
        game.he_mode = dict(data["he_mode"])
        game.pending_keep = dict(data["pending_keep"])
        game.drawn = data["drawn"]
        game.destroyed = list(data["destroyed"])
        game.setup_events = [event_from_dict(e) for e in data.get("setup_events", [])]
        return game

    @classmethod
    def _without_setup(cls, data: dict, dice: Dice | None) -> K47Game:
        """A game saved from a scenario given as data (a rule test's own board) carries that data: it has no file."""
        if data.get("scenario_data") is None:
            return super()._without_setup(data, dice)
        scenario = config.load_scenario_data(data["scenario_data"], data["scenario"])
        return cls(scenario, dice or Dice.from_dict(data["dice"]), data["options"], _setup=False)


def event_to_dict(event: Event) -> dict:
    """An event as JSON-ready data (the set-up's events travel with a saved game)."""
    return {"kind": event.kind, "text": event.text, "side": event.side, "dice": list(event.dice), "rule": event.rule,
            "data": dict(event.data)}


def event_from_dict(data: dict) -> Event:
    return Event(data["kind"], data["text"], data["side"], tuple(data["dice"]), data["rule"], dict(data["data"]))


@task(AskTarget)
def ask_target_task(game, uid: int, moved: bool) -> None:
    unit = game.units[uid]
    if unit.alive:
        game.ask_target(unit, moved)


@answer(Decision.TARGET)
def target_answer(game, ctx, name, *args) -> None:
    unit = game.units[ctx["uid"]]
    if unit.inside:
        declare_from_inside(game, ctx, unit, name, args)
        return
    if name == "pass":
        game.log.add("hold_fire", f"{unit.name} holds its fire", unit.side, rule="KC-DEC-2")
        return
    target, mode = args
    if mode:   # KC-HE-1: the dual-mode weapon fires HE; KC-TAB-3: a weapon firing both ways fires indirect
        game.he_mode[str(unit.uid)] = True
    game.log.add("declare", f"{unit.name} fires at {game.units[target].name}{legal.mode_words(game, unit, mode)}",
                 unit.side, rule="KC-SHOOT-1", uid=unit.uid, target=target)
    game.push(Declare(unit.uid, target, ctx["moved"]))


def declare_from_inside(game, ctx, unit, name, args) -> None:
    """KB-FROM-3/4: a unit inside declares a target per side until it passes or has nothing left to declare;
    then each side fires as its own attack, in declaration order."""
    declared = ctx.get("declared", [])
    if name != "pass":
        target, mode = args
        declared = firefrom.declare(game, unit, game.units[target], ctx["moved"], declared, bool(mode))
        game.log.add("declare", f"{unit.name} fires from its {declared[-1][0]} side at {game.units[target].name}"
                     f"{' with HE' if mode else ''}", unit.side, rule="KB-FROM-3", uid=unit.uid, target=target)
        if firefrom.declarable(game, unit, ctx["moved"], declared):
            game.decide(Decision.TARGET, side=unit.side, uid=unit.uid, moved=ctx["moved"], declared=declared)
            return
    elif not declared:
        game.log.add("hold_fire", f"{unit.name} holds its fire", unit.side, rule="KC-DEC-2")
        return
    game.push(*[Declare(unit.uid, target, ctx["moved"], side, models, bool(he)) for side, target, he, models in declared])
