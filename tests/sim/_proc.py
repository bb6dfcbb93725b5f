"""Real `sim` processes for the signal tests: started with default signal handling and never left running."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _default_signals() -> None:
    # A shell that starts pytest in the background hands its children an *ignored* SIGINT; a user's Ctrl-C is not.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


@contextlib.contextmanager
def sim_process(args: list[str], **popen_kw) -> Iterator[subprocess.Popen]:
    """`python -m sim.cli.main ARGS` in the repository; killed on the way out if it is still running (a failed test
    must not leave a 50-million-game run behind)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "sim.cli.main", *args], cwd=REPO, preexec_fn=_default_signals, **popen_kw
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=60)


def wait_for(folder: Path, pattern: str, timeout: float = 120.0) -> list[Path]:
    """The paths matching PATTERN in FOLDER as soon as there are any, or [] after TIMEOUT seconds."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        found = list(folder.glob(pattern))
        if found:
            return found
        time.sleep(0.2)
    return []


def progress_line(line: str) -> bool:
    """Whether a line of a `sim` process's stderr is progress it may print before a signal stops it: the estimate
    of a long run ("... to go at ...") or the start-up line while the game's kernels load or compile (every 10 s,
    on a busy machine; sim.play.progress)."""
    return " to go at " in line or "; starting up (compiling the kernels on a first run), no games/s yet)" in line
