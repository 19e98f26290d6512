"""ONE generic PettingZoo AEC env for every ruleset: every side is an agent.

`agent_selection` follows the game's `current_side`, so one agent may act many times in a row (action
points). PettingZoo's module convention (envs/pettingzoo/<name>_v0.py) is two lines each:

    # envs/pettingzoo/rifles_urban_v0.py
    from envs.pettingzoo_env import aec_env_factory
    env, raw_env = aec_env_factory("rifles-urban")

Illegal actions (`illegal_action=`, as in envs/gym_env.py): "lose" (the default, PettingZoo's classic-game
convention: the acting agent gets `illegal_reward`, every agent is terminated, its info["illegal_action"]
is True), "penalize" (`illegal_reward` to the acting agent, the same agent decides again) or "raise"
(IllegalActionError). The game never changes on an illegal action.

Masks (observation["action_mask"], int8 as everywhere): the deciding agent's legal actions; all zero for an
agent that is not deciding (PettingZoo's classic games do the same); all ones for a terminated agent, as
the Gymnasium env's terminal observations (see envs/gym_env.py): never all false at the end.

`observation_key=` names the observation's vector entry: "observation" (PettingZoo's classic games, the
default) or "observations" (what RLlib's action-masking RLModule reads beside "action_mask"; see
examples/rllib_selfplay.py). Nothing else changes.

`state()` (PettingZoo's global state, for centralised critics) is every side's observation concatenated in
side order: all that any side knows, with the bounds of each. It is the umpire's view as far as the game has
one: what no side knows yet (unrevealed markers, future dice) is in no state. `state_space` is its Box.
"""
from __future__ import annotations

from functools import partial

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from .engine.contract import GameState, IllegalActionError, Ruleset
from .engine.dice import derive_seeds
from .gym_env import (
    MASK_DTYPE,
    as_action,
    check_illegal_action_mode,
    mask_box,
    masked_out,
    observation_box,
    reset_scenario,
    resolve_ruleset,
    terminal_mask,
)

# The observation dict's vector key: PettingZoo's convention, or RLlib's action-masking convention.
OBSERVATION_KEYS = ("observation", "observations")


def pettingzoo_name(ruleset: Ruleset) -> str:
    """PettingZoo-style module name: "rifles-urban" + "rubble/RiflesUrban-v0" -> "rifles_urban_v0"."""
    version = ruleset.gym_id.rsplit("-", 1)[-1] if "-v" in ruleset.gym_id else "v0"
    return f"{ruleset.name.replace('-', '_')}_{version}"


