"""The Ghosts of Castle Turnwall: the action features of the ghosts' `learned` player (a linear softmax policy over
them; RULES.md S7).

A feature vector describes one legal action of the seat to act from what that seat sees and remembers (RULES.md
M1-M6): the board (ghosts, orientation, sliders), the garments worn by every seat and the cards face up, and its own
memory rows, read only through `memory.find_chance` and the planner's `strategies.chances` / `score`. Never S_DECK,
the order of a deck, another seat's memory, nor (with ``knows_magnets`` 0, C5) a grip the table has not seen: such a
seat simulates its moves with the grips it has seen (`strategies.believed`), as the planner does. So the learned
player respects the memory parameters exactly as the scripted strategies do: its row carries ``recall_own`` and
``recall_table`` (memory.py draws what it remembers of each search from them) and ``knows_magnets``; the
hidden-information permutation test (tests/kernels/turnwall/test_learned.py) redeals what the seat has not seen and
requires the same decision, and fails on a deliberately leaky copy.

A magical move is scored after it is made (on a copy of the state, waiting ghosts placed as the planner simulates
them, S5): the planner's value (S3, its weights) of the best way to use the moves left after it
(`strategies.plan_search`), where the own ghost then stands, rivals on their garments, and (feature set version 3)
the own ghost's next turn: the planner's value of the best whole turn from where the plan ends this one. Ending the
turn and searching a deck are scored where the ghost stands; a placement (R10) by the ghost placed and the cell.
Each legal action is scored once into the scratch of the batch's learned marker, then `kernels.policy.select` picks
(greedy at temperature 0, ties to the lower action index). The next turn is the cost (a whole-turn search per end
position): at temperature 0 it is searched only for the actions whose score may still be the highest (`greedy_ahead`:
no next turn is worth more than the best cell's value, `top_cell`), and every search stops once its best reaches
that value (`strategies.plan_search`'s ``cap``); the decisions are the same as with every feature computed.

The same functions serve play (`learned_choice`, in the kernel) and training (`fill_features`, called from Python by
`sim.play.learn` on the states where search decided). The seat's parameter row: column 0 the temperature, columns
1..N_FEATURES the weights in FEATURE_NAMES order, then recall_own, recall_table, knows_magnets (`MEMORY_COL`); the
shipped weights are kernels/turnwall/policies/player.json (FEATURE_SET, FEATURE_VERSION: change a feature's meaning,
bump the version, retrain with `sim train turnwall`).
"""

from __future__ import annotations

import math

import numpy as np

from kernels._jit import njit
from kernels.policy import new_marker as policy_marker
from kernels.policy import select
from kernels.turnwall.memory import RECALL_OWN, RECALL_TABLE, possible
from kernels.turnwall.rules import (
    A_END,
    A_PLACE,
    A_SEARCH,
    A_SHIFT,
    A_SLIDE,
    A_TURN,
    LOC_SEAT,
    N_ACTIONS,
    N_CELLS,
    N_DECKS,
    N_PARTS,
    P_GARMENT_AT,
    P_MOVES,
    PER_PART,
    PH_PLACE,
    S_CARD_LOC,
    S_CUR,
    S_GPOS,
    S_HAVE,
    S_KNOW,
    S_MOVES_LEFT,
    S_NG,
    S_PEND,
    S_PHASE,
    S_SIZE,
    do_move,
    is_held,
    place_first_options,
)
from kernels.turnwall.scratch import LearnedMarker
from kernels.turnwall.strategies import (
    HASH_SIZE,
    N_PHYS,
    NODE_W,
    PLANNER_W,
    S_LEARNED,
    W_FIND,
    W_MAGNETS,
    W_MOVES,
    W_NEAR,
    W_NODES,
    W_RIVAL,
    believed,
    chances,
    load,
    phys_key,
    plan_search,
    score,
)

