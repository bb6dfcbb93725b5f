"""`sim tune`: which combination of values meets the targets? A search over several parameters at once by Optuna
(TPE for one target; NSGA-II when several trade off), each trial a scenario point played on the sweep engine, then
the best candidates confirmed with more games at a fresh seed.

The study lives in an Optuna RDB storage (``study.db``, SQLite, in the tune folder): rerunning the same command
continues it. A trial is asked of the optimiser, played (its point stored as soon as its games are in), and told
its distances; Ctrl-C leaves trials asked but not told, which the rerun plays first (their points, when stored, are
read back, not played) and tells. Trials are asked in batches of ``batch`` (the units of a batch's points run
together on the executor), the sampler seeded afresh per batch from (seed, batch number), so the study depends on
the seed, the trials and the batch only: the same in this process and on a Dask cluster, interrupted or not.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.api.tune_study import distributions, open_study, sampler_for, sampler_name, value_of
from sim.model import sweep_spec, tune_spec, words
from sim.model.scenario import Scenario
from sim.model.tune_spec import Tune, TuneError
from sim.play.context import RunContext
from sim.stats import tune_stats
from sim.stats.records import Estimate

if TYPE_CHECKING:
    import polars as pl

    from sim.play.work import Executor

Doc = dict[str, Any]


def build(
    path: str | Path,
    params: Sequence[str] = (),
    targets: Sequence[str] = (),
    trials: int | None = None,
    games: int | None = None,
    seed: int | None = None,
    confirm: int | None = None,
    confirm_games: int | None = None,
    batch: int | None = None,
) -> Tune:
    """A validated tune (`sim.model.tune_spec.build`, same arguments), its targets' measures checked against the
    points' (`sim.stats.tune_stats.resolve`). Raises TuneError / ScenarioError (one line; an error of the file's
    ``[tune]`` table names the file first, as `sim sweep`'s do: `sim.model.sweep_spec.in_file`) before anything
    runs."""
    try:
        t = tune_spec.build(path, params, targets, trials, games, seed, confirm, confirm_games, batch)
        tune_stats.resolve(t)
    except TuneError as e:
        raise sweep_spec.in_file(path, e) from None
    return t


@dataclass
class TuneProgress:
    """Callbacks the tune tells (the CLI prints lines; tests count). All optional. ``games``: the engine's
    `sim.play.sweep.Progress` of each batch (games per unit); ``trial(info)``: a trial told (number, values,
    targets, score, best: the best trial so far, games: played for it, reused); ``stage(text)``: a step begun."""

    games: Any = None
    trial: Callable[[Doc], None] | None = None
    stage: Callable[[str], None] | None = None


def _trial_point(tune: Tune, number: int, params: Mapping[str, Any]) -> tuple[dict[str, Any], Scenario | str]:
    """(values, scenario) of a trial, or (values, the one-line reason its values are refused)."""
    values = {p.name: value_of(p, params[p.name]) for p in tune.params}
    try:
        return values, tune.scenario_at(values, f"trial {number}")
    except TuneError as e:
        return values, str(e)


def search(
    tune: Tune,
    study: Any,
    folder: Path,
    executor: Executor,
    chunk: int,
    progress: TuneProgress,
    ctx: RunContext | None,
    reuse: list[Any],
) -> dict[str, int]:
    """Ask, play and tell trials until the study holds ``tune.trials`` finished ones (the asked-but-not-told
    trials of an interrupted run first). Returns {"games": played now, "points": played now, "reused": points
    found stored, "copied": points taken from a sweep's store}."""
    from optuna.trial import TrialState

    from sim.output.report import signals_held
    from sim.play import tune_points

    dists = distributions(tune)
    names = tune_stats.measure_names(tune)
    count = {"games": 0, "points": 0, "reused": 0, "copied": 0}
    best: list[Doc] = []
    while True:
        trials = study.get_trials(deepcopy=False)
        pending = [t for t in trials if t.state == TrialState.RUNNING]
        done = [t for t in trials if t.state.is_finished()]
        if pending:
            batch = [(t.number, dict(t.params)) for t in pending]
        else:
            left = tune.trials - len(done)
            if left <= 0:
                break
            study.sampler = sampler_for(tune, len(trials) // tune.batch)
            # a batch is asked whole (milliseconds, Ctrl-C held back), so a resumed study asks what this one would
            with warnings.catch_warnings(), signals_held():
                warnings.simplefilter("ignore")
                asked = [study.ask(dists) for _ in range(min(tune.batch, left))]
            batch = [(t.number, dict(t.params)) for t in asked]
        points = [(n, *_trial_point(tune, n, ps)) for n, ps in batch]
        good = [(n, v, sc) for n, v, sc in points if isinstance(sc, Scenario)]
        keys: list[str] = []
        played: set[str] = set()
        if good:
            b = tune_points.play(
                [(v, sc) for _, v, sc in good],
                tune.seed,
                tune.games,
                names,
                folder,
                executor,
                chunk,
                progress.games,
                ctx,
                reuse,
            )
            keys, played = b.keys, set(b.played)
            count["games"] += b.games
            count["points"] += len(b.played)
            count["reused"] += len(b.reused)
            count["copied"] += len(b.copied)
        by_number = {n: k for (n, _, _), k in zip(good, keys)}
        for n, values, sc in points:
            if not isinstance(sc, Scenario):
                study.tell(n, state=TrialState.FAIL)
                if ctx is not None and ctx.on_note:
                    ctx.on_note(f"note: {sc}; trial {n} is marked failed")
                continue
            row = tune_stats.point_row(tune, sc, tune_points.load(folder, by_number[n])["sums"])
            if row["ok"]:
                study.tell(n, [x["distance"] for x in row["targets"]])
            else:
                study.tell(n, state=TrialState.FAIL)
            info = {"number": n, "values": values, **row, "played": by_number[n] in played, "key": by_number[n]}
            if row["ok"] and (not best or row["score"] < best[0]["score"]):
                best[:] = [info]
            if progress.trial:
                progress.trial({**info, "best": best[0] if best else None, "of": tune.trials})
    return count


def trial_rows(tune: Tune, study: Any, folder: Path) -> list[Doc]:
    """Every trial of the study in order: number, state, values (and their TOML labels), key, the target numbers
    (`tune_stats.point_row`), distances, score; the point's stored sums are read back (a resumed study's earlier
    trials included)."""
    from sim.play import sweep as engine
    from sim.play import tune_points

    names = tune_stats.measure_names(tune)
    rows = []
    for t in study.get_trials(deepcopy=False):
        r: Doc = {"number": t.number, "state": t.state.name, "values": None, "key": None, "ok": False, "score": None}
        if t.params and len(t.params) == len(tune.params):
            values, sc = _trial_point(tune, t.number, t.params)
            r["values"] = values
            if isinstance(sc, Scenario) and t.state.name == "COMPLETE":
                key = engine.keys(tune_points.as_sweep([(values, sc)], tune.seed, tune.games, names))[0]
                pr = tune_stats.point_row(tune, sc, tune_points.load(folder, key)["sums"])
                r.update({"key": key, "ok": pr["ok"], "score": pr["score"], "targets": pr["targets"]})
                r["measures"] = pr["measures"]
                r["distances"] = [x["distance"] for x in pr["targets"]]
                r["scenario"] = sc
        rows.append(r)
    return rows


def importance(tune: Tune, study: Any) -> dict[str, dict[str, float]] | None:
    """Each parameter's share of the variation of each target's distance across the trials (Optuna's PED-ANOVA,
    deterministic), by target measure; None when fewer than two trials finished or one parameter alone."""
    import optuna

    complete = [t for t in study.get_trials(deepcopy=False) if t.state.name == "COMPLETE"]
    if len(complete) < 2:
        return None
    out = {}
    for k, t in enumerate(tune.targets):

        def value(tr: Any, k: int = k) -> float:
            return float(tr.values[k])

        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                imp = optuna.importance.get_param_importances(
                    study,
                    evaluator=optuna.importance.PedAnovaImportanceEvaluator(),
                    target=value,
                )
        except (RuntimeError, ValueError, ZeroDivisionError, ImportError, IndexError):
            return None
        out[t.measure] = {name: float(v) for name, v in imp.items()}
    return out


def confirm(
    tune: Tune,
    rows: list[Doc],
    folder: Path,
    executor: Executor,
    chunk: int,
    progress: TuneProgress,
    ctx: RunContext | None,
) -> tuple[list[Doc], Doc, int]:
    """Play the best ``tune.confirm`` settings again (`tune_stats.candidates`) with ``tune.confirm_games`` games at
    the fresh seed, all on the same games (common random numbers), and tell them apart (`tune_stats.tell_apart`).
    Returns (candidates [{trial, values, key, ...}], the tell_apart result, games played now)."""
    from sim.play import tune_points

    names = tune_stats.measure_names(tune)
    pick = tune_stats.candidates(rows, tune.confirm)
    if not pick:
        return [], {"chosen": None, "rows": [], "tests": [], "sds": []}, 0
    pts = [(rows[i]["values"], rows[i]["scenario"].with_changes(games=tune.confirm_games)) for i in pick]
    b = tune_points.play(
        pts, tune.confirm_seed, tune.confirm_games, names, folder, executor, chunk, progress.games, ctx
    )
    confirmed = []
    for (_, sc), key in zip(pts, b.keys):
        d = tune_points.load(folder, key)
        confirmed.append({"scenario": sc, "sums": d["sums"], "paired": d["paired"]})
    res = tune_stats.tell_apart(tune, confirmed)
    cands = [{"trial": rows[i]["number"], "values": rows[i]["values"], "key": k} for i, k in zip(pick, b.keys)]
    return cands, res, b.games


def run_tune(
    tune: Tune,
    executor: Executor,
    out: str | Path | None = None,
    chunk: int | None = None,
    progress: TuneProgress | None = None,
    fresh: bool = False,
    ctx: RunContext | None = None,
) -> tuple[Doc, Path]:
    """Search, confirm, and write tune.parquet, tune.html, best.toml and tune.json into the tune folder (``out``,
    default reports/tune-<name>). Returns (tune.json dict, folder). Interrupted (KeyboardInterrupt), it leaves the
    study and the stored points, and no tune.json: the same command again continues; stopped before any point was
    stored, it leaves no study it started and no folder it made (`sim.output.tune_output.discard_if_empty`)."""
    from sim.output import tune_output as output
    from sim.play import runner

    chunk = chunk or runner.DEFAULT_CHUNK
    pr = progress or TuneProgress()
    folder = output.folder_for(tune, out)
    made = not folder.exists()
    new_study = fresh or not (folder / "study.db").exists()
    output.prepare(folder, output.what_for(tune, out))
    try:
        return _run_tune(tune, executor, folder, out, chunk, pr, fresh, ctx)
    except BaseException:  # stopped before any point was stored: no study or folder left looking like a result
        output.discard_if_empty(folder, made, new_study)
        raise


def _run_tune(
    tune: Tune,
    executor: Executor,
    folder: Path,
    out: str | Path | None,
    chunk: int,
    pr: TuneProgress,
    fresh: bool,
    ctx: RunContext | None,
) -> tuple[Doc, Path]:
    from sim.model import paths
    from sim.output import tune_output as output
    from sim.play import tune_points
    from sim.play.provenance import provenance

    with output.locked(folder, output.what_for(tune, out)):
        if fresh:
            output.forget(folder)
        t0 = time.perf_counter()
        study = open_study(tune, folder, ctx.on_note if ctx else None)
        before = len([t for t in study.get_trials(deepcopy=False) if t.state.is_finished()])
        if pr.stage:
            pr.stage(
                f"tune {tune.name}: {words.count(tune.trials, 'trial')} x {words.count(tune.games, 'game', grouped=True)} "
                f"({sampler_name(tune)}" + (f"; {before} already in the study" if before else "") + ")"
            )
        count = search(tune, study, folder, executor, chunk, pr, ctx, tune_points.sweep_stores(paths.REPORTS))
        rows = trial_rows(tune, study, folder)
        if pr.stage:
            pr.stage(
                f"tune {tune.name}: confirming the best {tune.confirm} with "
                f"{words.count(tune.confirm_games, 'game', grouped=True)} each"
            )
        cands, told, confirm_played = confirm(tune, rows, folder, executor, chunk, pr, ctx)
        imp = importance(tune, study)
        wall = time.perf_counter() - t0
        prov = provenance(tune.base, tune.games, tune.seed, wall, executor.unit_threads(ctx), chunk)
        prov["executor"] = executor.description
        doc = document(tune, rows, cands, told, imp, count, confirm_played, prov)
        output.write(folder, tune, doc)
    return doc, folder


def document(
    tune: Tune,
    rows: list[Doc],
    cands: list[Doc],
    told: Doc,
    imp: dict[str, dict[str, float]] | None,
    count: dict[str, int],
    confirm_played: int,
    prov: Doc,
) -> Doc:
    """The tune.json dict (schema `sim.output.tune_output.SCHEMA`)."""
    from sim.model.scenario import toml_value
    from sim.model.sweep_axis import axis_words
    from sim.output.sweep_output import shown_kind
    from sim.stats.sweep_table import quantities

    qs = quantities(tune.base)
    ok = [i for i, r in enumerate(rows) if r["ok"]]
    front = {ok[j] for j in tune_stats.pareto([rows[i]["distances"] for i in ok])} if ok else set()
    confirmed_trials = {c["trial"] for c in cands}

    continuous = {p.name for p in tune.params if p.kind == "float" and p.step is None}

    def labels(values: dict[str, Any] | None) -> dict[str, str]:
        """The values as TOML text; a continuous range's to 4 significant digits (best.toml holds them exact)."""
        return {k: f"{v:.4g}" if k in continuous else toml_value(v) for k, v in (values or {}).items()}

    trials = [
        {
            "number": r["number"],
            "state": r["state"],
            "values": r["values"],
            "labels": labels(r["values"]),
            "key": r["key"],
            "targets": r.get("targets"),
            "measures": r.get("measures"),
            "score": r["score"] if r["ok"] else None,
            "pareto": i in front,
            "confirmed": r["number"] in confirmed_trials,
        }
        for i, r in enumerate(rows)
    ]
    tests = {t["candidate"]: t for t in told["tests"]}
    candidates = []
    for i, (c, row) in enumerate(zip(cands, told["rows"])):
        t = tests.get(i)
        candidates.append(
            {
                **c,
                "labels": labels(c["values"]),
                "targets": row["targets"],
                "score": row["score"],
                "meets": [Estimate.of(x).overlaps(tg.low, tg.high) for x, tg in zip(row["targets"], tune.targets)],
                "chosen": i == told["chosen"],
                "vs_chosen": None if t is None else {k: t[k] for k in ("diff", "ci95", "p", "p_holm", "n")},
                "tied": i == told["chosen"] or bool(t and t["tied"]),
            }
        )
    chosen = candidates[told["chosen"]] if told["chosen"] is not None else None
    grid = tune.grid_points()
    trial_games = sum(1 for _ in {r["key"] for r in rows if r["key"]}) * tune.games
    return {
        "schema": 1,
        "kind": "tune",
        "scenario": tune.base.to_dict(),
        "game_title": tune.base.spec.title,
        "sampler": sampler_name(tune),
        "trials_asked": tune.trials,
        "batch": tune.batch,
        "games": tune.games,
        "seed": tune.seed,
        "confirm": tune.confirm,
        "confirm_games": tune.confirm_games,
        "confirm_seed": tune.confirm_seed,
        "params": [
            {
                "name": p.name,
                "kind": p.kind,
                "range": p.words(),
                "given_by": p.source,
                "grid": len(g) if (g := p.grid()) is not None else None,
                **dict(zip(("label", "unit"), axis_words(tune.base, p.name))),
            }
            for p in tune.params
        ],
        "targets": [
            {
                "measure": t.measure,
                "low": t.low,
                "high": t.high,
                "text": t.words(),
                "label": qs[t.measure].label,
                "kind": shown_kind(qs[t.measure]),
                "definition": qs[t.measure].definition,
            }
            for t in tune.targets
        ],
        "trials": trials,
        "importance": imp,
        "candidates": candidates,
        "chosen": chosen,
        "sds": told["sds"],
        "budget": {
            "trial_points": len({r["key"] for r in rows if r["key"]}),
            "trial_games": trial_games,
            "confirm_games": len(cands) * tune.confirm_games,
            "games": trial_games + len(cands) * tune.confirm_games,
            "played_now": count["games"] + confirm_played,
            "points_reused": count["reused"],
            "points_copied": count["copied"],
            "grid_points": grid,
            "grid_games": grid * tune.games if grid is not None else None,
        },
        "provenance": prov,
    }


@dataclass(frozen=True)
class TuneResult:
    """A tune. raw: the tune.json dict; folder: the tune folder (study.db, points/, tune.parquet, tune.html,
    best.toml). ``trials``: tune.parquet (one row per trial: values, each target's measure with its 95% interval,
    distance with its interval, score, pareto, confirmed); ``candidates``: one row per confirmed candidate and
    target (value, ci_low, ci_high, distance, meets, tied, chosen); ``best``: the chosen values ({} when no trial
    finished); ``best_toml``: the scenario file of the chosen setting (None when none was chosen)."""

    raw: Doc
    folder: Path
    games: int = 0  # games played by this call (stored points reused are not counted)
    notes: tuple[str, ...] = field(default=(), repr=False)

    @property
    def trials(self) -> pl.DataFrame:
        import polars as pl

        return pl.read_parquet(self.folder / "tune.parquet")

    @property
    def candidates(self) -> pl.DataFrame:
        import polars as pl

        rows = []
        for c in self.raw["candidates"]:
            for t, x, meets in zip(self.raw["targets"], c["targets"], c["meets"]):
                ci = x.get("ci95") or [None, None]
                rows.append(
                    {
                        "trial": c["trial"],
                        **{f"param.{k}": v for k, v in c["labels"].items()},
                        "measure": t["measure"],
                        "value": x.get("value"),
                        "ci_low": ci[0],
                        "ci_high": ci[1],
                        "distance": x.get("distance"),
                        "score": c["score"],
                        "meets": meets,
                        "tied": c["tied"],
                        "chosen": c["chosen"],
                    }
                )
        return pl.DataFrame(rows, infer_schema_length=None)

    @property
    def best(self) -> dict[str, Any]:
        ch = self.raw.get("chosen")
        return dict(ch["values"]) if ch else {}

    @property
    def best_toml(self) -> Path | None:
        p = self.folder / "best.toml"
        return p if p.is_file() else None


def tune(
    scenario: str | Path,
    params: Mapping[str, Any] | Sequence[str] | None = None,
    targets: Sequence[str] | str | None = None,
    *,
    trials: int | None = None,
    games: int | None = None,
    seed: int | None = None,
    confirm: int | None = None,
    confirm_games: int | None = None,
    batch: int | None = None,
    threads: int | None = None,
    chunk: int | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    out: str | Path | None = None,
    fresh: bool = False,
    ctx: RunContext | None = None,
    executor: Executor | None = None,
    progress: TuneProgress | None = None,
) -> TuneResult:
    """Tune the parameters of a scenario file toward targets: ``params`` {name: range} ({"track_len": "20..60",
    "ghost_values": [[1, 2, 3], [2, 3, 4]]}: a range string or a list of choices) or "NAME=RANGE" texts; ``targets``
    "MEASURE=VALUE" / "MEASURE=LO..HI" texts; the file's [tune] table otherwise (`sim.model.tune_spec`). Writes the
    tune folder (``out``, default reports/tune-<name>) and returns its `TuneResult`. Raises TuneError,
    ScenarioError, OptionError, TuneOutputError, ExecutionError (one line each) before anything runs;
    KeyboardInterrupt (`Cancelled`) when stopped, leaving a study that the same call continues."""
    from sim.api.basics import _executor_for
    from sim.api.options import check_run_options, in_range

    check_run_options(games, threads, chunk, seed)
    for name, v in (("trials", trials), ("confirm", confirm), ("confirm-games", confirm_games), ("batch", batch)):
        in_range(name, v)
    from sim.api.basics import path_arg
    from sim.api.basics import texts as text_list

    if isinstance(params, Mapping):
        texts = [f"{k}={_range_text(v)}" for k, v in params.items()]
    else:
        texts = list(text_list(params or [], "params", '{name: range} or "NAME=RANGE" texts'))
    tg = list(text_list(targets or [], "targets", '"MEASURE=VALUE" texts such as "first_player_advantage=0"'))

    t = build(path_arg(scenario, "scenario"), texts, tg, trials, games, seed, confirm, confirm_games, batch)
    ctx = ctx or RunContext(threads=threads)
    notes: list[str] = []
    if ctx.on_note is None:
        ctx = ctx.with_(on_note=notes.append)
    with _executor_for(executor, workers, scheduler, threads, ctx) as ex:
        doc, folder = run_tune(t, ex, out, chunk, progress, fresh, ctx)
    return TuneResult(doc, folder, int(doc["budget"]["played_now"]), tuple(notes))


def _range_text(v: Any) -> str:
    """A parameter's range as `sim tune --param` takes it: text as it is ("20..60"), a list of choices a,b,c."""
    from sim.model.scenario import toml_value

    if isinstance(v, str):
        return v
    if isinstance(v, (list, tuple)):
        return ",".join(toml_value(x) for x in v)
    return toml_value(v)


def summary_text(doc: Doc) -> str:
    """The tune in a few lines: the chosen setting with its confirmed intervals, the candidates it cannot be told
    apart from, and the games it took against the full grid."""
    from sim.pages.tune_page import summary_lines

    return "\n".join(summary_lines(doc))
