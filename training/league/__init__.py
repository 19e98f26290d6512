"""Both sides learning together: leagues and their pools, ratings, reports; best responses and exploitability."""
from training import lazy_exports

__all__ = ["LeagueRequest", "new_league", "run_league", "find_league", "write_average", "ExploitRequest"]
__getattr__ = lazy_exports(__name__, {"LeagueRequest": "run", "new_league": "run", "run_league": "run",
                                      "find_league": "run", "write_average": "average", "ExploitRequest": "exploit"})