FEATURE_SET = "turnwall-ghost"
FEATURE_VERSION = 3  # 2: the rivals' next drags (branch learn, 736dca0), tried and not shipped
# (name, what it measures for one action); the order is the weights' order (columns 1.. of the parameter row)
FEATURES = (
    ("plan", "move: the planner's value (S3) of the best use of the moves left after it; end, search: of standing"),
    ("find", "move: the seat's chance (M5) of finding the garment its ghost then stands on (0: none it needs)"),
    ("near", "move: how close the ghost then stands to a garment it may find (S3: chance / (1 + distance))"),
    ("rivals_on", "move: rivals then standing on a garment they need that is still in play"),
    ("held", "move: 1 when a magnet then holds the own ghost (R4, the grips as the seat knows them)"),
    ("drag", "1 for dragging the own ghost (R5)"),
    ("slide", "1 for pushing or pulling a slider (R6)"),
    ("shift", "1 for moving a slider to another tunnel (R7)"),
    ("turn", "1 for turning the board (R8)"),
    ("end", "1 for ending the turn without a search"),
    ("search", "1 for searching a deck (R12)"),
    (
        "deck_chance",
        "search: the seat's chance (M5) that this deck holds the garment (1 known, 1 / the decks that may)",
    ),
    ("place_own", "placement: for the own ghost, the find chance plus half the closeness of the cell"),
    ("place_rival", "placement: 1 when a rival's ghost goes on a garment it needs that is still in play"),
    (
        "next",
        "move, end, search: the planner's value (S3) of the own ghost's best next turn from where this turn ends "
        "(the move's planned rest of the turn; a whole turn's moves; the board as it then stands)",
    ),
)
FEATURE_NAMES = tuple(n for n, _ in FEATURES)
N_FEATURES = len(FEATURES)
N_LEARNED_PARAMS = 1 + N_FEATURES  # temperature, then the weights
MEMORY_COL = N_LEARNED_PARAMS  # recall_own, recall_table, knows_magnets follow the weights in the row
N_ROW = MEMORY_COL + 3
PLAN_FLOOR = -1.0  # a plan value below it (the own ghost off the board: S3's -1e9) is read as this
NEXT_CACHE = 64  # a decision's candidates often end the turn in the same position: its next-turn value is kept
# how an action's `next` is computed: not at all (its weight 0, a placement), at once, or after the other features
# (temperature 0: only for the actions whose score may still be the highest, `greedy_ahead`)
NEXT_OFF = 0
NEXT_NOW = 1
NEXT_LATER = 2


def new_marker():
    """The learned marker of a batch scratch (plain numpy, allocated by the caller): a `scratch.LearnedMarker` (the
    policy's scratch, `kernels.policy.new_marker`, and the state after a candidate move)."""
    m = policy_marker(N_ACTIONS)
    return LearnedMarker(
        m.scores,
        m.acts,
        np.zeros(S_SIZE, dtype=np.int32),
        np.zeros(NEXT_CACHE, dtype=np.int64),
        np.zeros(NEXT_CACHE, dtype=np.float64),
        np.zeros(1, dtype=np.int64),
        np.zeros((N_ACTIONS, N_PHYS), dtype=np.int32),
        np.zeros(N_ACTIONS, dtype=np.float64),
    )


@njit
def learned_rows(sids, sparams, out):
    """The effective row (`strategies.effective_rows`) of each learned seat: its recall_own, recall_table and
    knows_magnets from the end of its parameter row (`MEMORY_COL`), then the planner's weights (the `plan` feature's
    S3 value); other seats' rows are left as they are."""
    for i in range(sids.shape[0]):
        if sids[i] == S_LEARNED:
            for j in range(out.shape[1]):
                out[i, j] = 0.0
            out[i, RECALL_OWN] = sparams[i, MEMORY_COL]
            out[i, RECALL_TABLE] = sparams[i, MEMORY_COL + 1]
            out[i, W_MAGNETS] = sparams[i, MEMORY_COL + 2]
            for j in range(PLANNER_W.shape[0]):
                out[i, W_FIND + j] = PLANNER_W[j]


