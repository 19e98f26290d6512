"""Shared checkers that every registered ruleset must pass (the generic suite in tests/generic uses them).

They read only what the contract declares (envs/engine/contract.py): the Ruleset's metadata and verbs,
the GameState's verbs. Beyond the types, the contract's docstrings state what these checks hold a ruleset
to: the mask is never mutated by callers and never all false before the end, `observation(side)` is a
fresh float32 array inside the ruleset's `observation_bounds()`, `action_label` works for every index,
`to_dict` is JSON-compatible, `hidden_variants` copies differ only in what the side may not know.
"""
from __future__ import annotations

import json
import os
import warnings
from copy import deepcopy

import gymnasium
import numpy as np
from gymnasium.utils import env_checker as gym_checker

from envs import registry
from envs.engine.contract import GameState, IllegalActionError, Ruleset, decide
from envs.engine.events import Event
from envs.gym_env import RubbleEnv

#: A random game that has not ended after this many decisions is taken to be stuck.
MAX_DECISIONS = 100_000


def env_int(name: str, default: int) -> int:
    """An int from the environment (so a slow ruleset can run a smaller suite: RUBBLE_RANDOM_GAMES=100)."""
    return int(os.environ.get(name, default))


def scenario_names(ruleset: Ruleset) -> list:
    """Every scenario of the ruleset, default first (None means the default)."""
    names = sorted(ruleset.scenarios())
    return [None] + [n for n in names if n != ruleset.default_scenario]


# Random play ---------------------------------------------------------------------------------------
def random_action(rng: np.random.Generator, mask: np.ndarray) -> int:
    """A uniform legal action; fails on an all-false mask."""
    legal = np.flatnonzero(mask)
    assert legal.size, "all-false mask while the game is not over"
    return int(legal[rng.integers(legal.size)])


def record(state: GameState, events: list) -> tuple:
    """Everything observable after one decision, in exactly comparable form."""
    sides = range(len(state.returns()))
    return (
        tuple((e.kind, e.text, e.side, e.dice) for e in events),
        state.current_side,
        state.legal_action_mask().tobytes() if state.current_side is not None else b"",
        tuple(state.observation(s).tobytes() for s in sides),
        tuple(state.returns()),
    )


def play_recorded(state: GameState, rng: np.random.Generator, decisions: int = MAX_DECISIONS) -> list:
    """Play up to `decisions` random legal actions; the record of each."""
    records = []
    while state.current_side is not None and len(records) < decisions:
        records.append(record(state, state.apply(random_action(rng, state.legal_action_mask()))))
    return records


def play_random(state: GameState, rng: np.random.Generator, decisions: int) -> GameState:
    """Play up to `decisions` random legal actions (fewer if the game ends); returns the state."""
    for _ in random_positions(state, rng, decisions):
        pass
    return state


def random_positions(state: GameState, rng: np.random.Generator, decisions: int):
    """Each position of up to `decisions` random legal actions, yielded before its action is played (the caller may
    look at it, not change it)."""
    for _ in range(decisions):
        if state.current_side is None:
            return
        yield state
        state.apply(random_action(rng, state.legal_action_mask()))


def assert_same_records(left: list, right: list, what: str) -> None:
    """Fail naming the first decision at which two recorded games differ."""
    for i, (a, b) in enumerate(zip(left, right)):
        fields = ("events", "current_side", "mask", "observations", "returns")
        differ = [f for f, x, y in zip(fields, a, b) if x != y]
        assert not differ, f"{what}: decision {i} differs in {differ}: {a[0]} vs {b[0]}"
    assert len(left) == len(right), f"{what}: {len(left)} vs {len(right)} decisions"


