"""The unit of work: (scenario point, chunk of game indices) -> integer aggregates, and their exact merge.

`play_unit` is pure: its result depends only on the unit (scenario, seed, RNG point id, game0, n), never on the
process, thread count or machine that runs it. It is the one way games are played: `play_games` (what `sim run`,
`sim check` and `sim baselines` play, `run`), the sweep engine and `sim compare` (a unit of a pair
of scenarios: ``against``) hand units to an executor (`sim.play.distributed`: this process or Dask workers), and
`merge` adds results with integer sums (in chunk order), so the numbers are bit-identical however the games were
split and wherever they ran (ARCHITECTURE "Work units are pure").

What crosses back from a unit is bounded: the run's `Aggregates` (counts and histograms), the winner's-margin
histogram (`measures.Decisiveness`), the per-measure sums (`measures.Sums`), and only when asked: per-game
numerators of the few *paired* measures (int32, one column each, to pair neighbouring sweep points game by game)
and the kernel's per-game outputs (`sim run --per-game`); for a pair, the paired sums of `measures.PairedSums`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, cast

import numpy as np

from sim.model.scenario import Scenario
from sim.play import runner
from sim.play.context import RunContext
from sim.play.runner import resolve_threads
from sim.stats.aggregate import Aggregates


@dataclass(frozen=True)
class Unit:
    """Games ``game0 .. game0 + n - 1`` of ``scenario`` with ``seed`` and RNG point id ``point``.

    ``key`` names the point (sweep) or run it belongs to and ``index`` the chunk's place in it (results are merged
    in index order). ``paired``: measure names (`measures.measures`) whose per-game numerators come back.
    ``threads``: Numba threads to use (None: all available). ``per_game``: also return the kernel outputs.
    ``against``: scenario B of a comparison: the same games of B are played too and their paired sums with this
    unit's scenario (A) come back (`UnitResult.pairs`). ``arc``: the kernel records the game's arc and the arc
    measures come back with the others (`RunContext.arc`; a field of the unit so that it crosses to a worker)."""

    key: str
    index: int
    scenario: Scenario
    game0: int
    n: int
    seed: int
    point: int = 0
    paired: tuple[str, ...] = ()
    threads: int | None = None
    per_game: bool = False
    against: Scenario | None = None
    arc: bool = False


@dataclass
class UnitResult:
    """What a unit (or a merge of consecutive units) returns; every count is an integer.

    agg: `Aggregates`; margin: int64 histogram of the winner's margin (`Decisiveness.hist`); sums: `Sums` dicts
    (n, s, q, nz per measure; cubes are dropped: a float, order-dependent); paired: int32[games, len(paired)]
    per-game numerators, finished: bool[games] (status 0) when paired measures were asked; outputs: the kernel
    outputs per chunk (only with per_game); cubes: float sum of cubes per measure (`measures.Sums.cu`, merged in
    game order, so exact too); pairs: `measures.PairedSums.acc` (integers) of a unit with ``against``; joint: its
    `PairedSums.joint` table (int64 counts by A's and B's winners; None for a team game)."""

    key: str
    game0: int
    games: int
    agg: Aggregates
    margin: np.ndarray
    sums: dict
    paired_names: tuple[str, ...] = ()
    paired: np.ndarray | None = None
    finished: np.ndarray | None = None
    outputs: list = field(default_factory=list)
    cubes: dict = field(default_factory=dict)
    pairs: dict | None = None
    joint: np.ndarray | None = None


def play_unit(u: Unit, ctx: RunContext | None = None) -> UnitResult:
    """Play unit ``u`` and return its aggregates (see `UnitResult`). Pure: same unit, same result. ``ctx``: the
    run's progress and cancellation in this process (None on a Dask worker); the threads are ``u.threads``."""
    from sim.stats.measures import Decisiveness, PairedSums, Sums, game_values

    sc = u.scenario
    ctx = ctx or RunContext()
    ctx = ctx.with_(threads=u.threads, arc=ctx.arc or u.arc)
    tell = tell_b = ctx.progress
    if u.against is not None and ctx.progress_sides is not None:
        sides = ctx.progress_sides  # each side's games apart: A's and B's games/s may differ a thousandfold

        def tell(k: float) -> None:
            sides(0, k)

        def tell_b(k: float) -> None:
            sides(1, k)

    elif u.against is not None and ctx.progress is not None:
        whole = ctx.progress

        def tell(k: float) -> None:
            whole(k / 2)  # a pair = one game of A and one of B

        tell_b = tell
    out = runner.play_chunk(sc, u.game0, u.n, u.point, u.seed, progress=tell, ctx=ctx)
    arc = out.arc is not None  # the game's arc recorded (RunContext.arc)
    agg = runner.new_aggregates(sc, arc=arc)
    agg.add(out.game0, out.scores, out.winners, out.turns, out.rounds, out.status, out.extra, out.curves)
    if out.arc is not None:
        agg.add_arc(out.arc, out.status, out.rounds, out.winners, out.arc_fan, out.game0)
    dec = Decisiveness(sc)
    dec.add(out)
    sums = Sums(sc, arc=arc)
    sums.add(out)
    res = UnitResult(
        u.key,
        u.game0,
        u.n,
        agg,
        dec.hist,
        {"n": sums.n, "s": sums.s, "q": sums.q, "nz": sums.nz},
        tuple(u.paired),
        cubes=sums.cu,
    )
    if u.against is not None:
        ob = runner.play_chunk(u.against, u.game0, u.n, u.point, u.seed, progress=tell_b, ctx=ctx)
        ps = PairedSums(sc, u.against, arc=ctx.arc)
        ps.add(out, ob)
        res.pairs = ps.acc
        res.joint = None if ps.joint is None else ps.joint.table
    if u.paired:
        v, fin = game_values(sc, out)
        res.paired = np.stack([v[m].astype(np.int32) for m in u.paired], axis=1)
        res.finished = fin
    if u.per_game:
        res.outputs = [out]
    return res


