"""Ghostly Galleon: the names of the per-game counters `play_batch` writes to extra[g, :], in column order.

The one list of them: kernels/galleon/play.py writes them, sim/games/galleon.py takes them from here (this module
imports nothing, so the game's spec reads them without importing numba or compiling the kernel), and its
catalogue entries are keyed by them.
"""

EXTRA_COLUMNS = (
    "first_seat",
    "decisions",
    "ghost_moves",
    "overboard",
    "cannon_fires",
    "cannon_hits",
    "duels",
    "duels_won_no_weapon",
    "duels_won_sabre",
    "duels_won_pistol",
    "tiles_stolen",
    "chests_opened",
    "bottles_found",
    "parrot_uses",
    "cave_tiles",
    "captain_tiles",
    "blocked_turns",
    "home_too_poor",
)
