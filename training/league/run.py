"""`rubble league`: both sides of a ruleset learn together against a growing pool of their past selves.

The scheme is prioritized fictitious self-play (PFSP) as AlphaStar's main agents play it (Vinyals et al. 2019);
training/league/pool.py says how the opponents are drawn. Why PFSP rather than plain fictitious self-play
(Heinrich et al. 2015) or a PSRO meta-Nash (Lanctot et al. 2017): PSRO solves a meta-game over the full
payoff matrix between every pair of pool members, games a 60-minute budget on two cores cannot spare once
the pool holds dozens of snapshots; uniform FSP spends most games on early snapshots that the learner already
beats. PFSP needs only the learner's own results, which its training games give for free, and spends the games
where the learner still loses, the holes a solo player would find. `weighting: uniform` gives plain FSP.

A league run, in results/<env>/league/<run>/:

    league.json     the run (env, seed, budget, progress, status) and the league: both pools, the learners'
                    decayed tallies, the meta-strategy, the openskill ratings and the draws' Generator state
    config.yaml     the training config, with its `league:` section (training/league/config.py)
    <side>/         each side's learner as a `rubble train` run folder: model.zip (resumable), actor.zip (what
                    plays: `--enemy results/<env>/league/<run>/enemy/actor.zip`), run.json, eval.csv, curve.png
    <side>-exploiter/  with `exploiters: true`, each side's main exploiter, the same kind of folder
    pool/           the snapshots that joined the pools, as actor.zip files (no pickle), <side>-r<round>.zip
    report.md       final win rates against the scripted and random agents, the ratings, the pools

Rounds: in each round every side in turn learns `round_steps` timesteps (the other side's current policy and
the pools are frozen meanwhile); at the round's end each side is evaluated against the scripted opponent, every
`join_every` rounds a snapshot of each joins its pool and plays rating games, and the meta-strategy is
recomputed. With `exploiters: true` each side also has a main exploiter (AlphaStar's, Vinyals et al. 2019): after
the main learners' turns it learns `exploiter_steps` against the other side's current policy alone, its snapshots
join its side's pool with the main learner's, and it starts again from the cloned start once it wins more than
`exploiter_reset` of its games or has learnt `exploiter_rounds` rounds. It is what a best response is
(training/league/exploit.py), kept inside the league: the main learners meet their holes while they train, through PFSP,
which draws an exploiter's snapshot the more often the more it wins.

Both sides (and the exploiters) start by behaviour cloning the scripted agents (training/learn/imitation.py), through the
clone cache shared with `rubble train` runs of the same seed and config (training/learn/clonecache.py), unless
`league.start_from` names an actor.zip for a side: its main learner starts from that (training/learn/warm_start.py).

Ctrl-C or SIGTERM stops a league as it stops a train run: the models, the actors and league.json are saved, each
file written whole or not at all, and `rubble league ENV --resume RUN` continues from where it stood.
"""
from __future__ import annotations

import json
import sys
from dataclasses import asdict, dataclass, field, replace
from functools import partial
from pathlib import Path

import gymnasium
from stable_baselines3.common.callbacks import BaseCallback, CallbackList

from agents.trained import Actor, PolicyAgent, read_actor
from envs import registry
from envs.engine.scenario import ScenarioError
from envs.gym_env import RubbleEnv
from training import lookup
from training.folders.rundir import RESULTS_ROOT, RunDir, RunInfo, check_run_name, git_commit, new_run_name, replacing, versions
from training.learn.callbacks import Clock, TimeBudget
from training.learn.config import TrainConfig, load_config
from training.learn.evallog import append_eval_row, eval_row, read_eval_rows
from training.learn.final import final_evaluation
from training.learn.train import TB_NAME, Session, check_config, terminate_as_interrupt
from training.learn.warm_start import check_start, start_record
from training.measure.series import TRAIN_EVAL_SEED, play_series, seeds_from

from .config import LeagueSettings, load_league_settings
from .pool import BUILT_IN, LATEST, League, Member, exploiter, side_of
from .ratings import entry_name, update

