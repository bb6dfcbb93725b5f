"""The kernel's movement agrees with the pure-Python oracle (sim/oracle/galleon.py: every path of exactly n pips
without revisiting, R3..R7, R10, C2, C3) on thousands of random positions."""

from __future__ import annotations

import random

from kernels.galleon import rules as R
from sim.oracle.galleon import Bay
from tests.kernels.galleon._kit import BOARD, Game

BAY = Bay(BOARD.path)
WALK = [v for v in range(BOARD.n) if BOARD.kinds[v] not in (R.K_WHIRLPOOL, R.K_HIDEOUT)]
SHIP = [v for v in range(BOARD.n) if R.K_DECK <= BOARD.kinds[v] <= R.K_CAPTAIN]


def _kernel_flags(g: Game) -> dict:
    out = {}
    for v in range(BOARD.n):
        o = int(g.st[R.S_OPT + v])
        if o:
            f = set()
            if o & R.OPT_CAVE:
                f.add("cave")
            if o & R.OPT_SHORT:
                f.add("short")
            out[BOARD.ids[v]] = f
    return out


def _position(rnd: random.Random, g: Game):
    g.ghost_to(BOARD.ids[rnd.choice(SHIP)])
    taken = {int(g.st[R.S_GHOST])}
    pieces = {"ghost": BOARD.ids[int(g.st[R.S_GHOST])]}
    for s in range(4):
        if rnd.random() < 0.15:
            v = BOARD.hideouts[s]
        else:
            v = rnd.choice([w for w in WALK if w not in taken])
        if v in taken:
            v = rnd.choice([w for w in WALK if w not in taken])
        taken.add(v)
        g.place(s, BOARD.ids[v])
        pieces[s] = BOARD.ids[v]
    return pieces


def test_pirate_moves_agree_with_the_oracle_on_random_positions():
    rnd = random.Random(11)
    g = Game()
    checked = 0
    for _ in range(3000):
        pieces = _position(rnd, g)
        s = rnd.randrange(4)
        pips = rnd.randint(1, 12)
        passing = rnd.random() < 0.3
        R.move_options(g.st, g.prm, s, pips, int(passing), *g.scratch)
        want = BAY.pirate_moves(pieces, s, pieces[s], pips, passing)
        assert _kernel_flags(g) == want, (pieces, s, pips, passing)
        checked += bool(want)
    assert checked > 2000


def test_ghost_moves_agree_with_the_oracle_on_random_positions():
    rnd = random.Random(12)
    g = Game()
    for _ in range(1500):
        pieces = _position(rnd, g)
        R.ghost_options(g.st, g.prm, *g.scratch)
        assert _kernel_flags(g) == BAY.ghost_moves(pieces, pieces["ghost"]), pieces
