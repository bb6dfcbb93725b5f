"""The learned players of Treasure Hunters (`learned` hunters, kernels/treasure_hunters/features.py; the Head Haunter's
`haunter_learned`, haunter_features.py): the hidden-information permutation test covers them with random weights and
fails on a deliberate leak, they play legal actions only, their weights come from the seat's parameter row, a kernel
without the learned marker refuses them, and search plays them as its rollouts."""

from __future__ import annotations

import numpy as np
import pytest

from kernels._jit import njit
from kernels.batch import play_games
from kernels.policy import new_marker
from kernels.rng import N_STREAMS_MAX, bounded, seed_stream, shuffle
from kernels.treasure_hunters import features as F
from kernels.treasure_hunters import haunter_features as HF
from kernels.treasure_hunters import play as PL
from kernels.treasure_hunters import rules as R
from kernels.treasure_hunters import step
from kernels.treasure_hunters import strategies as S

from .test_invariants import _perturb, setup

pytestmark = pytest.mark.kernel

N_SP = max(S.N_SPARAMS, F.N_LEARNED_PARAMS, HF.N_LEARNED_PARAMS)


def _row(rnd, n_features, temperature=0.0):
    row = np.zeros(N_SP)
    row[0] = temperature
    row[1 : 1 + n_features] = rnd.uniform(-3.0, 3.0, size=n_features)
    return row


@njit
def leaky_choice(marker, hh, sp, wrow, st, prm, mask, rng, row, tmp):
    """The learned choice plus a deliberate leak: a hunter's move is also scored by the face-down number of a jewel
    lying in its destination, which no hunter can see; the Head Haunter's target by the draw pile's top card."""
    ph = st[R.S_PHASE]
    if ph == R.PH_MOVE:
        scores = marker.scores
        F.score_actions(sp, wrow, st, prm, mask, tmp, scores)
        for a in range(R.N_ACTIONS):
            if mask[a]:
                for j in range(R.N_JEWELS):
                    if st[R.S_JLOC + j] == a - R.A_MOVE and st[R.S_JREV + j] == 0:
                        scores[a] += 2.0 * st[R.S_JNUM + j]
        best = -1e300
        ba = -1
        for a in range(R.N_ACTIONS):
            if mask[a] and scores[a] > best:
                best = scores[a]
                ba = a
        return ba
    if ph == R.PH_HH_PLAY and st[R.S_NDRAW] > 0:
        return R.A_SLOT + st[R.S_DRAW + st[R.S_NDRAW] - 1] % st[R.S_HAND_N]
    return step.play_learned(marker, hh, sp, wrow, st, prm, mask, rng, row, tmp)


