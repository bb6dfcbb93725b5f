"""Helpers for the Galleon kernel tests: default parameters, states built from positions, forced chance, names."""

from __future__ import annotations

import numpy as np

from kernels.galleon import board as B
from kernels.galleon import params as P
from kernels.galleon import rules as R

DEFAULTS = {p[0]: p[2] for p in P.PARAM_SPECS}
BOARD = B.load_board("default")
ID = {name: i for i, name in enumerate(BOARD.ids)}
# default deal: cabin c holds tile 6 + c (gold c + 1; cabin 5 the bottle), chest c carries sticker c of chest_keys
# (cabin 0 blank, 1..3 keys 1..3, 4 and 5 key 4), stack bottom..top: pistol, pistol, parrot, keys 13..17 (top 17)
DEAL = np.array([6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 4, 5, 12, 13, 14, 15, 16, 17], np.int32)


class Game:
    """A state with its scratch, driven through the public verbs; every step checks the invariants."""

    def __init__(self, n=4, first=0, deal=None, **params):
        self.prm = P.pack({**DEFAULTS, **params}, n)
        self.st = np.zeros(R.S_SIZE, np.int32)
        self.log = np.zeros((4000, 6), np.int32)
        self.reach = np.zeros(R.MAX_SPACES, np.int32)
        self.cavek = np.zeros(R.MAX_SPACES, np.int32)
        self.vis = np.zeros(R.MAX_SPACES, np.int32)
        self.stk = np.zeros(52, np.int32)
        R.init(self.st, self.prm, n, first)
        R.deal(self.st, self.prm, DEAL if deal is None else np.asarray(deal, np.int32))
        self.advance()

    @property
    def scratch(self):
        return self.reach, self.cavek, self.vis, self.stk

    def advance(self):
        R.advance(self.st, self.prm, self.log, *self.scratch)

    def place(self, seat, name):
        R.set_pos(self.st, seat, ID[name] if name is not None else -1)

    def ghost_to(self, name):
        g = int(self.st[R.S_GHOST])
        if self.st[R.S_OCC + g] == R.GHOST_OCC:
            self.st[R.S_OCC + g] = -1
        self.st[R.S_GHOST] = ID[name]
        self.st[R.S_OCC + ID[name]] = R.GHOST_OCC

    def give(self, seat, *tiles):
        for t in tiles:
            if self.st[R.S_LOC + t] == R.LOC_STACK:  # keep the stack list consistent
                i = [int(x) for x in self.st[R.S_STACK : R.S_STACK + self.st[R.S_NSTACK]]].index(t)
                for j in range(i, int(self.st[R.S_NSTACK]) - 1):
                    self.st[R.S_STACK + j] = self.st[R.S_STACK + j + 1]
                self.st[R.S_NSTACK] -= 1
                self.st[R.S_STACK + self.st[R.S_NSTACK]] = -1
            self.st[R.S_LOC + t] = seat

    def tiles(self, loc):
        return [t for t in range(R.N_TILES) if self.st[R.S_LOC + t] == loc]

    def chance(self, outcome):
        assert self.st[R.S_PHASE] == R.PH_CHANCE, f"no chance node (phase {self.st[R.S_PHASE]})"
        assert R.apply_chance(self.st, self.prm, outcome, self.log, *self.scratch) == 0
        self.ok()

    def roll(self, d1, d2):
        assert self.st[R.S_CH_KIND] == R.CH_DICE
        self.chance((d1 - 1) * 6 + (d2 - 1))

    def act(self, a):
        m = self.mask()
        assert m[a], f"action {a} not legal; legal: {np.flatnonzero(m).tolist()}"
        assert R.apply_action(self.st, self.prm, a, self.log, *self.scratch) == 0
        self.ok()

    def move(self, name):
        self.act(R.A_MOVE + ID[name])

    def mask(self):
        m = np.zeros(R.N_ACTIONS, np.int8)
        R.legal_actions(self.st, self.prm, m)
        return m

    def options(self):
        """Legal destination names of the pending move or ghost decision."""
        m = self.mask()
        base = R.A_MOVE if self.st[R.S_PHASE] == R.PH_MOVE else R.A_GHOST
        return {BOARD.ids[v] for v in range(BOARD.n) if m[base + v]}

    def opt(self, name):
        return int(self.st[R.S_OPT + ID[name]])

    def pos(self, seat):
        v = int(self.st[R.S_POS + seat])
        return BOARD.ids[v] if v >= 0 else None

    def events(self, kind):
        return [
            tuple(int(x) for x in self.log[r, 1:5]) for r in range(1, int(self.log[0, 0]) + 1) if self.log[r, 0] == kind
        ]

    def ok(self):
        code = R.check_invariants(self.st, self.prm)
        assert code == 0, f"invariant {code} broken"

    @property
    def phase(self):
        return int(self.st[R.S_PHASE])

    @property
    def cur(self):
        return int(self.st[R.S_CUR])
