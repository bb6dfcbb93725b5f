"""The learned policy of Ghosts of the Moor (`learned`, kernels/moor/features.py): legal actions only, the
hidden-information permutation test (and that a deliberate leak fails it), its weights from the seat's parameter
row, search with learned rollouts."""

from __future__ import annotations

import numpy as np
import pytest

from kernels._jit import njit_alloc
from kernels.batch import play_games
from kernels.moor import features as F
from kernels.moor import play as PL
from kernels.moor import rules as R
from kernels.policy import Marker
from kernels.rng import N_STREAMS_MAX, bounded, seed_stream, shuffle

from ._kit import prm_of
from .test_invariants import PERM_ROW, permute_covered

pytestmark = pytest.mark.kernel


def _row(rng, temperature=0.0):
    row = np.zeros(F.N_LEARNED_PARAMS)
    row[0] = temperature
    row[1:] = rng.uniform(-3.0, 3.0, size=F.N_FEATURES)
    return row


@njit_alloc
def leaky_choice(sp, st, prm, mask):
    """The greedy learned choice plus a deliberate leak: a move is also scored by the covered (bottom) tile of its
    destination, which no player can see."""
    best = -1e300
    best_a = -1
    for a in range(R.N_ACTIONS):
        if mask[a]:
            s = F.action_score(sp, st, prm, a)
            if st[R.S_PHASE] == R.PH_MOVE:
                p = st[R.S_CUR]
                d = min(st[R.S_PAWN_POS + p * R.MAX_PAWNS + a - R.A_MOVE] + st[R.S_ROLL], st[R.S_END])
                if st[R.S_HEIGHT + d] == 2:
                    s += 0.5 * st[R.S_STACK + d * R.STACK]
            if s > best:
                best = s
                best_a = a
    return best_a


@njit_alloc
def _deal(st, rng, order, log, prm, n, seed, g):
    """Game ``g`` dealt into ``st``: its streams seeded (chance, each seat's, and the covered tiles' permutation on
    row PERM_ROW), the tiles shuffled, the game begun."""
    for r in range(1 + n):
        seed_stream(rng, r, seed, 0, g, r)
    seed_stream(rng, PERM_ROW, seed, 99, g, 0)
    R.init(st, prm, n)
    R.deal_pool(st, order)
    shuffle(rng, 0, order, R.N_DEALT)
    R.new_game(st, prm, n, order, log)


@njit_alloc
def compare_hidden(seed, n, prm, sp, games, leak):
    """Play ``games`` games of learned seats (row ``sp``); at every decision with covered tiles on the board, ask the
    policy (``leak``: `leaky_choice`) on the state and on a copy whose covered tiles were permuted. Returns
    (decisions compared, decisions that differed)."""
    st = np.zeros(R.S_SIZE, dtype=np.int32)
    st2 = np.zeros(R.S_SIZE, dtype=np.int32)
    rng = np.zeros((N_STREAMS_MAX, 4), dtype=np.uint64)
    rng_a = np.zeros((N_STREAMS_MAX, 4), dtype=np.uint64)
    log = np.zeros((1, R.LOG_W), dtype=np.int32)
    order = np.empty(R.N_DEALT, dtype=np.int32)
    mask = np.zeros(R.N_ACTIONS, dtype=np.int8)
    legal = np.zeros(R.N_ACTIONS, dtype=np.int8)
    scores = Marker(np.zeros(R.N_ACTIONS), np.zeros(R.N_ACTIONS, dtype=np.int64))  # kernels.policy.new_marker
    compared = 0
    differ = 0
    for g in range(games):
        _deal(st, rng, order, log, prm, n, seed, g)
        while st[R.S_PHASE] != R.PH_OVER and st[R.S_TURNS] < 1000:
            if st[R.S_PHASE] == R.PH_ROLL:
                R.apply_chance(st, 1 + bounded(rng, 0, prm[R.P_DIE_FACES]), log)
                continue
            nl = R.legal_actions(st, prm, mask, legal)
            row = 1 + st[R.S_CUR]
            if nl > 1 and permute_covered(st, st2, rng) >= 2:
                if leak:
                    a1 = leaky_choice(sp, st, prm, mask)
                    a2 = leaky_choice(sp, st2, prm, mask)
                else:
                    rng_a[:] = rng
                    a1 = F.learned_choice(sp, st, prm, mask, rng_a, row, scores)
                    rng_a[:] = rng
                    a2 = F.learned_choice(sp, st2, prm, mask, rng_a, row, scores)
                compared += 1
                differ += a1 != a2
            a = F.learned_choice(sp, st, prm, mask, rng, row, scores)
            R.apply_action(st, prm, a, log)
    return compared, differ


