"""Replay files: one game as JSON, recorded while played, verified by replaying; its viewer page and GIF."""
from training import lazy_exports

__all__ = ["Replay", "ReplayError", "load", "verify", "Recorder", "write_html", "write_video", "RecordReplays",
           "RecordAECReplays"]
__getattr__ = lazy_exports(__name__, {"Replay": "files", "ReplayError": "files", "load": "files", "verify": "files",
                                      "Recorder": "recorder", "write_html": "viewer", "write_video": "viewer",
                                      "RecordReplays": "wrappers", "RecordAECReplays": "wrappers"})