# One random game with the generic invariants --------------------------------------------------------
def check_arrays(ruleset: Ruleset, state: GameState, side: int) -> None:
    """The mask and `side`'s observation have the declared type and shape; obs is fresh and in bounds."""
    mask, obs = state.legal_action_mask(), state.observation(side)
    assert isinstance(mask, np.ndarray) and mask.dtype == np.bool_ and mask.shape == (ruleset.num_actions,), \
        f"mask must be bool ({ruleset.num_actions},), got {mask.dtype} {mask.shape}"
    assert isinstance(obs, np.ndarray) and obs.dtype == np.float32 and obs.shape == (ruleset.observation_size,), \
        f"observation must be float32 ({ruleset.observation_size},), got {obs.dtype} {obs.shape}"
    check_in_bounds(ruleset, obs)
    assert not np.shares_memory(obs, state.observation(side)), "observation() must return a fresh array"


_BOUNDS: dict[str, tuple[np.ndarray, np.ndarray]] = {}


def check_in_bounds(ruleset: Ruleset, obs: np.ndarray) -> None:
    """Every feature inside the ruleset's declared (low, high); the first one outside is named."""
    if ruleset.name not in _BOUNDS:
        low, high = ruleset.observation_bounds()
        assert low.dtype == high.dtype == np.float32 and low.shape == high.shape == (ruleset.observation_size,)
        assert (low <= high).all()
        _BOUNDS[ruleset.name] = low, high
    low, high = _BOUNDS[ruleset.name]
    outside = np.flatnonzero(~((obs >= low) & (obs <= high)))
    assert not outside.size, (f"feature {outside[0]} = {obs[outside[0]]} outside its bounds "
                              f"[{low[outside[0]]}, {high[outside[0]]}]")


def check_returns(ruleset: Ruleset, state: GameState) -> None:
    """All zero while playing; at the end each in [-1, 1], and zero-sum for two sides."""
    returns = state.returns()
    assert len(returns) == len(ruleset.sides), f"returns {returns} for {len(ruleset.sides)} sides"
    if state.current_side is not None:
        assert all(r == 0 for r in returns), f"returns {returns} before the end"
        return
    assert all(-1 <= r <= 1 for r in returns), f"returns {returns} outside [-1, 1]"
    if len(returns) == 2:
        assert returns[0] + returns[1] == 0, f"two-side returns {returns} are not zero-sum"


def check_turn(ruleset: Ruleset, state: GameState, limit: int) -> None:
    """The turn never passes the turn limit (the final turn counter may be one past it)."""
    assert state.turn <= limit + (state.current_side is None), f"turn {state.turn} past the limit {limit}"


def check_random_game(ruleset: Ruleset, seed: int, scenario=None) -> GameState:
    """Play one seeded random game to the end, checking generic invariants and `check_invariants()`."""
    state = ruleset.new_game(scenario=scenario, seed=seed)
    rng = np.random.default_rng(seed)
    limit = ruleset.turn_limit(state)
    for _ in range(MAX_DECISIONS):
        if state.current_side is None:
            break
        mask = state.legal_action_mask()
        state.apply(random_action(rng, mask))
        state.check_invariants()
        check_turn(ruleset, state, limit)
    else:
        raise AssertionError(f"seed {seed}: no end after {MAX_DECISIONS} decisions")
    check_returns(ruleset, state)
    return state


# Mask exactness ------------------------------------------------------------------------------------
def check_labels(ruleset: Ruleset, state: GameState) -> None:
    """Every action index has a label in every state, legal or not (error messages use them)."""
    for action in range(ruleset.num_actions):
        assert isinstance(state.action_label(action), str)


def check_mask_exact(ruleset: Ruleset, state: GameState) -> None:
    """Every masked-out action raises IllegalActionError and changes nothing; every masked-in one applies."""
    mask = state.legal_action_mask()
    before = json.dumps(state.to_dict(), sort_keys=True)
    for action in [-1, ruleset.num_actions, *np.flatnonzero(~mask).tolist()]:
        try:
            state.apply(action)
        except IllegalActionError:
            continue
        raise AssertionError(f"masked-out action {action} was applied")
    if json.dumps(state.to_dict(), sort_keys=True) != before:
        raise AssertionError(f"a masked-out action changed the state: {_culprit(type(state), before, mask)}")
    assert np.array_equal(state.legal_action_mask(), mask), "the mask changed after rejected actions"
    for action in np.flatnonzero(mask).tolist():
        # A JSON round trip per action: an independent copy with the very same dice.
        type(state).from_dict(json.loads(before)).apply(action)