#: Rating games use seeds from here: neither the periodic evaluations' (0..) nor the held-out ones (1,000,000..).
RATING_SEED = 500_000
LEAGUE_FILE = "league.json"


@dataclass(frozen=True)
class LeagueRequest:
    """What `rubble league` was asked for (a new league)."""

    env: str
    scenario: str | None = None
    seed: int = 0
    minutes: float | None = None
    rounds: int | None = None
    config_path: Path | None = None
    run: str | None = None
    results: Path = RESULTS_ROOT


@dataclass(frozen=True)
class LeagueInfo:
    """The run part of league.json."""

    env: str
    run: str
    scenario: str | None
    seed: int
    minutes: float | None          # the budget: wall-clock minutes over every session, or
    rounds: int | None             # rounds completed
    envs: int
    versions: dict = field(default_factory=dict)
    git_commit: str = "unknown"
    status: str = "new"            # new, running, interrupted, finished, failed
    sessions: int = 0
    trained_seconds: float = 0.0
    round: int = 1                 # the round in progress (1-based)
    turn: int = 0                  # the learner learning in it (an index into learners()); their number: the round's end
    targets: dict = field(default_factory=dict)   # learner -> the timestep count its turn in this round ends at
    started: dict = field(default_factory=dict)   # main exploiter -> the round it last started from the cloned start

    def with_progress(self, **changes) -> LeagueInfo:
        return replace(self, **changes)


class LeagueDir:
    """Paths inside one league's folder."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    config = property(lambda self: self.path / "config.yaml")
    file = property(lambda self: self.path / LEAGUE_FILE)
    pool = property(lambda self: self.path / "pool")
    report = property(lambda self: self.path / "report.md")

    def side(self, side: str) -> RunDir:
        return RunDir(self.path / side)

    def read(self, settings: LeagueSettings) -> tuple[LeagueInfo, League]:
        data = json.loads(self.file.read_text(encoding="utf-8"))
        return LeagueInfo(**data["run"]), League.from_dict(data["league"], settings)

    def write(self, info: LeagueInfo, league: League) -> None:
        with replacing(self.file) as tmp:
            tmp.write_text(json.dumps({"run": asdict(info), "league": league.to_dict()}, indent=1) + "\n",
                           encoding="utf-8")


# Starting a league ------------------------------------------------------------------------------------
def new_league(request: LeagueRequest) -> LeagueDir:
    """Check the config, then make results/<env>/league/<run>/ with config.yaml, league.json and a folder per side."""
    rs = registry.get(request.env)
    if len(rs.sides) != 2:
        raise lookup.CommandError(f"a league needs two sides; {rs.name} has {len(rs.sides)} ({', '.join(rs.sides)})")
    config, settings = load_config(request.config_path), load_league_settings(request.config_path)
    check_config(config, config.envs, request.config_path, rs)
    if config.imitation.games:
        lookup.agent(rs, config.imitation.teacher)
    check_starts(settings, rs, request.config_path, config)
    root = Path(request.results) / rs.name / "league"
    if request.run is not None:
        check_run_name(request.run)
        if (root / request.run).exists():
            raise FileExistsError(f"league {request.run!r} exists in {root}: resume it with --resume {request.run}, "
                                  "or choose another --run")
    name = request.run or new_run_name(root, f"league-seed{request.seed}")
    ldir = LeagueDir(root / name)
    ldir.path.mkdir(parents=True)
    ldir.config.write_text(config.to_yaml() + settings.to_yaml(), encoding="utf-8")
    info = LeagueInfo(env=rs.name, run=name, scenario=request.scenario, seed=request.seed,
                      minutes=request.minutes if request.minutes is not None or request.rounds else config.minutes,
                      rounds=request.rounds, envs=config.envs, versions=versions(), git_commit=git_commit())
    ldir.write(info, League.new(rs.sides, request.seed, settings))
    for learner in learners(rs.sides, settings):
        _new_side(ldir, info, learner, config, settings.start_from.get(learner))
    return ldir


def check_starts(settings: LeagueSettings, rs, config_path, config: TrainConfig) -> None:
    """`league.start_from`: a main learner's side, and an actor.zip that fits the ruleset, the side and the policy
    the config builds (checked on a policy of that config before anything is written)."""
    for side, path in settings.start_from.items():
        if side not in rs.sides:
            raise ScenarioError(str(config_path), f"league.start_from.{side}", f"a side of {rs.name} "
                                f"({', '.join(rs.sides)})", side)
        check_start(path, rs, rs.sides.index(side), config)


def learners(sides, settings: LeagueSettings) -> list[str]:
    """The learners in the order of their turns: the main learners (by side name), then the main exploiters."""
    return [*sides, *(exploiter(side) for side in sides if settings.exploiters)]


def _new_side(ldir: LeagueDir, info: LeagueInfo, learner: str, config: TrainConfig, start: str | None) -> None:
    """<learner>/ as a train run folder: config.yaml and run.json (its model comes with the first session, from the
    actor `start` if `league.start_from` names one for it)."""
    rundir = ldir.side(learner)
    rundir.path.mkdir()
    rundir.config.write_text(config.to_yaml(), encoding="utf-8")
    rundir.write_info(RunInfo(env=info.env, run=f"{info.run}-{learner}", side=side_of(learner), opponent="league",
                              scenario=info.scenario, seed=info.seed, timesteps=None, minutes=None, envs=info.envs,
                              versions=info.versions, git_commit=info.git_commit, imitation=start_record(start)))


def find_league(results: Path, env: str, run: str) -> LeagueDir:
    """The league called `run` under results/<env>/league/, or `run` as a path to a league folder."""
    for candidate in (Path(results) / env / "league" / run, Path(run)):
        if (candidate / LEAGUE_FILE).is_file():
            return LeagueDir(candidate)
    raise FileNotFoundError(f"no league {run!r}: neither {Path(results) / env / 'league' / run} nor {run} "
                            f"holds a {LEAGUE_FILE}")


# The learners' environments ---------------------------------------------------------------------------
class Matchup:
    """The opponent of one training environment's current game: drawn from the league at every deal."""

    def __init__(self, run: LeagueRun, learner: str) -> None:
        self.run, self.learner, self.current = run, learner, None

    def __call__(self, side: int, seed: int):
        """The factory RubbleEnv's Opponent calls for each new game."""
        self.current = self.run.league.draw(self.learner)
        return self.run.agent(self.current, side, seed)


