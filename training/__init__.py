"""Experiment drivers: the `rubble` CLI, series of games and their statistics, benchmarks."""