def _culprit(state_type: type, before: str, mask: np.ndarray) -> str:
    """Which masked-out action changes the state (re-run one by one on fresh copies)."""
    for action in np.flatnonzero(~mask).tolist():
        copy = state_type.from_dict(json.loads(before))
        try:
            copy.apply(action)
        except IllegalActionError:
            pass
        if json.dumps(copy.to_dict(), sort_keys=True) != before:
            return f"action {action} ({copy.action_label(action)})"
    return "unknown (the changes depend on the order of attempts)"


def sample_states(ruleset: Ruleset, seed: int, count: int):
    """Yield `count` live states met in seeded random games (each yielded state is checked in place)."""
    rng = np.random.default_rng(seed)
    scenarios = scenario_names(ruleset)
    game = 0
    while count > 0:
        state = ruleset.new_game(scenario=scenarios[game % len(scenarios)], seed=seed * 1000 + game)
        while state.current_side is not None and count > 0:
            if rng.random() < 0.2:  # spread the samples over whole games
                count -= 1
                yield state
            state.apply(random_action(rng, state.legal_action_mask()))
        game += 1


# Determinism, save/restore, clones ---------------------------------------------------------------------
def scripted_states(ruleset: Ruleset, seed: int, scenario=None):
    """Every state of a scripted-vs-scripted game of `ruleset` (the agents seeded with the game's seed), in order."""
    game = ruleset.new_game(scenario=scenario, seed=seed)
    players = {s: registry.agents(ruleset.name)["scripted"](s, seed) for s in range(len(ruleset.sides))}
    while game.current_side is not None:
        yield game
        game.apply(decide(players[game.current_side], game, game.current_side))


def check_determinism(ruleset: Ruleset, seed: int, scenario=None) -> None:
    """Two games with one seed and the same actions match decision for decision."""
    games = [play_recorded(ruleset.new_game(scenario=scenario, seed=seed), np.random.default_rng(seed))
             for _ in range(2)]
    assert_same_records(*games, f"seed {seed}")


def check_save_restore(ruleset: Ruleset, seed: int, split: int, scenario=None) -> None:
    """`from_dict(to_dict())` mid-game (through JSON) continues exactly like the original."""
    rng = np.random.default_rng(seed)
    state = play_random(ruleset.new_game(scenario=scenario, seed=seed), rng, split)
    restored = type(state).from_dict(json.loads(json.dumps(state.to_dict())))
    assert restored.to_dict() == state.to_dict(), "to_dict of the restored game differs"
    future = rng.bit_generator.state
    original = play_recorded(state, rng)
    rng.bit_generator.state = future
    assert_same_records(original, play_recorded(restored, rng), f"restore after {split} decisions")


def check_clone(ruleset: Ruleset, seed: int, split: int, scenario=None) -> None:
    """Playing a clone changes nothing in the original, dice included; the clone plays on by itself."""
    rng = np.random.default_rng(seed)
    state = play_random(ruleset.new_game(scenario=scenario, seed=seed), rng, split)
    clone = state.clone()
    saved = state.to_dict()  # after cloning: branching may count branches in the original's dice
    play_random(clone, np.random.default_rng(seed + 1), MAX_DECISIONS)
    assert state.to_dict() == saved, "playing the clone changed the original"
    # The original's future dice are those it had before the clone was played.
    future = rng.bit_generator.state
    original = play_recorded(state, rng)
    rng.bit_generator.state = future
    assert_same_records(original, play_recorded(type(state).from_dict(saved), rng), "original after clone")


