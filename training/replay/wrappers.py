"""Record episodes driven by foreign code (SB3, RLlib, a user's loop) as replay files.

    env = RecordReplays(gymnasium.make("rubble/Cityfight-v0"), "replays/")        # Gymnasium
    aec = RecordAECReplays(envs.make_aec("cityfight"), "replays/")                   # PettingZoo AEC

Both swap the adapter's ruleset for a stand-in whose `new_game` returns a recording state, so every
decision is recorded, the opponent's inside the Gymnasium env's `step` and `reset` included, with no change to
the adapters or the rulesets (which must not know about replays). A game is written when it ends, or cut
short (outcome.over false) when the episode is reset or closed before its end. Files are never overwritten:
a taken name is numbered.
"""
from __future__ import annotations

from pathlib import Path

import gymnasium
from pettingzoo.utils.wrappers import BaseWrapper

from . import files as replay


class _RecordingRuleset:
    """The adapter's ruleset, except that each new game records itself and is handed to `started`."""

    def __init__(self, ruleset, agents, started) -> None:
        self._ruleset, self._agents, self._started = ruleset, list(agents), started

    def new_game(self, scenario=None, seed=0, dice=None, **options):
        if dice is not None or seed is None:
            raise ValueError("a recorded game needs a seed (not given dice): its replay is re-played from the seed")
        state, _ = replay.start(self._ruleset, scenario, seed, self._agents, options)
        self._started(state)
        return state

    def __getattr__(self, name):
        return getattr(self._ruleset, name)


class _Games:
    """The recorded games not yet written, and where they go."""

    def __init__(self, directory, gz: bool) -> None:
        self.directory, self.gz, self.pending, self.written = Path(directory), gz, [], []

    def add(self, state) -> None:
        self.pending.append(state)

    def flush(self, cut_short: bool) -> None:
        """Write every finished game, and with `cut_short` the unfinished ones that made a move."""
        keep = []
        for state in self.pending:
            if state.is_over or (cut_short and state.replay.steps):
                state.replay.finish(state)
                name = replay.file_name(state.replay.ruleset, state.replay.agents, state.replay.seed, self.gz)
                self.written.append(replay.write(state.replay, replay.free_path(self.directory / name)))
            elif not cut_short:
                keep.append(state)
        self.pending = keep


def _opponent_name(spec) -> str:
    return spec if isinstance(spec, str) else getattr(spec, "name", type(spec).__name__)


class RecordReplays(gymnasium.Wrapper):
    """A Gymnasium RubbleEnv that writes each episode's game (both sides' decisions) to `directory`."""

    def __init__(self, env, directory, gz: bool = True) -> None:
        super().__init__(env)
        base = env.unwrapped
        self.games = _Games(directory, gz)
        opponent = _opponent_name(base._opponent.spec)
        agents = ["external" if s == base.learner_side else opponent for s in range(len(base.ruleset.sides))]
        base._ruleset = _RecordingRuleset(base._ruleset, agents, self.games.add)

    @property
    def written(self) -> list[Path]:
        """The replay files written so far."""
        return self.games.written

    def reset(self, **kwargs):
        self.games.flush(cut_short=True)     # the previous episode, if it did not end
        result = self.env.reset(**kwargs)
        self.games.flush(cut_short=False)    # games that ended before the learner's first decision
        return result

    def step(self, action):
        result = self.env.step(action)
        if result[2] or result[3]:
            self.games.flush(cut_short=True)
        return result

    def close(self):
        self.games.flush(cut_short=True)
        return self.env.close()


class RecordAECReplays(BaseWrapper):
    """A PettingZoo AEC RubbleAECEnv (wrapped or not) that writes each game to `directory`."""

    def __init__(self, env, directory, gz: bool = True) -> None:
        super().__init__(env)
        base = env.unwrapped
        self.games = _Games(directory, gz)
        base._ruleset = _RecordingRuleset(base._ruleset, ["external"] * len(base.possible_agents),
                                          self.games.add)

    @property
    def written(self) -> list[Path]:
        return self.games.written

    def reset(self, seed=None, options=None):
        self.games.flush(cut_short=True)
        self.env.reset(seed=seed, options=options)

    def step(self, action):
        self.env.step(action)
        self.games.flush(cut_short=False)    # writes the game as soon as it is over

    def close(self):
        self.games.flush(cut_short=True)
        self.env.close()
