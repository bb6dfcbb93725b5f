"""The castle as data: load, validate and compile a Turnwall board file (plain Python, no Numba).

A board file is TOML (see scenarios/turnwall/boards/default.toml and RULES.md B1..B8):

    [board]  name, description    free text
             size                 7 (the only size the kernel's rotation tables know)
             rooms                the number of rooms the walls must make (12 on the real board)
             plug                 [row, col] of the plug: the centre cell (the board turns around it)
             h_walls              6 strings of 7 chars: '#' wall between [r, c] and [r + 1, c], '.' open
             v_walls              7 strings of 6 chars: '#' wall between [r, c] and [r, c + 1], '.' open
             corners              4 [row, col] start spaces, in ghost order (green, red, yellow, blue)
             parts                the 5 body part names
             garments             [{ name, part, cell = [row, col] }, ...]: exactly 4 per part, unique cells and names
    [floor]  tunnels              floor column of each of the 5 tunnels (distinct, 0..6)
             max_out              how many cells a slider may be pulled out (its marked segments)
             [[floor.sliders]]    magnets (slider cells 0..6 with a magnet), tunnel (start tunnel index),
                                  poles (optional, 0/1 per magnet; default alternating 0, 1, ...)

`load_board` raises `BoardError` (a ValueError) with ONE line naming the file and the field. `compile_board` gives
the fixed-shape integer arrays `params.pack` copies into ``prm``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kernels import boardfile
from kernels.boardfile import BoardError, board_table, err, is_int, texts, unknown  # noqa: F401  (BoardError: this loader's error)

SIZE = 7
N_CELLS = SIZE * SIZE
PLUG = (SIZE // 2) * SIZE + SIZE // 2
N_PARTS = 5
PER_PART = 4
N_GARMENTS = N_PARTS * PER_PART
N_TUNNELS = 5
N_SLIDERS = 3
N_CORNERS = 4
SLIDER_LEN = 7
BOARD_KEYS = ("name", "description", "size", "rooms", "plug", "h_walls", "v_walls", "corners", "parts", "garments")
FLOOR_KEYS = ("tunnels", "max_out", "sliders")
GARMENT_KEYS = ("name", "part", "cell")
SLIDER_KEYS = ("magnets", "tunnel", "poles")
WALL_N, WALL_E, WALL_S, WALL_W = 1, 2, 4, 8
BOARDS_DIR = Path(__file__).resolve().parents[2] / "scenarios" / "turnwall" / "boards"


@dataclass(frozen=True)
class Board:
    """A validated castle. Cells are numbered row * 7 + col in the board's start orientation."""

    path: str
    name: str
    description: str
    walls: tuple[int, ...]  # per cell: WALL_N | WALL_E | WALL_S | WALL_W bits
    room_of: tuple[int, ...]  # per cell: room index 0.. (-1 on the plug)
    n_rooms: int
    corners: tuple[int, ...]  # 4 cells
    parts: tuple[str, ...]  # 5 names
    garment_names: tuple[str, ...]  # 20, garment id = part * 4 + j (the order of the file within a part)
    garment_cells: tuple[int, ...]  # 20 cells
    tunnels: tuple[int, ...]  # 5 floor columns
    max_out: int
    magnets: tuple[tuple[int, ...], ...]  # 3 sliders: magnet slider cells
    poles: tuple[tuple[int, ...], ...]  # 3 sliders: pole (0/1) of each magnet
    slider_tunnels: tuple[int, ...]  # 3 start tunnel indices

    def garment_at(self, cell: int) -> int:
        """Garment id on board cell ``cell``, -1 when none."""
        return self.garment_cells.index(cell) if cell in self.garment_cells else -1


def resolve_path(ref: str) -> Path:
    """The board file named by ``ref`` (kernels.boardfile.resolve_path with this game's boards folder)."""
    return boardfile.resolve_path(ref, BOARDS_DIR)


