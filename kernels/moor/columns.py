"""Ghosts of the Moor: the names of the per-game counters `play_batch` writes to extra[g, :], in column order.

The one list of them: kernels/moor/play.py writes them, sim/games/moor.py takes them from here (this module
imports nothing, so the game's spec reads them without importing numba or compiling the kernel), and its
catalogue entries are keyed by them.
"""

EXTRA_COLUMNS = (
    "first_seat",
    "decisions",
    "discard_events",
    "tiles_discarded",
    "tiles_lost",
    "planks_laid",
    "tiebreak_decided",
)
