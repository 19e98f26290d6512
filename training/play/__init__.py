"""A person plays one side in the terminal: the screen, the grouped choices, each ruleset's pieces."""
from training import lazy_exports

__all__ = ["play"]
__getattr__ = lazy_exports(__name__, {"play": "terminal"})
