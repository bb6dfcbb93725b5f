"""Where units of work run: in this process (the default), on a Dask `LocalCluster` (``--workers N``) or on an
existing Dask cluster (``--scheduler tcp://HOST:8786`` or ``DASK_SCHEDULER_ADDRESS``).

Every executor runs the same pure `sim.play.work.play_unit` and hands back (unit, result) pairs; callers merge them with
`sim.play.work.merge`, so results are bit-identical whatever the executor, the number of workers, the chunking, or a
worker lost and its unit retried elsewhere (Dask reschedules the tasks of a dead worker; a unit is pure, so the
retry returns the same integers).

Compile once per worker: a worker loads the compiled kernels from the Numba cache folder (`kernels/_jit.py`: one
folder per kernel-source hash under ``.numba_cache/`` or ``SIM_CACHE_ROOT``), which every worker of this machine
shares, and which a cluster shares when ``SIM_CACHE_ROOT`` names a shared filesystem. Either way each worker plays
one warm-up game of the scenario (a `WarmUp` worker plugin, also run by workers that join later) before it takes
work, so no unit pays for a compile.

Threads: a Dask worker runs one unit at a time per worker thread; each unit uses ``threads`` Numba threads (1 by
default on workers: run one worker process per core, ``dask worker ... --nworkers auto --nthreads 1``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sim.model.errors import SimError
from sim.model.words import count
from sim.play.context import RunContext
from sim.play.work import Executor, InProcess, Unit, UnitResult, play_unit  # noqa: F401  (the executors live here)

if TYPE_CHECKING:
    from distributed import Client, LocalCluster

ENV_SCHEDULER = "DASK_SCHEDULER_ADDRESS"


class ExecutionError(SimError, ValueError):
    """A cluster could not be reached or started; the message is one line."""


class DaskExecutor:
    """Runs units as Dask tasks on ``client``'s cluster, at most ``window`` per worker in flight (bounded memory on
    both sides), yielding results as they complete. Interrupted (Ctrl-C), it cancels what is still queued."""

    def __init__(
        self,
        client: Client,
        description: str,
        threads: int | None = None,
        window: int = 4,
        cluster: LocalCluster | None = None,
    ):
        self.client = client
        self.description = description
        self.threads = threads or 1
        self.window = window
        self.cluster = cluster  # a LocalCluster this executor started (closed with it), else None
        self._warmed: set[tuple[str, int]] = set()

    @property
    def workers(self) -> int:
        return len(self.client.scheduler_info(n_workers=-1)["workers"])

    def warm(self, u: Unit) -> None:
        """Every worker (and every later one) plays one game of ``u``'s scenario before taking work."""
        key = (u.scenario.game, u.scenario.players)
        if key not in self._warmed:
            from sim.play.warmup import WarmUp

            self.client.register_plugin(WarmUp(u.scenario), name=f"sim-warmup-{key[0]}-{key[1]}")
            self._warmed.add(key)

    def unit_threads(self, ctx: RunContext | None = None) -> int:
        """The Numba threads each unit uses on a worker."""
        return self.threads

    def map(self, units: Iterable[Unit], ctx: RunContext | None = None) -> Iterator[tuple[Unit, UnitResult]]:
        """Play ``units`` on the workers, yielding (unit, result) as they complete (any order); the run's progress
        is told a unit's games when it comes back, and its cancel flag is looked at every 0.05 s while waiting."""
        ctx = ctx or RunContext()

        def submit(u: Unit):
            self.warm(u)
            return self.client.submit(play_unit, u, pure=False)

        for u, res in self._windowed((replace(u, threads=self.threads) for u in units), submit, ctx):
            if ctx.progress is not None:
                ctx.progress(u.n)
            yield u, res

    def calls(
        self, fn: Callable[..., Any], args: Iterable[tuple], ctx: RunContext | None = None
    ) -> Iterator[tuple[int, Any]]:
        """``fn(*a)`` for each ``a`` of ``args`` as Dask tasks (``fn`` pure and importable: a task retried on another
        worker returns the same), at most ``window`` a worker in flight; yields (index in ``args``, result) as they
        complete, in any order. Ctrl-C or ``ctx``'s cancel stops the wait and cancels what is still queued."""

        def submit(item: tuple[int, tuple]):
            return self.client.submit(fn, *item[1], pure=False)

        for (i, _), res in self._windowed(enumerate(args), submit, ctx or RunContext()):
            yield i, res

    def _windowed(
        self, items: Iterable[Any], submit: Callable[[Any], Any], ctx: RunContext
    ) -> Iterator[tuple[Any, Any]]:
        """(item, result) of each of ``items`` as its task (``submit(item)``: a future) completes, at most
        ``window`` a worker in flight; what is still queued is cancelled when the caller stops or fails."""
        from distributed import as_completed

        todo = iter(items)
        cap = max(1, self.window * max(1, self.workers))
        ac = as_completed()
        live = {}

        def submit_next() -> bool:
            item = next(todo, None)
            if item is None:
                return False
            f = submit(item)
            live[f.key] = (f, item)
            ac.add(f)
            return True

        try:
            while len(live) < cap and submit_next():
                pass
            while live:
                f = _next_done(ac, ctx)
                _, item = live.pop(f.key)
                res = f.result()
                f.release()
                submit_next()
                yield item, res
        finally:
            for f, _ in live.values():
                f.cancel()

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def _next_done(ac, ctx: RunContext):
    """The next finished future of ``ac`` (a `distributed.as_completed`); while waiting, Ctrl-C / SIGTERM and
    ``ctx.cancel`` are looked at every few milliseconds (as quick as in this process: `runner.BLOCK_S`)."""
    import time

    from sim.play.runner import check_stop

    while not ac.has_ready():
        check_stop(ctx)
        time.sleep(0.005)
    return next(ac)


