"""Conformance of the Moor kernel over many random games: invariants after every step, and hidden information.

A small jitted driver (`run_checked`) plays a game exactly like `play.play_one` (same streams, same strategy calls)
but calls `check_state` after every chance outcome and every action. `check_state` recomputes everything from the
ground truth and returns an error code (see ERRORS) when anything disagrees:

* all 38 tiles accounted for exactly once: every stack entry agrees with `S_TILE_LOC`, holdings counts (by kind) and
  ghost sums recomputed from `S_TILE_LOC`, the unused planks in the box, lost tiles counted in `S_TILES_LOST`;
* stack heights 0..2, never a tile on Start or End, empty slots are -1;
* pawns never lost: each player has exactly its pawn count, positions in 0..End, monotone non-decreasing,
  the per-space occupancy cache (when the layout has one) and the pawns-home counts equal the pawn list;
* goal tokens: taken = min(5, pawns home), their values sum to the first ones of the stack;
* scores recomputed from the holdings equal `rules.score`.

Hidden information: at every decision the driver also builds a copy of the state in which the covered (non-top)
tiles are permuted between stacks, and asks *every* strategy for its choice on both; any difference is an error.
The learned policy is among them (`decide_any` dispatches it as kernels/moor/step.py does), with random weights and
temperatures; tests/kernels/moor/test_learned.py shows a deliberate leak fails the same comparison.
"""

from __future__ import annotations

import numpy as np
import pytest

from kernels._jit import njit_alloc
from kernels.moor import features as F
from kernels.moor import play as PL
from kernels.moor import rules as R
from kernels.moor import strategies as S
from kernels.policy import Marker
from kernels.rng import N_STREAMS_MAX, bounded, seed_stream, shuffle

from ._kit import prm_of

HAS_OCC = hasattr(R, "S_OCC")
S_OCC = getattr(R, "S_OCC", 0)
N_STRATEGIES = len(S.STRATEGIES)
N_ROW = max(S.N_SPARAMS, F.N_LEARNED_PARAMS)  # a seat's parameter row (sim.games.moor's n_sparams)
PERM_ROW = N_STREAMS_MAX - 1  # a stream no seat of a <= 5 player game uses: drives the covered-tile shuffles

ERRORS = {
    1: "a tile's location disagrees with the stacks",
    2: "stack height out of 0..2 or a slot above the height is not -1",
    3: "a tile on Start or End",
    4: "holdings count by kind disagrees with the tiles held",
    5: "ghost sum disagrees with the ghosts held",
    6: "boxed tiles are not exactly the unused planks",
    7: "lost tiles disagree with S_TILES_LOST",
    8: "tiles do not add up to 38",
    9: "pawn count or unused pawn slot wrong",
    10: "pawn position out of 0..End",
    11: "a pawn moved backwards",
    12: "occupancy cache disagrees with the pawn list",
    13: "goal tokens taken != min(5, pawns home)",
    14: "goal sums/counts disagree with the goal stack",
    15: "score disagrees with the score recomputed from holdings",
    16: "a strategy returned an illegal action",
    17: "a strategy's decision changed when covered tiles were permuted",
    18: "game did not end within the turn cap",
    19: "a player not holding all pawns home has no legal move / bad phase",
    20: "pawns-home count (S_HOME) disagrees with the pawn list",
}


