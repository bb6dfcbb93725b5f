"""What each player knows about the hidden decks (RULES.md M1..M5), and what it remembers.

Facts a seat can learn: in its own search it sees every card of the searched deck (M2); the whole table sees which
deck was searched, for which garment, and whether it was found (M3). Garments already taken lie face up (public,
never forgotten: read from the cards, not from memory). Each seat's strategy row holds two recall probabilities:
``recall_own`` (its own searches) and ``recall_table`` (what the table saw); each search is remembered as a whole
with that probability, drawn from the seat's own strategy stream only when 0 < recall < 1 (perfect and no memory
draw nothing, so they leave every other random number unchanged). The memory ladder: perfect = (1, 1), own
searches only = (1, 0), none = (0, 0), recall q = (q, q).

Memory lives in ``st`` (S_KNOW, S_EXCL) per seat; a strategy reads only its own seat's rows (hidden information).
"""

from __future__ import annotations

from kernels._jit import njit
from kernels.rng import bounded
from kernels.turnwall.rules import (
    KNOW_EMPTY,
    KNOW_UNSEEN,
    LOC_SEAT,
    N_DECKS,
    N_GARMENTS,
    N_PARTS,
    PER_PART,
    S_CARD_LOC,
    S_DECK,
    S_EXCL,
    S_KNOW,
    S_LAST_DECK,
    S_LAST_GARMENT,
    S_LAST_RESULT,
    S_LAST_SEARCHER,
    S_NG,
)

RECALL_OWN = 0  # column of the strategy row
RECALL_TABLE = 1
ONE = 1 << 20  # probabilities as integer thresholds out of 2^20


@njit("boolean(uint64[:, ::1], int64, float64)")
def recalls(rng, row, q):
    """True with probability q (no draw when q <= 0 or q >= 1)."""
    if q >= 1.0:
        return True
    if q <= 0.0:
        return False
    return bounded(rng, row, ONE) < int(q * ONE)


@njit("void(int32[::1], float64[:, ::1], uint64[:, ::1])")
def observe_search(st, rows, rng):
    """M2, M3: every seat learns from the search just made (S_LAST_*), each with its own recall."""
    s = st[S_LAST_SEARCHER]
    k = st[S_LAST_DECK]
    gm = st[S_LAST_GARMENT]
    res = st[S_LAST_RESULT]
    p = gm // PER_PART
    for o in range(st[S_NG]):
        own = o == s
        if not recalls(rng, 1 + o, rows[o, RECALL_OWN] if own else rows[o, RECALL_TABLE]):
            continue
        base = S_KNOW + (o * N_DECKS + k) * N_PARTS
        if own:  # M2: the searcher saw the whole deck
            for q in range(N_PARTS):
                v = st[S_DECK + k * N_PARTS + q]
                st[base + q] = v if v >= 0 else KNOW_EMPTY
        elif res == 1:  # M3: the table saw the card found and the deck it came from
            st[base + p] = KNOW_EMPTY
        elif res == 0:  # M3: ... or that this deck does not hold the garment
            st[S_EXCL + o * N_GARMENTS + gm] |= 1 << k


@njit("void(int32[::1], int64, int64, int64)")
def observe_swap(st, searcher, a, b):
    """C11 variant: decks ``a`` and ``b`` changed places; the searcher (who moved them) swaps what it knows about
    them, every other seat forgets both (M4)."""
    for o in range(st[S_NG]):
        ba = S_KNOW + (o * N_DECKS + a) * N_PARTS
        bb = S_KNOW + (o * N_DECKS + b) * N_PARTS
        for q in range(N_PARTS):
            if o == searcher:
                x = st[ba + q]
                st[ba + q] = st[bb + q]
                st[bb + q] = x
            else:
                st[ba + q] = KNOW_UNSEEN
                st[bb + q] = KNOW_UNSEEN
        for gm in range(N_GARMENTS):
            e = st[S_EXCL + o * N_GARMENTS + gm]
            ea = (e >> a) & 1
            eb = (e >> b) & 1
            e &= ~((1 << a) | (1 << b))
            if o == searcher:
                e |= (ea << b) | (eb << a)
            st[S_EXCL + o * N_GARMENTS + gm] = e


@njit("boolean(int32[::1], int64, int64, int64)")
def possible(st, seat, k, gm):
    """M5: as far as ``seat`` knows, deck ``k`` may still hold garment ``gm``."""
    if st[S_CARD_LOC + gm] >= LOC_SEAT:  # taken: face up on the table
        return False
    v = st[S_KNOW + (seat * N_DECKS + k) * N_PARTS + gm // PER_PART]
    if v != KNOW_UNSEEN:
        return v == gm
    return (st[S_EXCL + seat * N_GARMENTS + gm] >> k) & 1 == 0


@njit("float64(int32[::1], int64, int64)")
def find_chance(st, seat, gm):
    """M5: ``seat``'s chance of finding ``gm`` with its best deck: 1 when it knows the deck, else 1 / the number of
    decks that may hold it (0 when none may)."""
    n = 0
    for k in range(N_DECKS):
        if possible(st, seat, k, gm):
            if st[S_KNOW + (seat * N_DECKS + k) * N_PARTS + gm // PER_PART] == gm:
                return 1.0
            n += 1
    return 0.0 if n == 0 else 1.0 / n


@njit("int64(int32[::1], int64, int64, uint64[:, ::1], int64)")
def best_deck(st, seat, gm, rng, row):
    """The deck ``seat`` searches for ``gm``: the one it knows holds it, else uniformly among those that may (all four
    when it thinks none may). Draws from stream ``row`` only when more than one deck is possible."""
    n = 0
    for k in range(N_DECKS):
        if possible(st, seat, k, gm):
            if st[S_KNOW + (seat * N_DECKS + k) * N_PARTS + gm // PER_PART] == gm:
                return k
            n += 1
    if n == 0:
        return bounded(rng, row, N_DECKS) if N_DECKS > 1 else 0
    j = bounded(rng, row, n) if n > 1 else 0
    for k in range(N_DECKS):
        if possible(st, seat, k, gm):
            if j == 0:
                return k
            j -= 1
    return 0
