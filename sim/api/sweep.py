"""Parameter sweeps (`sim sweep`): spec (axes, points), engine (units on an executor, stored points), table
(measures, pairs, target), page (sweep.html), output (the report folder). `run_sweep` is what the CLI calls."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from sim.model import sweep_spec
from sim.model.sweep_spec import Sweep, SweepError  # noqa: F401  (the sweep API's types)
from sim.play.context import RunContext
from sim.play.sweep import Played, Progress
from sim.play.work import Executor
from sim.stats import sweep_table


def build(
    path: str | Path,
    sets: Sequence[str] = (),
    mode: str | None = None,
    games: int | None = None,
    seed: int | None = None,
    measures: list[str] | None = None,
    target: str | None = None,
    independent: bool | None = None,
) -> Sweep:
    """A validated sweep: `sim.model.sweep_spec.build` (axes, points; same arguments), then its measures and target
    checked against every point's measures (`sim.stats.sweep_table.resolve`). Raises SweepError (one line; an error
    of the file's ``[sweep]`` table names the file first, `sim.model.sweep_spec.in_file`)."""
    try:
        sw = sweep_spec.build(path, sets, mode, games, seed, measures, target, independent)
        sweep_table.resolve(sw)
    except SweepError as e:
        raise sweep_spec.in_file(path, e) from None
    return sw


def run_sweep(
    sw: Sweep,
    executor: Executor,
    out: str | Path | None = None,
    chunk: int | None = None,
    progress: Progress | None = None,
    fresh: bool = False,
    on_played: Callable[[], None] | None = None,
    ctx: RunContext | None = None,
) -> tuple[dict, Path, Played]:
    """Play the missing points of ``sw`` on ``executor``, then write sweep.parquet, sweep.html and sweep.json.
    Returns (sweep.json dict, folder, engine.Played). Interrupted, it leaves the stored points and no new sweep.json
    (an earlier sweep's outputs as they were), and no folder it made when no point was stored yet.
    ``on_played``: called once the games are over, before sweep.json / sweep.html are written. ``ctx``: the
    run's `sim.play.context.RunContext` (threads, cancellation, notes)."""
    from sim.output import sweep_output as output
    from sim.play import runner
    from sim.play import sweep as engine
    from sim.play.provenance import provenance

    table = sweep_table
    folder = output.folder_for(sw, out)
    made = not folder.exists()
    output.prepare(folder, output.what_for(sw, out))
    if fresh:
        output.clear_points(folder)
    try:
        played = engine.play(sw, folder, executor, chunk or runner.DEFAULT_CHUNK, progress, ctx)
    except BaseException:  # stopped before any point was stored: no empty folder left looking like a result
        output.discard_if_empty(folder, made)
        raise
    if on_played is not None:
        on_played()
    res = engine.collect(sw, folder)
    threads = executor.unit_threads(ctx)
    prov = provenance(sw.base, sw.games, sw.base.seed, played.wall_s, threads, chunk or runner.DEFAULT_CHUNK)
    prov.update(
        {
            "executor": executor.description,
            "points_played": len(played.played),
            "points_reused": len(played.reused),
            "first_point_s": played.first_point_s,
        }
    )
    doc = output.document(sw, res, prov)
    output.write(folder, sw, doc, table.frame(sw, res["rows"]))
    return doc, folder, played