@njit_alloc
def check_state(st, prm, prev_pos):
    """0 when every invariant holds, else an ERRORS code. ``prev_pos`` (int32[25]) holds the last positions and is
    updated."""
    n = st[R.S_NPLAYERS]
    npw = st[R.S_NPAWNS]
    end = st[R.S_END]
    # ---- tiles on the track
    on_board = 0
    for s in range(R.MAX_TRACK):
        h = st[R.S_HEIGHT + s]
        if h < 0 or h > R.STACK:
            return 2
        if h > 0 and (s == 0 or s >= end):
            return 3
        for i in range(R.STACK):
            t = st[R.S_STACK + s * R.STACK + i]
            if i < h:
                if t < 0 or t >= R.N_TILES or st[R.S_TILE_LOC + t] != R.LOC_SPACE + s:
                    return 1
                on_board += 1
            elif t != -1:
                return 2
    # ---- every tile exactly once: locations
    n_space = 0
    n_held = 0
    n_box = 0
    n_lost = 0
    for t in range(R.N_TILES):
        loc = st[R.S_TILE_LOC + t]
        if loc >= R.LOC_SPACE:
            s = loc - R.LOC_SPACE
            found = 0
            for i in range(st[R.S_HEIGHT + s]):
                if st[R.S_STACK + s * R.STACK + i] == t:
                    found += 1
            if found != 1:
                return 1
            n_space += 1
        elif 0 <= loc < n:
            n_held += 1
        elif loc == R.LOC_BOX:
            if t <= R.PLANK0 + n:  # only the planks neither given nor dealt stay in the box
                return 6
            n_box += 1
        elif loc == R.LOC_LOST:
            n_lost += 1
        else:
            return 1
    if n_space != on_board:
        return 1
    if n_box != R.N_PLANKS - n - 1:
        return 6
    if n_lost != st[R.S_TILES_LOST]:
        return 7
    if n_space + n_held + n_box + n_lost != R.N_TILES:
        return 8
    # ---- holdings and ghost sums recomputed from tile locations
    for p in range(R.MAX_PLAYERS):
        gs = 0
        for k in range(R.N_KINDS):
            c = 0
            for t in range(R.N_TILES):
                if st[R.S_TILE_LOC + t] == p and R.tile_kind(t) == k:
                    c += 1
                    if k == R.K_GHOST:
                        gs += prm[R.P_GHOST_VALUES + t - R.GHOST0]
            if c != st[R.S_HOLD + p * R.N_KINDS + k]:
                return 4
        if gs != st[R.S_GHOST_SUM + p]:
            return 5
    # ---- pawns
    home = 0
    occ = np.zeros(R.MAX_TRACK, dtype=np.int32)
    for p in range(R.MAX_PLAYERS):
        home_p = 0
        for k in range(R.MAX_PAWNS):
            x = st[R.S_PAWN_POS + p * R.MAX_PAWNS + k]
            if p >= n or k >= npw:
                if x != -1:
                    return 9
                continue
            if x < 0 or x > end:
                return 10
            if x < prev_pos[p * R.MAX_PAWNS + k]:
                return 11
            prev_pos[p * R.MAX_PAWNS + k] = x
            occ[x] += 1
            if x == end:
                home += 1
                home_p += 1
        if st[R.S_HOME + p] != home_p:
            return 20
    if HAS_OCC:
        for s in range(R.MAX_TRACK):
            if st[S_OCC + s] != occ[s]:
                return 12
    # ---- goal tokens (a pawn that just reached End takes its token when the turn finishes, after a discard)
    ph = st[R.S_PHASE]
    pending = 1 if (ph == R.PH_PLANK or ph == R.PH_DISCARD) and st[R.S_DEST] == end else 0
    taken = min(home - pending, R.N_GOALS)
    if st[R.S_GOAL_NEXT] != taken:
        return 13
    gsum = 0
    gcount = 0
    for p in range(R.MAX_PLAYERS):
        gsum += st[R.S_GOAL_SUM + p]
        gcount += st[R.S_GOAL_COUNT + p]
    want = 0
    for i in range(taken):
        want += prm[R.P_GOAL_VALUES + i]
    if gsum != want or gcount != taken:
        return 14
    # ---- scores recomputed from holdings
    for p in range(n):
        sc = st[R.S_GOAL_SUM + p]
        for k in range(R.N_TYPES):
            c = 0
            for t in range(R.N_TREASURES):
                if st[R.S_TILE_LOC + t] == p and R.tile_kind(t) == k:
                    c += 1
            sc += prm[R.P_SET_POINTS + c]
        for t in range(R.GHOST0, R.PLANK0):
            if st[R.S_TILE_LOC + t] == p:
                sc -= prm[R.P_GHOST_VALUES + t - R.GHOST0]
        if sc != R.score(st, prm, p):
            return 15
    return 0


