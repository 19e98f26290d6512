"""Scripted policies: each ruleset's enemy priority logic and a heuristic player baseline."""
