"""The Ghosts of Castle Turnwall: a search player's determinisation (`redeal`, the verb `step.sample_hidden`).

What a seat knows of the decks (memory.py, RULES.md M1-M6): the garments taken (face up), the view (``deck_view``:
each deck's size, its top card's back) and its own memory (S_KNOW: a garment it saw in a slot, or the slot empty;
S_EXCL: decks it knows not to hold a garment). A re-deal is drawn uniformly among every arrangement of the cards
still in play that agrees with all of it: which decks hold a card of each body part (the holding pattern, unknown
to a seat that forgot where found cards came from), which garment lies in each slot, and the order of each deck
under its visible top, except a deck the seat searched: it saw that deck's order, and the deck keeps it (C8: the
rest goes back as it was; cards only leave a deck), so its order is kept (`knows_order`; issue 35). It reads only
those, in a canonical order (garments and decks ascending), so two true states that differ only in what the seat
does not know give the same re-deal on the same stream.

The other seats' memories follow the new deal without telling the seat anything it does not know (X2). A seat with
perfect memory (recall 1, 1) knows what the table saw it learn: a slot it knows (it searched that deck, or saw a
card found there) holds in its memory what the slot holds now; of its exclusions (failed searches the table saw) it
keeps only those the seat's own memory implies, since a public fact the seat forgot is one it cannot use (and the
new deal may break it). A seat that forgets (a recall below 1) remembered a random part of it, its own draw, which
the searching seat cannot know (issue 35: copied before): its memory is drawn again on the re-deal's stream from
the public record, each deck the table saw it search (`S_SEARCHED`) remembered whole with its `recall_own`, each slot
the searching seat knows empty and each exclusion the searching seat's memory implies with its `recall_table`.
"""

from __future__ import annotations

import numpy as np

from kernels._jit import njit
from kernels.rng import bounded, next_u64, shuffle_range
from kernels.turnwall.memory import RECALL_OWN, RECALL_TABLE, VIEW_SIZE, VIEW_TOP, recalls, update_may
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
    S_NG,
    S_RANK,
    S_SEARCHED,
    S_VIEW,
    deck_size,
    top_back,
)

N_MASKS = 1 << N_DECKS  # deck subsets: which decks hold a card of a part
# the scratch int64[HIDDEN_SIZE] (play.new_scratch): offsets of its parts
H_GMS = 0  # [5 parts * 4]: each part's garments in play, ascending
H_C = H_GMS + N_GARMENTS  # [5]: how many
H_SIZES = H_C + N_PARTS  # [4]: each deck's size
H_TOPS = H_SIZES + N_DECKS  # [4]: each deck's top card's back (-1: not in view)
H_CNT = H_TOPS + N_DECKS  # [5 * 16]: placements agreeing with the memory, per part and deck subset
H_LISTS = H_CNT + N_PARTS * N_MASKS  # [5 * 16]: the subsets with some, per part
H_NL = H_LISTS + N_PARTS * N_MASKS  # [5]: how many
H_CHOSEN = H_NL + N_PARTS  # [5]: the holding pattern drawn
H_DECKS = H_CHOSEN + N_PARTS  # [4] scratch of `_bijections`
H_FREE = H_DECKS + N_DECKS
H_PERM = H_FREE + N_DECKS
HIDDEN_SIZE = H_PERM + N_DECKS


@njit(inline="always")
def _know(st, seat, k, p):
    return st[S_KNOW + (seat * N_DECKS + k) * N_PARTS + p]


@njit
def _bijections(st, seat, h, p, mask, pick):
    """The placements of part ``p``'s cards in play (scratch ``h``'s H_GMS row, ascending), one to each deck of
    ``mask`` (as many decks), that agree with ``seat``'s memory: each card in a deck the seat may think holds it
    (not excluded, the slot not known to hold another card or none). With ``pick`` < 0 returns their count; else
    writes the ``pick``-th (in permutation-number order) into S_DECK / S_CARD_LOC and returns -1."""
    m = h[H_C + p]
    d = 0
    for k in range(N_DECKS):
        if (mask >> k) & 1:
            h[H_DECKS + d] = k
            d += 1
    fact = 1
    for j in range(2, m + 1):
        fact *= j
    n = 0
    for idx in range(fact):
        for i in range(m):
            h[H_FREE + i] = i
        left = m
        x = idx
        ok = True
        for i in range(m):  # deck H_DECKS[i] gets garment H_GMS[p, H_PERM[i]]
            f = 1
            for j in range(2, left):
                f *= j
            q = x // f
            x -= q * f
            c = h[H_FREE + q]
            for j in range(q, left - 1):
                h[H_FREE + j] = h[H_FREE + j + 1]
            left -= 1
            h[H_PERM + i] = c
            gm = h[H_GMS + p * PER_PART + c]
            k = h[H_DECKS + i]
            v = _know(st, seat, k, p)
            if (v != KNOW_UNSEEN and v != gm) or (st[S_EXCL + seat * N_GARMENTS + gm] >> k) & 1:
                ok = False
                break
        if not ok:
            continue
        if n == pick:
            for i in range(m):
                gm = h[H_GMS + p * PER_PART + h[H_PERM + i]]
                st[S_DECK + h[H_DECKS + i] * N_PARTS + p] = gm
                st[S_CARD_LOC + gm] = h[H_DECKS + i]
            return -1
        n += 1
    return n


