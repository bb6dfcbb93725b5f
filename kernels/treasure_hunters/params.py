"""Ghost Fightin' Treasure Hunters: parameters, packed with the compiled board into one int64 vector ``prm``.

Each parameter has one spec (name, kind, default, domain, help); `check` does the cross-field checks (and loads the
board file, so a broken board is one error line); `pack` turns validated values into ``prm``. Layout offsets
(``P_*``) live in rules.py, the only place parameter positions are defined.
"""

from __future__ import annotations

import numpy as np

from kernels.treasure_hunters import board as B
from kernels.treasure_hunters.rules import (
    CT_ADD1,
    CT_ADD2,
    CT_DOOR_BLUE,
    CT_DOOR_GREEN,
    CT_DRAW2,
    CT_DRAW3,
    CT_GROUP,
    CT_HROOM,
    CT_MOVE,
    CT_ROOM,
    CT_SHUFFLE,
    CT_SPOOK,
    HUNTERS_COOP,
    HUNTERS_HH,
    MAX_CARDS,
    MAX_DEG,
    MAX_FACES,
    MAX_NODES,
    MODES,
    N_ROOMS,
    P_ADJ,
    P_ADJC,
    P_CARD_TYPE,
    P_CARD_X,
    P_CARRIER_PASS,
    P_DIST,
    P_FIGHT_FACES,
    P_FIGHT_OPTIONAL,
    P_GROUP_DISTINCT,
    P_HALL,
    P_HAND_SIZE,
    P_HAUNTINGS,
    P_HELPER_REROLL,
    P_JEWEL_ROOMS,
    P_MAX_TURNS,
    P_MODE,
    P_MOVE_FACES,
    P_MOVE_GHOST,
    P_MOVE_WRAP,
    P_N_CARDS,
    P_N_FIGHT_FACES,
    P_N_HUNTERS,
    P_N_MOVE_FACES,
    P_N_NODES,
    P_N_START,
    P_NBR,
    P_NESTED_COUNTS,
    P_NODE_KIND,
    P_PICKUP_CLEAR,
    P_PICKUP_HAUNTED,
    P_PICKUP_STAYING,
    P_REROLL,
    P_REVEAL_ON_ENTER,
    P_ROOM_DOORCOL,
    P_SIZE,
    P_SPOOK_RANGE,
    P_START_ROOMS,
    P_STAY_FIGHTS,
    P_WAIT_OUTSIDE,
)

# Names of the positions of the card-mix parameters (a scenario may give them as tables by name), after the
# rulebook's card names, with what each counts.
GHOST_CARD_FIELDS = (
    ("each_room", "each room card A..L (one copy is 12 cards)"),
    ("shuffle", "Shuffle"),
    ("draw_2_shuffle", "Draw 2 + Shuffle"),
    ("draw_3_shuffle", "Draw 3 + Shuffle"),
    ("blue_door", "blue Door"),
    ("green_door", "green Door"),
)
HH_CARD_FIELDS = (
    ("each_room", "each black room card A..L (one copy is 12 cards)"),
    ("abcd", "A/B/C/D group card"),
    ("efgh", "E/F/G/H group card"),
    ("ijkl", "I/J/K/L group card"),
    ("add_1_ghost", "Add 1 Ghost"),
    ("add_2_ghosts", "Add 2 Ghosts"),
    ("spook", "Spook"),
    ("move_ghost_1", "Move Ghost 1"),
    ("move_ghost_2", "Move Ghost 2"),
    ("move_ghost_3", "Move Ghost 3"),
)
GHOST_CARD_KINDS = tuple(h for _, h in GHOST_CARD_FIELDS)
HH_CARD_KINDS = tuple(h for _, h in HH_CARD_FIELDS)
FIGHT_FACES = ("blank", "ghost", "haunting")  # fight_die item values 0, 1, 2 by name

# Named forms of the list parameters (see sim.model.registry.ParamSpec): fields name a card mix's positions, labels name
# item values, parts make one table of several parameters.
FIELDS = {"ghost_cards": GHOST_CARD_FIELDS, "hh_cards": HH_CARD_FIELDS, "hh_single_use": HH_CARD_FIELDS}
LABELS = {"fight_die": FIGHT_FACES}
PARTS = {"move_die": (("faces", "move_die"), ("ghost", "move_die_ghost"))}

