"""A league's pool of opponents and how the learners draw from it: prioritized fictitious self-play (PFSP).

The scheme is AlphaStar's main agents' (Vinyals et al. 2019, "Grandmaster level in StarCraft II using multi-agent
reinforcement learning"): a learner plays the other side's current policy in a fixed share of its games
(`self_play`) and otherwise a frozen member of that side's pool, member i drawn with probability
f(x_i) / sum_j f(x_j), where x_i is the learner's estimated win rate against it. f = (1 - x)^2 ('squared')
puts the games where the learner still loses; a member it always beats is seldom drawn, but its weight never
reaches 0 (see `Tally.win_rate`), so a policy that forgets how to beat it meets it again. With f = 1
('uniform') this is fictitious self-play (Heinrich et al. 2015): the opponent is the average of past policies.

The meta-strategy (the draw probabilities over each pool) is recomputed at each round's end only, so that a
round's draws depend only on the saved state and the seeded numpy Generator kept beside it. Everything here
round-trips through JSON exactly (`to_dict` / `from_dict`), the Generator's state included: a resumed league
draws the sequence the interrupted one would have drawn.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

import numpy as np

from .config import LeagueSettings

#: The name of the other side's current policy among a learner's opponents (not a pool member: it changes).
LATEST = "latest"
#: The built-in agents every pool starts with.
BUILT_IN = ("scripted", "random")
#: A main exploiter's name beside its side's (AlphaStar's main exploiters, Vinyals et al. 2019): it plays only the
#: other side's current policy, and its snapshots join its side's pool like the main learner's.
EXPLOITER = "-exploiter"


def exploiter(side: str) -> str:
    return side + EXPLOITER


def side_of(learner: str) -> str:
    """The side a learner (a main learner's side name or a main exploiter's name) plays."""
    return learner.removesuffix(EXPLOITER)


@dataclass(frozen=True)
class Member:
    """One frozen opponent on `side`: a built-in agent (file None) or a snapshot (an actor.zip in the run folder)."""

    name: str
    side: str
    file: str | None = None     # relative to the run folder, e.g. pool/enemy-r3.zip
    round: int = 0              # the round after which it joined (0: from the start)


@dataclass
class Tally:
    """A learner's results against one opponent, each earlier game scaled by `decay` at every new game (the
    AlphaStar pseudocode's payoff table), so that the estimate follows the learner as it improves."""

    wins: float = 0.0
    draws: float = 0.0
    games: float = 0.0

    def win_rate(self) -> float:
        """Draws count half, and one virtual draw is added: 1/2 before any game (AlphaStar's prior), and never
        exactly 0 or 1, so that PFSP's weight of an opponent never vanishes."""
        return (self.wins + 0.5 * self.draws + 0.5) / (self.games + 1.0)

    def add(self, result: float, decay: float) -> None:
        self.wins, self.draws, self.games = self.wins * decay, self.draws * decay, self.games * decay
        self.wins += result > 0
        self.draws += result == 0
        self.games += 1


def weights(win_rates: np.ndarray, weighting: str) -> np.ndarray:
    """PFSP's f(x) for each estimated win rate x."""
    x = np.clip(np.asarray(win_rates, float), 0.0, 1.0)
    return {"squared": lambda: (1 - x) ** 2, "linear": lambda: 1 - x, "variance": lambda: x * (1 - x),
            "uniform": lambda: np.ones_like(x)}[weighting]()


def meta_strategy(win_rates: np.ndarray, weighting: str) -> np.ndarray:
    """f(x_i) / sum f(x_j); uniform when every weight is ~0 (the learner beats everyone)."""
    w = weights(win_rates, weighting)
    total = w.sum()
    return w / total if total > 1e-10 else np.full(len(w), 1.0 / len(w))