def _cell(path, field: str, v) -> int:
    if not isinstance(v, list) or len(v) != 2 or not all(is_int(x) for x in v):
        raise err(path, field, f"expected [row, col] with integers 0..{SIZE - 1}")
    r, c = v
    if not (0 <= r < SIZE and 0 <= c < SIZE):
        raise err(path, field, f"[{r}, {c}] is off the board; rows and columns are 0..{SIZE - 1}")
    return r * SIZE + c


def _wall_rows(path, b: dict, key: str, rows: int, width: int) -> list[str]:
    v = b.get(key)
    if not isinstance(v, list) or len(v) != rows or not all(isinstance(x, str) for x in v):
        raise err(path, f"board.{key}", f"expected {rows} strings of {width} characters ('#' wall, '.' open)")
    for i, s in enumerate(v):
        if len(s) != width or set(s) - {"#", "."}:
            raise err(path, f"board.{key}[{i}]", f"{s!r}: expected {width} characters, each '#' (wall) or '.'")
    return v


def _rooms(walls: list[int]) -> list[int]:
    """Room index per cell by flood fill over open edges (the plug belongs to no room: -1)."""
    room = [-1] * N_CELLS
    n = 0
    for s in range(N_CELLS):
        if s == PLUG or room[s] >= 0:
            continue
        room[s] = n
        stack = [s]
        while stack:
            v = stack.pop()
            r, c = divmod(v, SIZE)
            for bit, dr, dc in ((WALL_N, -1, 0), (WALL_E, 0, 1), (WALL_S, 1, 0), (WALL_W, 0, -1)):
                rr, cc = r + dr, c + dc
                if walls[v] & bit or not (0 <= rr < SIZE and 0 <= cc < SIZE):
                    continue
                w = rr * SIZE + cc
                if w != PLUG and room[w] < 0:
                    room[w] = n
                    stack.append(w)
        n += 1
    return room