@njit_alloc
def permute_covered(st, st2, rng):
    """Copy ``st`` into ``st2`` with the covered (bottom of a 2-high stack) tiles shuffled among those stacks."""
    st2[:] = st
    spaces = np.zeros(R.MAX_TRACK, dtype=np.int32)
    tiles = np.zeros(R.MAX_TRACK, dtype=np.int32)
    m = 0
    for s in range(R.MAX_TRACK):
        if st[R.S_HEIGHT + s] == 2:
            spaces[m] = s
            tiles[m] = st[R.S_STACK + s * R.STACK]
            m += 1
    shuffle(rng, PERM_ROW, tiles, m)
    for i in range(m):
        s = spaces[i]
        st2[R.S_STACK + s * R.STACK] = tiles[i]
        st2[R.S_TILE_LOC + tiles[i]] = R.LOC_SPACE + s
    return m


@njit_alloc
def decide_any(sid, sp, st, prm, mask, nl, rng, row, legal):
    """Strategy ``sid``'s choice, the learned policy included (dispatched as kernels/moor/step.py's `decide`)."""
    if sid == S.S_LEARNED:
        return F.learned_choice(
            sp, st, prm, mask, rng, row, Marker(np.zeros(R.N_ACTIONS), np.zeros(R.N_ACTIONS, np.int64))
        )
    return S.decide(sid, sp, st, prm, mask, nl, rng, row, legal)


@njit_alloc
def run_checked(seed, g, n, prm, sids, sparams, hidden):
    """Play game ``g`` like play.play_one, checking invariants after every step.

    Returns (error code, turn, decisions, hidden-information comparisons made).
    """
    st = np.zeros(R.S_SIZE, dtype=np.int32)
    st2 = np.zeros(R.S_SIZE, dtype=np.int32)
    rng = np.zeros((N_STREAMS_MAX, 4), dtype=np.uint64)
    rng_a = np.zeros((N_STREAMS_MAX, 4), dtype=np.uint64)
    rng_b = np.zeros((N_STREAMS_MAX, 4), dtype=np.uint64)
    for r in range(1 + n):
        seed_stream(rng, r, seed, 0, g, r)
    seed_stream(rng, PERM_ROW, seed, 99, g, 0)
    log = np.zeros((1, R.LOG_W), dtype=np.int32)
    order = np.empty(R.N_DEALT, dtype=np.int32)
    R.init(st, prm, n)
    R.deal_pool(st, order)
    shuffle(rng, 0, order, R.N_DEALT)
    R.new_game(st, prm, n, order, log)
    prev = np.zeros(R.MAX_PLAYERS * R.MAX_PAWNS, dtype=np.int32)
    mask = np.zeros(R.N_ACTIONS, dtype=np.int8)
    legal = np.zeros(R.N_ACTIONS, dtype=np.int8)
    first = g % n
    compared = 0
    decisions = 0
    e = check_state(st, prm, prev)
    if e:
        return e, 0, decisions, compared
    while st[R.S_PHASE] != R.PH_OVER:
        if st[R.S_PHASE] == R.PH_ROLL:
            if st[R.S_TURNS] >= prm[R.P_MAX_TURNS]:
                return 18, st[R.S_TURNS], decisions, compared
            R.apply_chance(st, 1 + bounded(rng, 0, prm[R.P_DIE_FACES]), log)
        else:
            nl = R.legal_actions(st, prm, mask, legal)
            if nl < 1:
                return 19, st[R.S_TURNS], decisions, compared
            seat = (first + st[R.S_CUR]) % n
            if nl == 1:
                a = 0
                while not mask[a]:
                    a += 1
            else:
                decisions += 1
                if hidden and permute_covered(st, st2, rng) >= 2:
                    for sid in range(N_STRATEGIES):
                        rng_a[:] = rng
                        rng_b[:] = rng
                        a1 = decide_any(sid, sparams[seat], st, prm, mask, nl, rng_a, 1 + seat, legal)
                        a2 = decide_any(sid, sparams[seat], st2, prm, mask, nl, rng_b, 1 + seat, legal)
                        if a1 != a2:
                            return 17, st[R.S_TURNS], decisions, compared
                        compared += 1
                a = decide_any(sids[seat], sparams[seat], st, prm, mask, nl, rng, 1 + seat, legal)
                if a < 0 or a >= R.N_ACTIONS or mask[a] == 0:
                    return 16, st[R.S_TURNS], decisions, compared
            R.apply_action(st, prm, a, log)
        e = check_state(st, prm, prev)
        if e:
            return e, st[R.S_TURNS], decisions, compared
    return 0, st[R.S_TURNS], decisions, compared


