"""ONE generic Gymnasium env for every ruleset: the learner plays one side, an opponent policy the others.

    env = gymnasium.make("rubble/RiflesUrban-v0", scenario=..., opponent="scripted")

The opponent's decisions are played inside `reset` and `step`, so the learner only ever sees its own
decisions. The legal-action mask reaches every consumer the same way: `env.action_masks()`
(sb3-contrib MaskablePPO) and `info["action_mask"]`, and with `dict_observation=True` also in the
observation itself ({"observation": ..., "action_mask": ...}, as the PettingZoo env gives it), for clients
that read masks only from observations (Tianshou, TorchRL, RLlib). The two keys are options, each library's names:
`observation_key=` "observation" (the default), "observations" (RLlib) or "obs" (Tianshou), and `mask_key=`
"action_mask" (the default) or "mask" (Tianshou's policies read `obs.mask`).

Masks: int8 0/1 everywhere (MASK_DTYPE), what `Discrete.sample(mask=)` takes; MaskablePPO, Tianshou and
TorchRL take it as it is. A terminal observation's mask is all ones (this suite's convention: Gymnasium and
PettingZoo leave it open): no action is ever
taken from it, and a masked softmax over it stays finite, where an all-false mask turns the logits of a
vectorised PPO (Gymnasium's NEXT_STEP autoreset keeps the terminal observation as the next input) into NaN.

Reward: the game's result for the learner (`GameState.returns`) when its episode ends, 0 before; with
`reward_shaping=w` each step also adds w times the change of the learner's standing (`Ruleset.standing`; only
rulesets that declare one accept it).

Illegal actions (`illegal_action=`): an action inside the action space that the mask rules out
  * "lose" (the default): the learner's episode ends, reward `illegal_reward` (-1), info["illegal_action"]
    True. The convention of PettingZoo's classic games (TerminateIllegalWrapper) and Pgx, and what makes
    every action of `action_space` a valid `step`, as Gymnasium's `check_env`, RLlib's env checker and the
    quick-start loop `env.step(env.action_space.sample())` require;
  * "penalize": reward `illegal_reward`, nothing else happens, the same decision is asked again;
  * "raise": IllegalActionError, as the engine and the CLI do.
Whatever the mode the game itself never changes on an illegal action. An action outside the action space
(not an integer in 0..n-1) always raises.
"""
from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from . import registry
from .engine.contract import GameOverError, GameState, IllegalActionError, Ruleset, decide
from .engine.dice import derive_seeds

#: Games in a row that may end before the learner decides before `reset` calls it a ruleset bug.
MAX_GAMES_WITHOUT_DECISION = 100
#: The one dtype of every action mask the envs hand out (Gymnasium's Discrete.sample(mask=) requires it).
MASK_DTYPE = np.int8


def terminal_mask(num_actions: int) -> np.ndarray:
    """The mask of a terminal observation: all ones (see the module docstring)."""
    return np.ones(num_actions, dtype=MASK_DTYPE)


def mask_box(num_actions: int) -> spaces.Box:
    """The space of an action mask, as an observation entry."""
    return spaces.Box(0, 1, (num_actions,), MASK_DTYPE)


#: What an env does with a masked-out action in its action space (see the module docstring).
ILLEGAL_ACTION_MODES = ("lose", "penalize", "raise")


def check_reward_shaping(ruleset: Ruleset, weight) -> float:
    """The shaping weight as a float; refused in one line if it is no number >= 0 or the ruleset has no standing."""
    if not isinstance(weight, (int, float)) or weight < 0:
        raise ValueError(f"reward_shaping={weight!r}: expected a number >= 0 (the weight of the standing's change)")
    if weight and not ruleset.declares_standing:
        raise ValueError(f"reward_shaping={weight!r}: ruleset {ruleset.name!r} declares no standing to shape the "
                         f"reward by (Ruleset.standing)")
    return float(weight)


def check_illegal_action_mode(mode: str, reward: float) -> None:
    """Refuse an unknown `illegal_action=` mode or a non-numeric `illegal_reward=` in one line."""
    if mode not in ILLEGAL_ACTION_MODES:
        raise ValueError(f"illegal_action={mode!r}: expected one of {', '.join(ILLEGAL_ACTION_MODES)}")
    if isinstance(reward, bool) or not isinstance(reward, (int, float)):
        raise TypeError(f"illegal_reward={reward!r}: expected a number (the reward of an illegal action)")


