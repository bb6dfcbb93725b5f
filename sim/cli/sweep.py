"""`sim sweep`, the --workers / --scheduler options shared with `sim run`, and the default sweeps and index page of
`make run` (kept out of sim/cli/main.py, which registers them)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Annotated

import typer

WORKERS_HELP = "run on a Dask LocalCluster of N worker processes on this machine"
SCHEDULER_HELP = "run on an existing Dask cluster (tcp://HOST:8786; default: $DASK_SCHEDULER_ADDRESS)"
UNIT_THREADS_HELP = "Numba threads per unit (default: all cores in process, 1 on Dask workers)"
UNIT_CHUNK_HELP = "games per unit of work (results do not depend on it)"


@contextmanager
def cluster(workers: int | None, scheduler: str | None, threads: int | None = None):
    """The executor for --workers / --scheduler (`sim.play.distributed.executor`); a bad option is one line, exit 2."""
    from sim.api.options import check_cluster
    from sim.api.public import executor
    from sim.cli.common import EXIT_USAGE, fail, usage
    from sim.play.distributed import ExecutionError

    usage(check_cluster, workers, scheduler)
    try:
        with executor(workers, scheduler, threads, on_note=lambda s: typer.echo(s, err=True)) as ex:
            yield ex
    except ExecutionError as e:
        fail(str(e), EXIT_USAGE)


class SweepBars:
    """Progress of a sweep on stderr. On a terminal: Rich bars for the games overall, the points, and one per point
    in flight (removed when it is done). Otherwise (logs, CI): `sim.play.progress.Lines` for the games overall and one
    line per finished point. ``bars`` (the Rich bars) is None off a terminal, ``lines`` (the log lines) on one."""

    def __init__(self, sw):
        from rich.progress import Progress, TaskID

        from sim.play.progress import Lines  # counts the games played here (stored points are reused)

        self.sw = sw
        self.tty = sys.stderr.isatty()
        self.tasks: dict[int, TaskID] = {}
        self.all: TaskID | None = None
        self.points: TaskID | None = None
        self.done = 0
        self.count = Lines(len(sw.points) * sw.games, f"sweep {sw.name}", sys.stderr, every_s=float("inf"))
        self.count.__enter__()
        self.bars: Progress | None = None
        self.lines: Lines | None = None
        if self.tty:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn

            from sim.play.progress import time_left_column

            # the time left of the games overall, from every game since the first started (not Rich's last 30 s)
            self.left = time_left_column(self.count)
            self.bars = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                self.left,
                console=Console(stderr=True),
                transient=True,
            )
        else:
            self.lines = Lines(len(sw.points) * sw.games, f"sweep {sw.name}")

    def __enter__(self):
        if self.bars is not None:
            self.bars.__enter__()
        elif self.lines is not None:
            self.lines.__enter__()
        return self

    def __exit__(self, kind, value, tb):
        if self.bars is not None:
            self.bars.__exit__(kind, value, tb)
        elif self.lines is not None:
            self.lines.__exit__(kind, value, tb)
        if self.tty and self.count.t_played is not None:  # end the line played() began
            self.count.__exit__(kind, value, tb)
        return False

    def _values(self, index: int) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.sw.points[index].values.items())

    def start(self, points: int, games: int) -> None:
        if self.bars is not None:
            self.all = self.bars.add_task(f"sweep {self.sw.name}: games", total=games)
            self.left.only = self.all
            self.points = self.bars.add_task("points", total=points)
        elif self.lines is not None:
            self.lines.total = max(games, 1)
        self.todo = points
        if not points:  # nothing to play: say so, not "0 games in 0.0 s, 0 games/s"
            n = len(self.sw.points)
            said = (
                f"all {n:,} point{'' if n == 1 else 's'} reused (stored by an earlier run with the same seed "
                "and games; --fresh plays them again)"
            )
            for lines in (self.count, self.lines):
                if lines is not None:
                    lines.instead = said

    def played(self) -> None:
        """The games are over: the games line (games/s of the games alone) and "writing the sweep ...", its time
        following on the same line (`sim.play.progress.Lines.played`)."""
        if self.bars is not None:
            self.bars.stop()
            self.count.played("the sweep")
        elif self.lines is not None:
            self.lines.played("the sweep")

    def advance(self, index: int, games: int) -> None:
        self.count.advance(games)
        if self.lines is not None:
            self.lines.advance(games)
            return
        if self.bars is None or self.all is None:
            return
        if index not in self.tasks:
            self.tasks[index] = self.bars.add_task(f"  point {index} ({self._values(index)})"[:60], total=self.sw.games)
        self.bars.advance(self.tasks[index], games)
        self.bars.advance(self.all, games)

    def point_done(self, index: int) -> None:
        self.done += 1
        if self.bars is None:
            typer.echo(
                f"sweep {self.sw.name}: point {index} ({self._values(index)}) done, {self.done} of {self.todo}",
                err=True,
            )
            return
        if index in self.tasks:
            self.bars.remove_task(self.tasks.pop(index))
        if self.points is not None:
            self.bars.advance(self.points, 1)


def sweep(
    scenario: Annotated[Path, typer.Argument(help=r"scenario TOML file (its \[sweep] table, if any)")],
    set_: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            help="NAME=VALUES: a value, a list a,b,c or a "
            r"range LO..HI \[step S] (repeatable)",
        ),
    ] = None,
    mode: Annotated[str | None, typer.Option(help="grid (every combination, default) or zip")] = None,
    games: Annotated[
        int | None,
        typer.Option(
            help=r"games per point (default: \[sweep] games, else the "
            "scenario's)"
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="master seed (default: the scenario's)")] = None,
    measure: Annotated[
        list[str] | None, typer.Option(help="measure to plot and pair (repeatable; default: per game)")
    ] = None,
    target: Annotated[str | None, typer.Option(help="MEASURE=VALUE, e.g. first_player_advantage=0")] = None,
    independent: Annotated[
        bool, typer.Option("--independent", help="each point its own random streams (default: common random numbers)")
    ] = False,
    workers: Annotated[int | None, typer.Option(help=WORKERS_HELP)] = None,
    scheduler: Annotated[str | None, typer.Option(help=SCHEDULER_HELP)] = None,
    threads: Annotated[int | None, typer.Option(help=UNIT_THREADS_HELP)] = None,
    chunk: Annotated[int | None, typer.Option(help=UNIT_CHUNK_HELP)] = None,
    out: Annotated[Path | None, typer.Option(help="sweep folder (default: reports/sweep-<name>)")] = None,
    fresh: Annotated[bool, typer.Option("--fresh", help="forget stored points and play every point")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="print sweep.json to stdout")] = False,
    margin: Annotated[
        list[str] | None,
        typer.Option(
            "--margin",
            help="MEASURE=VALUE: the change that matters when a point is judged against the scenario's own "
            "(percentage points for rates; default 1 point for rates, 2% for lengths, 5% for counts)",
        ),
    ] = None,
):
    """Which value makes it fair? Sweep a parameter over a range of values.

    Every point's measures with 95% intervals and the paired differences between
    neighbouring points, in sweep.parquet, sweep.json and sweep.html. Resumable:
    rerun the command to finish an interrupted sweep.

    Example:

        sim sweep scenarios/moor/4p.toml --set track_len=20..60 --games 20000
    """
    from sim.api.sweep import SweepError, build, run_sweep
    from sim.cli.common import EXIT_BAD_INPUT, EXIT_USAGE, check_run_options, fail, interruptible, run_context
    from sim.model.scenario import ScenarioError
    from sim.output.sweep_output import SweepOutputError

    check_run_options(games, threads, chunk, seed)
    try:
        sw = build(scenario, set_ or [], mode, games, seed, measure, target, True if independent else None)
    except SweepError as e:  # a bad option: exit 2 as on every command; the file's: exit 3
        fail(str(e), EXIT_USAGE if e.usage else EXIT_BAD_INPUT)
    except ScenarioError as e:
        fail(str(e))
    from sim.stats import verdict as V
    from sim.stats.sweep_table import check_margins

    try:
        sw.margins = V.parse_margins(margin)
        check_margins(sw)
    except (V.MarginError, SweepError) as e:
        fail(str(e), EXIT_USAGE)
    large_grid_note(sw)
    warn_if_replacing_sweep(sw, out)
    bars = SweepBars(sw)
    from sim.output.sweep_output import folder_for
    from sim.play.sweep import Progress

    kept = partial(stopped_words, folder_for(sw, out), sw)
    try:
        with interruptible(kept), cluster(workers, scheduler, threads) as ex, bars:
            doc, folder, played = run_sweep(
                sw,
                ex,
                out,
                chunk,
                Progress(bars.start, bars.advance, bars.point_done),
                fresh,
                on_played=bars.played,
                ctx=run_context(threads),
            )
    except SweepOutputError as e:
        fail(str(e))
    except OSError as e:  # the disk filled up while playing: name the folder, not only errno
        from sim.output.sweep_output import what_for

        fail(
            f"{what_for(sw, out)}: cannot write in {folder_for(sw, out)} ({e.strerror or e}); the points finished "
            "so far are kept: the same command again, with room on the disk, plays only the missing ones"
        )
    from sim.cli.common import after_write

    after_write(folder)  # reports/index.html lists the new sweep
    if json_out:
        import json

        typer.echo(json.dumps(doc, indent=1))
    else:
        typer.echo(summary_text(doc))
    from sim.model.words import count

    typer.echo(
        f"sweep written to {folder} ({count(len(played.played), 'point')} played, {len(played.reused)} reused)",
        err=True,
    )


def stopped_words(folder: Path, sw=None) -> str:
    """What a stopped sweep leaves in ``folder``, said in the stop line: its finished points kept for the rerun (and
    an earlier sweep's outputs as they were), or, none finished, nothing half-written (`run_sweep` removed the
    empty folder it made), as `sim run` says. With ``sw`` (the sweep stopped) only its own points are counted: an
    older sweep's points in the folder are not this one's progress. (A stored point is reused only where it is the
    very point: its key hashes the point's scenario, seed, games, RNG point and kernels, `sim.play.sweep.keys`, so
    its numbers are the ones this sweep would play.)"""
    from sim.model.words import count
    from sim.output.sweep_output import stored_points

    n = stored_points(folder)
    others = 0
    if sw is not None:
        from sim.play.sweep import keys

        pts = folder / "points"
        mine = sum((pts / f"{k}.json").is_file() for k in set(keys(sw)))
        n, others = mine, n - mine
    earlier = (folder / "sweep.json").exists()
    beside = f" ({count(others, 'point')} of another sweep beside them, not counted)" if others else ""
    if not n:
        if others:
            return (
                f"nothing half-written left: no point of this sweep finished ({count(others, 'point')} of another "
                f"sweep in {folder / 'points'} stay as they were)"
            )
        if earlier:
            return f"nothing half-written left: no point finished, and the earlier sweep in {folder} is as it was"
        return "nothing half-written left (a sweep folder appears with its first finished point)"
    return (
        f"no new sweep.json written; the {count(n, 'point')} of this sweep finished so far "
        f"{'is' if n == 1 else 'are'} kept in {folder / 'points'}{beside}: the same command again plays only the "
        "missing ones" + ("; the earlier sweep.json and sweep.html are as they were" if earlier else "")
    )


LARGE_GRID = 500  # points from which a sweep says its size before playing


def large_grid_note(sw) -> None:
    """A sweep of `LARGE_GRID` points or more says so before playing (not refused): its points and games, and
    how its page shows them."""
    if len(sw.points) < LARGE_GRID:
        return
    from sim.pages.sweep_page import MAX_CURVES, MAX_PANELS

    typer.echo(
        f"sweep {sw.name}: a large sweep: {len(sw.points):,} points x {sw.games:,} games = "
        f"{len(sw.points) * sw.games:,} games (points stored by an earlier run are reused); its page draws "
        f"at most {MAX_CURVES} curves and {MAX_PANELS} panels a plot, every point is in its table and "
        "sweep.parquet",
        err=True,
    )


def sweep_words(mode: str, axes: list[tuple[str, list[str]]], fixed: Sequence[tuple[str, str]] = ()) -> str:
    """A sweep's definition in words: "track_len = 20, 30, 40 x die_faces = 4, 6, 8 (grid)", its fixed names after
    it ("...; players = 3")."""
    said = " x ".join(f"{n} = {', '.join(vals)}" for n, vals in axes) + f" ({mode})" if axes else "one point"
    return said + "".join(f"; {n} = {v}" for n, v in fixed)


def warn_if_replacing_sweep(sw, out: Path | None) -> None:
    """One warning line when the sweep folder holds a different sweep (another scenario file, other axes or
    values, or the other mode), which this one replaces: like `sim run`'s, not refused (a rerun of the same sweep,
    other games, measures or target included, replaces its own page silently). The stored points stay (both
    sweeps reuse them)."""
    import json

    from sim.model.scenario import toml_value
    from sim.output.sweep_output import folder_for

    folder = folder_for(sw, out)
    try:
        old = json.loads((folder / "sweep.json").read_text(encoding="utf-8"))
        old_axes = [(a["name"], [str(x) for x in a["labels"]]) for a in old["axes"]]
        old_mode, old_path = old["mode"], (old.get("provenance") or {}).get("scenario_path") or ""
        old_fixed = [(f["name"], str(f["label_text"])) for f in old.get("fixed") or ()]
    except (OSError, ValueError, KeyError, TypeError):
        return
    new_axes = [(a.name, [v if isinstance(v, str) else toml_value(v) for v in a.values]) for a in sw.axes]
    new_fixed = [(a.name, v if isinstance(v := a.values[0], str) else toml_value(v)) for a in sw.fixed]
    new_path = str(Path(sw.base.path).resolve()) if sw.base.path else ""
    same_file = not old_path or not new_path or old_path == new_path
    if same_file and old_axes == new_axes and old_fixed == new_fixed and (old_mode == sw.mode or len(new_axes) <= 1):
        return
    was = sweep_words(old_mode, old_axes, old_fixed) + ("" if same_file else f" of {old_path}")
    keep = (
        "give --out another folder"
        if out is not None
        else "give this one --out, e.g. --out reports/sweep-"
        f"{sw.name}-{'-'.join(a.name.replace('.', '_') for a in sw.axes) or 'point'}{'-zip' if sw.mode == 'zip' else ''}"
    )
    now = sweep_words(sw.mode, new_axes, new_fixed) + ("" if same_file else f" of {new_path}")
    typer.echo(
        f"warning: {folder} holds the sweep {was}; this sweep ({now}) replaces its pages (to keep both, {keep})",
        err=True,
    )


def summary_text(doc: dict) -> str:
    """The sweep in a few lines: each chosen measure per point, and the target's answer."""
    from sim.model.words import count
    from sim.pages.sweep_page import (
        fixed_words,
        fmt_est,
        many_points_text,
        minutes_words,
        point_words,
        target_text,
    )

    fixed = fixed_words(doc)
    lines = [
        f"sweep {doc['scenario']['name']}: {count(len(doc['points']), 'point')} x "
        f"{count(doc['games'], 'game', grouped=True)} "
        f"({doc['mode']}, {'independent streams' if doc['independent'] else 'common random numbers'})"
        + (f"; every point with {fixed}" if fixed else "")
    ]
    for p in doc["points"]:
        vals = point_words(doc, p) if p["labels"] else "the scenario"
        ms = "; ".join(
            f"{m['label']} {fmt_est(m['kind'], p['measures'][m['name']], unit=m.get('unit', ''))}"
            for m in doc["chosen"]
        )
        if p.get("minutes"):
            ms += f"; {minutes_words(p['minutes'])}"
        lines.append(f"  {vals}{' (scenario)' if p['index'] == doc['default'] else ''}: {ms}")
    t = target_text(doc)
    if t:
        lines.append(t)
    mp = many_points_text(doc)
    if mp:
        lines.append(mp)
    return "\n".join(lines)


