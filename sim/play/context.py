"""`RunContext`: what one run carries down the play path besides its scenario and game range: the Numba threads,
the progress callback, the cancellation flag and where a note goes. Nothing of a run lives in module state, so two
runs in one process (two notebook cells, two threads) do not see each other's settings.

The signal handling (Ctrl-C, SIGTERM: `sim.play.runner.stop_on_sigterm`) is process-wide by nature and installed by
the CLI; `RunContext.cancel` is the per-run way to stop: set it (from any thread) and the run raises `Cancelled`
within about `sim.play.runner.BLOCK_S` seconds.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace


class Cancelled(KeyboardInterrupt):
    """The run's `RunContext.cancel` was set: it stops as on Ctrl-C (staged report folders are removed)."""


@dataclass(frozen=True)
class RunContext:
    """Per-run settings of the play path.

    threads: Numba threads per unit played in this process (None: all available; never more than
    `sim.play.runner.available_threads`). progress(k): told k more games (a float: a compared pair counts half a
    game per side) as blocks of games end, about every BLOCK_S seconds, and 0 when a chunk's games start (its kernel
    compiled); None: silent. progress_sides(side, k): a compared run's progress by side, told
    instead of progress(k / 2) where the blocks are played in this process: k more games of A (side 0) or B (side 1),
    0 when a side's chunk starts (so each side's games/s, and from them the time left, can be known apart:
    `sim.play.progress.Lines.side`); None: progress(k / 2). cancel: set it to stop the run
    (`Cancelled`). on_note(line): told one line when the run does less than asked (fewer threads); None: silent.
    arc: the kernel also records the game's arc (each seat's progress by round; sim.stats.arc), in its own
    compiled specialization: a run without it plays the kernel it always did."""

    threads: int | None = None
    progress: Callable[[float], None] | None = None
    progress_sides: Callable[[int, float], None] | None = None
    cancel: threading.Event = field(default_factory=threading.Event)
    on_note: Callable[[str], None] | None = None
    arc: bool = False  # record the game's arc (each seat's progress by round: `sim arc`, `sim run --arc`)

    def with_(self, **changes: object) -> RunContext:
        """This context with ``changes`` (the same cancel flag unless one is given)."""
        # ignored: ``changes`` holds values of several field types, which mypy cannot match field by field
        return replace(self, **changes)  # type: ignore[arg-type]

    def check_cancel(self) -> None:
        """Raise `Cancelled` when the run was asked to stop."""
        if self.cancel.is_set():
            raise Cancelled()