class LeagueGame(gymnasium.Wrapper):
    """Reports each finished game's result against its drawn opponent to the league (PFSP's win rates)."""

    def __init__(self, env: RubbleEnv, matchup: Matchup) -> None:
        super().__init__(env)
        self.matchup = matchup

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        if terminated or truncated:   # the game's result, not the reward: a shaped reward adds the standing's change
            result = self.env.unwrapped.state.returns()[self.env.unwrapped.learner_side]
            self.matchup.run.league.record(self.matchup.learner, self.matchup.current, float(result))
        return obs, reward, terminated, truncated, info

    def action_masks(self):
        return self.env.action_masks()


def league_env(run: LeagueRun, info: RunInfo, learner: str) -> gymnasium.Env:
    from stable_baselines3.common.monitor import Monitor

    matchup = Matchup(run, learner)
    env = RubbleEnv(info.env, scenario=info.scenario, opponent=matchup, learner_side=info.side,
                    reward_shaping=run.config.reward_shaping)
    return Monitor(LeagueGame(env, matchup))


class LeagueSide(Session):
    """One learner (a side's main learner or its main exploiter): a train Session whose environments draw their
    opponents from the league."""

    def __init__(self, run: LeagueRun, learner: str, config: TrainConfig) -> None:
        self.league_run, self.learner = run, learner
        rundir = run.ldir.side(learner)
        super().__init__(rundir, rundir.read_info(), config, progress=False)

    def make_venv(self):
        from stable_baselines3.common.vec_env import DummyVecEnv

        # In this process whatever the config's vec_env: every environment draws from the one league object.
        return DummyVecEnv([partial(league_env, self.league_run, self.info, self.learner) for _ in range(self.info.envs)])

    @property
    def teacher_opponent(self) -> str:
        return "scripted"      # behaviour cloning plays the scripted agents, as `rubble train` does

    def evaluate(self, timesteps: int):
        """Against the scripted opponent on the curve's seeds: a row of eval.csv."""
        result = self.play_learner("scripted", seeds_from(TRAIN_EVAL_SEED, self.config.eval_games))
        append_eval_row(self.rundir.eval_csv, eval_row(timesteps, self.clock.elapsed(), result))
        return result