def masked_out(action, mask: np.ndarray) -> bool:
    """True for an integer action inside the space that `mask` rules out (out-of-space actions are not: they raise)."""
    return isinstance(action, int) and 0 <= action < mask.shape[0] and not mask[action]

def resolve_ruleset(ruleset: str | Ruleset) -> Ruleset:
    """The registered Ruleset for a name or Gymnasium id (a Ruleset passes through)."""
    return ruleset if isinstance(ruleset, Ruleset) else registry.get(ruleset)


def observation_box(ruleset: Ruleset) -> spaces.Box:
    """The Box every observation vector of `ruleset` lies in: the ruleset's own per-feature bounds."""
    low, high = ruleset.observation_bounds()
    return spaces.Box(low, high, (ruleset.observation_size,), np.float32)


def as_action(action) -> Any:
    """A plain int for numpy integers and 0-d integer arrays (model.predict returns those); else unchanged."""
    if action.__class__ is int:      # the common case, every step: no isinstance checks
        return action
    if isinstance(action, np.integer):
        return int(action)
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        return int(action)
    return action  # anything else is left for the state's own legality check to reject


def reset_scenario(options: dict | None, default):
    """The scenario for one reset: `options["scenario"]` overrides the constructor's; other keys are ignored."""
    if not options:
        return default
    unknown = sorted(set(options) - {"scenario"})
    if unknown:
        # Game options are fixed at construction; PettingZoo's api_test passes a dummy key, so warn, don't fail.
        warnings.warn(f"reset options {unknown} ignored: only 'scenario' may change per reset", stacklevel=3)
    return options.get("scenario", default)


#: the names a dict observation's entries may take (`observation_key=`, `mask_key=`): each library's own
DICT_OBSERVATION_KEYS = ("observation", "observations", "obs")
DICT_MASK_KEYS = ("action_mask", "mask")


def check_dict_keys(dict_observation: bool, observation_key: str, mask_key: str) -> tuple[str, str]:
    """The dict observation's two keys, or ValueError: an unknown name, or a name given without dict_observation."""
    if observation_key not in DICT_OBSERVATION_KEYS:
        raise ValueError(f"observation_key: expected one of {DICT_OBSERVATION_KEYS}, got {observation_key!r}")
    if mask_key not in DICT_MASK_KEYS:
        raise ValueError(f"mask_key: expected one of {DICT_MASK_KEYS}, got {mask_key!r}")
    if not dict_observation and (observation_key, mask_key) != (DICT_OBSERVATION_KEYS[0], DICT_MASK_KEYS[0]):
        raise ValueError("observation_key and mask_key name a dict observation's entries: pass dict_observation=True")
    return observation_key, mask_key


class Opponent:
    """Where an opponent's agents come from: a registered agent name, a built agent, a factory, or a saved model."""

    def __init__(self, ruleset: Ruleset, spec) -> None:
        self.ruleset, self.spec = ruleset, spec
        self._loaded: dict[int, Any] = {}
        self._factory, self._saved = None, False
        if isinstance(spec, str):
            self._factory = self._named(spec)
        elif not _is_agent(spec) and not callable(spec):
            raise TypeError(f"opponent must be an agent name, an agent (with .act), a factory or a model path; got {spec!r}")

    def _named(self, spec: str):
        """The factory of a registered agent name, or of a saved model's path (read by its registered loader)."""
        loader = registry.agent_loader(spec)
        if loader is not None:
            self._saved = True
            return loader(self.ruleset, spec)
        known = registry.agents(self.ruleset.name)
        if spec not in known:
            raise ValueError(f"unknown opponent {spec!r} for {self.ruleset.name}; known: "
                             f"{', '.join(sorted(known)) or 'none'}, or a path to a .zip model")
        return known[spec]

    def build(self, side: int, seed: int):
        """The agent for `side` in one episode, seeded with `seed`."""
        if self._saved:
            # Loading a model is slow: load once per side, reseed on later episodes.
            if side not in self._loaded:
                self._loaded[side] = self._factory(side, seed)
            else:
                reseed(self._loaded[side], seed)
            return self._loaded[side]
        if self._factory is not None:
            return self._factory(side, seed)
        if _is_agent(self.spec):
            reseed(self.spec, seed)
            return self.spec
        return self.spec(side, seed)  # a factory, e.g. an agent class


