"""Writing a report took about half of `make run` (4-7 s a scenario, mostly plots), one test per fix:

1. html_report.write drew every plot twice (once for summary.html, once for balance.md and plots/): drawn once.
2. A histogram of hundreds of bars (a Galleon game lasts 40-600 turns) was one Rectangle artist per bar, walked by
   the layout, by the legend's search for a free spot and by the SVG writer: drawn as one path (`histograms.bars`), with
   the same limits and the legend where it went.
3. Every scenario of `make run` redrew its board (0.15-0.4 s): a board file already drawn in this process is reused.
4. `sim compare` gave no time for writing its pages, and `sim check` no games/s at all: both say the games (games/s of
   the games alone) and the step after them apart, as `sim run` does.
"""

from __future__ import annotations

import io
import json
import re

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.cli.main import app
from sim.pages import board_svg, histograms, html_report, plots

cli = CliRunner()


def _summary(tmp_path, scenario="scenarios/moor/4p.toml", games="64"):
    r = cli.invoke(app, ["run", scenario, "--games", games, "--out", str(tmp_path / "r")])
    assert r.exit_code == 0, r.output
    return json.loads((tmp_path / "r" / "summary.json").read_text())


# --- 1. every plot drawn once a report -----------------------------------------------------------------------------


@pytest.mark.kernel
def test_write_draws_every_plot_once_for_the_page_and_the_markdown(tmp_path, monkeypatch):
    s = _summary(tmp_path)
    drawn = []
    real = plots.render
    monkeypatch.setattr(plots, "render", lambda fn, *a: (drawn.append(fn.__name__), real(fn, *a))[1])
    out = tmp_path / "again"
    out.mkdir()
    html_report.write(out, s)
    assert drawn and len(drawn) == len(set(drawn)), drawn
    page = (out / "summary.html").read_text()
    for f in (out / "plots").iterdir():  # the same drawings on the page and in plots/
        body = f.read_text().strip()
        assert body.startswith("<svg")
        assert plots.scope_ids(body, f"svg-{f.stem}-") in page


@pytest.mark.kernel
def test_page_and_markdown_are_what_they_were_without_drawn_sections(tmp_path):
    s = _summary(tmp_path)
    secs = html_report.sections(s)
    assert html_report.render(s, secs) == html_report.render(s)
    assert html_report.render_markdown(s, secs=secs) == html_report.render_markdown(s)


# --- 2. many bars: one path, same axes and legend ------------------------------------------------------------------


def _hist_figure(x, h, draw):
    """A one-axes figure as plots.length draws one histogram: bars, a dashed mean line with its legend."""
    import matplotlib

    with matplotlib.rc_context(plots.RC):
        fig, (ax,) = plots._figure(3.5, 2.8)
        draw(ax, x, h)
        ax.axvline(float(np.average(x, weights=h)), color="black", lw=1, ls="--", label="mean")
        ax.legend(fontsize=7, frameon=False)
        fig.savefig(io.StringIO(), format="svg")
    return fig, ax


@pytest.mark.parametrize("shape", ["right_skewed", "tall_on_the_right"])
def test_many_bars_are_one_path_with_the_limits_and_legend_spot_of_ax_bar(shape):
    rng = np.random.default_rng(3)
    x = np.arange(5, 5 + 400)
    h = np.bincount(rng.gamma(3.0, 40.0, 20_000).astype(int), minlength=400)[:400].astype(float)
    if shape == "tall_on_the_right":  # the upper right corner is taken: the legend must move
        h = h[::-1]
    h = 100 * h / h.sum()
    fig_a, a = _hist_figure(x, h, lambda ax, x, h: ax.bar(x, h, width=1.0, color=plots.NEUTRAL, alpha=0.85))
    fig_b, b = _hist_figure(x, h, lambda ax, x, h: histograms.bars(ax, x, h, 1.0, plots.NEUTRAL, 0.85))
    assert len(a.patches) == len(x) and len(b.patches) == 1
    assert a.get_xlim() == pytest.approx(b.get_xlim()) and a.get_ylim() == pytest.approx(b.get_ylim())
    assert b.get_ylim()[0] == 0
    assert a.get_position().bounds == pytest.approx(b.get_position().bounds)
    assert a.get_legend().get_window_extent().bounds == pytest.approx(b.get_legend().get_window_extent().bounds)


def test_few_bars_stay_bars():
    import matplotlib

    with matplotlib.rc_context(plots.RC):
        fig, (ax,) = plots._figure(3.5, 2.8)
        histograms.bars(ax, np.arange(histograms.MANY_BARS), np.ones(histograms.MANY_BARS), 1.0, plots.NEUTRAL, 0.85)
    assert len(ax.patches) == histograms.MANY_BARS


