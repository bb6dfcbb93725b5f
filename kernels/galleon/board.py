"""The bay and the ghost ship as data: load, validate and compile a Ghostly Galleon board file (plain Python).

A board file is TOML with one ``[board]`` table plus ``[[cannons]]`` and ``[[whirlpools]]`` (see
scenarios/galleon/boards/default.toml and RULES.md B1..B9):

    [board]        name, description     free text
                   spaces                [{ id, kind, xy, quarter (land kinds), owner (hideouts) }, ...]
                   edges                 [[a, b], ...] spaces one pip apart
                   stairs                [[a, b], ...] deck spaces joined by stairs (one pip, the stairs are no space)
                   cave_groups           [[entrance, ...], ...] entrances joined through the caves (one pip)
    [[cannons]]    behind, quarter       the deck space the ghost fires it from; the board quarter it reaches
    [[whirlpools]] whirlpool, rock, shore

`load_board` raises `BoardError` (a ValueError) with ONE line naming the file and the field: a hideout that cannot
reach the ship, a cabin without a door, a cannon without a quarter, a whirlpool without its rock, an unknown space
kind, and every other malformed entry. `pack_board` writes the compiled arrays into the kernel's ``prm``.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from kernels import boardfile
from kernels.boardfile import BoardError, board_table, err, is_int, texts, unknown  # noqa: F401  (BoardError: this loader's error)

MAX_SPACES = 128
MAX_DEG = 8
N_HIDEOUTS = 4
N_CABINS = 6
N_CANNONS = 4
N_WHIRLPOOLS = 4
FAR = 999

KINDS = (
    "land",
    "land_arrow",
    "cave",
    "hideout",
    "deck",
    "deck_arrow",
    "plank",
    "cabin",
    "captain",
    "whirlpool",
    "rock",
)
K_LAND, K_LAND_ARROW, K_CAVE, K_HIDEOUT, K_DECK, K_DECK_ARROW, K_PLANK, K_CABIN, K_CAPTAIN, K_WHIRLPOOL, K_ROCK = range(
    len(KINDS)
)
LAND_KINDS = (K_LAND, K_LAND_ARROW, K_CAVE, K_HIDEOUT)
SHIP_KINDS = (K_DECK, K_DECK_ARROW, K_PLANK, K_CABIN, K_CAPTAIN)
WALK_DECK = (K_DECK, K_DECK_ARROW, K_PLANK)
ROOM_KINDS = (K_CABIN, K_CAPTAIN)
QUARTERS = ("NW", "NE", "SW", "SE")

BOARD_KEYS = ("name", "description", "spaces", "edges", "stairs", "cave_groups")
SPACE_KEYS = ("id", "kind", "xy", "quarter", "owner")
CANNON_KEYS = ("behind", "quarter")
WHIRL_KEYS = ("whirlpool", "rock", "shore")
BOARDS_DIR = Path(__file__).resolve().parents[2] / "scenarios" / "galleon" / "boards"


@dataclass(frozen=True)
class Board:
    """A validated board. Spaces are numbered in the order of the file's ``spaces`` list."""

    path: str
    name: str
    description: str
    ids: tuple[str, ...]
    kinds: tuple[int, ...]
    xy: tuple[tuple[float, float], ...]
    quarter: tuple[int, ...]  # per space, -1 for spaces in no quarter (ship, water)
    owner: tuple[int, ...]  # per space: the seat whose hideout it is, -1 otherwise
    edges: tuple[tuple[int, int], ...]  # walking edges (stairs included), both ways
    stairs: tuple[tuple[int, int], ...]
    cave_links: tuple[tuple[int, int], ...]  # entrance pairs of one cave group
    hideouts: tuple[int, ...]  # 4: the hideout space of seat 0..3
    cabins: tuple[int, ...]  # 6 cabin spaces (chest places), file order
    doors: tuple[int, ...]  # 6: the door space of each cabin
    captain: int
    captain_door: int
    cannons: tuple[tuple[int, int], ...]  # 4: (behind space, quarter)
    whirlpools: tuple[tuple[int, int, int], ...]  # 4: (whirlpool, rock, shore)

    @property
    def n(self) -> int:
        return len(self.ids)

    def index(self, sid: str) -> int:
        return self.ids.index(sid)

    def neighbours(self, v: int, caves: bool = True) -> list[int]:
        out = [b if a == v else a for a, b in self.edges if v in (a, b)]
        if caves:
            out += [b if a == v else a for a, b in self.cave_links if v in (a, b)]
        return out

    def distances(self) -> np.ndarray:
        """int64[n, n] fewest pips between spaces over edges and cave links, ignoring pieces (FAR = unreachable).
        Strategies use it to rank destinations; rooms are entered but not walked through."""
        n = self.n
        d = np.full((n, n), FAR, dtype=np.int64)
        nb = [self.neighbours(v) for v in range(n)]
        for s in range(n):
            d[s, s] = 0
            q = deque([s])
            while q:
                v = q.popleft()
                if v != s and self.kinds[v] in (K_CABIN, K_CAPTAIN, K_HIDEOUT):
                    continue  # a room or hideout ends a move: no path goes through it
                for w in nb[v]:
                    if d[s, w] == FAR:
                        d[s, w] = d[s, v] + 1
                        q.append(w)
        return d