def merge(results: list[UnitResult]) -> UnitResult:
    """Merge the results of consecutive chunks of one point or run (any order given; merged by game0). Exact:
    integer sums, concatenation in game order. Raises ValueError when the chunks do not tile one game range."""
    rs = sorted(results, key=lambda r: r.game0)
    for a, b in zip(rs, rs[1:]):
        if a.game0 + a.games != b.game0:
            raise ValueError(f"chunks of {a.key} do not tile: games {a.game0}+{a.games} then {b.game0}")
    first = rs[0]
    agg = _merge_aggregates([r.agg for r in rs])
    margin = np.sum([r.margin for r in rs], axis=0).astype(np.int64)
    sums = {f: {m: sum(r.sums[f][m] for r in rs) for m in first.sums[f]} for f in first.sums}
    out = UnitResult(first.key, first.game0, sum(r.games for r in rs), agg, margin, sums, first.paired_names)
    out.cubes = {m: sum(r.cubes[m] for r in rs) for m in first.cubes}  # floats, added in game order
    if first.pairs is not None:
        each = [cast(dict, r.pairs) for r in rs]  # every unit of a paired run carries its pairs
        out.pairs = {m: {f: sum(p[m][f] for p in each) for f in first.pairs[m]} for m in first.pairs}
    if first.joint is not None:
        out.joint = np.sum([cast(np.ndarray, r.joint) for r in rs], axis=0).astype(np.int64)
    if first.paired is not None:
        out.paired = np.concatenate([r.paired for r in rs])
        out.finished = np.concatenate([r.finished for r in rs])
    out.outputs = [o for r in rs for o in r.outputs]
    return out


