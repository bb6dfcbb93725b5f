"""`sim check` and `sim baselines`: play a scenario's games and hand their sums to the statistics of
`sim.stats.check` (the baseline format, the exact comparison, the statistical tests and the Holm correction)."""

from __future__ import annotations

import contextlib
import copy
import time
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from pathlib import Path

from sim.model.overrides import Override, load
from sim.model.scenario import Scenario
from sim.model.search import has_search
from sim.model.words import count, did_you_mean
from sim.play import runner, work
from sim.play.context import RunContext
from sim.play.work import Executor
from sim.stats import check as K
from sim.stats import check_report
from sim.stats.check import ALPHA, BadBaseline, Finding, ScenarioCheck, baseline_path, read_baseline
from sim.stats.measures import Sums, measures, needs_arc
from sim.stats.verdict import MarginError

# bar(total, label): one scenario's progress as (context manager, advance callback), like `sim.play.progress.bar`
ProgressBar = Callable[[float, str], tuple[AbstractContextManager[object], Callable[[float], None] | None]]


def make_baseline(
    sc: Scenario,
    exact_games: int | None = None,
    stat_games: int | None = None,
    check_games: int | None = None,
    threads: int | None = None,
    progress: Callable[[float], None] | None = None,
    ctx: RunContext | None = None,
    executor: Executor | None = None,
) -> dict:
    """Play ``stat_games`` games of ``sc`` at its seed; the first ``exact_games`` form the exact part.
    Unset counts come from `sim.stats.check.sizes(game)`. The game's arc is recorded where the game has arc measures
    (they enter the baseline; its check records the arc too). Returns the baseline document (JSON-ready)."""
    e0, s0, c0 = K.sizes(sc.game, has_search(sc))
    exact_games = exact_games or e0
    stat_games = max(stat_games or s0, exact_games)
    # with the game's arc where it has arc measures (competitive games): `sim check` then checks them too
    arc = needs_arc(m.name for m in measures(sc, arc=True))
    ctx = (ctx or RunContext(threads=threads, progress=progress)).with_(arc=arc)
    res = work.play_games(sc, exact_games, sc.seed, ctx=ctx, executor=executor)
    exact_agg, exact_sums = copy.deepcopy(res.agg.to_dict()), _sums(sc, res).to_dict()
    if stat_games > exact_games:
        first = _as_unit(sc, res)
        res = work.play_games(
            sc, stat_games - exact_games, sc.seed, ctx=ctx, executor=executor, game0=exact_games, prior=first
        )
    return K.baseline_doc(
        sc, exact_agg, exact_sums, exact_games, stat_games, check_games or c0, _sums(sc, res).to_dict(), res.agg
    )


def _sums(sc: Scenario, res: runner.RunResult) -> Sums:
    return Sums.of(sc, res.sums, res.cubes)


def _as_unit(sc: Scenario, res: runner.RunResult) -> work.UnitResult:
    """A run's merged numbers as one unit result, to continue them (`work.play_games` ``prior``)."""
    return work.UnitResult("run", 0, res.games, res.agg, res.margin, res.sums, cubes=res.cubes)


def exact_tier(
    sc: Scenario,
    b: dict,
    threads: int | None = None,
    progress: Callable[[float], None] | None = None,
    path: Path | None = None,
    on_played: Callable[[], None] | None = None,
    ctx: RunContext | None = None,
    executor: Executor | None = None,
) -> tuple[dict, list]:
    """Replay the baseline's exact games; returns (result dict, [(tier, regression message)])
    (`sim.stats.check.exact_findings`). ``on_played``: called once the games are over."""
    ex = b["exact"]
    ctx = (ctx or RunContext(threads=threads, progress=progress)).with_(arc=K.records_arc(b))
    res = work.play_games(sc, int(ex["games"]), int(ex["seed"]), ctx=ctx, executor=executor)
    if on_played is not None:
        on_played()
    return K.exact_findings(sc, b, res.agg.to_dict(), _sums(sc, res).to_dict(), path)


