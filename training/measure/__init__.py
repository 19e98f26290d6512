"""Series of seeded games and their honest statistics: simulate, evaluate, bench, intervals, paired differences."""
from training import lazy_exports

__all__ = ["Matchup", "simulate", "play_game", "play_series", "wilson_interval", "paired_difference", "evaluate",
           "run_suite"]
__getattr__ = lazy_exports(__name__, {"Matchup": "simulate", "simulate": "simulate", "play_game": "simulate",
                                      "play_series": "series", "wilson_interval": "stats",
                                      "paired_difference": "paired", "evaluate": "evaluate", "run_suite": "bench"})
