"""`sim.check`: scenario files against their committed baselines, a `CheckResult` (status, findings, headline
verdicts)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sim.api.options import CheckOptions
from sim.play.context import RunContext

if TYPE_CHECKING:
    import polars as pl

    from sim.api.check import ProgressBar
    from sim.play.work import Executor


from sim.api.basics import (
    Doc,
    Sets,
    margin_texts,
    path_arg,
    set_texts,
)

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
    *,
    tier: str | None = None,
    seed: int | None = None,
    games: int | None = None,
    alpha: float | None = None,
    baselines: Path | None = None,
    baseline: Path | None = None,
    set: Sets = None,
    threads: int | None = None,
    margins: Sequence[str] | str | None = None,
    ctx: RunContext | None = None,
    executor: Executor | None = None,
    log: Callable[[str], None] | None = None,
    bar: ProgressBar | None = None,
) -> CheckResult:
    """Check scenario files against their committed baselines (`sim.api.check.check`) and return the
    `CheckResult`: the exact tier (the baseline's games give identical integers) and the statistical tier (fresh
    games tested, Holm-corrected). Every argument after ``scenarios`` is a keyword; one left None takes its
    default.

    What to check:
        scenarios: a scenario file path or a list of them.
        tier: "exact", "statistical" or "all" (default).
        baselines: the baseline folder (default reports/baselines); baseline: one baseline JSON file for the one
            scenario given.
        set: overrides applied to every scenario, {name: value} or "NAME=VALUE" texts: each scenario changed so
            is checked against its baseline.

    The statistical tier:
        seed: its fresh seed (default: derived from the baselines' contents and the git commit, recorded in the
            result: a rerun of one commit gives the same verdict).
        games: its games per scenario (default: the baseline's check_games).
        alpha: its family-wise false-alarm level (Holm over every test of the call; default 0.005).
        margins: equivalence margins of the headline figures' verdicts, "KEY=VALUE" texts in each figure's unit
            (percentage points for rates; default: rates 1 point, lengths 2%, counts and points 5%).

    How and where it plays:
        threads: Numba threads (default: all cores); executor: where the games are played (`executor`; default:
            this process); ctx: threads and cancellation (`RunContext`).
        log: called with one line per scenario; bar: ``bar(total, label)`` its progress
            (`sim.play.progress.bar`).

    Raises OptionError, OverrideError, ScenarioError, BadBaseline (one line each).
    """
    from sim.api import check as play
    from sim.model.overrides import parse_sets

    if isinstance(scenarios, (str, Path)):
        files = [Path(scenarios)]
    elif isinstance(scenarios, Sequence):
        files = [path_arg(f, "scenarios", "scenario file paths") for f in scenarios]
    else:
        files = [path_arg(scenarios, "scenarios", "a scenario file path or a list of them")]
    for name, p in (("baselines", baselines), ("baseline", baseline)):
        if p is not None:
            path_arg(p, name, "a folder" if name == "baselines" else "a baseline JSON file")
    o = CheckOptions.given(
        tier=tier,
        seed=seed,
        games=games,
        alpha=alpha,
        baselines=baselines,
        baseline=baseline,
        sets=tuple(set_texts(set)) or None,
        threads=threads,
        margins=None if margins is None else margin_texts(margins, key="FIGURE"),
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
