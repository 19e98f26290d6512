"""Which games of a series are written as replays, and where: `--record DIR`, `--record-every N`, `--record-losses`."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from . import files as replay


@dataclass(frozen=True)
class Recorder:
    """Records the games of one matchup (picklable: worker processes get it with each seed)."""

    directory: Path
    agents: tuple[str, ...] = ()
    every: int = 1                 # game i of the series (from first_seed) is written if i % every == 0 ...
    first_seed: int = 0
    losses_of: int | None = None   # ... and, if set, only if this side lost it
    gz: bool = True
    numbered: bool = False         # a taken name gets -2, -3...: a person's game is never lost (`rubble play`)

    def for_agents(self, agents) -> Recorder:
        return dataclasses.replace(self, agents=tuple(agents))

    def start(self, rs, scenario, seed: int):
        """The game of `seed`, recording itself."""
        state, _ = replay.start(rs, scenario, seed, self.agents)
        return state

    def wanted(self, seed: int, returns) -> bool:
        if (seed - self.first_seed) % self.every:
            return False
        return self.losses_of is None or returns[self.losses_of] < 0

    def finish(self, state, seed: int) -> Path | None:
        """Write the game's replay if this recorder wants it; FileExistsError rather than overwrite one."""
        if not self.wanted(seed, state.returns()):
            return None
        state.replay.finish(state)
        name = replay.file_name(state.replay.ruleset, self.agents, seed, self.gz)
        path = self.directory / name
        if self.numbered:
            path = replay.free_path(path)
        return replay.write(state.replay, path)


def existing_error(exc: FileExistsError) -> str:
    """The one-line message for a replay that would have overwritten a file."""
    return (f"{exc.filename} exists: replays never overwrite a file; record into an empty folder "
            "(or move the old replays away)")