@njit
def _holdings(h, check_sizes, r):
    """Over every holding pattern (one deck subset per part from its H_LISTS row; with ``check_sizes`` each deck
    holding H_SIZES of the parts), weighted by the product of the parts' H_CNT: with ``r`` < 0 the total weight;
    else writes into H_CHOSEN the pattern whose cumulative weight range holds ``r`` and returns the rest of ``r``
    within it (-1 if none)."""
    total = 0
    for i0 in range(h[H_NL]):
        m0 = h[H_LISTS + i0]
        for i1 in range(h[H_NL + 1]):
            m1 = h[H_LISTS + N_MASKS + i1]
            for i2 in range(h[H_NL + 2]):
                m2 = h[H_LISTS + 2 * N_MASKS + i2]
                for i3 in range(h[H_NL + 3]):
                    m3 = h[H_LISTS + 3 * N_MASKS + i3]
                    for i4 in range(h[H_NL + 4]):
                        m4 = h[H_LISTS + 4 * N_MASKS + i4]
                        if check_sizes:
                            ok = True
                            for k in range(N_DECKS):
                                s = ((m0 >> k) & 1) + ((m1 >> k) & 1) + ((m2 >> k) & 1) + ((m3 >> k) & 1)
                                if s + ((m4 >> k) & 1) != h[H_SIZES + k]:
                                    ok = False
                            if not ok:
                                continue
                        w = h[H_CNT + m0] * h[H_CNT + N_MASKS + m1] * h[H_CNT + 2 * N_MASKS + m2]
                        w *= h[H_CNT + 3 * N_MASKS + m3] * h[H_CNT + 4 * N_MASKS + m4]
                        if r >= 0:
                            if r < w:
                                h[H_CHOSEN] = m0
                                h[H_CHOSEN + 1] = m1
                                h[H_CHOSEN + 2] = m2
                                h[H_CHOSEN + 3] = m3
                                h[H_CHOSEN + 4] = m4
                                return r
                            r -= w
                        total += w
    return total if r < 0 else -1


@njit
def knows_order(st, seat, k):
    """M2, C8: ``seat`` saw deck ``k`` in a search it remembers (a slot of its memory of the deck holds a garment:
    only its own search writes one) and so knows the order of every card the deck still holds: cards only leave a
    deck, a searcher puts the rest back in their order, and a moved deck (C11) takes its order and the memory along."""
    for p in range(N_PARTS):
        if _know(st, seat, k, p) >= 0:
            return True
    return False


