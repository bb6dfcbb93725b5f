"""Board files (Turnwall castle, Treasure Hunters house, Galleon bay): validation messages and the SVG drawings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli.main import EXIT_BAD_INPUT, app
from sim.pages import board_svg, plots, templating
from tests.sim._cli import one_error_line

REPO = Path(__file__).resolve().parents[2]
cli = CliRunner()
TH = REPO / "scenarios" / "treasure_hunters"
BOARD_GAMES = ("turnwall", "treasure_hunters", "galleon")


def _board_figure(game: str, monkeypatch):
    """The matplotlib figure behind the report's drawing of ``game``'s shipped board (captured at to_svg)."""
    got = []

    def keep(fig):
        got.append(fig)
        return "<svg/>"

    monkeypatch.setattr(board_svg, "to_svg", keep)
    board_svg.show(REPO / "scenarios" / game / "boards" / "default.toml")
    return got[0]


def _drawn(fig):
    """(renderer, [(text artist, display box)], [(symbol artist, display box)]) after drawing ``fig`` with the
    report's rc settings; a labelled text's box includes its rounded frame; symbols are marker-only lines and
    circles (magnets, the plug)."""
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.patches import Circle
    from matplotlib.transforms import Bbox

    with matplotlib.rc_context(plots.RC):
        r = FigureCanvasAgg(fig).get_renderer()
        fig.draw(r)
        texts = list(fig.texts)
        for leg in list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend()]:
            texts += [t for t in leg.get_texts()]
        for ax in fig.axes:
            texts += list(ax.texts) + [ax.title]
        boxes = []
        for t in texts:
            if not t.get_visible() or not t.get_text().strip():
                continue
            b = t.get_window_extent(r)
            if t.get_bbox_patch() is not None:
                b = Bbox.union([b, t.get_bbox_patch().get_window_extent(r)])
            boxes.append((t, b))
        symbols = []
        for ax in fig.axes:
            symbols += [
                (ln, ln.get_window_extent(r))
                for ln in ax.lines
                if ln.get_marker() not in (None, "None", "", " ") and ln.get_linestyle() in ("None", "", " ")
            ]
            symbols += [(p, p.get_window_extent(r)) for p in ax.patches if isinstance(p, Circle)]
    return r, boxes, symbols


def _overlap(a, b, slack: float = -2.0) -> bool:
    """Whether boxes a and b come closer than 2 px (at 100 dpi: labels need a gap to read as two)."""
    return (min(a.x1, b.x1) - max(a.x0, b.x0) > slack) and (min(a.y1, b.y1) - max(a.y0, b.y0) > slack)


def _shown_px(svg: str) -> float:
    """The width in CSS px the report page shows the board drawing at: its natural size (pt = 4/3 px) capped by
    the page's rule for the board figure (else by the page's width)."""
    natural = float(re.search(r'width="([\d.]+)pt"', svg).group(1)) * 4 / 3
    cap = re.search(r"figure#plot-board svg\{max-width:(\d+)px", templating.CSS)
    page = float(re.search(r"body\{[^}]*max-width:(\d+)px", templating.CSS).group(1))
    return min(natural, float(cap.group(1)) if cap else page)


LEGEND_WORDS = {
    "turnwall": ("wall", "magnet", "tunnel", "start of seat", "garment"),
    "treasure_hunters": ("jewel", "ghost", "hallway", "blue door", "green door"),
    "galleon": ("cannon", "stairs", "cave", "whirlpool", "hideout", "cabin"),
}


@pytest.mark.kernel
def test_board_show_of_a_folder_and_a_bad_out_name_the_argument(tmp_path):
    board = REPO / "scenarios" / "turnwall" / "boards" / "default.toml"
    (tmp_path / "adir").mkdir()
    r = cli.invoke(app, ["board", "show", str(tmp_path / "adir")])
    assert r.exit_code == EXIT_BAD_INPUT and "is a folder; give a board .toml file" in one_error_line(r)
    r = cli.invoke(app, ["board", "show", str(board), "--out", str(tmp_path / "adir")])
    assert r.exit_code == EXIT_BAD_INPUT and one_error_line(r).startswith("error: --out: ")
    r = cli.invoke(app, ["board", "show", str(board), "--out", str(tmp_path / "nodir" / "x.svg")])
    line = one_error_line(r)
    assert r.exit_code == EXIT_BAD_INPUT and line.startswith("error: --out: ") and "does not exist" in line


@pytest.mark.kernel
def test_params_board_naming_a_folder_says_it_is_a_folder(tmp_path):
    text = (REPO / "scenarios" / "turnwall" / "4p.toml").read_text()
    (tmp_path / "castles").mkdir()
    p = tmp_path / "s.toml"
    assert 'board = "default"' in text
    p.write_text(text.replace('board = "default"', 'board = "castles"', 1))
    r = cli.invoke(app, ["run", str(p), "--games", "10", "--out", str(tmp_path / "r")])
    line = one_error_line(r)
    assert r.exit_code == EXIT_BAD_INPUT and "params.board: 'castles' is a folder" in line
    assert not (tmp_path / "r").exists()


@pytest.mark.kernel
def test_turnwall_board_size_as_text_is_refused_as_not_an_integer(tmp_path):
    src = (REPO / "scenarios" / "turnwall" / "boards" / "default.toml").read_text()
    p = tmp_path / "b.toml"
    p.write_text(src.replace("size = 7", 'size = "7"', 1))
    r = cli.invoke(app, ["board", "show", str(p), "--out", str(tmp_path / "b.svg")])
    line = one_error_line(r)
    assert r.exit_code == EXIT_BAD_INPUT and "board.size: expected an integer" in line


@pytest.mark.parametrize("drop, says", [("L", "missing room L;"), ("KL", "missing rooms K, L;")])
def test_a_board_missing_rooms_names_them_in_the_right_number(drop, says):
    import tomllib

    from kernels.treasure_hunters import board as B

    doc = tomllib.loads((TH / "boards" / "default.toml").read_text())
    doc["board"]["rooms"] = [r for r in doc["board"]["rooms"] if r not in drop]
    with pytest.raises(Exception, match=says):
        B.parse_board(doc)


@pytest.mark.kernel
def test_board_titles_have_room_above_them():
    from sim.pages import board_svg

    for game in ("galleon", "turnwall", "treasure_hunters"):
        _, svg = board_svg.show(f"scenarios/{game}/boards/default.toml")
        m = re.search(r'<text style="font-size: ([\d.]+)px[^>]*? y="([\d.]+)"[^>]*>candidate: ', svg)
        assert m, game
        size, y = float(m.group(1)), float(m.group(2))
        assert y >= 1.5 * size, f"{game}: title baseline {y} px below the top in a {size} px font"


@pytest.mark.kernel
@pytest.mark.parametrize("game", BOARD_GAMES)
def test_board_drawing_labels_overlap_neither_each_other_nor_the_symbols(game, monkeypatch):
    """Galleon's 'cannon 0: NW' and 'cannon 1: NE' were drawn on top of each other; the castle's magnets sat on the
    garment names. A text may sit inside the symbol it labels (the plug), nowhere else on one."""
    _, boxes, symbols = _drawn(_board_figure(game, monkeypatch))
    clashes = [
        (a.get_text(), b.get_text()) for i, (a, ba) in enumerate(boxes) for b, bb in boxes[i + 1 :] if _overlap(ba, bb)
    ]
    assert clashes == [], f"{game}: overlapping labels {clashes[:6]}"
    on = [
        (t.get_text(), type(s).__name__)
        for t, bt in boxes
        for s, bs in symbols
        if _overlap(bt, bs) and not bs.contains(*bt.get_points().mean(axis=0))
    ]
    assert on == [], f"{game}: labels on symbols {on[:6]}"


@pytest.mark.kernel
@pytest.mark.parametrize("game", BOARD_GAMES)
def test_board_drawing_text_is_at_least_10px_where_the_report_shows_it(game):
    """At the report's size every label of the drawing reads at 10 CSS px or more (the Galleon space ids were
    4.5 pt shown at 460 px: under 4 px)."""
    ((_, _, svg),) = board_svg.board_plots({"scenario": {"game": game, "params": {"board": "default"}}})
    view_w = float(re.search(r'viewBox="0 0 ([\d.]+) ', svg).group(1))
    sizes = [float(x) for x in re.findall(r"font-size: ([\d.]+)px", svg)]
    assert sizes
    smallest = min(sizes) * _shown_px(svg) / view_w
    assert smallest >= 10.0, f"{game}: smallest text {smallest:.1f} px"


@pytest.mark.kernel
@pytest.mark.parametrize("game", BOARD_GAMES)
def test_board_drawing_has_a_legend_for_its_symbols(game, monkeypatch):
    fig = _board_figure(game, monkeypatch)
    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend()]
    words = " ".join(t.get_text() for leg in legends for t in leg.get_texts()).lower()
    missing = [w for w in LEGEND_WORDS[game] if w not in words]
    assert missing == [], f"{game}: the legend does not explain {missing}"


def test_house_drawing_outside_line_passes_between_rooms_not_through_one():
    """A new user read the front door as being in room G: outside's line to H1 went straight through G's box."""
    import math

    from kernels.treasure_hunters.board import N_ROOMS, load_board

    board = load_board("default")
    pos = board_svg.house_positions(board)
    assert pos[0] == (0.0, -1.42)  # outside stays below
    for a, b, _ in board.edges:
        if 0 not in (a, b):
            continue
        (x0, y0), (x1, y1) = pos[0], pos[b if a == 0 else a]
        for r in range(1, N_ROOMS + 1):
            px, py = pos[r]
            t = max(0.0, min(1.0, ((px - x0) * (x1 - x0) + (py - y0) * (y1 - y0)) / ((x1 - x0) ** 2 + (y1 - y0) ** 2)))
            assert math.hypot(px - x0 - t * (x1 - x0), py - y0 - t * (y1 - y0)) > 0.15, f"passes room {r}"


@pytest.mark.kernel
def test_board_show_on_a_terminal_writes_a_file_and_says_where(tmp_path, monkeypatch):
    from sim.cli import board as C

    board = REPO / "scenarios" / "galleon" / "boards" / "default.toml"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(C, "stdout_is_terminal", lambda: True)
    r = cli.invoke(app, ["board", "show", str(board)])
    assert r.exit_code == 0 and "<svg" not in r.stdout, r.output
    out = tmp_path / "galleon-default.board.svg"  # GAME-NAME: every game ships a default.toml
    assert out.read_text().startswith("<svg") and f"drawn to {out}" in r.stderr
    monkeypatch.setattr(C, "stdout_is_terminal", lambda: False)  # piped or redirected: the SVG on stdout
    assert cli.invoke(app, ["board", "show", str(board)]).stdout.startswith("<svg")