def _is_agent(spec) -> bool:
    """A built agent (has .act), as opposed to an agent class or factory."""
    return hasattr(spec, "act") and not isinstance(spec, type)


def reseed(agent, seed: int) -> None:
    """Reseed a reused agent: its `reseed(seed)` if it has one, else a fresh Generator in its `rng`."""
    if hasattr(agent, "reseed"):
        agent.reseed(seed)
    elif isinstance(getattr(agent, "rng", None), np.random.Generator):
        agent.rng = np.random.default_rng(seed)


class RubbleEnv(gymnasium.Env):
    """The learner plays `learner_side` of `ruleset`; `opponent` plays every other side inside `step`."""

    metadata = {"render_modes": ["ansi", "rgb_array", "human"], "render_fps": 4}

    def __init__(self, ruleset: str | Ruleset, scenario=None, opponent="scripted", learner_side=None,
                 render_mode: str | None = None, reward_shaping: float = 0.0, umpire_events: bool = False,
                 illegal_action: str = "lose", illegal_reward: float = -1.0, dict_observation: bool = False,
                 observation_key: str = "observation", mask_key: str = "action_mask", **options) -> None:
        self._ruleset = resolve_ruleset(ruleset)
        self.dict_observation = dict_observation
        self.observation_key, self.mask_key = check_dict_keys(dict_observation, observation_key, mask_key)
        check_illegal_action_mode(illegal_action, illegal_reward)
        self.illegal_action, self.illegal_reward = illegal_action, float(illegal_reward)
        # The event log is the umpire's: it names what the learner may not know (hidden squares, the
        # opponent's results), so it reaches `info` only when asked for, for logging, never as a policy input.
        self.umpire_events = umpire_events
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} not in {self.metadata['render_modes']}")
        self.reward_shaping = check_reward_shaping(self._ruleset, reward_shaping)
        self._standing: float | None = None   # the learner's standing at its last decision (reward_shaping)
        self.render_mode = render_mode
        self._window = None
        if render_mode == "human":
            from .human_window import HumanWindow  # lazy: pygame is an optional extra
            self._window = HumanWindow(self._ruleset.gym_id, self.metadata["render_fps"])
        self.scenario, self.options = scenario, options
        self._learner = self._ruleset.side_number(learner_side)
        self._opponent = Opponent(self._ruleset, opponent)
        self._others = [s for s in range(len(self._ruleset.sides)) if s != self._learner]
        self.observation_space = observation_box(self._ruleset)
        if dict_observation:
            self.observation_space = spaces.Dict({observation_key: self.observation_space,
                                                  mask_key: mask_box(self._ruleset.num_actions)})
        self.action_space = spaces.Discrete(self._ruleset.num_actions)
        self._state: GameState | None = None
        self._agents: dict[int, Any] = {}
        self._mask: np.ndarray | None = None
        self._episode_over = True   # until the first reset

    # Read-only views ---------------------------------------------------------------------------
    @property
    def state(self) -> GameState:
        """The game in progress (treat as read-only: apply actions through `step`)."""
        return self._state

    game = state

    @property
    def ruleset(self) -> Ruleset:
        return self._ruleset

    @property
    def learner_side(self) -> int:
        return self._learner

    def action_masks(self) -> np.ndarray:
        """The learner's current legal-action mask (int8 0/1), for sb3-contrib MaskablePPO."""
        return self._mask

    # The Gymnasium API -------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Start a new game (same seed, same game) and play the opponent up to the learner's first decision."""
        super().reset(seed=seed)
        scenario = reset_scenario(options, self.scenario)
        # A reset cannot end an episode, so a game that ends before the learner's first decision (the
        # opponent wins outright: rifles-darkness, learner enemy, about 1 game in 1,000) is no episode at
        # all. The next game of the env's own generator is dealt instead (same seed, same deals);
        # info["games_without_decision"] counts the ones passed over.
        for skipped in range(MAX_GAMES_WITHOUT_DECISION):
            events = self._deal(scenario)
            if self._state.current_side is not None:
                obs, _, _, _, info = self._timestep(events, games_without_decision=skipped)
                return obs, info
        raise RuntimeError(f"{MAX_GAMES_WITHOUT_DECISION} games in a row of {self._ruleset.name} ended before "
                           f"side {self._ruleset.sides[self._learner]!r} had a decision")

    def _deal(self, scenario) -> list:
        """A new game from the env's generator, played up to the learner's first decision; its events."""
        game_seed, *agent_seeds = derive_seeds(self.np_random, 1 + len(self._ruleset.sides))
        self._state = self._ruleset.new_game(scenario=scenario, seed=game_seed, **self.options)
        self._standing = None
        self._agents = {side: self._opponent.build(side, agent_seeds[side]) for side in self._others}
        return self._play_opponents(list(self._state.setup_events))

    def step(self, action):
        """Apply the learner's action, then the opponent's decisions; a masked-out one as `illegal_action` says."""
        if self._episode_over or self._state is None:
            raise GameOverError("step() after the episode ended (or before reset()): call reset() first")
        if action.__class__ is not int:   # as_action's own first test, without its call for the usual plain int
            action = as_action(action)
        try:
            events = self._state.apply(action)   # checks the action, and raises before anything changes
        except IllegalActionError:
            if self.illegal_action == "raise" or not masked_out(action, self._mask):
                raise                            # an action outside the space always raises
            return self._illegal_timestep()
        return self._timestep(self._play_opponents(events))

    def _illegal_timestep(self):
        """The game untouched; "lose" ends the learner's episode, "penalize" asks the same decision again."""
        lose = self.illegal_action == "lose"
        self._episode_over = lose
        # A fresh array either way: callers may keep the one handed out before.
        mask = terminal_mask(self._ruleset.num_actions) if lose else self._mask.copy()
        self._mask = mask
        info = self._info(mask, [], games_without_decision=0, illegal=True)
        return self._observation(mask), self.illegal_reward, lose, False, info

    def render(self):
        """The learner's view: a text map ("ansi"), a picture ("rgb_array") or that picture in a window ("human",
        drawn after every reset and step, as Gymnasium's convention has it)."""
        if self.render_mode == "ansi":
            return self._state.render_text(side=self._learner)
        if self.render_mode == "rgb_array":
            return self._state.render_rgb(side=self._learner)
        if self.render_mode == "human":
            self._window.show(self._state.render_rgb(side=self._learner))
        return None

    def close(self) -> None:
        if self._window is not None:
            self._window.close()

    # The hot path ------------------------------------------------------------------------------
    def _play_opponents(self, events: list) -> list:
        """Play other sides' decisions until the learner decides or the game ends; returns all events."""
        state, learner, agents = self._state, self._learner, self._agents
        side = state.current_side
        while side is not None and side != learner:
            action = decide(agents[side], state, side)
            if action.__class__ is not int:   # (as in `step`)
                action = as_action(action)
            events.extend(state.apply(action))
            side = state.current_side
        return events

    def _timestep(self, events: list, games_without_decision: int = 0):
        """(obs, reward, terminated, truncated, info), each built once."""
        state, side = self._state, self._learner
        terminated = state.current_side is None
        self._episode_over = terminated
        # The terminal mask is the convention's (all ones), not the state's. astype copies: a ruleset may
        # cache its mask (apply checks against it too), and callers keep the masks we hand out.
        mask = terminal_mask(self._ruleset.num_actions) if terminated else state.legal_action_mask().astype(MASK_DTYPE)
        self._mask = mask
        info = self._info(mask, events, games_without_decision, illegal=False)
        reward = float(state.returns()[side]) if terminated else 0.0
        if self.reward_shaping:
            reward += self._standing_change()
        if self._window is not None:
            self.render()
        return self._observation(mask), reward, terminated, False, info

    def _standing_change(self) -> float:
        """reward_shaping times the change of the learner's standing since its last decision (0 at a reset)."""
        standing = float(self._ruleset.standing(self._state, self._learner))
        change = 0.0 if self._standing is None else standing - self._standing
        self._standing = standing
        return self.reward_shaping * change

    def _observation(self, mask: np.ndarray):
        """The learner's observation vector, or with `dict_observation` the vector and a copy of the mask."""
        obs = self._state.observation(self._learner)
        return {self.observation_key: obs, self.mask_key: mask.copy()} if self.dict_observation else obs

    def _info(self, mask: np.ndarray, events: list, games_without_decision: int, illegal: bool) -> dict:
        """The same keys with the same types after every reset and step (TorchRL registers them from the first)."""
        info = {"action_mask": mask}
        if self.umpire_events:
            info["events"] = events
        info["turn"] = self._state.turn
        info["illegal_action"] = illegal
        info["games_without_decision"] = games_without_decision
        return info
