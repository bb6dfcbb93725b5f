"""Duel decisions are optimal for the duel alone (RULES.md S2, R21..R22): for every weapon pair the tables'
win chance equals an independent exact calculation (best stopping thresholds for the attacker against the
defender's best reply, the tie's value found by Dinkelbach's method), and the kernel's duels played with the
strategies' decisions win at that rate."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import numpy as np
import pytest

from kernels.galleon import duel
from kernels.galleon import rules as R
from kernels.galleon import strategies as S
from tests.kernels.galleon._kit import Game

ROLLS = (1, 2, 3)


def final_distribution(thresholds):
    """Exact distribution (Fractions, index 1..6) of the last roll when the player rerolls while x < thresholds[i]
    on decision i (a threshold of 7: always reroll; 1: always stop)."""

    def dist(i):
        if i == len(thresholds):
            return {v: Fraction(1, 6) for v in range(1, 7)}
        nxt = dist(i + 1)
        out = {v: Fraction(0) for v in range(1, 7)}
        for x in range(1, 7):
            if x >= thresholds[i]:
                out[x] += Fraction(1, 6)
            else:
                for v, p in nxt.items():
                    out[v] += Fraction(1, 6) * p
        return out

    return dist(0)


def exact_value(wa, wd):
    """Attacker's chance to win with both sides best: max over attacker threshold policies of the defender's best
    reply (per attacker result a, its own thresholds), the tie's value W solving min_D [P(win) - W (1 - P(tie))] = 0."""
    dpols = [final_distribution(t) for t in itertools.product(range(1, 8), repeat=ROLLS[wd] - 1)]
    dstats = [[(float(sum(p for v, p in d.items() if v < a)), float(d.get(a, 0))) for a in range(7)] for d in dpols]
    best = 0.0
    for ta in itertools.product(range(1, 8), repeat=ROLLS[wa] - 1):
        pa = {a: float(p) for a, p in final_distribution(ta).items()}
        lo, hi = 0.0, 1.0
        for _ in range(60):
            lam = (lo + hi) / 2
            f = sum(pa[a] * min(w - lam * (1 - t) for w, t in (s[a] for s in dstats)) for a in range(1, 7))
            if f > 0:
                lo = lam
            else:
                hi = lam
        best = max(best, (lo + hi) / 2)
    return best


@pytest.mark.parametrize("wa,wd", list(itertools.product(range(3), repeat=2)))
def test_s2_duel_table_equals_the_exact_calculation(wa, wd):
    _, _, win = duel.tables()
    assert abs(win[wa, wd] - exact_value(wa, wd)) < 1e-9


def test_s2_duel_odds_table_shape():
    """More rolls help; the defender, who knows the attacker's result, is favoured with equal weapons."""
    _, _, win = duel.tables()
    for wd in range(3):
        assert win[0, wd] < win[1, wd] < win[2, wd]
    for wa in range(3):
        assert win[wa, 0] > win[wa, 1] > win[wa, 2]
        assert win[wa, wa] <= 0.5


def _kernel_duels(wa, wd, n, seed):
    g = Game()
    g.place(0, "P04")
    g.place(1, "P07")
    if wa == 2:
        g.give(0, 4)
    if wd == 2:
        g.give(1, 5)
    if wa == 0:
        g.st[R.S_LOC + 0] = R.LOC_CAVE
    if wd == 0:
        g.st[R.S_LOC + 1] = R.LOC_CAVE
    g.roll(1, 1)
    g.move("P06")
    g.act(R.A_DUEL + 1)
    rows = np.zeros((4, S.N_SPARAMS))
    S.effective_rows(np.full(4, S.S_TREASURE, np.int64), np.zeros((4, S.N_SPARAMS)), rows)
    rng = np.zeros((8, 4), np.uint64)
    mask = np.zeros(R.N_ACTIONS, np.int8)
    for _ in range(2):  # both choose their weapon as the strategy does
        nl = R.legal_actions(g.st, g.prm, mask)
        g.act(S.decide(S.S_TREASURE, rows[int(g.st[R.S_ACTOR])], g.st, g.prm, mask, nl, rng, 1))
    assert g.st[R.S_WA] == wa and g.st[R.S_WD] == wd
    base = g.st.copy()
    rnd = random.Random(seed)
    wins = 0
    for _ in range(n):
        st = base.copy()
        g.st = st
        while st[R.S_PHASE] == R.PH_ROLLQ or (st[R.S_PHASE] == R.PH_CHANCE and st[R.S_CH_KIND] == R.CH_DIE):
            if st[R.S_PHASE] == R.PH_ROLLQ:
                nl = R.legal_actions(st, g.prm, mask)
                a = S.decide(S.S_TREASURE, rows[int(st[R.S_ACTOR])], st, g.prm, mask, nl, rng, 1)
                R.apply_action(st, g.prm, a, g.log, *g.scratch)
            else:
                R.apply_chance(st, g.prm, rnd.randrange(6), g.log, *g.scratch)
            g.log[0, 0] = 0
        wins += int(st[R.S_DUEL_WINNER]) == 0
    return wins / n


@pytest.mark.parametrize("wa,wd", [(0, 0), (1, 1), (2, 2), (2, 0), (0, 2), (1, 2)])
def test_s2_kernel_duels_with_the_strategies_win_at_the_exact_rate(wa, wd):
    n = 3000
    p = exact_value(wa, wd)
    got = _kernel_duels(wa, wd, n, seed=wa * 3 + wd)
    assert abs(got - p) < 4.5 * (p * (1 - p) / n) ** 0.5 + 1e-9, (got, p)