def _sparams(n, rng):
    """Default weights for most seats, random weights for some (the weighted strategy reads its first columns, the
    learned policy its temperature, column 0, and its weights after it: half the random rows sample, half are
    greedy)."""
    base = np.zeros(N_ROW, dtype=np.float64)
    base[: S.N_SPARAMS] = [d for _, d, _ in S.WEIGHT_SPECS]
    sp = np.tile(base, (n, 1))
    for i in range(n):
        if rng.random() < 0.5:
            sp[i] = rng.uniform(-2.0, 4.0, size=N_ROW)
    return sp


def _play_many(prm, games_per_count, seed, hidden=False):
    rng = np.random.default_rng(seed)  # only picks seat strategies and weights (outside the kernel)
    total = 0
    compared = 0
    for n in (2, 3, 4, 5):
        for g in range(games_per_count):
            sids = rng.integers(0, N_STRATEGIES, size=n).astype(np.int64)
            sp = _sparams(n, rng)
            e, turn, dec, cmp_ = run_checked(np.uint64(seed), g, n, prm, sids, sp, hidden)
            assert e == 0, f"players={n} game={g} sids={list(sids)} turn={turn}: {ERRORS[e]}"
            total += 1
            compared += cmp_
    return total, compared


def test_invariants_hold_every_step_default_rules():
    total, _ = _play_many(prm_of(), 750, seed=101)
    assert total == 3000


@pytest.mark.parametrize(
    "variant",
    [
        dict(discard_fallback="ignore_pawns"),
        dict(vacated_origin_counts=False),
        dict(ghost_before_two=True),
        dict(planks_discardable=False),
        dict(tiebreak="shared"),
        dict(track_len=19),  # a short track: discards often find no empty space (lost tiles)
        dict(track_len=19, discard_fallback="ignore_pawns", vacated_origin_counts=False),
        dict(track_len=40, die_faces=4, ghost_values=[1, 1, 2, 2, 3, 3, 4], goal_values=[9, 7, 5, 3, 1]),
    ],
)
def test_invariants_hold_every_step_variants(variant):
    total, _ = _play_many(prm_of(**variant), 100, seed=202)
    assert total == 400


def test_short_track_really_loses_tiles():
    """The variant runs above only mean something if the rare branches are reached: tiles lost, planks laid."""
    prm = prm_of(track_len=19)
    sids = np.zeros(4, dtype=np.int64)
    sp = np.zeros((4, S.N_SPARAMS), dtype=np.float64)
    lost = laid = 0
    for g in range(200):
        log = PL.trace_game(np.uint64(3), np.uint64(0), g, 4, prm, sids, sp, 20_000).log
        ev = [tuple(int(x) for x in log[i]) for i in range(1, int(log[0, 0]) + 1)]
        lost += sum(1 for e in ev if e[0] == R.E_DISCARD and e[3] == -1)
        laid += sum(1 for e in ev if e[0] == R.E_PLANK)
    assert lost > 0 and laid > 0


