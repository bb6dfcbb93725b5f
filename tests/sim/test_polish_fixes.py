"""Fourth round of what a first-time user hit: board drawings too small to read (Galleon's cannon labels on top of
each other), few-valued score distributions drawn as step lines, `sim run-defaults --game X` dropping the other
games from reports/index.html, --games 0 and a huge --games wording the allowed range differently, and the Moor
scores section sending the reader to a source file instead of saying how a score is made."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.pages import board_svg, html_report, plots
from sim.cli.main import EXIT_USAGE, app

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"
BOARD_GAMES = ("turnwall", "treasure_hunters", "galleon")
cli = CliRunner()


# --- 1. board drawings legible at the size the report shows them --------------------------------------------------

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
    from matplotlib.lines import Line2D
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
            symbols += [(ln, ln.get_window_extent(r)) for ln in ax.lines
                        if ln.get_marker() not in (None, "None", "", " ") and ln.get_linestyle() in ("None", "", " ")]
            symbols += [(p, p.get_window_extent(r)) for p in ax.patches if isinstance(p, Circle)]
    return r, boxes, symbols


def _overlap(a, b, slack: float = -2.0) -> bool:
    """Whether boxes a and b come closer than 2 px (at 100 dpi: labels need a gap to read as two)."""
    return (min(a.x1, b.x1) - max(a.x0, b.x0) > slack) and (min(a.y1, b.y1) - max(a.y0, b.y0) > slack)


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_board_drawing_labels_overlap_neither_each_other_nor_the_symbols(game, monkeypatch):
    """Galleon's 'cannon 0: NW' and 'cannon 1: NE' were drawn on top of each other; the castle's magnets sat on the
    garment names. A text may sit inside the symbol it labels (the plug), nowhere else on one."""
    _, boxes, symbols = _drawn(_board_figure(game, monkeypatch))
    clashes = [(a.get_text(), b.get_text()) for i, (a, ba) in enumerate(boxes) for b, bb in boxes[i + 1:]
               if _overlap(ba, bb)]
    assert clashes == [], f"{game}: overlapping labels {clashes[:6]}"
    on = [(t.get_text(), type(s).__name__) for t, bt in boxes for s, bs in symbols
          if _overlap(bt, bs) and not bs.contains(*bt.get_points().mean(axis=0))]
    assert on == [], f"{game}: labels on symbols {on[:6]}"


def _shown_px(svg: str) -> float:
    """The width in CSS px the report page shows the board drawing at: its natural size (pt = 4/3 px) capped by
    the page's rule for the board figure (else by the page's width)."""
    natural = float(re.search(r'width="([\d.]+)pt"', svg).group(1)) * 4 / 3
    cap = re.search(r"figure#plot-board svg\{max-width:(\d+)px", html_report.CSS)
    page = float(re.search(r"body\{[^}]*max-width:(\d+)px", html_report.CSS).group(1))
    return min(natural, float(cap.group(1)) if cap else page)


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


LEGEND_WORDS = {"turnwall": ("wall", "magnet", "tunnel", "start of seat", "garment"),
                "treasure_hunters": ("jewel", "ghost", "hallway", "blue door", "green door"),
                "galleon": ("cannon", "stairs", "cave", "whirlpool", "hideout", "cabin")}


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_board_drawing_has_a_legend_for_its_symbols(game, monkeypatch):
    fig = _board_figure(game, monkeypatch)
    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend()]
    words = " ".join(t.get_text() for leg in legends for t in leg.get_texts()).lower()
    missing = [w for w in LEGEND_WORDS[game] if w not in words]
    assert missing == [], f"{game}: the legend does not explain {missing}"


# --- 2. few-valued score distributions as bars -----------------------------------------------------------------------

def _score_summary(game: str, lo: int, counts: list[list[int]], strategy: str) -> dict:
    seats = []
    for i, c in enumerate(counts):
        n = sum(c)
        vals = [lo + k for k, x in enumerate(c) for _ in range(x)]
        seats.append({"seat": i, "strategy": strategy, "score": {
            "n": n, "min": min(vals), "max": max(vals), "mean": sum(vals) / n, "hist": {"lo": lo, "counts": c}}})
    return {"scenario": {"game": game, "params": {}, "seats": [{"strategy": strategy}] * len(counts)},
            "seats": seats}


def test_few_valued_score_distributions_are_drawn_as_bars():
    """Turnwall scores 1..5 body parts: one bar per seat and score, side by side, on whole-number ticks."""
    s = _score_summary("turnwall", 1, [[2, 10, 32, 37, 19], [1, 9, 33, 38, 19]], "planner")
    fig = plots.scores(s)
    (ax,) = fig.axes
    assert len(ax.patches) == 2 * 5
    assert not [ln for ln in ax.lines if ln.get_drawstyle().startswith("steps")]
    ticks = [t for t in ax.get_xticks() if 1 <= t <= 5]
    assert ticks and all(float(t).is_integer() for t in ticks)


def test_many_valued_score_distributions_keep_their_step_lines():
    s = _score_summary("moor", -10, [[1] * 40, [2] * 40], "weighted")
    (ax,) = plots.scores(s).axes
    assert not ax.patches and len(ax.lines) == 2


# --- 3. the index keeps the other games' reports -------------------------------------------------------------------

def test_run_defaults_of_one_game_keeps_the_other_games_reports_in_the_index(tmp_path, monkeypatch):
    """`sim run-defaults --game moor` after `--game treasure_hunters`: reports/index.html lists both games' reports
    (the index is the table of contents of the reports folder, not of the last command)."""
    from sim.api import core as api
    from sim.cli import main as cli, common as cli_common
    scen = tmp_path / "scenarios"
    (scen / "moor").mkdir(parents=True)
    (scen / "treasure_hunters").mkdir()
    shutil.copy(DATA / "moor-2p-small.toml", scen / "moor" / "small.toml")
    shutil.copy(DATA / "th-basic-4p-shuffle.toml", scen / "treasure_hunters" / "shuffle.toml")
    for mod in (cli, cli_common):
        monkeypatch.setattr(mod, "SCENARIOS", scen)
    monkeypatch.setattr("sim.model.paths.REPORTS", tmp_path / "reports")
    for game in ("treasure_hunters", "moor"):
        r = CliRunner().invoke(app, ["run-defaults", "--game", game, "--games", "60"])
        assert r.exit_code == 0, r.output
    html = (tmp_path / "reports" / "index.html").read_text()
    assert 'href="th-basic-4p/summary.html"' in html and 'href="test-moor-2p/summary.html"' in html
    assert html.index("test-moor-2p") < html.index("th-basic-4p")         # by game, as the scenarios folder


def test_index_skips_a_folder_without_a_readable_report(tmp_path):
    from sim.pages import index_page
    (tmp_path / "half").mkdir()
    (tmp_path / "half" / "summary.json").write_text("{not json")
    (tmp_path / "baselines").mkdir()
    html = index_page.write([], [], tmp_path).read_text()
    assert "half" not in html and "baselines" not in html


# --- 4. --games: one range in one wording ----------------------------------------------------------------------------

def test_games_zero_and_huge_say_the_same_range_in_the_same_words(tmp_path):
    from sim.model.scenario import MAX_GAMES
    said = []
    for v in ("0", str(MAX_GAMES + 1)):
        r = cli.invoke(app, ["run", str(DATA / "moor-2p-small.toml"), "--games", v, "--out", str(tmp_path / "o")])
        assert r.exit_code == EXIT_USAGE
        said.append(r.stderr.strip().split("; ", 1)[1])
    p = tmp_path / "zero.toml"
    p.write_text((DATA / "moor-2p-small.toml").read_text().replace("games = 4000", "games = 0"))
    r = cli.invoke(app, ["run", str(p), "--out", str(tmp_path / "o")])
    said.append(r.stderr.strip().split("; ", 1)[1])
    assert len(set(said)) == 1, said
    assert said[0] == f"allowed 1..{MAX_GAMES:,}"


# --- 5. the Moor scores section says how a score is made ------------------------------------------------------------

def test_moor_scores_section_says_how_a_score_is_made_without_sending_the_reader_to_a_source_file(tmp_path):
    r = cli.invoke(app, ["run", str(DATA / "moor-2p-small.toml"), "--games", "200", "--out", str(tmp_path / "r")])
    assert r.exit_code == 0, r.output
    s = json.loads((tmp_path / "r" / "summary.json").read_text())
    (scores,) = [x for x in html_report.sections(s) if x["id"] == "scores"]
    intro = scores["intro"]
    first = intro.split(". ")[0]
    assert "RULES.md" not in first and "kernels/" not in first
    for w in ("goal token", "1/3/6/10/15", "ghost"):
        assert w in first, (w, first)
    page = (tmp_path / "r" / "summary.html").read_text()
    sec = page[page.index('id="scores"'):]
    assert "kernels/moor/RULES.md" not in sec[:sec.index("</section>")]


def test_margin_distribution_has_whole_number_ticks_and_separate_bars():
    """Turnwall's winner's margin is 1 or 2 body parts: no tick at 0.75 or 1.25, and bars that do not touch."""
    from sim.api import core as api
    from tests.kernels.tables import table
    s, _ = api.run_scenario(table("turnwall", "margin", 4, ["planner"], 300, 5), write=False)
    (ax,) = plots.margin(s).axes
    lo, hi = ax.get_xlim()
    ticks = [t for t in ax.get_xticks() if lo <= t <= hi]
    assert ticks and all(float(t).is_integer() for t in ticks)
    assert all(p.get_width() < 1.0 for p in ax.patches)


def test_house_drawing_outside_line_passes_between_rooms_not_through_one():
    """A new user read the front door as being in room G: outside's line to H1 went straight through G's box."""
    import math
    from kernels.treasure_hunters.board import N_ROOMS, load_board
    board = load_board("default")
    pos = board_svg.house_positions(board)
    assert pos[0] == (0.0, -1.42)                                  # outside stays below
    for a, b, _ in board.edges:
        if 0 not in (a, b):
            continue
        (x0, y0), (x1, y1) = pos[0], pos[b if a == 0 else a]
        for r in range(1, N_ROOMS + 1):
            px, py = pos[r]
            t = max(0.0, min(1.0, ((px - x0) * (x1 - x0) + (py - y0) * (y1 - y0)) / ((x1 - x0) ** 2 + (y1 - y0) ** 2)))
            assert math.hypot(px - x0 - t * (x1 - x0), py - y0 - t * (y1 - y0)) > 0.15, f"passes room {r}"


def test_a_long_game_length_histogram_is_drawn_in_wider_bins():
    """A new user found 2,000 Galleon games drawn as one bar per turn (40 to 1,200 turns): spiky noise. At most 80
    bins of a round width, every game kept, bins starting at multiples of the width."""
    import numpy as np
    x = 13 + np.arange(1184)
    c = np.random.default_rng(1).integers(0, 5, size=1184).astype(float)
    w, xb, cb = plots.coarsen(x, c)
    assert w == 20 and len(cb) <= 80 and cb.sum() == c.sum()
    assert xb[0] == 9.5 and cb[0] == c[:7].sum()                   # the first bin holds turns 13..19
    assert plots.coarsen(x[:70], c[:70])[0] == 1                   # a short range keeps one bar per value


def test_an_accented_scenario_name_is_refused_saying_letters_without_accents(tmp_path):
    """A new user named a scenario "ünï" and was told to "use letters": the rule now says which letters."""
    from sim.model.scenario import ScenarioError, load
    src = Path(__file__).resolve().parents[2] / "scenarios/moor/4p.toml"
    f = tmp_path / "acc.toml"
    f.write_text(src.read_text().replace('name = "moor-4p"', 'name = "ünï"'), encoding="utf-8")
    with pytest.raises(ScenarioError, match="scenario.name.*a-z and A-Z without accents"):
        load(f)
