"""Dice Race, the kernel: N players take turns rolling one die and moving their pawn that far along a track of
``track_len`` spaces; the first to reach the end wins (and scores the track's length; every other seat scores the
space it reached). A "dawdler" seat sometimes moves a single space instead of its roll (its own random stream).

Batch signature of kernels/README.md; extra = EXTRA_COLUMNS (first_seat, decisions: dawdler choices made,
top_rolls: rolls of the die's top face).
"""

from __future__ import annotations

import numpy as np

from kernels.loop import bind
from kernels.rng import N_STREAMS_MAX
from newgame import step
from newgame.columns import EXTRA_COLUMNS
from newgame.step import N_ACTIONS, P_FACES, P_MAX_TURNS, P_TRACK, S_DAWDLER, S_RUNNER, ST_SIZE  # noqa: F401

RULES_VERSION = 1
PARAM_SPECS = (
    ("track_len", "int", 20, (2, 200), "spaces from the start to the end of the track"),
    ("die_faces", "int", 6, (2, 20), "faces of the die (1..die_faces)"),
    ("max_turns", "int", 500, (1, 1000), "turn cap: a game still running after it is truncated"),
)
STRATEGIES = (
    ("runner", S_RUNNER, "always moves the full roll"),
    ("dawdler", S_DAWDLER, "moves one space instead of the roll with chance w_slow"),
)
WEIGHT_SPECS = (("w_slow", 0.5, "chance (0..1) of moving one space instead of the roll"),)
N_SPARAMS = 1
LOG_CAP = 1001  # one row per turn (max_turns <= 1000) + the count in row 0


def pack(values: dict, players: int) -> np.ndarray:
    """Parameter values by name -> int64[3] vector ``prm`` (P_* offsets)."""
    return np.array([values["track_len"], values["die_faces"], values["max_turns"]], np.int64)


def batch_scratch(n, prm=None):
    """One `play_batch` call's scratch: (the random streams, the state int32[ST_SIZE], the last game's log
    int32[LOG_CAP, 4] (row 0 col 0: turns logged; then seat, roll, spaces moved, space reached per turn), the
    legal-action mask int8[2], a dawdler's choices int64[1])."""
    return (
        np.zeros((N_STREAMS_MAX, 4), np.uint64),
        np.zeros(ST_SIZE, np.int32),
        np.zeros((LOG_CAP, 4), np.int32),
        np.zeros(N_ACTIONS, np.int8),
        np.zeros(1, np.int64),
    )


# the one game loop of kernels/loop.py over this game's step verbs (step.py)
play_batch = bind(step, "dice_race", "Games game0 .. game0 + n_games - 1 into rows 0 .. n_games - 1 (kernel contract).")


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
