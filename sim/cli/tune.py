"""`sim tune` (thin over `sim.api.tune`) and the default tunes of scenarios/<game>/tunes/ (kept out of
sim/cli/main.py, which registers them)."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path
from typing import Annotated

import typer

from sim.cli.sweep import SCHEDULER_HELP, UNIT_CHUNK_HELP, UNIT_THREADS_HELP, WORKERS_HELP, cluster


class TuneLines:
    """Progress of a tune on stderr: the games overall (`sim.play.progress.Lines`: a line every few seconds, games/s
    and time left) and one line per trial told (its values, each target's estimate with its interval, the best
    trial so far)."""

    def __init__(self, tune):
        from sim.play.progress import Lines

        self.tune = tune
        total = tune.trials * tune.games + tune.confirm * tune.confirm_games
        self.lines = Lines(total, f"tune {tune.name}", sys.stderr)

    def __enter__(self):
        self.lines.__enter__()
        return self

    def __exit__(self, kind, value, tb):
        return self.lines.__exit__(kind, value, tb)

    def progress(self):
        from sim.api.tune import TuneProgress
        from sim.play.sweep import Progress

        return TuneProgress(Progress(advance=lambda _i, n: self.lines.advance(n)), self.trial, self.stage)

    def stage(self, text: str) -> None:
        typer.echo(text, err=True)

    def trial(self, info: dict) -> None:
        from sim.model.scenario import toml_value
        from sim.output.sweep_output import shown_kind
        from sim.pages.sweep_page import fmt_est
        from sim.pages.tune_page import fmt_dist
        from sim.stats.sweep_table import quantities

        qs = quantities(self.tune.base)
        vals = ", ".join(f"{k}={toml_value(v)}" for k, v in info["values"].items())
        if info["ok"]:
            ms = "; ".join(
                f"{qs[x['measure']].label} {fmt_est(shown_kind(qs[x['measure']]), x)} "
                f"(off by {fmt_dist(shown_kind(qs[x['measure']]), x['distance'])})"
                for x in info["targets"]
            )
        else:
            ms = "no value for every target (failed)"
        b = info.get("best")
        best = f"; best so far: trial {b['number']}" if b else ""
        how = "" if info["played"] else " (stored point reused)"
        typer.echo(
            f"tune {self.tune.name}: trial {info['number']} (of {info['of']}): {vals}: {ms}{how}{best}", err=True
        )


def tune(
    scenario: Annotated[Path, typer.Argument(help=r"scenario TOML file (its \[tune] table, if any)")],
    param: Annotated[
        list[str] | None,
        typer.Option(
            help="NAME=RANGE: LO..HI (integers; a decimal point: any number between), LO..HI step S (a grid) "
            "or choices a,b,c (repeatable)"
        ),
    ] = None,
    target: Annotated[
        list[str] | None,
        typer.Option(help="MEASURE=VALUE or MEASURE=LO..HI, e.g. team_win_rate=50% (repeatable)"),
    ] = None,
    trials: Annotated[int | None, typer.Option(help=r"trials to search (default: \[tune] trials, else 30)")] = None,
    games: Annotated[
        int | None, typer.Option(help=r"games per trial (default: \[tune] games, else the scenario's)")
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="master seed (default: the scenario's; confirmation: seed + 1)")
    ] = None,
    confirm: Annotated[int | None, typer.Option(help="best settings played again at a fresh seed (default 3)")] = None,
    confirm_games: Annotated[
        int | None, typer.Option(help="games per confirmed setting (default: 4 x games per trial)")
    ] = None,
    batch: Annotated[
        int | None, typer.Option(help="trials asked at once and played together (default 4; part of the study)")
    ] = None,
    workers: Annotated[int | None, typer.Option(help=WORKERS_HELP)] = None,
    scheduler: Annotated[str | None, typer.Option(help=SCHEDULER_HELP)] = None,
    threads: Annotated[int | None, typer.Option(help=UNIT_THREADS_HELP)] = None,
    chunk: Annotated[int | None, typer.Option(help=UNIT_CHUNK_HELP)] = None,
    out: Annotated[Path | None, typer.Option(help="tune folder (default: reports/tune-<name>)")] = None,
    fresh: Annotated[bool, typer.Option("--fresh", help="forget the study and the stored points; start over")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="print tune.json to stdout")] = False,
):
    """Which combination of values meets the targets? Search several parameters at once.

    Optuna searches the ranges (TPE for one target, NSGA-II for several), each
    trial a scenario point on common random numbers; the best few are played
    again with more games at a fresh seed, and the result says which of them
    cannot be told apart. Writes tune.parquet, tune.json, tune.html and
    best.toml (a scenario of the chosen setting for sim run). Resumable: the
    study is kept in study.db; the same command again continues it.

    Example:

        sim tune scenarios/treasure_hunters/tunes/hunters-half.toml
        sim tune scenarios/moor/4p.toml --param track_len=22..40 --target first_player_advantage=0
    """
    from sim.api.tune import build, run_tune, summary_text
    from sim.cli.common import (
        EXIT_BAD_INPUT,
        EXIT_USAGE,
        after_write,
        check_run_options,
        fail,
        in_range,
        interruptible,
        run_context,
    )
    from sim.model.scenario import ScenarioError
    from sim.model.tune_spec import TuneError
    from sim.output.tune_output import TuneOutputError, folder_for

    check_run_options(games, threads, chunk, seed)
    for name, v in (("trials", trials), ("confirm", confirm), ("confirm-games", confirm_games), ("batch", batch)):
        in_range(name, v)
    try:
        t = build(scenario, param or [], target or [], trials, games, seed, confirm, confirm_games, batch)
    except TuneError as e:
        fail(str(e), EXIT_USAGE if e.usage else EXIT_BAD_INPUT)
    except ScenarioError as e:
        fail(str(e))
    kept = partial(stopped_words, folder_for(t, out))
    bars = TuneLines(t)
    try:
        with interruptible(kept), cluster(workers, scheduler, threads) as ex, bars:
            doc, folder = run_tune(t, ex, out, chunk, bars.progress(), fresh, run_context(threads))
    except TuneOutputError as e:
        fail(str(e))
    after_write(folder)
    if json_out:
        import json

        typer.echo(json.dumps(doc, indent=1, default=str))
    else:
        typer.echo(summary_text(doc))
    typer.echo(
        f"tune written to {folder} (tune.html; play the chosen setting: sim run {folder / 'best.toml'})", err=True
    )


def stopped_words(folder: Path) -> str:
    """What a stopped tune leaves in ``folder``, said in the stop line, counted: its finished points and the study
    kept for the rerun, or, none finished, nothing half-written (`sim.api.tune.run_tune` removed the study it
    started and the folder it made); an earlier tune's outputs as they were."""
    from sim.model.words import count
    from sim.output.tune_output import stored_points

    n = stored_points(folder)
    earlier = (folder / "tune.json").exists()
    if not n:
        if (folder / "study.db").exists():
            return f"nothing half-written left: no point finished; the study in {folder} is as it was"
        if earlier:
            return f"nothing half-written left: no point finished, and the earlier tune in {folder} is as it was"
        return "nothing half-written left (a tune folder appears with its first finished point)"
    return (
        f"no tune.json written; the study and the {count(n, 'point')} played so far are "
        f"kept in {folder}: the same command again continues"
        + ("; the earlier tune.json and tune.html are as they were" if earlier else "")
    )


def run_default_tunes(game: str | None, games: int | None = None) -> list[tuple[Path, dict]]:
    """Play every tune under scenarios/<game>/tunes/ in this process (`sim run-defaults --tunes`): [(folder,
    tune.json dict)]. A rerun continues each study (nothing is played again)."""
    from sim.api.tune import build, run_tune
    from sim.cli.common import SCENARIOS, fail, interruptible
    from sim.model.scenario import ScenarioError
    from sim.model.tune_spec import TuneError
    from sim.pages.tune_page import summary_lines
    from sim.play.distributed import InProcess

    out = []
    files = sorted(p for p in SCENARIOS.glob("*/tunes/*.toml") if game is None or p.parent.parent.name == game)
    for f in files:
        try:
            t = build(f, games=games)
        except (TuneError, ScenarioError) as e:
            fail(str(e))
        with interruptible(), TuneLines(t) as bars:
            doc, folder = run_tune(t, InProcess(), progress=bars.progress())
        typer.echo(f"{f.relative_to(SCENARIOS)}: {summary_lines(doc)[1]} -> {folder}")
        out.append((folder, doc))
    return out
