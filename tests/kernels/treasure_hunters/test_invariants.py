"""Conformance: many games of every mode and strategy play to the end with every invariant holding after every step
(24 ghosts and the hauntings conserved between board and supply, 8 jewels each in one place, every card in exactly one
place, hallway squares single), every strategy returns a legal action, and strategies never read hidden information
(face-down jewel numbers, the draw pile order, the Head Haunter's hand for hunters)."""

from __future__ import annotations

import numpy as np
import pytest

from kernels.rng import N_STREAMS_MAX, bounded, seed_stream, shuffle
from kernels.treasure_hunters import params as P
from kernels.treasure_hunters import play as PL
from kernels.treasure_hunters import rules as R
from kernels.treasure_hunters import strategies as S

SID = {name: sid for name, sid, _h, _r in S.STRATEGIES}
DEFAULT_W = [w[1] for w in S.WEIGHT_SPECS]
DEFAULT_HW = [w[1] for w in S.HH_WEIGHT_SPECS]


def setup(mode, players, seats, **over):
    v = P.defaults()
    v["mode"] = mode
    v.update(over)
    assert P.check(v, players) is None
    prm = P.pack(v, players)
    sids = np.array([SID[s] for s in seats], dtype=np.int64)
    sp = np.zeros((players, S.N_SPARAMS))
    for i, s in enumerate(seats):
        sp[i, : len(DEFAULT_HW if s.startswith("haunter") else DEFAULT_W)] = (
            DEFAULT_HW if s.startswith("haunter") else DEFAULT_W
        )
    return prm, sids, sp


CASES = [
    ("basic", 4, ["random"] * 4, 3000, {}),
    ("basic", 2, ["runners", "busters"], 2000, {}),
    ("basic", 3, ["weighted", "random", "busters"], 2000, {"fight_optional": True, "fight_when_staying": False}),
    ("advanced", 4, ["random"] * 4, 3000, {}),
    (
        "advanced",
        3,
        ["weighted", "runners", "busters"],
        2000,
        {"nested_draw_counts": False, "reveal_jewel_on_enter": True},
    ),
    (
        "advanced",
        4,
        ["random", "weighted"] * 2,
        2000,
        {"ghost_cards": [1, 0, 3, 3, 4, 4], "carrier_may_pass_haunted": True},
    ),
    ("head_haunter", 5, ["haunter_random"] + ["random"] * 4, 2000, {}),
    ("head_haunter", 2, ["haunter_builder", "busters"], 1500, {}),
    ("head_haunter", 3, ["haunter_trapper", "runners", "weighted"], 1500, {"move_ghost_wraps": True}),
    (
        "head_haunter",
        4,
        ["haunter_weighted", "random", "busters", "weighted"],
        1500,
        {"hand_size": 5, "hh_single_use": [1] * 10, "pickup_requires_clear_room": True},
    ),
    ("basic", 4, ["passive"] * 4, 500, {"hauntings": 11, "max_turns": 300}),
]


@pytest.mark.parametrize(
    "mode,players,seats,games,over", CASES, ids=[f"{c[0]}-{c[1]}p-{'-'.join(c[2])}" for c in CASES]
)
def test_invariants_after_every_step(mode, players, seats, games, over):
    prm, sids, sp = setup(mode, players, seats, **over)
    status = np.zeros(games, dtype=np.int32)
    PL.check_batch(np.uint64(99), np.uint64(0), np.int64(0), np.int64(games), np.int64(players), prm, sids, sp, status)
    bad = {int(g): int(status[g]) for g in np.flatnonzero((status != 0) & (status != 1))}
    assert not bad, f"games with errors or broken invariants (code-100): {dict(list(bad.items())[:5])}"


