"""Ruleset-agnostic core of Rubble: dice, events, actions, the game-state protocol, scenarios.

Imports numpy only; never gymnasium, pettingzoo or torch.
"""
