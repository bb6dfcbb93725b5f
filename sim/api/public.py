"""The typed Python API (what ``import sim`` exports): load a scenario, run, sweep, compare and check it, and get
frozen results with Polars frames.

    import sim
    r = sim.run("scenarios/moor/4p.toml", games=100_000, set={"track_len": 32})
    r.measures                 # one row per measure, with its 95% interval
    r.write()                  # the report folder `sim run` writes: reports/<name>/

Scenarios: `load` (a file, with overrides) or `Scenario.from_dict` (a parsed document, as the TOML file reads).
Options are dataclasses (`RunOptions`, `CompareOptions`, `SweepOptions`, `CheckOptions`); the few keywords of
each function fill one in. Per-run settings (threads, a progress callback, a cancel flag) travel in one
`RunContext`. Bad input raises a `SimError` (one line, with ``field``, ``allowed``, ``given``); the command line
prints the same line. Every function here plays through the one play path (`sim.play.work`), in this process or on
Dask (``workers`` / ``scheduler``), with the same numbers.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from sim.api.options import CheckOptions, CompareOptions, OptionError, RunOptions, SweepOptions, check_cluster
from sim.model.errors import SimError
from sim.model.scenario import Scenario
from sim.play.context import RunContext

if TYPE_CHECKING:
    import polars as pl

    from sim.api.check import ProgressBar
    from sim.play.runner import ChunkOutputs
    from sim.play.sweep import Progress
    from sim.play.work import Executor

ScenarioLike = str | Path | Scenario
_Options = TypeVar("_Options", RunOptions, CompareOptions, SweepOptions, CheckOptions)
Doc = dict[str, Any]  # a JSON-ready document (summary.json, compare.json, sweep.json, a check result)
Sets = Mapping[str, Any] | Sequence[str] | None

__all__ = [
    "load",
    "run",
    "sweep",
    "compare",
    "check",
    "Result",
    "SweepResult",
    "Comparison",
    "CheckResult",
    "RunOptions",
    "CompareOptions",
    "SweepOptions",
    "CheckOptions",
    "RunContext",
    "Scenario",
    "SimError",
    "OptionError",
]


# --- scenarios -------------------------------------------------------------------------------------------------------


def set_texts(sets: Sets) -> list[str]:
    """Overrides as "NAME=VALUE" texts: a mapping {name: value} (each value written as TOML) or texts as given."""
    from sim.model.scenario import toml_value

    if sets is None:
        return []
    if isinstance(sets, Mapping):
        return [f"{k}={toml_value(v)}" for k, v in sets.items()]
    if isinstance(sets, str):
        return [sets]
    return list(sets)


def load(
    scenario: ScenarioLike,
    set: Sets = None,
    games: int | None = None,
    seed: int | None = None,
    more: Sequence[tuple[str, Sets]] = (),
) -> Scenario:
    """The validated scenario of file ``scenario`` (a `Scenario` is taken as it is) with the overrides ``set``
    ({"track_len": 32, "seats.2.strategy": "runner"}, or "NAME=VALUE" texts; then ``more``: further (option,
    overrides) as compare's ("--set-a", ...)) and ``games`` / ``seed`` applied before it is validated.
    Raises OverrideError (a bad override, one field given twice: also --games / --seed and an override of it) or
    ScenarioError (a bad file), one line each."""
    from sim.model.overrides import OverrideError, canonical, parse_sets, show
    from sim.model.overrides import load as load_file

    if not isinstance(scenario, (str, Path, Scenario)):
        from sim.model.scenario import ScenarioError

        raise ScenarioError(f"scenario: expected a scenario file path or a sim.Scenario, got {scenario!r}")
    if isinstance(scenario, Scenario):
        if set_texts(set) or any(set_texts(s) for _, s in more):
            raise OverrideError(
                "overrides apply to a scenario file; give its path (or change the Scenario with with_changes)"
            )
        changes = {k: v for k, v in (("games", games), ("seed", seed)) if v is not None}
        return scenario.with_changes(**changes) if changes else scenario
    groups = [("--set", set_texts(set)), *((opt, set_texts(s)) for opt, s in more)]
    overrides = parse_sets(*groups)
    options = [opt for opt, texts in groups for _ in texts]  # the option of each override, named by its error
    for option, value in (("games", games), ("seed", seed)):
        twice = [(o, n, v) for o, (n, v) in zip(options, overrides) if canonical(n) == (option,)]
        if value is not None and twice:
            o, n, v = twice[0]
            raise OverrideError(f"{o} {n}: given twice (--{option} {value}, {o} {show(n, v)}); give it once")
    sc = load_file(scenario, overrides, games, options)
    return sc.with_changes(seed=seed) if seed is not None else sc


# --- where the games are played ----------------------------------------------------------------------------------


@contextlib.contextmanager
def executor(
    workers: int | None = None,
    scheduler: str | None = None,
    threads: int | None = None,
    on_note: Callable[[str], None] | None = None,
) -> Iterator[Executor]:
    """This process, a Dask LocalCluster of ``workers`` processes or the cluster at ``scheduler`` (or
    $DASK_SCHEDULER_ADDRESS), closed on exit (`sim.play.distributed.executor`). Raises OptionError for a bad
    value, ExecutionError when the cluster cannot be reached."""
    from sim.play import distributed

    check_cluster(workers, scheduler)
    with distributed.executor(workers, scheduler, threads, on_note=on_note) as ex:
        yield ex


@contextlib.contextmanager
def _executor_for(
    given: Executor | None, workers: int | None, scheduler: str | None, threads: int | None, ctx: RunContext
) -> Iterator[Executor]:
    if given is not None:
        yield given
        return
    with executor(workers, scheduler, threads, ctx.on_note) as ex:
        yield ex


# --- results -----------------------------------------------------------------------------------------------------


def _interval_rows(sc: Scenario, values: Mapping[str, Doc]) -> list[Doc]:
    """Rows (measure, label, unit, kind, headline, value, ci_low, ci_high, n) of measure values {name: {value,
    ci95, n}} (`sim.stats.sweep_table.point_measures`), labels and units from the catalogue."""
    from sim.model import catalogue
    from sim.stats.sweep_table import quantities

    qs = quantities(sc)
    seats = [s.strategy for s in sc.seats]
    rows = []
    for name, v in values.items():
        q = qs[name]
        e = catalogue.describe(name, sc.game, seats)
        ci = v.get("ci95") or [None, None]
        rows.append(
            {
                "measure": name,
                "label": q.label,
                "unit": frame_unit(q.kind, e.unit),
                "kind": q.kind,
                "headline": e.headline,
                "value": v["value"],
                "ci_low": ci[0],
                "ci_high": ci[1],
                "n": v["n"],
            }
        )
    return rows


def frame_unit(kind: str, unit: str) -> str:
    """The unit of a value as the frame holds it: a rate is a share in [0, 1] there (the pages print it in %), so
    "% of finished games" reads "share of finished games" and "percentage points" "share (difference)"."""
    if kind != "rate":
        return unit
    if unit.startswith("% of "):
        return "share of " + unit.removeprefix("% of ")
    if unit == "percentage points":
        return "share (difference)"
    return unit


MEASURE_SCHEMA = {
    "measure": "String",
    "label": "String",
    "unit": "String",
    "kind": "String",
    "headline": "Boolean",
    "value": "Float64",
    "ci_low": "Float64",
    "ci_high": "Float64",
    "n": "Int64",
}


def measures_frame(rows: list[Doc]) -> pl.DataFrame:
    """`_interval_rows` as a Polars frame of `MEASURE_SCHEMA` (value, ci_low, ci_high null where no game counts)."""
    import polars as pl

    return pl.DataFrame(rows, schema={k: getattr(pl, t) for k, t in MEASURE_SCHEMA.items()})


@dataclass(frozen=True)
class Result:
    """A played scenario.

    scenario: what was played (games and seed as played); raw: the summary dict (summary.json, schema 1);
    folder: the report folder once written (by ``run(..., write=True)`` or `write`), else None. ``measures``:
    every measure, one row each (`MEASURE_SCHEMA`: measure, label, unit, kind, headline, value, ci_low, ci_high
    (95%), n games counted); ``summary``: its headline rows (seat and start-player win rates, first-player
    advantage, length); ``verdicts``: the plain sentences of the report; ``games()``: the per-game frame."""

    scenario: Scenario
    raw: Doc
    folder: Path | None = None
    sums: Doc = field(default_factory=dict, repr=False)
    outputs: tuple[ChunkOutputs, ...] = field(default=(), repr=False)  # per-game kernel outputs (per_game, not written)

    @property
    def measures(self) -> pl.DataFrame:
        from sim.stats.sweep_table import point_measures

        return measures_frame(_interval_rows(self.scenario, point_measures(self.scenario, self.sums)))

    @property
    def summary(self) -> pl.DataFrame:
        import polars as pl

        return self.measures.filter(pl.col("headline"))

    @property
    def verdicts(self) -> list[str]:
        from sim.pages.verdicts import run_sentences

        return run_sentences(self.raw)

    def games(self) -> pl.DataFrame:
        """One row per game, as games.parquet has (`sim.output.report.games_frame`: game int64, status, winners,
        turns, rounds, score_seat<i>, win_seat<i>, the game's counters, <curve>_by_round). Raises OutputError when
        the run kept no per-game rows (play it with per_game=True)."""
        import polars as pl

        from sim.output.report import OutputError, games_frame

        if self.outputs:
            frame: pl.DataFrame = pl.concat([games_frame(self.scenario, o) for o in self.outputs])
            return frame
        if self.folder is not None and (self.folder / "games.parquet").is_file():
            return pl.read_parquet(self.folder / "games.parquet")
        raise OutputError("games: this run kept no per-game rows; run it with per_game=True")

    def write(self, folder: str | Path | None = None) -> Path:
        """Write the report folder `sim run` writes (summary.json, provenance.json, summary.md, summary.html,
        balance.md, plots/, games.parquet with per-game rows) into ``folder`` (default reports/<scenario name>),
        staged: it appears only when complete. Returns the folder. Raises OutputError (one line) when it cannot
        be written. A result already written there returns its folder at once."""
        from sim.api import core
        from sim.output import report

        final = core.report_folder(self.scenario, folder)
        if self.folder is not None and final.resolve() == self.folder.resolve():
            return self.folder
        with report.staged_dir(final, core.default_what(self.scenario, folder)) as tmp:
            parts = None
            if self.outputs:
                parts = report.ParquetParts(self.scenario, tmp)
                for o in self.outputs:
                    parts.add(o)
            core.write_report(tmp, self.raw, parts)
        return final


def run(
    scenario: ScenarioLike,
    options: RunOptions | None = None,
    *,
    set: Sets = None,
    games: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    per_game: bool | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    write: bool = False,
    out: str | Path | None = None,
    ctx: RunContext | None = None,
    executor: Executor | None = None,
    on_played: Callable[[], None] | None = None,
) -> Result:
    """Play a scenario (a file, with overrides ``set``, or a `Scenario`) and return its `Result`.

    ``options`` (`RunOptions`); the keywords games, seed, threads, per_game, workers, scheduler replace its fields.
    ``write``: also write the report folder (``out``, default reports/<name>) as `sim run` does, the per-game rows
    streamed to games.parquet (not kept in memory). ``ctx``: threads, progress, cancellation; ``executor``: an open
    one (`executor`) instead of ``workers`` / ``scheduler``; ``on_played``: called when the games are over.
    Raises SimError subclasses (OptionError, OverrideError, ScenarioError, OutputError, ExecutionError), one line
    each; KeyboardInterrupt (`Cancelled`) when stopped, leaving nothing half-written."""
    from sim.api import core

    o = _fill(
        options or RunOptions(),
        games=games,
        seed=seed,
        threads=threads,
        per_game=per_game,
        workers=workers,
        scheduler=scheduler,
    ).validate()
    sc = load(scenario, set, o.games)
    ctx = ctx or RunContext(threads=o.threads)
    if ctx.threads is None and o.threads is not None:
        ctx = ctx.with_(threads=o.threads)
    kept: list[ChunkOutputs] = []
    with _executor_for(executor, o.workers, o.scheduler, o.threads, ctx) as ex:
        if write or out is not None:
            s, res, folder = core.play_scenario(
                sc, o.games, o.seed, o.threads, o.chunk, out, o.per_game, executor=ex, on_played=on_played, ctx=ctx
            )
        else:
            s, res, folder = core.play_scenario(
                sc,
                o.games,
                o.seed,
                o.threads,
                o.chunk,
                write=False,
                executor=ex,
                ctx=ctx,
                on_chunk=kept.append if o.per_game else None,
            )
            if on_played is not None:
                on_played()
    played = sc.with_changes(games=res.games, seed=res.seed)
    return Result(played, s, folder, res.sums or {}, tuple(kept))


def _fill(o: _Options, **kw: Any) -> _Options:
    """Dataclass ``o`` with the keywords that are not None."""
    given = {k: v for k, v in kw.items() if v is not None}
    return replace(o, **given) if given else o


# --- compare -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Comparison:
    """A comparison of A and B on common random numbers. raw: the compare.json dict; ``metrics``: one row per
    measure compared (`COMPARE_SCHEMA`: measure, label, kind, n, a, b, diff and its paired 95% interval ci_low,
    ci_high, pairing_gain, p (null: identical), p_holm, significant; the verdict at the measure's equivalence margin
    (`sim.stats.verdict`): margin (a rate's as a share), p_equiv_holm, verdict (unchanged / changed / cannot_tell),
    more_games (about how many more games would decide a cannot_tell)); ``verdicts``: the plain sentences;
    ``games``: paired games played; ``stop``: why it stopped; folder: where it was written, else None."""

    a: Scenario
    b: Scenario
    raw: Doc
    folder: Path | None = None

    @property
    def metrics(self) -> pl.DataFrame:
        import polars as pl

        rows = [
            {
                "measure": r["name"],
                "label": r["label"],
                "kind": r["kind"],
                "n": r["n"],
                "a": r["a"],
                "b": r["b"],
                "diff": r["diff"],
                "ci_low": r["diff_ci95"][0],
                "ci_high": r["diff_ci95"][1],
                "pairing_gain": r["pairing_gain"],
                "p": r["p"],
                "p_holm": r["p_holm"],
                "significant": r["significant"],
                "margin": r.get("margin"),
                "p_equiv_holm": r.get("p_equiv_holm"),
                "verdict": r.get("verdict"),
                "more_games": r.get("more_games"),
            }
            for r in self.raw["metrics"]
        ]
        return pl.DataFrame(rows, schema={k: getattr(pl, t) for k, t in COMPARE_SCHEMA.items()})

    @property
    def verdicts(self) -> list[str]:
        from sim.pages.verdicts import compare_sentences

        return compare_sentences(self.raw)

    @property
    def games(self) -> int:
        return int(self.raw["games"])

    @property
    def significant(self) -> list[str]:
        return list(self.raw["significant"])

    @property
    def stop(self) -> Doc:
        return dict(self.raw["stop"])

    def write(self, folder: str | Path | None = None) -> Path:
        """compare.json, compare.md and compare.html into ``folder`` (default reports/compare-<A>-vs-<B>),
        staged. Returns the folder; raises OutputError (one line)."""
        from sim.api import core

        final, what = compare_folder(self.a, self.b, folder)
        return core.write_comparison(self.raw, final, what)


COMPARE_SCHEMA = {
    "measure": "String",
    "label": "String",
    "kind": "String",
    "n": "Int64",
    "a": "Float64",
    "b": "Float64",
    "diff": "Float64",
    "ci_low": "Float64",
    "ci_high": "Float64",
    "pairing_gain": "Float64",
    "p": "Float64",
    "p_holm": "Float64",
    "significant": "Boolean",
    "margin": "Float64",
    "p_equiv_holm": "Float64",
    "verdict": "String",
    "more_games": "Int64",
}


def compare_folder(a: Scenario, b: Scenario, out: str | Path | None = None) -> tuple[Path, str]:
    """(folder, how an error line names it) of the comparison of ``a`` and ``b``."""
    from sim.model import paths  # REPORTS read at call time: a test or a caller may point it elsewhere

    if out:
        return Path(out), "--out"
    return (
        paths.REPORTS / f"compare-{a.name}-vs-{b.name}",
        f"comparison '{a.name}' vs '{b.name}', default report folder",
    )


def compare(
    a: ScenarioLike,
    b: ScenarioLike | None = None,
    options: CompareOptions | None = None,
    *,
    set: Sets = None,
    set_a: Sets = None,
    set_b: Sets = None,
    games: int | None = None,
    seed: int | None = None,
    precision: float | None = None,
    sprt: float | None = None,
    threads: int | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    write: bool = False,
    out: str | Path | None = None,
    ctx: RunContext | None = None,
    executor: Executor | None = None,
    on_played: Callable[[], None] | None = None,
) -> Comparison:
    """Compare scenario ``b`` (default: ``a`` changed by ``set_b``) with ``a`` on common random numbers
    (`sim.api.compare.compare`). ``set``: overrides of both, ``set_a`` / ``set_b``: of one. ``options``
    (`CompareOptions`); the keywords replace its fields. ``write``: also write compare.json / .md / .html
    (``out``, default reports/compare-<A>-vs-<B>; checked before any game is played). Raises OptionError,
    OverrideError, ScenarioError, CompareError, OutputError, ExecutionError (one line each)."""
    from sim.api import compare as play
    from sim.api import core
    from sim.output.report import prepare_output
    from sim.stats import compare as C

    o = _fill(
        options or CompareOptions(),
        games=games,
        seed=seed,
        precision=precision,
        sprt=sprt,
        threads=threads,
        workers=workers,
        scheduler=scheduler,
    ).validate()
    if b is None and not set_b:
        raise OptionError(
            "missing scenario B: give B.toml, or --set-b NAME=VALUE to compare A with A changed so "
            "(see sim compare --help)",
            field="b",
        )
    sa = load(a, set, o.games, more=(("--set-a", set_a),))
    sb = load(b if b is not None else a, set, o.games, more=(("--set-b", set_b),))
    C.check_comparable(sa, sb)
    folder = what = None
    if write or out is not None:
        folder, what = compare_folder(sa, sb, out)
        prepare_output(folder, what)  # refuse a bad or unwritable folder (a full disk) before playing
    ctx = ctx or RunContext(threads=o.threads)
    with _executor_for(executor, o.workers, o.scheduler, o.threads, ctx) as ex:
        res = play.compare(
            sa,
            sb,
            o.games,
            o.seed,
            o.threads,
            o.chunk,
            o.precision,
            o.cap(),
            o.sprt_rule(),
            o.alpha,
            margins=o.margin_values(),
            on_played=on_played,
            ctx=ctx,
            executor=ex,
        )
    if folder is not None:
        core.write_comparison(res, folder, what or "--out")
    return Comparison(sa, sb, res, folder)


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
    options: SweepOptions | None = None,
    *,
    set: Sets = None,
    games: int | None = None,
    seed: int | None = None,
    measures: Sequence[str] | None = None,
    target: str | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    out: str | Path | None = None,
    ctx: RunContext | None = None,
    executor: Executor | None = None,
    progress: Progress | None = None,
    on_played: Callable[[], None] | None = None,
) -> SweepResult:
    """Sweep the parameters of a scenario file: ``set`` {name: values} ({"track_len": "20..40 step 10"} or
    {"track_len": [20, 30]}) or "NAME=VALUES" texts; the file's [sweep] table otherwise. Writes its folder (``out``,
    default reports/sweep-<name>: sweep.json, sweep.parquet, sweep.html, stored points) and returns its
    `SweepResult`. ``progress``: a `sim.play.sweep.Progress`. Raises SweepError, ScenarioError, OptionError,
    SweepOutputError, ExecutionError (one line each)."""
    from sim.api.sweep import build, run_sweep

    texts = [f"{k}={_values_text(v)}" for k, v in set.items()] if isinstance(set, Mapping) else set_texts(set)
    o = _fill(
        options or SweepOptions(),
        sets=tuple(texts) or None,
        games=games,
        seed=seed,
        measures=tuple(measures) if measures else None,
        target=target,
        workers=workers,
        scheduler=scheduler,
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


# --- check -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckResult:
    """A regression check. raw: the result dict (`sim.api.check.check`); ``ok``: no regression; ``status``: pass,
    regression or inconclusive; ``headline``: the headline figures' verdicts; ``findings``:
    one row per regression (scenario, tier, message); ``scenarios``: one row per scenario checked (file,
    scenario, game, baseline, tests, wall_s, ok); ``tests``: the statistical tests (measure, p, p_holm, ...)."""

    raw: Doc

    @property
    def ok(self) -> bool:
        return bool(self.raw["ok"])

    @property
    def status(self) -> str:
        """pass | regression | inconclusive (`sim.stats.check.STATUS`: the exit code of each)."""
        return str(self.raw["status"])

    @property
    def seed(self) -> int:
        return int(self.raw["seed"])

    @property
    def headline(self) -> pl.DataFrame:
        """The headline figures' verdicts: scenario, metric, label, baseline, now, diff, margin, verdict, words, ..."""
        import polars as pl

        return pl.DataFrame(self.raw["headline"], infer_schema_length=None)

    @property
    def findings(self) -> pl.DataFrame:
        import polars as pl

        return pl.DataFrame(
            self.raw["findings"], schema={"scenario": pl.String, "tier": pl.String, "message": pl.String}
        )

    @property
    def scenarios(self) -> pl.DataFrame:
        import polars as pl

        return pl.DataFrame(
            [
                {
                    "file": s["file"],
                    "scenario": s["scenario"],
                    "game": s["game"],
                    "baseline": s["baseline"],
                    "tests": s["n_tests"],
                    "wall_s": s["wall_s"],
                    "ok": not s["findings"],
                }
                for s in self.raw["scenarios"]
            ],
            schema={
                "file": pl.String,
                "scenario": pl.String,
                "game": pl.String,
                "baseline": pl.String,
                "tests": pl.Int64,
                "wall_s": pl.Float64,
                "ok": pl.Boolean,
            },
        )

    @property
    def tests(self) -> pl.DataFrame:
        import polars as pl

        return pl.DataFrame(self.raw["tests"], infer_schema_length=None)

    def text(self) -> str:
        """The result as `sim check` prints it."""
        from sim.stats.check_report import render

        return render(self.raw)


def check(
    scenarios: Sequence[str | Path] | str | Path,
    options: CheckOptions | None = None,
    *,
    tier: str | None = None,
    seed: int | None = None,
    games: int | None = None,
    set: Sets = None,
    ctx: RunContext | None = None,
    executor: Executor | None = None,
    log: Callable[[str], None] | None = None,
    bar: ProgressBar | None = None,
) -> CheckResult:
    """Check scenario files against their committed baselines (`sim.api.check.check`): exact tier (the
    baseline's games give identical integers) and/or statistical tier (fresh games tested, Holm-corrected).
    ``log(line)``: one line per scenario; ``bar(total, label)``: its progress (`sim.play.progress.bar`).
    Raises OptionError, OverrideError, ScenarioError, BadBaseline (one line each)."""
    from sim.api import check as play
    from sim.model.overrides import parse_sets

    files = [Path(scenarios)] if isinstance(scenarios, (str, Path)) else [Path(f) for f in scenarios]
    o = _fill(
        options or CheckOptions(), tier=tier, seed=seed, games=games, sets=tuple(set_texts(set)) or None
    ).validate()
    overrides = parse_sets(("--set", list(o.sets)))
    ctx = ctx or RunContext(threads=o.threads)
    res = play.check(
        files,
        o.baselines,
        o.baseline,
        o.tiers(),
        o.seed,
        o.games,
        o.alpha,
        o.threads,
        log=log,
        overrides=overrides,
        bar=bar,
        ctx=ctx,
        executor=executor,
        margins=o.margin_values(),
    )
    return CheckResult(res)