def default_sweep_line(name, doc: dict, folder: Path, played: int) -> str:
    """`make run`'s line for one default sweep: "moor/sweeps/x.toml: 9 points x 500 games in 0.4 s -> FOLDER", the
    target's answer (if any) before the arrow; "...games, all reused" when no point was played."""
    from sim.model.words import count
    from sim.pages.sweep_page import target_text

    n = len(doc["points"])
    when = f" in {doc['provenance']['wall_time_s']} s" if played else ", all reused"
    if played and played < n:
        when += f" ({n - played:,} reused)"
    t = target_text(doc) if doc.get("target") else None
    games = count(doc["games"], "game", grouped=True)
    return f"{name}: {count(n, 'point', grouped=True)} x {games}{when}{'; ' + t if t else ''} -> {folder}"


def run_default_sweeps(game: str | None, games: int | None) -> list[tuple[Path, dict]]:
    """Play every sweep under scenarios/<game>/sweeps/ (what `make run` does after the scenarios): [(folder, doc)]."""
    from sim.api.sweep import SweepError, build, run_sweep
    from sim.cli.common import SCENARIOS, fail, interruptible
    from sim.model.scenario import ScenarioError
    from sim.play.distributed import InProcess

    out = []
    files = sorted(p for p in SCENARIOS.glob("*/sweeps/*.toml") if game is None or p.parent.parent.name == game)
    for f in files:
        try:
            sw = build(f, games=games)
        except (SweepError, ScenarioError) as e:
            fail(str(e))
        bars = SweepBars(sw)
        from sim.play.sweep import Progress

        with interruptible(), bars:
            doc, folder, played = run_sweep(
                sw, InProcess(), progress=Progress(bars.start, bars.advance, bars.point_done), on_played=bars.played
            )
        typer.echo(default_sweep_line(f.relative_to(SCENARIOS), doc, folder, len(played.played)))
        out.append((folder, doc))
    return out
