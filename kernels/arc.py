"""The game's arc (issue 39): the layout of the curves rows the one game loop records (kernels/loop.py), in plain
Python (this module imports nothing, so the Python side reads it without compiling a kernel).

A batch asked for the arc (`play_batch`'s ``arc``: int32[n_games, n + 2, rounds] for ``n`` seats) gets, per game:
rows 0 .. n - 1 each seat's progress (its score if the game ended now) after each round; row n who leads after each
round (the seat alone ahead, -1 when the top is tied); row n + 1 the game's arc figures, in the columns below.
"""

ARC_CHANGES = (
    0  # lead changes: a seat alone ahead after a round, another seat having been alone ahead last (ties skipped)
)
ARC_HALF_LEAD = 1  # bitmask of the seat alone ahead after round rounds // 2 (0: tied, or under 2 rounds)
ARC_HALF_LAST = 2  # bitmask of the seat alone behind after round rounds // 2 (0: tied, or under 2 rounds)
ARC_EVER_LAST = 3  # bitmask of the seats alone behind after some round before the last
ARC_CLEAR = 4  # rounds after which a winner was alone ahead to the end (the game's rounds when it never was)
ARC_FIGURES = 5
# working slots of the figures row while a game is played (cleared at its end)
ARC_PREV = 5  # the last seat alone ahead (-1: none yet)
ARC_LAST_PREV = 6  # bitmask of the seat alone behind after the previous round recorded
ARC_EXTRA_ROWS = 2  # the leader row and the figures row, after the seats' rows
