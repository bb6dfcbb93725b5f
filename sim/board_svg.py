"""`sim board show`: a board file drawn as one SVG so a designer can check it by eye (matplotlib, via sim.plots).

Turnwall castle: the 7 x 7 grid with its walls and rooms, the plug, the coloured start corners, the 20 garments with
their body part, the tunnels under the floor columns (start orientation) and the sliders with their magnets.
Treasure Hunters house: rooms and hallway squares as a graph, doors in their colours, the front door, jewel and
ghost start rooms.
Ghostly Galleon bay and ship: every space at its drawing position coloured by kind, edges, stairs (dashed), cave links
(dotted), the hideouts in their seat colours, cannons with the quarter they reach, whirlpools with rock and shore.
"""
from __future__ import annotations

import math
import tomllib
from pathlib import Path

from sim.plots import _figure, to_svg

GHOST_COLOURS = ("#3f9b4a", "#c8423c", "#e0b423", "#3b6ea8")
PART_COLOURS = ("#7d5fa6", "#d9822b", "#3b6ea8", "#4f9a57", "#b5464b", "#8c6d4f")
DOOR_COLOURS = {0: "#555555", 1: "#2f6fd6", 2: "#2e9c48"}


class BoardFileError(ValueError):
    """The file is not a board of a known game, or the game's loader refused it (one line)."""


