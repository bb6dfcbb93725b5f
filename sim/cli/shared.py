"""What several commands share: loading a scenario with its --set overrides (one line and exit 2 or 3), the --set
option's aliases, a progress bar, the warning before a report of another file is replaced, and the check that a
destination folder can be written."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sim.cli.common import EXIT_USAGE, fail


def load_scenario(
    path: Path,
    sets: list[str] | None = None,
    games: int | None = None,
    seed: int | None = None,
    more: tuple[tuple[str, list[str] | None], ...] = (),
    command: str = "",
):
    """The scenario file ``path`` with the --set overrides ``sets`` (then ``more``: further (option, texts), as
    compare's ("--set-a", [...])) and --games applied before it is validated: a bad --set, or one field given twice
    (two --set of one name, --games or --seed and --set of it), is one line and exit 2, a bad file one line and
    exit 3 (`sim.api.public.load`). ``command`` ("sim run"): the command that plays it, which refuses a sweep or
    tune spec file (a [sweep] or [tune] table it would ignore) in one line naming the command that reads it, exit 2."""
    from sim.api.public import load
    from sim.model.overrides import OverrideError
    from sim.model.scenario import ScenarioError, read
    from sim.play import progress

    try:
        if command:
            refuse_spec_table(path, read(path), command)
        # loading a game imports its kernels: compiled on a first run, tens of seconds said as they pass
        with progress.said_if_slow(
            f"{path}: loading the game's kernels (compiled on a first run) ...", after_s=3.0, every_s=progress.EVERY_S
        ):
            return load(path, sets, games, seed, more)
    except OverrideError as e:
        fail(str(e), EXIT_USAGE)
    except ScenarioError as e:
        fail(str(e))


def refuse_spec_table(path: Path, doc: dict, command: str) -> None:
    """Exit 2 with one line when scenario document ``doc`` has a [sweep] or [tune] table, which ``command`` (that
    plays one scenario) would silently ignore, playing only the base scenario."""
    for table in ("sweep", "tune"):
        if table in doc:
            fail(
                f"{path}: has a [{table}] table, which {command} does not read (it would play only the base "
                f"scenario); use sim {table} {path}",
                EXIT_USAGE,
            )


SET_HELP = (
    "NAME=VALUE: override a rule parameter, a card (ghost_cards.shuffle=2), a scenario field or a seat's "
    "strategy or strategy parameter (seats.1.strategy=runner, seats.1.w_goal=1.5); the value is TOML; "
    "repeatable"
)
Sets = Annotated[
    list[str] | None, typer.Option("--set", help=SET_HELP + ". The report goes to a folder named after the overrides")
]
# replay writes no report: its --set says nothing of a folder
ReplaySets = Annotated[list[str] | None, typer.Option("--set", help=SET_HELP)]


def progress_bar(total: float, label: str):
    """Progress on stderr (sim.play.progress: a bar on a terminal, plain lines otherwise); (context manager, advance)."""
    from sim.play import progress

    return progress.bar(total, label)


def warn_if_replacing(sc, out: Path | None, games: int | None = None, seed: int | None = None):
    """Two scenario files with one name share reports/<name> (or one --out folder is reused): replacing the report
    of another file says so in one warning line naming that file and its scenario (not refused: batch users rerun).
    Rerunning a file replaces its own report silently when made the same way, and with one warning line saying how
    the old one differed when it was made with other settings (``games``, ``seed``: this run's; the 1,000-game
    report of `make run` replaced by a 300-game run)."""
    from sim.api import core as api
    from sim.output.report import replaced_settings, replaces_other_scenario, report_owner

    final = api.report_folder(sc, out)
    other = replaces_other_scenario(final, sc.path)
    if not other:
        how = replaced_settings(
            final, sc.games if games is None else games, sc.seed if seed is None else seed, list(sc.overrides)
        )
        if how:
            typer.echo(
                f"warning: {final} holds the report of {sc.path} played with {how}; this run replaces it "
                f"(to keep both, give --out another folder)",
                err=True,
            )
        return
    name = (report_owner(final) or ("", ""))[1]
    whose = f"scenario '{name}' of {other}" if name else other
    keep = (
        "give --out another folder"
        if out is not None
        else 'give one file another name = "..." under [scenario], or use --out'
    )
    typer.echo(
        f"warning: {final} holds the report of {whose}; this run of {sc.path} (scenario '{sc.name}') "
        f"replaces it (to keep both, {keep})",
        err=True,
    )


def writable_or_fail(folder: Path):
    """The destination folder can be written and its disk is not full, checked before any game is played."""
    from sim.output.report import OutputError, check_writable

    try:
        check_writable(folder)
    except OutputError as e:
        fail(str(e))