def _size_and_plug(path, b: dict) -> None:
    if isinstance(b.get("size", SIZE), bool) or not isinstance(b.get("size", SIZE), int):
        raise err(path, "board.size", f"expected an integer, got {b.get('size')!r}; allowed: {SIZE}")
    if b.get("size", SIZE) != SIZE:
        raise err(path, "board.size", f"{b.get('size')!r}: only a {SIZE} x {SIZE} board is modelled; allowed: {SIZE}")
    plug = _cell(path, "board.plug", b.get("plug", [SIZE // 2, SIZE // 2]))
    if plug != PLUG:
        raise err(path, "board.plug", f"must be the centre cell [{SIZE // 2}, {SIZE // 2}] (the board turns around it)")


def _walls(path, b: dict) -> list[int]:
    """The wall bits of every cell from ``board.h_walls`` / ``v_walls`` (each wall on both of its cells)."""
    h = _wall_rows(path, b, "h_walls", SIZE - 1, SIZE)
    v = _wall_rows(path, b, "v_walls", SIZE, SIZE - 1)
    walls = [0] * N_CELLS
    for r in range(SIZE - 1):
        for c in range(SIZE):
            if h[r][c] == "#":
                walls[r * SIZE + c] |= WALL_S
                walls[(r + 1) * SIZE + c] |= WALL_N
    for r in range(SIZE):
        for c in range(SIZE - 1):
            if v[r][c] == "#":
                walls[r * SIZE + c] |= WALL_E
                walls[r * SIZE + c + 1] |= WALL_W
    return walls


def _room_count(path, b: dict, room_of: list[int]) -> int:
    n_rooms = max(room_of) + 1
    want = b.get("rooms", 12)
    if not is_int(want) or want < 1:
        raise err(
            path, "board.rooms", f"{want!r}: expected a positive integer (the number of rooms; 12 on the real board)"
        )
    if n_rooms != want:
        raise err(path, "board.h_walls/v_walls", f"the walls make {n_rooms} rooms; board.rooms declares {want}")
    return n_rooms


def _corners(path, b: dict) -> list[int]:
    cl = b.get("corners")
    if not isinstance(cl, list) or len(cl) != N_CORNERS:
        raise err(path, "board.corners", f"expected {N_CORNERS} [row, col] start spaces (green, red, yellow, blue)")
    corners: list[int] = []
    for i, x in enumerate(cl):
        cell = _cell(path, f"board.corners[{i}]", x)
        if cell == PLUG or cell in corners:
            raise err(path, f"board.corners[{i}]", "is the plug or another corner; start spaces must be distinct")
        corners.append(cell)
    return corners


def _parts(path, b: dict) -> list[str]:
    parts = b.get("parts")
    if (
        not isinstance(parts, list)
        or len(parts) != N_PARTS
        or not all(isinstance(x, str) and x for x in parts)
        or len(set(parts)) != N_PARTS
    ):
        raise err(path, "board.parts", f"expected {N_PARTS} distinct body part names")
    return parts


def _garment(path, fld: str, g, parts: list[str], corners: list[int], names: set, cells: set) -> tuple[str, str, int]:
    """One ``board.garments[i]`` table: (name, body part, cell), its name and cell not used before."""
    if not isinstance(g, dict):
        raise err(path, fld, "expected a table { name, part, cell }")
    unknown(path, fld, g, GARMENT_KEYS)
    nm = g.get("name")
    if not isinstance(nm, str) or not nm:
        raise err(path, f"{fld}.name", "missing or not a string")
    if nm in names:
        raise err(path, f"{fld}.name", f"{nm!r} appears twice; each garment matches exactly one card")
    names.add(nm)
    pt = g.get("part")
    if pt not in parts:
        raise err(path, f"{fld}.part", f"{pt!r} is not a body part; allowed: {', '.join(parts)}")
    cell = _cell(path, f"{fld}.cell", g.get("cell"))
    if cell == PLUG:
        raise err(path, f"{fld}.cell", f"{nm!r} is on the plug; a garment needs a space ghosts can reach")
    if cell in corners:
        raise err(path, f"{fld}.cell", f"{nm!r} is on a corner start space; garments are never on corners")
    if cell in cells:
        raise err(path, f"{fld}.cell", f"{nm!r} shares its cell with another garment")
    cells.add(cell)
    return nm, pt, cell


def _garments(path, b: dict, parts: list[str], corners: list[int]) -> list[list[tuple[str, int]]]:
    """(name, cell) of the garments of each body part, PER_PART each, in file order within a part."""
    gl = b.get("garments")
    if not isinstance(gl, list):
        raise err(path, "board.garments", "expected an array of { name, part, cell } tables")
    by_part: list[list[tuple[str, int]]] = [[] for _ in range(N_PARTS)]
    names: set[str] = set()
    cells: set[int] = set()
    for i, g in enumerate(gl):
        nm, pt, cell = _garment(path, f"board.garments[{i}]", g, parts, corners, names, cells)
        by_part[parts.index(pt)].append((nm, cell))
    for p, lst in enumerate(by_part):
        if len(lst) != PER_PART:
            raise err(
                path,
                "board.garments",
                f"body part {parts[p]!r} has {len(lst)} garments; each part needs exactly {PER_PART}",
            )
    return by_part


def _tunnels_and_max_out(path, f: dict) -> tuple[list[int], int]:
    tun = f.get("tunnels")
    if (
        not isinstance(tun, list)
        or len(tun) != N_TUNNELS
        or not all(is_int(x) and 0 <= x < SIZE for x in tun)
        or len(set(tun)) != N_TUNNELS
    ):
        raise err(path, "floor.tunnels", f"expected {N_TUNNELS} distinct floor columns 0..{SIZE - 1}")
    mo = f.get("max_out", 2)
    if not is_int(mo) or not 0 <= mo <= SLIDER_LEN - 1:
        raise err(path, "floor.max_out", f"{mo!r}: expected an integer 0..{SLIDER_LEN - 1} (marked segments)")
    return tun, mo


def _slider(path, fld: str, s, st_tun: list[int]) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """One ``[[floor.sliders]]`` table: (magnet cells, their poles, start tunnel), a tunnel no other slider holds."""
    if not isinstance(s, dict):
        raise err(path, fld, "expected a table { magnets, tunnel }")
    unknown(path, fld, s, SLIDER_KEYS)
    m = s.get("magnets")
    if not isinstance(m, list) or not m or not all(is_int(x) for x in m) or len(set(m)) != len(m):
        raise err(path, f"{fld}.magnets", f"expected distinct slider cells 0..{SLIDER_LEN - 1}")
    for x in m:
        if not 0 <= x < SLIDER_LEN:
            raise err(path, f"{fld}.magnets", f"magnet at cell {x} is outside the slider (cells 0..{SLIDER_LEN - 1})")
    pl = s.get("poles", [k % 2 for k in range(len(m))])
    if not isinstance(pl, list) or len(pl) != len(m) or not all(x in (0, 1) and is_int(x) for x in pl):
        raise err(path, f"{fld}.poles", f"expected one pole (0 or 1) per magnet ({len(m)})")
    t = s.get("tunnel")
    if not is_int(t) or not 0 <= t < N_TUNNELS:
        raise err(path, f"{fld}.tunnel", f"{t!r}: no such tunnel; allowed: 0..{N_TUNNELS - 1}")
    if t in st_tun:
        raise err(path, f"{fld}.tunnel", f"tunnel {t} already holds slider {st_tun.index(t)}; one slider a tunnel")
    return tuple(m), tuple(pl), t


def _sliders(path, f: dict) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]], list[int]]:
    sl = f.get("sliders")
    if not isinstance(sl, list) or len(sl) != N_SLIDERS:
        raise err(path, "floor.sliders", f"expected {N_SLIDERS} [[floor.sliders]] tables")
    magnets, poles, st_tun = [], [], []
    for i, s in enumerate(sl):
        m, pl, t = _slider(path, f"floor.sliders[{i}]", s, st_tun)
        magnets.append(m)
        poles.append(pl)
        st_tun.append(t)
    return magnets, poles, st_tun


