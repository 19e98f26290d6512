"""CityfightGame: CITYFIGHT 2024 as a `GameState` (rules catalog shared/rules/cityfight.md).

Side 0 is the attacker (Blue), side 1 the defender (Red). The state holds the truth, as an umpire
would; each side's `Knowledge` (knowledge.py) holds only what it was told. Play runs as tasks on a
stack (envs.engine.flow) that pause on a decision of the side that owns it (CF-TURN-7).
"""
from __future__ import annotations

from envs.engine.dice import Dice
from envs.engine.events import event_from_dict, event_to_dict, private
from envs.engine.taskgame import TaskGame

from . import assault, config, fire, leaders, legal, movement, overwatch, render, search, turn, victory, views  # noqa: F401  (their tasks register with flow)
from .actions import CODEC
from .board import board_for
from .flow import FLOW, Decision
from .knowledge import Knowledge
from .observation import encode
from .state import ATTACKER, DEAD, DEFENDER, SIDE_NAMES, Element, Section, Smoke, new_stamp
from .tasks import HiddenSetup, TurnStart

#: the prefixes of the caches observation.py keeps on the game
OBSERVATION_CACHES = ("_static_planes", "_map_planes", "_written_obs_", "_enemy_oob_", "_fixed_globals_")


class CityfightGame(TaskGame):
    """One game of Cityfight on a square map."""

    # The Cityfight parts TaskGame's task loop calls
    FLOW, CODEC = FLOW, CODEC
    config, legal, render = config, legal, render
    encode, view_of = staticmethod(encode), staticmethod(views.SideView)

    def __init__(self, scenario: config.Scenario, dice: Dice, options: dict | None = None, *, _setup: bool = True) -> None:
        super().__init__(scenario, dice, options)
        self.board = board_for(scenario.width, scenario.height, scenario.terrain)
        self.conditions = self._conditions()
        self._killed = False
        self.leaderless: list[tuple[int, int, int]] = []   # (side, section, square) of leaders killed in this task
        self.prepared_mask = None
        if _setup:
            self._setup()

    # Options -----------------------------------------------------------------------------------
    def coerce_option(self, key: str, value):
        """The force level and the weather are names (or None), not toggles."""
        return value if key in ("force_level", "weather") else bool(value)

    def check_options(self, options: dict) -> None:
        if options["force_level"] not in config.FORCE_LEVELS:
            raise ValueError(f"force_level must be one of {config.FORCE_LEVELS}")
        if options["weather"] not in (None, *config.WEATHERS):
            raise ValueError(f"weather must be one of {config.WEATHERS} (or None: the scenario's)")

    # Setup (`new` is TaskGame's; the default scenario is The Office Block) -------------------------
    def _conditions(self) -> dict:
        """CF-COND-1 with CF-VAR-1: the scenario's conditions; the night toggle sets the time and the illuminated
        MSqs, the weather option the weather. They act only through CF-SRCH-19..21 (search.py) and CF-REC-10
        (recovery.py); both sides see them (CF-HID-1)."""
        c = dict(self.scenario.conditions)
        if self.options["night"]:
            c["time"] = self.scenario.variants["night"]["time"]
            c["illuminated"] = self.scenario.variants["night"]["illuminated"]
        if self.options["weather"] is not None:
            c["weather"] = self.options["weather"]
        return c

    def _setup(self) -> None:
        """CF-SCN-5/6: the orders of battle, the hidden set-up, then turn 1 up to the first decision."""
        self.init_state()
        smoke_ids = set(self.scenario.variants["smoke"]["smoke_weapons"]) if self.options["smoke"] else set()
        for side in (ATTACKER, DEFENDER):
            for sec_spec in self.scenario.sections[side]:
                self._add_section(side, sec_spec, smoke_ids)
        self.push(HiddenSetup(), TurnStart())
        self.run()
        # The set-up and first-turn events up to the first decision; `apply` returns only what that decision caused.

    def refresh(self) -> None:
        """Also forget the observation's change-detection caches (observation.py keeps them on the game)."""
        super().refresh()
        for key in [k for k in self.__dict__ if k.startswith(OBSERVATION_CACHES)]:
            del self.__dict__[key]
        self.map_changed()                     # the map and the reports may have been edited by hand: new stamps
        for k in self.knowledge:
            k.touch()

    def init_state(self) -> None:
        """Turn 1, the map as printed, no elements, nothing known, no task."""
        n, board = self.board.size, self.board
        self.turn, self.phase, self.winner = 1, "setup", None
        self.cover = list(board.base_cover)
        self.damage, self.rubble = [0] * n, [self.scenario.terrain[i] == ":" for i in range(n)]
        self.door = [1 if d else 0 for d in board.doorway]          # 0 none, 1 doorway or breach, 2 blocked
        self.smoke, self.smoke_blocks, self.smoke_count = [0] * n, [], 0
        self.map_changed()
        self.knowledge = [Knowledge(s, n, len(board.msq_squares)) for s in (ATTACKER, DEFENDER)]
        self.outs, self.next_side, self.active, self.active_side = [False, False], self.scenario.initiative, DEAD, DEAD
        self.decision, self.tasks = None, []
        self.graveyard: list[str] = []
        self.sections, self.elements = [[], []], [[], []]

    def _add_section(self, side: int, spec, smoke_ids) -> None:
        section = Section(len(self.sections[side]), side, spec.id, spec.lr)
        self.sections[side].append(section)
        for e in spec.elements:
            slot = len(self.elements[side])
            weapon = e.weapons[0] if e.weapons else None
            shots = self.tables.he_weapons[weapon].shots if weapon else 0
            square = self.board.at(*e.squares[0])
            element = Element(slot, side, e.id, e.row, section.index, leader=(e.row == "L"), special=weapon, shots=shots,
                              smoke=e.id in smoke_ids, square=square, roof=e.squares[0] in self.scenario.roofs)
            if element.leader and section.leader == DEAD:
                section.leader = slot
            self.elements[side].append(element)

    # The flow (push, run, apply: TaskGame) -------------------------------------------------------------
    def decide(self, kind: Decision, side: int, **ctx) -> None:
        """Pause the flow for a decision of `side` (CF-TURN-7)."""
        ctx["side"] = side
        self.decision = (kind, ctx)

    @property
    def game_over(self) -> bool:
        return self.winner is not None

    def after_task(self) -> None:
        """Once a task's results are all applied: acting leaders (CF-LDR-3), then, since only a kill can leave a
        side with no elements, victory only after one."""
        if self.leaderless:
            leaders.appoint_acting_leaders(self)
        if self._killed:                 # CF-VIC-2: a side with no elements loses at once
            self._killed = False
            victory.check_at_once(self)

    def take_prepared_mask(self):
        """The mask turn.py built with the decision's actions, used once (stale after the next answer)."""
        mask, self.prepared_mask = (self.prepared_mask if self.decision is not None else None), None
        return mask

    @property
    def current_side(self) -> int | None:
        if self.winner is not None:
            return None
        return self.decision[1]["side"]

    # Shared helpers for the rules ------------------------------------------------------------------
    def element(self, side: int, slot: int) -> Element:
        return self.elements[side][slot]

    def living(self, side: int) -> list[Element]:
        return [e for e in self.elements[side] if e.square != DEAD]

    def at(self, square: int, side: int) -> list[Element]:
        """`side`'s elements in `square`, in element order."""
        return [e for e in self.elements[side] if e.square == square]

    def by_square(self, side: int) -> dict[int, list[Element]]:
        """`side`'s living elements by square, each list in element order: `at` for every square at once, for a rule
        that looks at several squares (the nine of an MSq) while none of them moves."""
        held: dict[int, list[Element]] = {}
        for e in self.elements[side]:
            if e.square != DEAD:
                held.setdefault(e.square, []).append(e)
        return held

    def engaged(self, square: int) -> bool:
        """CF-AUTO-1: a square holding elements of both sides (public: both sides know it)."""
        # Plain loops: asked several times per legal-action list, where generators cost twice as much.
        for e in self.elements[0]:
            if e.square == square:
                break
        else:
            return False
        for e in self.elements[1]:
            if e.square == square:
                return True
        return False

    def engaged_squares(self) -> set[int]:
        held = [{e.square for e in self.elements[s] if e.square != DEAD} for s in (0, 1)]
        return held[0] & held[1]

    def section_of(self, e: Element) -> Section:
        return self.sections[e.side][e.section]

    def map_changed(self) -> None:
        """The public map (cover, doorways, damage, rubble, smoke) was written in place: a new `map_stamp`, which
        the observation compares instead of the five board-sized lists (damage.py and smoke.py call it)."""
        self.map_stamp = new_stamp()

    def damage_total(self) -> int:
        return sum(self.damage)

    def name(self, square: int) -> str:
        return self.board.names[square]

    def is_open(self, square: int) -> bool:
        """Cover class Open now (CF-TER-1; damage can lower a building to Open, CF-BLD-7)."""
        return self.cover[square] == config.OPEN

    def kill(self, e: Element, why: str, told: bool = False) -> None:
        """Remove an element for good; a dead leader is replaced (CF-LDR-2/3). `told`: killed in close assault, so the
        enemy reads it by type (CF-CA-11); otherwise only the owner reads it (CF-HID-8: the firer is not told what
        its fire did; CF-HID-3: enemy squares)."""
        square = e.square
        e.square, e.overwatch, e.suppressed = DEAD, DEAD, False
        self.graveyard.append(e.name)
        self._killed = True
        self.log.add("killed", f"{e.name} is killed ({why})", e.side, square=square, rule="CF-RES-3",
                     **private(e.side, public=f"a {e.row} element is killed in close assault" if told else None))
        if self.section_of(e).leader == e.slot:
            leaders.leader_lost(self, e, square)

    def finish(self, winner: int, why: str) -> None:
        """CF-VIC-2: 0 or 1 wins, 2 a draw."""
        self.winner, self.decision, self.tasks = winner, None, []
        words = "draw" if winner == 2 else f"{SIDE_NAMES[winner]} wins"
        self.log.add("game_over", f"game over, {words}: {why}", rule="CF-VIC-2")

    # Protocol (observation, view, labels and rendering: TaskGame) ---------------------------------------
    def returns(self) -> tuple[float, float]:
        """CF-VIC-3: +1 win, -1 loss, 0 draw."""
        if self.winner is None or self.winner == 2:
            return 0.0, 0.0
        return (1.0, -1.0) if self.winner == ATTACKER else (-1.0, 1.0)

    def check_invariants(self) -> None:
        """Pools and AP spent within bounds; dead stay dead; stacks at most 3; turn within the limit."""
        for side in (0, 1):
            for s in self.sections[side]:
                assert s.pool >= 0, (s.name, s.pool)
            counts: dict[int, int] = {}
            for e in self.elements[side]:
                assert 0 <= e.ap_spent <= self.tables.ap["element_cap"], (e.name, e.ap_spent)
                if e.square != DEAD:
                    assert e.name not in self.graveyard, e.name
                    counts[e.square] = counts.get(e.square, 0) + 1
            assert all(c <= 3 for c in counts.values()), counts
        assert self.turn <= self.scenario.turns + 1

    # Copy and save (clone: TaskGame) -------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "ruleset": "cityfight", "scenario": self.scenario.path, "options": dict(self.options),
            "dice": self.dice.to_dict(),
            "turn": self.turn, "phase": self.phase, "winner": self.winner,
            "cover": list(self.cover), "door": list(self.door),
            "damage": _sparse(self.damage), "rubble": [i for i, r in enumerate(self.rubble) if r],
            "smoke": _sparse(self.smoke), "smoke_blocks": [b.to_dict() for b in self.smoke_blocks],
            "knowledge": [k.to_dict() for k in self.knowledge],
            "outs": list(self.outs), "next_side": self.next_side, "active": self.active, "active_side": self.active_side,
            "decision": None if self.decision is None else [self.decision[0], _copy(self.decision[1])],
            "tasks": [_copy(FLOW.save(t)) for t in self.tasks], "graveyard": list(self.graveyard),
            "setup_events": [event_to_dict(e) for e in self.setup_events],   # what the set-up rolled (hidden set-up)
            "sections": [[s.to_dict() for s in side] for side in self.sections],
            "elements": [[e.to_dict() for e in side] for side in self.elements],
        }

    @classmethod
    def from_dict(cls, data: dict, dice: Dice | None = None) -> CityfightGame:
        game = cls._without_setup(data, dice)
        for key in ("turn", "phase", "winner", "next_side", "active", "active_side"):
            setattr(game, key, data[key])
        for key in ("cover", "door", "outs", "graveyard"):
            setattr(game, key, list(data[key]))
        n = game.board.size
        game.damage, game.smoke = _dense(data["damage"], n), _dense(data["smoke"], n)
        game.rubble = [False] * n
        for i in data["rubble"]:
            game.rubble[i] = True
        game.smoke_blocks = [Smoke(**b) for b in data["smoke_blocks"]]
        game.smoke_count = sum(game.smoke)
        game.map_changed()
        game.knowledge = [Knowledge.from_dict(k) for k in data["knowledge"]]
        game.decision = None if data["decision"] is None else (Decision(data["decision"][0]), _copy(data["decision"][1]))
        game.tasks = [FLOW.load(_copy(t)) for t in data["tasks"]]
        game.setup_events = [event_from_dict(e) for e in data.get("setup_events", [])]
        game.sections = [[Section.from_dict(s) for s in side] for side in data["sections"]]
        game.elements = [[Element.from_dict(e) for e in side] for side in data["elements"]]
        return game


def _sparse(values: list[int]) -> list[list[int]]:
    """[[index, value], ...] of the non-zero values (saves are mostly zeros)."""
    return [[i, v] for i, v in enumerate(values) if v]


def _dense(pairs, n: int) -> list[int]:
    values = [0] * n
    for i, v in pairs:
        values[i] = v
    return values


def _copy(value):
    """A deep copy of plain JSON-like data (lists, dicts, scalars)."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_copy(v) for v in value]
    return value
