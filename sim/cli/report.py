"""`sim report`: a report folder's pages drawn again from its summary.json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from sim.cli import shared
from sim.cli.common import (
    EXIT_USAGE,
    after_write,
    check_run_options,
    fail,
    interruptible,
    run_context,
)
from sim.cli.shared import Sets, progress_bar, warn_if_replacing


def report(
    path: Annotated[
        Path,
        typer.Argument(help="scenario TOML (play it), or a report folder / summary.json (render its report again)"),
    ],
    games: Annotated[int | None, typer.Option(help="games to play (scenario only)")] = None,
    seed: Annotated[int | None, typer.Option(help="master seed (scenario only)")] = None,
    threads: Annotated[int | None, typer.Option(help="Numba threads (default: all cores)")] = None,
    out: Annotated[
        Path | None, typer.Option(help="report folder (default: reports/<scenario name>, or the given folder)")
    ] = None,
    sets: Sets = None,
):
    """Write the designer's balance report: summary.html, balance.md, plots/.

    Given a scenario it plays it first; given a report folder (or its
    summary.json) it draws the report of that saved run again, e.g. after an
    update. summary.html is self-contained and opens offline.

    Example:

        sim report scenarios/treasure_hunters/basic-4p.toml --games 20000
        sim report reports/treasure_hunters-basic-4p
    """
    check_run_options(games, threads, seed=seed)
    if sets and path.suffix != ".toml":
        fail(
            "--set changes a scenario before it is played; give a scenario .toml (a report folder is rendered as "
            "it was played)",
            EXIT_USAGE,
        )
    if path.suffix == ".toml":
        sc = shared.load_scenario(path, sets, games, seed, command="sim report")
        import sim.api.public as api

        warn_if_replacing(sc, out, games, seed)
        prog, adv = progress_bar(sc.games if games is None else games, sc.name)
        with interruptible(), prog:
            folder = api.run(
                sc,
                games=games,
                seed=seed,
                threads=threads,
                write=True,
                out=out,
                ctx=run_context(threads, adv),
                on_played=prog.played,
            ).folder
        assert folder is not None  # write=True: the report folder is written
    else:
        src = path / "summary.json" if path.is_dir() else path
        from sim.output.report import staging_run

        if staging_run(src.parent):
            fail(f"{src.parent}: an unfinished report (its run was stopped while writing it); run the scenario again")
        if not src.exists():
            from sim.api.rerun import OTHER_REPORTS, other_report

            other = other_report(src.parent)
            if other is not None:  # a sweep's, ladder's, compare's or tune's folder: not a sim run report
                fail(
                    f"{src.parent}: the folder of a {other} (its page is {other}.html, not a sim run report); to draw "
                    f"it again, run the {other} command again ({OTHER_REPORTS[other][1]})"
                )
            fail(f"{src}: no such file; give a scenario .toml, a report folder or its summary.json")
        try:
            s = json.loads(src.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            fail(f"{src}: not valid JSON ({e}); give a scenario .toml, a report folder or its summary.json")
        if not isinstance(s, dict) or s.get("schema") != 1 or "seats" not in s:
            fail(f"{src}: not a summary.json of schema 1 (written by sim run)")
        from sim.output.summary_check import problem

        if bad := problem(s):  # a damaged or edited field: named, with what it takes (not a Python error text)
            fail(f"{src}: {bad}; its report cannot be drawn (run the scenario again to write it anew)")
        check_provenance(src.parent / "provenance.json")
        folder = redraw(src, s, out)
    after_write(folder)
    typer.echo(str(folder / "summary.html"))


def check_provenance(path: Path) -> None:
    """A report's provenance.json, which `sim report FOLDER` carries into the redrawn report unchanged: one line and
    exit 3 when it is there but damaged (not JSON, or not the object sim run writes, with its seed and games), so a
    redrawn report never passes it on as if it were sound. A report without one (a summary.json alone) is drawn."""
    if not path.exists():
        return
    try:
        pv = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        fail(f"{path}: not valid JSON ({e}); the run's record is damaged: run the scenario again to write it anew")
    except OSError as e:
        fail(f"{path}: cannot be read ({e.strerror or e})")
    if not isinstance(pv, dict) or not all(k in pv for k in ("seed", "games")):
        fail(
            f"{path}: not a provenance.json written by sim run (a JSON object with the run's seed, games and "
            "versions); run the scenario again to write it anew"
        )


def redraw(src: Path, s: dict, out: Path | None) -> Path:
    """`sim report FOLDER`: draw the report of summary ``s`` (read from ``src``) again into ``out`` or the folder
    itself, staged (`sim.api.core.redraw_report`): on an error or Ctrl-C the folder is as it was, one line says why, and
    the exit code is 3 (130 / 143)."""
    from sim.api import core as api
    from sim.play.runner import pending

    folder = Path(out or src.parent)
    here = Path.cwd().resolve()
    if out is None and (folder.resolve() == here or folder.resolve() in here.parents):
        fail(
            f"{src.parent}: the report is redrawn beside it and swapped in when complete, which cannot be done to "
            "the folder you are in; run `sim report` from outside it (or give --out)"
        )
    kept = f"nothing half-written left: {folder} is as it was" if folder.exists() else None
    with interruptible(kept):
        try:
            return api.redraw_report(s, src.parent, out)
        except OSError:  # OutputError: the folder cannot be written (one line, exit 3)
            raise
        except Exception as e:
            if pending() is not None:  # an error caused by an interrupt swallowed on its way
                raise
            where = f"{folder} is as it was" if folder.exists() else "nothing written"
            fail(f"{src}: incomplete summary, cannot draw its report ({type(e).__name__}: {e}); {where}")