def _merge_aggregates(aggs: list[Aggregates]) -> Aggregates:
    """The sum of several `Aggregates` of one scenario (histograms grow to the longest)."""
    a0 = aggs[0]
    out = Aggregates(a0.players, (a0.score_lo, a0.score_hi), a0.extra_columns, *a0.curve_sum.shape)
    for name, v in a0.__dict__.items():
        vals = [a.__dict__[name] for a in aggs]
        if isinstance(v, np.ndarray):
            if name in ("turns_hist", "rounds_hist"):
                out.__dict__[name] = _sum_hists(vals)
            else:
                out.__dict__[name] = np.sum(vals, axis=0).astype(np.int64)
        elif isinstance(v, list):  # extra_hist: one histogram per column
            out.__dict__[name] = [_sum_hists([x[c] for x in vals]) for c in range(len(v))]
        elif isinstance(v, int) and name not in ("players", "score_lo", "score_hi"):
            out.__dict__[name] = sum(vals)
    return out


def _sum_hists(hs: list[np.ndarray]) -> np.ndarray:
    out = np.zeros(max(len(h) for h in hs), np.int64)
    for h in hs:
        out[: len(h)] += h
    return out


def chunks(games: int, chunk: int, game0: int = 0) -> list[tuple[int, int]]:
    """(game0, n) of each chunk of ``games`` games of at most ``chunk`` games, in order."""
    return [(game0 + s, min(chunk, games - s)) for s in range(0, games, chunk)]


def in_order(results: Iterable[tuple[Unit, UnitResult]]) -> Iterator[tuple[Unit, UnitResult]]:
    """The (unit, result) pairs of one run's units (indices 0, 1, 2, ...), as they complete, put back in index
    order: a result is yielded once every unit before it is in."""
    held: dict[int, tuple[Unit, UnitResult]] = {}
    nxt = 0
    it = iter(results)
    try:
        for u, r in it:
            held[u.index] = (u, r)
            while nxt in held:
                yield held.pop(nxt)
                nxt += 1
    finally:
        close = getattr(it, "close", None)  # a cluster's units still in flight are cancelled
        if close is not None:
            close()


def play_games(
    sc: Scenario,
    games: int | None = None,
    seed: int | None = None,
    chunk: int = runner.DEFAULT_CHUNK,
    executor: Executor | None = None,
    ctx: RunContext | None = None,
    on_chunk: Callable[[runner.ChunkOutputs], None] | None = None,
    game0: int = 0,
    point: int = 0,
    agg: Aggregates | None = None,
    prior: UnitResult | None = None,
) -> runner.RunResult:
    """Play ``games`` games of ``sc`` (default: its own; seed default: its own) from ``game0`` as units of
    ``chunk`` games on ``executor`` (None: `sim.play.distributed.InProcess`) and merge them exactly: what every
    command that plays one scenario plays. ``on_chunk(outputs)`` sees each chunk's per-game rows in game order (only
    then do they cross the network). ``agg``: aggregates of earlier games to add to; ``prior``: the merged result of
    earlier games (``game0`` must follow them) whose sums and cubes continue, in game order. Returns a
    `runner.RunResult` whose margin, sums and cubes are set. Raises KeyboardInterrupt (`Cancelled`,
    `runner.Terminated`) when stopped."""
    import time

    games = sc.games if games is None else int(games)
    seed = sc.seed if seed is None else int(seed)
    ctx = ctx or RunContext()
    ex = executor if executor is not None else InProcess()
    units = [
        Unit("run", i, sc, g0, n, seed, point, per_game=on_chunk is not None, arc=ctx.arc)
        for i, (g0, n) in enumerate(chunks(games, chunk, game0))
    ]
    t0 = time.perf_counter()
    done: list[UnitResult] = [prior] if prior is not None else []
    for _, r in in_order(ex.map(units, ctx)):
        if on_chunk is not None:
            for out in r.outputs:
                on_chunk(out)
        r.outputs = []
        done.append(r)
    wall = time.perf_counter() - t0
    threads = ex.unit_threads(ctx)
    if not done:
        empty = new_result(sc, game0)
        return runner.RunResult(
            sc, agg or empty.agg, wall, threads, chunk, games, seed, empty.margin, empty.sums, empty.cubes
        )
    m = merge(done)
    total = _merge_aggregates([agg, m.agg]) if agg is not None else m.agg
    return runner.RunResult(sc, total, wall, threads, chunk, games, seed, m.margin, m.sums, m.cubes)


