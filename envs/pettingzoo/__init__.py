"""PettingZoo's module convention for Rubble: `from envs.pettingzoo import rifles_urban_v0; rifles_urban_v0.env()`.

Each module is two lines on the adapter side of the layers (a ruleset package never imports an adapter).
"""