def address_problem(address: str) -> str:
    """'' when ``address`` reads as a Dask scheduler address ([PROTOCOL://]HOST:PORT, the port 1..65535), else
    what is wrong in one line (what Dask's own parser would raise as a ValueError with a traceback)."""
    rest = address.strip().split("://", 1)[-1]
    host, colon, port = rest.rpartition(":")
    if not address.strip() or not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        return f"{address.strip()!r} is not an address; give one such as tcp://HOST:8786 (a host and a port)"
    return ""


def scheduler_address(scheduler: str | None) -> str | None:
    """--scheduler, else $DASK_SCHEDULER_ADDRESS, else None (no existing cluster)."""
    return scheduler or os.environ.get(ENV_SCHEDULER) or None


@contextmanager
def executor(
    workers: int | None = None,
    scheduler: str | None = None,
    threads: int | None = None,
    on_note: Callable[[str], None] | None = None,
) -> Iterator[Executor]:
    """The executor for the CLI options: a Dask client of ``scheduler`` (or $DASK_SCHEDULER_ADDRESS), else a
    LocalCluster of ``workers`` worker processes, else `InProcess`. Closed on exit. Raises ExecutionError (one
    line) when both are given or the scheduler cannot be reached."""
    address = scheduler_address(scheduler)
    if workers and scheduler:
        raise ExecutionError(
            "--workers and --scheduler: give one (--workers starts a cluster on this machine, "
            "--scheduler uses an existing one)"
        )
    if not workers and not address:
        yield InProcess(threads)
        return
    why = address_problem(address) if address and not workers else ""  # (--scheduler is checked earlier)
    if why:
        raise ExecutionError(f"{'--scheduler' if scheduler else '$' + ENV_SCHEDULER}: {why}")
    import logging

    from distributed import Client, LocalCluster

    logging.getLogger("distributed").setLevel(logging.ERROR)
    # distributed's cancel callback can fail in tornado's loop when Ctrl-C cancels queued tasks (a NameError inside
    # distributed/utils.py); what is cancelled is gone either way, so its traceback would only hide the stop line
    logging.getLogger("tornado.application").setLevel(logging.CRITICAL)
    if workers:
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            silence_logs=logging.ERROR,
            preload=["sim.play.dask_worker"],
        )  # Ctrl-C: no worker traces
        client = Client(cluster)
        ex = DaskExecutor(
            client, f"Dask LocalCluster, {workers} worker{'s' if workers > 1 else ''}", threads, cluster=cluster
        )
    else:
        try:
            client = Client(address, timeout=10)
        except (OSError, TimeoutError) as e:
            raise ExecutionError(
                f"--scheduler: cannot reach the Dask scheduler at {address} ({e}); start one "
                f"with `dask scheduler` and workers with `dask worker {address}`"
            ) from None
        ex = DaskExecutor(
            client, f"Dask cluster at {address}, {count(len(client.scheduler_info()['workers']), 'worker')}", threads
        )
        if on_note and not ex.workers:
            on_note(f"note: the Dask scheduler at {address} has no workers yet; units wait for one")
    try:
        yield ex
    finally:
        ex.close()