def resolve_path(ref: str) -> Path:
    """The board file named by ``ref`` (kernels.boardfile.resolve_path with this game's boards folder)."""
    return boardfile.resolve_path(ref, BOARDS_DIR)


def _pairs(path, b: dict, key: str, index: dict, required: bool) -> list[tuple[int, int]]:
    v = b.get(key, None if required else [])
    if not isinstance(v, list):
        raise err(path, f"board.{key}", "expected an array of [a, b] pairs of space ids")
    out = []
    for i, e in enumerate(v):
        if not isinstance(e, list) or len(e) != 2 or not all(isinstance(x, str) for x in e):
            raise err(path, f"board.{key}[{i}]", "expected [a, b] with two space ids")
        for x in e:
            if x not in index:
                raise err(path, f"board.{key}[{i}]", f"unknown space {x!r}")
        if e[0] == e[1]:
            raise err(path, f"board.{key}[{i}]", f"joins {e[0]!r} to itself")
        out.append((index[e[0]], index[e[1]]))
    return out


def _ref(path, field: str, v, index: dict) -> int:
    if not isinstance(v, str) or v not in index:
        raise err(path, field, f"{v!r} is not a space id of board.spaces")
    return index[v]


@dataclass
class _Spaces:
    """The spaces read so far, in file order (one list entry per space), and each id's number."""

    ids: list[str] = field(default_factory=list)
    kinds: list[int] = field(default_factory=list)
    xy: list[tuple[float, float]] = field(default_factory=list)
    quarter: list[int] = field(default_factory=list)
    owner: list[int] = field(default_factory=list)
    index: dict[str, int] = field(default_factory=dict)

    def kind_name(self, v: int) -> str:
        return KINDS[self.kinds[v]]


def _space(path, i: int, s, sp: _Spaces) -> None:
    """Read ``board.spaces[i]`` into ``sp`` (B1: its kind; a land space's quarter, a hideout's owner)."""
    fld = f"board.spaces[{i}]"
    if not isinstance(s, dict):
        raise err(path, fld, "expected a table { id, kind, xy }")
    unknown(path, fld, s, SPACE_KEYS)
    sid = s.get("id")
    if not isinstance(sid, str) or not sid:
        raise err(path, f"{fld}.id", "missing or not a string")
    if sid in sp.index:
        raise err(path, f"{fld}.id", f"{sid!r} appears twice")
    k = s.get("kind")
    if k not in KINDS:
        raise err(path, f"{fld}.kind", f"unknown space kind {k!r} ({sid}); allowed: {', '.join(KINDS)}")
    kc = KINDS.index(k)
    p = s.get("xy", [0, 0])
    if not isinstance(p, list) or len(p) != 2 or not all(isinstance(x, (int, float)) for x in p):
        raise err(path, f"{fld}.xy", "expected [x, y] numbers (drawing position)")
    q = s.get("quarter", -1)
    if kc in LAND_KINDS:
        if not is_int(q) or not 0 <= q < 4:
            raise err(
                path,
                f"{fld}.quarter",
                f"{sid!r} is a {k} space: give its board quarter 0..3 ({', '.join(QUARTERS)})",
            )
    elif "quarter" in s:
        raise err(path, f"{fld}.quarter", f"{sid!r} is a {k} space; only land spaces lie in a quarter")
    o = s.get("owner", -1)
    if kc == K_HIDEOUT:
        if not is_int(o) or not 0 <= o < N_HIDEOUTS:
            raise err(path, f"{fld}.owner", f"hideout {sid!r}: owner must be a seat 0..3")
    elif "owner" in s:
        raise err(path, f"{fld}.owner", f"{sid!r} is not a hideout; only hideouts have an owner")
    sp.index[sid] = i
    sp.ids.append(sid)
    sp.kinds.append(kc)
    sp.xy.append((float(p[0]), float(p[1])))
    sp.quarter.append(q if kc in LAND_KINDS else -1)
    sp.owner.append(o if kc == K_HIDEOUT else -1)


