"""`sim board show`: a board file drawn as one SVG so a designer can check it by eye (matplotlib, via sim.pages.plots).

Turnwall castle: the 7 x 7 grid with its walls and rooms, the plug, the coloured start corners, the 20 garments with
their body part, the tunnels under the floor columns (start orientation) and the sliders with their magnets.
Treasure Hunters house: rooms and hallway squares as a graph, doors in their colours, the front door, jewel and
ghost start rooms.
Ghostly Galleon bay and ship: every space at its drawing position coloured by kind, edges, stairs (dashed), cave links
(dotted), the hideouts in their seat colours, cannons with the quarter they reach, whirlpools with rock and shore.
Every drawing has a key under it and text of at least SMALL_PT (10 CSS px where the report shows it: at its natural
size, up to the page's width); no label overlaps another or a symbol (tests/sim/test_board.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sim.model.errors import SimError
from sim.pages.plots import _figure, to_svg

ROOM_SHADES = ("#f4f1ea", "#e9e4d8")
TUNNEL = "#c9c9c9"
WALL = "#3a2e1f"
# a ghost's or pirate's own colour, as on the box, for its start corner or hideout (the seat palette of the report's
# plots is another set of colours: seat 0 plays the green ghost but is drawn blue in a plot)
PIECE = {"green": "#5fa55a", "red": "#c8504b", "yellow": "#e2b72f", "blue": "#4a7fc1"}
PART_COLOURS = ("#7d5fa6", "#d9822b", "#3b6ea8", "#4f9a57", "#b5464b", "#8c6d4f")
DOOR_COLOURS = {0: "#555555", 1: "#2f6fd6", 2: "#2e9c48"}
JEWEL_ROOM, ROOM = "#f6e7c1", "#eeeeee"


class BoardFileError(SimError, ValueError):
    """The file is not a board of a known game, or the game's loader refused it (one line)."""


def board_specs() -> dict:
    """Every registered game with a board file: name -> its `sim.model.registry.BoardSpec` (imports every game)."""
    from sim.model import registry

    return {name: spec.board for name, spec in registry.all_games().items() if spec.board is not None}


def kinds_text(boards: dict) -> str:
    """Every board kind in one phrase, for a message: "a Turnwall castle has [board] and [floor], a ..."."""
    return ", ".join(b.tables for b in boards.values())


def game_of(path: Path) -> str:
    """The game whose board file ``path`` is, from the tables the file holds (each game's `BoardSpec.marks`);
    raises BoardFileError (one line) for a file that cannot be read, is not TOML, or is no game's board."""
    from sim.games._boards import read_toml

    try:
        data = read_toml(Path(path))
    except FileNotFoundError:
        raise BoardFileError(f"{path}: no such board file") from None
    except IsADirectoryError:
        raise BoardFileError(f"{path}: is a folder; give a board .toml file") from None
    except OSError as e:
        raise BoardFileError(f"{path}: cannot read the board file ({e.strerror or e})") from None
    except ValueError as e:  # not UTF-8, or not TOML: read_toml says which, in words
        raise BoardFileError(f"{path}: {e}") from None
    from sim.model import registry

    # a game named by a folder on the path (scenarios/<game>/boards/) is asked first, alone when its board matches:
    # importing a game compiles its kernel helpers, and the marks of two games never meet in a valid board
    for name in (n for n in registry.names() if n in Path(path).resolve().parts):
        spec = registry.get(name)
        if spec is not None and spec.board is not None and spec.board.holds(data):
            return name
    boards = board_specs()
    games = [name for name, b in boards.items() if b.holds(data)]
    if len(games) == 1:
        return games[0]
    if games:
        raise BoardFileError(
            f"{path}: holds the tables of more than one game's board ({', '.join(games)}): "
            f"{kinds_text({g: boards[g] for g in games})}"
        )
    raise BoardFileError(f"{path}: not a board file of a known game ({kinds_text(boards)})")


