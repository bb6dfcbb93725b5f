"""Helpers for the Turnwall kernel tests: the default parameters, states built from positions, action names."""

from __future__ import annotations

import numpy as np

from kernels.turnwall import board as B
from kernels.turnwall import params as P
from kernels.turnwall import rules as R

DEFAULTS = {p[0]: p[2] for p in P.PARAM_SPECS}
NOLOG = np.zeros((1, 6), np.int32)


def prm(**changes) -> np.ndarray:
    return P.pack({**DEFAULTS, **changes}, 4)


def cell(r: int, c: int) -> int:
    return r * 7 + c


def state(p, n=4, ghosts=None, rot=0, sliders=None, first=0, deal=None) -> np.ndarray:
    """A state after set-up with the given ghost cells ([(r, c)] or None for the start corners), orientation,
    sliders ([(tunnel, pulled_out)] x 3) and dealt order (default: deck k holds garment p * 4 + k)."""
    st = np.zeros(R.S_SIZE, np.int32)
    R.init(st, p, n, first)
    R.deal(st, np.arange(20, dtype=np.int32) if deal is None else np.asarray(deal, np.int32))
    if ghosts is not None:
        for g, rc in enumerate(ghosts):
            st[R.S_GPOS + g] = -1 if rc is None else cell(*rc)
    st[R.S_ROT] = rot
    if sliders is not None:
        for s, (t, q) in enumerate(sliders):
            st[R.S_STUN + s] = t
            st[R.S_SPOS + s] = q
    return st


def ghosts(st) -> list:
    return [None if st[R.S_GPOS + g] < 0 else divmod(int(st[R.S_GPOS + g]), 7) for g in range(st[R.S_NG])]


def mask(st, p):
    m = np.zeros(R.N_ACTIONS, np.int8)
    R.legal_actions(st, p, m)
    return m


def board():
    return B.load_board("default")
