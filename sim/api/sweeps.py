"""`sim.sweep`: parameters over ranges of values, a `SweepResult` (every point's measures with intervals, the
target's answer, the sweep report)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.api.options import OptionError, SweepOptions
from sim.play.context import RunContext

if TYPE_CHECKING:
    import polars as pl

    from sim.play.sweep import Progress
    from sim.play.work import Executor


from sim.api.basics import (
    Doc,
    Sets,
    _executor_for,
    margin_texts,
    set_texts,
    texts,
)

# --- sweep -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SweepResult:
    """A sweep. raw: the sweep.json dict; folder: the sweep folder (a sweep is always written: its points are
    stored there and reused by the next run); ``points``: one row per point and measure (point, the axes'
    values as text, measure, value, ci_low, ci_high, n); played / reused: the point indices played now or found
    stored."""

    raw: Doc
    folder: Path
    played: tuple[int, ...] = ()
    reused: tuple[int, ...] = ()

    @property
    def points(self) -> pl.DataFrame:
        import polars as pl

        rows = []
        for p in self.raw["points"]:
            labels = {f"axis.{k}": str(v) for k, v in p["labels"].items()}
            for name, m in p["measures"].items():
                ci = m.get("ci95") or [None, None]
                rows.append(
                    {
                        "point": p["index"],
                        **labels,
                        "measure": name,
                        "value": m["value"],
                        "ci_low": ci[0],
                        "ci_high": ci[1],
                        "n": m["n"],
                    }
                )
        return pl.DataFrame(rows, infer_schema_length=None)

    @property
    def target(self) -> Doc | None:
        return self.raw.get("target")

    def frame(self) -> pl.DataFrame:
        """sweep.parquet of the sweep folder."""
        import polars as pl

        return pl.read_parquet(self.folder / "sweep.parquet")


def sweep(
    scenario: str | Path,
    *,
    set: Sets = None,
    mode: str | None = None,
    games: int | None = None,
    seed: int | None = None,
    measures: Sequence[str] | str | None = None,
    target: str | None = None,
    independent: bool | None = None,
    fresh: bool | None = None,
    threads: int | None = None,
    chunk: int | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    margins: Sequence[str] | str | None = None,
    out: str | Path | None = None,
    ctx: RunContext | None = None,
    executor: Executor | None = None,
    progress: Progress | None = None,
    on_played: Callable[[], None] | None = None,
) -> SweepResult:
    """Sweep the parameters of a scenario file, write its folder and return its `SweepResult`. Every argument
    after ``scenario`` is a keyword; one left None takes its default.

    What to sweep:
        scenario: a scenario file path.
        set: the axes, {name: values} ({"track_len": "20..40 step 10"} or {"track_len": [20, 30]}) or
            "NAME=VALUES" texts (a value, a list a,b,c or a range LO..HI [step S]); default: the file's [sweep].
        mode: "grid" (every combination, default) or "zip" (the axes' values side by side).
        games: games per point (default: the [sweep] table's, else the scenario's); seed: the master seed
            (default: the scenario's).
        independent: each point its own random streams (default False: common random numbers).
        fresh: forget the stored points and play every point (default False).

    What to judge:
        measures: the measures to plot and pair (default: the game's per-game measures).
        target: "MEASURE=VALUE" (e.g. "first_player_advantage=0"): the points whose interval holds it, and the
            closest point, named.
        margins: the change that matters when a point is judged against the scenario's own, {measure: value} or
            "MEASURE=VALUE" texts (percentage points for rates; default 1 point for rates, 2% for lengths, 5% for
            counts).

    How and where it plays:
        threads: Numba threads per unit (default: all cores in this process, 1 on Dask workers); chunk: games per
            unit of work (results do not depend on it).
        workers: play on a Dask LocalCluster of that many processes; scheduler: on the cluster at that address
            (tcp://HOST:8786); executor: an open one (`executor`) instead of either.
        ctx: threads and cancellation (`RunContext`); progress: a `sim.play.sweep.Progress`; on_played: called
            when the games are over.

    Output:
        out: the sweep folder (default reports/sweep-<name>: sweep.json, sweep.parquet, sweep.html, the stored
            points).

    Raises SweepError, ScenarioError, OptionError, SweepOutputError, ExecutionError (one line each).
    """
    from sim.api.sweep import build, run_sweep

    sets = [f"{k}={_values_text(v)}" for k, v in set.items()] if isinstance(set, Mapping) else set_texts(set)
    o = SweepOptions.given(
        sets=tuple(sets) or None,
        mode=mode,
        games=games,
        seed=seed,
        measures=texts(measures, "measures", "measure names such as 'first_player.win'") if measures else None,
        target=target,
        independent=independent,
        fresh=fresh,
        threads=threads,
        chunk=chunk,
        workers=workers,
        scheduler=scheduler,
        margins=None if margins is None else margin_texts(margins),
    ).validate()
    sw = build(
        Path(scenario),
        list(o.sets),
        o.mode,
        o.games,
        o.seed,
        list(o.measures) if o.measures else None,
        o.target,
        True if o.independent else None,
    )
    from sim.stats import verdict as V
    from sim.stats.sweep_table import check_margins

    try:
        sw.margins = V.parse_margins(list(o.margins))
    except V.MarginError as e:
        raise OptionError(str(e), field="--margin") from None
    check_margins(sw)
    ctx = ctx or RunContext(threads=o.threads)
    with _executor_for(executor, o.workers, o.scheduler, o.threads, ctx) as ex:
        doc, folder, played = run_sweep(sw, ex, out, o.chunk, progress, o.fresh, on_played=on_played, ctx=ctx)
    return SweepResult(doc, folder, tuple(played.played), tuple(played.reused))


def _values_text(v: Any) -> str:
    """A sweep axis's values as `sim sweep --set` takes them: text as it is ("20..40 step 10"), a list a,b,c."""
    from sim.model.scenario import toml_value

    if isinstance(v, str):
        return v
    if isinstance(v, (list, tuple)):
        return ",".join(toml_value(x) for x in v)
    return toml_value(v)