def _drawing(game: str) -> tuple[Callable[[str], Any], Callable[[Any], Any], str]:
    """(the game's board loader, its figure function, what the board is called in a caption), from its spec: the
    figure is looked up when asked for, so the function drawn is the module's at that moment. The board is the
    game's own kind (its kernels/<game>/board.py). Raises LookupError for a game without a board spec (callers
    ask only for games with one)."""
    import importlib

    from sim.model import registry

    spec = registry.get(game)
    board = spec.board if spec is not None else None
    if board is None:
        raise LookupError(f"{game}: a game without a board spec")
    module, _, name = board.figure.partition(":")
    return board.loader().load_board, getattr(importlib.import_module(module), name), board.noun


def show(path: str | Path) -> tuple[str, str]:
    """(game, SVG text) of the board file at ``path``; raises BoardFileError (one line)."""
    from sim.games._boards import BoardError

    path = Path(path)
    game = game_of(path)
    load_board, figure, _ = _drawing(game)
    try:
        return game, to_svg(figure(load_board(str(path.resolve()))))
    except BoardError as e:
        raise BoardFileError(str(e)) from None


# Text sizes (pt) of every drawing: the report shows a drawing at its natural size (1 pt = 4/3 CSS px) up to the
# page's width, so LABEL_PT reads at about 11 px and SMALL_PT at 10 px.
LABEL_PT, SMALL_PT, TITLE_PT = 8.0, 7.5, 10.0


TOP_PAD_IN = 0.15  # inches above the title: the browser's sans-serif font is taller than the one it was laid out in


def _board_figure(w: float, h: float):
    """A board drawing's figure (`sim.pages.plots._figure`) with room above its title, which a browser drew clipped at
    the top edge when the constrained layout left only its default few points."""
    fig, axes = _figure(w, h)
    fig.get_layout_engine().set(h_pad=TOP_PAD_IN)
    return fig, axes


LEGEND_WIDTH = 52  # characters a legend line holds before it wraps (two or three columns fit the drawing)


def _legend(fig, handles: list, ncols: int) -> None:
    """The drawing's key under it: ``handles`` are matplotlib artists with labels (swatches, line styles, markers);
    a label longer than `LEGEND_WIDTH` characters is wrapped at its words."""
    import textwrap

    for h in handles:
        h.set_label("\n".join(textwrap.wrap(h.get_label(), LEGEND_WIDTH)))
    fig.legend(
        handles=handles,
        loc="outside lower center",
        ncols=ncols,
        fontsize=SMALL_PT,
        frameon=False,
        handlelength=2.2,
        columnspacing=1.6,
    )


def _swatch(face: str, label: str, edge: str = "#777777", alpha: float = 1.0):
    from matplotlib.patches import Patch

    return Patch(facecolor=face, edgecolor=edge, alpha=alpha, label=label)


def _stroke(color: str, label: str, lw: float = 1.0, ls: str = "-", marker: str | None = None, ms: float = 6):
    from matplotlib.lines import Line2D

    return Line2D([], [], color=color, lw=lw, ls=ls, marker=marker, markersize=ms, label=label)


