"""Ghostly Galleon: parameters, packed with the compiled board and the duel tables into one int64 vector ``prm``.

Each parameter has one spec (name, kind, default, domain, help); `check` validates what specs cannot (the board file,
the key lists); `pack` builds ``prm`` (offsets P_* live in rules.py).
"""

from __future__ import annotations

import numpy as np

from kernels.galleon import board as B
from kernels.galleon import duel
from kernels.galleon import rules as R

GHOST_DIE = ("pirate_stays", "pirate_moves_other_die")
BLOCKED = ("longest_move", "stay")
TERROR = ("graph", "ship_only")
CANNON = ("not_twice_in_a_row", "once_per_game")
ROCK_EXIT = ("step_onto_shore", "count_from_shore")

# (name, kind, default, domain, help). kind: int | bool | choice | int_list | str. Domains are checked by sim.model.scenario.
PARAM_SPECS = (
    (
        "board",
        "str",
        "default",
        None,
        "board file: a path relative to the scenario file's folder, else a name in scenarios/galleon/boards/ "
        "(default = the UNVERIFIED candidate bay and ship)",
    ),
    ("max_turns", "int", 1500, (10, 100000), "turn cap; a capped game is reported as truncated"),
    ("gold_target", "int", 5, (1, 15), "gold a pirate must bring into its hideout to win (rulebook: 5)"),
    (
        "ghost_die",
        "choice",
        "pirate_stays",
        GHOST_DIE,
        "AMBIGUITY C1: on a 6 the ghost moves up to 6 and the pirate stays (A), or the pirate then moves the other die (B)",
    ),
    (
        "blocked_move",
        "choice",
        "longest_move",
        BLOCKED,
        "AMBIGUITY C2: with no path of exactly the roll, move the longest legal distance, or stay",
    ),
    (
        "terror_adjacency",
        "choice",
        "graph",
        TERROR,
        "AMBIGUITY C4: the ghost frightens pirates on every neighbouring space, or only those on ship spaces",
    ),
    (
        "cannon_reuse",
        "choice",
        "not_twice_in_a_row",
        CANNON,
        "AMBIGUITY C7: a cannon fires again after the ghost stopped elsewhere in between, or once a game",
    ),
    (
        "water_duel_safe",
        "bool",
        True,
        None,
        "AMBIGUITY C6: pirates in a whirlpool or on a rock cannot be challenged to a duel",
    ),
    (
        "rock_exit",
        "choice",
        "step_onto_shore",
        ROCK_EXIT,
        "AMBIGUITY C6: a rescued pirate's move from its rock: the step onto the shore (C) costs one pip, or the count "
        "starts at the shore (that step is free)",
    ),
    (
        "chest_keys",
        "int_list",
        [0, 1, 2, 3, 4, 4],
        (0, 4),
        "UNKNOWN: key sticker of each of the 6 chests (0 = blank, opens without a key; 1..4 key types)",
    ),
    (
        "key_tiles",
        "int_list",
        [1, 2, 3, 4, 0],
        (0, 4),
        "UNKNOWN: key type of each of the 5 key tiles in the captain's-cabin stack (0 = the broken key)",
    ),
)


def check(values: dict, players: int, given: frozenset = frozenset()) -> str | None:
    """Cross-parameter checks; returns one error line or None. Loads the board file (a bad one is one line)."""
    if len(values["chest_keys"]) != 6:
        return f"params.chest_keys: needs exactly 6 stickers (0 blank, 1..4), got {len(values['chest_keys'])}"
    if len(values["key_tiles"]) != 5:
        return f"params.key_tiles: needs exactly 5 key tiles (1..4, 0 broken), got {len(values['key_tiles'])}"
    try:
        B.load_board(values["board"])
    except B.BoardError as e:
        return f"params.board: {e}"
    return None


_DUEL = None


def duel_tables():
    global _DUEL
    if _DUEL is None:
        _DUEL = duel.tables()
    return _DUEL


def pack(values: dict, players: int) -> np.ndarray:
    """Validated parameter dict (+ players) -> int64[P_SIZE] vector read by the kernel (board compiled in)."""
    board = B.load_board(values["board"])
    prm = np.zeros(R.P_SIZE, dtype=np.int64)
    prm[R.P_MAX_TURNS] = int(values["max_turns"])
    prm[R.P_GOLD_TARGET] = int(values["gold_target"])
    prm[R.P_GHOST_DIE] = GHOST_DIE.index(values["ghost_die"])
    prm[R.P_BLOCKED] = BLOCKED.index(values["blocked_move"])
    prm[R.P_TERROR] = TERROR.index(values["terror_adjacency"])
    prm[R.P_CANNON] = CANNON.index(values["cannon_reuse"])
    prm[R.P_WATER_SAFE] = int(bool(values["water_duel_safe"]))
    prm[R.P_ROCK_EXIT] = ROCK_EXIT.index(values["rock_exit"])
    prm[R.P_CHEST_KEYS : R.P_CHEST_KEYS + 6] = [int(x) for x in values["chest_keys"]]
    prm[R.P_KEY_TILES : R.P_KEY_TILES + 5] = [int(x) for x in values["key_tiles"]]
    pack_board(prm, board)
    return prm


