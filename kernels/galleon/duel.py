"""Duels played optimally for the duel alone (RULES.md R22, C12): plain Python, run once by params.pack.

Weapon w in 0 none, 1 sabre, 2 pistol allows ROLLS[w] rolls of one die; only the last roll counts. The attacker rolls
first, stopping when the roll is good enough; the defender then rolls knowing the attacker's result; higher wins; a
tie repeats the duel with the same weapons, so a tie is worth T = the attacker's chance to win the whole duel.

Given T, both stopping problems are small dynamic programs (defender: minimise the attacker's chance; attacker:
maximise it). T is their fixed point, found by iteration (the map is a contraction: a tie has chance < 1/2).
Returned tables are what the kernel reads:

    att_stop[wa, wd, r, v]   1: the attacker with r rolls left (after the one showing v) stops on v
    def_stop[wa, wd, a, r, v] 1: the defender facing attacker result a, with r rolls left, stops on v
    win[wa, wd]              the attacker's chance to win the duel (float)
"""

from __future__ import annotations

import numpy as np

ROLLS = (1, 2, 3)
WEAPONS = ("none", "sabre", "pistol")


def _solve(wa: int, wd: int, t: float):
    ra, rd = ROLLS[wa], ROLLS[wd]
    dfirst = np.zeros(7)
    dstop = np.zeros((7, 3, 7), dtype=np.int64)
    for a in range(1, 7):
        # value[r][v]: attacker's chance when the defender holds v with r rolls left (defender minimises)
        cont = [0.0] * 3
        val = {}
        for r in range(rd):
            for v in range(1, 7):
                s = 1.0 if v < a else (t if v == a else 0.0)
                if r == 0:
                    val[(r, v)] = s
                    dstop[a, r, v] = 1
                else:
                    c = sum(val[(r - 1, x)] for x in range(1, 7)) / 6.0
                    cont[r] = c
                    dstop[a, r, v] = 1 if s <= c else 0
                    val[(r, v)] = min(s, c)
        dfirst[a] = sum(val[(rd - 1, x)] for x in range(1, 7)) / 6.0
    astop = np.zeros((3, 7), dtype=np.int64)
    aval = {}
    for r in range(ra):
        for v in range(1, 7):
            s = dfirst[v]
            if r == 0:
                aval[(r, v)] = s
                astop[r, v] = 1
            else:
                c = sum(aval[(r - 1, x)] for x in range(1, 7)) / 6.0
                astop[r, v] = 1 if s >= c else 0
                aval[(r, v)] = max(s, c)
    w = sum(aval[(ra - 1, x)] for x in range(1, 7)) / 6.0
    return w, astop, dstop


def tables():
    """(att_stop int64[3, 3, 3, 7], def_stop int64[3, 3, 7, 3, 7], win float64[3, 3]) of optimal duel play."""
    att = np.zeros((3, 3, 3, 7), dtype=np.int64)
    dfn = np.zeros((3, 3, 7, 3, 7), dtype=np.int64)
    win = np.zeros((3, 3))
    for wa in range(3):
        for wd in range(3):
            t = 0.5
            for _ in range(200):
                w, a, d = _solve(wa, wd, t)
                if abs(w - t) < 1e-15:
                    break
                t = w
            w, a, d = _solve(wa, wd, t)
            att[wa, wd] = a
            dfn[wa, wd] = d
            win[wa, wd] = w
    return att, dfn, win
