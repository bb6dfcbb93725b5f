"""The Ghosts of Castle Turnwall strategies: integer ids dispatched in `decide` (RULES.md S1..S5).

random: uniform over the legal actions of each decision (moves, decks, ending the turn, placements).
planner / spoiler / weighted: at the first decision of a turn, a breadth-first search over every sequence of up to
the moves left (distinct physical states deduplicated by a hash of ghosts, orientation and sliders), scoring each
reached state; the best sequence is then played move by move, and a search is made when the ghost ends on a needed
garment that may still be found. One scoring function with a weight row: planner (find a garment), spoiler (also
knock rivals off their needed garments; searches every move kind at every depth), weighted (the seat's weights).
Placement choices (R10) take the lowest-numbered cell, as the search simulated them.

What a strategy reads (what its player sees): the board (ghosts, orientation, sliders), the garments worn by every
seat and the cards face up, and its own seat's memory rows (memory.py). Never S_DECK, never another seat's memory.
"""

from __future__ import annotations

import numpy as np

from kernels._jit import njit
from kernels.rng import bounded, pick_legal
from kernels.search import N_SEARCH_PARAMS, SEARCH_SID
from kernels.turnwall.memory import best_deck, find_chance
from kernels.turnwall.rules import (
    A_DRAG,
    A_END,
    A_PLACE,
    A_SEARCH,
    A_SHIFT,
    A_SLIDE,
    A_TURN,
    B2F,
    DC,
    DEPTHS,
    DR,
    LOC_SEAT,
    N_CELLS,
    N_GARMENTS,
    N_SLIDERS,
    P_GARMENT_AT,
    P_GARMENT_CELL,
    P_GRIP,
    P_MAX_OUT,
    P_MOVES,
    P_MUST_MOVE,
    P_ROOM,
    P_SIZE,
    P_TUN_OF_COL,
    PER_PART,
    PHYS_SIZE,
    S_CARD_LOC,
    S_CUR,
    S_GPOS,
    S_HAVE,
    S_MOVES_LEFT,
    S_NG,
    S_NPEND,
    S_ROT,
    S_SEEN_GRIP,
    S_SPOS,
    S_STUN,
    S_TURNS,
    SHIFT_PER_SLIDER,
    SIZE,
    SLIDER_LEN,
    can_drag,
    do_move,
    move_legal,
    place_first_options,
    slide,
    slider_in,
)

S_RANDOM = 0
S_PLANNER = 1
S_SPOILER = 2
S_WEIGHTED = 3
S_LEARNED = 4  # played by step.decide through kernels.turnwall.features (which builds on this module's planner)

# name, id, one-line description
STRATEGIES = (
    ("random", S_RANDOM, "uniform over the legal actions of every decision (moves, decks, ending the turn)"),
    ("planner", S_PLANNER, "searches every sequence of up to 3 moves for a needed garment it may still find"),
    ("spoiler", S_SPOILER, "planner that also pushes, drags or turns rivals off their needed garments"),
    ("weighted", S_WEIGHTED, "planner whose scoring weights are per-seat parameters (sweepable)"),
    (
        "learned",
        S_LEARNED,
        "learned policy: a softmax policy over action features (the planner's value of the moves left among them) "
        "fitted to search decisions by expert iteration (sim train turnwall)",
    ),
)

