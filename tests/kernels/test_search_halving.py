"""The search's sequential halving (`root = "halving"`, kernels.search): how it spreads the budget over the root's
actions, that the rollout strategy's choice always survives to the last round, and the paired sign test that decides
whether the last round's challenger replaces it. Played on a Treasure Hunters hunter's move after a 6 (many legal
moves: several rounds), and on Moor's R4 twin states for the hidden-information test."""

from __future__ import annotations

import math

import pytest

from kernels import search as K
from kernels.treasure_hunters import play as TPL
from kernels.treasure_hunters import step as tstep
from tests.kernels.moor.test_search import SEAT
from tests.kernels.search_kit import search_once, search_row

BASIC = "scenarios/treasure_hunters/search-basic-4p.toml"


@pytest.fixture(scope="module")
def decision():
    from tests.kernels.treasure_hunters.test_search import _decision

    sc, prm, st = _decision(BASIC, False)
    ws = TPL.batch_scratch(sc.players, prm)
    ws.st[:] = st
    assert tstep.legal_actions(ws.st, prm, ws) >= 5  # enough actions for several rounds
    return sc, prm, st


def _halve(decision, budget, deviate=0.0, tiebreak="none"):
    """(action played, root actions, visits, wins, search scratch) of one halving decision at the fixture's state
    (Treasure Hunters' `_search`, its search seats set to halving and ``tiebreak``)."""
    from sim.model.search import search_scratch
    from tests.kernels.treasure_hunters.test_search import _rooted, _search

    sc, prm, st = decision
    sc = _rooted(sc, "halving", budget, deviate=deviate, tiebreak=tiebreak)
    search = search_scratch(sc, TPL)
    return (*_search(TPL.play_batch, sc, prm, st, search), search)


@pytest.mark.parametrize("k, rounds", [(2, 1), (3, 2), (4, 2), (5, 3), (25, 5), (33, 6)])
def test_rounds_are_ceil_log2_of_the_actions(k, rounds):
    assert K._ceil_log2.py_func(k) == rounds == math.ceil(math.log2(k))


def test_a_round_shares_the_budget_left_over_the_rounds_left_and_the_last_round_spends_it_all():
    assert K._per_round.py_func(256, 0, 25, 5) == 2  # 256 // (25 * 5)
    assert K._per_round.py_func(10, 0, 25, 5) == 1  # too small a budget: once each, while it lasts
    assert K._per_round.py_func(256, 251, 2, 1) == 3  # ceil(5 / 2): nothing left unspent


@pytest.mark.parametrize("budget", [3, 16, 64, 257])
def test_halving_spends_exactly_the_budget(decision, budget):
    _, _, visits, _, _ = _halve(decision, budget)
    assert sum(visits) == budget


def test_the_rollout_strategys_choice_survives_every_round(decision):
    """The first action (the rollout strategy's choice) is tried in every round, so it has the most rollouts; the
    last round's pair has more rollouts than any action dropped earlier, and dropped actions have fewer the earlier
    they went."""
    _, acts, visits, _, _ = _halve(decision, 256)
    nl = len(acts)
    assert visits[0] == max(visits)
    assert visits[1] >= visits[0] - 1 and all(v < visits[1] for v in visits[2:])
    assert len(set(visits[2:])) <= K._ceil_log2.py_func(nl) - 1  # one rollout count per round an action left in


@pytest.mark.parametrize("tiebreak", ["none", "score"])
def test_the_challenger_replaces_the_rollout_strategys_choice_only_beyond_the_sign_test(decision, tiebreak):
    """With `deviate` 0 the last round's challenger is played iff it did better in more of that round's paired
    worlds than it did worse; a margin of 10 standard errors is never met by a few dozen worlds: the rollout
    strategy's choice is played."""
    a, acts, _, _, search = _halve(decision, 256, deviate=0.0, tiebreak=tiebreak)
    ahead, behind = int(search.ahead[1]), int(search.behind[1])
    assert a == (acts[1] if ahead > behind else acts[0])
    a10, acts10, _, _, _ = _halve(decision, 256, deviate=10.0, tiebreak=tiebreak)
    assert a10 == acts10[0]


