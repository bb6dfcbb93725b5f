"""The event log and the step record shared by every game's trace (replay in words, golden traces).

``log`` is int32[L, 6]: row 0 column 0 holds the number of events; row i (1..count) is
(kind, a, b, c, d, turn). A log of one row records nothing, so batch play passes a (1, 6) dummy and pays one compare,
or None (Moor's batch: `log_event` then compiles to nothing; a trace is then a separate specialization).
"""

from __future__ import annotations

import numpy as np

from kernels._jit import njit

LOG_W = 6


@njit(
    [
        "void(int32[:, ::1], int64, int64, int64, int64, int64, int64)",
        "void(none, int64, int64, int64, int64, int64, int64)",
    ]
)
def log_event(log, turn, kind, a, b, c, d):
    """Append event (kind, a, b, c, d) at ``turn`` when the log has room; silently drops it otherwise. ``log``
    None (a batch's: no event log) compiles to nothing."""
    if log is None:
        return
    n = log[0, 0]
    if n + 1 < log.shape[0]:
        log[n + 1, 0] = kind
        log[n + 1, 1] = a
        log[n + 1, 2] = b
        log[n + 1, 3] = c
        log[n + 1, 4] = d
        log[n + 1, 5] = turn
        log[0, 0] = n + 1


@njit(["int64(int32[:, ::1])", "int64(none)"])
def log_rows(log):
    """Events recorded so far in ``log`` (0 for None, a batch's)."""
    if log is None:
        return 0
    return log[0, 0]


@njit("void(int32[:, ::1], int64, int64)")
def record(steps, kind, value):
    """Append step (kind, value) to ``steps`` int32[K, 2] (row 0 column 0 counts the rows) when it has room; a
    (1, 2) array records nothing. Golden traces replay these rows: chance outcomes and decisions in order."""
    n = steps[0, 0]
    if n + 1 < steps.shape[0]:
        steps[n + 1, 0] = kind
        steps[n + 1, 1] = value
        steps[0, 0] = n + 1


def new_records(log_len=1, steps_len=1):
    """A fresh event log int32[log_len, LOG_W] and step record int32[steps_len, 2] in plain numpy (one row each:
    the batch's dummies that record nothing; a trace passes longer ones)."""
    return np.zeros((log_len, LOG_W), dtype=np.int32), np.zeros((steps_len, 2), dtype=np.int32)