def castle_figure(board):
    """The Turnwall castle (kernels.turnwall.board.Board) in its start orientation: rooms in two shades, walls,
    the plug, each seat's start corner in the seat's colour, the garments (name, body part in italics), the tunnels
    under the floor columns (a strip along the column's left edge) with the sliders' magnets on them; a key below."""
    import textwrap

    from matplotlib.patches import Circle, Rectangle

    fig, (ax,) = _board_figure(8.6, 10.2)
    n = 7
    strip = (0.04, 0.16)  # a tunnel's strip: this share of its column's width
    for c in range(n * n):
        r, k = divmod(c, n)
        shade = ROOM_SHADES[board.room_of[c] % 2]
        ax.add_patch(Rectangle((k, -r - 1), 1, 1, facecolor=shade, edgecolor="#d0cbbf", linewidth=0.5))
    for t, col in enumerate(board.tunnels):  # tunnels under the floor (start orientation)
        ax.add_patch(
            Rectangle((col + strip[0], -n - 0.55), strip[1] - strip[0], n + 0.55, facecolor=TUNNEL, edgecolor="none")
        )
        ax.text(col + 0.5, -n - 0.25, f"tunnel {t}", ha="center", va="center", fontsize=LABEL_PT)
    for s, (t, mags) in enumerate(zip(board.slider_tunnels, board.magnets)):
        col = board.tunnels[t]
        ax.text(col + 0.5, -n - 0.6, f"slider {s}", ha="center", va="center", fontsize=LABEL_PT, weight="bold")
        for kk in mags:
            ax.add_patch(Circle((col + sum(strip) / 2, -kk - 0.5), 0.07, color="#222222", zorder=4))
    for c in range(n * n):
        r, k = divmod(c, n)
        w = board.walls[c]
        if w & 2 and k < n - 1:
            ax.plot([k + 1, k + 1], [-r, -r - 1], color=WALL, linewidth=3, solid_capstyle="round")
        if w & 4 and r < n - 1:
            ax.plot([k, k + 1], [-r - 1, -r - 1], color=WALL, linewidth=3, solid_capstyle="round")
    ax.plot([0, n, n, 0, 0], [0, 0, -n, -n, 0], color=WALL, linewidth=4)
    pr, pk = divmod(24, n)
    ax.add_patch(Circle((pk + 0.5, -pr - 0.5), 0.3, color="#555555"))
    ax.text(pk + 0.5, -pr - 0.5, "plug", ha="center", va="center", color="white", fontsize=SMALL_PT)
    from sim.games.turnwall import COLOURS as GHOSTS  # the board file's ghost order (seat i plays ghost i)

    for g, c in enumerate(board.corners):
        r, k = divmod(c, n)
        ax.add_patch(
            Rectangle((k + 0.2, -r - 0.92), 0.72, 0.84, facecolor=PIECE[GHOSTS[g]], alpha=0.55, edgecolor="none")
        )
    for gm, c in enumerate(board.garment_cells):
        r, k = divmod(c, n)
        part = gm // 4
        name = "\n".join(textwrap.wrap(board.garment_names[gm], 9, break_long_words=False))
        ax.text(
            k + 0.58,
            -r - 0.38,
            name,
            ha="center",
            va="center",
            fontsize=SMALL_PT,
            color=PART_COLOURS[part],
            linespacing=1.0,
        )
        ax.text(
            k + 0.58,
            -r - 0.86,
            board.parts[part],
            ha="center",
            va="center",
            fontsize=SMALL_PT,
            style="italic",
            color=PART_COLOURS[part],
        )
    for r in range(n):
        ax.text(-0.12, -r - 0.5, str(r), ha="right", va="center", fontsize=LABEL_PT)
        ax.text(r + 0.5, 0.1, str(r), ha="center", va="bottom", fontsize=LABEL_PT)
    ax.set_xlim(-0.45, n + 0.05)
    ax.set_ylim(-n - 0.8, 0.45)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(f"{board.name}: {board.n_rooms} rooms, 20 garments (UNVERIFIED unless measured)", fontsize=TITLE_PT)
    _legend(
        fig,
        [
            _stroke(WALL, "wall: a ghost cannot walk through it", lw=3),
            _swatch(ROOM_SHADES[0], "one room (the room next door in the other shade)"),
            _swatch(TUNNEL, "tunnel under the floor, where a slider runs", edge="none"),
            _swatch("#555555", "plug: no ghost stands on it; a ghost pushed against it stops", edge="none"),
            _stroke(
                "#222222",
                "magnet on a slider (sliders pushed all the way in): it holds the ghost "
                "standing above it and carries it when the slider moves",
                ls="none",
                marker="o",
            ),
            _swatch(
                "#ffffff", "garment on its space: its name, and in italics the body part it dresses", edge="#ffffff"
            ),
        ]
        + [
            _swatch(PIECE[GHOSTS[g]], f"start of seat {g}: the {GHOSTS[g]} ghost's corner", edge="none", alpha=0.55)
            for g in range(len(board.corners))
        ],
        ncols=2,
    )
    return fig


