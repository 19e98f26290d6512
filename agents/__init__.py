"""Policies that play a side: random, scripted (per ruleset) and trained models."""
