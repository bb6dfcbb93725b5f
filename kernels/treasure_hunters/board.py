"""The house as data: load, validate and compile a board file (plain Python, no Numba).

A board file is TOML with one ``[board]`` table (see scenarios/treasure_hunters/boards/default.toml):

    name, description         free text
    rooms                     the room letters; exactly the 12 letters A..L, each once (order free)
    jewel_rooms               the 8 rooms that start with a Treasure Jewel (red letter background)
    ghost_start_rooms         rooms that start with one ghost
    hallway                   names of the hallway squares (unique, not a room letter, not "outside")
    front_door                the node (hallway square or room) linked to outside through the front door
    corridors                 [[a, b], ...] uncoloured links between two hallway squares
    doors                     [{ between = [a, b], colour = "none" | "blue" | "green" }, ...], at least one end a room

`load_board` raises `BoardError` (a ValueError) with ONE line naming the file and the field. `compile_board` turns a
validated board into the fixed-shape integer arrays the kernel reads (node kinds, adjacency with door colours,
which colours each room has a door of, and all-pairs shortest distances with no colour / blue / green locked).

Node numbering (fixed, so rules.py can name rooms): 0 = outside, 1 + r = room r (A = 0 .. L = 11), then the hallway
squares in the order of the ``hallway`` list.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kernels import boardfile
from kernels.boardfile import BoardError, board_table, err, is_int, texts, unknown  # noqa: F401  (BoardError: this loader's error)

ROOM_LETTERS = tuple("ABCDEFGHIJKL")
N_ROOMS = 12
N_JEWELS = 8
MAX_NODES = 64
MAX_HALL = MAX_NODES - 1 - N_ROOMS
MAX_DEG = 8
COLOURS = ("none", "blue", "green")
UNREACHABLE = 999
BOARD_KEYS = (
    "name",
    "description",
    "rooms",
    "jewel_rooms",
    "ghost_start_rooms",
    "hallway",
    "front_door",
    "corridors",
    "doors",
)
DOOR_KEYS = ("between", "colour")
BOARDS_DIR = Path(__file__).resolve().parents[2] / "scenarios" / "treasure_hunters" / "boards"


@dataclass(frozen=True)
class Board:
    """A validated board. Edges are (node a, node b, colour code) with node numbers as in the module docstring."""

    path: str
    name: str
    description: str
    hallway: tuple[str, ...]
    front_door: int
    jewel_rooms: tuple[int, ...]  # room indices 0..11
    ghost_start_rooms: tuple[int, ...]  # room indices 0..11
    edges: tuple[tuple[int, int, int], ...]

    @property
    def n_nodes(self) -> int:
        return 1 + N_ROOMS + len(self.hallway)

    def node_name(self, v: int) -> str:
        return node_name(v, self.hallway)


def node_name(v: int, hallway) -> str:
    """Readable name of node ``v``: 'outside', 'room C', or the hallway square's name."""
    if v == 0:
        return "outside"
    if 1 <= v <= N_ROOMS:
        return f"room {ROOM_LETTERS[v - 1]}"
    return str(hallway[v - 1 - N_ROOMS])


def resolve_path(ref: str) -> Path:
    """The board file named by ``ref`` (kernels.boardfile.resolve_path with this game's boards folder)."""
    return boardfile.resolve_path(ref, BOARDS_DIR)


def _str_list(path, b: dict, key: str, required: bool = True) -> list[str]:
    if key not in b:
        if required:
            raise err(path, f"board.{key}", "missing")
        return []
    v = b[key]
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise err(path, f"board.{key}", "expected an array of strings")
    return v


def _rooms(path, b: dict) -> None:
    """``board.rooms``: the 12 room letters A..L, each once."""
    rooms = _str_list(path, b, "rooms")
    seen = set()
    for i, r in enumerate(rooms):
        if r not in ROOM_LETTERS:
            raise err(path, f"board.rooms[{i}]", f"'{r}' is not a room letter; allowed: A..L")
        if r in seen:
            raise err(path, f"board.rooms[{i}]", f"letter '{r}' appears twice; room letters must be unique")
        seen.add(r)
    missing = [x for x in ROOM_LETTERS if x not in seen]
    if missing:
        raise err(
            path,
            "board.rooms",
            f"missing room{'s' if len(missing) != 1 else ''} {', '.join(missing)}; the house has the 12 rooms A..L",
        )


def _hallway(path, b: dict) -> tuple[list[str], dict[str, int]]:
    """(the hallway squares, every node's number by name: outside 0, rooms 1..12, then the squares)."""
    hallway = _str_list(path, b, "hallway")
    if len(hallway) > MAX_HALL:
        raise err(path, "board.hallway", f"{len(hallway)} squares; at most {MAX_HALL}")
    names: dict[str, int] = {"outside": 0}
    for r in range(N_ROOMS):
        names[ROOM_LETTERS[r]] = 1 + r
    for i, h in enumerate(hallway):
        if not h or h in names:
            what = (
                "is empty"
                if not h
                else (
                    f"'{h}' clashes with a room letter or 'outside'"
                    if h in ROOM_LETTERS or h == "outside"
                    else f"'{h}' appears twice"
                )
            )
            raise err(path, f"board.hallway[{i}]", f"{what}; hallway names must be unique")
        names[h] = 1 + N_ROOMS + i
    return hallway, names


