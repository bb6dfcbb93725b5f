"""Games played through a game's `play_batch` from plain Python: one game for a trace, or a checked batch.

Shared by every game's `trace_game` (and Treasure Hunters' `check_batch`). Plain Python on purpose: a compiled
helper taking `play_batch` as an argument would never load from Numba's cache (kernels/README.md, the contract).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class BatchOutputs(NamedTuple):
    """What `play_games` returns: the kernel's output arrays, row i = game game0 + i (int32 each). In the order
    `play_batch` takes them as arguments (``play_batch(..., *outputs, scratch)``)."""

    scores: np.ndarray  # [n_games, n]: each seat's final score (the game's own unit)
    winners: np.ndarray  # [n_games]: bitmask over seats (0: none, e.g. truncated)
    turns: np.ndarray  # [n_games]: turns played
    rounds: np.ndarray  # [n_games]: rounds played (the game's own count)
    status: np.ndarray  # [n_games]: ST_* of kernels/loop.py (0 done, 1 truncated, ...)
    extra: np.ndarray  # [n_games, n_extra]: the game's extra counters (its EXTRA_COLUMNS)
    curves: np.ndarray  # [n_games, *curves_shape]: per-round curves (-1 after the game's end)


class GameOutcome(NamedTuple):
    """What `play_alone` returns: one game's outputs (`BatchOutputs` row 0), the counts as Python ints."""

    scores: np.ndarray  # int32[n]
    winners: int  # bitmask over seats
    status: int
    turns: int
    rounds: int
    extra: np.ndarray  # int32[n_extra]
    curves: np.ndarray  # int32[*curves_shape]


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

    Returns a `BatchOutputs`: scores int32[n_games, n], winners, turns, rounds, status int32[n_games], extra
    int32[n_games, n_extra], curves int32[n_games, *curves_shape].
    """
    g, m, n = np.int64(game0), int(n_games), int(n)
    out = BatchOutputs(
        scores=np.zeros((m, n), np.int32),
        winners=np.zeros(m, np.int32),
        turns=np.zeros(m, np.int32),
        rounds=np.zeros(m, np.int32),
        status=np.zeros(m, np.int32),
        extra=np.zeros((m, n_extra), np.int32),
        curves=np.zeros((m, *curves_shape), np.int32),
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
    """Game ``g`` alone, exactly as a batch plays it (`play_games` over one game): a `GameOutcome` (scores
    int32[n], winners bitmask over seats, status, turns, rounds (ints), extra int32[n_extra], curves
    int32[*curves_shape])."""
    o = play_games(play_batch, scratch, seed, point, g, 1, n, prm, sids, sparams, n_extra, curves_shape, check, search)
    return GameOutcome(
        o.scores[0], int(o.winners[0]), int(o.status[0]), int(o.turns[0]), int(o.rounds[0]), o.extra[0], o.curves[0]
    )
