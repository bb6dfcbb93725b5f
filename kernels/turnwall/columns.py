"""The Ghosts of Castle Turnwall: the names of the per-game counters `play_batch` writes to extra[g, :], in column
order.

The one list of them: kernels/turnwall/play.py writes them, sim/games/turnwall.py takes them from here (this module
imports nothing, so the game's spec reads them without importing numba or compiling the kernel), and its
catalogue entries are keyed by them.
"""

EXTRA_COLUMNS = (
    "first_seat",
    "decisions",
    "searches_found",
    "searches_not_found",
    "searches_wasted",
    "drags",
    "slides",
    "shifts",
    "rotations",
    "ghosts_displaced",
    "ghosts_ejected",
    "ghosts_pushed",
    "plug_stops",
    "turns_ended_early",
    "taken_head",
    "taken_face",
    "taken_body",
    "taken_legs",
    "taken_hand",
    "searches_part_gone",
)