# Hidden information ---------------------------------------------------------------------------------------
def check_hidden_information(ruleset: Ruleset, state: GameState) -> int:
    """Each side's observation (and mask when it decides) ignores what it may not know; returns #variants."""
    checked = 0
    saved = state.to_dict()
    for side in range(len(ruleset.sides)):
        obs, mask = state.observation(side), state.legal_action_mask()
        for variant in ruleset.hidden_variants(state, side):
            assert variant.to_dict() != saved, "a hidden variant equal to the original tests nothing"
            assert np.array_equal(variant.observation(side), obs), f"side {side}'s observation shows hidden info"
            if state.current_side == side:
                assert np.array_equal(variant.legal_action_mask(), mask), f"side {side}'s mask shows hidden info"
            checked += 1
    assert state.to_dict() == saved, "hidden_variants changed the original state"
    return checked


def check_view_unchanged(variant: GameState, state: GameState, side: int) -> None:
    """`variant` differs from `state` only in what `side` may not know: everything `side` is shown is the same (its
    observation, both renderings, who decides, and its mask when it decides)."""
    assert variant.observation(side).tobytes() == state.observation(side).tobytes(), f"side {side}'s observation"
    assert variant.render_text(side) == state.render_text(side), f"side {side}'s text rendering"
    assert np.array_equal(variant.render_rgb(side), state.render_rgb(side)), f"side {side}'s picture"
    assert variant.current_side == state.current_side, "who decides next"
    if state.current_side == side:
        assert np.array_equal(variant.legal_action_mask(), state.legal_action_mask()), f"side {side}'s mask"


# Gymnasium ------------------------------------------------------------------------------------------------
def default_opponent(ruleset: Ruleset):
    """The opponent the generic tests use: "scripted" where a ruleset has it, else uniform random."""
    return "scripted" if "scripted" in registry.agents(ruleset.name) else "random"


def check_gym_timestep(env: RubbleEnv, obs, info: dict, terminated: bool = False) -> None:
    """One reset/step result: obs in space, the mask in info is `action_masks()`, and it is never all false."""
    ruleset, state = env.ruleset, env.state
    assert obs in env.observation_space
    mask = info["action_mask"]
    if env.dict_observation:
        assert np.array_equal(obs["action_mask"], mask) and obs["action_mask"] is not mask
        obs = obs["observation"]
    assert isinstance(obs, np.ndarray) and obs.dtype == np.float32
    assert mask is env.action_masks(), "info['action_mask'] and action_masks() must be the same mask"
    assert mask.dtype == np.int8 and mask.shape == (ruleset.num_actions,), "one mask dtype: int8"
    if env.umpire_events:
        assert isinstance(info["events"], list) and all(isinstance(e, Event) for e in info["events"])
    else:
        assert "events" not in info, "the umpire's log must not reach info unless asked for"
    assert info["turn"] == state.turn
    if terminated:
        # The terminal convention: all ones (a masked softmax over it stays finite).
        assert (state.current_side is None or info["illegal_action"]) and mask.all()
    else:
        assert state.current_side == env.learner_side, "the learner must be the one deciding"
        assert mask.any(), "all-false mask while the game is not over"


def check_gym_env(env: RubbleEnv, seed: int, steps: int) -> int:
    """Mask-aware Gymnasium API check over `steps` random legal steps (resetting at each end); returns #games."""
    box = env.observation_space["observation"] if env.dict_observation else env.observation_space
    assert isinstance(box, gymnasium.spaces.Box)
    assert box.shape == (env.ruleset.observation_size,) and box.dtype == np.float32
    assert env.action_space == gymnasium.spaces.Discrete(env.ruleset.num_actions)
    rng, games = np.random.default_rng(seed), 0
    obs, info = env.reset(seed=seed)
    check_gym_timestep(env, obs, info)
    for _ in range(steps):
        obs, reward, terminated, truncated, info = env.step(random_action(rng, env.action_masks()))
        assert type(reward) is float and type(terminated) is bool and truncated is False
        check_gym_timestep(env, obs, info, terminated)
        expected = env.state.returns()[env.learner_side] if terminated else 0.0
        assert reward == expected, f"reward {reward}, expected {expected}"
        if terminated:
            games += 1
            obs, info = env.reset()
            check_gym_timestep(env, obs, info)
    return games


