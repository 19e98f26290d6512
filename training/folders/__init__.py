"""Where results are written: a training run's folder (run.json, model, report) and a command's output folder."""
from training import lazy_exports

__all__ = ["RESULTS_ROOT", "RunDir", "RunInfo", "find_run", "writable_folder", "choose"]
__getattr__ = lazy_exports(__name__, {"RESULTS_ROOT": "rundir", "RunDir": "rundir", "RunInfo": "rundir",
                                      "find_run": "rundir", "writable_folder": "output", "choose": "output"})
