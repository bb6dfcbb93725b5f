"""`sim.compare`: scenario B against A on common random numbers, a `Comparison` (a verdict per measure at its
equivalence margin, the compare report)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sim.api.notebook import python_method
from sim.api.options import CompareOptions, OptionError
from sim.model.scenario import Scenario
from sim.play.context import RunContext

if TYPE_CHECKING:
    import polars as pl

    from sim.play.work import Executor


from sim.api.basics import (
    Doc,
    ScenarioLike,
    Sets,
    _executor_for,
    load,
    margin_texts,
)

# --- compare -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Comparison:
    """A comparison of A and B on common random numbers. raw: the compare.json dict; ``metrics``: one row per
    measure compared (`COMPARE_SCHEMA`: measure, label, kind, n, a, b, diff and its paired 95% interval ci_low,
    ci_high, pairing_gain, p (null: identical), p_holm, significant; the verdict at the measure's equivalence margin
    (`sim.stats.verdict`): margin (a rate's as a share), p_equiv_holm, verdict (unchanged / changed / cannot_tell),
    more_games (about how many more games would decide a cannot_tell)); the seat spread's row (measure
    "seat_spread") has its interval and p-values from a paired bootstrap over the games (`sim.stats.spread_compare`);
    ``verdicts``: the plain sentences;
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

    @python_method
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
    *,
    set: Sets = None,
    set_a: Sets = None,
    set_b: Sets = None,
    games: int | None = None,
    seed: int | None = None,
    precision: float | None = None,
    sprt: float | None = None,
    metric: str | None = None,
    two_sided: bool | None = None,
    max_games: int | None = None,
    alpha: float | None = None,
    threads: int | None = None,
    chunk: int | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    margins: Mapping[str, float] | Sequence[str] | str | None = None,
    sample: int | None = None,
    rollouts: int | None = None,
    write: bool = False,
    out: str | Path | None = None,
    ctx: RunContext | None = None,
    executor: Executor | None = None,
    on_played: Callable[[], None] | None = None,
) -> Comparison:
    """Compare scenario ``b`` with ``a`` on common random numbers (`sim.api.compare.compare`): per measure both
    values, B - A with its paired 95% interval and a verdict (unchanged within its margin, changed, or cannot tell
    yet). Every argument after ``b`` is a keyword; one left None takes its default.

    Scenarios:
        a: scenario A, a scenario file path or a `Scenario`.
        b: scenario B, of the same game (default: ``a`` changed by ``set_b``).
        set_a: overrides of A only; set_b: of B only; set: of both. Each {name: value} ({"track_len": 32}) or
            "NAME=VALUE" texts, as `run` takes them; a `Scenario` takes none.

    When to stop (one rule):
        games: paired games of each (default: A's file's); not with ``precision`` or ``sprt``.
        precision: play on until every win-rate difference's 95% interval half-width is at most this (a share,
            0 < precision < 1, e.g. 0.005).
        sprt: play on until the sequential probability ratio test of ``metric`` decides: H0 difference 0 against
            H1 difference ``sprt`` (a share, e.g. 0.01 = +1 point), alpha = beta = 0.05; not with ``precision``.
        metric: the measure the SPRT watches (default: first_player.win, or the team win rate).
        two_sided: the SPRT against a change of +|sprt| or -|sprt| (each side at alpha/2); default False.
        max_games: the game cap of ``precision`` or ``sprt`` (default 2,000,000; at least 10,000, the games before
            either first decides).

    The verdicts:
        alpha: family-wise significance level of the Holm-corrected tests (default 0.05).
        margins: the change that matters, by measure: {measure: value} or "MEASURE=VALUE" texts (percentage points
            for rates, seat_spread and first_player_advantage; default 1 point for rates, 2% for lengths, 5% for
            counts; `sim.stats.verdict`).
        sample: also compare the arc's win-probability timelines of games 0 .. sample - 1 of A and B, their
            rollout measures game by game (`sim.api.arc.compare_arc`; default 0: none).
        rollouts: rollouts a state of those timelines (default 32).

    How and where it plays:
        seed: the common seed (default: A's).
        threads: Numba threads (default: all cores); chunk: games per unit of work, the stopping rule looks after
            each (default 10,000; results do not depend on it).
        workers: play on a Dask LocalCluster of that many processes; scheduler: on the cluster at that address
            (tcp://HOST:8786); executor: an open one (`executor`) instead of either.
        ctx: threads, progress and cancellation (`RunContext`); on_played: called when the games are over.

    Output:
        write: also write compare.json, compare.md and compare.html (checked before any game is played).
        out: their folder (default reports/compare-<A>-vs-<B>); given, it implies ``write``.

    Returns the `Comparison`. Raises OptionError, OverrideError, ScenarioError, CompareError, OutputError,
    ExecutionError (one line each); KeyboardInterrupt (`Cancelled`) when stopped.
    """
    from sim.api import compare as play
    from sim.api import core
    from sim.output.report import prepare_output
    from sim.stats import compare as C
    from sim.stats.arc import rollout_measure_names

    o = CompareOptions.given(
        games=games,
        seed=seed,
        precision=precision,
        sprt=sprt,
        metric=metric,
        two_sided=two_sided,
        max_games=max_games,
        alpha=alpha,
        threads=threads,
        chunk=chunk,
        workers=workers,
        scheduler=scheduler,
        margins=None if margins is None else margin_texts(margins),
        sample=sample,
        rollouts=rollouts,
    ).validate()
    if b is None and not set_b:
        raise OptionError(
            "missing scenario B: give B (a scenario file), or --set-b NAME=VALUE to compare A with A changed so "
            "(see sim compare --help)",
            field="b",
        )
    sa = load(a, set, o.games, more=(("--set-a", set_a),))
    sb = load(b if b is not None else a, set, o.games, more=(("--set-b", set_b),))
    C.check_comparable(sa, sb)
    if o.sample:  # the arc's timelines compared (`sim compare --arc --sample`): checked before anything plays
        from sim.api.arc import check_arc_sample

        for sc in (sa, sb):
            check_arc_sample(sc, o.sample, o.rollouts, sa.games if o.games is None else o.games)
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
            margins_elsewhere=rollout_measure_names() if o.sample else (),
        )
    if o.sample:
        from sim.api.arc import compare_arc

        res["arc_timeline"] = compare_arc(
            sa, sb, o.sample, o.rollouts, res["seed"], o.alpha, o.margin_values(), ctx.threads
        )
    if folder is not None:
        core.write_comparison(res, folder, what or "--out")
    return Comparison(sa, sb, res, folder)
