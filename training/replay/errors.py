"""The errors of reading and verifying replays (shared by files.py and table_dice.py)."""
from __future__ import annotations


class ReplayError(Exception):
    """A replay that cannot be read or does not replay identically; the message is one line."""


class ReplayFileError(ReplayError):
    """A file that is not a replay this rubble reads (missing, truncated, another format or ruleset): a bad request,
    exit status 2 like every other; a replay that reads but does not replay identically stays a ReplayError (1)."""