# (name, kind, default, domain, help). kind: int | bool | choice | int_list | str. Domains are checked by sim.model.scenario.
PARAM_SPECS = (
    (
        "mode",
        "choice",
        "basic",
        MODES,
        "way to play: basic, advanced (door cards, Draw+Shuffle, numbered jewels) or head_haunter (seat 0 plays the "
        "ghosts against the hunters)",
    ),
    (
        "board",
        "str",
        "default",
        None,
        "board file: a path relative to the scenario file's folder, else a name in "
        "scenarios/treasure_hunters/boards/ (default = the UNVERIFIED candidate house)",
    ),
    ("max_turns", "int", 1000, (10, 100000), "turn cap in hunter turns; a capped game is reported as truncated"),
    ("move_die", "int_list", [1, 2, 3, 4, 5, 6], (0, 20), "movement die: spaces shown on each face (rulebook: 1-6)"),
    (
        "move_die_ghost",
        "int_list",
        [1, 1, 1, 1, 1, 0],
        (0, 1),
        "movement die: 1 where the face also shows the ghost icon (sources: faces 1-5 do, the 6 does not)",
    ),
    (
        "fight_die",
        "int_list",
        [1, 1, 1, 2, 2, 0],
        (0, 2),
        "fight die faces: 0 blank, 1 ghost, 2 haunting (sources: 3 ghost, 2 haunting, 1 blank)",
    ),
    (
        "ghost_cards",
        "int_list",
        [1, 1, 1, 1, 2, 2],
        (0, 8),
        "green ghost deck, copies of: each room card A..L, Shuffle, Draw 2 + Shuffle, Draw 3 + Shuffle, blue Door, "
        "green Door (rulebook: 12 + 1 + 1 + 1 + 2 + 2 = 19; the basic game uses only the room cards and Shuffle)",
    ),
    (
        "hh_cards",
        "int_list",
        [1, 1, 1, 1, 2, 1, 3, 4, 4, 4],
        (0, 12),
        "ASSUMPTION (invented, no source): black Head Haunter cards, copies of: each room card A..L, A/B/C/D, E/F/G/H, "
        "I/J/K/L, Add 1, Add 2, Spook, Move Ghost 1, 2, 3 (rulebook totals: 18 room cards, 3 Spook, 12 Move Ghost)",
    ),
    (
        "hh_single_use",
        "int_list",
        [0, 0, 0, 0, 1, 1, 1, 0, 0, 0],
        (0, 1),
        "ASSUMPTION: 1 where the black card kind (same order as hh_cards) carries the single-use X mark",
    ),
    ("hand_size", "int", 3, (1, 5), "Head Haunter hand size (rulebook: 3)"),
    ("hauntings", "int", 6, (1, 11), "haunting pieces; the hunters lose when all are on the board (rulebook: 6)"),
    ("reroll_cards", "bool", True, None, "Head Haunter game: each hunter has one single-use reroll card (rulebook)"),
    ("spook_range", "int", 3, (0, 10), "Spook card: spaces the Head Haunter moves the hunter, at most (rulebook: 3)"),
    (
        "fight_optional",
        "bool",
        False,
        None,
        "EDITION: fighting the ghosts where you end is optional (Mattel-era reading); the Anniversary rulebook: must",
    ),
    (
        "nested_draw_counts",
        "bool",
        True,
        None,
        "EDITION: a shuffle-type card drawn during Draw 2/3 counts as one of the cards without acting (rulebook); "
        "false: it is skipped and another card drawn (Mattel-era reading)",
    ),
    (
        "reveal_jewel_on_enter",
        "bool",
        False,
        None,
        "EDITION: advanced jewels are turned face up when a hunter enters or passes the room (Mattel-era reading); "
        "rulebook: when it ends its move there",
    ),
    (
        "carrier_may_pass_haunted",
        "bool",
        False,
        None,
        "AMBIGUITY: a hunter carrying a jewel may pass through a haunted room (default: entering one ends its move, "
        "and it is stuck)",
    ),
    (
        "pickup_requires_clear_room",
        "bool",
        False,
        None,
        "AMBIGUITY: a jewel may be picked up only in a room without ghosts (one review); rulebook: ghosts do not block",
    ),
    (
        "fight_when_staying",
        "bool",
        True,
        None,
        "AMBIGUITY: a hunter that does not move ends its move where it stands, so it fights ghosts (and may unhaunt) "
        "there",
    ),
    (
        "move_ghost_wraps",
        "bool",
        False,
        None,
        "AMBIGUITY: Move Ghost past A or L wraps round (default: that direction is not allowed)",
    ),
    (
        "carrier_may_wait_outside",
        "bool",
        False,
        None,
        "AMBIGUITY: advanced game: a hunter carrying a jewel that is not the next number may go outside, keep it and "
        "drop it off once it is next (earlier versions); rulebook: such a jewel may not leave the house",
    ),
    (
        "pickup_in_haunted_room",
        "bool",
        True,
        None,
        "AMBIGUITY: a jewel may be picked up in a haunted room (the hunter is then stuck there; the rulebook does not "
        "forbid it); false: jewels in a haunted room cannot be picked up",
    ),
    (
        "pickup_when_staying",
        "bool",
        True,
        None,
        "AMBIGUITY: a hunter that does not move may pick up a jewel where it stands (also with fight_when_staying = "
        "false); false: only a hunter that moved there may",
    ),
    (
        "group_ghosts_distinct",
        "bool",
        False,
        None,
        "AMBIGUITY: Head Haunter letter-group card: the second ghost moves on past the room the first one landed in, so "
        "the two always end in different rooms; default: each ghost overflows on its own (both may end in one room)",
    ),
    (
        "helper_decides_reroll",
        "bool",
        False,
        None,
        "AMBIGUITY: Head Haunter game: the helping hunter's player decides whether to reroll the helper's fight die "
        "with its own reroll card; default: the active hunter's player decides for both dice",
    ),
)

