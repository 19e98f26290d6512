"""Playtests: variants of a ruleset's rules or scenario played on paired dice, with telemetry, tuning and a report."""
from training import lazy_exports

__all__ = ["Playtest", "load_playtest", "Plan", "run_games", "write_report", "tune"]
__getattr__ = lazy_exports(__name__, {"Playtest": "spec", "load_playtest": "spec", "Plan": "run",
                                      "run_games": "run", "write_report": "report", "tune": "tune"})