def _walk(mode, players, seats, game, rnd, leak=False, seed=3):
    """Play game ``game`` step by step (the kernel's streams) with learned seats of random weights; at every decision
    of a learned seat compare its choice on the state and on a state its seat cannot tell apart (`_perturb`).
    Returns (decisions compared, decisions that differed)."""
    prm, sids, _ = setup(mode, players, ["weighted" if s == "learned" else s for s in seats])
    sp = np.zeros((players, N_SP))
    for i, s in enumerate(seats):
        if s in ("learned", "haunter_learned"):
            sids[i] = S.S_LEARNED if s == "learned" else S.S_HH_LEARNED
            sp[i] = _row(rnd, F.N_FEATURES if s == "learned" else HF.N_FEATURES, 0.0 if game % 2 else 1.0)
        elif s == "weighted":
            sp[i, : S.N_HW] = [w[1] for w in S.WEIGHT_SPECS]
    wrows = np.zeros((players, S.N_SPARAMS))
    S.effective_rows(sids, sp, wrows)
    rng = np.zeros((N_STREAMS_MAX, 4), dtype=np.uint64)
    for r in range(1 + players):
        seed_stream(rng, r, np.uint64(seed), np.uint64(0), game, r)
    st = np.zeros(R.S_SIZE, dtype=np.int32)
    log = np.zeros((1, 6), dtype=np.int32)
    R.init(st, prm, players, int(PL.first_seat(prm, game, players)))
    nums = np.arange(1, 9, dtype=np.int32)
    shuffle(rng, 0, nums, 8)
    R.set_jewel_numbers(st, nums)
    mask = np.zeros(R.N_ACTIONS, dtype=np.int8)
    tmp = np.zeros(S.TMP_SIZE, dtype=np.int32)
    pool = np.zeros(R.MAX_CARDS, dtype=np.int32)
    scores = new_marker(R.N_ACTIONS)
    hh = np.int64(1)
    prng = np.random.default_rng(game)
    compared = differ = 0
    choose = leaky_choice if leak else step.play_learned
    while st[R.S_PHASE] != R.PH_OVER and st[R.S_TURNS] < 400:
        ph = int(st[R.S_PHASE])
        if ph == R.PH_SHUFFLE:
            k = R.shuffle_pool(st, pool)
            shuffle(rng, 0, pool, k)
            R.apply_shuffle(st, prm, pool, k, log)
            continue
        nc = R.chance_outcomes(st, prm)
        if nc > 0:
            R.apply_chance(st, prm, bounded(rng, 0, nc), log)
            continue
        nl = R.legal_actions(st, prm, mask, tmp)
        seat = int(R.decision_seat(st))
        learned = sids[seat] in (S.S_LEARNED, S.S_HH_LEARNED)
        if nl > 1 and learned:
            args = (sp[seat], wrows[seat])
            a = choose(scores, hh, *args, st, prm, mask, rng.copy(), 1 + seat, tmp)
            s2 = _perturb(st, prm, ph in R.HH_PHASES, prng)
            m2 = np.zeros_like(mask)
            t2 = np.zeros_like(tmp)
            assert R.legal_actions(s2, prm, m2, t2) == nl and (m2 == mask).all()
            a2 = choose(scores, hh, *args, s2, prm, m2, rng.copy(), 1 + seat, t2)
            compared += 1
            differ += int(a != a2)
            R.legal_actions(st, prm, mask, tmp)
            a = step.play_learned(scores, hh, *args, st, prm, mask, rng, 1 + seat, tmp)
            assert mask[a] == 1
        elif nl > 1:
            a = S.decide(sids[seat], wrows[seat], st, prm, mask, nl, rng, 1 + seat, tmp)
        else:
            a = int(np.flatnonzero(mask)[0])
        R.apply_action(st, prm, a, log)
    return compared, differ


CASES = [
    ("basic", 4, ["learned"] * 4),
    ("advanced", 3, ["learned", "weighted", "learned"]),
    ("head_haunter", 4, ["haunter_learned", "learned", "weighted", "learned"]),
]


@pytest.mark.parametrize("mode,players,seats", CASES, ids=[c[0] for c in CASES])
def test_hidden_information_never_changes_a_learned_decision(mode, players, seats):
    """Random weights (greedy and sampled): the choice on a state and on one with the face-down jewel numbers, the
    draw pile and (for a hunter) the Head Haunter's hand permuted is the same."""
    rnd = np.random.default_rng(7)
    compared = differ = 0
    for g in range(10):
        c, d = _walk(mode, players, seats, g, rnd)
        compared += c
        differ += d
    assert differ == 0 and compared > 300


@pytest.mark.parametrize("mode,players,seats", [CASES[1], CASES[2]], ids=["hunter", "haunter"])
def test_hidden_information_test_fails_on_a_deliberate_leak(mode, players, seats):
    rnd = np.random.default_rng(7)
    differ = sum(_walk(mode, players, seats, g, rnd, leak=True)[1] for g in range(6))
    assert differ > 0


def _scenario(mode, n, seats, rnd, temperature=0.0):
    prm, sids, sp0 = setup(mode, n, ["weighted" if s.endswith("learned") else s for s in seats])
    sp = np.zeros((n, N_SP))
    sp[:, : sp0.shape[1]] = sp0
    for i, s in enumerate(seats):
        if s == "learned":
            sids[i] = S.S_LEARNED
            sp[i] = _row(rnd, F.N_FEATURES, temperature)
        elif s == "haunter_learned":
            sids[i] = S.S_HH_LEARNED
            sp[i] = _row(rnd, HF.N_FEATURES, temperature)
    return prm, sids, sp


def _play(prm, n, sids, sp, games=60, learned=True, search=None):
    return play_games(
        PL.play_batch, PL.batch_scratch(n, prm, learned=learned), 1, 0, 0, games, n, prm, sids, sp, PL.N_EXTRA,
        (2, PL.CURVE_LEN), search=search,
    )  # fmt: skip


