"""The Ghosts of Castle Turnwall: state layout and pure rule functions (clauses of kernels/turnwall/RULES.md).

State: one flat int32 vector ``st`` (S_SIZE); its first PHYS_SIZE entries are the *physical* state (ghost cells,
board orientation, sliders, pending placements): the move functions read and write only that block, so a planner
can search on small copies of it. Parameters: int64 ``prm`` (P_* offsets, built by params.pack with the board).
Seats index the ghosts: seat i plays ghost i (colour i, corner i). Chance enters only through `deal` (the cards of
the four decks), `stack_decks` (the order of the cards in each deck, hence the top card's back) and `swap_decks` (the
decks-moved variant). Decisions enter through `apply_action` (A_* ids).
Every function returns a status instead of raising (kernels/README.md).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from kernels._jit import njit
from kernels.eventlog import log_event
from kernels.rng import bounded

RULES_VERSION = 4

SIZE = 7
N_CELLS = 49
PLUG = 24
MAX_GHOSTS = 4
N_PARTS = 5
PER_PART = 4
N_GARMENTS = 20
N_DECKS = 4
N_TUNNELS = 5
N_SLIDERS = 3
SLIDER_LEN = 7
WALL_BITS = np.array([1, 2, 4, 8], dtype=np.int64)  # N, E, S, W (board.py WALL_*)
DR = np.array([-1, 0, 1, 0], dtype=np.int64)
DC = np.array([0, 1, 0, -1], dtype=np.int64)


def _rot_tables():
    b2f = np.zeros((4, N_CELLS), dtype=np.int64)
    f2b = np.zeros((4, N_CELLS), dtype=np.int64)
    for rot in range(4):
        for cell in range(N_CELLS):
            r, c = divmod(cell, SIZE)
            for _ in range(rot):  # one quarter turn clockwise: (r, c) -> (c, 6 - r)
                r, c = c, SIZE - 1 - r
            b2f[rot, cell] = r * SIZE + c
            f2b[rot, r * SIZE + c] = cell
    return b2f, f2b


B2F, F2B = _rot_tables()  # R1: board cell -> floor cell under it with the board turned rot quarters clockwise

# ---- C12: the sweep of a quarter turn (geometry in floor cells, computed once) ------------------------------------
GHOST_WIDTH = 1.0  # default: a ghost is one cell across (two touch when their centres are that far apart)
OVERLAP = 0.1  # a ghost stands on a cell when it covers at least this much of the cell's width
OFF_EDGE = 3.5  # half the board's width: a held ghost farther than this from the plug leaves the board


@functools.lru_cache(maxsize=8)
def sweep_tables(width: float = GHOST_WIDTH):
    """For ghosts ``width`` cells across (C12 parameter ghost_width_pct / 100), for a quarter turn in direction d (0 clockwise, 1 anticlockwise) of a ghost riding the board from floor cell m
    past a ghost standing still on floor cell s: TOUCH[d, m, s] = the turn angle (radians, 0..pi/2) at which they
    touch (inf when they never do), SPACES[d, m, s] = bit set of the floor cells the stopped ghost straddles there.
    OFF[c] = 1 when a ghost standing still over floor cell c is off the board at some moment of a quarter turn
    (its centre more than OFF_EDGE from the plug: the 3 cells at each corner). A ghost straddles the cells it covers
    by at least OVERLAP of their width (centre within 0.5 + width / 2 - OVERLAP on both axes)."""
    reach = width
    straddle = 0.5 + width / 2 - OVERLAP
    z = np.array([complex(c % SIZE - 3, c // SIZE - 3) for c in range(N_CELLS)])
    touch = np.full((2, N_CELLS, N_CELLS), np.inf)
    spaces = np.zeros((2, N_CELLS, N_CELLS), dtype=np.int64)
    for d in range(2):
        sign = 1.0 if d == 0 else -1.0  # clockwise on the page (rows grow southward): z * e^{i theta}
        theta = np.linspace(0.0, np.pi / 2, 1801)
        path = z[:, None] * np.exp(1j * sign * theta)[None, :]  # [m, step]
        for m in range(N_CELLS):
            dist = np.abs(path[m][None, :] - z[:, None])  # [s, step]
            inside = dist < reach - 1e-9
            for t in range(N_CELLS):
                if t == m or not inside[t].any():
                    continue
                k = int(np.argmax(inside[t]))
                lo, hi = theta[max(k - 1, 0)], theta[k]
                for _ in range(50):  # the exact touching angle between two samples
                    mid = (lo + hi) / 2
                    if abs(z[m] * np.exp(1j * sign * mid) - z[t]) < reach - 1e-9:
                        hi = mid
                    else:
                        lo = mid
                touch[d, m, t] = lo
                at = z[m] * np.exp(1j * sign * lo)
                mask = 0
                for c in range(N_CELLS):
                    if abs(z[c].real - at.real) < straddle and abs(z[c].imag - at.imag) < straddle:
                        mask |= 1 << c
                spaces[d, m, t] = mask
    off = (np.abs(z) > OFF_EDGE).astype(np.int64)
    return touch, spaces, off


SWEEP_TOUCH, SWEEP_SPACES, SWEEP_OFF = sweep_tables()  # the default width (tests read them)


def pack_sweep(prm: np.ndarray, width: float = GHOST_WIDTH) -> None:
    """Write the C12 tables for ghosts ``width`` cells across into the parameter vector (params.pack)."""
    touch, spaces, off = sweep_tables(float(width))
    prm[P_SWEEP_OFF : P_SWEEP_OFF + N_CELLS] = off
    ns = np.where(np.isfinite(touch), np.round(touch * 1e9), -1).astype(np.int64)
    prm[P_SWEEP_TOUCH : P_SWEEP_TOUCH + 2 * N_CELLS * N_CELLS] = ns.ravel()
    prm[P_SWEEP_SPACES : P_SWEEP_SPACES + 2 * N_CELLS * N_CELLS] = spaces.ravel()
    prm[P_GHOST_WIDTH] = round(width * 100)


# ---- parameter vector offsets ---------------------------------------------------------------------------------
P_MAX_TURNS = 0
P_MOVES = 1  # magical moves a turn (rulebook: 3)
P_MAX_OUT = 2  # B6: cells a slider may be pulled out
P_COLLISION = 3  # C6: 0 the turning ghost is displaced, 1 the held ghost is displaced
P_OFF_BOARD = 4  # C2: 0 a slider move that would put a ghost off the board is illegal, 1 that ghost stops
P_MUST_MOVE = 5  # C1: 1 = all moves must be used unless on a needed garment
P_DECKS_MOVED = 6  # C11: variant, decks put back in other places after a search
P_DECK_VIEW = 7  # M1: what the table sees of a deck: 0 nothing, 1 its size, 2 its size and top card's back
P_TUN_COL = 8  # [5] floor column of tunnel t
P_TUN_OF_COL = 13  # [7] tunnel under floor column c, -1 none
P_SL_TUNNEL = 20  # [3] start tunnel of slider s
P_GRIP = 23  # [3 * 4] bit k: slider s cell k grips ghost g
P_WALLS = 35  # [49] wall bits per board cell
P_GARMENT_AT = 84  # [49] garment id on the cell, -1 none
P_GARMENT_CELL = 133  # [20]
P_CORNER = 153  # [4]
P_ROOM = 157  # [49] room index, -1 plug
P_DECKS_TRACKED = 206  # C11: 1 every seat sees where a moved deck goes, 0 only the searcher
P_TURN_PHYSICS = 207  # 0 the sweep, no ghost passing through another (C12); 1 collisions at the end cells only
# (C6, version <= 2); 2 the sweep in which stopped and corner ghosts let riders pass (C13, version 3)
P_SWEEP_OFF = 208  # [49] SWEEP_OFF (in the parameters, not compiled in as constants: cold compile time)
P_SWEEP_TOUCH = 257  # [2 * 49 * 49] SWEEP_TOUCH in nanoradians (-1: never)
P_SWEEP_SPACES = P_SWEEP_TOUCH + 2 * N_CELLS * N_CELLS  # [2 * 49 * 49] SWEEP_SPACES
P_GHOST_WIDTH = P_SWEEP_SPACES + 2 * N_CELLS * N_CELLS  # C12: a ghost's width in percent of a space
P_SIZE = P_GHOST_WIDTH + 1

# ---- state offsets: physical block ------------------------------------------------------------------------------
S_GPOS = 0  # [4] board cell of ghost g (-1: not in play, or waiting to be placed)
S_ROT = 4  # board orientation: quarter turns clockwise from the start
S_STUN = 5  # [3] tunnel index of slider s
S_SPOS = 8  # [3] cells slider s is pulled out (0..max_out)
S_NG = 11  # ghosts in play (= players)
S_NPEND = 12  # ghosts waiting for a place after a turn (R10)
S_PEND = 13  # [4] ghost ids, in placement order
S_PANCHOR = 17  # [4] the cell each one was displaced from (end-cell physics), or SOLID_KEY + its stop (sweep:
# `stop_key`), or SWEEP_KEY + the index of its straddled cells in SWEEP_SPACES (version 3's sweep), or OFF_BOARD_KEY
# (on no space of the board, or nowhere to go but a corner)
PHYS_SIZE = 24
# ---- turn ---------------------------------------------------------------------------------------------------------
S_CUR = 24  # seat to act
S_FIRST = 25
S_PHASE = 26
S_MOVES_LEFT = 27
S_TURNS = 28
S_WINNER = 29  # seat, -1 none
S_DECISIONS = 30
S_LAST_DECK = 31  # last search: deck, garment, result (0 not found, 1 found, 2 card gone), searcher
S_LAST_GARMENT = 32
S_LAST_RESULT = 33
S_LAST_SEARCHER = 34
# ---- counters -------------------------------------------------------------------------------------------------------
S_DRAGS = 40
S_SLIDES = 41
S_SHIFTS = 42
S_ROTATIONS = 43
S_EJECTED = 44
S_DISPLACED = 45
S_PUSHED = 46
S_PLUG_STOPS = 47
S_FOUND = 48
S_NOT_FOUND = 49
S_WASTED = 50
S_SKIPPED = 51  # turns ended with moves left
S_PART_TAKEN = 52  # [5] garments taken by body part
S_PART_GONE = 57  # searches of a deck that no longer held a card of that body part
# ---- cards ----------------------------------------------------------------------------------------------------------
S_HAVE = 60  # [4] bit set of body parts each seat wears
S_DECK = 64  # [4 * 5] garment id in deck k, slot of part p (-1 taken)
S_CARD_LOC = 84  # [20] deck 0..3, or LOC_SEAT + seat when taken
# ---- what each seat remembers (memory.py writes it; strategies read their own rows) ---------------------------------
S_KNOW = 104  # [4 seats * 4 decks * 5 parts]: garment seen there, KNOW_EMPTY, or KNOW_UNSEEN
S_EXCL = 184  # [4 seats * 20 garments]: bit k = deck k is known not to hold the garment
S_MAY = 264  # [4 seats * 4 decks]: bit p = as far as the seat knows, deck k may still hold a part-p card
S_RANK = 280  # [4 decks * 5 parts]: place of the part-p card in deck k from the top (0 = top card)
S_VIEW = 300  # copies of P_DECK_VIEW and P_DECKS_TRACKED (memory.py reads them without the parameters)
S_TRACKED = 301
S_SEEN_KNOWN = 302  # [3] C5: bit k * 4 + g = the table has seen whether slider s's cell k grips ghost g
S_SEEN_GRIP = 305  # [3] ... and it grips (bits where known)
S_SEARCHED = 308  # bit o * 4 + k: the table saw seat o search the deck now at place k (M3; memory.py writes it,
#                    only the search's re-deal reads it: hidden.py, X2)
S_SIZE = 309

LOC_SEAT = 10
SWEEP_KEY = 1000
OFF_BOARD_KEY = 999
SOLID_KEY = 1 << 24  # + (d * N_CELLS + floor cell) << 21 + stop angle in microradians (< 2^21)
HALF_PI_NS = 1570796327  # a quarter turn in nanoradians (the unit of P_SWEEP_TOUCH)
KNOW_UNSEEN = -2
KNOW_EMPTY = -1

PH_MOVE = 0
PH_PLACE = 1
PH_OVER = 2

# ---- actions ----------------------------------------------------------------------------------------------------------
A_DRAG = 0  # + direction 0..3 (N, E, S, W on the board)
A_SLIDE = 4  # + slider * 2 + (0 push in: north, 1 pull out: south)
A_SHIFT = 10  # + slider * SHIFT_PER_SLIDER + tunnel * DEPTHS + depth (B6: any depth 0..max_out <= 6)
DEPTHS = 7
SHIFT_PER_SLIDER = 5 * DEPTHS
A_TURN = A_SHIFT + 3 * SHIFT_PER_SLIDER  # 115: + 0 clockwise, 1 anticlockwise
A_PLACE = A_TURN + 2  # 117: + cell: where the waiting ghost goes
A_SEARCH = A_PLACE + 49  # 166: + deck
A_END = A_SEARCH + 4  # 170: end the turn (no search)
N_ACTIONS = A_END + 1

# move kinds (counters, replay)
MK_DRAG = 0
MK_SLIDE = 1
MK_SHIFT = 2
MK_TURN = 3

# ---- events (replay) --------------------------------------------------------------------------------------------------
E_TURN = 1  # seat, moves
E_MOVE = 2  # action
E_PLACE = 3  # ghost, cell, ejected(0/1)
E_SEARCH = 4  # seat, deck, garment, result
E_END = 5  # seat, moves left
E_WIN = 6  # seat
E_DECKS = 7  # deck a, deck b swapped (variant)


@njit("int64(int64[::1], int64)")
def garment_at(prm, cell):
    return prm[P_GARMENT_AT + cell]


@njit("int64(int32[::1], int64)")
def ghost_at(st, cell):
    """Ghost on board cell ``cell``, -1 when empty."""
    for g in range(st[S_NG]):
        if st[S_GPOS + g] == cell:
            return g
    return -1


@njit("int64(int32[::1], int64)")
def slider_in(st, t):
    """Slider in tunnel ``t``, -1 when the tunnel is empty."""
    for s in range(N_SLIDERS):
        if st[S_STUN + s] == t:
            return s
    return -1


@njit("boolean(int32[::1], int64[::1], int64)")
def is_held(st, prm, g):
    """R4: ghost g stands over a gripping magnet of a slider below its cell."""
    b = st[S_GPOS + g]
    if b < 0:
        return False
    f = B2F[st[S_ROT], b]
    fr = f // SIZE
    t = prm[P_TUN_OF_COL + f % SIZE]
    if t < 0:
        return False
    s = slider_in(st, t)
    if s < 0:
        return False
    k = fr - st[S_SPOS + s]
    if k < 0 or k >= SLIDER_LEN:
        return False
    return (prm[P_GRIP + s * 4 + g] >> k) & 1 == 1


@njit("boolean(int32[::1], int64[::1], int64, int64)")
def can_drag(st, prm, g, d):
    """R5: one step orthogonally, not through a wall, not off the board, not onto the plug, not into a ghost."""
    b = st[S_GPOS + g]
    if b < 0 or (prm[P_WALLS + b] & WALL_BITS[d]) != 0:
        return False
    r = b // SIZE + DR[d]
    c = b % SIZE + DC[d]
    if r < 0 or r >= SIZE or c < 0 or c >= SIZE:
        return False
    to = r * SIZE + c
    return to != PLUG and ghost_at(st, to) < 0


@njit("int64(int64, int64)")
def _row_ghost(pack, r):
    return ((pack >> (4 * r)) & 15) - 1


@njit("int64(int32[::1], int64[::1], int64, int64, boolean)")
def slide(st, prm, s, d, apply):
    """R6: move slider ``s`` one cell (d = 0 push in: north on the floor, 1 pull out: south).

    Held ghosts in the tunnel's corridor move with it, through walls, pushing the ghosts directly ahead (C3); a ghost
    that would enter the plug stops where it is, and so do those behind it; a ghost that would leave the board makes
    the move illegal (C2; with off_board = 1 it stops instead). Returns -1 when illegal (nothing changed), else
    pushed * 8 + plug stops; changes ``st`` only when ``apply``."""
    p = st[S_SPOS + s]
    step = 1 if d == 1 else -1
    if p + step < 0 or p + step > prm[P_MAX_OUT]:
        return -1
    col = prm[P_TUN_COL + st[S_STUN + s]]
    rot = st[S_ROT]
    pack = 0  # ghost + 1 in the 4-bit field of its floor row, for the ghosts in this corridor
    held = 0  # bit set of held ghosts
    for g in range(st[S_NG]):
        b = st[S_GPOS + g]
        if b < 0:
            continue
        f = B2F[rot, b]
        if f % SIZE == col:
            pack |= (g + 1) << (4 * (f // SIZE))
            if is_held(st, prm, g):
                held |= 1 << g
    mv = 0
    r0 = 0 if step == 1 else SIZE - 1  # the back of the corridor for this direction
    for i in range(SIZE):  # pass 1, back to front: held ghosts and those they push
        r = r0 + i * step
        g = _row_ghost(pack, r)
        if g < 0:
            continue
        rb = r - step
        behind = _row_ghost(pack, rb) if 0 <= rb < SIZE else -1
        if (held >> g) & 1 or (behind >= 0 and (mv >> behind) & 1):
            mv |= 1 << g
    stops = 0
    for i in range(SIZE):  # pass 2, front to back: who is blocked
        r = SIZE - 1 - r0 - i * step
        g = _row_ghost(pack, r)
        if g < 0 or (mv >> g) & 1 == 0:
            continue
        t = r + step
        if t < 0 or t >= SIZE:
            if prm[P_OFF_BOARD] == 0:
                return -1
            mv &= ~(1 << g)
        elif t * SIZE + col == PLUG:
            mv &= ~(1 << g)
            stops += 1
        else:
            ahead = _row_ghost(pack, t)
            if ahead >= 0 and (mv >> ahead) & 1 == 0:
                mv &= ~(1 << g)
    pushed = 0
    for g in range(st[S_NG]):
        if (mv >> g) & 1 and (held >> g) & 1 == 0:
            pushed += 1
    if apply:
        for g in range(st[S_NG]):
            if (mv >> g) & 1:
                f = B2F[rot, st[S_GPOS + g]] + step * SIZE
                st[S_GPOS + g] = F2B[rot, f]
        st[S_SPOS + s] = p + step
    return pushed * 8 + stops


@njit("boolean(int32[::1], int64[::1], int64)")
def corridor_free(st, prm, t):
    """R7: no ghost stands on the line of floor cells above tunnel ``t``."""
    col = prm[P_TUN_COL + t]
    rot = st[S_ROT]
    for g in range(st[S_NG]):
        b = st[S_GPOS + g]
        if b >= 0 and B2F[rot, b] % SIZE == col:
            return False
    return True


@njit("boolean(int32[::1], int64[::1], int64, int64, int64)")
def can_shift(st, prm, s, t, depth):
    """R7: slider ``s`` out of its tunnel into empty tunnel ``t`` at ``depth`` (cells left out, 0..max_out), both
    corridors free of ghosts."""
    if depth > prm[P_MAX_OUT] or st[S_STUN + s] == t or slider_in(st, t) >= 0:
        return False
    return corridor_free(st, prm, st[S_STUN + s]) and corridor_free(st, prm, t)


@njit("int64(int32[::1], int64)")
def free_neighbours(st, cell):
    """Bit set of the board cells next to ``cell`` (orthogonal, on the board) that are neither the plug nor occupied."""
    m = 0
    for d in range(4):
        r = cell // SIZE + DR[d]
        c = cell % SIZE + DC[d]
        if 0 <= r < SIZE and 0 <= c < SIZE:
            to = r * SIZE + c
            if to != PLUG and ghost_at(st, to) < 0:
                m |= 1 << to
    return m


@njit("int64(int32[::1], int64[::1])")
def free_corners(st, prm):
    m = 0
    for i in range(4):
        c = prm[P_CORNER + i]
        if ghost_at(st, c) < 0:
            m |= 1 << c
    return m


@njit("int64(int64[::1], int64)")
def stop_spaces(prm, key):
    """C12: bit set of the floor cells (never the plug) that a ghost stopped by the sweep stands on after the turn:
    those it covers by at least OVERLAP of their width (its centre within 0.5 + width / 2 - OVERLAP of theirs on both
    axes). ``key`` = `stop_key` (where it rode from, which way, how far)."""
    k = key - SOLID_KEY
    t = (k & ((1 << 21) - 1)) * 1e-6
    df = k >> 21
    f = df % N_CELLS
    sgn = 1.0 if df < N_CELLS else -1.0
    x0 = f % SIZE - 3.0
    y0 = f // SIZE - 3.0
    c = math.cos(t)
    s = sgn * math.sin(t)
    x = x0 * c - y0 * s  # the floor point (x east, y south of the plug) turned by t: z * e^{i sgn t}
    y = x0 * s + y0 * c
    reach = 0.5 + prm[P_GHOST_WIDTH] / 200.0 - OVERLAP
    m = 0
    for r in range(SIZE):
        if abs(r - 3.0 - y) < reach:
            for col in range(SIZE):
                if abs(col - 3.0 - x) < reach and r * SIZE + col != PLUG:
                    m |= 1 << (r * SIZE + col)
    return m


@njit("int64(int64, int64, int64)")
def stop_key(d, f, t_ns):
    """C12: the S_PANCHOR key of a ghost that rode from floor cell ``f`` in direction ``d`` and stopped after
    ``t_ns`` nanoradians (kept to microradians: a position within 5e-6 of a cell)."""
    return SOLID_KEY + ((d * N_CELLS + f) << 21) + t_ns // 1000


@njit("int64(int32[::1], int64[::1])")
def place_spaces(st, prm):
    """R10: the free cells the first waiting ghost may be put into, before the corners: the cells it straddles
    (sweep, C12 and C13) or the neighbours of the cell it was displaced from (end-cell physics); 0 when it is on no
    space."""
    a = st[S_PANCHOR]
    if a == OFF_BOARD_KEY:
        return 0
    if a < SWEEP_KEY:
        return free_neighbours(st, a)
    floor = stop_spaces(prm, a) if a >= SOLID_KEY else prm[P_SWEEP_SPACES + a - SWEEP_KEY]
    rot = st[S_ROT]
    m = 0
    for c in range(N_CELLS):
        if (floor >> c) & 1:
            b = F2B[rot, c]
            if b != PLUG and ghost_at(st, b) < 0:
                m |= 1 << b
    return m


@njit("int64(int32[::1], int64[::1])")
def place_options(st, prm):
    """R10: cells the first waiting ghost may go to: a free cell it straddles (sweep) or next to the cell it was
    displaced from (end-cell physics), or, when there is none (pushed off the board), an empty corner. Bit set of
    cells; 0 when nobody waits."""
    if st[S_NPEND] == 0:
        return 0
    m = place_spaces(st, prm)
    return m if m != 0 else free_corners(st, prm)


@njit("int64(int32[::1], int64[::1], int64)")
def place(st, prm, cell):
    """Put the first waiting ghost on ``cell`` (one of `place_options`); returns 1 if it was an ejection (R10)."""
    g = st[S_PEND]
    ej = 1 if place_spaces(st, prm) == 0 else 0
    st[S_GPOS + g] = cell
    n = st[S_NPEND] - 1
    for i in range(n):
        st[S_PEND + i] = st[S_PEND + i + 1]
        st[S_PANCHOR + i] = st[S_PANCHOR + i + 1]
    st[S_NPEND] = n
    return ej


@njit("int64(int64)")
def lowest_bit(m):
    """Index of the lowest set bit of m > 0."""
    i = 0
    while (m >> i) & 1 == 0:
        i += 1
    return i


@njit("int64(int32[::1], int64[::1], int32[:, ::1], int64)")
def place_forced(st, prm, log, t):
    """Place waiting ghosts while each has exactly one option (no choice to make); returns ejections."""
    ej = 0
    while st[S_NPEND] > 0:
        m = place_options(st, prm)
        if m & (m - 1) != 0:
            break
        g = st[S_PEND]
        c = lowest_bit(m)
        e = place(st, prm, c)
        log_event(log, t, E_PLACE, g, c, e, 0)
        ej += e
    return ej


@njit("int64(int32[::1], int64[::1])")
def place_first_options(st, prm):
    """Resolve every waiting ghost with its lowest-numbered option (the planner's simulation, C6); returns
    ejections."""
    ej = 0
    while st[S_NPEND] > 0:
        ej += place(st, prm, lowest_bit(place_options(st, prm)))
    return ej


@njit("int64(int32[::1], int64[::1], int64)")
def sweep_stops(st, prm, d):
    """C12: how each ghost meets the others during a quarter turn in direction ``d``, before anything moves. Writes
    S_PANCHOR[g]: -2 not on the board, -1 rides the board to the end, else the turn angle (nanoradians) from which
    g stands still over the floor: 0 for a held ghost and for a rider stopped at once. Ghosts are solid: a rider stops
    where it first touches any ghost standing still (held from the start, or a rider stopped before it); riders
    turn together and never meet. Events are taken in angle order (ties: lowest ghost first), so a ghost stopped at
    angle T is an obstacle from T on: its contact with a later rider is T + SWEEP_TOUCH of their start cells (the
    two were at those relative places when it stopped). Returns the bit set of held ghosts."""
    old = st[S_ROT]
    n = st[S_NG]
    held = 0
    for g in range(MAX_GHOSTS):
        if g >= n or st[S_GPOS + g] < 0:
            st[S_PANCHOR + g] = -2
        elif is_held(st, prm, g):
            st[S_PANCHOR + g] = 0
            held |= 1 << g
        else:
            st[S_PANCHOR + g] = -1
    while True:
        best = -1
        who = -1
        for m in range(n):
            if st[S_PANCHOR + m] != -1:
                continue
            base = P_SWEEP_TOUCH + (d * N_CELLS + B2F[old, st[S_GPOS + m]]) * N_CELLS
            for o in range(n):
                at = st[S_PANCHOR + o]
                if at < 0:
                    continue
                t = prm[base + B2F[old, st[S_GPOS + o]]]
                if t >= 0 and at + t < HALF_PI_NS and (who < 0 or at + t < best):
                    best = at + t
                    who = m
        if who < 0:
            return held
        st[S_PANCHOR + who] = best


@njit("int64(int32[::1], int64[::1], int64)")
def turn_solid(st, prm, d):
    """C12 (default): a quarter turn swept with solid ghosts (`sweep_stops`). Held ghosts stand still over the floor
    and so stay on the board; riders that were not stopped keep their board cells; a stopped rider stands where it
    stopped while the board turns on beneath it. After the turn (the rulebook's "When it is finished turning"): a
    stopped ghost on exactly one space stays there; ghosts on several spaces wait, in ghost order, to be put into one
    of them; then ghosts on no space of the board (pushed off) wait for an empty corner (R10). A ghost on one space
    that is taken (possible only for ghosts narrower than a space) waits for a corner too. Returns the number of
    riders stopped on the way."""
    old = st[S_ROT]
    new = (old + (1 if d == 0 else 3)) % 4
    held = sweep_stops(st, prm, d)
    n = st[S_NG]
    stopped = 0
    several = 0
    nowhere = 0
    for g in range(n):  # the stop angle becomes the key of the spaces g stands on
        t = st[S_PANCHOR + g]
        if t < 0 or (held >> g) & 1:
            continue
        stopped |= 1 << g
        f = B2F[old, st[S_GPOS + g]]
        key = stop_key(d, f, t)
        sp = stop_spaces(prm, key)
        st[S_PANCHOR + g] = key
        st[S_GPOS + g] = -1
        if sp == 0:
            nowhere |= 1 << g
        elif sp & (sp - 1) != 0:
            several |= 1 << g
        else:
            st[S_PEND + g] = F2B[new, lowest_bit(sp)]  # its one space, on the turned board
    for g in range(n):
        if (held >> g) & 1:
            st[S_GPOS + g] = F2B[new, B2F[old, st[S_GPOS + g]]]
    st[S_ROT] = new
    for g in range(n):  # ghosts on one space stay, in ghost order
        if (stopped >> g) & 1 and not (several >> g) & 1 and not (nowhere >> g) & 1:
            b = st[S_PEND + g]
            if ghost_at(st, b) < 0:
                st[S_GPOS + g] = b
            else:
                nowhere |= 1 << g
    q = 0
    for g in range(n):  # the queue: several spaces first (q <= g: in place), then nowhere
        if (several >> g) & 1:
            st[S_PEND + q] = g
            st[S_PANCHOR + q] = st[S_PANCHOR + g]
            q += 1
    for g in range(n):
        if (nowhere >> g) & 1:
            st[S_PEND + q] = g
            st[S_PANCHOR + q] = OFF_BOARD_KEY
            q += 1
    for i in range(q, MAX_GHOSTS):
        st[S_PEND + i] = -1
        st[S_PANCHOR + i] = -1
    st[S_NPEND] = q
    n_stopped = 0
    for g in range(n):
        n_stopped += (stopped >> g) & 1
    return n_stopped


@njit("int64(int32[::1], int64[::1], int64)")
def turn_pass_through(st, prm, d):
    """C13 (option `turn_physics = "sweep_pass_through"`, version 3): a quarter turn swept. Held ghosts stand still over the floor; a held ghost over one of the 3
    floor cells at a corner is left off the board as the board's corner turns away beneath it (it waits for an empty
    corner). Every other ghost rides the board along its arc and stops where it first touches a held ghost still on
    the board (a ghost one cell across; the first it touches); it waits to be put into one of the spaces it
    straddles there. Waiting ghosts are queued in ghost order. Returns the number of ghosts displaced or left off."""
    old = st[S_ROT]
    new = (old + (1 if d == 0 else 3)) % 4
    held = 0
    for g in range(st[S_NG]):
        if is_held(st, prm, g):
            held |= 1 << g
    for g in range(st[S_NG]):  # pass 1, on the old positions: who waits, and why
        st[S_PANCHOR + g] = -1
        b = st[S_GPOS + g]
        if b < 0:
            continue
        f = B2F[old, b]
        if (held >> g) & 1:
            if prm[P_SWEEP_OFF + f] != 0:
                st[S_PANCHOR + g] = OFF_BOARD_KEY
            continue
        first = -1
        for h in range(st[S_NG]):
            if (held >> h) & 1 == 0:
                continue
            fh = B2F[old, st[S_GPOS + h]]
            i = (d * N_CELLS + f) * N_CELLS + fh
            t = prm[P_SWEEP_TOUCH + i]
            if prm[P_SWEEP_OFF + fh] == 0 and t >= 0 and (first < 0 or t < first):
                first = t
                st[S_PANCHOR + g] = SWEEP_KEY + i
    for g in range(st[S_NG]):  # pass 2: held ghosts stay over the floor
        if (held >> g) & 1 and st[S_PANCHOR + g] < 0:
            st[S_GPOS + g] = F2B[new, B2F[old, st[S_GPOS + g]]]
    n = 0
    for g in range(st[S_NG]):  # pass 3: the queue, in ghost order (n <= g: in place)
        key = st[S_PANCHOR + g]
        st[S_PANCHOR + g] = -1
        if key < 0:
            continue
        st[S_PEND + n] = g
        st[S_PANCHOR + n] = key
        st[S_GPOS + g] = -1
        n += 1
    st[S_NPEND] = n
    st[S_ROT] = new
    return n


@njit("int64(int32[::1], int64[::1], int64)")
def turn_board(st, prm, d):
    """R8: turn the board a quarter (d = 0 clockwise, 1 anticlockwise). Held ghosts stay over the floor (so they move
    on the board), the others turn with the board. A turning ghost that arrives on a held ghost's cell is displaced
    (C6; collision = 1: the held ghost is displaced instead) and waits for a place (R10). Returns the number of
    displaced ghosts. With C12's sweep (the default) the turn is `turn_solid`, with C13's `turn_pass_through`; this is
    the end-cell option (C6)."""
    if prm[P_TURN_PHYSICS] == 0:
        return turn_solid(st, prm, d)
    if prm[P_TURN_PHYSICS] == 2:
        return turn_pass_through(st, prm, d)
    old = st[S_ROT]
    new = (old + (1 if d == 0 else 3)) % 4
    held = 0
    for g in range(st[S_NG]):
        if is_held(st, prm, g):
            held |= 1 << g
    for g in range(st[S_NG]):
        if (held >> g) & 1:
            st[S_GPOS + g] = F2B[new, B2F[old, st[S_GPOS + g]]]
    st[S_ROT] = new
    n = 0
    for h in range(st[S_NG]):
        if (held >> h) & 1 == 0:
            continue
        for m in range(st[S_NG]):
            if m != h and (held >> m) & 1 == 0 and st[S_GPOS + m] == st[S_GPOS + h]:
                loser = m if prm[P_COLLISION] == 0 else h
                st[S_PEND + st[S_NPEND]] = loser
                st[S_PANCHOR + st[S_NPEND]] = st[S_GPOS + h]
                st[S_NPEND] += 1
                st[S_GPOS + loser] = -1
                n += 1
                break
    return n


@njit("void(int32[::1], int64[::1], int64, boolean)")
def see_grip(st, prm, g, grips):
    """C5: the table has seen whether the magnet cell under ghost ``g`` grips it (S_SEEN_*)."""
    b = st[S_GPOS + g]
    if b < 0:
        return
    f = B2F[st[S_ROT], b]
    t = prm[P_TUN_OF_COL + f % SIZE]
    s = slider_in(st, t) if t >= 0 else -1
    if s < 0:
        return
    k = f // SIZE - st[S_SPOS + s]
    if k < 0 or k >= SLIDER_LEN:
        return
    bit = 1 << (k * MAX_GHOSTS + g)
    st[S_SEEN_KNOWN + s] |= bit
    if grips:
        st[S_SEEN_GRIP + s] |= bit
    else:
        st[S_SEEN_GRIP + s] &= ~bit


@njit("void(int32[::1], int64[::1], int64)")
def see_turn(st, prm, d):
    """C5 with C12's solid ghosts: what the table sees of a quarter turn in direction ``d`` (called before it). A
    ghost that rides, even part of the way, shows that nothing grips it; one that stands still shows a grip, unless a
    ghost it turns towards at once stands still too (then it would stand still gripped or not: nothing is seen)."""
    sweep_stops(st, prm, d)
    old = st[S_ROT]
    n = st[S_NG]
    for g in range(n):
        if st[S_PANCHOR + g] == -2:
            continue
        if st[S_PANCHOR + g] != 0:
            see_grip(st, prm, g, False)
            continue
        base = P_SWEEP_TOUCH + (d * N_CELLS + B2F[old, st[S_GPOS + g]]) * N_CELLS
        blocked = False
        for o in range(n):
            if o != g and st[S_PANCHOR + o] == 0 and prm[base + B2F[old, st[S_GPOS + o]]] == 0:
                blocked = True
        if not blocked:
            see_grip(st, prm, g, True)
    for g in range(MAX_GHOSTS):
        st[S_PANCHOR + g] = -1


@njit("void(int32[::1], int64[::1], int64, int64)")
def see_move(st, prm, a, before):
    """C5, what everyone sees of magical move ``a`` (called before it with before = 1, after it with 0): a board turn
    shows of every ghost over a slider whether it is held (it stands still over the floor) or not (it rides the
    board); a slide shows a grip under each ghost that moved with no moving ghost behind it to push it. Nothing
    else about the magnets is visible (the rulebook: "you may not test beforehand")."""
    if a >= A_TURN and before == 1 and prm[P_TURN_PHYSICS] == 0:
        see_turn(st, prm, a - A_TURN)
    elif a >= A_TURN and before == 1:
        for g in range(st[S_NG]):
            see_grip(st, prm, g, is_held(st, prm, g))
    elif A_SLIDE <= a < A_SHIFT and before == 1:
        for g in range(st[S_NG]):  # the cells before the slide, kept in S_PANCHOR (unused now)
            st[S_PANCHOR + g] = st[S_GPOS + g]
    elif A_SLIDE <= a < A_SHIFT:
        k = a - A_SLIDE
        s = k // 2
        step = 1 if k % 2 == 1 else -1
        rot = st[S_ROT]
        for g in range(st[S_NG]):
            b0 = st[S_PANCHOR + g]
            if b0 < 0 or b0 == st[S_GPOS + g]:
                continue
            f0 = B2F[rot, b0]
            pushed = False
            for h in range(st[S_NG]):
                bh = st[S_PANCHOR + h]
                if h != g and bh >= 0 and bh != st[S_GPOS + h] and B2F[rot, bh] == f0 - step * SIZE:
                    pushed = True
            if not pushed:
                kk = f0 // SIZE - (st[S_SPOS + s] - step)  # the slider's cell under it before the slide
                if 0 <= kk < SLIDER_LEN:
                    bit = 1 << (kk * MAX_GHOSTS + g)
                    st[S_SEEN_KNOWN + s] |= bit
                    st[S_SEEN_GRIP + s] |= bit
        for g in range(st[S_NG]):
            st[S_PANCHOR + g] = -1


@njit("int64(int32[::1], int64[::1], int64, int64)")
def move_legal(st, prm, g, a):
    """1 when magical move ``a`` (A_DRAG .. A_TURN + 1) is legal for ghost ``g``'s player (ignores moves left);
    reads only the physical block of ``st``."""
    if a < A_SLIDE:
        return 1 if can_drag(st, prm, g, a - A_DRAG) else 0
    if a < A_SHIFT:
        k = a - A_SLIDE
        return 1 if slide(st, prm, k // 2, k % 2, False) >= 0 else 0
    if a < A_TURN:
        k = a - A_SHIFT
        return 1 if can_shift(st, prm, k // SHIFT_PER_SLIDER, (k % SHIFT_PER_SLIDER) // DEPTHS, k % DEPTHS) else 0
    return 1


@njit("int64(int32[::1], int64[::1], int64, int64)")
def do_move(st, prm, g, a):
    """Apply legal magical move ``a`` of ghost ``g``'s player to the physical block of ``st``: returns a code for the
    counters (drag/shift 0; slide pushed * 8 + plug stops; turn: displaced ghosts)."""
    if a < A_SLIDE:
        d = a - A_DRAG
        b = st[S_GPOS + g]
        st[S_GPOS + g] = (b // SIZE + DR[d]) * SIZE + b % SIZE + DC[d]
        return 0
    if a < A_SHIFT:
        k = a - A_SLIDE
        return slide(st, prm, k // 2, k % 2, True)
    if a < A_TURN:
        k = a - A_SHIFT
        st[S_STUN + k // SHIFT_PER_SLIDER] = (k % SHIFT_PER_SLIDER) // DEPTHS
        st[S_SPOS + k // SHIFT_PER_SLIDER] = k % DEPTHS
        return 0
    return turn_board(st, prm, a - A_TURN)


@njit("int64(int64)")
def move_kind(a):
    if a < A_SLIDE:
        return MK_DRAG
    if a < A_SHIFT:
        return MK_SLIDE
    if a < A_TURN:
        return MK_SHIFT
    return MK_TURN


@njit("int64(int32[::1], int64[::1], int64)")
def needed_garment(st, prm, seat):
    """R12: the garment under ``seat``'s ghost when its body part is still missing, else -1."""
    b = st[S_GPOS + seat]
    if b < 0:
        return -1
    gm = prm[P_GARMENT_AT + b]
    if gm < 0 or (st[S_HAVE + seat] >> (gm // PER_PART)) & 1:
        return -1
    return gm


@njit
def init(st, prm, n, first):
    """R2 (set-up): board in the start orientation, sliders in their start tunnels fully in, ghost i on corner i,
    seat ``first`` to act; the decks are empty until `deal`. Memory: nothing seen. ``st`` is int32[S_SIZE]."""
    for i in range(S_SIZE):
        st[i] = 0
    for g in range(MAX_GHOSTS):
        st[S_GPOS + g] = prm[P_CORNER + g] if g < n else -1
        st[S_PEND + g] = -1
        st[S_PANCHOR + g] = -1
    st[S_NG] = n
    for s in range(N_SLIDERS):
        st[S_STUN + s] = prm[P_SL_TUNNEL + s]
    st[S_CUR] = first
    st[S_FIRST] = first
    st[S_PHASE] = PH_MOVE
    st[S_MOVES_LEFT] = prm[P_MOVES]
    st[S_WINNER] = -1
    st[S_LAST_DECK] = -1
    for i in range(N_DECKS * N_PARTS):
        st[S_DECK + i] = -1
    for i in range(MAX_GHOSTS * N_DECKS * N_PARTS):
        st[S_KNOW + i] = KNOW_UNSEEN
    for i in range(MAX_GHOSTS * N_DECKS):
        st[S_MAY + i] = (1 << N_PARTS) - 1
    for k in range(N_DECKS):
        for p in range(N_PARTS):
            st[S_RANK + k * N_PARTS + p] = p
    st[S_VIEW] = prm[P_DECK_VIEW]
    st[S_TRACKED] = prm[P_DECKS_TRACKED]


@njit
def deal(st, order):
    """R2 chance: ``order`` int32[20] holds, for part p, the garments of decks 0..3 at order[p * 4 .. p * 4 + 3]
    (a permutation of that part's 4 garments), so each deck has one card of each back."""
    for p in range(N_PARTS):
        for k in range(N_DECKS):
            gm = order[p * PER_PART + k]
            st[S_DECK + k * N_PARTS + p] = gm
            st[S_CARD_LOC + gm] = k


@njit("void(int32[::1], uint64[:, ::1])")
def stack_decks(st, rng):
    """R2 chance (M1): the order of the five cards in each face-down deck, a uniformly random permutation per deck
    drawn from chance stream 0 after the deal; the searcher puts the rest back in the same order (C8), so the top
    card of a deck is its remaining card of lowest rank."""
    for k in range(N_DECKS):
        for p in range(N_PARTS):
            st[S_RANK + k * N_PARTS + p] = p
        for i in range(N_PARTS - 1, 0, -1):
            j = bounded(rng, 0, i + 1)
            x = st[S_RANK + k * N_PARTS + i]
            st[S_RANK + k * N_PARTS + i] = st[S_RANK + k * N_PARTS + j]
            st[S_RANK + k * N_PARTS + j] = x


@njit("int64(int32[::1], int64)")
def deck_size(st, k):
    """M1: cards left in deck ``k`` (what the table sees of its height)."""
    n = 0
    for p in range(N_PARTS):
        if st[S_DECK + k * N_PARTS + p] >= 0:
            n += 1
    return n


@njit("int64(int32[::1], int64)")
def top_back(st, k):
    """M1: the body part on the back of deck ``k``'s top card, -1 when the deck is empty."""
    best = -1
    for p in range(N_PARTS):
        if st[S_DECK + k * N_PARTS + p] >= 0 and (
            best < 0 or st[S_RANK + k * N_PARTS + p] < st[S_RANK + k * N_PARTS + best]
        ):
            best = p
    return best


@njit("void(int32[::1], int64, int64)")
def swap_decks(st, a, b):
    """C11 variant chance: decks ``a`` and ``b`` change places (their cards, in their order, travel with them)."""
    for p in range(N_PARTS):
        x = st[S_DECK + a * N_PARTS + p]
        st[S_DECK + a * N_PARTS + p] = st[S_DECK + b * N_PARTS + p]
        st[S_DECK + b * N_PARTS + p] = x
        x = st[S_RANK + a * N_PARTS + p]
        st[S_RANK + a * N_PARTS + p] = st[S_RANK + b * N_PARTS + p]
        st[S_RANK + b * N_PARTS + p] = x
    for gm in range(N_GARMENTS):
        if st[S_CARD_LOC + gm] == a:
            st[S_CARD_LOC + gm] = b
        elif st[S_CARD_LOC + gm] == b:
            st[S_CARD_LOC + gm] = a


@njit("int64(int32[::1], int64[::1], int8[::1])")
def legal_actions(st, prm, mask):
    """Fill ``mask`` (int8[N_ACTIONS]) with the legal actions of the seat to act; returns how many (R5..R13)."""
    for i in range(N_ACTIONS):
        mask[i] = 0
    if st[S_PHASE] == PH_OVER:
        return 0
    n = 0
    if st[S_PHASE] == PH_PLACE:
        m = place_options(st, prm)
        for c in range(N_CELLS):
            if (m >> c) & 1:
                mask[A_PLACE + c] = 1
                n += 1
        return n
    seat = st[S_CUR]
    moves = 0
    if st[S_MOVES_LEFT] > 0:
        for a in range(A_DRAG, A_PLACE):
            if A_SHIFT <= a < A_TURN and (a - A_SHIFT) % DEPTHS > prm[P_MAX_OUT]:
                continue
            if move_legal(st, prm, seat, a):
                mask[a] = 1
                moves += 1
    n += moves
    on_need = needed_garment(st, prm, seat) >= 0
    if on_need:
        for k in range(N_DECKS):
            mask[A_SEARCH + k] = 1
        n += N_DECKS
    if prm[P_MUST_MOVE] == 0 or moves == 0 or on_need:
        mask[A_END] = 1
        n += 1
    return n


@njit("void(int32[::1], int64[::1])")
def end_turn(st, prm):
    """R11: the next seat clockwise takes its turn."""
    st[S_TURNS] += 1
    st[S_CUR] = (st[S_CUR] + 1) % st[S_NG]
    st[S_MOVES_LEFT] = prm[P_MOVES]
    st[S_PHASE] = PH_MOVE


@njit("int64(int32[::1], int64[::1], int64, int32[:, ::1])")
def apply_action(st, prm, a, log):
    """Apply legal action ``a`` of the seat to act (R5..R14); logs events when log has more than one row.

    Returns 1 when the action was a search (the caller lets every seat observe it, memory.py), else 0."""
    seat = st[S_CUR]
    t = st[S_TURNS]
    if st[S_PHASE] == PH_PLACE:
        g = st[S_PEND]
        ej = place(st, prm, a - A_PLACE)
        st[S_EJECTED] += ej
        log_event(log, t, E_PLACE, g, a - A_PLACE, ej, 0)
        st[S_EJECTED] += place_forced(st, prm, log, t)
        if st[S_NPEND] == 0:
            st[S_PHASE] = PH_MOVE
        return 0
    if a < A_PLACE:
        see_move(st, prm, a, 1)
        code = do_move(st, prm, seat, a)
        see_move(st, prm, a, 0)
        k = move_kind(a)
        st[S_DRAGS + k] += 1
        st[S_MOVES_LEFT] -= 1
        log_event(log, t, E_MOVE, a, seat, st[S_MOVES_LEFT], 0)
        if k == MK_SLIDE:
            st[S_PUSHED] += code // 8
            st[S_PLUG_STOPS] += code % 8
        elif k == MK_TURN:
            st[S_DISPLACED] += code
            st[S_EJECTED] += place_forced(st, prm, log, t)
            if st[S_NPEND] > 0:
                st[S_PHASE] = PH_PLACE
        return 0
    if a == A_END:
        if st[S_MOVES_LEFT] > 0:
            st[S_SKIPPED] += 1
        log_event(log, t, E_END, seat, st[S_MOVES_LEFT], 0, 0)
        end_turn(st, prm)
        return 0
    # R12/R13: search deck k for the garment under the ghost
    k = a - A_SEARCH
    gm = needed_garment(st, prm, seat)
    p = gm // PER_PART
    res = 0
    if st[S_DECK + k * N_PARTS + p] < 0:
        st[S_PART_GONE] += 1
    if st[S_CARD_LOC + gm] >= LOC_SEAT:
        res = 2
        st[S_WASTED] += 1
    elif st[S_DECK + k * N_PARTS + p] == gm:
        res = 1
        st[S_FOUND] += 1
        st[S_DECK + k * N_PARTS + p] = -1
        st[S_CARD_LOC + gm] = LOC_SEAT + seat
        st[S_HAVE + seat] |= 1 << p
        st[S_PART_TAKEN + p] += 1
    else:
        st[S_NOT_FOUND] += 1
    st[S_LAST_DECK] = k
    st[S_LAST_GARMENT] = gm
    st[S_LAST_RESULT] = res
    st[S_LAST_SEARCHER] = seat
    log_event(log, t, E_SEARCH, seat, k, gm, res)
    if st[S_HAVE + seat] == (1 << N_PARTS) - 1:  # R14: five body parts win at once
        st[S_WINNER] = seat
        st[S_PHASE] = PH_OVER
        st[S_TURNS] += 1
        log_event(log, t, E_WIN, seat, 0, 0, 0)
    else:
        end_turn(st, prm)
    return 1


@njit("int64(int32[::1], int64[::1])")
def check_invariants(st, prm):
    """0 when the state is consistent, else a code: 1 two ghosts on one cell, 2 a ghost on the plug or off the board,
    3 a card in no place or two, 4 a slider outside its tunnel bounds or two in one tunnel, 5 worn parts disagree
    with the cards taken, 6 a ghost missing outside a placement."""
    n = st[S_NG]
    for g in range(n):
        b = st[S_GPOS + g]
        if b < 0:
            if st[S_PHASE] != PH_PLACE:
                return 6
            continue
        if b >= N_CELLS or b == PLUG:
            return 2
        for h in range(g + 1, n):
            if st[S_GPOS + h] == b:
                return 1
    for gm in range(N_GARMENTS):
        loc = st[S_CARD_LOC + gm]
        p = gm // PER_PART
        seen = 0
        for k in range(N_DECKS):
            if st[S_DECK + k * N_PARTS + p] == gm:
                seen += 1
                if loc != k:
                    return 3
        if loc >= LOC_SEAT:
            if seen != 0 or (st[S_HAVE + loc - LOC_SEAT] >> p) & 1 == 0:
                return 5
        elif seen != 1:
            return 3
    for s in range(N_SLIDERS):
        if st[S_SPOS + s] < 0 or st[S_SPOS + s] > prm[P_MAX_OUT] or st[S_STUN + s] < 0 or st[S_STUN + s] >= N_TUNNELS:
            return 4
        for u in range(s + 1, N_SLIDERS):
            if st[S_STUN + u] == st[S_STUN + s]:
                return 4
    for seat in range(n):
        taken = 0
        for gm in range(N_GARMENTS):
            if st[S_CARD_LOC + gm] == LOC_SEAT + seat:
                taken |= 1 << (gm // PER_PART)
        if taken != st[S_HAVE + seat]:
            return 5
    return 0
