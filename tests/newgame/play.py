"""Dice Race, the kernel: N players take turns rolling one die and moving their pawn that far along a track of
``track_len`` spaces; the first to reach the end wins (and scores the track's length; every other seat scores the
space it reached). A "dawdler" seat sometimes moves a single space instead of its roll (its own random stream).

Batch signature of kernels/README.md; extra = EXTRA_COLUMNS (first_seat, decisions: dawdler choices made,
top_rolls: rolls of the die's top face).
"""

from __future__ import annotations

import numpy as np

from kernels.batch import play_alone
from kernels.loop import bind
from kernels.rng import N_STREAMS_MAX
from kernels.trace import GameTrace
from newgame import step
from newgame.columns import EXTRA_COLUMNS
from newgame.scratch import BatchScratch
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
    """One `play_batch` call's scratch: a `scratch.BatchScratch` (its fields say what each holds)."""
    return BatchScratch(
        rng=np.zeros((N_STREAMS_MAX, 4), np.uint64),
        st=np.zeros(ST_SIZE, np.int32),
        log=np.zeros((LOG_CAP, 4), np.int32),
        mask=np.zeros(N_ACTIONS, np.int8),
        choices=np.zeros(1, np.int64),
    )


# the one game loop of kernels/loop.py over this game's step verbs (step.py)
play_batch = bind(step, "dice_race", "Games game0 .. game0 + n_games - 1 into rows 0 .. n_games - 1 (kernel contract).")


def trace_game(seed, point, g, n, prm, sids, sparams, log_len=1, steps_len=1, check=False, search=None):
    """Game ``g`` as `play_batch` plays it (`play_batch` over that one game): a `kernels.trace.GameTrace` whose log
    is int32[LOG_CAP, 4] (row 0 col 0: turns logged; then seat, roll, moved, reached per turn; ``log_len`` not
    used: the log is always that long); no steps (``steps_len`` not used). The arguments are every game's
    (`kernels.trace`); Dice Race has no search seat (``search`` must be None)."""
    scratch = batch_scratch(n, prm)
    o = play_alone(
        play_batch, scratch, np.uint64(seed), np.uint64(point), g, n, prm, sids, sparams, len(EXTRA_COLUMNS),
        check=check, search=search,
    )  # fmt: skip
    return GameTrace.of(o, scratch.log, None, scratch.st)
