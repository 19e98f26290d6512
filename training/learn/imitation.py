"""Behaviour cloning before PPO: the policy first copies a teacher agent's choices, the value head learns the
outcomes of the teacher's games.

Why: in rifles-urban a random player almost never wins (1 of 500 held-out games against the scripted enemy),
so PPO from scratch sees only losses and nothing to climb (results/rifles-urban/player-ppo-scratch-15min won
no training game in 15 minutes). Starting from the scripted player's behaviour puts wins in the first rollouts.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from agents.base import decide
from envs.engine.dice import agent_seed, derive_seeds


@dataclass(frozen=True)
class Demonstrations:
    """The teacher's decisions on the learner's side: what it saw, what was legal, what it chose, how it ended."""

    observations: np.ndarray   # (n, observation_size) float32
    masks: np.ndarray          # (n, num_actions) bool
    actions: np.ndarray        # (n,) int64
    returns: np.ndarray        # (n,) float32: the game's result discounted over the learner's remaining decisions
    games: int
    wins: int


def teacher_seeds(seed: int, games: int) -> list[int]:
    """Game seeds for the demonstrations: 63-bit numbers from the run's seed, like the training games'."""
    return derive_seeds(np.random.default_rng([seed, 7]), games)


def record_game(rs, scenario, side: int, factories: Sequence, seed: int, gamma: float):
    """One game; the learner side's (observation, mask, action) triples and their discounted returns."""
    state = rs.new_game(scenario=scenario, seed=seed)
    agents = [make(s, agent_seed(seed, s)) for s, make in enumerate(factories)]
    steps = []
    while not state.is_over:
        current = state.current_side
        if current == side:
            observation, mask = state.observation(side), state.legal_action_mask().copy()
            action = agents[side].act(observation, mask, state.view(side))
            steps.append((observation, mask, action))
        else:
            action = decide(agents[current], state, current)
        state.apply(action)
    result = float(state.returns()[side])
    returns = [result * gamma ** (len(steps) - 1 - k) for k in range(len(steps))]
    return steps, returns, result


def collect(rs, scenario, side: int, factories: Sequence, seeds: Sequence[int], gamma: float) -> Demonstrations:
    """Play one game per seed and keep the learner side's decisions."""
    steps, returns, wins = [], [], 0
    for seed in seeds:
        game_steps, game_returns, result = record_game(rs, scenario, side, factories, seed, gamma)
        steps += game_steps
        returns += game_returns
        wins += result > 0
    observations, masks, actions = zip(*steps)
    return Demonstrations(np.asarray(observations, np.float32), np.asarray(masks, bool),
                          np.asarray(actions, np.int64), np.asarray(returns, np.float32), len(seeds), wins)


def clone(policy, demos: Demonstrations, epochs: int, batch_size: int, vf_coef: float, seed: int,
          learning_rate: float | None = None) -> dict:
    """Fit the policy to the teacher's actions (masked cross-entropy) and the value to the returns, at
    `learning_rate` (None: the optimizer's own, PPO's)."""
    data = [torch.as_tensor(a) for a in (demos.observations, demos.masks, demos.actions, demos.returns)]
    shuffle = torch.Generator().manual_seed(seed)   # a local generator: no global random state
    ppo_rates = [group["lr"] for group in policy.optimizer.param_groups]
    if learning_rate is not None:
        for group in policy.optimizer.param_groups:
            group["lr"] = learning_rate
    policy.set_training_mode(True)
    for _ in range(epochs):
        for batch in torch.randperm(len(demos.actions), generator=shuffle).split(batch_size):
            clone_step(policy, [d[batch] for d in data], vf_coef)
    policy.set_training_mode(False)
    for group, rate in zip(policy.optimizer.param_groups, ppo_rates):
        group["lr"] = rate
    return {"games": demos.games, "teacher_wins": demos.wins, "decisions": int(len(demos.actions)),
            "epochs": epochs, "accuracy": round(accuracy(policy, data), 4)}


def clone_step(policy, batch, vf_coef: float) -> None:
    observations, masks, actions, returns = batch
    values, log_prob, _ = policy.evaluate_actions(observations, actions, action_masks=masks)
    loss = -log_prob.mean() + vf_coef * torch.nn.functional.mse_loss(values.flatten(), returns)
    policy.optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
    policy.optimizer.step()


def accuracy(policy, data) -> float:
    """Share of the teacher's decisions the policy's most likely legal action matches."""
    observations, masks, actions, _ = data
    hits = 0
    with torch.no_grad():   # in slices: one pass over every observation at once would double the memory
        for rows in torch.arange(len(actions)).split(4096):
            chosen = policy.get_distribution(observations[rows], action_masks=masks[rows]).mode()
            hits += int((chosen == actions[rows]).sum())
    return hits / len(actions)