# A session of a league --------------------------------------------------------------------------------
class LeagueRun:
    """One sitting of a league: both learners, the league, the clock; `play` runs it to its budget or Ctrl-C."""

    def __init__(self, ldir: LeagueDir, progress: bool = True, budget: tuple[float | None, int | None] = (None, None)):
        self.ldir, self.progress = ldir, progress
        self.config, self.settings = load_config(ldir.config), load_league_settings(ldir.config)
        self.info, self.league = ldir.read(self.settings)
        if budget != (None, None):      # a resume may set a new budget
            self.info = self.info.with_progress(minutes=budget[0], rounds=budget[1])
        self.rs = registry.get(self.info.env)
        self.clock = Clock(self.info.trained_seconds, None if self.info.minutes is None else 60 * self.info.minutes)
        self.actors: dict[str, Actor] = {}     # pool snapshots and the latest policies, by member name
        self.learners = {name: LeagueSide(self, name, self.config) for name in learners(self.rs.sides, self.settings)}
        self.sides = {side: self.learners[side] for side in self.rs.sides}    # the main learners
        self.bar = LeagueBar(self)

    # Opponents ----------------------------------------------------------------------------------
    def agent(self, name: str, side: int, seed: int):
        """The agent `name` of the league playing `side`: the latest policy, a snapshot or a built-in agent."""
        side_name = self.rs.sides[side]
        if name == LATEST:
            return PolicyAgent(self.actors[f"{LATEST}@{side_name}"], side, f"{side_name} {LATEST}")
        if name in BUILT_IN:
            return lookup.agent(self.rs, name)(side, seed)
        return PolicyAgent(self.snapshot(side_name, name), side, name)

    def snapshot(self, side: str, name: str) -> Actor:
        """A pool member's actor, read once (a joining snapshot's is there before it joins)."""
        if name not in self.actors:
            self.actors[name] = read_actor(self.ldir.path / self.league.member(side, name).file)
        return self.actors[name]

    def factory(self, member: Member):
        return lambda side, seed: self.agent(member.name, side, seed)

    # The loop ----------------------------------------------------------------------------------
    def spent(self) -> bool:
        if self.info.rounds is not None:
            return self.info.round > self.info.rounds
        return self.clock.spent()

    def play(self) -> str:
        """Run until the budget is spent, Ctrl-C or SIGTERM; saves either way; 'finished' or 'interrupted'."""
        started = not self.spent()
        self._save("running", sessions=self.info.sessions + int(started))
        status = "failed"
        try:
            with terminate_as_interrupt():
                self.imitate()
                while not self.spent():
                    self.step()
            status = "finished"
        except KeyboardInterrupt:
            status = "interrupted"
        finally:
            self.bar.close()
            self._save(status)
            for learner in self.learners.values():
                learner._close_envs()
        return status

    def imitate(self) -> None:
        """Each learner's start before its first step: behaviour cloning of the scripted agent if the config clones,
        unless `league.start_from` named an actor for it (run.json has it; Session put it in the new model)."""
        for name, learner in self.learners.items():
            if learner.model.num_timesteps:
                continue
            if "start_from" in learner.info.imitation:
                self.bar.say(f"{name} starts from {learner.info.imitation['start_from']}")
            elif self.config.imitation.games and not learner.info.imitation:
                self.bar.say(f"imitation: the scripted {learner.info.side}")
                learner.imitate()

    def step(self) -> None:
        """The next thing a round does: a learner's turn to learn, or the round's end."""
        turns = list(self.learners)
        if not self.info.targets:
            self.info = self.info.with_progress(targets={name: self.learners[name].model.num_timesteps
                                                         + self.turn_steps(name) for name in turns})
        if self.info.turn < len(turns):
            self.learn(turns[self.info.turn])
            if self.clock.spent() and self.info.rounds is None:
                return                  # the clock stopped the turn: a resume with more time finishes it
            self.info = self.info.with_progress(turn=self.info.turn + 1)
        else:
            self.end_round()
        self._save("running")

    def turn_steps(self, learner: str) -> int:
        return self.settings.round_steps if learner in self.sides else self.settings.exploiter_steps

    def learn(self, name: str) -> None:
        """The learner learns to its target against its draws; the other side's current policy is frozen
        meanwhile."""
        learner = self.learners[name]
        other = self.league.other(name)
        self.actors[f"{LATEST}@{other}"] = Actor.of(self.sides[other].model)
        remaining = self.info.targets[name] - learner.model.num_timesteps
        if remaining <= 0:
            return
        self.bar.turn(name)
        budget = [] if self.info.rounds is not None else [TimeBudget(self.clock)]
        learner.model.learn(remaining, callback=CallbackList([learner.updated, *budget, self.bar]),
                            reset_num_timesteps=False, tb_log_name=TB_NAME)

    def end_round(self) -> None:
        """Evaluate, let snapshots join (every `join_every` rounds) and rate them, recompute the meta-strategy."""
        r = self.info.round
        for learner in self.sides.values():
            self._maybe_evaluate(learner)
        if r % self.settings.join_every == 0:
            for name in self.learners:
                self.join(name, r)
        for name in self.learners:
            if name not in self.sides and self.exploiter_done(name, r):
                self.restart(name, r)
        for side in self.rs.sides:
            self.league.update_meta(side)
        self.info = self.info.with_progress(round=r + 1, turn=0, targets={})

    def _maybe_evaluate(self, learner: LeagueSide) -> None:
        rows = read_eval_rows(learner.rundir.eval_csv)
        steps = int(learner.model.num_timesteps)
        if not rows or steps - int(rows[-1]["timesteps"]) >= self.config.eval_every:
            self.bar.show(learner.info.side, learner.evaluate(steps))

    def exploiter_done(self, name: str, round_: int) -> bool:
        """AlphaStar's rule for a main exploiter: it has found a hole (wins more than `exploiter_reset` against
        the current policy) or had its rounds."""
        found = self.league.win_rate(name, LATEST) > self.settings.exploiter_reset
        return found or round_ - self.info.started.get(name, 0) >= self.settings.exploiter_rounds

    def restart(self, name: str, round_: int) -> None:
        """The exploiter starts again from the cloned start (fresh weights without cloning); its snapshots stay in
        the pool, its results so far are forgotten."""
        learner, model = self.learners[name], self.learners[name].model
        # a new policy and optimizer as MaskablePPO builds them (not its _setup_model, which would re-seed the envs);
        # the step count, the environments and the run folder stay
        model.policy = model.policy_class(model.observation_space, model.action_space, model.lr_schedule,
                                          **model.policy_kwargs).to(model.device)
        if self.config.imitation.games:
            learner.imitate()              # the clone cache's start, the one it began from
        self.league.forget(name)
        self.info = self.info.with_progress(started={**self.info.started, name: round_})
        self.bar.say(f"{name} starts again")

    def join(self, learner: str, round_: int) -> None:
        """A snapshot of the learner joins its side's pool, after its rating games."""
        side, name = side_of(learner), f"{learner}-r{round_}"
        member = Member(name, side, f"pool/{name}.zip", round_)
        self.ldir.pool.mkdir(exist_ok=True)
        actor = Actor.of(self.learners[learner].model)
        actor.meta = {**actor.meta, "env": self.info.env, "side": side, "run": f"{self.info.run}/{name}"}
        with replacing(self.ldir.path / member.file) as tmp:
            actor.save(tmp)
        self.actors[name] = actor
        self.rate(member)
        self.league.join(member)

    def rate(self, member: Member) -> None:
        """The new member plays `rating_games` games against each rated opponent of the other side; openskill."""
        other = self.league.other(member.side)
        pool = self.league.state.pools[other]
        snapshots = [m for m in pool if m.file][-self.settings.rating_opponents:] if self.settings.rating_opponents else []
        opponents = [m for m in pool if not m.file] + snapshots
        seeds = seeds_from(RATING_SEED, self.settings.rating_games)
        index = self.rs.sides.index(member.side)
        games = []
        for opponent in opponents:
            factories = [self.factory(opponent)] * 2
            factories[index] = self.factory(member)
            names = [entry_name(opponent.name, other)] * 2
            names[index] = entry_name(member.name, member.side)
            games += [(names[0], names[1], r.returns) for r in play_series(self.rs, self.info.scenario, factories, seeds)]
        self.bar.say(f"rating {member.name}: {len(games)} games")
        update(self.league.state.ratings, games)

    # Saving -------------------------------------------------------------------------------------
    def _save(self, status: str, **changes) -> None:
        """Every learner (model.zip, actor.zip, run.json) and league.json, each written whole or not at all."""
        for learner in self.learners.values():
            learner.save(status)
        self.info = self.info.with_progress(status=status, trained_seconds=round(self.clock.elapsed(), 2), **changes)
        self.ldir.write(self.info, self.league)

    def final(self) -> dict:
        """Each side's final table (training/learn/final.py): against scripted and random, with the baselines."""
        return {side: final_evaluation(learner) for side, learner in self.sides.items()}


