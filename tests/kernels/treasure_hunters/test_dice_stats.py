"""Die probabilities: exact from the face lists, and checked statistically on the fights of played games
(one die removes a ghost with probability 1/2; two dice remove a haunting with probability 5/9)."""

from __future__ import annotations

from fractions import Fraction
from math import sqrt

import numpy as np

from kernels.treasure_hunters import play as PL
from kernels.treasure_hunters import rules as R

from ._kit import prm_of
from .test_invariants import setup


def test_exact_probabilities_from_the_faces():
    prm = prm_of()
    faces = [int(prm[R.P_FIGHT_FACES + i]) for i in range(int(prm[R.P_N_FIGHT_FACES]))]
    p_ghost = Fraction(faces.count(R.F_GHOST), len(faces))
    p_haunt = Fraction(faces.count(R.F_HAUNT), len(faces))
    assert p_ghost == Fraction(1, 2)
    assert 1 - (1 - p_haunt) ** 2 == Fraction(5, 9)
    assert p_ghost**2 == Fraction(1, 4) and 1 - (1 - p_ghost) ** 2 == Fraction(3, 4)
    moves = [int(prm[R.P_MOVE_GHOST + i]) for i in range(int(prm[R.P_N_MOVE_FACES]))]
    assert Fraction(sum(moves), len(moves)) == Fraction(5, 6)


def z(k, n, p):
    return (k - n * p) / sqrt(n * p * (1 - p))


def test_fight_outcomes_in_played_games():
    prm, sids, sp = setup("basic", 4, ["busters"] * 4)
    alone = [0, 0]  # fights with one die: [fights, ghost removed]
    pair2 = [0, 0]  # fights with two dice: [fights, both dice show the ghost]
    unh = [0, 0]  # unhauntings: [attempts, successes]
    rolls = np.zeros(6, np.int64)
    g = 0
    while unh[0] < 3000 and g < 20000:
        log = PL.trace_game(np.uint64(2024), np.uint64(0), g, 4, prm, sids, sp, 3000, 2).log
        g += 1
        for i in range(1, int(log[0, 0]) + 1):
            e, a, b, c, d = (int(x) for x in log[i, :5])
            if e == R.E_ROLL:
                rolls[b - 1] += 1
            elif e == R.E_FIGHT:
                if b < 0:
                    alone[0] += 1
                    alone[1] += d
                else:
                    two_ghosts = (c // 3 == 1) + (c % 3 == 1)
                    pair2[0] += 1
                    pair2[1] += two_ghosts == 2
            elif e == R.E_UNHAUNT:
                unh[0] += 1
                unh[1] += d
    assert alone[0] > 5000 and unh[0] > 1000
    assert abs(z(alone[1], alone[0], 0.5)) < 4.5, alone
    assert abs(z(unh[1], unh[0], 5 / 9)) < 4.5, unh
    assert abs(z(pair2[1], pair2[0], 0.25)) < 4.5, pair2
    for f in range(6):  # the movement die is fair
        assert abs(z(rolls[f], rolls.sum(), 1 / 6)) < 4.5, rolls
