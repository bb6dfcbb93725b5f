"""`sim compare`: play A and B on common random numbers, chunk by chunk, until the stopping rule
(`--games`, `--precision`, `--sprt`) of `sim.stats.compare` says so, then its paired, Holm-corrected verdicts.

The chunks are units of the one play path (`sim.play.work.Unit` with ``against``: a chunk of A and the same games of
B) on an executor (`sim.play.distributed`: this process or Dask workers, several chunks in flight there). Their paired
sums are taken in chunk order and the stopping rule looks after each chunk, so where it stops, and every number,
is the same on any executor; chunks a cluster played beyond that point are dropped."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from sim.model.scenario import Scenario
from sim.model.words import count
from sim.play.context import RunContext
from sim.play.distributed import InProcess
from sim.play.provenance import git_commit
from sim.play.work import Executor, Unit, UnitResult, chunks, in_order
from sim.stats import compare as C
from sim.stats import metrics


def compare(
    sa: Scenario,
    sb: Scenario,
    games: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    chunk: int = C.DEFAULT_CHUNK,
    precision: float | None = None,
    max_games: int = C.DEFAULT_CAP,
    sprt: C.Sprt | None = None,
    alpha: float = 0.05,
    margins: dict[str, float] | None = None,
    progress: Callable[[float], None] | None = None,
    on_played: Callable[[], None] | None = None,
    ctx: RunContext | None = None,
    executor: Executor | None = None,
    margins_elsewhere: Sequence[str] = (),
) -> dict:
    """Play A and B on common random numbers and compare every shared measure. Returns the comparison dict
    (JSON-ready; see module docstring). ``games`` is the fixed game count (default: A's), ignored when
    ``precision`` or ``sprt`` decides when to stop (then ``max_games`` caps the run). ``on_played``: called once
    the games are over (`sim.play.progress`: the games line counts the games alone). ``ctx``: threads, progress,
    cancellation (default: from ``threads`` and ``progress``); ``executor``: where the chunks are played (None:
    this process); ``margins_elsewhere``: measures compared apart whose ``margins`` are not this comparison's (the
    arc's rollout measures). Raises CompareError (one line) for a stopping rule that cannot apply or a margin of
    no compared measure."""
    seed = sa.seed if seed is None else int(seed)
    ps = C.PairedSums(sa, sb, arc=bool(ctx is not None and ctx.arc))  # the arc measures: `sim compare --arc`
    drop, notes, names = C.keep_comparable(ps)
    margins = C.resolve_margins(margins, names, margins_elsewhere)
    if sprt is not None:
        sprt = C.check_sprt(sprt, sa, ps, drop, names)
    if precision is not None and not any(C.is_win_rate(n) for n in names):
        raise C.CompareError(
            "--precision watches the win rates' differences, but no win rate is compared here"
            + (f" ({notes[0]})" if notes else "")
            + "; use --games, or --sprt with --metric"
        )
    adaptive = precision is not None or sprt is not None
    target = max_games if adaptive else (sa.games if games is None else int(games))
    ctx = ctx or RunContext(threads=threads, progress=progress)
    ex = executor if executor is not None else InProcess()
    units = (
        Unit("compare", i, sa, g0, n, seed, against=sb, arc=ctx.arc) for i, (g0, n) in enumerate(chunks(target, chunk))
    )  # (arc: the unit carries it to a worker, where no context is)
    t0 = time.perf_counter()
    done = 0
    stop = {"rule": "games", "message": f"played the requested {count(target, 'game', grouped=True)}"}
    sprt_out = None
    prec_out = None
    results = in_order(ex.map(units, ctx))
    for _, r in results:
        _add_pairs(ps, r)
        done += r.games
        if done < C.MIN_GAMES:
            continue
        if sprt is not None:
            sprt_out = C.sprt_status(ps, sprt)
            if sprt_out["state"] != "continue":
                stop = {"rule": "sprt", "message": sprt_out["message"]}
                break
        if precision is not None:
            prec_out = C.precision_status(ps, precision)
            if prec_out["reached"] and sprt is None:
                stop = {"rule": "precision", "message": prec_out["message"]}
                break
    else:
        if adaptive:
            stop = {
                "rule": "cap",
                "message": f"game cap of {target} reached before "
                + ("the SPRT decided" if sprt is not None else f"precision ±{precision}"),
            }
    if sprt is not None and sprt_out is None:
        sprt_out = C.sprt_status(ps, sprt)
    if precision is not None:
        prec_out = C.precision_status(ps, precision)
        if stop["rule"] == "cap" and sprt is None:
            stop["message"] += (
                f"; worst win-rate half-width {prec_out['worst_half_width']:.4f} ({prec_out['worst_metric']})"
            )
    close = getattr(results, "close", None)  # a generator: a cluster's chunks still in flight are cancelled
    if close is not None:
        close()
    t = ex.unit_threads(ctx)
    wall = time.perf_counter() - t0
    if on_played is not None:
        on_played()
    rows = C.evaluate(ps, alpha, margins, seed)
    return {
        "schema": 1,
        "a": C.side_info(sa),
        "b": C.side_info(sb),
        "seed": seed,
        "games": done,
        "threads": t,
        "chunk": chunk,
        "alpha": alpha,
        "correction": "holm",
        "margins": margins,
        "seconds_per_turn": {"a": _seconds(sa), "b": _seconds(sb)},
        "metrics": rows,
        "significant": [r["name"] for r in rows if r["significant"]],
        # fewer paired games than a test needs (sim.stats.metrics.MIN_GAMES_FOR_TESTS): those measures are untested
        "too_few_games": any(r["too_few_games"] for r in rows),
        "min_games_for_tests": metrics.MIN_GAMES_FOR_TESTS,
        "not_compared": {"only_a": ps.only_a, "only_b": ps.only_b, "different_meaning": drop},
        "notes": notes,
        "stop": stop,
        "precision": prec_out,
        "sprt": sprt_out,
        "provenance": {
            "rules_version": sa.spec.rules_version,
            "rng_contract": _rng_contract(),
            "git_commit": git_commit(),
            "wall_time_s": round(wall, 3),
            "created_utc": _now_utc(),
        },
    }


def _add_pairs(ps: C.PairedSums, r: UnitResult) -> None:
    """Add a chunk's paired sums (`UnitResult.pairs`) to ``ps``, for the measures ``ps`` still compares."""
    assert r.pairs is not None, "a compare unit carries its paired sums"
    for name, acc in ps.acc.items():
        for f, v in r.pairs[name].items():
            acc[f] += v
    if ps.joint is not None and r.joint is not None:
        ps.joint.table += r.joint
    ps.games += r.games


def _rng_contract() -> int:
    from sim.games import rng_contract

    return rng_contract()


def _now_utc() -> str:
    """When the comparison was made (provenance 'created_utc', as a run's: the index page says it)."""
    import datetime as dt

    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def _seconds(sc: Scenario) -> float | None:
    """The scenario's seconds_per_turn (its playing time per turn, for the minutes), None for a game without it."""
    from sim.model.registry import SECONDS_PER_TURN

    return float(sc.params[SECONDS_PER_TURN]) if sc.spec.param(SECONDS_PER_TURN) is not None else None
