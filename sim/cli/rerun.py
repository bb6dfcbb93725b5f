"""`sim rerun`: play a report again from its recorded provenance and say whether it is reproduced."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from sim.cli.common import (
    EXIT_REGRESSION,
    check_run_options,
    fail,
    interruptible,
    run_context,
)
from sim.cli.shared import progress_bar


def rerun(
    folder: Annotated[
        Path,
        typer.Argument(help="report folder written by sim run / sim report (its summary.json and provenance.json)"),
    ],
    threads: Annotated[int | None, typer.Option(help="Numba threads (results do not depend on it)")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="print the result JSON to stdout")] = False,
):
    """Play a report again from what it recorded and say whether the result is identical.

    It replays the recorded scenario, overrides, seed, games and board, and
    names what differs and what changed since (code version, board content,
    scenario file). Exit 0 identical, 1 different, 3 not a report folder.

    Example:

        sim rerun reports/moor-4p
    """
    check_run_options(threads=threads)
    from sim.api import rerun as rr

    try:
        s, prov = rr.read_report(folder)
        prog, adv = progress_bar(prov["games"], f"rerun {s['scenario'].get('name', '')}")
        with interruptible(), prog:
            res = rr.rerun(folder, ctx=run_context(threads, adv))
    except rr.RerunError as e:
        fail(str(e))
    typer.echo(json.dumps(res, indent=2) if json_out else rr.render(res))
    if not res["identical"]:
        raise typer.Exit(EXIT_REGRESSION)