def pack_board(prm: np.ndarray, board: B.Board) -> None:
    """Write the board's arrays and the duel tables into ``prm`` (tests build positions on other boards with it)."""
    n = board.n
    prm[R.P_NSPACES] = n
    prm[R.P_CAPTAIN] = board.captain
    prm[R.P_CAPTAIN_DOOR] = board.captain_door
    prm[R.P_HIDEOUT : R.P_HIDEOUT + 4] = board.hideouts
    prm[R.P_CABIN : R.P_CABIN + 6] = board.cabins
    prm[R.P_DOOR : R.P_DOOR + 6] = board.doors
    prm[R.P_KIND : R.P_KIND + R.MAX_SPACES] = -1
    prm[R.P_KIND : R.P_KIND + n] = board.kinds
    prm[R.P_QUARTER : R.P_QUARTER + R.MAX_SPACES] = -1
    prm[R.P_QUARTER : R.P_QUARTER + n] = board.quarter
    prm[R.P_OWNER : R.P_OWNER + R.MAX_SPACES] = -1
    prm[R.P_OWNER : R.P_OWNER + n] = board.owner
    prm[R.P_CABIN_OF : R.P_CABIN_OF + R.MAX_SPACES] = -1
    for c, v in enumerate(board.cabins):
        prm[R.P_CABIN_OF + v] = c
    prm[R.P_CANNON_AT : R.P_CANNON_AT + R.MAX_SPACES] = -1
    for c, (v, q) in enumerate(board.cannons):
        prm[R.P_CANNON_BEHIND + c] = v
        prm[R.P_CANNON_Q + c] = q
        prm[R.P_CANNON_AT + v] = c
    for w, (a, r, s) in enumerate(board.whirlpools):
        prm[R.P_WHIRL + w] = a
        prm[R.P_ROCK + w] = r
        prm[R.P_SHORE + w] = s
    prm[R.P_DEG : R.P_DEG + R.MAX_SPACES] = 0
    prm[R.P_ADJ : R.P_ADJ + R.MAX_SPACES * R.MAX_DEG] = -1
    prm[R.P_ADJC : R.P_ADJC + R.MAX_SPACES * R.MAX_DEG] = 0

    def add(a, b, cave):
        i = prm[R.P_DEG + a]
        prm[R.P_ADJ + a * R.MAX_DEG + i] = b
        prm[R.P_ADJC + a * R.MAX_DEG + i] = cave
        prm[R.P_DEG + a] = i + 1

    for a, b in board.edges:
        add(a, b, 0)
        add(b, a, 0)
    for a, b in board.cave_links:
        add(a, b, 1)
        add(b, a, 1)
    for _, r, s in board.whirlpools:  # the rock's way back to the shore (one way, R13)
        add(r, s, 0)

    def put(base, v):  # space v into the 128-bit set at prm[base], prm[base + 1]
        prm[base + v // 64] |= np.int64(1 << (v % 64)) if v % 64 < 63 else np.int64(-(1 << 63))

    prm[R.P_NBR : R.P_NBR + R.MAX_SPACES * 4] = 0
    prm[R.P_WMASK : R.P_SIZE] = 0  # P_WMASK and P_NEXT
    for a in range(n):
        for i in range(int(prm[R.P_DEG + a])):
            cave = prm[R.P_ADJC + a * R.MAX_DEG + i] == 1
            put(R.P_NBR + a * 4 + (2 if cave else 0), int(prm[R.P_ADJ + a * R.MAX_DEG + i]))
            if prm[R.P_ADJC + a * R.MAX_DEG + i] == 0:
                put(R.P_NEXT + a * 2, int(prm[R.P_ADJ + a * R.MAX_DEG + i]))
        k = board.kinds[a]
        if k in (B.K_CABIN, B.K_CAPTAIN, B.K_HIDEOUT):
            put(R.P_WMASK + R.W_STOP, a)
        if k in (B.K_CABIN, B.K_CAPTAIN):
            put(R.P_WMASK + R.W_ROOM, a)
        if k == B.K_CAVE:
            put(R.P_WMASK + R.W_CAVE, a)
        if k == B.K_HIDEOUT and 0 <= board.owner[a] < 4:
            put(R.P_WMASK + R.W_OWN + 2 * board.owner[a], a)
    att, dfn, win = duel_tables()
    prm[R.P_ATT_STOP : R.P_ATT_STOP + att.size] = att.ravel()
    prm[R.P_DEF_STOP : R.P_DEF_STOP + dfn.size] = dfn.ravel()
    prm[R.P_DUEL_WIN : R.P_DUEL_WIN + 9] = np.round(win * 1e6).astype(np.int64).ravel()
    d = np.full((R.MAX_SPACES, R.MAX_SPACES), B.FAR, dtype=np.int64)
    d[:n, :n] = board.distances()
    prm[R.P_DIST : R.P_DIST + d.size] = d.ravel()
