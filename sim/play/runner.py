"""Plays a chunk of games through the game's batch kernel (`play_chunk`); `run` plays a scenario through the one
play path (`sim.play.work.play_games`: units of chunks, merged exactly).

Chunks bound the memory (per-game arrays exist for one chunk at a time). Within a chunk, blocks of games run on a
pool of Python threads, each calling the game's serial `play_batch` (compiled ``nogil``) on its own rows, while the
main thread waits, so Ctrl-C (and SIGTERM, see `stop_on_sigterm`) stop a run within a block (see BLOCK_S). Results depend only on
(seed, scenario, game index): never on the number of threads, the blocks or the chunks. What a run sets (threads,
progress, cancellation) comes in its `RunContext`; only the process-wide signal state (`stop_on_sigterm`) and a cache
of idle thread pools live in this module.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass

import numpy as np

from sim.model.scenario import Scenario
from sim.model.search import search_scratch
from sim.play.context import Cancelled, RunContext  # noqa: F401  (Cancelled: raised here)
from sim.stats.aggregate import Aggregates
from sim.stats.arc import FAN_GAMES

DEFAULT_CHUNK = 1 << 16
MAX_CHUNK = 1 << 22  # per-game arrays of one chunk stay well under a GiB


@dataclass
class ChunkOutputs:
    """Per-game kernel outputs of one chunk; row i is game ``game0 + i``."""

    game0: int
    scores: np.ndarray
    winners: np.ndarray
    turns: np.ndarray
    rounds: np.ndarray
    status: np.ndarray
    extra: np.ndarray
    curves: np.ndarray
    # the game's arc (RunContext.arc; kernels/arc.py), None when not recorded: ``arc`` every game's standings and
    # figures (a compact record, int32[games, 2, rounds]); ``arc_fan`` the full records (each seat's progress too,
    # int32[k, players + 2, rounds]) of the chunk's first k games, those of index below `fan_games` (the fan chart's)
    arc: np.ndarray | None = None
    arc_fan: np.ndarray | None = None


def available_threads() -> int:
    """The most threads this process may use: NUMBA_NUM_THREADS when set, else the cores it may run on."""
    import numba

    return int(vars(numba.config)["NUMBA_NUM_THREADS"])  # numba.config's settings are set at import: not typed


def thread_limit() -> str:
    """What caps `available_threads`, in words: the NUMBA_NUM_THREADS setting when it is below the cores this process
    may run on ("NUMBA_NUM_THREADS=1 allows 1 thread (the machine has 2 cores)"), else the cores ("only 2 cores
    available")."""
    import os

    import numba

    cap = available_threads()
    cores = int(vars(numba.config)["NUMBA_DEFAULT_NUM_THREADS"])
    env = os.environ.get("NUMBA_NUM_THREADS")
    if env is not None and cap < cores:
        return (
            f"NUMBA_NUM_THREADS={env.strip()} allows {cap} thread{'s' if cap != 1 else ''} (the machine has "
            f"{cores} core{'s' if cores != 1 else ''}; unset it or raise it to use more)"
        )
    return f"only {cap} core{'s' if cap != 1 else ''} available"


# Thread pools by size, kept for the process (a cache of idle threads: no run's settings live here).
_pools: dict[int, ThreadPoolExecutor] = {}
_pool_lock = threading.Lock()


def resolve_threads(threads: int | None, on_note: Callable[[str], None] | None = None) -> int:
    """The threads a run asking for ``threads`` (None: all available) uses: never more than `available_threads`
    (asking for more uses all of them and tells ``on_note`` one line)."""
    cap = available_threads()
    t = cap if not threads else min(int(threads), cap)
    if threads and t < threads and on_note is not None:
        on_note(f"warning: --threads {threads}: {thread_limit()}; using {t} thread{'s' if t != 1 else ''}")
    return t


def _pool(t: int) -> ThreadPoolExecutor:
    with _pool_lock:
        if t not in _pools:
            _pools[t] = ThreadPoolExecutor(max_workers=t, thread_name_prefix="sim-games")
        return _pools[t]


class Terminated(KeyboardInterrupt):
    """SIGTERM turned into an interrupt: the run stops exactly as on Ctrl-C (staged reports are
    removed), and the CLI exits with 143 instead of 130."""


_PENDING: list[type] = []  # the interruption a signal asked for, until the command has reported it


def stop_on_sigterm() -> None:
    """From now on SIGTERM raises `Terminated` in the main thread, like Ctrl-C raises KeyboardInterrupt (at once:
    the main thread only waits while the pool's threads play). A second SIGTERM during the clean-up ends the process at once.
    Each signal is also remembered until `clear_stop` (the command reported it): an interrupt raised while Numba
    compiles lands in a ctypes callback that swallows it, and `check_stop` raises it again before the next games."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return

    def on_term(signum, frame):
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        _PENDING.append(Terminated)
        raise Terminated()

    def on_int(signum, frame):
        _PENDING.append(KeyboardInterrupt)
        raise KeyboardInterrupt()

    signal.signal(signal.SIGTERM, on_term)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not where SIGINT is ignored (nohup, &)
        signal.signal(signal.SIGINT, on_int)
    if not getattr(sys.unraisablehook, "_sim_quiet", False):
        sys.unraisablehook = _quiet_swallowed_stop(sys.unraisablehook)


def _quiet_swallowed_stop(hook):
    """``hook`` (sys.unraisablehook) less the interrupts a ctypes callback swallowed ('Exception ignored on calling
    ctypes callback function ... KeyboardInterrupt', a traceback on stderr): they are remembered in _PENDING and
    reported by the command in its one stop line."""

    def quiet(args):
        if isinstance(args.exc_value, KeyboardInterrupt) and _PENDING:
            return
        hook(args)

    setattr(quiet, "_sim_quiet", True)  # noqa: B010 (a marker on a function: mypy has no attribute for it)
    return quiet


def pending() -> KeyboardInterrupt | None:
    """The interruption a signal asked for and the command has not reported yet (`Terminated` on SIGTERM), or None.
    An error raised while one is pending is its consequence (Numba's cache write after a swallowed interrupt:
    'RuntimeError: no compiled object yet'), and the CLI reports the interruption instead."""
    return (Terminated if Terminated in _PENDING else KeyboardInterrupt)() if _PENDING else None


def check_stop(ctx: RunContext | None = None) -> None:
    """Raise the interruption a signal asked for and that was swallowed on its way (see `stop_on_sigterm`), or
    `Cancelled` when ``ctx`` was cancelled."""
    if ctx is not None:
        ctx.check_cancel()
    stop = pending()
    if stop is not None:
        raise stop


def clear_stop() -> None:
    """The command has reported its interruption: forget it."""
    _PENDING.clear()


# Blocks: a chunk is played as blocks of contiguous rows, each one call of the kernel's serial `play_batch` on a
# pool thread, at most 2 per thread in flight. A block lasts about BLOCK_S seconds (sized from the speed of the
# blocks before it; the first ones MIN_BLOCK games) and never more than the games left / (TAIL_SHARE * threads), so
# the threads finish a chunk together. The main thread only waits: Ctrl-C / SIGTERM raise there at once, and the
# blocks already running end within about BLOCK_S. progress(0) is told once compiled, progress(k) as blocks end. Row i is still game
# game0 + i and every game depends only on (seed, scenario, game index): blocks change nothing but the order.
BLOCK_S = 0.05
MIN_BLOCK = 1  # the first blocks: one game (a search game takes seconds; 16 of them held a Ctrl-C for 20 s)
TAIL_SHARE = 2


def play_chunk(
    sc: Scenario,
    game0: int,
    n: int,
    point: int = 0,
    seed: int | None = None,
    prm=None,
    sids=None,
    sparams=None,
    progress: Callable[[float], None] | None = None,
    ctx: RunContext | None = None,
) -> ChunkOutputs:
    """Play games game0 .. game0 + n - 1 of ``sc`` and return their per-game outputs (int32 arrays, row i = game
    game0 + i), on ``ctx.threads`` threads in blocks (see BLOCK_S); progress(k) (default ``ctx.progress``) is told 0
    once the kernel is compiled and the games start, then k more games as blocks end.
    Raises KeyboardInterrupt / `Terminated` within about BLOCK_S of a Ctrl-C / SIGTERM, `Cancelled` as soon after
    ``ctx.cancel`` is set, and a kernel's error."""
    spec = sc.spec
    k = spec.kernel()
    p = sc.players
    out = ChunkOutputs(
        game0=game0,
        scores=np.zeros((n, p), np.int32),
        winners=np.zeros(n, np.int32),
        turns=np.zeros(n, np.int32),
        rounds=np.zeros(n, np.int32),
        status=np.zeros(n, np.int32),
        extra=np.zeros((n, len(spec.extra_columns)), np.int32),
        curves=np.zeros((n, len(spec.curves), spec.curve_len), np.int32),
    )
    from sim.games._arc import ARC_COMPACT_ROWS  # (here: importing kernels loads numba, which `import sim` must not)

    if ctx is not None and ctx.arc and spec.arc_len:
        out.arc = np.zeros((n, ARC_COMPACT_ROWS, spec.arc_len), np.int32)
        out.arc_fan = np.zeros((fan_games(game0, n), *spec.arc_shape(p)), np.int32)
    args = (
        np.uint64(sc.seed if seed is None else seed),
        np.uint64(point),
        sc.prm() if prm is None else prm,
        sc.sids() if sids is None else sids,
        sc.sparams() if sparams is None else sparams,
    )
    if progress is None and ctx is not None:
        progress = ctx.progress
    _play_blocks(k, args, game0, n, p, out, progress, ctx, sc)
    if out.arc is not None and out.arc_fan is not None:  # the fan games' standings and figures with every game's
        out.arc[: len(out.arc_fan)] = out.arc_fan[:, -ARC_COMPACT_ROWS:, :]
    return out


def fan_games(game0: int, n: int) -> int:
    """How many of games game0 .. game0 + n - 1 get a full arc record (each seat's progress by round): those of
    index below `sim.stats.arc.FAN_GAMES`, the games of the fan chart (every run's first ones; their bands need no
    more). Every other game records only its standings and figures (kernels/arc.py: a compact record)."""
    return max(0, min(n, FAN_GAMES - game0))


def _play_blocks(
    k,
    args,
    game0: int,
    n: int,
    p: int,
    out: ChunkOutputs,
    progress: Callable[[float], None] | None = None,
    ctx: RunContext | None = None,
    sc: Scenario | None = None,
) -> None:
    """Games game0 .. game0 + n - 1 into rows 0 .. n - 1 of ``out``, in blocks on the thread pool (see BLOCK_S)."""
    ctx = ctx or RunContext()
    check_stop(ctx)  # before any games: an interrupt swallowed while compiling
    seed, point, prm, sids, sparams = args
    from sim.model.policy import batch_scratch
    from sim.model.search import table_uses_learned

    # the learned policy is compiled only into a kernel whose table plays it (the scratch's learned marker)
    learned = sc is not None and (table_uses_learned(sc, sids) or table_uses_learned(sc))
    fan = out.arc_fan if out.arc_fan is not None else np.zeros((0, 0, 0), np.int32)  # the full arc records

    def rows(lo: int, hi: int) -> tuple[int, float]:
        t0 = time.perf_counter()
        r = slice(lo, hi)
        # (by name: without it, the kernel it always was); a block lies wholly in the full records or past them
        more = {} if out.arc is None else {"arc": fan[r] if lo < len(fan) else out.arc[r]}
        k.play_batch(
            seed,
            point,
            np.int64(game0 + lo),
            np.int64(hi - lo),
            np.int64(p),
            prm,
            sids,
            sparams,
            out.scores[r],
            out.winners[r],
            out.turns[r],
            out.rounds[r],
            out.status[r],
            out.extra[r],
            out.curves[r],
            batch_scratch(sc.spec, k, p, prm, learned) if sc is not None else k.batch_scratch(p, prm),
            None,
            None,
            None if sc is None else search_scratch(sc, k, prm=prm, learned=learned),  # None without a search seat
            **more,
        )
        return hi - lo, time.perf_counter() - t0

    if n <= 0:
        return
    rows(0, 0)  # compile (this scratch's types) here, in the main thread, no game
    check_stop(ctx)
    if progress is not None:
        progress(0)  # compiled: the games start now (a progress line says so, and counts games/s from here)
    t = resolve_threads(ctx.threads)
    pool = _pool(t)
    i, size = 0, MIN_BLOCK
    running: set[Future[tuple[int, float]]] = set()
    try:
        while i < n or running:
            while i < n and len(running) < 2 * t:
                m = min(size, n - i, -(-(n - i) // (TAIL_SHARE * t)))
                if i < len(fan):
                    m = min(m, len(fan) - i)
                running.add(pool.submit(rows, i, i + m))
                i += m
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for f in done:
                m, dt = f.result()  # a kernel error surfaces here, in the caller's thread
                if progress is not None:
                    progress(m)
                if dt > 0:
                    size = max(MIN_BLOCK, int(m * BLOCK_S / dt))
            ctx.check_cancel()
    finally:
        for f in running:  # on Ctrl-C or an error: drop the blocks not started, let the rest end
            f.cancel()
        wait(running)


def new_aggregates(sc: Scenario, arc: bool = False) -> Aggregates:
    """Empty aggregates of a run of ``sc`` (``arc``: with the game's arc counts, sim.stats.arc)."""
    spec = sc.spec
    arc_len = spec.arc_len if arc else 0
    paths = bool(spec.team_roles)  # a team game's fan-chart games one row each: when the house tips (arc_tips)
    return Aggregates(
        sc.players, spec.score_range, spec.extra_columns, len(spec.curves), spec.curve_len, arc_len, paths
    )


@dataclass
class RunResult:
    """A run's merged numbers: ``agg`` (`Aggregates`), ``margin`` (int64 winner's-margin histogram), ``sums`` and
    ``cubes`` (`sim.play.work.UnitResult`), wall time (s), threads used per unit, chunk, games, seed."""

    scenario: Scenario
    agg: Aggregates
    wall_s: float
    threads: int
    chunk: int
    games: int
    seed: int
    margin: np.ndarray
    sums: dict
    cubes: dict


def cpu_count() -> int:
    return os.cpu_count() or 1