def _room_list(path, b: dict, key: str, exact: int | None) -> tuple[int, ...]:
    lst = _str_list(path, b, key)
    out: list[int] = []
    for i, r in enumerate(lst):
        if r not in ROOM_LETTERS:
            raise err(path, f"board.{key}[{i}]", f"'{r}' is not a room; allowed: A..L")
        if ROOM_LETTERS.index(r) in out:
            raise err(path, f"board.{key}[{i}]", f"room '{r}' appears twice")
        out.append(ROOM_LETTERS.index(r))
    if exact is not None and len(out) != exact:
        raise err(path, f"board.{key}", f"needs exactly {exact} rooms (one per jewel), got {len(out)}")
    return tuple(out)


def _front_door(path, b: dict, names: dict[str, int]) -> int:
    if "front_door" not in b:
        raise err(path, "board.front_door", "missing; name the hallway square (or room) behind the front door")
    fd = b["front_door"]
    if not isinstance(fd, str) or fd not in names or fd == "outside":
        raise err(path, "board.front_door", f"{fd!r} is not a hallway square or room of this board")
    return names[fd]


class _Links:
    """The links read so far, (a, c, colour) each, the front door's first; each pair of nodes once."""

    def __init__(self, path, front: int):
        self.path = path
        self.edges: list[tuple[int, int, int]] = [(0, front, 0)]
        self.pairs = {(0, front)}

    def add(self, field: str, a: int, c: int, col: int) -> None:
        if a == c:
            raise err(self.path, field, "links a node to itself")
        key = (min(a, c), max(a, c))
        if key in self.pairs:
            raise err(self.path, field, "duplicate link")
        self.pairs.add(key)
        self.edges.append((a, c, col))


def _corridors(path, b: dict, names: dict[str, int], links: _Links) -> None:
    cors = b.get("corridors", [])
    if not isinstance(cors, list):
        raise err(path, "board.corridors", "expected an array of [square, square] pairs")
    for i, e in enumerate(cors):
        f = f"board.corridors[{i}]"
        if not isinstance(e, list) or len(e) != 2 or not all(isinstance(x, str) for x in e):
            raise err(path, f, "expected a pair of hallway square names")
        for x in e:
            if x not in names or names[x] <= N_ROOMS:
                raise err(
                    path, f, f"'{x}' is not a hallway square (corridors link hallway squares; use doors for rooms)"
                )
        links.add(f, names[e[0]], names[e[1]], 0)


def _door(path, f: str, d, names: dict[str, int], links: _Links) -> None:
    """``board.doors[i]``: a link with a room at one end, of a colour (none, blue, green)."""
    if not isinstance(d, dict):
        raise err(path, f, "expected a table { between = [a, b], colour = ... }")
    unknown(path, f, d, DOOR_KEYS)
    e = d.get("between")
    if not isinstance(e, list) or len(e) != 2 or not all(isinstance(x, str) for x in e):
        raise err(path, f"{f}.between", "expected a pair of node names")
    for x in e:
        if x not in names or x == "outside":
            raise err(path, f"{f}.between", f"'{x}' is not a room or hallway square of this board")
    a, c = names[e[0]], names[e[1]]
    if a > N_ROOMS and c > N_ROOMS:
        raise err(path, f"{f}.between", "a door needs a room at one end (use corridors between squares)")
    col = d.get("colour", "none")
    if col not in COLOURS:
        raise err(path, f"{f}.colour", f"{col!r} is not a known colour; allowed: {', '.join(COLOURS)}")
    links.add(f, a, c, COLOURS.index(col))


def _reachable(path, hallway: list[str], edges: list[tuple[int, int, int]]) -> None:
    """At most MAX_DEG links a node, and every node reachable from outside through the front door."""
    n_nodes = 1 + N_ROOMS + len(hallway)
    deg = [0] * n_nodes
    for a, c, _ in edges:
        deg[a] += 1
        deg[c] += 1
    for v in range(n_nodes):
        if deg[v] > MAX_DEG:
            raise err(path, "board.doors", f"{node_name(v, hallway)} has {deg[v]} links; at most {MAX_DEG}")
    dist = _bfs_all(n_nodes, edges, lock=0)
    for v in range(1, n_nodes):
        if dist[0, v] >= UNREACHABLE:
            kind = "room" if v <= N_ROOMS else "hallway square"
            raise err(
                path,
                "board",
                f"{kind} {node_name(v, hallway).replace('room ', '')} is not reachable from "
                f"outside through the front door",
            )