def _spaces(path, b: dict) -> _Spaces:
    sl = b.get("spaces")
    if not isinstance(sl, list) or not sl:
        raise err(path, "board.spaces", "expected an array of { id, kind, xy } tables")
    if len(sl) > MAX_SPACES:
        raise err(path, "board.spaces", f"{len(sl)} spaces; at most {MAX_SPACES}")
    sp = _Spaces()
    for i, s in enumerate(sl):
        _space(path, i, s, sp)
    return sp


def _walk(path, b: dict, sp: _Spaces) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(walking edges with the stairs, stairs): each pair once, no water, boarding only arrow to arrow (B2, B3)."""
    ids, kinds = sp.ids, sp.kinds
    edges = _pairs(path, b, "edges", sp.index, True)
    stairs = _pairs(path, b, "stairs", sp.index, False)
    for i, (x, y) in enumerate(stairs):
        if kinds[x] not in WALK_DECK or kinds[y] not in WALK_DECK:
            raise err(path, f"board.stairs[{i}]", "stairs join two deck spaces")
    walk = edges + stairs
    seen = set()
    for x, y in walk:
        key = (min(x, y), max(x, y))
        if key in seen:
            raise err(path, "board.edges", f"{ids[x]!r}-{ids[y]!r} is listed twice")
        seen.add(key)
        kx, ky = kinds[x], kinds[y]
        for a, ka in ((x, kx), (y, ky)):
            if ka in (K_WHIRLPOOL, K_ROCK):
                raise err(
                    path,
                    "board.edges",
                    f"{ids[a]!r} is a {KINDS[ka]}: water is reached only by falling overboard (no edges)",
                )
        if (kx in LAND_KINDS) != (ky in LAND_KINDS) and {kx, ky} != {K_LAND_ARROW, K_DECK_ARROW}:
            raise err(
                path,
                "board.edges",
                f"{ids[x]!r}-{ids[y]!r} joins land and ship; boarding only between a land_arrow and a deck_arrow space",
            )
    return walk, stairs


def _caves(path, b: dict, sp: _Spaces) -> list[tuple[int, int]]:
    """The cave links: every pair of entrances of one cave group; each entrance in exactly one group."""
    ids, kinds, index = sp.ids, sp.kinds, sp.index
    groups = b.get("cave_groups", [[ids[i] for i in range(len(ids)) if kinds[i] == K_CAVE]])
    if not isinstance(groups, list) or not all(isinstance(g, list) for g in groups):
        raise err(path, "board.cave_groups", "expected an array of arrays of cave entrance ids")
    cave_links: list[tuple[int, int]] = []
    grouped: set[int] = set()
    for gi, g in enumerate(groups):
        for e in g:
            v = _ref(path, f"board.cave_groups[{gi}]", e, index)
            if kinds[v] != K_CAVE:
                raise err(path, f"board.cave_groups[{gi}]", f"{e!r} is a {sp.kind_name(v)} space, not a cave entrance")
            if v in grouped:
                raise err(path, f"board.cave_groups[{gi}]", f"{e!r} is in two cave groups")
            grouped.add(v)
        if len(g) < 2:
            raise err(path, f"board.cave_groups[{gi}]", "a cave joins at least two entrances")
        vs = [index[e] for e in g]
        cave_links += [(vs[a], vs[c]) for a in range(len(vs)) for c in range(a + 1, len(vs))]
    for v in range(len(ids)):
        if kinds[v] == K_CAVE and v not in grouped:
            raise err(path, "board.cave_groups", f"cave entrance {ids[v]!r} is in no cave group")
    return cave_links


def _degrees(path, sp: _Spaces, links: list[tuple[int, int]]) -> None:
    deg = [0] * len(sp.ids)
    for x, y in links:
        deg[x] += 1
        deg[y] += 1
    for v in range(len(sp.ids)):
        if deg[v] > MAX_DEG:
            raise err(path, "board.edges", f"{sp.ids[v]!r} has {deg[v]} neighbours; at most {MAX_DEG}")


def _others(v: int, links: list[tuple[int, int]]) -> list[int]:
    return [y if x == v else x for x, y in links if v in (x, y)]


def _rooms(path, sp: _Spaces, walk: list[tuple[int, int]]) -> tuple[list[int], list[int], int, int]:
    """(cabins, their doors, captain's cabin, its door): each room has one door to a deck space (B4)."""
    ids, kinds = sp.ids, sp.kinds
    cabins, doors, captain, cdoor = [], [], -1, -1
    for v in range(len(ids)):
        if kinds[v] in ROOM_KINDS:
            n = _others(v, walk)
            what = "captain's cabin" if kinds[v] == K_CAPTAIN else "cabin"
            if len(n) != 1 or kinds[n[0]] not in WALK_DECK:
                raise err(
                    path,
                    "board.edges",
                    f"{what} {ids[v]!r} needs exactly one door: one edge to a deck space (has {len(n)})",
                )
            if kinds[v] == K_CABIN:
                cabins.append(v)
                doors.append(n[0])
            elif captain >= 0:
                raise err(path, "board.spaces", f"{ids[v]!r}: a second captain's cabin; the ship has one")
            else:
                captain, cdoor = v, n[0]
    if len(cabins) != N_CABINS:
        raise err(path, "board.spaces", f"{len(cabins)} cabins; the ship has {N_CABINS} (one chest each)")
    if captain < 0:
        raise err(path, "board.spaces", 'no captain\'s cabin (kind "captain")')
    return cabins, doors, captain, cdoor


def _hideouts(path, sp: _Spaces, walk: list[tuple[int, int]], cave_links: list[tuple[int, int]]) -> list[int]:
    """The hideout of seat 0..3, one each, every one reaching a deck arrow (rooms and hideouts end moves)."""
    ids, kinds, owner = sp.ids, sp.kinds, sp.owner
    hideouts = [-1] * N_HIDEOUTS
    for v in range(len(ids)):
        if kinds[v] == K_HIDEOUT:
            if hideouts[owner[v]] >= 0:
                raise err(path, "board.spaces", f"two hideouts of seat {owner[v]}")
            hideouts[owner[v]] = v
    if -1 in hideouts:
        raise err(path, "board.spaces", f"no hideout of seat {hideouts.index(-1)}; the board has 4 (owners 0..3)")
    for o, h in enumerate(hideouts):
        seen_v, q, ok = {h}, deque([h]), False
        while q and not ok:
            v = q.popleft()
            for w in _others(v, walk) + _others(v, cave_links):
                if w in seen_v or kinds[w] in (K_HIDEOUT, K_CABIN, K_CAPTAIN):
                    continue
                if kinds[w] == K_DECK_ARROW:
                    ok = True
                seen_v.add(w)
                q.append(w)
        if not ok:
            raise err(
                path,
                "board.edges",
                f"hideout {ids[h]!r} (seat {o}) cannot reach the ship (no way to a deck_arrow space)",
            )
    return hideouts


def _cannons(path, data: dict, sp: _Spaces) -> list[tuple[int, int]]:
    """The 4 cannons: (the deck space the ghost fires from, the quarter it reaches)."""
    cl = data.get("cannons")
    if not isinstance(cl, list) or len(cl) != N_CANNONS:
        raise err(path, "cannons", f"expected {N_CANNONS} [[cannons]] tables {{ behind, quarter }}")
    cannons: list[tuple[int, int]] = []
    for i, c in enumerate(cl):
        fld = f"cannons[{i}]"
        if not isinstance(c, dict):
            raise err(path, fld, "expected a table { behind, quarter }")
        unknown(path, fld, c, CANNON_KEYS)
        v = _ref(path, f"{fld}.behind", c.get("behind"), sp.index)
        if sp.kinds[v] not in WALK_DECK:
            raise err(
                path, f"{fld}.behind", f"{sp.ids[v]!r} is a {sp.kind_name(v)} space; the ghost fires from a deck space"
            )
        if any(v == b0 for b0, _ in cannons):
            raise err(path, f"{fld}.behind", f"{sp.ids[v]!r} is behind two cannons")
        q = c.get("quarter")
        if not is_int(q) or not 0 <= q < 4:
            raise err(
                path,
                f"{fld}.quarter",
                f"cannon behind {sp.ids[v]!r} has no quarter: give 0..3 ({', '.join(QUARTERS)})",
            )
        cannons.append((v, q))
    return cannons


def _whirlpool(path, fld: str, w, sp: _Spaces) -> tuple[int, int, int]:
    """One ``[[whirlpools]]`` table: (whirlpool, its rock, the land_arrow shore C of rulebook 4.1)."""
    ids = sp.ids
    if not isinstance(w, dict):
        raise err(path, fld, "expected a table { whirlpool, rock, shore }")
    unknown(path, fld, w, WHIRL_KEYS)
    a = _ref(path, f"{fld}.whirlpool", w.get("whirlpool"), sp.index)
    if sp.kinds[a] != K_WHIRLPOOL:
        raise err(path, f"{fld}.whirlpool", f"{ids[a]!r} is a {sp.kind_name(a)} space, not a whirlpool")
    if "rock" not in w:
        raise err(path, f"{fld}.rock", f"whirlpool {ids[a]!r} has no rock")
    r = _ref(path, f"{fld}.rock", w.get("rock"), sp.index)
    if sp.kinds[r] != K_ROCK:
        raise err(path, f"{fld}.rock", f"whirlpool {ids[a]!r} has no rock: {ids[r]!r} is a {sp.kind_name(r)} space")
    s = _ref(path, f"{fld}.shore", w.get("shore"), sp.index)
    if sp.kinds[s] != K_LAND_ARROW:  # C18: rulebook 4.1 "the neighbouring arrow space (C)"
        raise err(
            path,
            f"{fld}.shore",
            f"{ids[s]!r} is a {sp.kind_name(s)} space; the shore (C) is a "
            f"land_arrow space (rulebook 4.1: 'the neighbouring arrow space')",
        )
    return a, r, s


def _whirlpools(path, data: dict, sp: _Spaces) -> list[tuple[int, int, int]]:
    """The 4 whirlpools; every whirlpool and rock space belongs to exactly one."""
    wl = data.get("whirlpools")
    if not isinstance(wl, list) or len(wl) != N_WHIRLPOOLS:
        raise err(path, "whirlpools", f"expected {N_WHIRLPOOLS} [[whirlpools]] tables {{ whirlpool, rock, shore }}")
    whirls, used = [], set()
    for i, w in enumerate(wl):
        fld = f"whirlpools[{i}]"
        a, r, s = _whirlpool(path, fld, w, sp)
        for v in (a, r):
            if v in used:
                raise err(path, fld, f"{sp.ids[v]!r} belongs to two whirlpools")
            used.add(v)
        whirls.append((a, r, s))
    for v in range(len(sp.ids)):
        if sp.kinds[v] in (K_WHIRLPOOL, K_ROCK) and v not in used:
            raise err(path, "whirlpools", f"{sp.kind_name(v)} {sp.ids[v]!r} belongs to no whirlpool")
    return whirls


def parse_board(data, path: str = "<board>") -> Board:
    """Validate a parsed board document; raises BoardError (one line) on the first problem. The stages run in the
    file's order of concerns: spaces, walking edges, caves, degrees, rooms, hideouts, cannons, whirlpools."""
    b = board_table(data, path, ("board", "cannons", "whirlpools"))
    unknown(path, "board", b, BOARD_KEYS)
    texts(path, b)
    sp = _spaces(path, b)
    walk, stairs = _walk(path, b, sp)
    cave_links = _caves(path, b, sp)
    _degrees(path, sp, walk + cave_links)
    cabins, doors, captain, cdoor = _rooms(path, sp, walk)
    hideouts = _hideouts(path, sp, walk, cave_links)
    cannons = _cannons(path, data, sp)
    whirls = _whirlpools(path, data, sp)
    return Board(
        path=str(path),
        name=b.get("name", Path(str(path)).stem),
        description=b.get("description", ""),
        ids=tuple(sp.ids),
        kinds=tuple(sp.kinds),
        xy=tuple(sp.xy),
        quarter=tuple(sp.quarter),
        owner=tuple(sp.owner),
        edges=tuple(walk),
        stairs=tuple(stairs),
        cave_links=tuple(cave_links),
        hideouts=tuple(hideouts),
        cabins=tuple(cabins),
        doors=tuple(doors),
        captain=captain,
        captain_door=cdoor,
        cannons=tuple(cannons),
        whirlpools=tuple(whirls),
    )


def load_board(ref: str) -> Board:
    """Read and validate the board named by ``ref`` (see `resolve_path`); cached by path and modification time."""
    return boardfile.load(ref, BOARDS_DIR, parse_board, BoardError)