def _outside_angle(board, polar: dict, n_rooms: int) -> float:
    """Angle (radians) at which outside goes, on a ring beyond the rooms: towards the squares it joins (their
    circular mean), halfway between the two rooms nearest to that, so its line passes between rooms instead of
    through one. ``polar``: node -> (radius, angle) of every room and hallway square."""
    near = [b if a == 0 else a for a, b, _ in board.edges if 0 in (a, b) and a != b]
    if not near:
        return -math.pi / 2
    mean = math.atan2(sum(math.sin(polar[v][1]) for v in near), sum(math.cos(polar[v][1]) for v in near))
    step = 2 * math.pi / n_rooms  # rooms at pi/2 - k * step; halfway points between them
    k = round((math.pi / 2 - mean) / step - 0.5)
    return math.pi / 2 - (k + 0.5) * step


def house_positions(board) -> dict[int, tuple[float, float]]:
    """Node number (kernels.treasure_hunters.board) -> (x, y) in `house_figure`: rooms on the unit circle, hallway
    squares in their listed order on a ring of radius 0.62, outside at (0, -1.42); everything turned so that
    outside's line passes between two rooms (`_outside_angle`)."""
    from sim.games._boards import N_ROOMS

    nh = len(board.hallway)
    polar = {1 + r: (1.0, math.pi / 2 - 2 * math.pi * r / N_ROOMS) for r in range(N_ROOMS)}
    polar.update({1 + N_ROOMS + i: (0.62, math.pi / 2 - 2 * math.pi * (i + 0.5) / max(nh, 1)) for i in range(nh)})
    turn = -math.pi / 2 - _outside_angle(board, polar, N_ROOMS)
    pos = {0: (0.0, -1.42)}
    pos.update({v: (rad * math.cos(a + turn), rad * math.sin(a + turn)) for v, (rad, a) in polar.items()})
    return pos


def house_figure(board):
    """The Treasure Hunters house (kernels.treasure_hunters.board.Board) as a graph: rooms on a circle, the hallway
    squares on an inner ring in their listed order, outside below (the drawing turned so that outside's line passes
    between two rooms, `_outside_angle`); door colours as line colours; a key below."""
    from sim.games._boards import N_ROOMS, ROOM_LETTERS

    fig, (ax,) = _board_figure(8.4, 9.2)
    nh = len(board.hallway)
    pos = house_positions(board)
    for a, c, col in board.edges:
        (x0, y0), (x1, y1) = pos[a], pos[c]
        ax.plot([x0, x1], [y0, y1], color=DOOR_COLOURS[col], linewidth=2.2 if col else 1.2, zorder=1)
    for v, (x, y) in pos.items():
        if v == 0:
            label, face = "outside", "#ffffff"
        elif v <= N_ROOMS:
            r = v - 1
            label = (
                ROOM_LETTERS[r]
                + (" \u25c6" if r in board.jewel_rooms else "")
                + (" g" if r in board.ghost_start_rooms else "")
            )
            face = JEWEL_ROOM if r in board.jewel_rooms else ROOM
        else:
            label, face = board.hallway[v - 1 - N_ROOMS], "#ffffff"
        ax.text(
            x,
            y,
            label,
            ha="center",
            va="center",
            fontsize=SMALL_PT if v > N_ROOMS else LABEL_PT + 1,
            zorder=3,
            bbox=dict(boxstyle="round,pad=0.25", facecolor=face, edgecolor="#777777"),
        )
    ax.set_xlim(-1.2, 1.2)
    ax.set_ylim(-1.55, 1.15)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(
        f"{board.name}: {N_ROOMS} rooms (A..{ROOM_LETTERS[N_ROOMS - 1]}), {nh} hallway squares, outside",
        fontsize=TITLE_PT,
    )
    _legend(
        fig,
        [
            _swatch(JEWEL_ROOM, "\u25c6 room where a jewel lies at the start"),
            _swatch(ROOM, "room without a jewel"),
            _swatch("#ffffff", "hallway square (H1, H2, ...; each counts as a space)"),
            _swatch("#ffffff", "g: a ghost is put in this room at the start", edge="#ffffff"),
            _stroke(
                DOOR_COLOURS[0], "a step: hallway to hallway, or through an uncoloured door (never locked)", lw=1.2
            ),
            _stroke(DOOR_COLOURS[1], "blue door: locked while a blue Door card is out", lw=2.2),
            _stroke(DOOR_COLOURS[2], "green door: locked while a green Door card is out", lw=2.2),
            _swatch("#ffffff", "outside: hunters start here and bring the jewels here"),
        ],
        ncols=2,
    )
    return fig


