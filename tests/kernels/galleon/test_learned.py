"""The learned pirate of Ghostly Galleon (`learned`, kernels/galleon/features.py): the hidden-information
permutation test (H1) covers it with random weights and fails on a deliberate leak, it plays legal actions only, its
weights come from the seat's parameter row."""

from __future__ import annotations

import random

import numpy as np
import pytest

from kernels._jit import njit
from kernels.batch import play_games
from kernels.galleon import features as F
from kernels.galleon import play as PL
from kernels.galleon import rules as R
from kernels.galleon import strategies as S
from kernels.policy import new_marker
from kernels.rng import seed_game
from sim.play import runner
from tests.kernels.galleon.test_play import _permute_hidden, _replay_states, scenario

pytestmark = pytest.mark.kernel


def _row(rnd, temperature=0.0):
    return np.array([temperature] + [rnd.uniform(-3.0, 3.0) for _ in range(F.N_FEATURES)])


@njit
def leaky_choice(sp, tw, st, prm, mask, nl, rng, row, marker):
    """The learned choice plus a deliberate leak: a move is also scored by the gold the rivals next to it hold,
    which the seat cannot see."""
    if st[R.S_PHASE] != R.PH_MOVE:
        return F.learned_choice(sp, tw, st, prm, mask, nl, rng, row, marker)
    s = st[R.S_ACTOR]
    ctx = F.context(st, prm, s)
    best = -1e300
    best_a = -1
    for a in range(R.N_ACTIONS):
        if mask[a]:
            x = F.action_score(sp, st, prm, s, a, ctx, tw)
            m = R.duel_targets(st, prm, s, a - R.A_MOVE)
            for t in range(st[R.S_N]):
                if (m >> t) & 1:
                    x += 10.0 * R.gold_of(st, t)
            if x > best:
                best = x
                best_a = a
    return best_a


def _compare(leak):
    """(decisions compared, decisions changed by permuting what the seat cannot see)."""
    sc = scenario(4, ("learned", "treasure", "raider", "learned"), games=3)
    prm = sc.prm()
    rows = np.zeros((4, S.N_SPARAMS))
    S.effective_rows(sc.sids(), sc.sparams(), rows)
    rnd = random.Random(3)
    rng = np.zeros((8, 4), np.uint64)
    choose = leaky_choice if leak else F.learned_choice
    checked = changed = 0
    for g in range(3):
        seed_game(rng, np.uint64(7), np.uint64(0), g, 4)
        for st in _replay_states(sc, g):
            seat = int(st[R.S_ACTOR])
            mask = np.zeros(R.N_ACTIONS, np.int8)
            nl = R.legal_actions(st, prm, mask)
            sp = _row(rnd, 0.0 if checked % 2 else 1.0)
            a = choose(sp, rows[seat], st, prm, mask, nl, rng.copy(), 1 + seat, new_marker(R.N_ACTIONS))
            for _ in range(2):
                x = _permute_hidden(st, seat, rnd)
                m2 = np.zeros(R.N_ACTIONS, np.int8)
                R.legal_actions(x, prm, m2)
                changed += choose(sp, rows[seat], x, prm, m2, nl, rng.copy(), 1 + seat, new_marker(R.N_ACTIONS)) != a
            checked += 1
    return checked, changed


def test_h1_hidden_information_learned_pirate():
    checked, changed = _compare(False)
    assert checked > 200 and changed == 0


def test_h1_hidden_information_test_fails_on_a_deliberate_leak():
    checked, changed = _compare(True)
    assert checked > 200 and changed > 0


def test_learned_plays_legal_actions_with_any_weights():
    rnd = random.Random(5)
    for n in (2, 4):
        sc = scenario(n, ("learned",), games=24)
        sp = sc.sparams()
        for i in range(n):
            sp[i, : F.N_LEARNED_PARAMS] = _row(rnd, 0.5 * (i % 2))
        res = play_games(
            PL.play_batch,
            PL.batch_scratch(n, sc.prm(), learned=True),
            1,
            0,
            0,
            24,
            n,
            sc.prm(),
            sc.sids(),
            sp,
            PL.N_EXTRA,
        )
        assert set(np.unique(res.status)) <= {PL.ST_DONE, PL.ST_TRUNCATED}


def test_learned_table_runs_through_the_runner_with_the_shipped_weights():
    sc = scenario(4, ("learned", "raider"), games=40)
    out = runner.play_chunk(sc, 0, 40)
    assert set(np.unique(out.status)) <= {PL.ST_DONE, PL.ST_TRUNCATED}
    assert (out.status == PL.ST_DONE).mean() > 0.5


def test_r11_r13_ghost_features_name_the_pirates_the_rules_frighten():
    """Each legal ghost destination's features (`ghost_own`, `ghost_rivals`, their tiles and chests) count exactly
    the pirates `rules.move_ghost` then puts overboard (R11), and `ghost_jump` is the pips its pirate saves by the
    whirlpool whose shore is nearest its goal (R13)."""
    sc = scenario(4, ("learned", "treasure", "raider", "learned"), games=6)
    prm = sc.prm()
    idx = {n: i for i, n in enumerate(F.FEATURE_NAMES)}
    out = np.zeros((R.N_ACTIONS, F.N_FEATURES))
    log = np.zeros((64, 6), np.int32)
    seen_own = seen_rival = 0
    for g in range(6):
        for st in _replay_states(sc, g):
            if st[R.S_PHASE] != R.PH_GHOST:
                continue
            s = int(st[R.S_ACTOR])
            mask = np.zeros(R.N_ACTIONS, np.int8)
            R.legal_actions(st, prm, mask)
            F.fill_features(st, prm, s, mask, out, None)
            goal = S.goal_of(st, prm, s, 0.0)
            shore = min(prm[R.P_DIST + prm[R.P_SHORE + w] * R.MAX_SPACES + goal] for w in range(R.N_WHIRL))
            for a in np.flatnonzero(mask):
                x = st.copy()
                assert R.move_ghost(x, prm, int(a), log) == 0
                victims = [int(x[R.S_PEND + i]) for i in range(int(x[R.S_NPEND]))]
                f = out[a]
                own = s in victims
                rivals = [t for t in victims if t != s]
                assert f[idx["ghost_own"]] == own
                assert f[idx["ghost_rivals"]] == len(rivals)
                assert f[idx["ghost_rival_tiles"]] == sum(R.count_at(st, t) for t in rivals)
                assert f[idx["ghost_rival_chests"]] == sum(int(st[R.S_OPENED_BY + t]) for t in rivals)
                here = prm[R.P_DIST + int(st[R.S_POS + s]) * R.MAX_SPACES + goal]
                assert f[idx["ghost_jump"]] == pytest.approx((here - shore) / 10.0 if own else 0.0)
                assert f[idx["ghost_own_tiles"]] == (R.count_at(st, s) if own else 0)
                seen_own += own
                seen_rival += len(rivals) > 0
    assert seen_own > 0 and seen_rival > 0