@dataclass
class LeagueState:
    """The pools of both sides, the learners' tallies, the meta-strategy, the ratings and the draws' generator."""

    sides: list[str]
    pools: dict[str, list[Member]]                 # side -> the members that play that side
    tallies: dict[str, dict[str, Tally]]           # learner (side, or exploiter(side)) -> opponent name -> its tally
    meta: dict[str, dict[str, float]]              # learner side -> pool member name -> draw probability
    ratings: dict[str, list[float]] = field(default_factory=dict)   # "name@side" -> [mu, sigma, games]
    rng: dict = field(default_factory=dict)        # the numpy Generator's bit_generator.state

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> LeagueState:
        return cls(sides=list(data["sides"]),
                   pools={s: [Member(**m) for m in members] for s, members in data["pools"].items()},
                   tallies={s: {name: Tally(**t) for name, t in ts.items()} for s, ts in data["tallies"].items()},
                   meta={s: dict(m) for s, m in data["meta"].items()},
                   ratings={k: list(v) for k, v in data["ratings"].items()}, rng=dict(data["rng"]))


class League:
    """The state plus the Generator the draws come from (its state is written back into `state.rng` on save)."""

    def __init__(self, state: LeagueState, settings: LeagueSettings) -> None:
        self.state, self.settings = state, settings
        self.rng = np.random.Generator(np.random.PCG64(0))
        self.rng.bit_generator.state = state.rng        # the saved state replaces the placeholder seed

    @classmethod
    def new(cls, sides, seed: int, settings: LeagueSettings) -> League:
        """Both pools hold the built-in agents; the generator is seeded from the run's seed alone."""
        rng = np.random.Generator(np.random.PCG64([seed, 11]))   # 11: a stream no other part of a run draws from
        pools = {s: [Member(name, s) for name in BUILT_IN] for s in sides}
        state = LeagueState(list(sides), pools, {s: {} for s in sides}, {s: {} for s in sides},
                            rng=rng.bit_generator.state)
        league = cls(state, settings)
        for side in sides:
            league.update_meta(side)
        return league

    def to_dict(self) -> dict:
        self.state.rng = self.rng.bit_generator.state
        return self.state.to_dict()

    @classmethod
    def from_dict(cls, data: dict, settings: LeagueSettings) -> League:
        return cls(LeagueState.from_dict(data), settings)

    # Who plays whom ------------------------------------------------------------------------------
    def other(self, learner: str) -> str:
        (other,) = [s for s in self.state.sides if s != side_of(learner)]
        return other

    def opponents(self, learner: str) -> list[Member]:
        """The frozen members the learner of `learner` may be drawn against: the other side's pool."""
        return self.state.pools[self.other(learner)]

    def draw(self, learner: str) -> str:
        """The opponent of the learner's next game: LATEST with probability `self_play`, else a pool member by
        the meta-strategy; a main exploiter's, always LATEST (taking nothing from the generator)."""
        if learner.endswith(EXPLOITER):
            return LATEST
        if self.rng.random() < self.settings.self_play:
            return LATEST
        names = list(self.state.meta[learner])
        return names[int(self.rng.choice(len(names), p=np.fromiter(self.state.meta[learner].values(), float)))]

    def record(self, learner: str, opponent: str, result: float) -> None:
        """A finished training game of the learner against `opponent`: its return (> 0 a win, 0 a draw)."""
        self.state.tallies.setdefault(learner, {}).setdefault(opponent, Tally()).add(result, self.settings.decay)

    def win_rate(self, learner: str, opponent: str) -> float:
        return self.state.tallies.get(learner, {}).get(opponent, Tally()).win_rate()

    def forget(self, learner: str) -> None:
        """A learner restarting from the cloned start: its results so far are no longer its own."""
        self.state.tallies[learner] = {}

    def update_meta(self, learner: str) -> None:
        """The meta-strategy of the learner over the other side's pool, from the current tallies."""
        names = [m.name for m in self.opponents(learner)]
        probs = meta_strategy(np.array([self.win_rate(learner, n) for n in names]), self.settings.weighting)
        self.state.meta[learner] = {n: float(p) for n, p in zip(names, probs)}

    def join(self, member: Member) -> None:
        """A snapshot joins its side's pool; the other side's learner gets it in its meta-strategy now."""
        self.state.pools[member.side].append(member)
        for side in self.state.sides:
            if side != member.side:
                self.update_meta(side)

    def member(self, side: str, name: str) -> Member:
        return next(m for m in self.state.pools[side] if m.name == name)