def run_gymnasium_checks(env: RubbleEnv) -> None:
    """Every part of gymnasium's check_env that applies to a masked env, with its warnings as errors.

    check_env itself cannot run: it steps with `action_space.sample()`, unmasked, which is an illegal
    action (IllegalActionError) in most states. So its reset and space checks run as they are, and its
    two step checks (step determinism, returned data not reused) run below with legal actions.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # gymnasium reports most problems as warnings
        gym_checker.check_action_space(env.action_space)
        gym_checker.check_space_limit(env.action_space, "action")
        gym_checker.check_observation_space(env.observation_space)
        gym_checker.check_space_limit(env.observation_space, "observation")
        gym_checker.check_seed_deprecation(env)
        gym_checker.check_reset_return_info_deprecation(env)
        gym_checker.check_reset_return_type(env)
        gym_checker.check_reset_seed_determinism(env)
        gym_checker.check_reset_options(env)
        gym_checker.env_reset_passive_checker(env)
        gym_checker.env_step_passive_checker(env, legal_action(env, seed=0))
        check_masked_step_determinism(env)
        check_masked_data_not_reused(env)


def legal_action(env: RubbleEnv, seed: int) -> int:
    """A random legal action in the env's current state."""
    return random_action(np.random.default_rng(seed), env.action_masks())


def check_masked_step_determinism(env: RubbleEnv, seed: int = 123) -> None:
    """gymnasium's check_step_determinism with a legal action: same seed and action, same transition."""
    env.reset(seed=seed)
    action = legal_action(env, seed)
    first = deepcopy(env.step(action))
    rng_state = deepcopy(env.np_random.bit_generator.state)
    env.reset(seed=seed)
    second = env.step(action)
    assert env.np_random.bit_generator.state == rng_state, "np_random differs after the same seed and step"
    for name, a, b in zip(("obs", "reward", "terminated", "truncated", "info"), first, second):
        assert gym_checker.data_equivalence(a, b, exact=True), f"step {name} differs for the same seed and action"


def check_masked_data_not_reused(env: RubbleEnv, seed: int = 123) -> None:
    """gymnasium's check_returned_data_not_reused with legal actions: no two calls share an array or dict."""
    calls = [env.reset(seed=seed)]
    for i in range(3):
        obs, _, terminated, _, info = env.step(legal_action(env, seed + i))
        calls.append((obs, info))
        if terminated:
            break
    calls.append(env.reset(seed=seed))
    for i, (obs_1, info_1) in enumerate(calls):
        for obs_2, info_2 in calls[i + 1:]:
            assert not data_shares_objects(obs_1, obs_2), "two calls returned the same observation array"
            assert not data_shares_objects(info_1, info_2), "two calls returned info sharing an object"


def data_shares_objects(a, b) -> bool:
    """Whether two returned values share a mutable object (an array's memory, a dict or list), at any depth.
    Our own, as Gymnasium 1.2 (the one RLlib pins) has no such helper."""
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return np.shares_memory(a, b)
    if isinstance(a, dict | list) and a is b:
        return True
    if isinstance(a, dict) and isinstance(b, dict):
        return any(data_shares_objects(a[k], b[k]) for k in a.keys() & b.keys())
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return any(data_shares_objects(x, y) for x in a for y in b)
    return False


