"""Plays a sweep: the points not yet stored, as units (point, chunk of game indices) on an executor
(`sim.play.distributed`), each point's chunks merged exactly (`sim.play.work.merge`) and stored (`sim.play.sweep_store`) as soon as
they are all in; then the numbers of every point and neighbouring pair (`sim.stats.sweep_table`).

Common random numbers: every point plays the same seed, RNG point id 0 and game indices (the same as `sim run` of
that point), so points differ only by the rule change and neighbours are compared game by game. With
``independent`` each point plays RNG point id index + 1 (its own streams) and neighbours are compared as
independent samples.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from sim.model.sweep_spec import Sweep
from sim.play.context import RunContext
from sim.play.sweep_store import Store, point_key
from sim.play.work import Unit, chunks, merge
from sim.stats import sweep_table as table


@dataclass
class Progress:
    """Callbacks the engine tells (the CLI draws bars; tests count). All optional."""

    start: Callable[[int, int], None] | None = None  # start(points_to_play, games_to_play)
    advance: Callable[[int, int], None] | None = None  # advance(point_index, games) after each unit; games 0 when
    # a unit's games start in this process (its kernels compiled)
    point_done: Callable[[int], None] | None = None  # point_done(point_index)


@dataclass
class Played:
    """What `play` did: points played now, points found stored, wall time, time to the first point finished."""

    played: list = field(default_factory=list)
    reused: list = field(default_factory=list)
    wall_s: float = 0.0
    first_point_s: float | None = None


def rng_point(sw: Sweep, index: int) -> int:
    return index + 1 if sw.independent else 0


def paired_names(sw: Sweep) -> tuple[str, ...]:
    """The `sim.stats.measures` names whose per-game numerators are kept to pair neighbouring points."""
    if sw.independent:
        return ()
    qs = table.quantities(sw.points[0].scenario)
    return tuple(dict.fromkeys(qs[m].base.name for m in sw.measures))


def keys(sw: Sweep) -> list[str]:
    return [point_key(p.scenario, sw.base.seed, sw.games, rng_point(sw, p.index)) for p in sw.points]


def play(
    sw: Sweep, folder: Path, executor, chunk: int, progress: Progress | None = None, ctx: RunContext | None = None
) -> Played:
    """Play every point of ``sw`` not yet stored under ``folder``/points. KeyboardInterrupt passes through; points
    finished before it stay stored (a rerun plays only the rest). ``ctx``: threads, cancellation, notes (the
    progress is ``progress``'s, told per unit)."""
    store = Store(Path(folder) / "points")
    pk = keys(sw)
    paired = paired_names(sw)
    arc = table.recorded_arc(sw, sw.measures)  # an arc measure swept: every point records the game's arc
    out = Played()
    todo = [p for p in sw.points if not store.has(pk[p.index], paired, arc)]
    out.reused = [p.index for p in sw.points if p not in todo]
    pr = progress or Progress()
    if pr.start:
        pr.start(len(todo), len(todo) * sw.games)
    units = [
        Unit(pk[p.index], i, p.scenario, g0, n, sw.base.seed, rng_point(sw, p.index), paired, arc=arc)
        for p in todo
        for i, (g0, n) in enumerate(chunks(sw.games, chunk))
    ]
    per_point = len(chunks(sw.games, chunk))
    index_of = {pk[p.index]: p for p in todo}
    pending: dict[str, list] = {}
    started = iter(units)  # in this process the units play in order, and each chunk tells progress(0) as it starts

    def began(k: float) -> None:
        """The runner's progress(0), told when a chunk's games start (its kernels compiled): said as the point's
        advance(index, 0), so the progress line changes from "starting up" once point 0's games begin (a point
        of search seats is one unit of minutes). Games are counted per unit below: k > 0 (a block's games, or a
        unit back from a Dask worker) is not counted twice."""
        if k == 0 and pr.advance and (v := next(started, None)) is not None:
            pr.advance(index_of[v.key].index, 0)

    t0 = time.perf_counter()
    for u, r in executor.map(units, (ctx or RunContext()).with_(progress=began)):
        p = index_of[u.key]
        pending.setdefault(u.key, []).append(r)
        if pr.advance:
            pr.advance(p.index, u.n)
        if len(pending[u.key]) == per_point:
            merged = merge(pending.pop(u.key))
            store.save(
                u.key,
                merged,
                {
                    "index": p.index,
                    "values": p.values,
                    "seed": sw.base.seed,
                    "games": sw.games,
                    "point": rng_point(sw, p.index),
                },
            )
            out.played.append(p.index)
            if out.first_point_s is None:
                out.first_point_s = time.perf_counter() - t0
            if pr.point_done:
                pr.point_done(p.index)
    out.wall_s = time.perf_counter() - t0
    return out


def collect(sw: Sweep, folder: Path) -> dict:
    """The numbers of a fully stored sweep: rows (one per point), pairs of neighbours, target."""
    store = Store(Path(folder) / "points")
    pk = keys(sw)
    rows = []
    qcache: dict[int, dict] = {}  # quantities per point, built once (not once per pair)

    def qs(i: int) -> dict:
        if i not in qcache:
            qcache[i] = table.quantities(sw.points[i].scenario)
        return qcache[i]

    for p in sw.points:
        doc = store.load(pk[p.index])
        ms = table.point_measures(p.scenario, doc["sums"], qs(p.index))
        rows.append(
            {
                "index": p.index,
                "values": p.values,
                "games": doc["games"],
                "key": pk[p.index],
                "measures": ms,
                "minutes": table.point_minutes(p.scenario, ms),
                "finished": doc["agg"].finished,
                "truncated": doc["agg"].truncated,
                "aggregates": doc["aggregates"],
                "_sums": doc["sums"],
            }
        )
    pairs = []
    cache: dict[int, dict] = {}

    def difference(a: int, b: int, m: str) -> dict:
        """B - A of measure ``m`` between points ``a`` and ``b``: paired over their common games, or Welch."""
        qa, qb = qs(a), qs(b)
        if sw.independent:
            d = table.independent_difference(qb[m], rows[a]["_sums"], rows[b]["_sums"])
        else:
            for i in (a, b):
                if i not in cache:
                    cache[i] = store.load_paired(pk[i])
            d = table.paired_difference(qb[m], cache[a], cache[b])
        if qa[m].offset != qb[m].offset:  # different fair shares (players swept): shift
            d["diff"] += qb[m].offset - qa[m].offset
            d["ci95"] = [c + qb[m].offset - qa[m].offset for c in d["ci95"]]
        return d

    own = table.sw_default(sw)
    for a, b, axis in table.neighbours(sw):
        pairs.append({"a": a, "b": b, "axis": axis, "measures": {m: difference(a, b, m) for m in sw.measures}})
        for i in list(cache):  # bounded memory: keep only what later pairs need
            if i < a and i != own:
                del cache[i]
    tests = []
    if own is not None:
        for p in sw.points:
            if p.index != own:
                tests += [dict(difference(own, p.index, m), point=p.index, measure=m) for m in sw.measures]
                cache.pop(p.index, None)
    against = table.against_own(tests, sw.games, margins=_margins(sw, rows[own], qs(own))) if own is not None else None
    for r in rows:
        del r["_sums"]
    return {
        "rows": rows,
        "pairs": pairs,
        "target": table.target_summary(sw, rows),
        "default": own,
        "against_own": against,
    }


def _margins(sw, own_row: dict, quantities: dict) -> dict[str, float]:
    """Each swept measure's equivalence margin (`sim.stats.verdict`) in its unit, the scenario's own point's value
    the reference of a relative one."""
    from sim.stats import verdict as V
    from sim.stats.compare import margin_kind

    out = {}
    for m in sw.measures:
        q = quantities[m]
        ref = (own_row["measures"].get(m) or {}).get("value") or 0.0
        out[m] = V.margin_for(m, margin_kind(q.base.name, q.base.kind, sw.base.game), sw.margins).value(ref)
    return out