class RubbleAECEnv(AECEnv):
    """Every side of `ruleset` is an agent named after the side; observations carry the action mask."""

    metadata = {"render_modes": ["ansi", "rgb_array", "human"], "render_fps": 4, "is_parallelizable": False}

    def __init__(self, ruleset: str | Ruleset, scenario=None, render_mode: str | None = None,
                 render_side: int | None = None, umpire_events: bool = False, illegal_action: str = "lose",
                 illegal_reward: float = -1.0, observation_key: str = "observation", **options) -> None:
        super().__init__()
        if observation_key not in OBSERVATION_KEYS:
            raise ValueError(f"observation_key: expected one of {OBSERVATION_KEYS}, got {observation_key!r}")
        self.observation_key = observation_key
        check_illegal_action_mode(illegal_action, illegal_reward)
        self.illegal_action, self.illegal_reward = illegal_action, float(illegal_reward)
        self.umpire_events = umpire_events   # the umpire's event log in infos: for logging only (names hidden state)
        self._ruleset = resolve_ruleset(ruleset)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} not in {self.metadata['render_modes']}")
        self.metadata = {**type(self).metadata, "name": pettingzoo_name(self._ruleset)}
        self.render_mode, self.render_side = render_mode, render_side
        self._window = None
        if render_mode == "human":
            from .human_window import HumanWindow  # lazy: pygame is an optional extra
            self._window = HumanWindow(self.metadata["name"], self.metadata["render_fps"])
        self.scenario, self.options = scenario, options
        self.possible_agents = list(self._ruleset.sides)
        self._side_of = {agent: side for side, agent in enumerate(self.possible_agents)}
        n = self._ruleset.num_actions
        obs_space = spaces.Dict({observation_key: observation_box(self._ruleset),
                                 "action_mask": mask_box(n)})
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        box = observation_box(self._ruleset)
        sides = len(self.possible_agents)
        self.state_space = spaces.Box(np.tile(box.low, sides), np.tile(box.high, sides), dtype=np.float32)
        self._np_random: np.random.Generator | None = None
        self._game: GameState | None = None
        self._ended = False   # the episode is over (game over, or lost by an illegal action)
        self._quiet = True

    @property
    def game(self) -> GameState:
        """The game in progress (read-only; `state()` is PettingZoo's global-state method, not this)."""
        return self._game

    @property
    def ruleset(self) -> Ruleset:
        return self._ruleset

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game; the same seed gives the same game."""
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        (game_seed,) = derive_seeds(self._np_random, 1)
        scenario = reset_scenario(options, self.scenario)
        self._game = self._ruleset.new_game(scenario=scenario, seed=game_seed, **self.options)
        self._ended = False
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: self._info() for a in self.agents}
        self._quiet = True    # all rewards and returns zero, all infos the defaults (`step`'s short way)
        self._skip_agent_selection = None
        self._follow_game(self.agents[0])

    def step(self, action) -> None:
        """Play `action` for `agent_selection` (IllegalActionError if masked out; None for a finished agent)."""
        if self._ended:                   # every agent is terminated once the episode is over, and only then
            self._was_dead_step(action)
            return
        agent = self.agent_selection
        if action.__class__ is not int:   # as_action's own first test, without its call for the usual plain int
            action = as_action(action)
        game = self._game
        try:
            events = game.apply(action)   # checks the action, and raises before anything here changes
        except IllegalActionError:
            if self.illegal_action == "raise" or not masked_out(action, game.legal_action_mask()):
                raise                     # an action outside the space always raises
            self._illegal_step(agent)
            return
        if self._quiet and not self.umpire_events:
            # Every reward and return so far is zero and every info the default: nothing to clear, nothing to add.
            side = game.current_side
            if side is not None:
                self.agent_selection = self.possible_agents[side]
                return
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.infos = {a: self._info() for a in self.agents}
        if self.umpire_events:
            self.infos[agent]["events"] = events
        self._follow_game(agent)
        self._accumulate_rewards()
        self._quiet = not (self._ended or any(self.rewards.values()) or any(self._cumulative_rewards.values()))

    def _illegal_step(self, agent) -> None:
        """The game untouched: `agent` gets illegal_reward; "lose" terminates everyone, "penalize" asks again."""
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.infos = {a: self._info() for a in self.agents}
        self.infos[agent]["illegal_action"] = True
        self.rewards[agent] = self.illegal_reward
        self._quiet = False
        if self.illegal_action == "lose":
            self.terminations = {a: True for a in self.agents}
            self._ended = True
        self._accumulate_rewards()

    def _info(self) -> dict:
        """One agent's info: the same keys every step (the umpire's events only when asked for)."""
        return {"illegal_action": False, "events": []} if self.umpire_events else {"illegal_action": False}

    def _follow_game(self, last_agent) -> None:
        """Select the side the game says decides now; at the end, hand out returns and terminate everyone."""
        side = self._game.current_side
        if side is not None:
            self.agent_selection = self.possible_agents[side]
            return
        # Game over: the last actor stays selected, then every agent takes its dead step.
        returns = self._game.returns()
        self._ended = True
        for a in self.agents:
            self.rewards[a] = float(returns[self._side_of[a]])
            self.terminations[a] = True
        self.agent_selection = last_agent

    def last(self, observe: bool = True):
        """AECEnv.last without its assertion (agent_selection is set by `reset`): (observation, return, terminated,
        truncated, info) of `agent_selection`."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def observe(self, agent) -> dict:
        """{"observation" (or `observation_key`): float32 vector, "action_mask": int8}: legal actions if `agent` decides now, all ones
        once the episode is over, else all zero."""
        side = self._side_of[agent]
        game = self._game
        if self._ended:
            mask = terminal_mask(self._ruleset.num_actions)
        elif game.current_side == side:
            mask = game.legal_action_mask().astype(MASK_DTYPE)
        else:
            mask = np.zeros(self._ruleset.num_actions, dtype=MASK_DTYPE)
        return {self.observation_key: game.observation(side), "action_mask": mask}

    def state(self) -> np.ndarray:
        """PettingZoo's global state: every side's observation, concatenated in side order (module docstring)."""
        return np.concatenate([self._game.observation(side) for side in range(len(self.possible_agents))])

    def render(self):
        """The umpire's view (or `render_side`'s): a text map ("ansi"), a picture ("rgb_array") or that picture in
        a window ("human")."""
        if self.render_mode == "ansi":
            return self._game.render_text(side=self.render_side)
        if self.render_mode == "rgb_array":
            return self._game.render_rgb(side=self.render_side)
        if self.render_mode == "human":
            self._window.show(self._game.render_rgb(side=self.render_side))
        return None

    def close(self) -> None:
        if self._window is not None:
            self._window.close()


def make_raw_env(ruleset_name: str, **kwargs) -> RubbleAECEnv:
    """The unwrapped AEC env of a registered ruleset."""
    return RubbleAECEnv(ruleset_name, **kwargs)


class OrderEnforcing(OrderEnforcingWrapper):
    """PettingZoo's order enforcement (the same errors and warnings before `reset` and after the last agent left),
    with `last` and `step` going straight to the env once it was reset. PettingZoo's wrapper reaches every
    attribute of the env through `__getattr__`, which builds a set per access: about 5 us of every step, more
    than connect four's whole step costs in some of our games."""

    def last(self, observe: bool = True):
        if not self._has_reset:
            return super().last(observe)          # raises: agent_selection cannot be accessed before reset
        return self.env.last(observe)

    def step(self, action) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)                  # the error before reset, the warning once every agent is done


def make_env(ruleset_name: str, **kwargs) -> OrderEnforcing:
    """The AEC env of a registered ruleset, wrapped to enforce the call order."""
    # Only order enforcement: the masks in the observations say which actions are legal, and the env's
    # illegal_action mode says what a masked-out one does.
    return OrderEnforcing(make_raw_env(ruleset_name, **kwargs))


def aec_env_factory(ruleset_name: str):
    """PettingZoo-style `(env, raw_env)` constructors for a registered ruleset (looked up when called). They are
    partials of module-level functions, not closures, so they pickle (multiprocessing with "spawn")."""
    env, raw_env = partial(make_env, ruleset_name), partial(make_raw_env, ruleset_name)
    raw_env.__doc__ = f"The unwrapped AEC env of {ruleset_name}."
    env.__doc__ = f"The AEC env of {ruleset_name}, wrapped to enforce the call order."
    return env, raw_env