def check_render(ruleset: Ruleset, mode: str, opponent) -> None:
    """A made env renders in `mode` after reset and after a step, passing gymnasium's render checker."""
    env = gymnasium.make(ruleset.gym_id, render_mode=mode, opponent=opponent)
    env.reset(seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(2):
            frame = gym_checker.env_render_passive_checker(env)
            check_frame(frame, mode)
            _, _, terminated, _, _ = env.step(random_action(np.random.default_rng(0), env.get_wrapper_attr("action_masks")()))
            if terminated:
                break
    env.close()


def check_frame(frame, mode: str) -> None:
    """An "ansi" frame is non-empty text; an "rgb_array" one an (H, W, 3) uint8 picture; "human" draws, returns None."""
    if mode == "human":
        assert frame is None
    elif mode == "ansi":
        assert isinstance(frame, str) and frame.strip()
    else:
        assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3


# PettingZoo ---------------------------------------------------------------------------------------------------
def check_aec_follows_game(env, seed: int) -> None:
    """In one random game: agent_selection is current_side, only it has a mask, and the end pays returns()."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    game, agents = env.unwrapped.game, list(env.possible_agents)
    for agent in env.agent_iter(MAX_DECISIONS):
        obs, reward, terminated, truncated, _ = env.last()
        assert truncated is False
        if terminated:
            assert reward == game.returns()[agents.index(agent)], "final reward is not returns()"
            assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].all(), "terminal mask: all ones"
            env.step(None)
            continue
        assert agent == agents[game.current_side], "agent_selection must follow current_side"
        for other in agents:
            other_mask = env.observe(other)["action_mask"]
            assert other_mask.dtype == np.int8 and (other == agent or not other_mask.any())
        assert np.array_equal(obs["action_mask"], game.legal_action_mask().astype(np.int8))
        env.step(random_action(rng, obs["action_mask"].astype(bool)))
    assert not env.agents, "the game did not end"


# Who decides next reveals nothing ---------------------------------------------------------------------------
def same_dice_variant(state: GameState, variant: GameState) -> GameState | None:
    """`variant` with `state`'s dice stream, so that the two differ only in hidden placement; None if that makes
    it `state` itself (a variant of other dice only)."""
    data = variant.to_dict()
    data["dice"] = state.to_dict()["dice"]
    copy = type(state).from_dict(json.loads(json.dumps(data)))
    return None if copy.to_dict() == state.to_dict() else copy


def until_side_decides(state: GameState, side: int, limit: int = 50) -> GameState:
    """Answer every other side's decisions with its lowest legal action (pass, where a ruleset numbers it first)
    until `side` decides again or the game ends."""
    for _ in range(limit):
        if state.current_side in (side, None):
            break
        state.apply(int(np.flatnonzero(state.legal_action_mask())[0]))
    return state


def is_window(ruleset: Ruleset, state: GameState, side: int) -> bool:
    """Whether `state` asks a side other than `side` one of the ruleset's reaction kinds."""
    return state.current_side not in (side, None) and state.decision_kind() in ruleset.reaction_kinds


def next_deciders_leaks(ruleset: Ruleset, state: GameState, actions: list[int]) -> list[str]:
    """For the side deciding in `state` and each hidden variant of it, after each of `actions`: a reaction window
    (the ruleset's `reaction_kinds`) opened for another side in only one of the two games is a leak unless the
    side's next own observation tells the difference anyway: a detour it cannot see otherwise tells it, through
    PettingZoo's agent_selection alone, what its observation does not. Returns the leaks (empty: none)."""
    side, leaks = state.current_side, []
    for variant in ruleset.hidden_variants(state, side):
        twin = same_dice_variant(state, variant)
        if twin is None:
            continue
        for action in actions:
            a, b = type(state).from_dict(state.to_dict()), type(state).from_dict(twin.to_dict())
            a.apply(action)
            b.apply(action)
            if is_window(ruleset, a, side) == is_window(ruleset, b, side):
                continue
            a, b = until_side_decides(a, side), until_side_decides(b, side)
            if a.current_side == b.current_side == side and np.array_equal(a.observation(side), b.observation(side)) \
                    and np.array_equal(a.legal_action_mask(), b.legal_action_mask()):
                leaks.append(f"after {state.action_label(action)}: a reaction window opened in only one of two "
                             "games that look the same to the acting side")
    return leaks


def count_prompt_leaks(ruleset: Ruleset, games: int, seed: int = 0, per_state: int = 3) -> tuple[int, int]:
    """(decisions checked, leaks found) over `games` random games: at each decision, the action played and a few
    other legal ones, against every hidden variant (`next_deciders_leaks`)."""
    rng, checked, leaks = np.random.default_rng(seed), 0, 0
    scenarios = scenario_names(ruleset)      # every scenario in turn: a variant scenario may hide more
    for game in range(games):
        state = ruleset.new_game(scenario=scenarios[game % len(scenarios)], seed=seed + game)
        while state.current_side is not None:
            legal = np.flatnonzero(state.legal_action_mask())
            played = random_action(rng, state.legal_action_mask())
            others = rng.choice(legal, size=min(per_state, legal.size), replace=False).tolist()
            leaks += len(next_deciders_leaks(ruleset, state, sorted({played, *others})))
            checked += 1
            state.apply(played)
    return checked, leaks


def needs_window(mode: str) -> None:
    """Skip a "human" render test where pygame (the [human] extra) is not installed, as in the core install."""
    if mode == "human":
        import pytest
        pytest.importorskip("pygame", reason="render_mode human is the [human] extra (the core install runs without)")


# Observation bounds: every observation inside, every bound reached --------------------------------------------------
class SeenRange:
    """The per-feature minimum and maximum of the observations shown to it, each checked against the bounds."""

    def __init__(self, ruleset: Ruleset, names: list[str]) -> None:
        self.low, self.high = ruleset.observation_bounds()
        self.names, self.sides = names, len(ruleset.sides)
        self.min = np.full(self.low.shape, np.inf, np.float32)
        self.max = np.full(self.low.shape, -np.inf, np.float32)

    def add(self, obs: np.ndarray, where: str) -> None:
        outside = np.flatnonzero((obs < self.low) | (obs > self.high))
        assert not outside.size, (f"{where}: {self.names[outside[0]]} = {obs[outside[0]]} outside "
                                  f"[{self.low[outside[0]]}, {self.high[outside[0]]}]")
        np.minimum(self.min, obs, out=self.min)
        np.maximum(self.max, obs, out=self.max)

    def play(self, state: GameState, seed: int) -> None:
        """A seeded random game, both sides' observations after every decision."""
        rng = np.random.default_rng(seed)
        for decision in range(MAX_DECISIONS):
            for side in range(self.sides):
                self.add(state.observation(side), f"seed {seed}, decision {decision}, side {side}")
            if state.current_side is None:
                return
            state.apply(random_action(rng, state.legal_action_mask()))

    def play_games(self, ruleset: Ruleset, games: int, variants: tuple[dict, ...]) -> SeenRange:
        """Seeded random games 0..games-1, game `seed` with the options `variants[seed % len(variants)]` (so each
        variant is played in turn); every observation checked and counted. Returns self."""
        for seed in range(games):
            self.play(ruleset.new_game(seed=seed, **variants[seed % len(variants)]), seed)
        return self

    def unreached(self, exempt_low: np.ndarray, exempt_high: np.ndarray) -> list[str]:
        """'name low ...' / 'name high ...' for every bound no observation reached, but those exempt (bool arrays per
        feature: documented caps)."""
        out = [f"{self.names[i]} low {self.low[i]} (seen {self.min[i]})"
               for i in np.flatnonzero((self.min > self.low) & ~exempt_low)]
        return out + [f"{self.names[i]} high {self.high[i]} (seen {self.max[i]})"
                      for i in np.flatnonzero((self.max < self.high) & ~exempt_high)]
