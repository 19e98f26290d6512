"""Where the project's data lives: the repo root and its configs/ folder (the package is installed editable)."""
from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
# RUBBLE_CONFIGS points the suite at another configs/ tree (e.g. a copy with edited tables).
CONFIG_ROOT = Path(os.environ.get("RUBBLE_CONFIGS") or PROJECT_ROOT / "configs")