def _perturb(st, prm, keep_hand, rng):
    """A state the deciding player cannot tell apart: face-down jewel numbers permuted, the draw pile reordered,
    and (for a hunter) the Head Haunter's hand exchanged with draw-pile cards."""
    s2 = st.copy()
    hidden = [j for j in range(8) if s2[R.S_JREV + j] == 0 and s2[R.S_JLOC + j] >= 0]
    nums = [int(s2[R.S_JNUM + j]) for j in hidden]
    rng.shuffle(nums)
    for j, x in zip(hidden, nums):
        s2[R.S_JNUM + j] = x
    n = int(s2[R.S_NDRAW])
    pile = [int(s2[R.S_DRAW + i]) for i in range(n)]
    if not keep_hand:
        for i in range(int(s2[R.S_HAND_N])):
            if pile:
                k = int(rng.integers(len(pile)))
                c, h = pile[k], int(s2[R.S_HAND + i])
                pile[k] = h
                s2[R.S_HAND + i] = c
                s2[R.S_CLOC + c] = R.CL_HAND
                s2[R.S_CLOC + h] = R.CL_DRAW
    rng.shuffle(pile)
    for i, c in enumerate(pile):
        s2[R.S_DRAW + i] = c
    return s2


def _walk(mode, players, seats, game, seed=3, **over):
    """Play one game step by step in Python (same chance stream as the kernel); at every decision compare the
    strategy's choice on the real state and on a perturbed indistinguishable state. Returns decisions checked."""
    prm, sids, sp = setup(mode, players, seats, **over)
    wrows = np.zeros((players, S.N_SPARAMS))
    S.effective_rows(sids, sp, wrows)
    rng = np.zeros((N_STREAMS_MAX, 4), dtype=np.uint64)
    for r in range(1 + players):
        seed_stream(rng, r, np.uint64(seed), np.uint64(0), game, r)
    first = int(PL.first_seat(prm, game, players))
    st = np.zeros(R.S_SIZE, dtype=np.int32)
    log = np.zeros((1, 6), dtype=np.int32)
    R.init(st, prm, players, first)
    nums = np.arange(1, 9, dtype=np.int32)
    shuffle(rng, 0, nums, 8)
    R.set_jewel_numbers(st, nums)
    mask = np.zeros(R.N_ACTIONS, dtype=np.int8)
    tmp = np.zeros(S.TMP_SIZE, dtype=np.int32)
    pool = np.zeros(R.MAX_CARDS, dtype=np.int32)
    prng = np.random.default_rng(game)
    checked = 0
    while st[R.S_PHASE] != R.PH_OVER:
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
        if nl > 1:
            r1 = rng.copy()
            a = S.decide(sids[seat], wrows[seat], st, prm, mask, nl, r1, 1 + seat, tmp)
            s2 = _perturb(st, prm, ph in R.HH_PHASES, prng)
            m2 = np.zeros_like(mask)
            t2 = np.zeros_like(tmp)
            assert R.legal_actions(s2, prm, m2, t2) == nl and (m2 == mask).all()
            r2 = rng.copy()
            a2 = S.decide(sids[seat], wrows[seat], s2, prm, m2, nl, r2, 1 + seat, t2)
            assert a == a2, f"decision changed by hidden information at phase {ph}: {a} vs {a2}"
            a = S.decide(sids[seat], wrows[seat], st, prm, mask, nl, rng, 1 + seat, tmp)
            checked += 1
        else:
            a = int(np.flatnonzero(mask)[0])
        R.apply_action(st, prm, a, log)
    return checked


@pytest.mark.parametrize(
    "mode,players,seats",
    [
        ("advanced", 4, ["weighted", "runners", "busters", "weighted"]),
        ("basic", 3, ["busters", "runners", "weighted"]),
        ("head_haunter", 5, ["haunter_builder", "busters", "runners", "weighted", "weighted"]),
        ("head_haunter", 3, ["haunter_trapper", "weighted", "busters"]),
        ("head_haunter", 4, ["haunter_weighted", "runners", "weighted", "busters"]),
    ],
)
def test_hidden_information_never_changes_a_decision(mode, players, seats):
    checked = sum(_walk(mode, players, seats, g) for g in range(8))
    assert checked > 100


def test_python_walk_matches_the_kernel():
    """The stepping loop above is the kernel's (same streams): its games end as the batch's games end."""
    prm, sids, sp = setup("advanced", 4, ["weighted", "runners", "busters", "weighted"])
    for g in range(3):
        out = PL.trace_game(np.uint64(3), np.uint64(0), g, 4, prm, sids, sp, 4000, 2)
        log = out.log
        assert int(log[int(log[0, 0]), 0]) == R.E_END
        decisions = int(out.extra[PL.EXTRA_COLUMNS.index("decisions")])
        assert _walk("advanced", 4, ["weighted", "runners", "busters", "weighted"], g) == decisions
