"""Preloaded into every worker process of a `sim ... --workers N` LocalCluster (Dask's ``preload``).

A terminal's Ctrl-C goes to its whole process group: the `sim` process and the worker processes it started. The
`sim` process stops between units with one line (exit 130) and closes the cluster; a worker that took the SIGINT
itself would print a KeyboardInterrupt traceback of its own, so workers ignore SIGINT.
"""

from __future__ import annotations

import signal
import threading


def dask_setup(worker=None) -> None:
    """Called by Dask in the worker process when it starts: ignore SIGINT there (see the module docstring)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
