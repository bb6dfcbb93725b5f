"""Helpers for the Treasure Hunters kernel tests: parameter vectors, fresh states, hand-built positions.

Everything writes through the documented offsets of kernels/treasure_hunters/rules.py (RULES.md "State layout") and
keeps the state consistent (supplies, counters, jewel and card bookkeeping), so `check_invariants` accepts a
hand-built state exactly as it accepts a played one. Arrays have the kernel's dtypes (no extra specialisations).
"""

from __future__ import annotations

import numpy as np

from kernels.treasure_hunters import board as B
from kernels.treasure_hunters import params as P
from kernels.treasure_hunters import rules as R

BOARD = B.load_board("default")
NODE = {
    "outside": 0,
    **{L: 1 + i for i, L in enumerate(R.ROOM_LETTERS)},
    **{h: 1 + R.N_ROOMS + i for i, h in enumerate(BOARD.hallway)},
}
NAME = {v: k for k, v in NODE.items()}
GHOST_FACE, HAUNT_FACE, BLANK_FACE = 0, 3, 5  # indices into the default fight die [1, 1, 1, 2, 2, 0]
JEWEL_ROOM = {j: R.ROOM_LETTERS[r] for j, r in enumerate(BOARD.jewel_rooms)}  # jewel j starts in this room
JEWEL_OF = {v: k for k, v in JEWEL_ROOM.items()}


def values_of(mode: str = "basic", **over) -> dict:
    v = P.defaults()
    v["mode"] = mode
    v.update(over)
    return v


def prm_of(mode: str = "basic", players: int = 4, **over) -> np.ndarray:
    v = values_of(mode, **over)
    err = P.check(v, players)
    assert err is None, err
    return P.pack(v, players)


def new_log(rows: int = 600) -> np.ndarray:
    return np.zeros((rows, R.LOG_W), dtype=np.int32)


def events(log) -> list[tuple]:
    return [tuple(int(x) for x in log[i]) for i in range(1, int(log[0, 0]) + 1)]


def kinds(log) -> list[int]:
    return [e[0] for e in events(log)]


def card_ids(prm, ct: int) -> list[int]:
    return [c for c in range(int(prm[R.P_N_CARDS])) if int(prm[R.P_CARD_TYPE + c]) == ct]


def deck_order(prm, top=(), st=None) -> np.ndarray:
    """The cards a shuffle collects, ordered so that card types ``top`` are drawn first (top[0] first)."""
    n = int(prm[R.P_N_CARDS])
    if st is None:
        cards = list(range(n))
    else:
        cards = [c for c in range(n) if int(st[R.S_CLOC + c]) in (R.CL_DRAW, R.CL_DISCARD, R.CL_DOOR)]
    chosen = []
    for ct in top:
        c = next(c for c in cards if int(prm[R.P_CARD_TYPE + c]) == ct and c not in chosen)
        chosen.append(c)
    rest = [c for c in cards if c not in chosen]
    return np.array(rest + chosen[::-1], dtype=np.int32)


def new_state(
    mode: str = "basic", players: int = 4, first: int | None = None, prm=None, top=(), nums=None, log=None, **over
):
    """(st, prm, log) after setup (R1–R3, R34): the deck ordered with card types ``top`` first, jewel numbers
    ``nums`` (default 1..8 in jewel order); the first hunter is about to roll."""
    prm = prm_of(mode, players, **over) if prm is None else prm
    log = new_log() if log is None else log
    if first is None:
        first = 1 if mode == "head_haunter" else 0
    st = np.zeros(R.S_SIZE, dtype=np.int32)
    R.init(st, prm, players, first)
    R.set_jewel_numbers(st, np.arange(1, 9, dtype=np.int32) if nums is None else np.asarray(nums, dtype=np.int32))
    order = deck_order(prm, top)
    R.apply_shuffle(st, prm, order, len(order), log)
    return st, prm, log


