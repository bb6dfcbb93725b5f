"""`sim.run`: play one scenario and get its `Result` (the summary, the measures as a Polars frame, the
report's sentences, the per-game rows, the report folder)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from sim.api.notebook import python_method
from sim.api.options import RunOptions
from sim.model.scenario import Scenario
from sim.play.context import RunContext

if TYPE_CHECKING:
    import polars as pl

    from sim.play.runner import ChunkOutputs
    from sim.play.work import Executor


from sim.api.basics import (
    Doc,
    ScenarioLike,
    Sets,
    _executor_for,
    _interval_rows,
    frame_unit,
    load,
    measures_frame,
)


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
    def seat_spread(self) -> Doc | None:
        """The seat spread (highest seat win rate minus the lowest) as a row of ``measures`` (measure
        "seat_spread", unit "share (difference)", value and ci_low, ci_high: the 95% interval of
        `sim.stats.ladder_fit.seat_spread`, from simultaneous Wilson intervals, as Balance at a glance; n finished
        games); None in a team game or when no game finished. A batch figure: not among ``measures``, which are
        per-game."""
        from sim.model import catalogue
        from sim.stats.ladder_fit import seat_spread
        from sim.stats.records import SummaryFigures, SummaryRates

        n = SummaryFigures.of(self.raw).games.finished
        seats = SummaryRates.of(self.raw).seats
        if self.raw.get("team") or not seats or not n:
            return None
        sp = seat_spread([r.win.wins for r in seats], n, len(seats))
        e = catalogue.describe("seat_spread", self.scenario.game)
        return {
            "measure": "seat_spread",
            "label": e.label,
            "unit": frame_unit("rate", e.unit),
            "kind": "rate",
            "headline": e.headline,
            "value": sp["value"],
            "ci_low": sp["ci95"][0],
            "ci_high": sp["ci95"][1],
            "n": n,
        }

    @property
    def at_skill(self) -> pl.DataFrame:
        """The headline figures at skill (played with ``at_skill=True``), one row per figure (`sim.stats.at_skill.
        frame_rows`: figure, words, scripted and skill values with their 95% intervals and games, change with its
        interval, margin, verdict, verdict_words); empty when the run played no table at skill (``raw["at_skill"]``
        says why)."""
        from sim.output.report import at_skill_frame

        return at_skill_frame(self.raw)

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

    @python_method
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
    *,
    set: Sets = None,
    games: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    chunk: int | None = None,
    per_game: bool | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    at_skill: bool | None = None,
    skill_games: int | None = None,
    write: bool = False,
    out: str | Path | None = None,
    ctx: RunContext | None = None,
    executor: Executor | None = None,
    on_played: Callable[[], None] | None = None,
) -> Result:
    """Play a scenario and return its `Result`. Every argument after ``scenario`` is a keyword; one left None
    takes its default.

    What to play:
        scenario: a scenario file path or a `Scenario`.
        set: overrides of the file, {name: value} ({"track_len": 32, "seats.2.strategy": "runner"}) or
            "NAME=VALUE" texts; a `Scenario` takes none (change it with ``with_changes``).
        games: games to play (default: the scenario's); seed: the seed (default: the scenario's).
        at_skill: also play the scenario with every seat on the game's learned player and judge each headline
            figure at skill (`Result.at_skill`, summary.json ``at_skill``; `sim.api.skill`); default False.
        skill_games: that table's games (default: the scenario's ``skill_games`` or the default size; 0: none;
            given, it implies ``at_skill``).

    How and where it plays:
        threads: Numba threads (default: all cores); chunk: games per unit of work (memory grows with it; results
            do not depend on it).
        per_game: keep the per-game rows (`Result.games`); default False.
        workers: play on a Dask LocalCluster of that many processes; scheduler: on the cluster at that address
            (tcp://HOST:8786); executor: an open one (`executor`) instead of either.
        ctx: threads, progress and cancellation (`RunContext`); on_played: called when the games are over.

    Output:
        write: also write the report folder as `sim run` does, the per-game rows streamed to games.parquet (not
            kept in memory).
        out: that folder (default reports/<name>); given, it implies ``write``.

    Raises SimError subclasses (OptionError, OverrideError, ScenarioError, OutputError, ExecutionError), one line
    each; KeyboardInterrupt (`Cancelled`) when stopped, leaving nothing half-written.
    """
    from sim.api import core

    o = RunOptions.given(
        games=games,
        seed=seed,
        threads=threads,
        chunk=chunk,
        per_game=per_game,
        workers=workers,
        scheduler=scheduler,
        at_skill=at_skill,
        skill_games=skill_games,
    ).validate()
    sc = load(scenario, set, o.games)
    ctx = ctx or RunContext(threads=o.threads)
    if ctx.threads is None and o.threads is not None:
        ctx = ctx.with_(threads=o.threads)
    kept: list[ChunkOutputs] = []
    with _executor_for(executor, o.workers, o.scheduler, o.threads, ctx) as ex:
        extend = _skill_extender(o, ex, ctx)
        if write or out is not None:
            s, res, folder = core.play_scenario(
                sc,
                o.games,
                o.seed,
                o.threads,
                o.chunk,
                out,
                o.per_game,
                executor=ex,
                on_played=on_played,
                ctx=ctx,
                extend=extend,
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
                extend=extend,
            )
            if on_played is not None:
                on_played()
    played = sc.with_changes(games=res.games, seed=res.seed)
    return Result(played, s, folder, res.sums or {}, tuple(kept))


def _skill_extender(o: RunOptions, ex: Executor, ctx: RunContext) -> Callable[[Scenario, Doc], None] | None:
    """What adds the "At skill" block to a run's summary when ``o`` asks for it (`sim.api.skill.extender`)."""
    from sim.api.skill import extender

    return extender(o.skill_games, o.chunk, ex, ctx) if o.skill else None
