"""Strategies: the S2 planner's pruning, and hidden information (RULES.md M1..M6). A strategy decides from the board,
the cards face up, what the table sees of the decks (sizes, top cards' backs) and its own seat's memory only. At every
decision of many games, the cards a seat has not seen are dealt again among the deck slots it has not seen, the
order of the cards under each top card is shuffled, and every other seat's memory is scrambled; the decision must
not change."""

from __future__ import annotations

import numpy as np
import pytest

from kernels.rng import seed_game
from kernels.turnwall import features as F
from kernels.turnwall import memory as M
from kernels.turnwall import play as PL
from kernels.turnwall import rules as R
from kernels.turnwall import strategies as S
from tests.kernels.turnwall.test_play import scenario


def _perturb(st, seat, gen):
    """A copy of ``st`` with what ``seat`` cannot know changed: the cards in deck slots it has not seen permuted
    among those slots (part by part, card places kept consistent) and the other seats' memory randomised."""
    out = st.copy()
    for p in range(R.N_PARTS):
        slots = [
            k
            for k in range(R.N_DECKS)
            if st[R.S_DECK + k * R.N_PARTS + p] >= 0
            and st[R.S_KNOW + (seat * R.N_DECKS + k) * R.N_PARTS + p] == R.KNOW_UNSEEN
        ]
        cards = [int(st[R.S_DECK + k * R.N_PARTS + p]) for k in slots]
        for k, gm in zip(slots, gen.permutation(cards)):
            out[R.S_DECK + k * R.N_PARTS + p] = gm
            out[R.S_CARD_LOC + gm] = k
    for k in range(R.N_DECKS):  # the order below the top card is not seen
        top = R.top_back(st, k)
        below = [q for q in range(R.N_PARTS) if q != top]
        ranks = [int(st[R.S_RANK + k * R.N_PARTS + q]) for q in below]
        floor = min(ranks) if top < 0 else int(st[R.S_RANK + k * R.N_PARTS + top]) + 1
        fresh = gen.permutation(len(below)) + floor
        for q, r in zip(below, fresh):
            out[R.S_RANK + k * R.N_PARTS + q] = r
        assert R.top_back(out, k) == top
    for o in range(st[R.S_NG]):
        if o == seat:
            continue
        may = slice(R.S_MAY + o * R.N_DECKS, R.S_MAY + (o + 1) * R.N_DECKS)
        out[may] = gen.integers(0, 1 << R.N_PARTS, R.N_DECKS)
        know = slice(R.S_KNOW + o * R.N_DECKS * R.N_PARTS, R.S_KNOW + (o + 1) * R.N_DECKS * R.N_PARTS)
        out[know] = gen.integers(R.KNOW_UNSEEN, R.N_GARMENTS, know.stop - know.start)
        excl = slice(R.S_EXCL + o * R.N_GARMENTS, R.S_EXCL + (o + 1) * R.N_GARMENTS)
        out[excl] = gen.integers(0, 1 << R.N_DECKS, R.N_GARMENTS)
    return out


def _unseen_magnets(st, prm, gen):
    """A copy of ``prm`` with every grip the table has not seen (rules.see_move) drawn at random (C5)."""
    out = prm.copy()
    for s in range(R.N_SLIDERS):
        for g in range(4):
            m = int(prm[R.P_GRIP + s * 4 + g])
            for k in range(R.SLIDER_LEN):
                if not (int(st[R.S_SEEN_KNOWN + s]) >> (k * 4 + g)) & 1 and gen.random() < 0.5:
                    m ^= 1 << k
            out[R.P_GRIP + s * 4 + g] = m
    return out


def decide_any(sid, sp_row, row_w, st, prm, mask, nl, rng, seat, scratch, marker):
    """Strategy ``sid``'s action for ``seat`` (its stream 1 + seat), dispatched as step.decide does: the learned
    policy (`features.learned_choice`, its weights ``sp_row``, its effective row ``row_w``) or `strategies.decide`;
    ``scratch``: `play.new_scratch`, ``marker``: `features.new_marker`."""
    work, base, cur, keys, probs, near = (
        scratch.work,
        scratch.base,
        scratch.cur,
        scratch.keys,
        scratch.probs,
        scratch.near,
    )
    if sid == S.S_LEARNED:
        return F.learned_choice(sp_row, row_w, st, prm, mask, rng, 1 + seat, marker, work, base, cur, keys, probs, near)
    return S.decide(sid, row_w, st, prm, mask, nl, rng, 1 + seat, work, base, cur, keys, probs, near)


