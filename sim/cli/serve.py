"""`sim serve`: the designer's workbench, a local web app over the API (`sim.web`; typer only here)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def serve(
    host: Annotated[
        str, typer.Option(help="address to listen on; another than loopback needs --allow-remote and a token")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8765,
    allow_remote: Annotated[
        bool, typer.Option("--allow-remote", help="allow a non-loopback --host (anyone reaching it can play jobs)")
    ] = False,
    token: Annotated[
        str | None,
        typer.Option(
            help="require this token on every request (?token=... once, or 'Authorization: Bearer ...'); "
            "default $SIM_WEB_TOKEN"
        ),
    ] = None,
    workers: Annotated[int, typer.Option(help="worker processes playing jobs, one job each at a time")] = 1,
    scheduler: Annotated[
        str | None, typer.Option(help="play the jobs' games on the Dask cluster at this address (tcp://HOST:8786)")
    ] = None,
    reports: Annotated[
        Path | None,
        typer.Option(
            help="the reports folder (default the project's reports/; made if missing, in an existing folder): "
            "jobs.sqlite and results go to its web/"
        ),
    ] = None,
    warm: Annotated[bool, typer.Option(help="load the Moor kernels in the worker at start")] = True,
):
    """Serve the designer's workbench: pick a scenario, change its rules in a form, run, compare, sweep, ladder and
    tune as background jobs with live progress, and browse the results.

    Listens on 127.0.0.1 only unless told otherwise. Jobs and results are kept in reports/web/jobs.sqlite, so they
    survive a restart; a job a restart interrupted is marked so. Ctrl-C stops it.

    Example:

        sim serve --port 8765    # then open http://127.0.0.1:8765/
    """
    from sim.cli.common import fail
    from sim.model import paths
    from sim.model.errors import SimError
    from sim.web.config import Settings, token_from_env
    from sim.web.server import serve as run_server

    if reports is not None:
        refusal = reports_refusal(reports)
        if refusal:
            fail(refusal, 2)
    settings = Settings(
        host=host,
        port=port,
        allow_remote=allow_remote,
        token=token_from_env(token),
        reports=(reports or paths.REPORTS).resolve(),
        workers=workers,
        scheduler=scheduler,
        warm=warm,
    )
    try:
        settings.check()
    except SimError as e:
        fail(str(e), 2)
    try:
        run_server(settings, say=lambda line: typer.echo(line, err=True))
    except SimError as e:  # the port in use: one line, before the server says where it listens
        fail(str(e))


def reports_refusal(reports: Path) -> str | None:
    """Why ``--reports`` cannot be the workbench's folder (a file, or a folder inside one that does not exist: a
    misspelt path is refused, not made with all its parents), else None."""
    if reports.exists() and not reports.is_dir():
        return f"--reports {reports}: not a folder; give a folder for the workbench's jobs and results"
    if not reports.exists() and not reports.parent.is_dir():
        why = "is a file" if reports.parent.exists() else "does not exist"
        return f"--reports {reports}: {reports.parent} {why}; give an existing folder or a new one inside one"
    return None
