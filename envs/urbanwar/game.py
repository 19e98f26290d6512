"""UrbanWarGame: Urban War 2nd edition (quick-start) as a `GameState` (rules catalog shared/rules/urbanwar.md).

Side 0 is team A, side 1 team B (UW-SCEN-2). The state holds the truth, as an umpire would; face-down orders
live in an `envs.engine.secret_orders.SecretOrders` store, and each side's observation and view read them through
`seen_by` only (UW-HID-2). Play runs as typed tasks (tasks.py) on a stack, paused by decisions (flow.py).
"""
from __future__ import annotations

import numpy as np

from envs.engine import derived
from envs.engine.dice import Dice
from envs.engine.events import event_from_dict, event_to_dict
from envs.engine.secret_orders import SecretOrders
from envs.engine.taskgame import TaskGame

from . import activation, config, legal, render, sightkernel, turns, views  # noqa: F401  (their tasks register with the flow)
from . import geometry as geo
from .actions import CODEC
from .flow import FLOW, Decision
from .models import Model
from .observation import encode
from .tasks import RollOff

SNAP, OVERWATCH = 0, 1          # order values (UW-TURN-4)
DRAW = 2


class UrbanWarGame(TaskGame):
    FLOW, CODEC = FLOW, CODEC
    config, legal, render = config, legal, render
    encode, view_of = staticmethod(encode), staticmethod(views.SideView)

    def __init__(self, scenario: config.Scenario, dice: Dice, options: dict | None = None, *, _setup: bool = True) -> None:
        super().__init__(scenario, dice, options)
        self.board = geo.board_for(config.played_map(scenario, self.options), tuple(self.tables.terrain.items()))
        self.models: list[Model] = []
        self.model_changes: list[int] = []   # the models whose shown field changed, in turn (models.Model.changes)
        for side, spec in enumerate(scenario.sides):
            for slot, m in enumerate(spec.models):
                self.models.append(Model(len(self.models), side, slot, m.id,
                                         config.profile_of(scenario, self.options, m), m.commander,
                                         self.model_changes))
        self._geo_cache: dict = {}     # LOS and destinations of the current positions (cleared on any move)
        self.by_side = [[m for m in self.models if m.side == s] for s in (0, 1)]
        self.side_of = [m.side for m in self.models]
        self.occ = [-1] * (config.SIZE * config.SIZE)
        self.turn, self.winner, self.decision, self.tasks = 1, None, None, []
        self.edges = [spec.edge for spec in scenario.sides]
        self.orders = SecretOrders()
        self.rolloff_winner = -1
        self.act: dict | None = None
        self.decisions = 0
        self.deployed = False
        self._sides_checked = -1       # how many model changes after_task had seen when it last looked at the sides
        self._prepared = None          # the legal mask of the decision just asked, if `decide_by_mask` made it
        if _setup:
            self.push(RollOff())
            self.run()

    def coerce_option(self, key: str, value):
        return value if key == "limit_result" else bool(value)

    def check_options(self, options: dict) -> None:
        if options["limit_result"] not in config.LIMIT_RESULTS:
            raise ValueError(f"limit_result must be one of {config.LIMIT_RESULTS}")

    # Flow ------------------------------------------------------------------------------------------------------
    def decide(self, kind: Decision, side: int, options: list[int], always_ask: bool = False, **ctx) -> None:
        """Ask `side` to choose among the legal actions `options`; UW-DEC-9: a single option is applied unasked,
        except a reaction window (UW-HID-6, envs/engine/reaction.py) and a question whose caller says that skipping
        it would tell the other side something hidden (`always_ask`, e.g. an activation: turns.run_next_activation)."""
        if len(options) == 1 and kind != Decision.REACT and not always_ask and self.options["auto_forced"]:
            name, args = CODEC.decode(options[0])
            ctx["side"] = side
            self.FLOW.answers[kind](self, ctx, name, *args)
            return
        ctx["side"], ctx["legal"] = side, sorted(options)
        self.decision = (kind, ctx)

    def decide_by_mask(self, kind: Decision, side: int, mask, **ctx) -> None:
        """`decide` with the legal actions given as a mask (a question of hundreds of options, worked out in numpy):
        the mask is kept as the decision's legal mask (`take_prepared_mask`), its actions as the legal list."""
        options = np.flatnonzero(mask).tolist()
        if len(options) == 1:
            self.decide(kind, side, options, **ctx)
            return
        ctx["side"], ctx["legal"] = side, options
        self.decision = (kind, ctx)
        self._prepared = mask

    def take_prepared_mask(self):
        """The mask `decide_by_mask` prepared for the decision now open, if it did (legal.mask builds the others)."""
        mask, self._prepared = self._prepared, None
        return mask

    def decision_kind(self) -> str | None:
        return None if self.decision is None else str(self.decision[0])

    def _resolve(self, action: int) -> list:
        self.decisions += 1
        return super()._resolve(action)

    @property
    def game_over(self) -> bool:
        return self.winner is not None

    @property
    def current_side(self) -> int | None:
        if self.winner is not None or self.decision is None:
            return None
        return self.decision[1]["side"]

    def after_task(self) -> None:
        """UW-WIN-1/2: a side with no model left loses at once; both wiped out at once is a draw. Only a model's
        wounds can bring that about: the sides are looked at again once some model's shown field changed since
        they were last (models.Model.changes)."""
        if self.winner is None and self.deployed:
            if len(self.model_changes) == self._sides_checked:
                return
            self._sides_checked = len(self.model_changes)
            team_a, team_b = self.by_side                   # (the plain reads of m.w)
            if any(m.w > 0 for m in team_a) and any(m.w > 0 for m in team_b):
                return
            alive = [any(m.alive for m in self.by_side[s]) for s in (0, 1)]
            if not alive[0] or not alive[1]:
                self.finish(DRAW if alive == [False, False] else (0 if alive[0] else 1),
                            "a side has no model left", "UW-WIN-2" if alive == [False, False] else "UW-WIN-1")

    def finish(self, winner: int, why: str, rule: str) -> None:
        self.winner, self.decision, self.tasks = winner, None, []
        words = "draw" if winner == DRAW else f"{self.scenario.sides[winner].name} wins"
        self.log.add("game_over", f"game over, {words}: {why}", rule=rule)

    # Helpers for the rules ------------------------------------------------------------------------------------------
    def side_models(self, side: int) -> list[Model]:
        return self.by_side[side]

    def enemies(self, m: Model) -> list[Model]:
        return [e for e in self.by_side[1 - m.side] if e.placed]

    def enemies_in_contact(self, m: Model) -> list[Model]:
        """UW-GRID-4: the placed enemies in base contact with `m`, in roster order; for a model on the table, read from
        the cells touching its enemies (`touching`, kept until something moves)."""
        if m.cell < 0:
            return [e for e in self.by_side[1 - m.side] if e.placed and geo.contact(e.cell, m.cell)]
        bits = self.touching(m.side).get(m.cell, 0)
        return [e for e in self.by_side[1 - m.side] if bits >> e.idx & 1]

    def in_contact(self, m: Model) -> bool:
        """`enemies_in_contact` is not empty: a cell on the table is in base contact with an enemy iff it touches one
        (an enemy's own cell is not among the cells touching it)."""
        if m.cell < 0:
            return any(e.placed and geo.contact(e.cell, m.cell) for e in self.by_side[1 - m.side])
        return m.cell in self.touching(m.side)

    def place(self, m: Model, cell: int) -> None:
        self._geo_cache.clear()
        if m.cell >= 0 and self.occ[m.cell] == m.idx:
            self.occ[m.cell] = -1
        m.cell = cell
        if cell >= 0:
            self.occ[cell] = m.idx

    def remove(self, m: Model) -> None:
        """UW-SHOOT-11: removed at once; its order counter goes with it (a face-down one stays hidden, UW-HID-4)."""
        self.log.add("removed", f"{m.id} is removed", m.side, rule="UW-SHOOT-11")
        self.occ[m.cell] = -1
        self._geo_cache.clear()
        self.orders.remove(m.idx)

    def touching(self, side: int, besides: Model | None = None) -> dict[int, int]:
        """The cells touching an enemy of `side` (UW-MOVE-5/6), each with those enemies as bits; `besides`: an enemy to
        leave out. Cached until something moves, and kept across positions by the enemies' places
        (geo.touching_cells: while one side moves, the other's cells, and so these, stay as they were)."""
        key = ("touching", side, -1 if besides is None else besides.idx)
        found = self._geo_cache.get(key)
        if found is None:
            found = self._geo_cache[key] = geo.touching_cells(
                tuple((e.idx, e.cell) for e in self.by_side[1 - side] if e.placed and e is not besides))
        return found

    def crowd(self, side: int, besides: Model | None = None) -> geo.Crowd:
        """What a path search of a `side` model meets (geo.Crowd): every placed model's cell and the placed enemies
        of `side`, `besides` left out (the intercept search's actor, UW-OW-13); cached until something moves."""
        key = ("crowd", side, -1 if besides is None else besides.idx)
        found = self._geo_cache.get(key)
        if found is None:
            enemies = tuple((e.idx, e.cell) for e in self.by_side[1 - side] if e.placed and e is not besides)
            found = self._geo_cache[key] = geo.Crowd(self.occupied(*[b for b in (besides,) if b is not None]),
                                                     enemies)
        return found

    def occupied(self, *besides: Model) -> list[int]:
        """The cells of the placed models but `besides` (UW-MOVE-3: what a path may not enter)."""
        _, (team_a, team_b) = self._placed()
        cells = team_a + team_b
        for m in besides:
            if m.placed:
                cells.remove(m.cell)
        return cells

    def los(self, a: Model, b: Model, a_cell: int | None = None, b_cell: int | None = None) -> bool:
        """UW-LOS-1..4 from `a` (standing at `a_cell`, its own cell emptied meanwhile) to `b` (or to `b_cell`)."""
        ac = a.cell if a_cell is None else a_cell
        return geo.sees(self.obstacles(a, ac), ac, b.cell if b_cell is None else b_cell)

    def obstacles(self, viewer: Model, cell: int, besides: Model | None = None) -> int:
        """What may block `viewer`'s sight from `cell` (geo.obstacles_for): walls and every placed model but the
        viewer (and `besides`), less the viewer's friends within 2" of `cell` (UW-LOS-2/3); cached until something
        moves."""
        key = ("obstacles", viewer.idx, cell, -1 if besides is None else besides.idx)
        found = self._geo_cache.get(key)
        if found is None:
            others, friends = self._blockers(viewer, besides)
            n = geo.N
            x, y = cell % n, cell // n
            for c in friends:
                if (c % n - x) ** 2 + (c // n - y) ** 2 <= 9:          # geo.friend_near: a friend within 2"
                    others &= ~(1 << c)
            found = self._geo_cache[key] = geo.as_seen_from(self.board.wall_bits | others, cell)
        return found

    def sight_blockers(self, side: int) -> np.ndarray:
        """`obstacles` for the compiled sight (sightkernel) of a `side` model, wherever it stands: per cell, the flags
        of the walls and the placed models, the side's own also FRIEND (UW-LOS-3: they block only beyond 2" of where
        the viewer stands; the kernel leaves out the viewer's own model); cached until something moves."""
        key = ("sight blockers", side)
        found = self._geo_cache.get(key)
        if found is None:
            found = self._geo_cache[key] = self.board.wall_array.copy()
            _, by_side = self._placed()
            found[by_side[1 - side]] |= sightkernel.MODEL
            found[by_side[side]] |= sightkernel.MODEL | sightkernel.FRIEND
        return found

    def _blockers(self, viewer: Model, besides: Model | None) -> tuple[int, list[int]]:
        """The cells of every placed model but `viewer` and `besides` (bits, geo.bits_of), and the cells of the
        placed models of the viewer's side, the only ones its position may leave out (`obstacles`; leaving out
        the viewer's own or `besides`' again changes nothing)."""
        placed, by_side = self._placed()
        for m in (viewer, besides):
            if m is not None and m.placed:
                placed &= ~(1 << m.cell)
        return placed, by_side[viewer.side]

    def _placed(self) -> tuple[int, tuple[list[int], list[int]]]:
        """The cells of the placed models as bits, and each side's as a list; cached until something moves."""
        found = self._geo_cache.get("placed")
        if found is None:
            cells = [[m.cell for m in self.by_side[s] if m.placed] for s in (0, 1)]
            found = self._geo_cache["placed"] = (geo.bits_of(cells[0] + cells[1]), (cells[0], cells[1]))
        return found

    def refresh(self) -> None:
        super().refresh()
        self._geo_cache.clear()
        self._sides_checked = -1
        derived.forget(self)            # the observation buffers (observation.encode)

    def order_of(self, m: Model) -> int | None:
        return self.orders.true_value(m.idx)

    def face_down(self, m: Model) -> bool:
        return self.orders.is_face_down(m.idx)

    def turn_face_up_fighter(self, m: Model) -> None:
        """UW-CC-3, UW-HID-3: a face-down model that fights is revealed; Overwatch is then spent."""
        if self.face_down(m):
            value = self.orders.reveal(m.idx)
            self.log.add("revealed", f"{m.id}'s order is {'Overwatch' if value == OVERWATCH else 'Snap-fire'}",
                         m.side, rule="UW-HID-3")
        if self.order_of(m) == OVERWATCH:
            self.orders.remove(m.idx)
            m.activated = True
            self.log.add("spent", f"{m.id} fought back from Overwatch and is spent", m.side, rule="UW-CC-3")

    def can_activate(self, m: Model) -> bool:
        """UW-TURN-9: an unactivated Snap-fire model (face up or down)."""
        return m.placed and not m.activated and self.orders.true_value(m.idx) == SNAP

    # Protocol --------------------------------------------------------------------------------------------------------
    def returns(self) -> tuple[float, float]:
        if self.winner is None or self.winner == DRAW:
            return 0.0, 0.0
        return (1.0, -1.0) if self.winner == 0 else (-1.0, 1.0)

    def check_invariants(self) -> None:
        for m in self.models:
            assert m.w <= m.profile.W, m.id
            assert 0 <= m.fu_used <= m.profile.CAL, (m.id, m.fu_used)
            if m.placed:
                assert self.occ[m.cell] == m.idx, m.id
        assert sum(1 for c in self.occ if c >= 0) == sum(1 for m in self.models if m.placed)
        assert self.turn <= self.scenario.turns + 1

    def to_dict(self) -> dict:
        return {
            "ruleset": "urbanwar", "scenario": self.scenario.path, "options": dict(self.options),
            "scenario_built": _copy(self.scenario.built),
            "setup_events": [event_to_dict(e) for e in self.setup_events],   # the roll-off (UW-SETUP-2)
            "dice": self.dice.to_dict(), "turn": self.turn, "winner": self.winner, "edges": list(self.edges),
            "rolloff_winner": self.rolloff_winner, "decisions": self.decisions, "deployed": self.deployed,
            "orders": self.orders.to_dict(), "act": _copy(self.act),
            "decision": None if self.decision is None else [str(self.decision[0]), _copy(self.decision[1])],
            "tasks": [_copy(FLOW.save(t)) for t in self.tasks],
            "models": [m.to_list() for m in self.models],
        }

    @classmethod
    def from_dict(cls, data: dict, dice: Dice | None = None) -> UrbanWarGame:
        game = cls._without_setup(data, dice)
        game.turn, game.winner, game.edges = data["turn"], data["winner"], list(data["edges"])
        game.rolloff_winner, game.decisions = data["rolloff_winner"], data["decisions"]
        game.deployed = data["deployed"]
        game.orders = SecretOrders.from_dict(data["orders"])
        game.act = _copy(data["act"])
        game.decision = None if data["decision"] is None else (Decision(data["decision"][0]), _copy(data["decision"][1]))
        game.tasks = [FLOW.load(_copy(t)) for t in data["tasks"]]
        for m, saved in zip(game.models, data["models"]):
            m.load(list(saved), game.tables.profiles)
            if m.placed:
                game.occ[m.cell] = m.idx
        game.setup_events = [event_from_dict(e) for e in data.get("setup_events", [])]
        return game

    @classmethod
    def _without_setup(cls, data: dict, dice: Dice | None) -> UrbanWarGame:
        """A game of a built position's own scenario (data, a changed map or profiles: no file says it) is rebuilt
        from the `scenario_built` record its save carries (envs/urbanwar/position.py)."""
        if data.get("scenario_built") is None:
            return super()._without_setup(data, dice)
        from .built import scenario_for
        return cls(scenario_for(data["scenario_built"]), dice or Dice.from_dict(data["dice"]), data["options"],
                   _setup=False)


def _copy(value):
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_copy(v) for v in value]
    return value
