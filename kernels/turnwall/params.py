"""The Ghosts of Castle Turnwall: parameters, packed with the compiled board into one int64 vector ``prm``.

Each parameter has one spec (name, kind, default, domain, help); `check` validates what specs cannot (the board
file: a bad one is one error line); `pack` builds ``prm`` (offsets P_* live in rules.py).
"""

from __future__ import annotations

import numpy as np

from kernels.turnwall import board as B
from kernels.turnwall.rules import (
    P_COLLISION,
    P_CORNER,
    P_DECK_VIEW,
    P_DECKS_MOVED,
    P_DECKS_TRACKED,
    P_GARMENT_AT,
    P_GARMENT_CELL,
    P_GRIP,
    P_MAX_OUT,
    P_MAX_TURNS,
    P_MOVES,
    P_MUST_MOVE,
    P_OFF_BOARD,
    P_ROOM,
    P_SIZE,
    P_SL_TUNNEL,
    P_TUN_COL,
    P_TUN_OF_COL,
    P_TURN_PHYSICS,
    P_WALLS,
    pack_sweep,
)

COLLISIONS = ("turning_ghost_displaced", "held_ghost_displaced")
OFF_BOARD = ("illegal", "ghost_stops")
POLARITY = ("every_magnet_grips", "opposite_poles_grip")
DECK_VIEWS = ("nothing", "size", "size_and_top_back")
TURN_PHYSICS = ("sweep", "end_cell", "sweep_pass_through")  # index = P_TURN_PHYSICS

# (name, kind, default, domain, help). kind: int | bool | choice | int_list | str. Domains are checked by sim.model.scenario.
PARAM_SPECS = (
    (
        "board",
        "str",
        "default",
        None,
        "board file: a path relative to the scenario file's folder, else a name in scenarios/turnwall/boards/ "
        "(default = the UNVERIFIED candidate castle)",
    ),
    ("max_turns", "int", 600, (10, 100000), "turn cap; a capped game is reported as truncated"),
    ("moves_per_turn", "int", 3, (1, 6), "magical moves a turn (rulebook: up to 3)"),
    (
        "must_use_all_moves",
        "bool",
        True,
        None,
        "AMBIGUITY C1: a ghost not on a needed garment must use all its moves (the rulebook's 'Carrying out fewer "
        "than 3 moves', default); false: up to 3, stop any time (version <= 2)",
    ),
    (
        "slider_off_board",
        "choice",
        "illegal",
        OFF_BOARD,
        "AMBIGUITY C2: a slider move that would put a ghost off the board is illegal, or that ghost stops at the edge",
    ),
    (
        "turn_collision",
        "choice",
        "turning_ghost_displaced",
        COLLISIONS,
        "ASSUMPTION C6: when a turning ghost meets a held one, which of them is displaced to a free neighbouring cell",
    ),
    (
        "turn_physics",
        "choice",
        "sweep",
        TURN_PHYSICS,
        "ASSUMPTION C12: a board turn sweeps each riding ghost along its arc, stopping it where it touches a ghost "
        "standing still (held, or stopped before it); no ghost passes through another, a ghost on no space after the "
        "turn goes on an empty corner (default, version 4); sweep_pass_through: stopped riders and held corner ghosts "
        "let later riders pass, held corner ghosts leave the board (C13, version 3); end_cell: collisions only where "
        "a ghost ends (C6, version <= 2)",
    ),
    (
        "ghost_width_pct",
        "int",
        100,
        (30, 100),
        "ASSUMPTION C12: a ghost's width in percent of a space (the sweep: two ghosts touch when their centres are "
        "that close; no source gives it)",
    ),
    (
        "magnet_polarity",
        "choice",
        "every_magnet_grips",
        POLARITY,
        "ASSUMPTION C10: every magnet grips every ghost, or only magnets of the pole opposite the ghost's",
    ),
    (
        "ghost_poles",
        "int_list",
        [0, 1, 0, 1],
        (0, 1),
        "pole of each ghost's foot magnet (green, red, yellow, blue), used with magnet_polarity = opposite_poles_grip",
    ),
    (
        "decks_moved",
        "bool",
        False,
        None,
        "VARIANT C11: after a search the searched deck changes places with another deck",
    ),
    (
        "decks_moved_seen",
        "bool",
        True,
        None,
        "C11: every player sees where a moved deck goes (false: only the searcher follows it, the others forget both "
        "decks, version <= 2)",
    ),
    (
        "deck_view",
        "choice",
        "size_and_top_back",
        DECK_VIEWS,
        "M1: what everyone sees of a face-down deck: its size and its top card's back (default), its size, or "
        "nothing (version <= 2)",
    ),
)


