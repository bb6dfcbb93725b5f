"""The game's arc (issue 39): the layout of the curves rows the one game loop records (kernels/loop.py), in plain
Python (this module imports nothing, so the Python side reads it without compiling a kernel).

A batch asked for the arc (`play_batch`'s ``arc``: int32[n_games, rows, rounds] for ``n`` seats) gets, per game,
in its last two rows: the standings after each round (`ARC_LEAD_ROW`: who is alone ahead and who alone behind, packed
by `standing`) and the game's arc figures (`ARC_FIG_ROW`, in the columns below). ``rows`` is n + 2 (*full*: rows
0 .. n - 1 before them hold each seat's progress, its score if the game ended now, after each round: the fan chart's
sample of games) or 2 (*compact*: the figures and standings only, a quarter to a third of the memory and its writes:
every other game of a run).
"""

ARC_LEAD_ROW = -2  # the standings row, counted from the end (the same index in a full and a compact record)
ARC_FIG_ROW = -1  # the figures row
ARC_COMPACT_ROWS = 2  # the rows of a compact record

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
ARC_EXTRA_ROWS = 2  # the standings row and the figures row, after the seats' rows of a full record
STANDING_BITS = 8  # a standing: (seat alone ahead + 1) | (seat alone behind + 1) << STANDING_BITS (0: tied)


def standing(lead: int, behind: int) -> int:
    """The standings cell of a round: ``lead`` the seat alone ahead, ``behind`` the seat alone behind (-1: tied)."""
    return (lead + 1) | ((behind + 1) << STANDING_BITS)


def leader_of(cell):
    """The seat alone ahead of a standings cell (-1: the top tied); works on int arrays too."""
    return (cell & ((1 << STANDING_BITS) - 1)) - 1


def behind_of(cell):
    """The seat alone behind of a standings cell (-1: the bottom tied); works on int arrays too."""
    return (cell >> STANDING_BITS) - 1
