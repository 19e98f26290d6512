"""The tasks of the Konflikt '47 flow as typed records (envs.engine.flow); each handler says what it does."""
from __future__ import annotations

from typing import NamedTuple


class StartTurn(NamedTuple):
    """turns.start_turn: KC-TURN-1: fill the bag."""


class Draw(NamedTuple):
    """turns.draw: KC-TURN-2/4: draw a die, or end the turn when the bag is empty."""


class OrderTest(NamedTuple):
    """orders.order_test: KC-ORD-7..9 then the order (or Down, or FUBAR)."""
    uid: int
    order: str


class Carry(NamedTuple):
    """orders.carry: KC-ORD-1..6: carry out an order that passed its test."""
    uid: int
    order: str


class AfterMove(NamedTuple):
    """movement.after_move: KC-AMB-1 windows, then an Advance may shoot (KC-ORD-2)."""
    uid: int
    order: str


class FixOpening(NamedTuple):
    """movement.fix_opening: KB-FROM-5: during its Advance or Run a unit inside may re-designate its Fixed
    weapon's opening (KC-HID-9: a hidden occupant is asked whatever its weapons)."""
    uid: int


class AmbushWindow(NamedTuple):
    """movement.ambush_window: KC-AMB-1: the next Ambush unit (by id) that could fire at the mover decides."""
    mover: int
    after: int


class Declare(NamedTuple):
    """shooting.declare: KC-SHOOT-1/2: a declared attack; the target may react by going Down. From inside, one
    side's attack (KB-FROM-3/4): its side, its models and its HE choice; None: every opening and model.
    `leaping`: the floor-0 opening a target inside is leaping out through, shot in the open at its point
    (KB-ASLT-4, KC-CQ-3)."""
    firer: int
    target: int
    moved: bool
    side: str | None = None
    models: list | None = None
    he: bool = False
    leaping: int | None = None


class Shoot(NamedTuple):
    """shooting.shoot: KC-SHOOT-1: measure, to hit, pins, damage, casualties, morale (`leaping`: as in Declare)."""
    firer: int
    target: int
    moved: bool
    side: str | None = None
    models: list | None = None
    he: bool = False
    leaping: int | None = None


class Assault(NamedTuple):
    """closequarters.assault: KC-CQ-3: before the assaulter moves, the target may fire at it if it can (`leaping`:
    the floor-0 opening a unit inside leaps out through, KB-ASLT-4)."""
    attacker: int
    target: int
    distance: float
    leaping: int | None = None


class Charge(NamedTuple):
    """closequarters.charge: KC-CQ-2: after any reaction fire, the assaulter Runs into contact at `cell` (None: an
    assault inside a building, KB-ASLT-3, fought from where it stands)."""
    attacker: int
    target: int
    cell: tuple | None


class Fight(NamedTuple):
    """closequarters.fight: KC-CQ-4..6: one round of close quarters."""
    attacker: int
    target: int
    round: int


class Fubar(NamedTuple):
    """orders.fubar: KC-ORD-9 / KC-TAB-6."""
    uid: int


class EndTurn(NamedTuple):
    """turns.end_turn: KC-TURN-5/9: keep-or-return choices, side A then side B."""


class KeepNext(NamedTuple):
    """turns.keep_next: KC-TURN-9: the next Down/Ambush unit's owner decides (hidden until all are made)."""
    after: int


class TurnOver(NamedTuple):
    """turns.turn_over: KC-TURN-9 reveal, kept Down sheds D3 pins, KC-TURN-7 next turn or the end."""


class AskTarget(NamedTuple):
    """shooting via game.ask_target: KC-ORD-1/2: the unit may now pick a target (after any Ambush windows)."""
    uid: int
    moved: bool


class Ram(NamedTuple):
    """vehicles.ram: KV-RAM-2: reaction windows for the section's occupants (by id) while the vehicle is still at
    its start, then its Run to `cell` and the ram itself."""
    uid: int
    section: int
    distance: float
    after: int
    cell: tuple = ()