def check(values: dict, players: int, given: frozenset = frozenset()) -> str | None:
    """Cross-parameter checks; returns one error line or None. Loads the board file (a bad one is one line)."""
    if values["turn_physics"] != "end_cell" and values["turn_collision"] != COLLISIONS[0]:
        return (
            "params.turn_collision: held_ghost_displaced needs turn_physics = end_cell (in the sweep a held "
            "ghost always stands still)"
        )
    if len(values["ghost_poles"]) != 4:
        return f"params.ghost_poles: needs exactly 4 values (0 or 1), got {len(values['ghost_poles'])}"
    try:
        B.load_board(values["board"])
    except B.BoardError as e:
        return f"params.board: {e}"
    return None


def pack(values: dict, players: int) -> np.ndarray:
    """Validated parameter dict (+ players) -> int64[P_SIZE] vector read by the kernel (board compiled in)."""
    board = B.load_board(values["board"])
    prm = np.zeros(P_SIZE, dtype=np.int64)
    prm[P_MAX_TURNS] = int(values["max_turns"])
    prm[P_MOVES] = int(values["moves_per_turn"])
    prm[P_MAX_OUT] = board.max_out
    prm[P_COLLISION] = COLLISIONS.index(values["turn_collision"])
    prm[P_OFF_BOARD] = OFF_BOARD.index(values["slider_off_board"])
    prm[P_MUST_MOVE] = int(bool(values["must_use_all_moves"]))
    prm[P_DECKS_MOVED] = int(bool(values["decks_moved"]))
    prm[P_DECKS_TRACKED] = int(bool(values["decks_moved_seen"]))
    prm[P_DECK_VIEW] = DECK_VIEWS.index(values["deck_view"])
    prm[P_TURN_PHYSICS] = TURN_PHYSICS.index(values["turn_physics"])
    pack_board(prm, board, values["ghost_poles"], values["magnet_polarity"] == POLARITY[1])
    pack_sweep(prm, values["ghost_width_pct"] / 100)
    return prm


def pack_board(prm: np.ndarray, board: B.Board, ghost_poles=(0, 1, 0, 1), polarity: bool = False) -> None:
    """Write the board's arrays into ``prm`` (tests build positions on other boards with it)."""
    prm[P_TUN_COL : P_TUN_COL + B.N_TUNNELS] = board.tunnels
    prm[P_TUN_OF_COL : P_TUN_OF_COL + B.SIZE] = -1
    for t, c in enumerate(board.tunnels):
        prm[P_TUN_OF_COL + c] = t
    prm[P_SL_TUNNEL : P_SL_TUNNEL + B.N_SLIDERS] = board.slider_tunnels
    prm[P_GRIP : P_GRIP + B.N_SLIDERS * 4] = B.grip_masks(board, ghost_poles, polarity).ravel()
    prm[P_WALLS : P_WALLS + B.N_CELLS] = board.walls
    prm[P_GARMENT_AT : P_GARMENT_AT + B.N_CELLS] = -1
    for gm, c in enumerate(board.garment_cells):
        prm[P_GARMENT_AT + c] = gm
        prm[P_GARMENT_CELL + gm] = c
    prm[P_CORNER : P_CORNER + 4] = board.corners
    prm[P_ROOM : P_ROOM + B.N_CELLS] = board.room_of
    prm[P_MAX_OUT] = board.max_out
    pack_sweep(prm)  # C12 at the default ghost width (pack then sets the chosen)
