"""Helpers for the Moor kernel tests: parameter vectors, fresh states, and hand-built positions.

Everything writes through the documented offsets of kernels/moor/rules.py (RULES.md "State layout") and keeps the
state consistent (stacks, heights, tile locations, holdings, ghost sums, pawn occupancy), so the invariant checker
accepts a hand-built state exactly as it accepts a played one.
"""

from __future__ import annotations

import numpy as np

from kernels.moor import params as P
from kernels.moor import rules as R

DEFAULTS = {name: default for name, _kind, default, _dom, _help in P.PARAM_SPECS}
BONE, AXE, COIN, MASK, URN = range(5)
END = DEFAULTS["track_len"] + 1


def prm_of(**over) -> np.ndarray:
    """Parameter vector with the defaults, overridden by ``over`` (names of PARAM_SPECS)."""
    values = dict(DEFAULTS)
    values.update(over)
    assert P.check(values) is None, P.check(values)
    return P.pack(values)


def new_log(rows: int = 400) -> np.ndarray:
    return np.zeros((rows, R.LOG_W), dtype=np.int32)


def events(log) -> list[tuple]:
    """Logged events as tuples (kind, a, b, c, d, turn)."""
    return [tuple(int(x) for x in log[i]) for i in range(1, int(log[0, 0]) + 1)]


def kinds_of(log) -> list[int]:
    return [e[0] for e in events(log)]


def canonical_order(n: int) -> np.ndarray:
    """The 33 dealt tiles in canonical (unshuffled) order, as `deal_pool` writes them."""
    st = np.zeros(R.S_SIZE, dtype=np.int32)
    st[R.S_NPLAYERS] = n
    order = np.zeros(R.N_DEALT, dtype=np.int32)
    R.deal_pool(st, order)
    return order


def new_state(n: int = 4, order=None, prm=None, log=None):
    """(st, prm, log) after `new_game` (R1–R4) with the given (default canonical) dealt order."""
    prm = prm_of() if prm is None else prm
    log = new_log() if log is None else log
    st = np.zeros(R.S_SIZE, dtype=np.int32)
    order = canonical_order(n) if order is None else np.asarray(order, dtype=np.int32)
    R.new_game(st, prm, n, order, log)
    return st, prm, log


# ---- tile bookkeeping ---------------------------------------------------------------------------------------------
def tiles_on(st, s) -> list[int]:
    """Tile ids on space ``s``, bottom first."""
    h = int(st[R.S_HEIGHT + s])
    return [int(st[R.S_STACK + s * R.STACK + i]) for i in range(h)]


def held(st, p) -> list[int]:
    return [t for t in range(R.N_TILES) if st[R.S_TILE_LOC + t] == p]


def _unplace(st, prm, t):
    loc = int(st[R.S_TILE_LOC + t])
    if loc >= R.LOC_SPACE:
        s = loc - R.LOC_SPACE
        rest = [x for x in tiles_on(st, s) if x != t]
        _set_stack(st, s, rest)
    elif 0 <= loc < R.MAX_PLAYERS:
        k = int(R.tile_kind(t))
        st[R.S_HOLD + loc * R.N_KINDS + k] -= 1
        if k == R.K_GHOST:
            st[R.S_GHOST_SUM + loc] -= prm[R.P_GHOST_VALUES + t - R.GHOST0]
    st[R.S_TILE_LOC + t] = R.LOC_BOX


def _set_stack(st, s, tiles):
    for i in range(R.STACK):
        st[R.S_STACK + s * R.STACK + i] = -1
    for i, t in enumerate(tiles):
        st[R.S_STACK + s * R.STACK + i] = t
        st[R.S_TILE_LOC + t] = R.LOC_SPACE + s
    st[R.S_HEIGHT + s] = len(tiles)


def to_box(st, prm, t):
    _unplace(st, prm, t)


def put(st, prm, s, tiles):
    """Make ``tiles`` (bottom first) the whole stack of space ``s``; its old tiles go to the box."""
    for t in tiles_on(st, s):
        _unplace(st, prm, t)
    for t in tiles:
        _unplace(st, prm, t)
    _set_stack(st, s, list(tiles))