def test_hidden_information_covered_tiles_never_change_a_decision():
    total, compared = _play_many(prm_of(), 150, seed=303, hidden=True)
    assert total == 600 and compared > 10_000


def test_permute_covered_really_moves_covered_tiles():
    """Guard for the hidden-information test: the permuted copy differs exactly in covered tiles, tops untouched."""
    st = np.zeros(R.S_SIZE, dtype=np.int32)
    st2 = np.zeros(R.S_SIZE, dtype=np.int32)
    prm = prm_of()
    order = np.arange(33, dtype=np.int32)
    order[-1] = R.PLANK0 + 4
    R.new_game(st, prm, 4, order, np.zeros((1, R.LOG_W), np.int32))
    rng = np.zeros((N_STREAMS_MAX, 4), dtype=np.uint64)
    seed_stream(rng, PERM_ROW, 1, 0, 0, 0)
    assert permute_covered(st, st2, rng) == 14
    bottoms = [int(st2[R.S_STACK + s * R.STACK]) for s in range(1, 15)]
    assert bottoms != [int(st[R.S_STACK + s * R.STACK]) for s in range(1, 15)]
    assert sorted(bottoms) == sorted(int(st[R.S_STACK + s * R.STACK]) for s in range(1, 15))
    assert all(st2[R.S_STACK + s * R.STACK + 1] == st[R.S_STACK + s * R.STACK + 1] for s in range(1, 15))
    assert check_state(st2, prm, np.zeros(25, np.int32)) == 0


def test_checker_catches_corruption():
    """Guard for the checker itself: each kind of corruption of a valid state is reported with its code."""
    prm = prm_of()
    base = np.zeros(R.S_SIZE, dtype=np.int32)
    order = np.arange(33, dtype=np.int32)
    order[-1] = R.PLANK0 + 3
    R.new_game(base, prm, 3, order, np.zeros((1, R.LOG_W), np.int32))
    assert check_state(base.copy(), prm, np.zeros(25, np.int32)) == 0

    def broken(fn):
        st = base.copy()
        fn(st)
        return check_state(st, prm, np.zeros(25, np.int32))

    def drop_top(st):  # a tile vanishes from a stack but still claims to be there
        st[R.S_HEIGHT + 15] = 0
        st[R.S_STACK + 15 * R.STACK] = -1

    def dup(st):  # a tile on two stacks
        st[R.S_STACK + 20 * R.STACK] = st[R.S_STACK + 1 * R.STACK]
        st[R.S_HEIGHT + 20] = 1

    def hold(st):
        st[R.S_HOLD + 0 * R.N_KINDS + 2] += 1

    def ghost_sum(st):
        st[R.S_GHOST_SUM + 1] = 3

    def lost_pawn(st):
        st[R.S_PAWN_POS + 1 * R.MAX_PAWNS + 3] = -1

    def box(st):
        st[R.S_TILE_LOC + R.PLANK0 + 5] = 2

    def home_count(st):  # a pawn counted home that is not on End
        st[R.S_HOME + 2] += 1

    def score(st):
        st[R.S_GOAL_SUM + 2] = 4
        st[R.S_GOAL_COUNT + 2] = 1

    assert broken(drop_top) == 1
    assert broken(dup) == 1
    assert broken(hold) == 4
    assert broken(ghost_sum) == 5
    assert broken(lost_pawn) == 10
    assert broken(box) == 6
    assert broken(score) == 14
    assert broken(home_count) == 20
    st = base.copy()
    prev = np.zeros(25, np.int32)
    prev[0] = 3  # the pawn was on space 3 before: now on Start = moved back
    assert check_state(st, prm, prev) == 11