# drawings made by board_plots in this process: (figure function, id of the board) -> (board, svg). The game's
# loader returns one Board object per file version (kernels.boardfile caches by path and modification time), so a
# board drawn once (every scenario of `make run` on the default board: 0.15-0.4 s each) is not drawn again, and an
# edited file is a new Board, drawn anew. The board is kept with its drawing so its id is never reused.
_DRAWN: dict[tuple, tuple[object, str]] = {}


def board_plots(s: dict) -> list[tuple[str, str, str]]:
    """The board a report's scenario played, as a plot entry [(name, caption, svg)] for the report's Scenario
    section (sim.pages.html_report); empty when the game has no board file or it cannot be read here. A board already
    drawn in this process is not drawn again (`_DRAWN`)."""
    from sim.model import registry

    sc = s.get("scenario") or {}
    spec = registry.get(sc["game"]) if isinstance(sc.get("game"), str) else None
    ref = (sc.get("params") or {}).get(spec.board.param) if spec is not None and spec.board is not None else None
    if ref is None:
        return []
    load_board, figure, noun = _drawing(sc["game"])
    try:
        board = load_board(str(ref))
        key = (figure, id(board))
        if key not in _DRAWN:
            _DRAWN[key] = (board, to_svg(figure(board)))
        return [("board", f"{noun} played ({ref})", _DRAWN[key][1])]
    except (OSError, ValueError):
        return []


KIND_FACE = {
    "land": "#e8dcb5",
    "land_arrow": "#d9b86a",
    "cave": "#8c7a5b",
    "hideout": "#ffffff",
    "deck": "#c79a63",
    "deck_arrow": "#b07a3a",
    "plank": "#a0703a",
    "cabin": "#7b4f2a",
    "captain": "#4a2c16",
    "whirlpool": "#1f8f8f",
    "rock": "#777777",
}


KIND_WORDS = {
    "land": "land space",
    "land_arrow": "land arrow: the step between the shore and the ship",
    "cave": "cave entrance: go from one to another as one step",
    "deck": "deck space on the ship",
    "deck_arrow": "deck arrow: the step between the ship and the shore",
    "plank": "the plank",
    "cabin": "cabin: a treasure chest is inside",
    "captain": "captain's cabin: keys, pistols, the parrot",
    "whirlpool": "whirlpool: where a pirate thrown overboard lands",
    "rock": "rock: where the rescued pirate waits",
}
CANNON = "#c8423c"
DARK_KINDS = ("cabin", "captain", "cave", "whirlpool", "rock")


