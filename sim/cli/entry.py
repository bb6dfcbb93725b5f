"""The `sim` console script. Ctrl-C and SIGTERM are handled from its first line: importing the CLI (Typer, NumPy)
takes a few tenths of a second, and an interrupt in that time would otherwise end in a KeyboardInterrupt traceback
(or a silent death by SIGTERM) before `sim.cli.main.main` installs its handlers. Kept free of heavy imports on
purpose."""

from __future__ import annotations

import signal
import sys

EXIT_INTERRUPTED, EXIT_TERMINATED = 130, 143  # as sim.cli.common (not imported here: it imports Typer)


class _EarlyTerm(KeyboardInterrupt):
    """SIGTERM before `sim.play.runner.stop_on_sigterm` is in place."""


def _on_term(signum, frame):
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM ends the process at once
    raise _EarlyTerm()


def _stopped_early(e: KeyboardInterrupt) -> None:
    term = isinstance(e, _EarlyTerm) or type(e).__name__ == "Terminated"
    print(
        f"{'terminated (SIGTERM)' if term else 'interrupted (Ctrl-C)'}: stopped before any game was played; "
        "nothing written",
        file=sys.stderr,
        flush=True,
    )
    sys.exit(EXIT_TERMINATED if term else EXIT_INTERRUPTED)


def main() -> None:
    """Run `sim.cli.main.main`; an interrupt that comes before it handles them itself ends in one line, exit 130 / 143."""
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _on_term)
    try:
        from sim.cli import main as cli
    except KeyboardInterrupt as e:
        _stopped_early(e)
    try:
        cli.run_as_script()
    except KeyboardInterrupt as e:  # only before cli.main's own handling (it reports the rest)
        _stopped_early(e)


if __name__ == "__main__":
    main()
