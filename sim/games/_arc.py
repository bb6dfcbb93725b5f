"""The layout of the game's arc rows the kernels record (`kernels.arc`), for the layers above the games (only the
play and games layers import `kernels`; kernels/arc.py imports nothing, so reading it compiles nothing)."""

from __future__ import annotations

import numpy as np

from kernels.arc import (
    ARC_CHANGES,
    ARC_CLEAR,
    ARC_COMPACT_ROWS,
    ARC_EVER_LAST,
    ARC_EXTRA_ROWS,
    ARC_FIG_ROW,
    ARC_FIGURES,
    ARC_HALF_LAST,
    ARC_HALF_LEAD,
    ARC_LEAD_ROW,
    behind_of,
    leader_of,
    standing,
)

__all__ = [
    "ARC_CHANGES",
    "ARC_CLEAR",
    "ARC_COMPACT_ROWS",
    "ARC_EVER_LAST",
    "ARC_EXTRA_ROWS",
    "ARC_FIG_ROW",
    "ARC_FIGURES",
    "ARC_HALF_LAST",
    "ARC_HALF_LEAD",
    "ARC_LEAD_ROW",
    "behind_of",
    "figures",
    "leader_of",
    "standing",
]


def figures(rows: np.ndarray) -> np.ndarray:
    """The arc figures (int64[games, ARC_FIGURES]: lead changes, half-time leader and last, ever last, clear) of arc
    records ``rows`` (int32[games, rows, rounds], full or compact: the figures are their last row)."""
    return rows[:, ARC_FIG_ROW, :ARC_FIGURES].astype(np.int64)
