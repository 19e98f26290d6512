"""Every training test keeps its cloned starts (training/learn/clonecache.py) in its own folder, never the user's cache."""
import pytest


@pytest.fixture(autouse=True)
def private_clone_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("RUBBLE_CACHE", str(tmp_path / "cache"))
