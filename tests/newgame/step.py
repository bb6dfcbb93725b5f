"""Dice Race: the step verbs of the kernel contract (docs/dev/kernel-contract.md), which `kernels.loop` runs as
this game's `play_batch`: a new game follows the contract like the four real ones.

State ``st`` int32[ST_SIZE] (slots D_*); ``ws`` is the batch's scratch, `play.batch_scratch`: (rng, st, log, mask,
choices int64[1]). Each turn is a chance node (the die) then the seat's decision between two legal actions:
A_ROLL moves the roll, A_ONE one space (a runner always plays A_ROLL without drawing; a dawdler draws on its own
stream and counts its choice).
"""

from __future__ import annotations

import numpy as np

from kernels._jit import njit
from kernels.loop import CHANCE, OVER, TRUNCATED
from kernels.rng import bounded

MAX_SEATS = 6
D_TURN, D_WINNER, S_DECISIONS, D_TOP, D_ROLL, D_FIRST, D_N = 0, 1, 2, 3, 4, 5, 6
D_POS = 8  # [MAX_SEATS] space reached by seat
ST_SIZE = D_POS + MAX_SEATS
A_ROLL, A_ONE = 0, 1
N_ACTIONS = 2
P_TRACK, P_FACES, P_MAX_TURNS = 0, 1, 2
S_RUNNER, S_DAWDLER = 0, 1
ONE_IN = 1_000_000  # a probability as an integer threshold out of ONE_IN


@njit(inline="always")
def parts(batch):
    """(st int32[ST_SIZE], rng uint64[N_STREAMS_MAX, 4], ws) of a batch scratch."""
    return batch.st, batch.rng, batch


@njit(inline="always")
def log_mark(ws):
    """Rows of the event log written so far (ws.log; 0 without a log): where a traced search decision falls."""
    return ws.log[0, 0]


@njit(inline="always")
def action_mask(ws):
    """The legal-action mask int8[N_ACTIONS]."""
    return ws.mask


@njit(inline="always")
def prepare(sids, sparams, ws):
    """Nothing to set up per call."""


@njit(inline="always")
def new_game(st, prm, n, g, rng, ws):
    """Every pawn on space 0, nobody has won; returns the first seat g % n."""
    for i in range(ST_SIZE):
        st[i] = 0
    st[D_WINNER] = -1
    first = g % n
    st[D_FIRST] = first
    st[D_N] = n
    ws.choices[0] = 0
    return first


@njit(inline="always")
def resume_game(st, start, prm, n, g, rng, ws):
    """A game continued from the state ``start`` (int32[ST_SIZE]); returns its first seat."""
    for i in range(ST_SIZE):
        st[i] = start[i]
    ws.choices[0] = 0
    return st[D_FIRST]


@njit(inline="always")
def to_move(st, prm, n, first, ws):
    """The seat whose pawn moves, CHANCE before its roll, OVER once a pawn reached the end, TRUNCATED at the cap."""
    if st[D_WINNER] >= 0:
        return OVER
    if st[D_TURN] >= prm[P_MAX_TURNS]:
        return TRUNCATED
    if st[D_ROLL] == 0:
        return CHANCE
    return (first + st[D_TURN]) % n


@njit(inline="always")
def chance_outcomes(st, prm, ws):
    """The die's faces (outcome o is a roll of 1 + o)."""
    return prm[P_FACES]


@njit(inline="always")
def sample_chance(st, prm, rng, ws):
    """A roll on the chance stream: 1..die_faces."""
    return 1 + bounded(rng, 0, prm[P_FACES])


@njit(inline="always")
def apply_chance(st, prm, roll, ws):
    """The die shows ``roll``; 0."""
    st[D_ROLL] = roll
    st[D_TOP] += roll == prm[P_FACES]
    return 0


@njit(inline="always")
def legal_actions(st, prm, ws):
    """Both moves are legal: 2."""
    mask = ws.mask
    mask[A_ROLL] = 1
    mask[A_ONE] = 1
    return 2


@njit(inline="always")
def decide(st, prm, seat, nl, sids, sparams, rng, ws):
    """Runner: A_ROLL. Dawdler: A_ONE with chance w_slow on its own stream (rng row 1 + seat), counted in
    ws's choices (the extra column ``decisions``)."""
    if sids[seat] == S_DAWDLER:
        ws.choices[0] += 1
        if bounded(rng, 1 + seat, ONE_IN) < np.int64(sparams[seat, 0] * ONE_IN):
            return A_ONE
    return A_ROLL


@njit(inline="always")
def apply_action(st, prm, a, rng, ws):
    """The seat's pawn moves the roll (A_ROLL) or one space, up to the end (a win); the turn is logged; 0."""
    log = ws.log
    t = st[D_TURN]
    seat = (st[D_FIRST] + t) % st[D_N]
    roll = st[D_ROLL]
    move = roll if a == A_ROLL else 1
    track = prm[P_TRACK]
    p = min(st[D_POS + seat] + move, track)
    st[D_POS + seat] = p
    t += 1
    st[D_TURN] = t
    st[D_ROLL] = 0
    log[t, 0], log[t, 1], log[t, 2], log[t, 3] = seat, roll, move, p
    log[0, 0] = t
    if p == track:
        st[D_WINNER] = seat
    return 0


@njit(inline="always")
def invariants(st, prm):
    """No invariant checked: 0."""
    return 0


@njit(inline="always")
def outcome(st, prm, n, first, status, scores_row, extra_row, curves_row, ws):
    """Scores (the space reached; 0 when truncated), counters; returns (winners bitmask, turns, rounds)."""
    w = st[D_WINNER]
    for s in range(n):
        scores_row[s] = st[D_POS + s] if w >= 0 else 0
    extra_row[0] = first
    extra_row[1] = ws.choices[0]
    extra_row[2] = st[D_TOP]
    t = st[D_TURN]
    return (1 << w) if w >= 0 else 0, t, (t + n - 1) // n


@njit(inline="always")
def sample_hidden(st, seat, prm, rng, row, ws):
    """Nothing in a Dice Race is hidden (pawns and rolls are public): no change, no draw; returns 0."""
    return 0
