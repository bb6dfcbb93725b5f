"""What every `sim` command shares (sim.cli.main and sim.cli.sweep import it; it imports neither): exit codes, the
one-line failure, Ctrl-C / SIGTERM handling, and the checks of the options every playing command takes."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

import typer

EXIT_REGRESSION = 1
EXIT_USAGE = 2
EXIT_BAD_INPUT = 3
EXIT_INCONCLUSIVE = 4  # sim check: no regression, but a headline figure moved and is not shown within its margin
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143  # 128 + SIGTERM, what batch schedulers expect of a job stopped by SIGTERM
from sim.model.paths import SCENARIOS  # noqa: E402, F401  (the CLI modules take it from here)


def fail(msg: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    typer.echo(f"error: {msg}", err=True)
    raise typer.Exit(code)


@contextmanager
def interruptible(kept: str | Callable[[], str | None] | None = None) -> Iterator[None]:
    """Ctrl-C ends the command with one line and exit code 130, SIGTERM likewise with 143, wherever it comes
    (playing: within a block of games, see `sim.play.runner.BLOCK_S`; compiling; writing the report; waiting): reports
    are staged, so nothing half-written is left. ``kept``: what the command keeps on purpose (a
    sweep's finished points), said in that line instead; a callable is asked when the stop comes (a sweep keeps
    points only once one is finished). A refused --out ends it with one line and exit code 3."""
    from sim.output.report import OutputError

    try:
        yield
    except KeyboardInterrupt as e:
        raise typer.Exit(_stopped(e, kept() if callable(kept) else kept)) from None
    except OutputError as e:  # raised before any game is played
        fail(str(e))


def known_game(game: str | None, field: str = "--game"):
    """--game / GAME (``field``): one line naming the field and exit 2 for a game that does not exist, naming the
    games that do."""
    from sim.model import registry

    if game is not None and game not in registry.names():
        fail(f"{field}: {registry.unknown_game(game)}", EXIT_USAGE)


def in_range(name: str, v: int | None, lo: int = 1, hi: int | None = None, note: str = ""):
    """--``name``: one line and exit 2 when ``v`` is outside ``lo``..``hi`` (`sim.api.options.in_range`)."""
    from sim.api.options import in_range as check

    usage(check, name, v, lo, hi, note)


def check_run_options(
    games: int | None = None, threads: int | None = None, chunk: int | None = None, seed: int | None = None
):
    """The options every playing command shares (run, report, compare, check, baselines, replay): one line and exit 2
    when out of range (`sim.api.options.check_run_options`). A --threads above the cores available is not
    refused: the run uses all of them and says so on stderr in one line (`note_once`; the report's provenance
    records the threads used)."""
    from sim.api.options import check_run_options as check

    usage(check, games, threads, chunk, seed)


def usage(f, *args):
    """Call ``f(*args)``; an `sim.api.options.OptionError` it raises is one line and exit 2."""
    from sim.api.options import OptionError

    try:
        return f(*args)
    except OptionError as e:
        fail(str(e), EXIT_USAGE)


_NOTES_SAID: set[str] = set()  # the notes this command said (the process is one command)


def note_once(line: str) -> None:
    """Say a run's note (a --threads above the cores) on stderr, once per command however many runs it makes."""
    if line not in _NOTES_SAID:
        _NOTES_SAID.add(line)
        typer.echo(line, err=True)


def run_context(threads: int | None = None, progress=None, progress_sides=None):
    """The `sim.play.context.RunContext` of a command's run: --threads, the progress bar's callbacks (a
    comparison's by side too), notes on stderr once (`note_once`)."""
    from sim.play.context import RunContext

    return RunContext(threads=threads, progress=progress, progress_sides=progress_sides, on_note=note_once)


_STOP_SAID: list[bool] = []  # set once the stop line is on stderr, so a command and main() never both say it


def _stopped(e: KeyboardInterrupt, kept: str | None = None) -> int:
    """Say why the command stopped (one line on stderr, once) and return its exit code: 143 on SIGTERM, 130 on
    Ctrl-C. ``kept``: what is left on purpose (default: nothing; a report folder appears only when complete)."""
    from sim.play.runner import Terminated, clear_stop

    term = isinstance(e, Terminated)
    clear_stop()
    if not _STOP_SAID:
        _STOP_SAID.append(True)
        typer.echo(
            f"{'terminated (SIGTERM)' if term else 'interrupted (Ctrl-C)'}: stopped; "
            + (kept or "nothing half-written left (a report folder appears only when complete)"),
            err=True,
        )
    return EXIT_TERMINATED if term else EXIT_INTERRUPTED


def end_after_stop(e: SystemExit) -> None:
    """In a process of its own (the console script, ``python -m sim.cli.main``): once the stop line is said, end at
    once with its code (130 / 143). Every command has removed what it staged before its exit reaches here, and
    Python's own shutdown would wait for the kernel block or Numba compile still running on a pool thread (seconds
    under load); a CI run saw such a process end by SIGINT (return code -2) after its line, in that wait. Returns
    (the caller re-raises) for any other exit."""
    import os
    import sys

    if not _STOP_SAID or e.code not in (EXIT_INTERRUPTED, EXIT_TERMINATED):
        return
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a reader that left, a closed stream: nothing more to say there
            pass
    os._exit(int(e.code))


def after_write(folder: Path) -> None:
    """What every command that wrote the report folder ``folder`` (run, report, compare, sweep) does next: name an
    earlier report left behind (`warn_leftover`), then list the new one in the index (`refresh_index`)."""
    warn_leftover(folder)
    refresh_index(folder)


def refresh_index(folder: Path) -> None:
    """Refresh reports/index.html when ``folder`` is in the reports folder (`sim.pages.index_page.refresh`), so the new
    report is listed. The report itself is written: an index that cannot be rewritten (a full disk) is one warning
    line, not a failure."""
    from sim.pages import index_page

    try:
        index_page.refresh(folder)
    except Exception as e:  # noqa: BLE001 - the index is a convenience; the report is in place
        from sim.output.report import os_error

        oe = os_error(e)
        why = (oe.strerror or str(oe)) if oe is not None else f"{type(e).__name__}: {e}"
        typer.echo(
            f"warning: the report is written, but the index of the reports could not be refreshed ({why})", err=True
        )


def warn_leftover(folder: Path) -> None:
    """One warning line per earlier report that `sim.output.report.staged_dir` moved aside (``.<name>.old-PID``) but could
    not remove after the new one went in (a file in it that cannot be deleted: immutable, another user's): the new
    report is complete, the hidden folder is named so the user can remove it."""
    folder = Path(folder)
    for p in sorted(folder.parent.glob(f".{folder.name}.old-*")) if folder.parent.is_dir() else []:
        typer.echo(
            f"warning: the report is written, but the earlier one, moved aside to {p}, could not be removed "
            "(a file in it cannot be deleted); remove that folder by hand",
            err=True,
        )