def reshuffle(st, prm, log, top=()):
    """Resolve a pending PH_SHUFFLE with card types ``top`` drawn first."""
    assert st[R.S_PHASE] == R.PH_SHUFFLE
    order = deck_order(prm, top, st)
    R.apply_shuffle(st, prm, order, len(order), log)


def set_top(st, prm, top):
    """Rearrange the draw pile so that card types ``top`` are drawn next (top[0] first); others keep their order."""
    n = int(st[R.S_NDRAW])
    pile = [int(st[R.S_DRAW + i]) for i in range(n)]
    chosen = []
    for ct in top:
        c = next(c for c in reversed(pile) if int(prm[R.P_CARD_TYPE + c]) == ct and c not in chosen)
        chosen.append(c)
    rest = [c for c in pile if c not in chosen]
    new = rest + chosen[::-1]
    for i, c in enumerate(new):
        st[R.S_DRAW + i] = c


def room(x) -> int:
    return R.ROOM_LETTERS.index(x) if isinstance(x, str) else int(x)


def set_ghosts(st, x, n: int):
    r = room(x)
    d = n - int(st[R.S_GHOSTS + r])
    st[R.S_GHOSTS + r] = n
    st[R.S_GHOSTS_ON] += d
    st[R.S_SUPPLY_G] -= d


def set_haunted(st, x, on: bool = True):
    r = room(x)
    set_ghosts(st, r, 0)
    d = int(on) - int(st[R.S_HAUNTED + r])
    st[R.S_HAUNTED + r] = int(on)
    st[R.S_HAUNTS] += d
    st[R.S_SUPPLY_H] -= d
    if st[R.S_HAUNTS] > st[R.S_HAUNT_MAX]:
        st[R.S_HAUNT_MAX] = st[R.S_HAUNTS]


def clear_ghosts(st):
    for r in range(R.N_ROOMS):
        set_ghosts(st, r, 0)


def put(st, h: int, where: str):
    st[R.S_HPOS + h] = NODE[where]


def give(st, h: int, j: int):
    """Hunter ``h`` carries jewel ``j`` (taken from wherever it lay)."""
    st[R.S_HCARRY + h] = j
    st[R.S_JLOC + j] = -1 - h


def deliver(st, j: int):
    st[R.S_JLOC + j] = R.J_WAGON
    st[R.S_DELIVERED] += 1


def roll(st, prm, log, value: int, ghost: bool | None = None):
    """Force the movement die: the first face showing ``value`` (and the ghost icon if ``ghost`` is given)."""
    n = int(prm[R.P_N_MOVE_FACES])
    for f in range(n):
        if int(prm[R.P_MOVE_FACES + f]) == value and (ghost is None or bool(prm[R.P_MOVE_GHOST + f]) == ghost):
            R.apply_chance(st, prm, f, log)
            return
    raise AssertionError(f"no face {value}")


def legal(st, prm) -> set:
    mask = np.zeros(R.N_ACTIONS, dtype=np.int8)
    work = np.zeros(512, dtype=np.int32)
    R.legal_actions(st, prm, mask, work)
    return {int(a) for a in np.flatnonzero(mask)}


def dests(st, prm) -> set:
    return {NAME[a - R.A_MOVE] for a in legal(st, prm) if a < R.A_PASS}


def act(st, prm, log, a: int):
    assert a in legal(st, prm), (a, sorted(legal(st, prm)))
    R.apply_action(st, prm, a, log)


def move(st, prm, log, where: str):
    act(st, prm, log, R.A_MOVE + NODE[where])


def fight(st, prm, log, *faces):
    for f in faces:
        assert st[R.S_PHASE] in (R.PH_FIGHT_ROLL, R.PH_REROLL_FIGHT_ROLL), st[R.S_PHASE]
        R.apply_chance(st, prm, f, log)


def ok(st, prm):
    code = int(R.check_invariants(st, prm))
    assert code == 0, f"invariant {code} broken: {R.decode(st)}"


def jewel_at(st, x) -> list[int]:
    v = NODE[x] if isinstance(x, str) else x
    return [j for j in range(8) if int(st[R.S_JLOC + j]) == v]