def parse_board(data, path: str = "<board>") -> Board:
    """Validate a parsed board document; raises BoardError (one line) on the first problem."""
    b = board_table(data, path, ("board",))
    unknown(path, "board", b, BOARD_KEYS)
    texts(path, b)
    _rooms(path, b)
    hallway, names = _hallway(path, b)
    jewel_rooms = _room_list(path, b, "jewel_rooms", N_JEWELS)
    start_rooms = _room_list(path, b, "ghost_start_rooms", None)
    links = _Links(path, _front_door(path, b, names))
    _corridors(path, b, names, links)
    doors = b.get("doors", [])
    if not isinstance(doors, list):
        raise err(path, "board.doors", "expected an array of tables { between = [a, b], colour = ... }")
    for i, d in enumerate(doors):
        _door(path, f"board.doors[{i}]", d, names, links)
    _reachable(path, hallway, links.edges)
    return Board(
        path=str(path),
        name=b.get("name", Path(str(path)).stem),
        description=b.get("description", ""),
        hallway=tuple(hallway),
        front_door=links.edges[0][1],
        jewel_rooms=jewel_rooms,
        ghost_start_rooms=start_rooms,
        edges=tuple(links.edges),
    )


def load_board(ref: str) -> Board:
    """Read and validate the board named by ``ref`` (see `resolve_path`); cached by path and modification time."""
    return boardfile.load(ref, BOARDS_DIR, parse_board, BoardError)


def _bfs_all(n_nodes: int, edges, lock: int) -> np.ndarray:
    """All-pairs shortest distances (int64[n, n], UNREACHABLE when cut) with doors of colour ``lock`` closed.

    Outside is never passed through (only entered or left), which a shortest path never does anyway (one link).
    """
    adj: list[list[int]] = [[] for _ in range(n_nodes)]
    for a, c, col in edges:
        if lock and col == lock:
            continue
        adj[a].append(c)
        adj[c].append(a)
    out = np.full((n_nodes, n_nodes), UNREACHABLE, dtype=np.int64)
    for s in range(n_nodes):
        out[s, s] = 0
        frontier = [s]
        d = 0
        while frontier:
            d += 1
            nxt = []
            for v in frontier:
                if v == 0 and v != s:
                    continue
                for w in adj[v]:
                    if out[s, w] == UNREACHABLE:
                        out[s, w] = d
                        nxt.append(w)
            frontier = nxt
    return out


def compile_board(board: Board) -> dict:
    """Fixed-shape arrays for the kernel (all int64):

    node_kind[MAX_NODES] (0 outside, 1 room, 2 hallway, -1 unused); adj[MAX_NODES, MAX_DEG] neighbour or -1;
    adj_col[MAX_NODES, MAX_DEG] door colour of that link (0 none, 1 blue, 2 green); room_doorcol[12, 3] 1 when the
    room has a door of that colour; dist[3, MAX_NODES, MAX_NODES] shortest distances with no colour / blue / green
    locked (UNREACHABLE where cut or unused); nbr[3, MAX_NODES] the neighbours of each node through the links open
    with no colour / blue / green locked and hall[1] the hallway squares, as bit sets (uint64 bits in int64).
    """
    n = board.n_nodes
    kind = np.full(MAX_NODES, -1, dtype=np.int64)
    kind[0] = 0
    kind[1 : 1 + N_ROOMS] = 1
    kind[1 + N_ROOMS : n] = 2
    adj = np.full((MAX_NODES, MAX_DEG), -1, dtype=np.int64)
    adj_col = np.zeros((MAX_NODES, MAX_DEG), dtype=np.int64)
    cnt = [0] * MAX_NODES
    room_doorcol = np.zeros((N_ROOMS, 3), dtype=np.int64)
    for a, c, col in board.edges:
        for x, y in ((a, c), (c, a)):
            adj[x, cnt[x]] = y
            adj_col[x, cnt[x]] = col
            cnt[x] += 1
        for x in (a, c):
            if 1 <= x <= N_ROOMS:
                room_doorcol[x - 1, col] = 1
    dist = np.full((3, MAX_NODES, MAX_NODES), UNREACHABLE, dtype=np.int64)
    for lock in range(3):
        dist[lock, :n, :n] = _bfs_all(n, board.edges, lock)
    nbr = np.zeros((3, MAX_NODES), dtype=np.uint64)
    for lock in range(3):
        for v in range(MAX_NODES):
            for k in range(MAX_DEG):
                x = adj[v, k]
                if x >= 0 and not (lock != 0 and adj_col[v, k] == lock):
                    nbr[lock, v] |= np.uint64(1) << np.uint64(x)
    hall = np.zeros(1, dtype=np.uint64)
    for v in range(1 + N_ROOMS, n):
        hall[0] |= np.uint64(1) << np.uint64(v)
    return {
        "n_nodes": n,
        "node_kind": kind,
        "adj": adj,
        "adj_col": adj_col,
        "room_doorcol": room_doorcol,
        "dist": dist,
        "nbr": nbr.view(np.int64),
        "hall": hall.view(np.int64),
    }