def _decide_copy(decide, sid, sp_row, row_w, st, prm, mask, nl, rng, seat, scratch_work):
    scratch = PL.new_scratch(len(row_w))
    scratch.work[:] = scratch_work
    return decide(sid, sp_row, row_w, st, prm, mask, nl, rng.copy(), seat, scratch, F.new_marker())


LADDER = [
    {"recall_own": 1.0, "recall_table": 0.0},
    {"recall_own": 0.0, "recall_table": 1.0},
    {"recall_own": 0.0, "recall_table": 0.0},
    {"recall_own": 0.5, "recall_table": 0.5},
]


def hidden_check(sc, gen, decide=decide_any, games=12):
    """Play ``games`` games of ``sc``; at every decision of a seat that is not random, ask ``decide`` (signature of
    `decide_any`) again on a copy of the state where what the seat has not seen was dealt again (`_perturb`; with
    knows_magnets 0 the unseen grips too). Returns (decisions compared, decisions that changed)."""
    n = sc.players
    prm, sids, sp = sc.prm(), sc.sids(), sc.sparams()
    checked = changed = 0
    marker = F.new_marker()
    for g in range(games):
        scratch = PL.new_scratch(n)
        st, rng, mask, order, work, wrows = (
            scratch.st,
            scratch.rng,
            scratch.mask,
            scratch.order,
            scratch.work,
            scratch.wrows,
        )
        seed_game(rng, np.uint64(sc.seed), np.uint64(0), g, n)
        S.effective_rows(sids, sp, wrows)
        F.learned_rows(sids, sp, wrows)
        work[S.W_PLAN_TURN] = -1
        R.init(st, prm, n, g % n)
        for p in range(R.N_PARTS):
            order[p * 4 : (p + 1) * 4] = p * 4 + gen.permutation(4)
        R.deal(st, order)
        R.stack_decks(st, rng)
        log = np.zeros((1, 6), np.int32)
        while st[R.S_PHASE] != R.PH_OVER and st[R.S_TURNS] < 150:
            nl = R.legal_actions(st, prm, mask)
            assert nl > 0
            seat = int(st[R.S_CUR])
            a = int(np.flatnonzero(mask)[0])
            if nl > 1:
                if sids[seat] != S.S_RANDOM:
                    blind = wrows[seat][S.W_MAGNETS] < 0.5  # C5: nor the unseen magnets
                    other = _decide_copy(
                        decide,
                        sids[seat],
                        sp[seat],
                        wrows[seat],
                        _perturb(st, seat, gen),
                        _unseen_magnets(st, prm, gen) if blind else prm,
                        mask.copy(),
                        nl,
                        rng,
                        seat,
                        work,
                    )
                a = decide(sids[seat], sp[seat], wrows[seat], st, prm, mask, nl, rng, seat, scratch, marker)
                if sids[seat] != S.S_RANDOM:
                    changed += other != a
                    checked += 1
            if R.apply_action(st, prm, a, log) == 1:
                M.observe_search(st, wrows, rng)
                if prm[R.P_DECKS_MOVED] and st[R.S_PHASE] != R.PH_OVER:  # C11, as play_batch does it
                    k = int(st[R.S_LAST_DECK])
                    b = int(gen.integers(0, 3))
                    b += b >= k
                    R.swap_decks(st, k, b)
                    M.observe_swap(st, int(st[R.S_LAST_SEARCHER]), k, b)
    return checked, changed


@pytest.mark.parametrize(
    "strats,seat_params,params",
    [
        (("planner", "spoiler", "weighted", "random"), None, None),
        (("planner",) * 4, LADDER, None),
        (("planner",) * 4, LADDER, {"decks_moved": True}),
        (("planner",) * 3, LADDER[1:], {"decks_moved": True, "decks_moved_seen": False, "deck_view": "size"}),
        (("planner", "spoiler", "planner"), [{"knows_magnets": 0.0}, {"knows_magnets": 0.0}, {}], None),
    ],
)
def test_m1_no_decision_depends_on_what_the_seat_has_not_seen(strats, seat_params, params):
    sc = scenario(len(strats), strats, seat_params=seat_params, params=params)
    checked, changed = hidden_check(sc, np.random.default_rng(5))
    assert checked > 200 and changed == 0