def galleon_figure(board):
    """The Ghostly Galleon board (kernels.galleon.board.Board): every space at its ``xy`` (y down), coloured by kind
    (hideouts in their seat's colour) and labelled with its id; edges solid, stairs dashed, cave links and
    whirlpool - rock - shore dotted; each cannon a numbered red triangle just outside the ship beside the space it
    is fired from; a key below says what each colour, line and cannon means (which quarter each cannon reaches)."""
    from sim.games._boards import KINDS, QUARTERS, SHIP_KINDS
    from sim.games.galleon import COLOURS as PIRATES  # seat i plays the pirate of colour i

    xy = board.xy
    xs, ys = [p[0] for p in xy], [p[1] for p in xy]
    w, h = max(xs) - min(xs) + 2, max(ys) - min(ys) + 2.4
    fig, (ax,) = _board_figure(9.6, 9.6 * h / w + 1.6)
    stairs = {tuple(sorted(e)) for e in board.stairs}
    for a, b in board.edges:
        dashed = tuple(sorted((a, b))) in stairs
        ax.plot(
            [xy[a][0], xy[b][0]],
            [-xy[a][1], -xy[b][1]],
            color="#555555",
            linewidth=1.0,
            linestyle="--" if dashed else "-",
            zorder=1,
        )
    for a, b in board.cave_links:
        ax.plot(
            [xy[a][0], xy[b][0]],
            [-xy[a][1], -xy[b][1]],
            color=KIND_FACE["cave"],
            linewidth=0.9,
            linestyle=":",
            zorder=1,
        )
    for wp, r, s in board.whirlpools:
        ax.plot(
            [xy[wp][0], xy[r][0], xy[s][0]],
            [-xy[wp][1], -xy[r][1], -xy[s][1]],
            color=KIND_FACE["whirlpool"],
            linewidth=0.9,
            linestyle=":",
            zorder=1,
        )
    for v in range(board.n):
        k = KINDS[board.kinds[v]]
        face = PIECE[PIRATES[board.owner[v]]] if k == "hideout" else KIND_FACE[k]
        ax.text(
            xy[v][0],
            -xy[v][1],
            board.ids[v],
            ha="center",
            va="center",
            fontsize=SMALL_PT,
            zorder=3,
            color="#ffffff" if k in DARK_KINDS or k == "hideout" else "#000000",
            bbox=dict(boxstyle="round,pad=0.2", facecolor=face, edgecolor="#555555", linewidth=0.4),
        )
    ship = [xy[v] for v in range(board.n) if board.kinds[v] in SHIP_KINDS]
    cx, cy = sum(p[0] for p in ship) / len(ship), sum(p[1] for p in ship) / len(ship)
    for i, (v, _q) in enumerate(board.cannons):  # outside the ship: bow cannons above, stern cannons below
        x, y = xy[v]
        out = -1 if y < cy else 1  # board y grows downwards
        side = -1 if x < cx else 1
        ax.plot(
            [x],
            [-(y + 0.52 * out)],
            marker="^" if out < 0 else "v",
            color=CANNON,
            markersize=8,
            zorder=4,
            linestyle="none",
        )
        ax.text(
            x + 0.22 * side,
            -(y + 0.52 * out),
            str(i),
            ha="left" if side > 0 else "right",
            va="center",
            fontsize=LABEL_PT,
            color=CANNON,
            weight="bold",
        )
    ax.set_xlim(min(xs) - 1, max(xs) + 1)
    ax.set_ylim(-max(ys) - 1.2, -min(ys) + 1.2)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(f"{board.name}: {board.n} spaces (UNVERIFIED unless measured)", fontsize=TITLE_PT)
    kinds = sorted({KINDS[k] for k in board.kinds} - {"hideout"}, key=KINDS.index)
    handles = [_swatch(KIND_FACE[k], KIND_WORDS[k]) for k in kinds]
    handles += [
        _swatch(
            PIECE[PIRATES[board.owner[v]]],
            f"the {PIRATES[board.owner[v]]} pirate's hideout (seat {board.owner[v]}): its start, and home for its gold",
        )
        for v in board.hideouts
    ]
    handles += [
        _stroke("#555555", "path: one step for one pip of the dice"),
        _stroke("#555555", "stairs between decks: one step", ls="--"),
        _stroke(KIND_FACE["cave"], "through the caves: one step", lw=1.2, ls=":"),
        _stroke(KIND_FACE["whirlpool"], "overboard: whirlpool, then rock, then back to the shore", lw=1.2, ls=":"),
    ]
    quarter = {"NW": "top-left", "NE": "top-right", "SW": "bottom-left", "SE": "bottom-right"}
    handles += [
        _stroke(
            CANNON,
            f"cannon {i}: the ghost fires it from {board.ids[v]} at the "
            f"{quarter.get(QUARTERS[q], QUARTERS[q])} quarter",
            ls="none",
            marker="^",
            ms=7,
        )
        for i, (v, q) in enumerate(board.cannons)
    ]
    _legend(fig, handles, ncols=3)
    return fig