def new_result(sc: Scenario, game0: int = 0) -> UnitResult:
    """The result of no games of ``sc`` (what merging nothing gives)."""
    from sim.stats.measures import Decisiveness, Sums

    sums = Sums(sc)
    return UnitResult(
        "run",
        game0,
        0,
        runner.new_aggregates(sc),
        Decisiveness(sc).hist,
        {"n": sums.n, "s": sums.s, "q": sums.q, "nz": sums.nz},
        cubes=sums.cu,
    )


class Executor(Protocol):
    """Where units are played: `InProcess` (this process) or `sim.play.distributed.DaskExecutor` (Dask workers)."""

    description: str

    @property
    def workers(self) -> int:
        """The workers that play (0: this process)."""
        ...

    def unit_threads(self, ctx: RunContext | None = None) -> int:
        """The Numba threads each unit uses."""
        ...

    def map(self, units: Iterable[Unit], ctx: RunContext | None = None) -> Iterator[tuple[Unit, UnitResult]]:
        """Play ``units``, yielding (unit, result) pairs (in any order: callers merge by ``Unit.index``)."""
        ...

    def calls(
        self, fn: Callable[..., Any], args: Iterable[tuple], ctx: RunContext | None = None
    ) -> Iterator[tuple[int, Any]]:
        """``fn(*a)`` for each ``a`` of ``args`` (a pure function), yielding (index in ``args``, result) pairs in any
        order (`sim train`'s games)."""
        ...


class InProcess:
    """Runs units one after the other in this process, on all the Numba threads it may use (or ``threads``, else
    the run's ``ctx.threads``), telling the run's progress as blocks of games end."""

    description = "in-process"
    workers = 0

    def __init__(self, threads: int | None = None):
        self.threads = threads

    def unit_threads(self, ctx: RunContext | None = None) -> int:
        """The Numba threads each unit uses."""
        return resolve_threads(self.threads or (ctx.threads if ctx else None))

    def map(self, units: Iterable[Unit], ctx: RunContext | None = None) -> Iterator[tuple[Unit, UnitResult]]:
        """Play ``units`` in the order given (lazily: a unit is played when its result is asked for)."""
        ctx = ctx or RunContext()
        t = resolve_threads(self.threads or ctx.threads, ctx.on_note)
        for u in units:
            u = replace(u, threads=t)
            yield u, play_unit(u, ctx)

    def calls(
        self, fn: Callable[..., Any], args: Iterable[tuple], ctx: RunContext | None = None
    ) -> Iterator[tuple[int, Any]]:
        """``fn(*a)`` for each ``a`` of ``args``, one after the other in this process (lazily), with its index;
        ``ctx``'s cancel and a pending Ctrl-C are looked at before each call."""
        for i, a in enumerate(args):
            runner.check_stop(ctx)
            yield i, fn(*a)

    def close(self) -> None:
        pass


def run(
    sc: Scenario,
    games: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    chunk: int = runner.DEFAULT_CHUNK,
    game0: int = 0,
    point: int = 0,
    on_chunk: Callable[[runner.ChunkOutputs], None] | None = None,
    progress: Callable[[float], None] | None = None,
    agg: Aggregates | None = None,
    ctx: RunContext | None = None,
    executor=None,
) -> runner.RunResult:
    """Play ``games`` games (default: the scenario's) from index ``game0`` and aggregate them: the one play path
    (`sim.play.work.play_games`: units of ``chunk`` games on ``executor``, default this process, merged exactly).

    on_chunk(outputs) sees each chunk's per-game arrays in game order (per-game Parquet); progress(k) is told k
    more games as blocks end (see runner.BLOCK_S; results do not depend on it). ``threads`` / ``progress`` fill in a
    `RunContext` when ``ctx`` is not given. ``agg``: aggregates of earlier games to continue from.
    Raises KeyboardInterrupt (`runner.Terminated` on SIGTERM, `Cancelled`) within about runner.BLOCK_S when interrupted.
    """
    ctx = ctx or RunContext(threads=threads, progress=progress)
    return play_games(sc, games, seed, chunk, executor, ctx, on_chunk, game0, point, agg)