@pytest.mark.parametrize(
    "mode,n,seats",
    [
        ("basic", 2, ["learned"] * 2),
        ("advanced", 4, ["learned"] * 4),
        ("head_haunter", 5, ["haunter_learned"] + ["learned"] * 4),
    ],
    ids=["basic-2p", "advanced-4p", "head_haunter-5p"],
)
def test_learned_plays_only_legal_actions_with_any_weights(mode, n, seats):
    """Every game of a learned table with random weights (greedy and sampled) ends done or truncated: an illegal
    action would be status ST_BAD_ACTION."""
    rnd = np.random.default_rng(n)
    for temperature in (0.0, 0.5):
        prm, sids, sp = _scenario(mode, n, seats, rnd, temperature)
        status = _play(prm, n, sids, sp).status
        assert set(np.unique(status)) <= {PL.ST_DONE, PL.ST_TRUNCATED}


def test_the_script_alone_plays_as_the_weighted_team_and_builder():
    """With weight 1 on the script feature (and a pick-up of any jewel it may take, never in a haunted room) the
    learned hunters play the weighted team's games exactly (in the advanced game the team at its tuned w_jewel,
    `features.ADVANCED_JEWEL`), and the learned Head Haunter the builder's: the features see the planners' choices
    as the planners make them."""
    for mode, seats, ref in (
        ("basic", ["learned"] * 4, ["weighted"] * 4),
        ("advanced", ["learned"] * 4, ["weighted"] * 4),
        ("head_haunter", ["haunter_learned"] + ["weighted"] * 3, ["haunter_builder"] + ["weighted"] * 3),
    ):
        prm, sids, sp = _scenario(mode, 4, seats, np.random.default_rng(1))
        for i, s in enumerate(seats):
            if s.endswith("learned"):
                sp[i, 1:] = 0.0
                sp[i, 1 + F.FEATURE_NAMES.index("script")] = 1.0
                if s == "learned":
                    sp[i, 1 + F.FEATURE_NAMES.index("pick_wanted")] = 1.0
                    sp[i, 1 + F.FEATURE_NAMES.index("pick_haunted")] = -2.0
        rprm, rsids, rsp = _scenario(mode, 4, ref, np.random.default_rng(1))
        if mode == "advanced":
            rsp[:, S.W_JEWEL] = F.ADVANCED_JEWEL
        a = _play(prm, 4, sids, sp, games=200)
        b = _play(rprm, 4, rsids, rsp, games=200, learned=False)
        assert all(np.array_equal(x, y) for x, y in zip(a[:6], b[:6])), mode


def test_learned_weights_come_from_the_parameter_row():
    rnd = np.random.default_rng(1)
    prm, sids, a = _scenario("basic", 4, ["learned"] * 4, rnd)
    _, _, b = _scenario("basic", 4, ["learned"] * 4, rnd)
    ra, rb, ra2 = _play(prm, 4, sids, a), _play(prm, 4, sids, b), _play(prm, 4, sids, a.copy())
    assert not all(np.array_equal(getattr(ra, f), getattr(rb, f)) for f in ("scores", "winners", "turns", "rounds"))
    assert all(np.array_equal(x, y) for x, y in zip(ra, ra2))


def test_a_scratch_without_the_learned_marker_refuses_a_learned_seat():
    prm, sids, sp = _scenario("basic", 4, ["learned"] * 4, np.random.default_rng(2))
    assert (_play(prm, 4, sids, sp, games=3, learned=False).status == PL.ST_BAD_ACTION).all()


@pytest.mark.parametrize("scenario", ["search-basic-4p", "search-head-haunter-4p"])
def test_search_with_learned_rollouts_plays(scenario):
    """`rollout = "learned"` (`haunter_learned`) is one of search's rollout choices and plays whole games (the shipped
    weights)."""
    from sim.model.paths import REPO
    from sim.model.scenario import from_dict, read
    from sim.model.search import rollout_seats, search_scratch

    data = read(REPO / "scenarios" / "treasure_hunters" / f"{scenario}.toml")
    hh = scenario.endswith("haunter-4p")
    seat = 0 if hh else 1
    data["seats"][seat]["params"] = {"budget": 4, "rollout": "haunter_learned" if hh else "learned"}
    over = from_dict(data)
    sids, _ = rollout_seats(over)
    assert sids[seat] == (S.S_HH_LEARNED if hh else S.S_LEARNED)
    prm = over.prm()
    out = _play(prm, 4, over.sids(), over.sparams(), games=2, search=search_scratch(over, PL, prm=prm))
    assert set(np.unique(out.status)) <= {PL.ST_DONE, PL.ST_TRUNCATED}
