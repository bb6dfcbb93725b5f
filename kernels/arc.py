"""The game's arc (issue 39): the layout of the curves rows the one game loop records (kernels/loop.py), in plain
Python (this module imports nothing, so the Python side reads it without compiling a kernel).

After a game's own curve rows (``N_CURVES`` of its step module) come, for ``n`` seats: rows 0 .. n - 1 each seat's
progress (its score if the game ended now) after each round; row n who leads after each round (the seat alone
ahead, -1 when the top is tied); row n + 1 the game's arc figures, in the columns below.
"""

ARC_UNSET = -(1 << 30)  # a round not recorded yet (never left in a finished game's rows)
ARC_CHANGES = (
    0  # lead changes: a seat alone ahead after a round, another seat having been alone ahead last (ties skipped)
)
ARC_HALF_LEAD = 1  # bitmask of the seat alone ahead after round rounds // 2 (0: tied, or under 2 rounds)
ARC_HALF_LAST = 2  # bitmask of the seat alone behind after round rounds // 2 (0: tied, or under 2 rounds)
ARC_EVER_LAST = 3  # bitmask of the seats alone behind after some round before the last
ARC_CLEAR = 4  # rounds after which a winner was alone ahead to the end (the game's rounds when it never was)
ARC_FIGURES = 5
ARC_EXTRA_ROWS = 2  # the leader row and the figures row, after the seats' rows