class LeagueBar(BaseCallback):
    """One tqdm bar for the whole league: seconds of the budget (or rounds), the round and who is learning."""

    def __init__(self, run: LeagueRun) -> None:
        super().__init__()
        from tqdm import tqdm

        self.run, self.side, self.evals = run, "", {}
        rounds = run.info.rounds
        total, unit = (rounds, "rounds") if rounds is not None else (int(run.clock.budget or 0), "s")
        self.bar = tqdm(total=total, desc="league", disable=not run.progress, dynamic_ncols=True,
                        bar_format="{desc}: {percentage:3.0f}%|{bar}| {n}/{total} " + unit + "{postfix}")
        self.sync()

    def turn(self, side: str) -> None:
        self.side = side
        self.sync()

    def say(self, text: str) -> None:
        self.bar.set_postfix_str(text)

    def show(self, side: str, result) -> None:
        lo, hi = result.win_interval()
        self.evals[side] = f"{side} {result.win_rate:.0%} [{lo:.0%}, {hi:.0%}]"
        self.sync()

    def _on_step(self) -> bool:
        if self.model.num_timesteps % 256 < self.model.n_envs:
            self.sync()
        return True

    def sync(self) -> None:
        info = self.run.info
        now = info.round - 1 if info.rounds is not None else int(self.run.clock.elapsed())
        pools = "/".join(str(len(p)) for p in self.run.league.state.pools.values())
        steps = "/".join(f"{learner.model.num_timesteps:,}" for learner in self.run.sides.values()) \
            if hasattr(self.run, "sides") else "0"
        evals = "; vs scripted: " + ", ".join(self.evals.values()) if self.evals else ""
        self.bar.set_postfix_str(f"[round {info.round}, {self.side or '-'} learning, steps {steps}, pools {pools}"
                                 f"{evals}]", refresh=False)
        self.bar.update(max(0, min(now, self.bar.total) - self.bar.n))

    def close(self) -> None:
        self.sync()
        self.bar.close()


def run_league(ldir: LeagueDir, progress: bool = True, budget: tuple[float | None, int | None] = (None, None)):
    """A session of the league in `ldir` (held for this process): (status, final tables or {})."""
    import torch

    with RunDir(ldir.path).locked():
        torch.set_num_threads(load_config(ldir.config).torch_threads)
        run = LeagueRun(ldir, progress, budget)
        status = run.play()
        final = run.final() if status == "finished" else {}
        from .report import write_league_report
        write_league_report(run, final)
        if progress and status == "interrupted":
            print(f"interrupted; continue with `rubble league {run.info.env} --resume {run.info.run}`", file=sys.stderr)
        return run, status, final
