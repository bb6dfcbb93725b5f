"""Ghost Fightin' Treasure Hunters: the names of the per-game counters `play_batch` writes to extra[g, :], in
column order, and of the per-round curves.

The one list of them: kernels/treasure_hunters/play.py writes them, sim/games/treasure_hunters.py takes them from
here (this module imports nothing, so reading them compiles nothing), and the game's catalogue entries are keyed
by them.
"""

EXTRA_COLUMNS = (
    "first_seat",
    "decisions",
    "outcome",
    "hauntings_end",
    "hauntings_max",
    "jewels_out_end",
    "fights",
    "fights_won",
    "ghosts_removed",
    "unhaunt_attempts",
    "unhauntings",
    "shuffles",
    "locked_door_turns",
    "ghosts_end",
    "ghosts_placed",
    "hauntings_made",
    "overflows",
    "rerolls_used",
    "hh_cards_played",
    "six_discards",
    "spooks",
    "jewels_dropped",
    "ghosts_moved",
    "stuck_events",
    "stuck_end",
    "jewels_carried_end",
    "lost_jewels_out",
)
# outcome (an OUT_* code of rules.py) and lost_jewels_out (play.LOST_JEWELS_LABELS) are categorical
# per-round curves written to curves[g, c, r]: their names, and the rounds each holds
CURVES = ("hauntings", "ghosts")
CURVE_LEN = 60