@njit
def redeal(st, seat, rng, row, h, order, rows):
    """Re-deal the decks as ``seat`` may think them (module docstring), drawing on stream ``row`` of ``rng`` only;
    st int32[S_SIZE] is changed in place (S_DECK, S_CARD_LOC, S_RANK, the other seats' S_KNOW / S_EXCL, every
    seat's S_MAY). Scratch: h int64[HIDDEN_SIZE], order int32[>= N_PARTS]; ``rows`` each seat's effective strategy
    row (its recall columns). Returns the number of arrangements drawn among (>= 1), or 0 when none agrees with the
    seat's memory (a consistent memory never gives it; the state is then left as it was)."""
    view = st[S_VIEW]
    for p in range(N_PARTS):
        h[H_C + p] = 0
    for gm in range(N_GARMENTS):
        if st[S_CARD_LOC + gm] < LOC_SEAT:
            p = gm // PER_PART
            h[H_GMS + p * PER_PART + h[H_C + p]] = gm
            h[H_C + p] += 1
    for k in range(N_DECKS):
        h[H_SIZES + k] = deck_size(st, k)
        h[H_TOPS + k] = top_back(st, k) if view >= VIEW_TOP else -1
    # per part and deck subset: the placements agreeing with the memory (0 where the subset breaks it)
    for p in range(N_PARTS):
        h[H_NL + p] = 0
        for mask in range(N_MASKS):
            h[H_CNT + p * N_MASKS + mask] = 0
            bits = 0
            ok = True
            for k in range(N_DECKS):
                inside = (mask >> k) & 1
                bits += inside
                if not inside:
                    v = _know(st, seat, k, p)
                    if v >= 0 and st[S_CARD_LOC + v] < LOC_SEAT:  # it knows a card in play lies there
                        ok = False
                    if h[H_TOPS + k] == p:  # the top card's back shows this part
                        ok = False
            if bits != h[H_C + p] or not ok:
                continue
            w = _bijections(st, seat, h, p, mask, -1)
            h[H_CNT + p * N_MASKS + mask] = w
            if w > 0:
                h[H_LISTS + p * N_MASKS + h[H_NL + p]] = mask
                h[H_NL + p] += 1
    check_sizes = view >= VIEW_SIZE
    total = _holdings(h, check_sizes, -1)
    if total <= 0:
        return 0
    r = bounded(rng, row, total) if total < (1 << 32) else np.int64(next_u64(rng, row) % np.uint64(total))
    r = _holdings(h, check_sizes, r)
    for i in range(N_DECKS * N_PARTS):
        st[S_DECK + i] = -1
    for p in range(N_PARTS):
        w = h[H_CNT + p * N_MASKS + h[H_CHOSEN + p]]
        _bijections(st, seat, h, p, h[H_CHOSEN + p], r % w)
        r //= w
    # each deck's order under its visible top (all of it without the view): the parts it holds, shuffled, unless
    # the seat searched the deck (it saw the order, which is kept: `knows_order`)
    for k in range(N_DECKS):
        known = knows_order(st, seat, k)
        top = -1 if known else h[H_TOPS + k]
        m = 0
        for p in range(N_PARTS):
            if st[S_DECK + k * N_PARTS + p] >= 0 and p != top:
                i = m  # with a known order: by rank (insertion sort), else in part order and shuffled
                while known and i > 0 and st[S_RANK + k * N_PARTS + order[i - 1]] > st[S_RANK + k * N_PARTS + p]:
                    order[i] = order[i - 1]
                    i -= 1
                order[i] = p
                m += 1
        if not known:
            shuffle_range(rng, row, order, 0, m)
        rank = 0
        if top >= 0:
            st[S_RANK + k * N_PARTS + top] = 0
            rank = 1
        for i in range(m):
            st[S_RANK + k * N_PARTS + order[i]] = rank
            rank += 1
        for p in range(N_PARTS):  # the parts gone, after them (no rule reads their rank)
            if st[S_DECK + k * N_PARTS + p] < 0:
                st[S_RANK + k * N_PARTS + p] = rank
                rank += 1
    # the other seats' memories follow the new deal (module docstring)
    for o in range(st[S_NG]):
        if o == seat:
            continue
        q_own = rows[o, RECALL_OWN]
        q_table = rows[o, RECALL_TABLE]
        perfect = q_own >= 1.0 and q_table >= 1.0
        for k in range(N_DECKS):
            # X2: a seat with perfect memory knows the slots the table saw it learn (its searches, the finds);
            # one that forgets is re-dealt a memory: each deck it was seen to search, remembered with recall_own
            mine = not perfect and (st[S_SEARCHED] >> (o * N_DECKS + k)) & 1 != 0 and recalls(rng, row, q_own)
            for p in range(N_PARTS):
                kn = S_KNOW + (o * N_DECKS + k) * N_PARTS + p
                if perfect:
                    if st[kn] == KNOW_UNSEEN:
                        continue
                elif not mine:  # ... and each slot the seat knows empty, remembered with recall_table
                    st[kn] = KNOW_UNSEEN
                    if _know(st, seat, k, p) != KNOW_EMPTY or not recalls(rng, row, q_table):
                        continue
                g = st[S_DECK + k * N_PARTS + p]
                st[kn] = g if g >= 0 else KNOW_EMPTY
        for gm in range(N_GARMENTS):
            implied = st[S_EXCL + seat * N_GARMENTS + gm]
            for k in range(N_DECKS):
                v = _know(st, seat, k, gm // PER_PART)
                if v != KNOW_UNSEEN and v != gm:
                    implied |= 1 << k
            if perfect:
                st[S_EXCL + o * N_GARMENTS + gm] &= implied
            else:  # the exclusions the seat's memory implies, each remembered with recall_table
                e = 0
                for k in range(N_DECKS):
                    if (implied >> k) & 1 and recalls(rng, row, q_table):
                        e |= 1 << k
                st[S_EXCL + o * N_GARMENTS + gm] = e
    for o in range(st[S_NG]):
        update_may(st, o)
    return total