LIST_LENGTHS = {
    "ghost_cards": len(GHOST_CARD_KINDS),
    "hh_cards": len(HH_CARD_KINDS),
    "hh_single_use": len(HH_CARD_KINDS),
}


def n_hunters(mode: str, players: int) -> int:
    """Hunters in play: co-op 2-4 players -> 4, 3, 4 (two each with 2 players); Head Haunter 2-5 -> 4, 4, 3, 4."""
    table = HUNTERS_HH if mode == "head_haunter" else HUNTERS_COOP
    return table[players] if 0 <= players < len(table) else 0


def build_deck(values: dict) -> list[tuple[int, int]]:
    """The cards of this mode as (card type, single-use flag), in canonical order (green deck, then black)."""
    mode = values["mode"]
    g = values["ghost_cards"]
    deck: list[tuple[int, int]] = []
    for r in range(N_ROOMS):
        deck += [(CT_ROOM + r, 0)] * g[0]
    deck += [(CT_SHUFFLE, 0)] * g[1]
    if mode != "basic":
        deck += [(CT_DRAW2, 0)] * g[2] + [(CT_DRAW3, 0)] * g[3]
        deck += [(CT_DOOR_BLUE, 0)] * g[4] + [(CT_DOOR_GREEN, 0)] * g[5]
    if mode == "head_haunter":
        b = values["hh_cards"]
        x = values["hh_single_use"]
        for r in range(N_ROOMS):
            deck += [(CT_HROOM + r, x[0])] * b[0]
        for k in range(3):
            deck += [(CT_GROUP + k, x[1 + k])] * b[1 + k]
        deck += [(CT_ADD1, x[4])] * b[4] + [(CT_ADD2, x[5])] * b[5] + [(CT_SPOOK, x[6])] * b[6]
        for k in range(3):
            deck += [(CT_MOVE + k, x[7 + k])] * b[7 + k]
    return deck


def check(values: dict, players: int, given: frozenset = frozenset()) -> str | None:
    """Cross-parameter checks; returns one error line or None. Loads the board file (a bad one is one line).
    ``given``: the parameters the scenario set, so an error names the one the designer changed."""
    mode = values["mode"]
    lo, hi = (2, 5) if mode == "head_haunter" else (2, 4)
    if not lo <= players <= hi:
        return f"scenario.players: {players} players cannot play mode {mode}; allowed {lo}..{hi}"
    for name, n in LIST_LENGTHS.items():
        if len(values[name]) != n:
            return f"params.{name}: needs exactly {n} integers, got {len(values[name])}"
    md, mg, fd = values["move_die"], values["move_die_ghost"], values["fight_die"]
    if not 1 <= len(md) <= MAX_FACES:
        return f"params.move_die: needs 1..{MAX_FACES} faces, got {len(md)}"
    if len(mg) != len(md) and "move_die" in given and "move_die_ghost" not in given:
        return (
            f"params.move_die: {len(md)} faces, but move_die_ghost (not set, so its default "
            f"{mg}) has {len(mg)} flags; move_die_ghost needs one 0/1 flag per move_die face "
            f"(1 = that face also shows the ghost icon): set move_die_ghost too, with {len(md)} flags"
        )
    if len(mg) != len(md):
        return (
            f"params.move_die_ghost: needs one flag per move_die face ({len(md)}), got {len(mg)}; each flag is 0 "
            f"or 1 (1 = that move_die face also shows the ghost icon), so the two arrays have the same length"
        )
    if not 1 <= len(fd) <= MAX_FACES:
        return f"params.fight_die: needs 1..{MAX_FACES} faces, got {len(fd)}"
    deck = build_deck(values)
    if not 1 <= len(deck) <= MAX_CARDS:
        return f"params.ghost_cards: the {mode} deck has {len(deck)} cards; allowed 1..{MAX_CARDS}"
    if mode == "head_haunter" and len(deck) <= values["hand_size"]:
        return f"params.hh_cards: the deck ({len(deck)} cards) must be larger than the hand ({values['hand_size']})"
    try:
        B.load_board(values["board"])
    except B.BoardError as e:
        return f"params.board: {e}"
    return None