# every non-random strategy's first parameters: the memory model (memory.py)
MEMORY_SPECS = (
    ("recall_own", 1.0, "probability of remembering the cards it saw in its own search (1 perfect, 0 forgets them)"),
    (
        "recall_table",
        1.0,
        "probability of remembering what the whole table saw of a search: which deck, which "
        "garment, found or not (1 perfect, 0 ignores it)",
    ),
    (
        "knows_magnets",
        1.0,
        "C5: 1 knows where every magnet grips (exact); 0 knows only the grips the table has "
        "seen in moves so far and plans as if the others did not grip",
    ),
)
# weights: (name, default, help), after the memory columns in the weighted strategy's row
WEIGHT_SPECS = (
    ("w_find", 1.0, "value per unit chance of finding the garment the ghost ends on"),
    ("w_near", 0.5, "value of ending near a needed garment: its chance / (1 + distance), +3 distance across a wall"),
    ("w_rival", 0.0, "cost per rival left on a needed garment it may still find"),
    ("w_moves", 0.01, "cost per magical move used"),
    (
        "w_full",
        0.0,
        "1: consider every slide at every depth (as the spoiler); 0: with 2 moves or fewer left only "
        "the slider under the own ghost (as the planner)",
    ),
    (
        "w_shift",
        1.0,
        "1: also consider moving a slider to another tunnel with 3 moves left (S2, as the planner and "
        "the spoiler); 0: skip shifts (12% faster, 1.9 points fewer wins at a planner table)",
    ),
)
N_SPARAMS = 9
W_MAGNETS = 2  # columns of an effective row (0, 1: memory.RECALL_*)
W_FIND = 3
W_NEAR = 4
NEAR_WALL = 3
W_RIVAL = 5
W_MOVES = 6
W_FULL = 7
W_SHIFT = 8
PLANNER_W = np.array([1.0, 0.5, 0.0, 0.01, 0.0, 1.0])
SPOILER_W = np.array([1.0, 0.5, 0.6, 0.01, 1.0, 1.0])

# ---- scratch layout (int32 work[WORK_SIZE]) -------------------------------------------------------------------------
NODE_W = 16  # phys (PHYS_SIZE <= 12 used) + parent, action, depth
N_PHYS = 12  # entries of the physical block that describe a position (no pending ghosts)
NODE_PARENT = 12
NODE_ACTION = 13
NODE_DEPTH = 14
MAX_NODES = 2048
W_PLAN_TURN = 0  # turn index the plan was made for (-1 none)
W_PLAN_SEAT = 1
W_PLAN_LEN = 2
W_PLAN_STEP = 3
W_STAMP = 4  # searches made with this scratch (the hash table's generation)
W_PLAN = 8  # up to 8 actions
W_NODES = 16
WORK_SIZE = W_NODES + MAX_NODES * NODE_W
HASH_SIZE = 4096  # open-addressing table of visited positions (int64 keys, 0 = empty)
KEYS_SIZE = 2 * HASH_SIZE + P_SIZE  # the table, then the parameters as a seat that learns the magnets sees them
MAX_MOVES = 8


@njit("int64(int32[::1], int64)")
def phys_key(cur, o):
    """Hash key (> 0) of the position stored at cur[o:o + N_PHYS]: ghost cells, orientation, sliders."""
    k = np.int64(1)
    for g in range(4):
        k = k * 64 + np.int64(cur[o + g]) + 1
    k = k * 4 + np.int64(cur[o + S_ROT])
    for s in range(3):
        k = k * 8 + np.int64(cur[o + S_STUN + s])
        k = k * 8 + np.int64(cur[o + S_SPOS + s])
    return k


@njit("boolean(int64[::1], int64, int64)")
def visit(keys, key, stamp):
    """Insert ``key`` into the table for this search (entries of older searches count as empty, so the result never
    depends on earlier games in the same scratch); False when it was already there. keys holds pairs (key, stamp)."""
    n = keys.shape[0] // 2
    h = ((key ^ (key >> 17)) * 40503) % n  # key < 2^46: no overflow
    if h < 0:
        h += n
    for _ in range(n):
        if keys[2 * h + 1] != stamp:
            keys[2 * h] = key
            keys[2 * h + 1] = stamp
            return True
        if keys[2 * h] == key:
            return False
        h = (h + 1) % n
    return True  # table full: treat as new (the search stays correct, only less deduplicated)


