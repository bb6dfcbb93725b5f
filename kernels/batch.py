"""Games played through a game's `play_batch` from plain Python: one game for a trace, or a checked batch.

Shared by every game's `trace_game` (and Treasure Hunters' `check_batch`). Plain Python on purpose: a compiled
helper taking `play_batch` as an argument would never load from Numba's cache (kernels/README.md, the contract).
"""

from __future__ import annotations

import numpy as np


def play_games(
    play_batch,
    scratch,
    seed,
    point,
    game0,
    n_games,
    n,
    prm,
    sids,
    sparams,
    n_extra,
    curves_shape=(0, 0),
    check=False,
    search=None,
    resume=None,
    stop=False,
    arc=None,
):
    """Play games game0 .. game0 + n_games - 1 through ``play_batch`` with ``scratch`` (the game's
    `batch_scratch`, possibly with a longer event log or step record to fill); ``check`` true runs the invariants
    after every step (`play_batch`'s optional ``check`` argument); ``search`` the search players' scratch
    (`kernels.search.new_search`, None without a search seat); ``resume`` a state every game starts from (None:
    dealt afresh); ``stop`` true ends the first game at its first search decision, the action in status[0];
    ``arc`` an int32[n_games, n + 2 or 2, rounds] the game's arc is recorded into (kernels/arc.py: a full or a
    compact record; None: not recorded).

    Returns (scores int32[n_games, n], winners, turns, rounds, status int32[n_games], extra int32[n_games,
    n_extra], curves int32[n_games, *curves_shape]).
    """
    g, m, n = np.int64(game0), int(n_games), int(n)
    out = (
        np.zeros((m, n), np.int32),
        np.zeros(m, np.int32),
        np.zeros(m, np.int32),
        np.zeros(m, np.int32),
        np.zeros(m, np.int32),
        np.zeros((m, n_extra), np.int32),
        np.zeros((m, *curves_shape), np.int32),
    )
    args = (np.uint64(seed), np.uint64(point), g, np.int64(m), np.int64(n), prm, sids, sparams, *out, scratch)
    # ``stop`` passed only when true: omitted, it has the type the runner's calls give it (one compiled kernel)
    stop_arg = (True,) if stop else ()
    if arc is not None:  # (by name: a call without it is the specialization it always was)
        play_batch(*args, np.int64(1) if check else None, resume, search, arc=arc)
    else:
        play_batch(*args, np.int64(1) if check else None, resume, search, *stop_arg)
    return out


def play_alone(
    play_batch, scratch, seed, point, g, n, prm, sids, sparams, n_extra, curves_shape=(0, 0), check=False, search=None
):
    """Game ``g`` alone, exactly as a batch plays it (`play_games` over one game): (scores int32[n], winners
    bitmask over seats, status, turns, rounds (ints), extra int32[n_extra], curves int32[*curves_shape])."""
    scores, winners, turns, rounds, status, extra, curves = play_games(
        play_batch, scratch, seed, point, g, 1, n, prm, sids, sparams, n_extra, curves_shape, check, search
    )
    return (scores[0], int(winners[0]), int(status[0]), int(turns[0]), int(rounds[0]), extra[0], curves[0])