@pytest.mark.parametrize("temperature", [0.0, 1.0])
def test_hidden_information_learned_never_reads_a_covered_tile(temperature):
    rng = np.random.default_rng(7)
    total = 0
    for k in range(4):
        sp = _row(rng, temperature)
        compared, differ = compare_hidden(np.uint64(11 + k), 4, prm_of(), sp, 40, False)
        assert differ == 0
        total += compared
    assert total > 2000


def test_hidden_information_test_fails_on_a_deliberate_leak():
    rng = np.random.default_rng(7)
    compared, differ = compare_hidden(np.uint64(11), 4, prm_of(), _row(rng), 40, True)
    assert compared > 500 and differ > 0


def _play(n, sids, sparams, games=300, seed=3):
    prm = prm_of()
    scratch = PL.batch_scratch(n, learned=True)
    return play_games(PL.play_batch, scratch, seed, 0, 0, games, n, prm, sids, sparams, PL.N_EXTRA)


@pytest.mark.parametrize("n", [2, 5])
def test_learned_plays_only_legal_actions_with_any_weights(n):
    """Every game of a learned table with random weights (greedy and sampled) ends done: an illegal action would be
    status ST_BAD_ACTION."""
    rng = np.random.default_rng(n)
    sids = np.full(n, 5, dtype=np.int64)  # S_LEARNED
    for temperature in (0.0, 0.5):
        sparams = np.array([_row(rng, temperature) for _ in range(n)])
        status = _play(n, sids, sparams).status
        assert (status == PL.ST_DONE).all()


def test_learned_weights_come_from_the_parameter_row():
    """Two weight rows play different games; the same row plays the same games (nothing compiled in)."""
    rng = np.random.default_rng(1)
    sids = np.full(4, 5, dtype=np.int64)
    a = np.tile(_row(rng), (4, 1))
    b = np.tile(_row(rng), (4, 1))
    ra, rb, ra2 = _play(4, sids, a), _play(4, sids, b), _play(4, sids, a.copy())
    assert not np.array_equal(ra.scores, rb.scores)
    assert all(np.array_equal(x, y) for x, y in zip(ra, ra2))


def test_a_scratch_without_the_learned_marker_refuses_a_learned_seat():
    """A kernel compiled without the learned policy (the marker None: every scenario without a learned seat) never
    plays a learned seat silently: its decision is refused (ST_BAD_ACTION)."""
    sids = np.full(4, 5, dtype=np.int64)
    sp = np.tile(_row(np.random.default_rng(2)), (4, 1))
    out = play_games(PL.play_batch, PL.batch_scratch(4), 1, 0, 0, 3, 4, prm_of(), sids, sp, PL.N_EXTRA)
    assert (out.status == PL.ST_BAD_ACTION).all()


def test_search_with_learned_rollouts_plays():
    """`rollout = "learned"` is one of search's rollout choices and plays whole games (the shipped weights)."""
    from sim.model.scenario import from_dict
    from sim.model.search import rollout_seats, search_scratch

    sc = from_dict(
        {
            "scenario": {"game": "moor", "players": 4, "games": 4, "seed": 1},
            "seats": [{"strategy": "search", "params": {"budget": 8, "rollout": "learned"}}]
            + [{"strategy": "weighted"}] * 3,
        }
    )
    sids, sparams = rollout_seats(sc)
    assert sids[0] == 5 and sparams[0, 1:].any() == (F.N_FEATURES > 0)
    prm = sc.prm()
    out = play_games(
        PL.play_batch, PL.batch_scratch(4, learned=True), 1, 0, 0, 4, 4, prm, sc.sids(), sc.sparams(), PL.N_EXTRA,
        search=search_scratch(sc, PL, prm=prm),
    )  # fmt: skip
    assert (out.status == PL.ST_DONE).all()