@njit
def rivals_on(st, cur, me, prm):
    """Rivals of ``me`` whose ghost stands (in the position ``cur``) on a garment of a part they lack, still in play
    (both public: worn parts and taken cards are face up)."""
    n = 0
    for r in range(st[S_NG]):
        if r == me:
            continue
        c = cur[S_GPOS + r]
        if c < 0:
            continue
        gm = prm[P_GARMENT_AT + c]
        if gm >= 0 and (st[S_HAVE + r] >> (gm // PER_PART)) & 1 == 0 and st[S_CARD_LOC + gm] < LOC_SEAT:
            n += 1
    return n


@njit
def deck_chance(st, me, gm, k):
    """M5: ``me``'s chance that deck ``k`` holds garment ``gm``: 1 when it remembers the card there, 0 when the deck
    cannot hold it, else 1 / the decks that may."""
    if not possible(st, me, k, gm):
        return 0.0
    if st[S_KNOW + (me * N_DECKS + k) * N_PARTS + gm // PER_PART] == gm:
        return 1.0
    n = 0
    for j in range(N_DECKS):
        if possible(st, me, j, gm):
            n += 1
    return 1.0 / n


@njit
def cell_value(prm, probs, near, b):
    """(find chance, closeness) of board cell ``b`` for the seat whose `chances` filled ``probs`` and ``near``."""
    if b < 0:
        return 0.0, 0.0
    gm = prm[P_GARMENT_AT + b]
    return (probs[gm] if gm >= 0 else 0.0), near[b]


@njit
def top_cell(prm, w, probs, near):
    """The most `next` can be for the seat whose `chances` filled ``probs`` and ``near``: the highest value `score`
    (S3) gives any cell, at depth 0 (the same float64 operations; a later depth subtracts w_moves >= 0), at least
    PLAN_FLOOR. +inf for weights it does not bound (w_rival not 0, w_moves below 0)."""
    if w[W_RIVAL] != 0.0 or w[W_MOVES] < 0.0:
        return math.inf
    top = PLAN_FLOOR
    for b in range(N_CELLS):
        gm = prm[P_GARMENT_AT + b]
        v = w[W_FIND] * probs[gm] if gm >= 0 else 0.0
        v += w[W_NEAR] * near[b]
        top = max(top, v)
    return top


@njit
def next_turn(end, prm, w, marker, work, base, cur, keys, probs, near, top):
    """The own ghost's next turn from ``end`` (int32[S_SIZE], where this turn ends; its moves left are reset here):
    the planner's value (S3, ``w``) of the best use of a whole turn's moves from there, the board as it then stands
    (rivals do not move in between: the seat cannot know how they will), the find chances as the seat knows them now
    (M5); at least PLAN_FLOOR. Kept per end position in the marker's cache for the rest of the decision. ``top``:
    `top_cell`, where the search may stop."""
    key = phys_key(end, 0)
    n = marker.ncount[0]
    for i in range(n):
        if marker.nkeys[i] == key:
            return marker.nvals[i]
    end[S_MOVES_LEFT] = prm[P_MOVES]
    v = plan_search(end, prm, w, work, base, cur, keys, probs, near, top)[0]
    if v < -1e17:  # no legal sequence (C1): it stands where it is
        v = score(end, end, 0, prm, end[S_CUR], w, probs, near, 0)
    v = max(v, PLAN_FLOOR)
    if n < NEXT_CACHE:
        marker.nkeys[n] = key
        marker.nvals[n] = v
        marker.ncount[0] = n + 1
    return v


@njit
def move_features(st, prm, w, me, a, marker, work, base, cur, keys, probs, near, ahead, top):
    """(plan, find, near, rivals_on, held, next) of magical move ``a``, made on ``marker.child`` (a copy of ``st``);
    the rest of the turn is the plan's best continuation, from whose end ``next`` looks one turn ahead (``ahead``
    NEXT_NOW; 0 with NEXT_OFF, a policy whose weight on it is 0 does not pay for it; 0 with NEXT_LATER, the turn's
    end left in ``marker.child``); ``top``: `top_cell`, where the searches may stop."""
    child = marker.child
    for i in range(st.shape[0]):
        child[i] = st[i]
    do_move(child, prm, me, a)
    place_first_options(child, prm)
    child[S_MOVES_LEFT] -= 1
    last = -1
    node = 0
    if child[S_MOVES_LEFT] > 0:
        v, node, last = plan_search(child, prm, w, work, base, cur, keys, probs, near, top)
        if v < -1e17:  # no sequence may end the turn (C1): it ends where it stands, moves unused
            v = score(child, child, 0, prm, me, w, probs, near, 0)
            last = -1
        v -= w[W_MOVES]
    else:
        chances(child, prm, me, probs, near)
        v = score(child, child, 0, prm, me, w, probs, near, 1)
    # probs and near are now ``me``'s in the child position (plan_search computes them there too)
    f, nr = cell_value(prm, probs, near, child[S_GPOS + me])
    ro = float(rivals_on(st, child, me, prm))
    held = 1.0 if is_held(child, prm, me) else 0.0
    if ahead == NEXT_OFF:
        return max(v, PLAN_FLOOR), f, nr, ro, held, 0.0
    if last >= 0:  # the turn's end: the best continuation's last node (work[W_NODES..]) and its last move
        load(child, 0, work, W_NODES + node * NODE_W)
        do_move(child, prm, me, last)
        place_first_options(child, prm)
    nx = next_turn(child, prm, w, marker, work, base, cur, keys, probs, near, top) if ahead == NEXT_NOW else 0.0
    return max(v, PLAN_FLOOR), f, nr, ro, held, nx


@njit
def action_features(st, prm, w, a, here, marker, work, base, cur, keys, probs, near, ahead):
    """The features (float64 x N_FEATURES, FEATURES order) of legal action ``a`` of the seat to act; ``w`` its
    effective row (memory columns, knows_magnets, the planner's weights), ``prm`` the parameters as it knows them
    (C5), ``here`` (`standing`: plan value, find chance, closeness, next turn, top) where its ghost stands now;
    ``ahead`` (NEXT_*) how ``next`` of a move is computed (`move_features`; ending the turn and a search take
    here's)."""
    me = st[S_CUR]
    f0 = f1 = f2 = f3 = f4 = f5 = f6 = f7 = f8 = f9 = f10 = f11 = f12 = f13 = f14 = 0.0
    if st[S_PHASE] == PH_PLACE:
        b = a - A_PLACE
        g = st[S_PEND]
        if g == me:
            chances(st, prm, me, probs, near)
            fc, nr = cell_value(prm, probs, near, b)
            f12 = fc + 0.5 * nr
        else:
            gm = prm[P_GARMENT_AT + b]
            if gm >= 0 and (st[S_HAVE + g] >> (gm // PER_PART)) & 1 == 0 and st[S_CARD_LOC + gm] < LOC_SEAT:
                f13 = 1.0
    elif a < A_PLACE:
        f0, f1, f2, f3, f4, f14 = move_features(
            st, prm, w, me, a, marker, work, base, cur, keys, probs, near, ahead, here[4]
        )
        if a < A_SLIDE:
            f5 = 1.0
        elif a < A_SHIFT:
            f6 = 1.0
        elif a < A_TURN:
            f7 = 1.0
        else:
            f8 = 1.0
    else:
        f0, f1, f2, f14 = here[0], here[1], here[2], here[3]
        f3 = float(rivals_on(st, st, me, prm))
        f4 = 1.0 if is_held(st, prm, me) else 0.0
        if a == A_END:
            f9 = 1.0
        else:
            f10 = 1.0
            gm = prm[P_GARMENT_AT + st[S_GPOS + me]]
            f11 = deck_chance(st, me, gm, a - A_SEARCH)
    return (f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14)


@njit
def standing(st, prm, w, marker, work, base, cur, keys, probs, near, ahead):
    """(plan value, find chance, closeness, next turn, `top_cell`) of the own ghost where it stands (S3 at depth 0;
    `next_turn` from here, as ending the turn or a search leaves it; 0 at a placement, which scores none of them, and
    unless ``ahead`` is NEXT_NOW). Empties the marker's next-turn cache: a new decision."""
    me = st[S_CUR]
    marker.ncount[0] = 0
    chances(st, prm, me, probs, near)
    fc, nr = cell_value(prm, probs, near, st[S_GPOS + me])
    v = score(st, st, 0, prm, me, w, probs, near, 0)
    top = top_cell(prm, w, probs, near)
    nx = 0.0
    if ahead == NEXT_NOW and st[S_PHASE] != PH_PLACE:
        end = marker.child
        for i in range(st.shape[0]):
            end[i] = st[i]
        nx = next_turn(end, prm, w, marker, work, base, cur, keys, probs, near, top)
    return v, fc, nr, nx, top


@njit
def greedy_ahead(sp, w, st, prm, k, top, marker, work, base, cur, keys, probs, near):
    """The action `select` picks at temperature 0 from the full scores (the highest, ties to the lower action index),
    with ``next`` computed only for the actions that may still have it. marker.scores[:k]: each legal action's score
    without ``next`` (which is the last term of the sum, so the full score is that plus sp[N_FEATURES] * next, the
    same float64 operations), marker.ends[:k] where it ends the turn. ``next`` lies between PLAN_FLOOR and
    `top_cell`, which bounds each score (rounding is monotone); the actions are taken highest bound first, and one
    whose bound is below the best score found, or equal to it from a higher action, is never searched."""
    scores, acts, ends, bounds = marker.scores, marker.acts, marker.ends, marker.bounds
    wn = sp[N_FEATURES]
    lift = wn * top if wn > 0.0 else wn * PLAN_FLOOR
    for j in range(k):
        bounds[j] = scores[j] + lift
    end = marker.child
    for i in range(st.shape[0]):
        end[i] = st[i]
    best = -math.inf
    best_a = -1
    while True:
        j = -1
        for i in range(k):
            if bounds[i] > -math.inf and (j < 0 or bounds[i] > bounds[j]):
                j = i
        if j < 0 or bounds[j] < best:
            return best_a
        b = bounds[j]
        bounds[j] = -math.inf  # taken
        if b == best and acts[j] > best_a:
            continue
        for i in range(N_PHYS):
            end[i] = ends[j, i]
        s = scores[j] + wn * next_turn(end, prm, w, marker, work, base, cur, keys, probs, near, top)
        if s > best or (s == best and acts[j] < best_a):
            best = s
            best_a = acts[j]


@njit
def learned_choice(sp, w, st, prm, mask, rng, row, marker, work, base, cur, keys, probs, near):
    """The `learned` ghost's action among the legal ones (``mask`` int8[N_ACTIONS]): each legal action scored once,
    score = sum_i sp[1 + i] * feature i in feature order, into marker.scores (its action in marker.acts), then
    `kernels.policy.select` (temperature sp[0]: 0 the highest score, ties to the lower action index, no draw; > 0 one
    draw on ``rng[row]``). At temperature 0 with a weight on ``next``, `greedy_ahead` picks the same action, searching
    the next turn only where it may change the pick. ``w``: the seat's effective row (`strategies.effective_rows`);
    work..near: the planner's scratch."""
    kp = prm  # C5: the parameters as the seat knows them (without the magnets, only the grips the table has seen)
    if w[W_MAGNETS] < 0.5:
        believed(prm, st, keys)
        kp = keys[2 * HASH_SIZE :]
    ahead = NEXT_OFF  # the weight on `next`, the last feature, 0 (or a placement): no search (the same scores)
    if sp[N_FEATURES] != 0.0 and st[S_PHASE] != PH_PLACE:
        ahead = NEXT_LATER if sp[0] <= 0.0 else NEXT_NOW
    here = standing(st, kp, w, marker, work, base, cur, keys, probs, near, ahead)
    scores, acts = marker.scores, marker.acts
    k = 0
    for a in range(N_ACTIONS):
        if mask[a]:
            f = action_features(st, kp, w, a, here, marker, work, base, cur, keys, probs, near, ahead)
            s = 0.0
            for i in range(N_FEATURES):
                s += sp[1 + i] * f[i]
            scores[k] = s
            acts[k] = a
            if ahead == NEXT_LATER:  # where it ends the turn: a move's planned end (`move_features`), else here
                src = marker.child if a < A_PLACE else st
                for i in range(N_PHYS):
                    marker.ends[k, i] = src[i]
            k += 1
    if ahead == NEXT_LATER:
        return greedy_ahead(sp, w, st, kp, k, here[4], marker, work, base, cur, keys, probs, near)
    return select(scores, acts, k, sp[0], rng, row)


@njit
def play_learned(marker, sp, w, st, prm, mask, rng, row, work, base, cur, keys, probs, near):
    """`learned_choice` where the batch scratch's learned marker is not None (`new_marker`); -1 (refused:
    ST_BAD_ACTION) where it is. A marker of type None prunes the learned policy from the compiled kernel: a scenario
    without a learned seat compiles none of it (kernel contract, "Batch signature")."""
    if marker is None:
        return -1
    return learned_choice(sp, w, st, prm, mask, rng, row, marker, work, base, cur, keys, probs, near)


@njit
def _fill(st, prm, w, mask, out, marker, work, base, cur, keys, probs, near):
    kp = prm  # C5: the parameters as the seat knows them (without the magnets, only the grips the table has seen)
    if w[W_MAGNETS] < 0.5:
        believed(prm, st, keys)
        kp = keys[2 * HASH_SIZE :]
    here = standing(st, kp, w, marker, work, base, cur, keys, probs, near, NEXT_NOW)
    c = 0
    for a in range(N_ACTIONS):
        if mask[a]:
            f = action_features(st, kp, w, a, here, marker, work, base, cur, keys, probs, near, NEXT_NOW)
            for i in range(N_FEATURES):
                out[a, i] = f[i]
            c += 1
    return c


def fill_features(st, prm, seat, mask, out, ws):
    """Training's view (plain Python): row a of ``out`` (float64[N_ACTIONS, N_FEATURES]) the features of each legal
    action a (``mask``) of ``seat``, the seat to act, from the batch scratch ``ws`` (with the learned marker): its
    memory and magnet knowledge from the seat's effective row there, the planner's weights (as play uses them);
    returns how many are legal."""
    sc = ws.work
    w = sc.wrows[int(seat)].copy()
    w[W_FIND : W_FIND + len(PLANNER_W)] = PLANNER_W
    return _fill(st, prm, w, mask, out, ws.learned, sc.work, sc.base, sc.cur, sc.keys, sc.probs, sc.near)
