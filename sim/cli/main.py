"""The `sim` command line: thin Typer commands over the API (sim.api.public, sim.api.*). Exit codes: 0 ok, 1 regression found,
2 usage error, 3 bad input file, 4 inconclusive (sim check), 130 interrupted (Ctrl-C), 143 terminated (SIGTERM). Data goes to stdout, progress
and errors to stderr."""

from __future__ import annotations

import sys

import typer

from sim.cli import bench, board, check, compare, fidelity, listing, replay, report, rerun, run
from sim.cli import ladder as cli_ladder  # sim ladder (typer only)
from sim.cli import serve as cli_serve  # sim serve, the web workbench (typer only; sim.web imported when it runs)
from sim.cli import sweep as cli_sweep  # sim sweep, --workers / --scheduler, default sweeps (typer only)
from sim.cli import train as cli_train  # sim train (expert iteration)
from sim.cli import tune as cli_tune  # sim tune, default tunes
from sim.cli.app import app
from sim.cli.common import (  # noqa: F401  (re-exported: the exit codes are part of the CLI's interface)
    _STOP_SAID,
    EXIT_BAD_INPUT,
    EXIT_INCONCLUSIVE,
    EXIT_INTERRUPTED,
    EXIT_REGRESSION,
    EXIT_TERMINATED,
    EXIT_USAGE,
    _stopped,
    end_after_stop,
)

# the commands, one module each, in the order `sim --help` lists them within their panels
app.command(rich_help_panel="Play")(run.run)
app.command(rich_help_panel="Play")(run.arc)
app.command("run-defaults", rich_help_panel="Play")(run.run_defaults)
app.command(rich_help_panel="Play")(replay.replay)
app.command("list", rich_help_panel="Tools")(listing.list_)
app.command(rich_help_panel="Tools")(bench.bench)
app.command(rich_help_panel="Play")(report.report)
app.command(rich_help_panel="Compare and explore")(compare.compare)
app.command(rich_help_panel="Compare and explore")(fidelity.fidelity)  # sim fidelity (sim.cli.fidelity)
app.command(rich_help_panel="Regression")(check.check)
app.command("baselines", rich_help_panel="Regression")(check.baselines_)
app.add_typer(board.board_app, name="board", rich_help_panel="Boards")
app.command(rich_help_panel="Regression")(rerun.rerun)
app.command(rich_help_panel="Compare and explore")(cli_sweep.sweep)  # sim sweep (sim.cli.sweep)
app.command(rich_help_panel="Compare and explore")(cli_tune.tune)  # sim tune (sim.cli.tune)
app.command(rich_help_panel="Compare and explore")(cli_ladder.ladder)  # sim ladder (sim.cli.ladder)
app.command(rich_help_panel="Tools")(cli_serve.serve)  # sim serve (sim.cli.serve)
app.command(rich_help_panel="Tools")(cli_train.train)  # sim train (sim.cli.train)


def main() -> None:
    """Console entry point: no tracebacks for user errors, clean Ctrl-C and SIGTERM."""
    from sim.output.report import OutputError
    from sim.play.runner import Terminated, pending, stop_on_sigterm

    stop_on_sigterm()
    try:
        try:
            app()
        except Exception as e:
            stop = pending()  # an error caused by an interrupt that was swallowed on its way
            if stop is not None:
                sys.exit(_stopped(stop))
            from sim.output.report import os_error

            oe = os_error(e)  # a Polars I/O error (a full disk) no writer turned into its line
            if oe is None or isinstance(e, OSError):
                raise
            typer.echo(f"error: {oe.strerror or oe} (writing with Polars: {' '.join(str(e).split())})", err=True)
            sys.exit(EXIT_BAD_INPUT)
    except KeyboardInterrupt as e:
        sys.exit(_stopped(e))
    except SystemExit as e:
        if e.code == 1 and isinstance(e.__context__, BrokenPipeError):
            sys.exit(0)  # click's exit 1 when the reader left (`sim list | head -1`)
        # Typer turns an interrupt it catches itself into a silent exit 130 (after SIGTERM that is 143): say it
        if e.code == EXIT_INTERRUPTED and not _STOP_SAID:
            cause, seen, hops = e.__context__, None, 0
            while cause is not None and hops < 20:
                hops += 1
                if isinstance(cause, KeyboardInterrupt):
                    seen = cause
                    if isinstance(cause, Terminated):
                        break
                cause = cause.__cause__ or cause.__context__
            sys.exit(_stopped(seen if seen is not None else KeyboardInterrupt()))
        raise
    except BrokenPipeError:  # `sim run ... | head`: the reader left; nothing to say
        sys.exit(0)
    except OutputError as e:
        typer.echo(f"error: {e}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except OSError as e:
        typer.echo(f"error: {e.strerror or e}: {e.filename or ''}".rstrip(": "), err=True)
        sys.exit(EXIT_BAD_INPUT)


def run_as_script() -> None:
    """`main` in a process of its own: after the stop line, the process ends at once (`end_after_stop`)."""
    try:
        main()
    except SystemExit as e:
        end_after_stop(e)
        raise


if __name__ == "__main__":
    run_as_script()
