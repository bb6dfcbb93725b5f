"""Dask worker plugin that warms a worker before it takes work (see `sim.play.distributed`). Imported only when Dask is
used: it needs ``distributed``."""

from __future__ import annotations

from distributed.diagnostics.plugin import WorkerPlugin


class WarmUp(WorkerPlugin):
    """On setup (every worker, including those that join later) play one game of ``scenario``: this loads the
    kernels from the shared Numba cache folder, or compiles them once for this worker."""

    idempotent = True

    def __init__(self, scenario):
        self.scenario = scenario

    def setup(self, worker) -> None:
        from sim.play import runner
        from sim.play.context import RunContext

        runner.play_chunk(self.scenario, 0, 1, ctx=RunContext(threads=1))