@njit_alloc
def compare_features(seed, n, prm, sp, games, leak):
    """Play ``games`` games of learned seats (row ``sp``); at every decision with covered tiles on the board, compute
    the features of every legal action (`fill_features`, the kernel's own code) on the state and on a copy whose
    covered tiles were permuted. ``leak``: a deliberately leaky probe adds the covered tile under each move's
    destination to its last feature. Returns (decisions compared, decisions whose features differed anywhere)."""
    st = np.zeros(R.S_SIZE, dtype=np.int32)
    st2 = np.zeros(R.S_SIZE, dtype=np.int32)
    rng = np.zeros((N_STREAMS_MAX, 4), dtype=np.uint64)
    log = np.zeros((1, R.LOG_W), dtype=np.int32)
    order = np.empty(R.N_DEALT, dtype=np.int32)
    mask = np.zeros(R.N_ACTIONS, dtype=np.int8)
    legal = np.zeros(R.N_ACTIONS, dtype=np.int8)
    f1 = np.zeros((R.N_ACTIONS, F.N_FEATURES))
    f2 = np.zeros((R.N_ACTIONS, F.N_FEATURES))
    scores = Marker(np.zeros(R.N_ACTIONS), np.zeros(R.N_ACTIONS, dtype=np.int64))
    compared = 0
    differ = 0
    for g in range(games):
        _deal(st, rng, order, log, prm, n, seed, g)
        while st[R.S_PHASE] != R.PH_OVER and st[R.S_TURNS] < 1000:
            if st[R.S_PHASE] == R.PH_ROLL:
                R.apply_chance(st, 1 + bounded(rng, 0, prm[R.P_DIE_FACES]), log)
                continue
            nl = R.legal_actions(st, prm, mask, legal)
            if nl > 1 and permute_covered(st, st2, rng) >= 2:
                f1[:] = 0.0
                f2[:] = 0.0
                F.fill_features(st, prm, st[R.S_CUR], mask, f1, None)
                F.fill_features(st2, prm, st2[R.S_CUR], mask, f2, None)
                if leak and st[R.S_PHASE] == R.PH_MOVE:
                    p = st[R.S_CUR]
                    for a in range(R.A_MOVE, R.A_MOVE + R.MAX_PAWNS):
                        if mask[a]:
                            d = min(st[R.S_PAWN_POS + p * R.MAX_PAWNS + a - R.A_MOVE] + st[R.S_ROLL], st[R.S_END])
                            if st[R.S_HEIGHT + d] == 2:
                                f1[a, F.N_FEATURES - 1] += st[R.S_STACK + d * R.STACK]
                                f2[a, F.N_FEATURES - 1] += st2[R.S_STACK + d * R.STACK]
                compared += 1
                same = True
                for a in range(R.N_ACTIONS):
                    for i in range(F.N_FEATURES):
                        if f1[a, i] != f2[a, i]:
                            same = False
                differ += not same
            a = F.learned_choice(sp, st, prm, mask, rng, 1 + st[R.S_CUR], scores)
            R.apply_action(st, prm, a, log)
    return compared, differ


@pytest.mark.parametrize("n", [2, 4, 5])
def test_hidden_information_no_learned_feature_reads_a_covered_tile(n):
    """Every feature of every legal action, not only the decision: a feature with a small weight rarely changes a
    decision, so the decision test alone could miss its leak."""
    compared, differ = compare_features(np.uint64(5), n, prm_of(), _row(np.random.default_rng(n)), 40, False)
    assert compared > 500 and differ == 0


def test_the_feature_test_fails_on_a_deliberate_leak():
    compared, differ = compare_features(np.uint64(5), 4, prm_of(), _row(np.random.default_rng(4)), 40, True)
    assert compared > 500 and differ > 0