def game_of(path: Path) -> str:
    """'turnwall', 'treasure_hunters' or 'galleon', from the tables the file holds."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BoardFileError(f"{path}: no such board file") from None
    except IsADirectoryError:
        raise BoardFileError(f"{path}: is a folder; give a board .toml file") from None
    except OSError as e:
        raise BoardFileError(f"{path}: cannot read the board file ({e.strerror or e})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise BoardFileError(f"{path}: not valid TOML ({e})") from None
    if "floor" in data:
        return "turnwall"
    if "cannons" in data or "whirlpools" in data:
        return "galleon"
    if isinstance(data.get("board"), dict) and "hallway" in data["board"]:
        return "treasure_hunters"
    raise BoardFileError(f"{path}: not a board file of a known game (a Turnwall castle has [board] and [floor], a "
                         f"Treasure Hunters house [board] with hallway and doors, a Galleon bay [board] with [[cannons]] and "
                         f"[[whirlpools]])")


def _drawing(game: str):
    """(the game's board loader, its drawing function, what the board is called in a caption)."""
    import importlib
    loader = importlib.import_module(f"kernels.{game}.board").load_board
    if game == "turnwall":
        return loader, castle_svg, "the castle"
    if game == "galleon":
        return loader, galleon_svg, "the bay and ship"
    return loader, house_svg, "the house"


def show(path: str | Path) -> tuple[str, str]:
    """(game, SVG text) of the board file at ``path``; raises BoardFileError (one line)."""
    from kernels.boardfile import BoardError
    path = Path(path)
    game = game_of(path)
    load_board, svg, _ = _drawing(game)
    try:
        return game, svg(load_board(str(path.resolve())))
    except BoardError as e:
        raise BoardFileError(str(e)) from None


def castle_svg(board) -> str:
    """The Turnwall castle (kernels.turnwall.board.Board) in its start orientation."""
    from matplotlib.patches import Circle, Rectangle
    fig, (ax,) = _figure(7.2, 8.2)
    n = 7
    for c in range(n * n):
        r, k = divmod(c, n)
        shade = "#f4f1ea" if board.room_of[c] % 2 == 0 else "#e9e4d8"
        ax.add_patch(Rectangle((k, -r - 1), 1, 1, facecolor=shade, edgecolor="#d0cbbf", linewidth=0.5))
    for t, col in enumerate(board.tunnels):             # tunnels under the floor (start orientation)
        ax.add_patch(Rectangle((col + 0.42, -n - 0.9), 0.16, n + 0.9, facecolor="#bbbbbb", alpha=0.35,
                               edgecolor="none"))
        ax.text(col + 0.5, -n - 1.05, f"tunnel {t}", ha="center", va="top", fontsize=6)
    for s, (t, mags) in enumerate(zip(board.slider_tunnels, board.magnets)):
        col = board.tunnels[t]
        ax.text(col + 0.5, -n - 1.45, f"slider {s}", ha="center", va="top", fontsize=6, weight="bold")
        for kk in mags:
            ax.add_patch(Circle((col + 0.5, -kk - 0.5), 0.07, color="#222222", zorder=4))
    for c in range(n * n):
        r, k = divmod(c, n)
        w = board.walls[c]
        if w & 2 and k < n - 1:
            ax.plot([k + 1, k + 1], [-r, -r - 1], color="#3a2e1f", linewidth=3, solid_capstyle="round")
        if w & 4 and r < n - 1:
            ax.plot([k, k + 1], [-r - 1, -r - 1], color="#3a2e1f", linewidth=3, solid_capstyle="round")
    ax.plot([0, n, n, 0, 0], [0, 0, -n, -n, 0], color="#3a2e1f", linewidth=4)
    pr, pk = divmod(24, n)
    ax.add_patch(Circle((pk + 0.5, -pr - 0.5), 0.3, color="#555555"))
    ax.text(pk + 0.5, -pr - 0.5, "plug", ha="center", va="center", color="white", fontsize=6)
    for g, c in enumerate(board.corners):
        r, k = divmod(c, n)
        ax.add_patch(Rectangle((k + 0.08, -r - 0.92), 0.84, 0.84, facecolor=GHOST_COLOURS[g], alpha=0.45,
                               edgecolor="none"))
    for gm, c in enumerate(board.garment_cells):
        r, k = divmod(c, n)
        part = gm // 4
        ax.text(k + 0.5, -r - 0.42, board.garment_names[gm].replace(" ", "\n", 1), ha="center", va="center",
                fontsize=5, color=PART_COLOURS[part])
        ax.text(k + 0.5, -r - 0.85, board.parts[part], ha="center", va="center", fontsize=4.5, style="italic",
                color=PART_COLOURS[part])
    for r in range(n):
        ax.text(-0.15, -r - 0.5, str(r), ha="right", va="center", fontsize=6)
        ax.text(r + 0.5, 0.1, str(r), ha="center", va="bottom", fontsize=6)
    ax.set_xlim(-0.5, n + 0.2)
    ax.set_ylim(-n - 1.8, 0.5)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(f"{board.name}: {board.n_rooms} rooms, 20 garments; dots = magnets (slider cell k under floor row "
                 f"k + pulled out); UNVERIFIED unless measured", fontsize=7)
    return to_svg(fig)


def house_svg(board) -> str:
    """The Treasure Hunters house (kernels.treasure_hunters.board.Board) as a graph: rooms on a circle, the hallway
    squares on an inner ring in their listed order, outside below; door colours as line colours."""
    from kernels.treasure_hunters.board import N_ROOMS, ROOM_LETTERS
    fig, (ax,) = _figure(7.0, 7.0)
    pos = {0: (0.0, -1.45)}
    for r in range(N_ROOMS):
        a = math.pi / 2 - 2 * math.pi * r / N_ROOMS
        pos[1 + r] = (math.cos(a), math.sin(a))
    nh = len(board.hallway)
    for i in range(nh):
        a = math.pi / 2 - 2 * math.pi * (i + 0.5) / max(nh, 1)
        pos[1 + N_ROOMS + i] = (0.55 * math.cos(a), 0.55 * math.sin(a))
    for a, c, col in board.edges:
        (x0, y0), (x1, y1) = pos[a], pos[c]
        ax.plot([x0, x1], [y0, y1], color=DOOR_COLOURS[col], linewidth=2.2 if col else 1.2, zorder=1)
    for v, (x, y) in pos.items():
        if v == 0:
            label, face = "outside", "#ffffff"
        elif v <= N_ROOMS:
            r = v - 1
            label = ROOM_LETTERS[r] + (" J" if r in board.jewel_rooms else "") + (" g" if r in
                                                                                 board.ghost_start_rooms else "")
            face = "#f6e7c1" if r in board.jewel_rooms else "#eeeeee"
        else:
            label, face = board.hallway[v - 1 - N_ROOMS], "#ffffff"
        ax.text(x, y, label, ha="center", va="center", fontsize=6 if v > N_ROOMS else 8, zorder=3,
                bbox=dict(boxstyle="round,pad=0.25", facecolor=face, edgecolor="#777777"))
    ax.set_xlim(-1.3, 1.3)
    ax.set_ylim(-1.65, 1.25)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(f"{board.name}: rooms (J = jewel, g = ghost at start), hallway, outside; door colours: grey none, "
                 f"blue, green", fontsize=7)
    return to_svg(fig)


def board_plots(s: dict) -> list[tuple[str, str, str]]:
    """The board a report's scenario played, as a plot entry [(name, caption, svg)] for the report's Scenario
    section (sim.html_report); empty when the game has no board file or it cannot be read here."""
    sc = s.get("scenario") or {}
    ref = (sc.get("params") or {}).get("board")
    if ref is None or sc.get("game") not in ("turnwall", "treasure_hunters", "galleon"):
        return []
    load_board, svg, noun = _drawing(sc["game"])
    try:
        return [("board", f"{noun} played ({ref})", svg(load_board(str(ref))))]
    except (OSError, ValueError):
        return []


KIND_FACE = {"land": "#e8dcb5", "land_arrow": "#d9b86a", "cave": "#8c7a5b", "hideout": "#ffffff", "deck": "#c79a63",
             "deck_arrow": "#b07a3a", "plank": "#a0703a", "cabin": "#7b4f2a", "captain": "#4a2c16",
             "whirlpool": "#3b78b0", "rock": "#777777"}


def galleon_svg(board) -> str:
    """The Ghostly Galleon board (kernels.galleon.board.Board): every space at its ``xy`` (y down), coloured by kind
    and labelled with its id; edges solid, stairs dashed, cave links dotted; cannons as red triangles on the space
    behind them with the quarter they reach; whirlpool - rock - shore in blue."""
    from kernels.galleon.board import KINDS, QUARTERS
    fig, (ax,) = _figure(8.0, 8.0)
    xy = board.xy
    stairs = {tuple(sorted(e)) for e in board.stairs}
    for a, b in board.edges:
        dashed = tuple(sorted((a, b))) in stairs
        ax.plot([xy[a][0], xy[b][0]], [-xy[a][1], -xy[b][1]], color="#555555", linewidth=1.0,
                linestyle="--" if dashed else "-", zorder=1)
    for a, b in board.cave_links:
        ax.plot([xy[a][0], xy[b][0]], [-xy[a][1], -xy[b][1]], color="#8c7a5b", linewidth=0.8, linestyle=":",
                zorder=1)
    for w, r, s in board.whirlpools:
        ax.plot([xy[w][0], xy[r][0], xy[s][0]], [-xy[w][1], -xy[r][1], -xy[s][1]], color="#3b78b0", linewidth=0.8,
                linestyle=":", zorder=1)
    for v in range(board.n):
        k = KINDS[board.kinds[v]]
        face = GHOST_COLOURS[board.owner[v]] if k == "hideout" else KIND_FACE[k]
        ax.text(xy[v][0], -xy[v][1], board.ids[v], ha="center", va="center", fontsize=4.5, zorder=3,
                color="#ffffff" if k in ("cabin", "captain", "cave", "whirlpool", "rock") else "#000000",
                bbox=dict(boxstyle="round,pad=0.2", facecolor=face, edgecolor="#555555", linewidth=0.4))
    for i, (v, q) in enumerate(board.cannons):
        ax.plot([xy[v][0]], [-xy[v][1] + 0.45], marker="^", color="#c8423c", markersize=5, zorder=4)
        ax.text(xy[v][0], -xy[v][1] + 0.75, f"cannon {i}: {QUARTERS[q]}", ha="center", fontsize=4.5,
                color="#c8423c")
    xs = [p[0] for p in xy]
    ys = [p[1] for p in xy]
    ax.set_xlim(min(xs) - 1, max(xs) + 1)
    ax.set_ylim(-max(ys) - 1, -min(ys) + 1.2)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(f"{board.name}: {board.n} spaces; hideouts in seat colours; dashed = stairs, dotted = caves; "
                 f"UNVERIFIED unless measured", fontsize=7)
    return to_svg(fig)
