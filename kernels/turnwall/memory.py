"""What each player knows about the hidden decks (RULES.md M1..M6), and what it remembers.

What everyone sees at every moment, with no memory (M1): the garments taken (face up), and, by the rule parameter
``deck_view``, each deck's size and the back of its top card. Facts a seat can learn: in its own search it sees
every card of the searched deck (M2); the whole table sees which deck was searched, for which garment, and whether it
was found (M3). Each seat's strategy row holds two recall probabilities: ``recall_own`` (the cards it saw in its own
searches) and ``recall_table`` (what the whole table saw of any search, its own included); each is drawn per search
from the seat's own strategy stream only when 0 < recall < 1 (1 and 0 draw nothing, so they leave every other
random number unchanged). The ladder (M4): perfect = (1, 1), ignores what the table saw = (1, 0), forgets the cards
it saw = (0, 1), remembers no search = (0, 0): each still sees the table as it is now.

Memory lives in ``st`` (S_KNOW, S_EXCL) per seat, with S_MAY (M6: which body parts each deck may still hold, from
memory and the view); a strategy reads only its own seat's rows (hidden information).
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
    S_MAY,
    S_NG,
    S_SEARCHED,
    S_TRACKED,
    S_VIEW,
    deck_size,
    top_back,
)

VIEW_NONE = 0  # deck_view: nothing of a deck is visible (version <= 2)
VIEW_SIZE = 1  # its size
VIEW_TOP = 2  # its size and the back of its top card (the rulebook's face-down stack: default)
ALL_PARTS = (1 << N_PARTS) - 1

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


@njit("int64(int64)")
def next_same_popcount(m):
    """The next larger integer with as many set bits as ``m`` > 0 (Gosper's hack)."""
    c = m & -m
    r = m + c
    return (((r ^ m) >> 2) // c) | r


@njit("int64(int64)")
def _popcount(m):
    n = 0
    while m:
        n += m & 1
        m >>= 1
    return n


@njit("boolean(int64, int64, int64)")
def fits(m, must, never):
    return (m & must) == must and (m & never) == 0


@njit("void(int32[::1], int64)")
def update_may(st, o):
    """M6: S_MAY[o, k] = bit set of the body parts deck k may still hold as far as seat ``o`` knows.

    From memory: a part is gone from deck k when the seat saw that slot empty, saw there a card now taken, or knows
    every card of that part still in play is not in deck k (failed searches); it is there when the seat saw there a
    card still in play. From the view (M1, ``deck_view``): the top card's back is a part the deck holds; with deck
    sizes, the parts of each deck must also add up to its size while each part p is held by exactly 4 − (its cards
    taken) decks: every holding pattern consistent with all of it is enumerated (at most 10 per deck) and a part is
    possible where some pattern has it. Without sizes the memory alone decides (version <= 2)."""
    must0 = 0
    must1 = 0
    must2 = 0
    must3 = 0
    nev0 = 0
    nev1 = 0
    nev2 = 0
    nev3 = 0
    view = st[S_VIEW]
    for k in range(N_DECKS):
        must = 0
        never = 0
        for p in range(N_PARTS):
            v = st[S_KNOW + (o * N_DECKS + k) * N_PARTS + p]
            if v == KNOW_EMPTY:
                never |= 1 << p
            elif v >= 0:
                if st[S_CARD_LOC + v] >= LOC_SEAT:
                    never |= 1 << p
                else:
                    must |= 1 << p
            else:
                left = False
                for gm in range(p * PER_PART, (p + 1) * PER_PART):
                    if st[S_CARD_LOC + gm] < LOC_SEAT and (st[S_EXCL + o * N_GARMENTS + gm] >> k) & 1 == 0:
                        left = True
                if not left:
                    never |= 1 << p
        if view >= VIEW_TOP and deck_size(st, k) > 0:
            must |= 1 << top_back(st, k)
        if k == 0:
            must0, nev0 = must, never
        elif k == 1:
            must1, nev1 = must, never
        elif k == 2:
            must2, nev2 = must, never
        else:
            must3, nev3 = must, never
    base = S_MAY + o * N_DECKS
    if view == VIEW_NONE:
        st[base + 0] = ALL_PARTS & ~nev0
        st[base + 1] = ALL_PARTS & ~nev1
        st[base + 2] = ALL_PARTS & ~nev2
        st[base + 3] = ALL_PARTS & ~nev3
        return
    cols = 0  # each part's holding decks, 3 bits per part
    for p in range(N_PARTS):
        c = 0
        for gm in range(p * PER_PART, (p + 1) * PER_PART):
            if st[S_CARD_LOC + gm] < LOC_SEAT:
                c += 1
        cols |= c << (3 * p)
    s0 = deck_size(st, 0)
    s1 = deck_size(st, 1)
    s2 = deck_size(st, 2)
    s3 = deck_size(st, 3)
    may0 = 0
    may1 = 0
    may2 = 0
    may3 = 0
    m0 = (1 << s0) - 1
    while m0 < 32:
        if fits(m0, must0, nev0):
            m1 = (1 << s1) - 1
            while m1 < 32:
                if fits(m1, must1, nev1):
                    m2 = (1 << s2) - 1
                    while m2 < 32:
                        if fits(m2, must2, nev2):
                            m3 = 0  # the last deck's pattern is what the parts still need
                            ok = True
                            for p in range(N_PARTS):
                                x = ((cols >> (3 * p)) & 7) - ((m0 >> p) & 1) - ((m1 >> p) & 1) - ((m2 >> p) & 1)
                                if x == 1:
                                    m3 |= 1 << p
                                elif x != 0:
                                    ok = False
                            if ok and fits(m3, must3, nev3) and _popcount(m3) == s3:
                                may0 |= m0
                                may1 |= m1
                                may2 |= m2
                                may3 |= m3
                        m2 = 32 if m2 == 0 else next_same_popcount(m2)
                m1 = 32 if m1 == 0 else next_same_popcount(m1)
        m0 = 32 if m0 == 0 else next_same_popcount(m0)
    if may0 | may1 | may2 | may3 == 0:  # no pattern fits (cannot happen with true facts): memory alone
        may0, may1, may2, may3 = ALL_PARTS & ~nev0, ALL_PARTS & ~nev1, ALL_PARTS & ~nev2, ALL_PARTS & ~nev3
    st[base + 0] = may0
    st[base + 1] = may1
    st[base + 2] = may2
    st[base + 3] = may3


@njit("void(int32[::1], float64[:, ::1], uint64[:, ::1])")
def observe_search(st, rows, rng):
    """M2, M3: every seat learns from the search just made (S_LAST_*), each with its own recall; then every seat's
    view of the decks (M1, M6) is brought up to date."""
    s = st[S_LAST_SEARCHER]
    k = st[S_LAST_DECK]
    gm = st[S_LAST_GARMENT]
    res = st[S_LAST_RESULT]
    p = gm // PER_PART
    for o in range(st[S_NG]):
        base = S_KNOW + (o * N_DECKS + k) * N_PARTS
        if o == s and recalls(rng, 1 + o, rows[o, RECALL_OWN]):  # M2: the searcher saw the whole deck
            for q in range(N_PARTS):
                v = st[S_DECK + k * N_PARTS + q]
                st[base + q] = v if v >= 0 else KNOW_EMPTY
        elif recalls(rng, 1 + o, rows[o, RECALL_TABLE]):
            if res == 1:  # M3: the table saw the card found and the deck it came from
                st[base + p] = KNOW_EMPTY
            elif res == 0:  # M3: ... or that this deck does not hold the garment
                st[S_EXCL + o * N_GARMENTS + gm] |= 1 << k
    st[S_SEARCHED] |= 1 << (s * N_DECKS + k)  # M3: the table saw it (the re-deal's record of the rivals' searches)
    for o in range(st[S_NG]):
        update_may(st, o)


@njit("void(int32[::1], int64, int64, int64)")
def observe_swap(st, searcher, a, b):
    """C11 variant: decks ``a`` and ``b`` changed places. Default (S_TRACKED, M1): the deck goes back in view, so
    every seat moves what it knows of them along; option: only the searcher (who moved them) does, every other seat
    forgets what it knew of both (version <= 2)."""
    for o in range(st[S_NG]):
        follows = o == searcher or st[S_TRACKED] != 0
        ba = S_KNOW + (o * N_DECKS + a) * N_PARTS
        bb = S_KNOW + (o * N_DECKS + b) * N_PARTS
        for q in range(N_PARTS):
            if follows:
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
            if follows:
                e |= (ea << b) | (eb << a)
            st[S_EXCL + o * N_GARMENTS + gm] = e
        update_may(st, o)
    rec = st[S_SEARCHED]  # the table's record of who searched which deck: moved along, or lost with the decks
    for o in range(st[S_NG]):
        ba = (rec >> (o * N_DECKS + a)) & 1
        bb = (rec >> (o * N_DECKS + b)) & 1
        rec &= ~((1 << (o * N_DECKS + a)) | (1 << (o * N_DECKS + b)))
        if st[S_TRACKED] != 0:
            rec |= (ba << (o * N_DECKS + b)) | (bb << (o * N_DECKS + a))
    st[S_SEARCHED] = rec


@njit("boolean(int32[::1], int64, int64, int64)")
def possible(st, seat, k, gm):
    """M5: as far as ``seat`` knows, deck ``k`` may still hold garment ``gm`` (its part possible there: M6)."""
    if st[S_CARD_LOC + gm] >= LOC_SEAT:  # taken: face up on the table
        return False
    if (st[S_MAY + seat * N_DECKS + k] >> (gm // PER_PART)) & 1 == 0:  # M6: that part is gone from the deck
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