@pytest.mark.kernel
def test_galleon_length_plot_draws_many_bars_as_one_path_and_few_as_bars(tmp_path):
    """Galleon's turns histogram has more values than MANY_BARS; after the plot's binning (`coarsen`) it is one path
    when more than MANY_BARS bars remain, else one bar each (version 3's shorter games leave about 55)."""
    import matplotlib
    import numpy as np

    s = _summary(tmp_path, "scenarios/galleon/4p.toml", "40")
    with matplotlib.rc_context(plots.RC):
        fig = plots.length(s)
    turns, rounds = fig.axes
    d = s["length"]["turns"]
    c = np.asarray(d["hist"]["counts"], float)
    assert len(c) > histograms.MANY_BARS
    keep = histograms.tail_cut(c)
    _, xb, _ = histograms.coarsen(d["hist"]["lo"] + np.arange(keep), c[:keep])
    assert len(turns.patches) == (1 if len(xb) > histograms.MANY_BARS else len(xb))
    assert turns.get_ylim()[0] == 0 and turns.get_ylim()[1] > 0


# --- 3. a board drawn once a process ---------------------------------------------------------------------------------


@pytest.mark.kernel
def test_a_board_already_drawn_is_not_drawn_again_and_an_edited_one_is(tmp_path, monkeypatch):
    import os
    from pathlib import Path

    src = Path("scenarios/galleon/boards/default.toml").read_text(encoding="utf-8")
    f = tmp_path / "bay.toml"
    f.write_text(src, encoding="utf-8")
    calls = []
    real = board_svg.galleon_figure
    monkeypatch.setattr(board_svg, "galleon_figure", lambda b: (calls.append(b.name), real(b))[1])
    s = {"scenario": {"game": "galleon", "params": {"board": str(f)}}}
    ((_, cap, first),) = board_svg.board_plots(s)
    ((_, _, again),) = board_svg.board_plots(s)
    assert again == first and len(calls) == 1
    assert cap == f"the bay and ship played ({f})"
    name = re.search(r'^name = "([^"]+)"', src, re.M).group(1)
    f.write_text(src.replace(f'name = "{name}"', 'name = "edited bay"', 1), encoding="utf-8")
    st = f.stat()
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))  # a new file version even on a coarse clock
    ((_, _, edited),) = board_svg.board_plots(s)
    assert len(calls) == 2 and "edited bay" in edited and "edited bay" not in first


# --- 4. compare and check: games/s of the games alone, the step after them apart ---------------------------------------


@pytest.mark.kernel
def test_sim_compare_says_games_per_second_of_the_games_and_the_comparison_apart(tmp_path):
    r = cli.invoke(
        app,
        ["compare", "scenarios/moor/4p.toml", "--set-b", "track_len=32", "--games", "64", "--out", str(tmp_path / "c")],
    )
    assert r.exit_code == 0, r.output
    m = re.search(
        r"^(moor-4p vs \S+): 64 games in ([\d.]+) s, [\d,]+ games/s\n\1: writing the comparison \.\.\. "
        r"[\d.]+ s$",
        r.stderr,
        re.M,
    )
    assert m, r.stderr
    wall = json.loads((tmp_path / "c" / "compare.json").read_text())["provenance"]["wall_time_s"]
    assert float(m.group(2)) <= wall + 0.2  # the games' time, not the pages' and plot's


@pytest.mark.kernel
def test_sim_check_says_games_per_second_of_both_tiers_and_the_testing_apart(tmp_path):
    d = tmp_path / "b"
    r = cli.invoke(
        app,
        [
            "baselines",
            "tests/data/moor-2p-small.toml",
            "--out",
            str(d),
            "--exact-games",
            "300",
            "--stat-games",
            "2000",
            "--check-games",
            "500",
        ],
    )
    assert r.exit_code == 0, r.output
    r = cli.invoke(app, ["check", "tests/data/moor-2p-small.toml", "--baselines", str(d), "--seed", "5"])
    assert r.exit_code == 0, r.output
    assert re.search(
        r"^(\S+): 800 games in [\d.]+ s, [\d,]+ games/s\n\1: testing against the baseline \.\.\. "
        r"[\d.]+ s\n.*moor-2p-small\.toml: exact identical \(300 games\), \d+ statistical tests \[",
        r.stderr,
        re.M,
    ), r.stderr
    r = cli.invoke(app, ["check", "tests/data/moor-2p-small.toml", "--baselines", str(d), "--tier", "exact"])
    assert r.exit_code == 0, r.output
    assert re.search(
        r"^(\S+): 300 games in [\d.]+ s, [\d,]+ games/s\n\1: testing against the baseline \.\.\. ", r.stderr, re.M
    ), r.stderr


def test_progress_step_says_what_is_done():
    from sim.play import progress as PG

    now, buf = [0.0], io.StringIO()
    with PG.Lines(500, "moor-4p", buf, clock=lambda: now[0]) as lines:
        now[0] += 0.5
        lines.advance(500)
        lines.played("the baseline", "testing against")
        now[0] += 0.1
    assert buf.getvalue() == (
        "moor-4p: 500 games in 0.5 s, 1,000 games/s\nmoor-4p: testing against the baseline ... 0.1 s\n"
    )