def _own_cells(st, prm, me, keep):
    """Own ghost's cells reachable within 3 magical moves (the planner's model: placements resolved with the lowest
    option, S5), expanding only the moves ``keep(position, action, moves_left)`` accepts; distinct positions once."""
    phys = slice(0, S.N_PHYS)
    seen = {st[phys].tobytes()}
    frontier, cells = [st.copy()], {int(st[R.S_GPOS + me])}
    for left in (3, 2, 1):
        nxt = []
        for pos in frontier:
            for a in range(R.A_DRAG, R.A_PLACE):
                if not keep(pos, a, left) or R.move_legal(pos, prm, me, a) == 0:
                    continue
                child = pos.copy()
                R.do_move(child, prm, me, a)
                R.place_first_options(child, prm)
                key = child[phys].tobytes()
                if key in seen:
                    continue
                seen.add(key)
                cells.add(int(child[R.S_GPOS + me]))
                nxt.append(child)
        frontier = nxt
    return cells


def test_s2_shift_pruning_never_loses_a_cell_of_the_own_ghost():
    """S2: the planner's shifts (only into the tunnel under a neighbouring column or the column a turn carries the
    ghost to, only with 3 moves left) reach every cell that all shifts at every depth reach."""
    sc = scenario(4, ("random",))
    prm, sids, sp = sc.prm(), sc.sids(), sc.sparams()
    gen = np.random.default_rng(3)
    shift_used = 0
    positions = 0
    for g in range(40):
        st = PL.trace_game(np.uint64(sc.seed), np.uint64(0), g, 4, prm, sids, sp, 1, 1, 1).state.copy()
        st[R.S_NPEND] = 0
        me = int(gen.integers(0, 4))
        if st[R.S_GPOS + me] < 0:
            continue
        every_slide = lambda pos, a, left: a < R.A_SHIFT or a >= R.A_TURN  # noqa: E731
        # the lambdas are called within this iteration (B023 warns of late binding)
        pruned = _own_cells(
            st,
            prm,
            me,
            lambda pos, a, left: (
                every_slide(pos, a, left)  # noqa: B023
                or S.relevant(pos, prm, me, a, left, True, True)  # noqa: B023
                and S.relevant(pos, prm, me, a, left, False, True)  # noqa: B023
            ),
        )  # noqa: B023
        full = _own_cells(st, prm, me, lambda pos, a, left: True)
        assert pruned == full, f"game {g}: cells only reached through a pruned shift: {sorted(full - pruned)}"
        shift_used += len(full - _own_cells(st, prm, me, every_slide))
        positions += 1
    assert positions >= 30
    assert shift_used > 0, "no position where a shift mattered: the test checks nothing"


@pytest.mark.parametrize("must", [True, False])
def test_c1_planner_plans_every_move_unless_it_ends_on_a_needed_garment(must):
    """C1 (default must_use_all_moves): the planner's sequence uses every move left unless it ends on a garment of a
    part the seat lacks, so it never needs a filler move; with the option off it may stop anywhere (and does)."""
    sc = scenario(4, ("planner",), params={"must_use_all_moves": must})
    prm, sids, sp = sc.prm(), sc.sids(), sc.sparams()
    short_off_garment = 0
    plans = 0
    for g in range(30):
        st = PL.trace_game(np.uint64(sc.seed), np.uint64(0), g, 4, prm, sids, sp, 1, 1, 1).state.copy()
        st[R.S_PHASE] = R.PH_MOVE
        st[R.S_NPEND] = 0
        st[R.S_MOVES_LEFT] = 3
        for me in range(4):
            if st[R.S_GPOS + me] < 0:
                continue
            st[R.S_CUR] = me
            st[R.S_HAVE + me] = 0
            sc4 = PL.new_scratch(4)
            S.effective_rows(sids, sp, sc4.wrows)
            n = S.plan(st, prm, sc4.wrows[me], sc4.work, sc4.base, sc4.cur, sc4.keys, sc4.probs, sc4.near)
            pos = st.copy()
            for i in range(n):
                R.do_move(pos, prm, me, int(sc4.work[S.W_PLAN + i]))
                R.place_first_options(pos, prm)
            plans += 1
            if n < 3 and R.needed_garment(pos, prm, me) < 0:
                short_off_garment += 1
    assert plans >= 100
    assert (short_off_garment == 0) if must else (short_off_garment > 0), short_off_garment
