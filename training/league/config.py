"""The `league:` section of a training config: how `rubble league` schedules its rounds and draws opponents.

Every field has a default, so any `rubble train` config also runs a league; `rubble train` ignores the section.

    league:
      round_steps: 50000     # timesteps each side learns per round (the sides take turns)
      join_every: 1          # rounds between snapshots of each side joining the pool
      self_play: 0.35        # share of games against the other side's current policy (AlphaStar's main agents: 35 %)
      weighting: squared     # PFSP's f over the estimated win rate x: squared (1-x)^2, linear, variance, uniform
      decay: 0.99            # each game against an opponent scales the earlier games against it by this
      rating_games: 10       # games a new snapshot plays against each rated opponent of the other side
      rating_opponents: 8    # the newest snapshots it plays for its rating (plus scripted and random)
      exploiters: false      # a main exploiter per side (AlphaStar): it learns against the other side's current
                             # policy only, its snapshots join its side's pool, so the main learners meet their holes
      exploiter_steps: 50000 # timesteps each exploiter learns per round (after the main learners' turns)
      exploiter_reset: 0.7   # an exploiter winning more than this against the current policy restarts from the
      exploiter_rounds: 4    # cloned start, as does one that has learnt this many rounds since its last start
      start_from: {}         # side -> an actor.zip its main learner starts from instead of behaviour cloning
                             # (training/learn/warm_start.py), e.g. {defender: results/cityfight/defender-.../actor.zip}
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

import yaml

from envs.engine.scenario import Fields

#: PFSP's weighting functions f(x) of the learner's estimated win rate x against an opponent (Vinyals et al. 2019,
#: the AlphaStar pseudocode's names): 'squared' is f_hard with p = 2, focusing on the opponents it loses to;
#: 'uniform' is plain fictitious self-play (every past policy alike, Heinrich et al. 2015).
WEIGHTINGS = ("squared", "linear", "variance", "uniform")


@dataclass(frozen=True)
class LeagueSettings:
    round_steps: int = 50_000
    join_every: int = 1
    self_play: float = 0.35
    weighting: str = "squared"
    decay: float = 0.99
    rating_games: int = 10
    rating_opponents: int = 8
    exploiters: bool = False
    exploiter_steps: int = 50_000
    exploiter_reset: float = 0.7
    exploiter_rounds: int = 4
    start_from: dict = field(default_factory=dict)   # side -> actor.zip path

    def to_yaml(self) -> str:
        return yaml.safe_dump({"league": asdict(self)}, sort_keys=False)


def load_league_settings(path) -> LeagueSettings:
    """The config's `league:` section (every field optional); ScenarioError names the file and field."""
    f = Fields.load(path).sub("league", default={})
    f.unknown(set(LeagueSettings.__dataclass_fields__))
    d = LeagueSettings()
    return LeagueSettings(
        round_steps=f.int("round_steps", min=1, default=d.round_steps),
        join_every=f.int("join_every", min=1, default=d.join_every),
        self_play=_fraction(f, "self_play", d.self_play),
        weighting=f.choice("weighting", WEIGHTINGS, default=d.weighting),
        decay=_fraction(f, "decay", d.decay),
        rating_games=f.int("rating_games", min=0, default=d.rating_games),
        rating_opponents=f.int("rating_opponents", min=0, default=d.rating_opponents),
        exploiters=f.bool("exploiters", default=d.exploiters),
        exploiter_steps=f.int("exploiter_steps", min=1, default=d.exploiter_steps),
        exploiter_reset=_fraction(f, "exploiter_reset", d.exploiter_reset),
        exploiter_rounds=f.int("exploiter_rounds", min=1, default=d.exploiter_rounds),
        start_from=_start_from(f),
    )


def _start_from(f: Fields) -> dict:
    """side -> path; the sides and the files are checked against the ruleset when a league starts."""
    starts = f.sub("start_from", default={})
    for side in starts.data:
        starts.str(side)
    return dict(starts.data)


def _fraction(f: Fields, key: str, default: float) -> float:
    value = f.number(key, default=default)
    if not 0.0 <= value <= 1.0:
        raise f.error(key, "a number in 0..1", value)
    return value
