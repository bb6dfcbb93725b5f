"""The unit of work: (scenario point, chunk of game indices) -> integer aggregates, and their exact merge.

`play_unit` is pure: its result depends only on the unit (scenario, seed, RNG point id, game0, n), never on the
process, thread count or machine that runs it. The in-process runner of a sweep, `sim run --workers` and every Dask
worker execute this same function, and `merge` adds results with integer sums (in chunk order), so a point's
aggregates are bit-identical however its games were split and wherever they ran (ARCHITECTURE "Work units are pure").

What crosses back from a unit is bounded: the run's `Aggregates` (counts and histograms), the winner's-margin
histogram (`measures.Decisiveness`), the per-measure sums (`measures.Sums`), and only when asked: per-game
numerators of the few *paired* measures (int32, one column each, to pair neighbouring sweep points game by game)
and the kernel's per-game outputs (`sim run --per-game`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sim.model.scenario import Scenario
from sim.play import runner
from sim.stats.aggregate import Aggregates


@dataclass(frozen=True)
class Unit:
    """Games ``game0 .. game0 + n - 1`` of ``scenario`` with ``seed`` and RNG point id ``point``.

    ``key`` names the point (sweep) or run it belongs to and ``index`` the chunk's place in it (results are merged
    in index order). ``paired``: measure names (`measures.measures`) whose per-game numerators come back.
    ``threads``: Numba threads to use (None: all available). ``per_game``: also return the kernel outputs."""
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


@dataclass
class UnitResult:
    """What a unit (or a merge of consecutive units) returns; every count is an integer.

    agg: `Aggregates`; margin: int64 histogram of the winner's margin (`Decisiveness.hist`); sums: `Sums` dicts
    (n, s, q, nz per measure; cubes are dropped: a float, order-dependent); paired: int32[games, len(paired)]
    per-game numerators, finished: bool[games] (status 0) when paired measures were asked; outputs: the kernel
    outputs per chunk (only with per_game)."""
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


def play_unit(u: Unit) -> UnitResult:
    """Play unit ``u`` and return its aggregates (see `UnitResult`). Pure: same unit, same result."""
    from sim.stats.measures import Decisiveness, Sums, game_values
    sc = u.scenario
    runner.set_threads(u.threads)
    out = runner.play_chunk(sc, u.game0, u.n, u.point, u.seed)
    agg = runner.new_aggregates(sc)
    agg.add(out.game0, out.scores, out.winners, out.turns, out.rounds, out.status, out.extra, out.curves)
    dec = Decisiveness(sc)
    dec.add(out)
    sums = Sums(sc)
    sums.add(out)
    res = UnitResult(u.key, u.game0, u.n, agg, dec.hist,
                     {"n": sums.n, "s": sums.s, "q": sums.q, "nz": sums.nz}, tuple(u.paired))
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
        elif isinstance(v, list):            # extra_hist: one histogram per column
            out.__dict__[name] = [_sum_hists([x[c] for x in vals]) for c in range(len(v))]
        elif isinstance(v, int) and name not in ("players", "score_lo", "score_hi"):
            out.__dict__[name] = sum(vals)
    return out


def _sum_hists(hs: list[np.ndarray]) -> np.ndarray:
    out = np.zeros(max(len(h) for h in hs), np.int64)
    for h in hs:
        out[:len(h)] += h
    return out


def chunks(games: int, chunk: int, game0: int = 0) -> list[tuple[int, int]]:
    """(game0, n) of each chunk of ``games`` games of at most ``chunk`` games, in order."""
    return [(game0 + s, min(chunk, games - s)) for s in range(0, games, chunk)]