def pack(values: dict, players: int) -> np.ndarray:
    """Validated parameter dict (+ players) -> int64[P_SIZE] vector read by the kernel (board compiled in)."""
    board = B.load_board(values["board"])
    cb = B.compile_board(board)
    prm = np.zeros(P_SIZE, dtype=np.int64)
    mode = values["mode"]
    prm[P_MODE] = MODES.index(mode)
    prm[P_MAX_TURNS] = int(values["max_turns"])
    prm[P_N_HUNTERS] = n_hunters(mode, players)
    prm[P_N_NODES] = cb["n_nodes"]
    prm[P_FIGHT_OPTIONAL] = int(bool(values["fight_optional"]))
    prm[P_NESTED_COUNTS] = int(bool(values["nested_draw_counts"]))
    prm[P_REVEAL_ON_ENTER] = int(bool(values["reveal_jewel_on_enter"]))
    prm[P_CARRIER_PASS] = int(bool(values["carrier_may_pass_haunted"]))
    prm[P_PICKUP_CLEAR] = int(bool(values["pickup_requires_clear_room"]))
    prm[P_STAY_FIGHTS] = int(bool(values["fight_when_staying"]))
    prm[P_WAIT_OUTSIDE] = int(bool(values["carrier_may_wait_outside"]))
    prm[P_PICKUP_HAUNTED] = int(bool(values["pickup_in_haunted_room"]))
    prm[P_PICKUP_STAYING] = int(bool(values["pickup_when_staying"]))
    prm[P_GROUP_DISTINCT] = int(bool(values["group_ghosts_distinct"]))
    prm[P_HELPER_REROLL] = int(bool(values["helper_decides_reroll"]))
    prm[P_REROLL] = int(bool(values["reroll_cards"]))
    prm[P_SPOOK_RANGE] = int(values["spook_range"])
    prm[P_MOVE_WRAP] = int(bool(values["move_ghost_wraps"]))
    prm[P_HAND_SIZE] = int(values["hand_size"])
    prm[P_HAUNTINGS] = int(values["hauntings"])
    md = list(values["move_die"])
    prm[P_N_MOVE_FACES] = len(md)
    prm[P_MOVE_FACES : P_MOVE_FACES + len(md)] = md
    prm[P_MOVE_GHOST : P_MOVE_GHOST + len(md)] = list(values["move_die_ghost"])
    fd = list(values["fight_die"])
    prm[P_N_FIGHT_FACES] = len(fd)
    prm[P_FIGHT_FACES : P_FIGHT_FACES + len(fd)] = fd
    prm[P_JEWEL_ROOMS : P_JEWEL_ROOMS + 8] = board.jewel_rooms
    prm[P_N_START] = len(board.ghost_start_rooms)
    prm[P_START_ROOMS : P_START_ROOMS + len(board.ghost_start_rooms)] = board.ghost_start_rooms
    deck = build_deck(values)
    prm[P_N_CARDS] = len(deck)
    for i, (ct, x) in enumerate(deck):
        prm[P_CARD_TYPE + i] = ct
        prm[P_CARD_X + i] = x
    prm[P_NODE_KIND : P_NODE_KIND + MAX_NODES] = cb["node_kind"]
    prm[P_ADJ : P_ADJ + MAX_NODES * MAX_DEG] = cb["adj"].ravel()
    prm[P_ADJC : P_ADJC + MAX_NODES * MAX_DEG] = cb["adj_col"].ravel()
    prm[P_ROOM_DOORCOL : P_ROOM_DOORCOL + N_ROOMS * 3] = cb["room_doorcol"].ravel()
    prm[P_DIST : P_DIST + 3 * MAX_NODES * MAX_NODES] = cb["dist"].ravel()
    prm[P_NBR : P_NBR + 3 * MAX_NODES] = cb["nbr"].ravel()
    prm[P_HALL] = cb["hall"][0]
    return prm


def defaults() -> dict:
    return {p[0]: (list(p[2]) if isinstance(p[2], list) else p[2]) for p in PARAM_SPECS}