def parse_board(data, path: str = "<board>") -> Board:
    """Validate a parsed board document; raises BoardError (one line) on the first problem."""
    b = board_table(data, path, ("board", "floor"))
    f = data.get("floor")
    if not isinstance(f, dict):
        raise err(path, "[floor]", "missing table (tunnels, max_out, [[floor.sliders]])")
    unknown(path, "board", b, BOARD_KEYS)
    unknown(path, "floor", f, FLOOR_KEYS)
    texts(path, b)
    _size_and_plug(path, b)
    walls = _walls(path, b)
    room_of = _rooms(walls)
    n_rooms = _room_count(path, b, room_of)
    corners = _corners(path, b)
    parts = _parts(path, b)
    by_part = _garments(path, b, parts, corners)
    tun, mo = _tunnels_and_max_out(path, f)
    magnets, poles, st_tun = _sliders(path, f)
    order = [g for p in range(N_PARTS) for g in by_part[p]]
    return Board(
        path=str(path),
        name=b.get("name", Path(str(path)).stem),
        description=b.get("description", ""),
        walls=tuple(walls),
        room_of=tuple(room_of),
        n_rooms=n_rooms,
        corners=tuple(corners),
        parts=tuple(parts),
        garment_names=tuple(n for n, _ in order),
        garment_cells=tuple(c for _, c in order),
        tunnels=tuple(tun),
        max_out=mo,
        magnets=tuple(magnets),
        poles=tuple(poles),
        slider_tunnels=tuple(st_tun),
    )


def load_board(ref: str) -> Board:
    """Read and validate the board named by ``ref`` (see `resolve_path`); cached by path and modification time."""
    return boardfile.load(ref, BOARDS_DIR, parse_board, BoardError)


def grip_masks(board: Board, ghost_poles, polarity: bool) -> np.ndarray:
    """int64[3, 4]: bit k set when slider cell k holds a magnet that grips ghost g (B7, C10): every magnet grips
    with polarity off; with it on, only magnets whose pole differs from the ghost's."""
    out = np.zeros((N_SLIDERS, 4), dtype=np.int64)
    for s in range(N_SLIDERS):
        for g in range(4):
            for k, pole in zip(board.magnets[s], board.poles[s]):
                if not polarity or pole != ghost_poles[g]:
                    out[s, g] |= 1 << k
    return out
