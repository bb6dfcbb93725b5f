"""Dice Race, the kernel: N players take turns rolling one die and moving their pawn that far along a track of
``track_len`` spaces; the first to reach the end wins (and scores the track's length; every other seat scores the
space it reached). A "dawdler" seat sometimes moves a single space instead of its roll (its own random stream).

Batch signature of kernels/README.md; extra = EXTRA_COLUMNS (first_seat, decisions: dawdler choices made,
top_rolls: rolls of the die's top face).
"""

from __future__ import annotations

import numpy as np

from kernels._jit import njit
from kernels.rng import N_STREAMS_MAX, bounded, seed_game
from newgame.columns import EXTRA_COLUMNS

RULES_VERSION = 1
P_TRACK, P_FACES, P_MAX_TURNS = 0, 1, 2
PARAM_SPECS = (
    ("track_len", "int", 20, (2, 200), "spaces from the start to the end of the track"),
    ("die_faces", "int", 6, (2, 20), "faces of the die (1..die_faces)"),
    ("max_turns", "int", 500, (1, 1000), "turn cap: a game still running after it is truncated"),
)
S_RUNNER, S_DAWDLER = 0, 1
STRATEGIES = (
    ("runner", S_RUNNER, "always moves the full roll"),
    ("dawdler", S_DAWDLER, "moves one space instead of the roll with chance w_slow"),
)
WEIGHT_SPECS = (("w_slow", 0.5, "chance (0..1) of moving one space instead of the roll"),)
N_SPARAMS = 1
LOG_CAP = 1001  # one row per turn (max_turns <= 1000) + the count in row 0
ONE_IN = 1_000_000  # a probability as an integer threshold out of ONE_IN


def pack(values: dict, players: int) -> np.ndarray:
    """Parameter values by name -> int64[3] vector ``prm`` (P_* offsets)."""
    return np.array([values["track_len"], values["die_faces"], values["max_turns"]], np.int64)


def batch_scratch(n, prm=None):
    """One `play_batch` call's scratch: the random streams, the pawns by seat, the last game's log int32[LOG_CAP, 4]
    (row 0 col 0: turns logged; then seat, roll, spaces moved, space reached per turn)."""
    return (
        np.zeros((N_STREAMS_MAX, 4), np.uint64),
        np.zeros(N_STREAMS_MAX, np.int64),
        np.zeros((LOG_CAP, 4), np.int32),
    )


@njit(entry=True)
def play_batch(
    seed, point, game0, n_games, n, prm, sids, sparams, scores, winners, turns, rounds, status, extra, curves, scratch
):
    """Games game0 .. game0 + n_games - 1 into rows 0 .. n_games - 1 (kernels/README.md "Batch signature")."""
    rng, pos, log = scratch
    track, faces, cap = prm[P_TRACK], prm[P_FACES], prm[P_MAX_TURNS]
    for ii in range(n_games):
        g = game0 + ii
        seed_game(rng, seed, point, g, n)
        first = g % n
        for s in range(n):
            pos[s] = 0
        t, winner, decisions, top = 0, -1, 0, 0
        while winner < 0 and t < cap:
            seat = (first + t) % n
            roll = 1 + bounded(rng, 0, faces)
            top += roll == faces
            move = roll
            if sids[seat] == S_DAWDLER:
                decisions += 1
                if bounded(rng, 1 + seat, ONE_IN) < np.int64(sparams[seat, 0] * ONE_IN):
                    move = 1
            pos[seat] = min(pos[seat] + move, track)
            t += 1
            log[t, 0], log[t, 1], log[t, 2], log[t, 3] = seat, roll, move, pos[seat]
            if pos[seat] == track:
                winner = seat
        log[0, 0] = t
        for s in range(n):
            scores[ii, s] = pos[s] if winner >= 0 else 0
        winners[ii] = (1 << winner) if winner >= 0 else 0
        status[ii] = 0 if winner >= 0 else 1
        turns[ii] = t
        rounds[ii] = (t + n - 1) // n
        extra[ii, 0] = first
        extra[ii, 1] = decisions
        extra[ii, 2] = top


def trace_game(seed, point, g, n, prm, sids, sparams):
    """Game ``g`` as `play_batch` plays it (`play_batch` over that one game): (log rows (seat, roll, moved,
    reached) per turn, scores int32[n], winners bitmask, status)."""
    out = [np.zeros((1, n), np.int32)] + [np.zeros(1, np.int32) for _ in range(4)]
    extra, curves, scratch = (
        np.zeros((1, len(EXTRA_COLUMNS)), np.int32),
        np.zeros((1, 0, 0), np.int32),
        batch_scratch(n, prm),
    )
    play_batch(
        np.uint64(seed),
        np.uint64(point),
        np.int64(g),
        np.int64(1),
        np.int64(n),
        prm,
        sids,
        sparams,
        out[0],
        out[1],
        out[2],
        out[3],
        out[4],
        extra,
        curves,
        scratch,
    )
    log = scratch[2]
    return (
        [tuple(int(x) for x in log[r]) for r in range(1, int(log[0, 0]) + 1)],
        out[0][0],
        int(out[1][0]),
        int(out[4][0]),
    )