def stat_tests(
    sc: Scenario,
    b: dict,
    seed: int,
    games: int,
    threads: int | None = None,
    progress: Callable[[float], None] | None = None,
    on_played: Callable[[], None] | None = None,
    ctx: RunContext | None = None,
    executor: Executor | None = None,
) -> tuple[list[dict], list[str]]:
    """Play ``games`` fresh games at ``seed`` and test each measure and histogram against the baseline
    (`sim.stats.check.stat_findings`). Returns (tests with raw p-values, notes)."""
    ctx = (ctx or RunContext(threads=threads, progress=progress)).with_(arc=K.records_arc(b))
    res = work.play_games(sc, games, seed, ctx=ctx, executor=executor)
    if on_played is not None:
        on_played()
    return K.stat_findings(sc, b, _sums(sc, res).to_dict(), res.agg)


def check(
    files: list[Path],
    baselines: Path | None = None,
    baseline_file: Path | None = None,
    tiers: tuple[str, ...] = ("exact", "statistical"),
    seed: int | None = None,
    games: int | None = None,
    alpha: float = ALPHA,
    threads: int | None = None,
    log: Callable[[str], None] | None = None,
    overrides: Iterable[Override] = (),
    bar: ProgressBar | None = None,
    ctx: RunContext | None = None,
    executor: Executor | None = None,
    margins: dict[str, float] | None = None,
    commit: str | None | bool = True,
) -> dict:
    """Check every scenario file against its baseline. Raises BadBaseline / ScenarioError on bad input, MarginError
    for a ``margins`` key that names no headline figure of the scenarios.
    ``overrides``: ((name, value), ...) applied to every scenario (`sim.model.overrides`; an OverrideError names a bad one).
    ``bar(total, label)``: (context manager, advance callback) of one scenario's progress (`sim.play.progress.bar`): its
    games line counts the games of both tiers alone, then "NAME: testing against the baseline ... 0.1 s".

    ``ctx``: threads, cancellation and where a note goes (its progress is each scenario's ``bar``'s); ``executor``:
    where the games are played (`sim.play.distributed`; None: this process).

    ``seed`` None: derived from the baselines' contents and ``commit`` (`sim.stats.check.derived_seed`; True: the
    repository's HEAD commit when git knows it, None or False: none). ``margins``: equivalence margins of the
    headline figures' verdicts by key (`sim.stats.verdict.parse_margins`; default by catalogue kind).

    Returns {"ok" (no regression), "status" (pass | regression | inconclusive), "seed", "seed_source", "alpha",
    "scenarios": [...], "findings": [...], "tests": [...], "headline": [...], "inconclusive": [...]}."""
    base = ctx or RunContext(threads=threads)
    log = log or (lambda s: None)
    root = Path(baselines) if baselines else K.BASELINES
    if baseline_file is not None and len(files) != 1:
        raise BadBaseline("--baseline names one baseline file: give exactly one scenario with it")
    pairs = []
    for f in files:
        sc = load(f, overrides)
        bp = Path(baseline_file) if baseline_file is not None else baseline_path(f, root)
        pairs.append((sc, bp, read_baseline(bp, sc)))
    if margins and "statistical" in tiers:
        allowed = sorted({k for sc, _, _ in pairs for k in K.margin_keys(sc)})
        for k in margins:
            if k not in allowed:
                raise MarginError(
                    f"--margin {k}: not a headline figure of the scenarios checked; {did_you_mean(k, allowed)}"
                    f"allowed: {', '.join(allowed)}"
                )
    if seed is None:
        head = _commit() if commit is True else (commit or None)
        seed = K.derived_seed([bp for _, bp, _ in pairs], head)
        n_b = len({bp.resolve() for _, bp, _ in pairs})
        seed_source = (
            f"derived from the contents of {count(n_b, 'baseline')}"
            + (f" and commit {head[:12]}" if head else " (no git commit known)")
            + "; --seed overrides"
        )
    else:
        seed, seed_source = int(seed), "given by --seed"
    results: list[ScenarioCheck] = []
    all_tests: list[dict] = []
    findings: list[Finding] = []
    for i, (sc, bp, b) in enumerate(pairs):
        t0 = time.perf_counter()
        r = ScenarioCheck(K._rel(sc.path), sc.name, sc.game, K._rel(bp), format=int(b["format"]))
        r.changes = K.changes_since(sc, b)
        r.digest_differs = b["scenario_digest"] != K.digest(sc)
        n = int(games if games is not None else b["statistical"]["check_games"]) if "statistical" in tiers else 0
        total = (int(b["exact"]["games"]) if "exact" in tiers else 0) + (n if "statistical" in tiers else 0)
        prog, adv = bar(total, sc.name) if bar is not None else (contextlib.nullcontext(), None)
        played = getattr(prog, "played", None)
        with prog:
            if "exact" in tiers:
                last = "statistical" not in tiers
                r.exact, msgs = exact_tier(
                    sc,
                    b,
                    path=bp,
                    on_played=_testing(played) if last else None,
                    ctx=base.with_(progress=adv),
                    executor=executor,
                )
                r.findings += [Finding(sc.name, tier, m) for tier, m in msgs]
                if r.exact["not_in_baseline"]:
                    r.notes.append(
                        f"{', '.join(r.exact['not_in_baseline'])}: new since the baseline, not compared "
                        f"(make baselines records it)"
                    )
            if "statistical" in tiers:
                # a different fresh stream for every scenario of the run, all derived from the one printed seed
                tests, notes = stat_tests(
                    sc,
                    b,
                    K._scenario_seed(seed, i),
                    n,
                    on_played=_testing(played),
                    ctx=base.with_(progress=adv),
                    executor=executor,
                )
                r.tests = tests
                r.notes += notes
                all_tests += tests
        r.wall_s = time.perf_counter() - t0
        findings += r.findings
        results.append(r)
        log(f"{r.file}: " + check_report._line(r))
    stat_found = K.holm_findings(all_tests, alpha) if all_tests else []
    for found in stat_found:
        for r in results:
            if r.scenario == found.scenario:
                r.findings.append(found)
    findings += stat_found
    headline: list[dict] = []
    for (sc, _, _), r in zip(pairs, results):
        r.headline = K.headline_rows(sc, r.tests, margins)
        headline += r.headline
    K.judge_headline(headline, alpha)  # every scenario's figures together (each row is judged in place)
    stuck = K.inconclusive(headline)
    status = K.REGRESSION if findings else K.INCONCLUSIVE if stuck else K.PASS
    return {
        "ok": not findings,
        "status": status,
        "seed": seed,
        "seed_source": seed_source,
        "alpha": alpha,
        "tiers": list(tiers),
        "n_tests": len(all_tests),
        "min_p_holm": min((t["p_holm"] for t in all_tests), default=None),
        "findings": [f.__dict__ for f in findings],
        "scenarios": [
            {
                "file": r.file,
                "scenario": r.scenario,
                "game": r.game,
                "baseline": r.baseline,
                "exact": r.exact,
                "n_tests": len(r.tests),
                "notes": r.notes,
                "wall_s": round(r.wall_s, 3),
                "findings": [f.__dict__ for f in r.findings],
                "format": r.format,
                "changes": r.changes,
                "digest_differs": r.digest_differs,
                "headline": r.headline,
            }
            for r in results
        ],
        "tests": all_tests,
        "headline": headline,
        "inconclusive": [{"scenario": h["scenario"], "metric": h["metric"]} for h in stuck],
    }


def _commit() -> str | None:
    """The repository's HEAD commit without its '-dirty' mark (`sim.play.provenance.git_commit`), None without git."""
    from sim.play.provenance import git_commit

    c = git_commit().removesuffix("-dirty")
    return None if c in ("", "unknown") else c


def _testing(played: Callable[[str, str], None] | None) -> Callable[[], None] | None:
    """The on_played callback of a scenario's last games: its progress says "testing against the baseline"."""
    return None if played is None else (lambda: played("the baseline", "testing against"))
