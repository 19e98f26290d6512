"""A scripted side's priority list examined: ablations on paired dice, a trained agent's departures, distillation."""
from training import lazy_exports

__all__ = ["AuditSetup", "run_audit", "count_departures", "collect", "fit"]
__getattr__ = lazy_exports(__name__, {"AuditSetup": "setup", "run_audit": "ablation", "count_departures": "departures",
                                      "collect": "distill", "fit": "distill"})
