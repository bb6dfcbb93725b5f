"""Where jobs run: a `concurrent.futures.ProcessPoolExecutor` of worker processes (spawned, so no thread of the
server is copied into them), each playing one job at a time through `sim.web.worker.execute`; with a Dask scheduler
address configured, the workers play their games on that cluster. The queue is the executor's own: a job waits
there until a worker is free. Cancelling asks the worker (`Store.request_cancel`); stopping the server marks the
running jobs so they end ``interrupted`` and waits for the workers to leave.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

from sim.web import worker
from sim.web.store import Store

STOP_WAIT_S = 10.0  # how long `close` waits for the running jobs to stop


class JobPool:
    """``workers`` worker processes playing the jobs of ``store`` (scenario paths relative to ``scenarios``,
    reports written under ``reports``; ``scheduler``: a Dask scheduler address, or $DASK_SCHEDULER_ADDRESS)."""

    def __init__(
        self, store: Store, scenarios: Path, reports: Path, workers: int = 1, scheduler: str | None = None
    ) -> None:
        self.store = store
        self.scenarios = scenarios
        self.scheduler = scheduler or os.environ.get("DASK_SCHEDULER_ADDRESS") or None
        self.futures: dict[int, Future[str]] = {}
        self.executor = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=worker.init_worker,
            initargs=(str(reports),),
        )

    def warm(self, scenario: Path) -> Future[float]:
        """Load the kernels of ``scenario``'s game in a worker before the first job (queued like a job)."""
        return self.executor.submit(worker.warm, str(scenario))

    def submit(self, job_id: int) -> None:
        """Queue job ``job_id`` (already in the store, queued)."""
        f = self.executor.submit(worker.execute, str(self.store.path), job_id, str(self.scenarios), self.scheduler)
        f.add_done_callback(lambda f: self._ended(job_id, f))
        self.futures[job_id] = f

    def _ended(self, job_id: int, f: Future[str]) -> None:
        """A job whose worker died (a broken pool: the process was killed) is marked failed, never left queued or
        running."""
        if f.cancelled():
            return
        e = f.exception()
        if e is not None:
            self.store.finish(job_id, "failed", error=f"the worker process stopped: {type(e).__name__}: {e}")

    def cancel(self, job_id: int) -> None:
        """Stop job ``job_id``: a queued one never starts, a running one stops within about a second."""
        self.store.request_cancel(job_id)
        f = self.futures.get(job_id)
        if f is not None:
            f.cancel()

    def close(self) -> None:
        """Stop: the running jobs are told the server stops (they end ``interrupted``), the queued ones are dropped
        (marked ``interrupted`` too), and the workers are waited for (at most `STOP_WAIT_S`, then ended)."""
        with self.store.connect() as db:
            db.execute(f"UPDATE jobs SET cancel = {worker.STOPPING} WHERE status = 'running'")
        self.store.interrupt_queued()
        procs = list((getattr(self.executor, "_processes", None) or {}).values())
        self.executor.shutdown(wait=False, cancel_futures=True)
        end = time.monotonic() + STOP_WAIT_S
        for p in procs:
            p.join(max(0.0, end - time.monotonic()))
        for p in procs:
            if p.is_alive():
                p.terminate()
        self.store.interrupt_unfinished()
