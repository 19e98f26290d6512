"""Training one side with MaskablePPO: a run's config, session, callbacks, imitation start, resume, report."""
from training import lazy_exports

__all__ = ["TrainRequest", "new_run", "run_session", "resume_request", "TrainConfig", "load_config"]
__getattr__ = lazy_exports(__name__, {"TrainRequest": "train", "new_run": "train", "run_session": "train",
                                      "resume_request": "train", "TrainConfig": "config", "load_config": "config"})
