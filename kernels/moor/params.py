"""Ghosts of the Moor: parameters, packed into one int64 vector ``prm`` for the kernel.

Each parameter has one spec (default, type, domain, help, source); `pack` turns validated values into ``prm``.
Layout offsets (``P_*``) are the only place parameter positions are defined.
"""

from __future__ import annotations

import numpy as np

from kernels.moor.rules import (
    DEALT_SPACES,
    MAX_TRACK,
    N_GHOSTS,
    N_GOALS,
    N_TYPES,
    P_DIE_FACES,
    P_DISCARD_FALLBACK,
    P_GHOST_BEFORE_TWO,
    P_GHOST_VALUES,
    P_GOAL_VALUES,
    P_MAX_TURNS,
    P_PLANKS_DISCARDABLE,
    P_SET_POINTS,
    P_SIZE,
    P_SYMBOLS,
    P_TIEBREAK,
    P_TRACK_LEN,
    P_VACATED_COUNTS,
    TREASURE_NAMES,
)

# (name, kind, default, domain, help). kind: int | bool | choice | int_list. Domains are checked by sim.model.scenario.
PARAM_SPECS = (
    (
        "track_len",
        "int",
        30,
        (DEALT_SPACES, MAX_TRACK - 2),
        "ASSUMPTION: path spaces between Start and End (one review: 'about 30'); must hold the 19 dealt spaces",
    ),
    ("die_faces", "int", 6, (2, 20), "faces of the movement die (rulebook: a d6)"),
    ("max_turns", "int", 1000, (10, 100000), "turn cap; a capped game is reported as truncated"),
    (
        "space_symbols",
        "int_list",
        [],
        (0, N_TYPES - 1),
        "ASSUMPTION: symbol of path spaces 1..track_len (0=Bone 1=Axe 2=Coin 3=Mask 4=Urn); [] = cycle Bone..Urn",
    ),
    (
        "ghost_values",
        "int_list",
        [1, 2, 3, 4, 5, 6, 7],
        (0, 99),
        "ASSUMPTION: values of the 7 ghost tiles (rulebook shows a 4; a '2' ghost is reported)",
    ),
    ("goal_values", "int_list", [5, 4, 3, 2, 1], (0, 99), "ASSUMPTION: the 5 goal tokens, top of the stack first"),
    ("set_points", "int_list", [1, 3, 6, 10, 15], (0, 999), "points for 1..5 matching treasures (rulebook)"),
    (
        "discard_fallback",
        "choice",
        "remove",
        ("remove", "ignore_pawns"),
        "AMBIGUITY: no empty space without pawns: tiles leave the game, or go to the nearest tile-less space",
    ),
    (
        "ghost_before_two",
        "bool",
        False,
        None,
        "AMBIGUITY: without a match, must a held ghost be given before two other tiles (review) or free choice (rulebook)",
    ),
    ("planks_discardable", "bool", True, None, "AMBIGUITY: may a plank be one of the 'any 2 other tiles'"),
    (
        "vacated_origin_counts",
        "bool",
        True,
        None,
        "AMBIGUITY: may the space just left be the discard target (it is empty once the pawn has moved)",
    ),
    (
        "tiebreak",
        "choice",
        "rulebook",
        ("rulebook", "shared"),
        "rulebook: most planks, then latest in turn order; shared: tied players share the win (variant)",
    ),
)

# Named forms of the list parameters (see sim.model.registry.ParamSpec): space symbols may be given by treasure name.
LABELS = {"space_symbols": tuple(n.lower() for n in TREASURE_NAMES)}

LIST_LENGTHS = {"ghost_values": N_GHOSTS, "goal_values": N_GOALS, "set_points": 5}


def pack(values: dict) -> np.ndarray:
    """Validated parameter dict -> int64[P_SIZE] vector read by the kernel. Lengths are checked by the caller."""
    prm = np.zeros(P_SIZE, dtype=np.int64)
    tl = int(values["track_len"])
    prm[P_TRACK_LEN] = tl
    prm[P_DIE_FACES] = int(values["die_faces"])
    prm[P_MAX_TURNS] = int(values["max_turns"])
    prm[P_DISCARD_FALLBACK] = ("remove", "ignore_pawns").index(values["discard_fallback"])
    prm[P_GHOST_BEFORE_TWO] = int(bool(values["ghost_before_two"]))
    prm[P_PLANKS_DISCARDABLE] = int(bool(values["planks_discardable"]))
    prm[P_VACATED_COUNTS] = int(bool(values["vacated_origin_counts"]))
    prm[P_TIEBREAK] = ("rulebook", "shared").index(values["tiebreak"])
    prm[P_GHOST_VALUES : P_GHOST_VALUES + N_GHOSTS] = values["ghost_values"]
    prm[P_GOAL_VALUES : P_GOAL_VALUES + N_GOALS] = values["goal_values"]
    prm[P_SET_POINTS] = 0
    prm[P_SET_POINTS + 1 : P_SET_POINTS + 6] = values["set_points"]
    syms = list(values["space_symbols"]) or [(s - 1) % N_TYPES for s in range(1, tl + 1)]
    prm[P_SYMBOLS + 1 : P_SYMBOLS + 1 + tl] = syms
    prm[P_SYMBOLS] = -1  # Start has no symbol
    prm[P_SYMBOLS + tl + 1 :] = -1  # nor End (and the unused capacity)
    return prm


def check(values: dict) -> str | None:
    """Cross-parameter checks; returns one error line or None."""
    for name, n in LIST_LENGTHS.items():
        if len(values[name]) != n:
            return f"params.{name}: needs exactly {n} integers, got {len(values[name])}"
    syms = values["space_symbols"]
    if syms and len(syms) != values["track_len"]:
        return (
            f"params.space_symbols: needs track_len={values['track_len']} entries "
            f"(0..4 = {', '.join(TREASURE_NAMES)}) or [] for the default cycle, got {len(syms)}"
        )
    return None