@njit("void(int32[::1], int64[::1], int64, float64[::1], float64[::1])")
def chances(st, prm, seat, probs, near):
    """probs[gm]: ``seat``'s chance of finding garment gm if it stood on it (0 when its part is worn or the card is
    gone); near[c]: how close cell c is to such a garment, max over gm of probs[gm] / (1 + d), d the Manhattan
    distance plus NEAR_WALL when the garment lies in another room (S3)."""
    for gm in range(N_GARMENTS):
        probs[gm] = 0.0
        if (st[S_HAVE + seat] >> (gm // PER_PART)) & 1 == 0:
            probs[gm] = find_chance(st, seat, gm)
    for c in range(N_CELLS):
        near[c] = 0.0
    for gm in range(N_GARMENTS):
        if probs[gm] <= 0.0:
            continue
        gc = prm[P_GARMENT_CELL + gm]
        for c in range(N_CELLS):
            d = abs(c // SIZE - gc // SIZE) + abs(c % SIZE - gc % SIZE)
            if prm[P_ROOM + c] != prm[P_ROOM + gc]:
                d += NEAR_WALL
            v = probs[gm] / (1.0 + d)
            if v > near[c]:
                near[c] = v


@njit("float64(int32[::1], int32[::1], int64, int64[::1], int64, float64[::1], float64[::1], float64[::1], int64)")
def score(st, cur, o, prm, me, w, probs, near, depth):
    """Value of the position at cur[o:] for seat ``me`` after ``depth`` moves (S3)."""
    b = cur[o + S_GPOS + me]
    if b < 0:
        return -1e9
    v = w[W_FIND] * probs[prm[P_GARMENT_AT + b]] if prm[P_GARMENT_AT + b] >= 0 else 0.0
    v += w[W_NEAR] * near[b]
    v -= w[W_MOVES] * depth
    if w[W_RIVAL] != 0.0:
        for r in range(st[S_NG]):
            if r == me:
                continue
            c = cur[o + S_GPOS + r]
            if c < 0:
                continue
            gm = prm[P_GARMENT_AT + c]
            if gm >= 0 and (st[S_HAVE + r] >> (gm // PER_PART)) & 1 == 0 and st[S_CARD_LOC + gm] < LOC_SEAT:
                v -= w[W_RIVAL]
    return v


@njit("boolean(int32[::1], int64[::1], int64, int64, int64, boolean, boolean)")
def relevant(cur, prm, me, a, left, full, shifts):
    """S2 pruning: shifts are skipped (they move no ghost) unless ``shifts`` and 3 or more moves are left (shift,
    drag into the corridor, slide); with ``full`` every slide counts, otherwise a slide only counts with 3 or more
    moves left or when its slider lies under the ghost's corridor."""
    if a < A_SLIDE or a >= A_TURN:
        return True
    if a >= A_SHIFT:
        if not shifts or left < 3:
            return False
        if full:
            return True
        # with 3 moves left a shift (into a corridor with no ghost) changes the own cell only through a later drag
        # into the new corridor (a neighbouring floor column), then a slide; or a turn that carries a ghost over it,
        # then a slide (the own ghost) or a second turn (any ghost, held there, stops riders: C12)
        t = ((a - A_SHIFT) % SHIFT_PER_SLIDER) // DEPTHS
        b = cur[S_GPOS + me]
        rot = cur[S_ROT]
        c = B2F[rot, b] % SIZE
        for col in (c - 1, c + 1):
            if 0 <= col < SIZE and prm[P_TUN_OF_COL + col] == t:
                return True
        for g in range(cur[S_NG]):
            bg = cur[S_GPOS + g]
            if bg >= 0 and (
                prm[P_TUN_OF_COL + B2F[(rot + 1) % 4, bg] % SIZE] == t
                or prm[P_TUN_OF_COL + B2F[(rot + 3) % 4, bg] % SIZE] == t
            ):
                return True
        return False
    if full or left >= 3:
        return True
    t = prm[P_TUN_OF_COL + B2F[cur[S_ROT], cur[S_GPOS + me]] % SIZE]
    return t >= 0 and slider_in(cur, t) == (a - A_SLIDE) // 2


@njit("void(int32[::1], int64, int32[::1], int64)")
def load(dst, o_dst, src, o_src):
    for i in range(N_PHYS):
        dst[o_dst + i] = src[o_src + i]


@njit("boolean(int32[::1], int32[::1], int64, int64[::1], int64)")
def may_stop(st, cur, o, prm, me):
    """C1: the turn may end in the position at cur[o:] before every move is used: always with must_use_all_moves
    off, else only with the own ghost on a garment of a body part it still lacks."""
    if prm[P_MUST_MOVE] == 0:
        return True
    b = cur[o + S_GPOS + me]
    gm = prm[P_GARMENT_AT + b] if b >= 0 else -1
    return gm >= 0 and (st[S_HAVE + me] >> (gm // PER_PART)) & 1 == 0


@njit("float64(int64[::1], float64[::1], float64[::1], float64[::1], int64, int64)")
def cell_score(prm, w, probs, near, b, depth):
    """`score` of a position where only the own ghost's cell ``b`` matters (w_rival = 0)."""
    gm = prm[P_GARMENT_AT + b]
    v = w[W_FIND] * probs[gm] if gm >= 0 else 0.0
    return v + w[W_NEAR] * near[b] - w[W_MOVES] * depth


@njit("void(int64[::1], int32[::1], int64[::1])")
def believed(prm, st, keys):
    """C5: the parameters as a seat that does not know the magnets sees them, in the tail of ``keys``: every grip
    the table has seen (rules.see_move), no other."""
    b = keys[2 * HASH_SIZE :]
    for i in range(P_SIZE):
        b[i] = prm[i]
    for s in range(N_SLIDERS):
        for g in range(4):
            m = 0
            for k in range(SLIDER_LEN):
                if (st[S_SEEN_GRIP + s] >> (k * 4 + g)) & 1:
                    m |= 1 << k
            b[P_GRIP + s * 4 + g] = m


@njit(
    "Tuple((float64, int64, int64))(int32[::1], int64[::1], float64[::1], int32[::1], int32[::1], int32[::1], "
    "int64[::1], float64[::1], float64[::1], float64)"
)
def plan_search(st, prm, w, work, base, cur, keys, probs, near, cap):
    """S2: breadth-first over every sequence of up to the moves left (relevant moves, see `relevant`), each distinct
    position once, the nodes in work[W_NODES..] (the plan itself, work[W_PLAN..], is left alone). Returns (the best
    sequence's value (S3; -1e18 when none may end the turn), the node it leaves from, its last action (-1: standing
    still is best)). ``base`` and ``cur`` are int32[PHYS_SIZE] scratch (the position being expanded, and its child).
    ``cap``: the most `score` gives any position at depth 0 (`features.top_cell`; +inf: unknown); once the best
    value reaches it less the moves' cost of the next depth, no deeper position can beat it (strictly, as the best is
    taken) and the search stops with the same result."""
    me = st[S_CUR]
    left = st[S_MOVES_LEFT]
    if w[W_MAGNETS] < 0.5:  # C5: plan with the grips the table has seen, no others
        believed(prm, st, keys)
        prm = keys[2 * HASH_SIZE :]
    keys = keys[: 2 * HASH_SIZE]
    full = w[W_FULL] > 0.5
    shifts = w[W_SHIFT] > 0.5
    mine_only = w[W_RIVAL] == 0.0
    chances(st, prm, me, probs, near)
    work[W_STAMP] += 1
    stamp = work[W_STAMP]
    for i in range(PHYS_SIZE):
        cur[i] = 0
        base[i] = 0
    nodes = W_NODES
    load(work, nodes, st, 0)
    work[nodes + NODE_PARENT] = -1
    work[nodes + NODE_ACTION] = -1
    work[nodes + NODE_DEPTH] = 0
    visit(keys, phys_key(work, nodes), stamp)
    n = 1
    best = score(st, work, nodes, prm, me, w, probs, near, 0) if may_stop(st, work, nodes, prm, me) else -1e18
    best_node = 0
    best_last = -1
    head = 0
    while head < n:
        o = nodes + head * NODE_W
        d = work[o + NODE_DEPTH]
        # breadth first, every later node is at depth d or more: once the best reaches the cap at depth d + 1, none
        # of them can beat it
        if d >= left or best >= cap - w[W_MOVES] * (d + 1):
            head += 1
            continue
        load(base, 0, work, o)
        leaf = d + 1 >= left
        a = A_DRAG - 1
        while a + 1 < A_PLACE:
            a += 1
            if a >= A_SHIFT and a < A_TURN:  # shifts: only with 3 moves left, depths up to max_out
                if not shifts or left - d < 3:
                    a = A_TURN - 1
                    continue
                if (a - A_SHIFT) % DEPTHS > prm[P_MAX_OUT]:
                    continue
            if not relevant(base, prm, me, a, left - d, full, shifts):
                continue
            if a < A_SLIDE:
                if not can_drag(base, prm, me, a - A_DRAG):
                    continue
                if leaf and mine_only:  # a last drag: only the own cell changes
                    b = base[S_GPOS + me]
                    v = cell_score(prm, w, probs, near, b + DR[a - A_DRAG] * SIZE + DC[a - A_DRAG], d + 1)
                    if v > best:
                        best = v
                        best_node = head
                        best_last = a
                    continue
                load(cur, 0, base, 0)
                do_move(cur, prm, me, a)
            elif a < A_SHIFT:  # one simulation decides and applies
                load(cur, 0, base, 0)
                k = a - A_SLIDE
                if slide(cur, prm, k // 2, k % 2, True) < 0:
                    continue
            else:
                if move_legal(base, prm, me, a) == 0:
                    continue
                load(cur, 0, base, 0)
                do_move(cur, prm, me, a)
                place_first_options(cur, prm)
            if not leaf and not visit(keys, phys_key(cur, 0), stamp):
                continue
            v = score(st, cur, 0, prm, me, w, probs, near, d + 1)
            if v > best and (leaf or may_stop(st, cur, 0, prm, me)):
                best = v
                best_node = head
                best_last = a
            if not leaf and n < MAX_NODES:
                c = nodes + n * NODE_W
                load(work, c, cur, 0)
                work[c + NODE_PARENT] = head
                work[c + NODE_ACTION] = a
                work[c + NODE_DEPTH] = d + 1
                n += 1
        head += 1
    return best, best_node, best_last


@njit(
    "int64(int32[::1], int64[::1], float64[::1], int32[::1], int32[::1], int32[::1], int64[::1], float64[::1], "
    "float64[::1])"
)
def plan(st, prm, w, work, base, cur, keys, probs, near):
    """S2: the best sequence of `plan_search` stored in work[W_PLAN..]; returns its length."""
    best, best_node, best_last = plan_search(st, prm, w, work, base, cur, keys, probs, near, np.inf)
    nodes = W_NODES
    # the sequence: the path to best_node, then best_last
    length = 0
    if best_last >= 0:
        length = work[nodes + best_node * NODE_W + NODE_DEPTH] + 1
        work[W_PLAN + length - 1] = best_last
        i = best_node
        j = length - 2
        while j >= 0:
            work[W_PLAN + j] = work[nodes + i * NODE_W + NODE_ACTION]
            i = work[nodes + i * NODE_W + NODE_PARENT]
            j -= 1
    work[W_PLAN_TURN] = st[S_TURNS]
    work[W_PLAN_SEAT] = st[S_CUR]
    work[W_PLAN_LEN] = length
    work[W_PLAN_STEP] = 0
    return length


@njit("int64(int8[::1], uint64[:, ::1], int64)")
def explore(mask, rng, row):
    """S4: a uniformly random legal magical move (no move legal: end the turn)."""
    n = 0
    for a in range(A_DRAG, A_PLACE):
        n += mask[a]
    if n == 0:
        return A_END
    j = bounded(rng, row, n)
    for a in range(A_DRAG, A_PLACE):
        if mask[a]:
            if j == 0:
                return a
            j -= 1
    return A_END


@njit("boolean(int32[::1], int64[::1], float64[::1], int64)")
def search_now(st, prm, w, me):
    """S2 shortcut: standing on a needed garment whose chance is the best of all garments, no sequence can score more
    (with w_rival = 0 and non-negative weights), so the search is made at once without planning."""
    if w[W_RIVAL] != 0.0 or w[W_FIND] < 0.0 or w[W_NEAR] < 0.0 or w[W_MOVES] < 0.0:
        return False
    b = st[S_GPOS + me]
    gm = prm[P_GARMENT_AT + b] if b >= 0 else -1
    if gm < 0 or (st[S_HAVE + me] >> (gm // PER_PART)) & 1:
        return False
    here = find_chance(st, me, gm)
    if here <= 0.0:
        return False
    for g in range(N_GARMENTS):
        if (st[S_HAVE + me] >> (g // PER_PART)) & 1 == 0 and find_chance(st, me, g) > here:
            return False
    return True


@njit("int64(int8[::1])")
def lowest_legal(mask):
    for a in range(mask.shape[0]):
        if mask[a]:
            return a
    return -1


@njit
def planner_decide(st, prm, w, mask, n_legal, rng, row, work, base, cur, keys, probs, near):
    """S2..S4: follow this turn's plan (made at its first decision), then search or end the turn."""
    if st[S_NPEND] > 0:  # R10 placement: the lowest cell, as simulated
        return lowest_legal(mask)
    me = st[S_CUR]
    learner = w[W_MAGNETS] < 0.5 and work[W_PLAN_STEP] > 0  # C5: what it saw may upset its plan: plan again
    if work[W_PLAN_TURN] != st[S_TURNS] or work[W_PLAN_SEAT] != me or learner:
        if not search_now(st, prm, w, me):
            plan(st, prm, w, work, base, cur, keys, probs, near)
        else:
            work[W_PLAN_TURN] = st[S_TURNS]
            work[W_PLAN_SEAT] = me
            work[W_PLAN_LEN] = 0
            work[W_PLAN_STEP] = 0
    step = work[W_PLAN_STEP]
    if step < work[W_PLAN_LEN]:
        a = work[W_PLAN + step]
        if mask[a]:
            work[W_PLAN_STEP] = step + 1
            return a
    b = st[S_GPOS + me]
    gm = prm[P_GARMENT_AT + b] if b >= 0 else -1
    if gm >= 0 and mask[A_SEARCH] and find_chance(st, me, gm) > 0.0:
        return A_SEARCH + best_deck(st, me, gm, rng, row)
    if work[W_PLAN_LEN] == 0 and st[S_MOVES_LEFT] == prm[P_MOVES] and (gm < 0 or find_chance(st, me, gm) == 0.0):
        return explore(mask, rng, row)  # S4: nothing better than standing still: wander
    if mask[A_END]:
        return A_END
    return pick_legal(rng, row, mask, n_legal)  # C1 option: moves must be used up


@njit
def effective_rows(sids, sparams, out):
    """Each seat's row float64[n, N_SPARAMS]: memory columns from its parameters, then the weights its strategy
    uses. A search seat (SEARCH_SID) has its memory in its search row from column N_SEARCH_PARAMS on (recall_own,
    recall_table: sim.games.turnwall SEARCH_MEMORY); it knows the magnets (column W_MAGNETS 1) and has no weights (the loop never
    calls `decide` for it)."""
    for i in range(sids.shape[0]):
        for j in range(out.shape[1]):
            out[i, j] = sparams[i, j] if j < sparams.shape[1] else 0.0
        if sids[i] == SEARCH_SID:
            for j in range(out.shape[1]):
                out[i, j] = 0.0
            out[i, 0] = sparams[i, N_SEARCH_PARAMS]
            out[i, 1] = sparams[i, N_SEARCH_PARAMS + 1]
            out[i, W_MAGNETS] = 1.0
        elif sids[i] == S_RANDOM:
            out[i, 0] = 0.0
            out[i, 1] = 0.0
        elif sids[i] == S_PLANNER:
            for j in range(PLANNER_W.shape[0]):
                out[i, W_FIND + j] = PLANNER_W[j]
        elif sids[i] == S_SPOILER:
            for j in range(SPOILER_W.shape[0]):
                out[i, W_FIND + j] = SPOILER_W[j]


@njit
def decide(sid, w, st, prm, mask, n_legal, rng, row, work, base, cur, keys, probs, near):
    """The action of strategy ``sid`` (weights ``w``: its effective row) for the seat to act; ``row`` is its random
    stream. work/base/cur/keys/probs/near: scratch (see play.new_scratch)."""
    if sid == S_RANDOM:
        return pick_legal(rng, row, mask, n_legal)
    return planner_decide(st, prm, w, mask, n_legal, rng, row, work, base, cur, keys, probs, near)