def give(st, prm, p, *tiles):
    """Move ``tiles`` (from wherever they are) into player ``p``'s face-up holdings."""
    for t in tiles:
        _unplace(st, prm, t)
        k = int(R.tile_kind(t))
        st[R.S_TILE_LOC + t] = p
        st[R.S_HOLD + p * R.N_KINDS + k] += 1
        if k == R.K_GHOST:
            st[R.S_GHOST_SUM + p] += prm[R.P_GHOST_VALUES + t - R.GHOST0]


def empty_hands(st, prm):
    for t in range(R.N_TILES):
        if 0 <= st[R.S_TILE_LOC + t] < R.MAX_PLAYERS:
            _unplace(st, prm, t)


def clear_board(st, prm):
    """Every tile on the track goes to the box (holdings are kept)."""
    for s in range(R.MAX_TRACK):
        for t in tiles_on(st, s):
            _unplace(st, prm, t)


def treasure(kind: int, i: int = 0) -> int:
    """Tile id of the ``i``-th treasure of type ``kind`` (0..4)."""
    return kind * R.PER_TYPE + i


def ghost(j: int) -> int:
    return R.GHOST0 + j


def plank(i: int) -> int:
    return R.PLANK0 + i


# ---- pawns and turns ------------------------------------------------------------------------------------------------
def sync_occupancy(st):
    """Recompute the caches of the pawn list: pawns per space (S_OCC) and pawns on End per player (S_HOME)."""
    occ = R.S_OCC
    st[occ : occ + R.MAX_TRACK] = 0
    st[R.S_HOME : R.S_HOME + R.MAX_PLAYERS] = 0
    for p in range(int(st[R.S_NPLAYERS])):
        for k in range(int(st[R.S_NPAWNS])):
            x = st[R.S_PAWN_POS + p * R.MAX_PAWNS + k]
            st[occ + x] += 1
            st[R.S_HOME + p] += x == st[R.S_END]


def set_pawns(st, p, positions):
    """Place player ``p``'s pawns on ``positions`` (one per pawn, in pawn order)."""
    assert len(positions) == st[R.S_NPAWNS]
    for k, s in enumerate(positions):
        st[R.S_PAWN_POS + p * R.MAX_PAWNS + k] = s
    sync_occupancy(st)


def pawn_pos(st, p, k) -> int:
    return int(st[R.S_PAWN_POS + p * R.MAX_PAWNS + k])


def park_all(st, end=None):
    """Every pawn of every player onto End (then tests move the ones they need)."""
    end = int(st[R.S_END]) if end is None else end
    for p in range(int(st[R.S_NPLAYERS])):
        set_pawns(st, p, [end] * int(st[R.S_NPAWNS]))


def blank(n: int = 4, prm=None, log=None):
    """A state after setup with an empty track, empty hands and every pawn home except those a test places.

    Player 0 is to act (chance node). Returns (st, prm, log).
    """
    st, prm, log = new_state(n, prm=prm, log=log)
    clear_board(st, prm)
    empty_hands(st, prm)
    park_all(st)
    st[R.S_CUR] = 0  # player 0 to act, round 1 open (as new_game leaves it)
    st[R.S_PHASE] = R.PH_ROLL
    log[0, 0] = 0
    return st, prm, log


def legal(st, prm) -> list[int]:
    mask = np.zeros(R.N_ACTIONS, dtype=np.int8)
    listed = np.full(R.N_ACTIONS, -1, dtype=np.int8)
    n = R.legal_actions(st, prm, mask, listed)
    out = [a for a in range(R.N_ACTIONS) if mask[a]]
    assert len(out) == n
    assert listed[:n].tolist() == out, "the list of legal actions (the random pick's) differs from the mask"
    return out


def turn(st, prm, log, roll, *actions):
    """Force the die (chance) then apply ``actions`` in order."""
    assert st[R.S_PHASE] == R.PH_ROLL
    R.apply_chance(st, roll, log)
    for a in actions:
        assert a in legal(st, prm), (a, legal(st, prm))
        R.apply_action(st, prm, a, log)


def pair(bottom: int, top: int) -> int:
    """Pair-discard action: kinds 0..4 treasure, 5 plank; ``bottom`` is placed first."""
    return R.A_DISCARD_PAIR + bottom * 6 + top


def score(st, prm, p) -> int:
    return int(R.score(st, prm, p))


def returns(st, prm):
    sc = np.zeros(R.MAX_PLAYERS, dtype=np.int32)
    w = int(R.returns(st, prm, sc))
    return [int(x) for x in sc[: int(st[R.S_NPLAYERS])]], w