def test_the_score_tiebreak_keeps_each_world_as_a_win_then_the_seats_score(decision):
    """The rollout strategy's result on each world it played (search.prior, int64): its win in bit 32, and with the
    score tie-break the hunters' final score (jewels delivered, 0..8) in the low bits; without it the low bits are
    0. The win bits are the same either way (the same worlds: the choice plays every round's worlds first)."""
    _, _, v0, w0, plain = _halve(decision, 256)
    _, _, v1, w1, scored = _halve(decision, 256, tiebreak="score")
    n = v0[0]
    assert v1[0] == n and w1[0] == w0[0]
    plain_v, scored_v = plain[12][:n], scored[12][:n]
    assert (plain_v & 0xFFFFFFFF == 0).all()
    assert ((scored_v >> 32) == (plain_v >> 32)).all() and int((plain_v >> 32).sum()) == w0[0]
    low = scored_v & 0xFFFFFFFF
    assert low.max() <= 8 and len(set(low.tolist())) > 1  # scores that tell the worlds apart


def test_the_score_tiebreak_ranks_a_rounds_survivors_by_their_paired_net():
    """`_sort_survivors` with the score tie-break: positions 1.. by worlds won minus lost against the choice, best
    first, stable, untried last; position 0 stays."""
    import numpy as np

    acts = np.array([9, 1, 2, 3, 4, 5])
    visits = np.array([4, 4, 4, 0, 4, 4])
    wins = np.array([1, 0, 2, 0, 1, 3])
    net = np.array([0, -1, 2, 0, 2, 3])
    K._sort_survivors.py_func(acts, visits, wins, net, 6, True)
    assert acts.tolist() == [9, 5, 2, 4, 1, 3]
    assert net.tolist() == [0, 3, 2, 2, -1, 0] and wins.tolist() == [1, 3, 2, 1, 0, 0]


def test_without_the_score_tiebreak_a_rounds_survivors_are_ranked_by_win_rate():
    """`_sort_survivors` without the tie-break: positions 1.. by win rate, compared exactly (1/3 < 2/5), best
    first, stable (equal rates keep their order), untried last; position 0 stays."""
    import numpy as np

    acts = np.array([9, 1, 2, 3, 4, 5, 6])
    visits = np.array([4, 3, 5, 0, 4, 2, 6])
    wins = np.array([1, 1, 2, 0, 2, 1, 3])
    net = np.zeros(7, np.int64)
    K._sort_survivors.py_func(acts, visits, wins, net, 7, False)
    assert acts.tolist() == [9, 4, 5, 6, 2, 1, 3]  # 1/2 (4, 5, 6 in order), 2/5, 1/3, untried
    assert visits.tolist() == [4, 4, 2, 6, 5, 3, 0] and wins.tolist() == [1, 2, 1, 3, 2, 1, 0]


def test_r04_a_halving_search_depends_only_on_what_the_seat_saw():
    """Moor R4 with halving: two true states that differ only in the covered tiles give identical rounds."""
    from kernels.moor import play as PL
    from sim.model.search import search_scratch
    from tests.kernels.moor.test_search import _twin_states

    sc, batch, prm, first, nl, st, other = _twin_states()
    out = []
    for state in (st, other):
        batch.st[:] = state
        sp = search_row(sc, SEAT, 48, root=K.ROOT_HALVING)
        search = search_scratch(sc, PL)
        a, v, w = search_once(PL, search, batch, prm, 4, first, SEAT, nl, sp)
        out.append((a, search.acts[:nl].tolist(), v.tolist(), w.tolist()))
    assert out[0] == out[1] and sum(out[0][2]) == 48
