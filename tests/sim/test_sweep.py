"""`sim sweep` through CliRunner: grid, zip, ranges, strategy parameters, targets, bad entries, a one-point sweep
against `sim run`, resumption against an uninterrupted sweep, and the HTML parsed for its plots. Tiny game counts."""

from __future__ import annotations

import html
import json
from html.parser import HTMLParser
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from sim.api import core as api
from sim.cli import common as cli_common
from sim.cli import main as cli_main
from sim.cli.main import EXIT_BAD_INPUT, EXIT_USAGE, app
from sim.model.scenario import load
from sim.model.sweep_spec import SweepError, parse_range, split_values
from tests.sim._cli import one_error_line

pytest.importorskip("sim.model.overrides")  # sweeps build their points with sim.model.overrides (the --set machinery)
cli = CliRunner()

BASE = """
[scenario]
name = "sw"
game = "moor"
players = 3
games = 300
seed = 11
[[seats]]
strategy = "weighted"
[[seats]]
strategy = "collector"
[[seats]]
strategy = "weighted"
"""


def scen(tmp_path, sweep: str = "", name: str = "s.toml") -> Path:
    p = tmp_path / name
    p.write_text(BASE + ("\n[sweep]\n" + sweep if sweep else ""))
    return p


def sweep(tmp_path, *args, out="out"):
    r = cli.invoke(app, ["sweep", *map(str, args), "--out", str(tmp_path / out)])
    doc = json.loads((tmp_path / out / "sweep.json").read_text()) if r.exit_code == 0 else None
    return r, doc


def strip(doc: dict) -> dict:
    """sweep.json without what depends on when and where it ran."""
    return {k: v for k, v in doc.items() if k != "provenance"}


def test_range_integers_and_exact_decimal_steps():
    assert parse_range("26..34", "x") == list(range(26, 35))
    assert parse_range("20..30 step 5", "x") == [20, 25, 30]
    assert parse_range("0.5..2.0 step 0.25", "x") == [0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0]
    with pytest.raises(SweepError, match="runs backwards"):
        parse_range("5..1", "x")
    assert split_values('1,[2, 3],"a,b"') == ["1", "[2, 3]", '"a,b"']


@pytest.mark.kernel
def test_grid_of_two_parameters_from_table_and_set(tmp_path):
    p = scen(tmp_path, 'games = 200\ntrack_len = "26..30 step 2"\n')
    r, doc = sweep(tmp_path, p, "--set", "die_faces=4,6", "--measure", "tie")
    assert r.exit_code == 0, r.output
    assert [a["name"] for a in doc["axes"]] == ["track_len", "die_faces"]
    assert len(doc["points"]) == 6 and doc["mode"] == "grid"
    assert [pt["values"] for pt in doc["points"]][:2] == [
        {"track_len": 26, "die_faces": 4},
        {"track_len": 26, "die_faces": 6},
    ]
    assert all(pt["games"] == 200 for pt in doc["points"])
    # the scenario's own point: track_len 30 is the default, die_faces 6 too
    assert doc["points"][doc["default"]]["values"] == {"track_len": 30, "die_faces": 6}
    # neighbours one step apart along either axis: 3 x 1 along die_faces + 2 x 2 along track_len
    assert len(doc["pairs"]) == 3 + 4
    df = pl.read_parquet(tmp_path / "out" / "sweep.parquet")
    assert df.height == 6 and {
        "track_len",
        "die_faces",
        "first_player_advantage",
        "first_player_advantage.lo",
        "first_player_advantage.hi",
        "length.turns",
        "truncated",
    } <= set(df.columns)


@pytest.mark.kernel
def test_zip_mode_and_length_mismatch(tmp_path):
    p = scen(tmp_path)
    r, doc = sweep(
        tmp_path,
        p,
        "--mode",
        "zip",
        "--set",
        "track_len=26,30",
        "--set",
        "die_faces=4,6",
        "--games",
        "100",
        "--measure",
        "margin",
    )
    assert r.exit_code == 0, r.output
    assert [pt["values"] for pt in doc["points"]] == [
        {"track_len": 26, "die_faces": 4},
        {"track_len": 30, "die_faces": 6},
    ]
    r, _ = sweep(tmp_path, p, "--mode", "zip", "--set", "track_len=26,30", "--set", "die_faces=4,5,6", out="out2")
    assert r.exit_code == EXIT_USAGE
    assert "same number of values" in r.output and "Traceback" not in r.output


@pytest.mark.kernel
def test_strategy_parameter_axis(tmp_path):
    p = scen(tmp_path)
    r, doc = sweep(tmp_path, p, "--set", "seats.2.w_goal=0.5..1.5 step 0.5", "--games", "100", "--measure", "win.seat2")
    assert r.exit_code == 0, r.output
    assert [pt["values"]["seats.2.w_goal"] for pt in doc["points"]] == [0.5, 1.0, 1.5]
    assert doc["default"] == 1  # w_goal's default is 1.0


@pytest.mark.kernel
def test_a_swept_seat_strategy_is_not_named_by_the_first_points(tmp_path):
    """Swept seats.2.strategy=runner,cautious: seat 2's measures were labelled from point 0 ('seat 2 (runner)
    wins' on the cautious point too, in sweep.json, the page and the terminal lines). Now they name what the seat
    plays as swept (each point names its strategy); seats the sweep leaves alone keep their strategy."""
    p = scen(tmp_path)
    r, doc = sweep(tmp_path, p, "--set", "seats.2.strategy=runner,cautious", "--games", "40")
    assert r.exit_code == 0, r.output
    labels = {m["name"]: m["label"] for m in doc["measures"]}
    assert labels["win.seat2"].startswith("seat 2 (as swept)"), labels["win.seat2"]
    assert "(collector)" in labels["win.seat1"], labels["win.seat1"]
    assert all("seat 2 (runner)" not in m["label"] for m in doc["measures"] + doc["chosen"])
    assert "seat 2 (runner)" not in r.output
    assert "seat 2: strategy = cautious: seat 2 (as swept) wins" in r.output


@pytest.mark.kernel
@pytest.mark.parametrize(
    "args,says",
    [
        (["--set", "track_len=26,99"], "track_len"),  # out of range: names the sweep entry
        (["--set", "nonsense=1,2"], "nonsense"),
        (["--set", "track_len=9..1"], "runs backwards"),
        (["--set", "track_len=26", "--measure", "no_such_measure"], "no_such_measure"),
        (["--set", "track_len=26", "--target", "first_player_advantage"], "MEASURE=VALUE"),
        (["--set", "track_len=26", "--mode", "diagonal"], "grid, zip"),
    ],
)
def test_bad_entries_are_one_line_before_anything_runs(tmp_path, args, says):
    p = scen(tmp_path)
    r, _ = sweep(tmp_path, p, *args)
    assert r.exit_code == EXIT_USAGE, r.output
    assert says in r.output and "Traceback" not in r.output and len(r.output.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


@pytest.mark.kernel
def test_table_entry_error_names_the_table_entry(tmp_path):
    p = scen(tmp_path, "track_len = [30, 99]\n")
    r, _ = sweep(tmp_path, p)
    assert r.exit_code == EXIT_BAD_INPUT and "[sweep] track_len" in r.output and "99" in r.output


@pytest.mark.kernel
def test_one_point_sweep_equals_sim_run(tmp_path):
    p = scen(tmp_path)
    r, doc = sweep(tmp_path, p, "--set", "track_len=28", "--measure", "margin")
    assert r.exit_code == 0, r.output
    p2 = tmp_path / "run.toml"
    p2.write_text(BASE.replace("seed = 11\n", "seed = 11\n[params]\ntrack_len = 28\n"))
    s, _ = api.run_scenario(load(p2), write=False)  # what `sim run` computes and writes
    assert doc["points"][0]["aggregates"] == s["aggregates"]
    fp = doc["points"][0]["measures"]["first_player_advantage"]
    assert fp["value"] == pytest.approx(s["first_player"]["advantage"], abs=1e-12)


@pytest.mark.kernel
def test_target_highlights_containing_points_and_names_the_closest(tmp_path):
    p = scen(tmp_path)
    r, doc = sweep(
        tmp_path,
        p,
        "--set",
        "track_len=22,30,40",
        "--games",
        "300",
        "--target",
        "first_player_advantage=0",
        "--measure",
        "first_player_advantage",
    )
    assert r.exit_code == 0, r.output
    t = doc["target"]
    vals = {pt["index"]: pt["measures"]["first_player_advantage"] for pt in doc["points"]}
    assert t["containing"] == [i for i, v in vals.items() if v["ci95"][0] <= 0 <= v["ci95"][1]]
    assert t["closest"] == min(vals, key=lambda i: abs(vals[i]["value"]))
    assert "Closest point" in r.output
    html = (tmp_path / "out" / "sweep.html").read_text()
    assert 'id="target"' in html


@pytest.mark.kernel
def test_paired_difference_of_neighbours_is_the_difference_of_their_estimates(tmp_path):
    """Every game finishes (no turn cap hit), so the paired mean difference equals B's estimate minus A's; its
    interval is the paired one (common random numbers)."""
    p = scen(tmp_path)
    r, doc = sweep(tmp_path, p, "--set", "track_len=26,30", "--games", "400", "--measure", "length.turns")
    assert r.exit_code == 0, r.output
    a, b = (pt["measures"]["length.turns"] for pt in doc["points"])
    pair = doc["pairs"][0]["measures"]["length.turns"]
    assert pair["paired"] and pair["n"] == 400
    assert pair["diff"] == pytest.approx(b["value"] - a["value"], abs=1e-9)
    assert pair["ci95"][0] < pair["diff"] < pair["ci95"][1]


class Figures(HTMLParser):
    def __init__(self):
        super().__init__()
        self.figures, self.svgs, self.ids = [], 0, []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "figure":
            self.figures.append(a.get("id"))
        if tag == "svg":
            self.svgs += 1
        if "id" in a:
            self.ids.append(a["id"])


@pytest.mark.kernel
def test_html_has_a_heatmap_for_two_parameters_and_a_curve_per_parameter(tmp_path):
    p = scen(tmp_path)
    r, doc = sweep(
        tmp_path,
        p,
        "--set",
        "track_len=26,30",
        "--set",
        "die_faces=4,6",
        "--games",
        "100",
        "--measure",
        "first_player_advantage",
    )
    assert r.exit_code == 0, r.output
    f = Figures()
    f.feed((tmp_path / "out" / "sweep.html").read_text())
    assert f.figures == [
        "plot-heat-first_player_advantage",
        "plot-line-first_player_advantage-track_len",
        "plot-line-first_player_advantage-die_faces",
    ]
    assert f.svgs == 3 and len(f.ids) == len(set(f.ids))


def curves(fig) -> list[tuple[list, list]]:
    """The connected series of a sweep line plot ("o-" lines: the band, target circles and reference lines aside):
    (x positions, y values) of each."""
    (a,) = fig.axes
    return [
        (list(ln.get_xdata()), list(ln.get_ydata()))
        for ln in a.get_lines()
        if ln.get_linestyle() == "-" and ln.get_marker() == "o"
    ]


@pytest.mark.kernel
def test_zip_sweep_page_plots_one_curve_along_the_paired_points(tmp_path):
    """--mode zip pairs the axes (point i = i-th value of each): there is no grid, so the page draws one curve along
    the points in order, each tick naming both values, and never a series per value of the second axis (the old
    page joined the points with die_faces = 6, points 0 and 2, into one line and left point 1 on its own)."""
    from sim.pages import sweep_plots as page

    p = scen(tmp_path)
    r, doc = sweep(
        tmp_path,
        p,
        "--mode",
        "zip",
        "--set",
        "track_len=26,28,30",
        "--set",
        "die_faces=6,4,6",
        "--games",
        "100",
        "--measure",
        "length.rounds",
    )
    assert r.exit_code == 0, r.output
    m = doc["chosen"][0]
    fig = page.line_plot(doc, m, 0)
    ys = [pt["measures"]["length.rounds"]["value"] for pt in doc["points"]]
    assert curves(fig) == [([0, 1, 2], pytest.approx(ys))]
    (a,) = fig.axes
    assert [t.get_text() for t in a.get_xticklabels()] == ["26\n6", "28\n4", "30\n6"]
    assert "track length over die faces" in a.get_xlabel() and a.get_legend() is None
    f = Figures()
    html = (tmp_path / "out" / "sweep.html").read_text()
    f.feed(html)
    assert f.figures == ["plot-line-length.rounds-zip"] and f.svgs == 1
    assert "(track length (track_len), die faces (die_faces)) = (26, 6), (28, 4), (30, 6)" in html


@pytest.mark.kernel
def test_grid_sweep_page_keeps_a_curve_per_value_of_the_other_axis(tmp_path):
    """Grid mode is what zip mode is not: against track_len, one curve per die_faces value, x = the values."""
    from sim.pages import sweep_plots as page

    p = scen(tmp_path)
    r, doc = sweep(
        tmp_path,
        p,
        "--set",
        "track_len=26,30",
        "--set",
        "die_faces=4,6",
        "--games",
        "100",
        "--measure",
        "length.rounds",
    )
    assert r.exit_code == 0, r.output
    got = curves(page.line_plot(doc, doc["chosen"][0], 0))
    assert [x for x, _ in got] == [[26, 30], [26, 30]]


@pytest.mark.kernel
def test_resumed_sweep_equals_an_uninterrupted_one(tmp_path):
    """Ctrl-C after the first point: no sweep.json (nothing looks complete), the point is kept; the rerun plays
    only the rest and gives the same numbers as a sweep played in one go."""
    from sim.api.sweep import build, run_sweep
    from sim.play.distributed import InProcess
    from sim.play.sweep import Progress

    p = scen(tmp_path)
    sw = build(p, ["track_len=24,28,32"], games=200, measures=["margin"])

    def stop(i):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_sweep(sw, InProcess(), tmp_path / "a", chunk=70, progress=Progress(point_done=stop))
    assert not (tmp_path / "a" / "sweep.json").exists()
    assert len(list((tmp_path / "a" / "points").glob("*.json"))) == 1
    doc, _, played = run_sweep(sw, InProcess(), tmp_path / "a", chunk=70)
    assert len(played.played) == 2 and len(played.reused) == 1
    whole, _, _ = run_sweep(sw, InProcess(), tmp_path / "b", chunk=200)
    assert strip(doc) == strip(whole)


@pytest.mark.kernel
def test_a_sweep_stopped_before_its_first_point_leaves_no_folder(tmp_path):
    """SIGTERM before any point was finished left an empty sweep folder (reports/sweep-x/) looking like a result; as
    `sim run`'s report folder, a sweep's now appears with its first finished point. A folder that was there before
    (an empty --out) stays."""
    from sim.api.sweep import build, run_sweep
    from sim.play.distributed import InProcess
    from sim.play.sweep import Progress

    sw = build(scen(tmp_path), ["track_len=24,28"], games=50, measures=["margin"])

    def stop(*a):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_sweep(sw, InProcess(), tmp_path / "a", progress=Progress(advance=stop))
    assert not (tmp_path / "a").exists()
    (tmp_path / "b").mkdir()
    with pytest.raises(KeyboardInterrupt):
        run_sweep(sw, InProcess(), tmp_path / "b", progress=Progress(advance=stop))
    assert (tmp_path / "b").is_dir() and not any((tmp_path / "b").iterdir())


@pytest.mark.kernel
def test_a_sweep_stopped_while_writing_leaves_the_earlier_one_as_it_was(tmp_path, monkeypatch):
    """Ctrl-C while the pages were drawn: the earlier sweep.json was already gone and sweep.parquet replaced beside
    the earlier sweep.html (a page from another run, looking complete). The outputs are now written to temporary
    files and swapped in only when all are done: the earlier sweep stays whole, no temporary file is left."""
    from sim.api.sweep import build, run_sweep
    from sim.pages import sweep_page
    from sim.play.distributed import InProcess

    p = scen(tmp_path)
    run_sweep(build(p, ["track_len=24,28"], games=50, measures=["margin"]), InProcess(), tmp_path / "a")
    before = {f.name: f.read_bytes() for f in (tmp_path / "a").iterdir() if f.is_file()}
    assert set(before) == {"sweep.json", "sweep.html", "sweep.parquet"}

    def stop(doc):
        raise KeyboardInterrupt

    monkeypatch.setattr(sweep_page, "render", stop)
    with pytest.raises(KeyboardInterrupt):
        run_sweep(build(p, ["track_len=24,28"], games=60, measures=["margin"]), InProcess(), tmp_path / "a")
    after = {f.name: f.read_bytes() for f in (tmp_path / "a").iterdir() if f.is_file()}
    assert after == before


@pytest.mark.kernel
def test_a_point_stopped_while_stored_leaves_no_temporary_file(tmp_path, monkeypatch):
    """Ctrl-C between a point's npz and its JSON left '.<key>.<pid>.json' behind; now nothing but finished points."""
    from sim.play import sweep_store
    from sim.play.work import Unit, play_unit

    sc = load(scen(tmp_path))
    r = play_unit(Unit("k", 0, sc, 0, 20, sc.seed))

    replace = sweep_store.os.replace

    def stop(src, dst):
        if str(dst).endswith(".json"):  # the JSON written aside, Ctrl-C before it is renamed into place
            raise KeyboardInterrupt
        replace(src, dst)

    monkeypatch.setattr(sweep_store.os, "replace", stop)
    with pytest.raises(KeyboardInterrupt):
        sweep_store.Store(tmp_path / "points").save("k", r, {})
    assert [f.name for f in (tmp_path / "points").iterdir()] == ["k.npz"]  # no JSON: not finished, played again


DEFAULT_SWEEPS = sorted((Path(__file__).resolve().parents[2] / "scenarios").glob("*/sweeps/*.toml"))


@pytest.mark.kernel
@pytest.mark.parametrize("path", DEFAULT_SWEEPS, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_default_sweeps_are_valid_and_modest(path):
    """Played by `make run`: every point validates, and the game count stays modest (make run <= 5 minutes)."""
    from sim.api.sweep import build

    sw = build(path)
    assert 2 <= len(sw.points) and len(sw.points) * sw.games <= 200_000
    assert sw.measures and sw.base.name.endswith(path.stem)


@pytest.mark.kernel
def test_index_page_links_every_report_with_its_headline(tmp_path):
    from sim.api.sweep import build, run_sweep
    from sim.pages import index_page
    from sim.play.distributed import InProcess

    p = scen(tmp_path)
    s, _ = api.run_scenario(load(p), games=100, write=False)
    folder = tmp_path / "r" / "sw"
    doc, sfolder, _ = run_sweep(
        build(p, ["track_len=26,30"], games=100, measures=["tie"], target="first_player_advantage=0"),
        InProcess(),
        tmp_path / "r" / "sweep-sw",
    )
    html = (index_page.write([(folder, s)], [(sfolder, doc)], tmp_path / "r")).read_text()
    assert 'href="sw/summary.html"' in html and 'href="sweep-sw/sweep.html"' in html
    assert "Closest point" in html and "track_len = 26, 30" in html


@pytest.mark.kernel
def test_writing_a_sweep_looks_up_the_scenario_point_once_and_the_game_without_a_module_search(tmp_path, monkeypatch):
    """Writing a sweep was quadratic in its points: sweep.parquet compared every point with the scenario once per
    row (`sw_default` per row, each comparing all points), and each `Scenario.spec` searched the game modules on
    disk. Now: one `sw_default` per frame, and a registered game comes back without `registry.names()`."""
    from sim.api.sweep import build
    from sim.model import registry
    from sim.play import sweep as engine
    from sim.stats import sweep_table as table

    p = scen(tmp_path)
    r, _ = sweep(tmp_path, p, "--set", "track_len=26,28,30", "--set", "die_faces=4,6", "--games", "50")
    assert r.exit_code == 0, r.output
    sw = build(p, ["track_len=26,28,30", "die_faces=4,6"], None, 50, None, None, None, None)
    res = engine.collect(sw, tmp_path / "out")
    calls = {"default": 0, "names": 0}
    real_default, real_names = table.sw_default, registry.names
    monkeypatch.setattr(
        table, "sw_default", lambda s: calls.__setitem__("default", calls["default"] + 1) or real_default(s)
    )
    monkeypatch.setattr(registry, "names", lambda: calls.__setitem__("names", calls["names"] + 1) or real_names())
    table.frame(sw, res["rows"])
    assert calls["default"] == 1
    assert registry.get("moor") is not None and sw.points[0].scenario.spec is not None and calls["names"] == 0


@pytest.mark.kernel
def test_three_axis_page_draws_small_multiples_with_capped_curves_and_panels_and_a_note(tmp_path, monkeypatch):
    """Three axes: against the first, one curve per value of the second (at most MAX_CURVES, evenly spaced, first
    and last kept) and one panel per value of the third (at most MAX_PANELS), the legend beside the panels (not
    over a plot), and the caption saying which values are shown and that the table keeps every point. (The old
    page drew every combination of the other axes as one curve on one plot, its legend cut off.)"""
    from sim.pages import sweep_plots as page

    monkeypatch.setattr(page, "MAX_CURVES", 2)
    monkeypatch.setattr(page, "MAX_PANELS", 2)
    p = scen(tmp_path)
    r, doc = sweep(
        tmp_path,
        p,
        "--set",
        "track_len=26,30",
        "--set",
        "die_faces=4,5,6",
        "--set",
        "seats.0.w_goal=0.5,1.5,2",
        "--games",
        "30",
        "--measure",
        "length.rounds",
    )  # no own point
    assert r.exit_code == 0, r.output
    fig = page.line_plot(doc, doc["chosen"][0], 0)
    shown = [a for a in fig.axes if a.get_visible()]
    assert [a.get_title() for a in shown] == [
        "seat 0: weight on goal tokens = 0.5",
        "seat 0: weight on goal tokens = 2",
    ]
    for a in shown:
        lines = [ln for ln in a.get_lines() if ln.get_linestyle() == "-" and ln.get_marker() == "o"]
        assert len(lines) == 2 and all(list(ln.get_xdata()) == [26, 30] for ln in lines)
        assert a.get_legend() is None
    (leg,) = fig.legends
    assert leg.get_title().get_text() == "die faces" and [t.get_text() for t in leg.get_texts()] == ["4", "6"]
    html = (tmp_path / "out" / "sweep.html").read_text()
    assert (
        "Shown: curves: 2 of the 3 values of die faces (4, 6); panels: 2 of the 3 values of seat 0: weight "
        "on goal tokens (0.5, 2); every point is in the table below" in html
    )
    assert html.count("<tr>") >= 18 + 1  # every point in the table


def test_matplotlib_warnings_never_reach_the_user():
    """A plot that makes matplotlib warn (a layout that cannot fit) renders without the warning escaping."""
    import warnings

    from sim.pages import plots

    def crowded():
        fig, (a,) = plots._figure(1.0, 0.4)
        a.set_ylabel("\n".join(["a very long label"] * 20))
        a.set_title("\n".join(["a very long title"] * 20))
        return fig

    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        assert plots.render(crowded).startswith("<svg")
    assert [str(w.message) for w in got] == []


@pytest.mark.kernel
def test_large_sweep_says_its_size_before_playing(tmp_path, monkeypatch):
    """From LARGE_GRID points a sweep names its points and games on stderr before the first point (not refused)."""
    from sim.cli import sweep as cli_sweep

    monkeypatch.setattr(cli_sweep, "LARGE_GRID", 4)
    p = scen(tmp_path)
    r, _ = sweep(tmp_path, p, "--set", "track_len=26,28", "--set", "die_faces=4,6", "--games", "20")
    assert r.exit_code == 0, r.output
    assert "sweep sw: a large sweep: 4 points x 20 games = 80 games" in r.output
    assert r.output.index("a large sweep") < r.output.index("point 0")
    r, _ = sweep(tmp_path, p, "--set", "track_len=26,28", "--games", "20", out="small")
    assert r.exit_code == 0 and "a large sweep" not in r.output


@pytest.mark.kernel
def test_a_different_sweep_into_the_same_folder_warns_naming_the_folder_and_how_to_keep_both(tmp_path):
    """A zip sweep after a grid sweep of one scenario (same folder) replaced it without a word: now one warning line
    naming the folder, the sweep it held and --out; rerunning the same sweep (other games) says nothing."""
    p = scen(tmp_path)
    grid = ["--set", "track_len=26,28", "--set", "die_faces=4,6"]
    r, _ = sweep(tmp_path, p, *grid, "--games", "20")
    assert r.exit_code == 0 and "warning" not in r.output
    r, _ = sweep(tmp_path, p, *grid, "--games", "30")
    assert r.exit_code == 0 and "warning" not in r.output
    r, doc = sweep(tmp_path, p, *grid, "--mode", "zip", "--games", "20")
    assert r.exit_code == 0, r.output
    (w,) = [ln for ln in r.output.splitlines() if ln.startswith("warning:")]
    assert w == (
        f"warning: {tmp_path / 'out'} holds the sweep track_len = 26, 28 x die_faces = 4, 6 (grid); this "
        "sweep (track_len = 26, 28 x die_faces = 4, 6 (zip)) replaces its pages (to keep both, give --out "
        "another folder)"
    )
    assert doc["mode"] == "zip"


@pytest.mark.kernel
def test_first_player_advantage_heatmap_is_centred_on_zero_and_its_caption_says_what_colours_mean(tmp_path):
    """The red-blue scale was centred on the data (its middle, e.g. +0.75 points, drawn white), so small
    advantages looked like disadvantages: now 0 is white (norm(0) = 0.5), and the caption says red = the first
    player wins more than the fair share."""
    from sim.pages import sweep_plots as page

    p = scen(tmp_path)
    r, doc = sweep(
        tmp_path,
        p,
        "--set",
        "track_len=26,30",
        "--set",
        "die_faces=4,6",
        "--games",
        "60",
        "--measure",
        "first_player_advantage",
    )
    assert r.exit_code == 0, r.output
    m = doc["chosen"][0]
    for pt in doc["points"]:  # all above 0: the old scale drew the lowest of them blue
        pt["measures"][m["name"]]["value"] = [0.01, 0.02, 0.03, 0.04][pt["index"]]
    fig = page.heatmap(doc, m)
    (im,) = fig.axes[0].get_images()
    assert im.norm(0.0) == pytest.approx(0.5) and im.norm(1.0) > 0.5 and im.norm(4.0) == pytest.approx(1.0)
    html = (tmp_path / "out" / "sweep.html").read_text()
    assert "red = the first player wins more than the fair share, blue = less, white = fair (0)" in html


@pytest.mark.kernel
def test_a_fully_reused_sweep_says_all_points_were_reused_not_zero_games(tmp_path):
    """Rerunning a finished sweep printed "0 games in 0.0 s, 0 games/s": now "all 2 points reused"."""
    p = scen(tmp_path)
    r, _ = sweep(tmp_path, p, "--set", "track_len=26,28", "--games", "20")
    assert r.exit_code == 0, r.output
    r, _ = sweep(tmp_path, p, "--set", "track_len=26,28", "--games", "20")
    assert r.exit_code == 0, r.output
    assert (
        "sweep sw: all 2 points reused (stored by an earlier run with the same seed and games; --fresh plays "
        "them again)" in r.output
    )
    assert "0 games in" not in r.output and "0 games/s" not in r.output


@pytest.mark.kernel
def test_default_sweep_line_has_no_dangling_separator_without_a_target(tmp_path):
    """`make run`'s sweep line ended "..., 0.435 s; -> path" when the sweep had no target."""
    from sim.cli.sweep import default_sweep_line

    p = scen(tmp_path)
    r, doc = sweep(tmp_path, p, "--set", "track_len=26,28", "--games", "20")
    assert r.exit_code == 0, r.output
    line = default_sweep_line("moor/sweeps/x.toml", doc, tmp_path / "out", 2)
    assert (
        line == f"moor/sweeps/x.toml: 2 points x 20 games in {doc['provenance']['wall_time_s']} s -> {tmp_path / 'out'}"
    )
    assert (
        default_sweep_line("x.toml", doc, tmp_path / "out", 0) == f"x.toml: 2 points x 20 games, all reused -> "
        f"{tmp_path / 'out'}"
    )
    r, doc = sweep(tmp_path, p, "--set", "track_len=26,28", "--games", "20", "--target", "length.rounds=30", out="t")
    line = default_sweep_line("x.toml", doc, tmp_path / "t", 2)
    assert "s; Target game length" in line and line.endswith(f" -> {tmp_path / 't'}") and "; ->" not in line


def test_thinned_curves_and_panels_keep_the_scenarios_own_value():
    """When a parameter has more values than curves (or panels) drawn, the evenly spaced picks include the
    scenario's own value (so its diamond is on the page), first and last kept."""
    from sim.pages import sweep_plots as page

    axes = [
        {"name": n, "values": list(range(k)), "labels": [str(v) for v in range(k)], "numeric": True}
        for n, k in (("a", 3), ("b", 20), ("c", 15))
    ]
    points = [
        {"index": i, "values": {"a": a, "b": b, "c": c}}
        for i, (a, b, c) in enumerate((a, b, c) for a in range(3) for b in range(20) for c in range(15))
    ]
    own = next(p["index"] for p in points if p["values"] == {"a": 1, "b": 4, "c": 8})
    v = page.view({"axes": axes, "points": points, "default": own}, 0)
    assert 4 in v.curves and len(v.curves) == page.MAX_CURVES and v.curves[0] == 0 and v.curves[-1] == 19
    assert 8 in v.panels and len(v.panels) == page.MAX_PANELS and v.panels[0] == 0 and v.panels[-1] == 14
    assert page.spread(20, 7) == [0, 3, 6, 10, 13, 16, 19]


@pytest.mark.kernel
def test_quantities_are_built_once_per_game_players_mode_and_strategies_not_per_point(tmp_path):
    """A sweep's points that differ only by a rule value share their quantities (built once: 2,500 points took
    seconds); other players or strategies get their own (the fair share and labels differ)."""
    from sim.api.sweep import build
    from sim.stats import sweep_table as table

    p = scen(tmp_path)
    sw = build(p, ["track_len=26,28", "die_faces=4,6"], None, 20, None, None, None, None)
    qs = [table.quantities(pt.scenario) for pt in sw.points]
    assert all(q is qs[0] for q in qs)
    other = build(p, ["seats.1.strategy=weighted"], None, 20, None, None, None, None)
    assert table.quantities(other.points[0].scenario) is not qs[0]
    th = build(
        Path("scenarios/treasure_hunters/basic-4p.toml"), ["ghost_cards.shuffle=1,2"], None, 20, None, None, None, None
    )
    a, b = (table.quantities(pt.scenario) for pt in th.points)
    assert a is b and "team_win_rate" in a and "first_player_advantage" in qs[0]


def test_sweep_points_name_their_unit_once_and_one_point_is_singular():
    """A second new user read `+0.80 pts [-2.84, +4.81] pts` and "(1 points played, 1 reused)"."""
    from sim.pages.sweep_page import fmt, fmt_ci

    assert f"{fmt('points', 0.008)} {fmt_ci('points', (-0.0284, 0.0481))}" == "+0.80 points [-2.84, +4.81]"
    src = (Path(__file__).resolve().parents[2] / "sim/cli/sweep.py").read_text()
    assert "points played" not in src and "count(len(played.played), 'point')" in src


@pytest.mark.kernel
def test_a_sweep_without_the_scenarios_point_has_no_diamond_caption_and_whole_number_ticks(tmp_path):
    """A second new user saw 4.5 between die faces 4 and 5 and a caption promising the scenario's diamond when the
    header said the scenario's point was not among the points."""
    from typer.testing import CliRunner

    from sim.cli.main import app

    out = tmp_path / "sw"
    r = CliRunner().invoke(
        app,
        [
            "sweep",
            str(Path(__file__).resolve().parents[2] / "scenarios/moor/4p.toml"),
            "--set",
            "die_faces=4,5,6",
            "--set",
            "track_len=20,25",
            "--games",
            "50",
            "--out",
            str(out),
        ],
    )
    assert r.exit_code == 0, r.output
    page = (out / "sweep.html").read_text()
    assert "not among the points" in page and "diamond: the scenario" not in page
    from sim.pages.sweep_plots import line_plot

    d = json.loads((out / "sweep.json").read_text())
    for j in (0, 1):
        fig = line_plot(d, d["chosen"][0], j)
        fig.canvas.draw()
        ticks = [t for t in fig.axes[0].get_xticks() if fig.axes[0].get_xlim()[0] <= t <= fig.axes[0].get_xlim()[1]]
        assert ticks and all(float(t).is_integer() for t in ticks), ticks


MOOR_2P = Path(__file__).resolve().parents[1] / "data" / "moor-2p-small.toml"


def _sweep_file(tmp_path, table: str) -> Path:
    p = tmp_path / "sw.toml"
    p.write_text(MOOR_2P.read_text() + '\n[sweep]\ntrack_len = "24..25"\n' + table + "\n")
    return p


REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"


MOOR4 = REPO / "scenarios" / "moor" / "4p.toml"


def _invoke(*args):
    return cli.invoke(app, [str(a) for a in args])


@pytest.mark.kernel
@pytest.mark.parametrize(
    "table, message",
    [
        ("games = 0", "[sweep] games: 0 is out of range; allowed 1..10,000,000,000"),
        ("games = 99999999999999", "[sweep] games: 99999999999999 is out of range; allowed 1..10,000,000,000"),
        ('independent = "false"', '[sweep] independent: expected true or false, got "false"'),
        ('measures = "first_player_advantage"', "[sweep] measures: expected an array of measure names"),
        ("target = 5", "[sweep] target: expected a string MEASURE=VALUE"),
        ('target = "first_player_advantage"', "[sweep] target first_player_advantage: expected MEASURE=VALUE"),
    ],
)
def test_a_bad_sweep_table_option_is_one_line_naming_it(tmp_path, table, message):
    """games = 0 played the scenario's 200,000 games per point; independent = "false" was read as true; a measures
    string was split into letters; a bad target from the file was blamed on --target. The line names the file
    first, as every other error of the file does (it once began "[sweep] games: ...", naming no file); games = 0
    is refused also when --games replaces it (it was accepted)."""
    from typer.testing import CliRunner

    f = _sweep_file(tmp_path, table)
    for games in ([], ["--games", "5"]) if table.startswith("games") else ([],):
        r = CliRunner().invoke(cli_main.app, ["sweep", str(f), *games, "--out", str(tmp_path / "o")])
        lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
        assert r.exit_code == cli_common.EXIT_BAD_INPUT, r.output
        assert len(lines) == 1 and lines[0].startswith(f"error: {f}: {message}"), lines
        assert not (tmp_path / "o").exists()


@pytest.mark.kernel
def test_a_good_sweep_table_still_plays(tmp_path):
    from sim.api.sweep import build

    sw = build(
        _sweep_file(
            tmp_path,
            'games = 30\nindependent = true\nmeasures = ["length.rounds"]\ntarget = "first_player_advantage=0"',
        )
    )
    assert (sw.games, sw.independent, len(sw.points)) == (30, True, 2)
    assert sw.measures[0] == "length.rounds" and sw.target[0] == "first_player_advantage"


@pytest.mark.kernel
@pytest.mark.parametrize(
    "sets, message",
    [
        (["track_len=24,24"], "--set track_len=24,24: value 24 is given twice; give each value once"),
        (["track_len=24..26", "track_len=27"], "--set track_len: given twice; give all its values in one --set"),
    ],
)
def test_a_sweep_value_or_axis_given_twice_is_refused(tmp_path, sets, message):
    """`--set track_len=20,20` played the point twice (both labelled 'point 1'); a second `--set track_len=...`
    silently replaced the first."""
    from typer.testing import CliRunner

    args = ["sweep", str(MOOR_2P), "--games", "10", "--out", str(tmp_path / "o")]
    for t in sets:
        args += ["--set", t]
    r = CliRunner().invoke(cli_main.app, args)
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert r.exit_code == cli_common.EXIT_USAGE, r.output
    assert len(lines) == 1 and lines[0].startswith(f"error: {message}"), lines


@pytest.mark.kernel
@pytest.mark.parametrize("axis", ["name=a,b", "description=x,y"])
def test_a_sweep_over_the_scenario_name_is_refused(tmp_path, axis):
    """`--set name=a,b` played the same games twice, both labelled 'point 1 (name=b)'."""
    from typer.testing import CliRunner

    r = CliRunner().invoke(
        cli_main.app, ["sweep", str(MOOR_2P), "--games", "10", "--set", axis, "--out", str(tmp_path / "o")]
    )
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert r.exit_code == cli_common.EXIT_USAGE, r.output
    assert len(lines) == 1 and lines[0].startswith(
        f"error: --set {axis}: the scenario's {axis.split('=')[0]} does not change the games"
    ), lines


def test_a_sweep_without_target_has_a_headline_with_figures():
    from sim.pages.sweep_page import range_text

    def pt(i, v, lo, hi):
        return {
            "index": i,
            "values": {"gold_target": 3 + i},
            "labels": {"gold_target": str(3 + i)},
            "measures": {"first_player_advantage": {"value": v, "ci95": [lo, hi]}},
        }

    d = {
        "chosen": [{"name": "first_player_advantage", "label": "first-player advantage", "kind": "rate"}],
        "points": [pt(0, 0.02, 0.01, 0.03), pt(1, -0.01, -0.02, 0.0), pt(2, 0.005, -0.005, 0.015)],
    }
    text = range_text(d)
    assert text.startswith("first-player advantage from -1.00%") and "(gold_target = 4)" in text
    assert "to 2.00%" in text and "(gold_target = 3)" in text and "95% interval" in text


def test_a_typo_in_a_sweep_range_is_refused_not_played_as_floats():
    """'20...60' once played 41 points track_len = 20.0, 21.0, ...; a path value with '..' is still a value."""
    from sim.model.sweep_spec import SweepError, parse_set

    with pytest.raises(SweepError, match="is not a range"):
        parse_set("track_len=20...60")
    assert parse_set("track_len=20..24 step 2").values == (20, 22, 24)
    assert parse_set('board="../my-board.toml"').values == ("../my-board.toml",)


def test_an_unquoted_step_gets_a_hint_to_quote_the_range():
    r = cli.invoke(app, ["sweep", str(MOOR_2P), "--set", "track_len=20..60", "step", "5", "--games", "10"])
    line = one_error_line(r)
    assert r.exit_code == EXIT_USAGE and "quote it" in line and "'track_len=20..60 step 5'" in line


@pytest.mark.kernel
@pytest.mark.parametrize(
    "opt,value,where",
    [("--target", "nope=0", "--target nope=0"), ("--measure", "nope", "--measure"), ("--mode", "spiral", "--mode")],
)
def test_a_bad_sweep_option_names_the_option(opt, value, where):
    r = cli.invoke(app, ["sweep", str(MOOR_2P), "--set", "track_len=24,28", "--games", "10", opt, value])
    assert r.exit_code == EXIT_USAGE and one_error_line(r).startswith(f"error: {where}")


@pytest.mark.kernel
def test_a_sweep_with_nothing_to_sweep_says_so(tmp_path):
    """`sim sweep my.toml` without --set or [sweep] once played the scenario alone and wrote a one-point sweep."""
    r = cli.invoke(app, ["sweep", str(MOOR_2P), "--games", "10", "--out", str(tmp_path / "s")])
    line = one_error_line(r)
    assert r.exit_code == EXIT_USAGE and "nothing to sweep" in line and "--set" in line
    assert not (tmp_path / "s").exists()


@pytest.mark.kernel
@pytest.mark.parametrize(
    "bad",
    [
        ["--mode", "diagonal"],
        ["--measure", "no_such_measure"],
        ["--target", "first_player_advantage"],
        ["--target", "first_player_advantage=x"],
        ["--mode", "zip", "--set", "die_faces=4,6,8"],
        ["--scheduler", " "],
        ["--scheduler", "foo"],
        ["--scheduler", "tcp://localhost"],
    ],
)
def test_a_bad_sweep_option_exits_2_like_every_bad_option(tmp_path, bad):
    r = _invoke("sweep", MOOR4, "--set", "track_len=26,28", "--games", 10, "--out", tmp_path / "o", *bad)
    assert r.exit_code == EXIT_USAGE and one_error_line(r).startswith(f"error: {bad[0]}")
    assert not (tmp_path / "o").exists()


@pytest.mark.kernel
def test_a_sweep_without_an_axis_exits_2_like_compare_without_b(tmp_path):
    """Nothing to sweep: a missing option (no --set, no [sweep] table), as compare's missing scenario B is."""
    sweep, comp = _invoke("sweep", MOOR4, "--games", 10), _invoke("compare", MOOR4)
    assert (sweep.exit_code, comp.exit_code) == (EXIT_USAGE, EXIT_USAGE)
    assert "nothing to sweep" in one_error_line(sweep) and "missing scenario B" in one_error_line(comp)


@pytest.mark.kernel
def test_a_bad_sweep_table_in_the_file_still_exits_3(tmp_path):
    """The documented exit codes (docs/reference/commands.md): 3 for a bad input file, the [sweep] table included."""
    p = tmp_path / "s.toml"
    p.write_text(MOOR4.read_text() + "\n[sweep]\ntrack_len = [30, 99]\n")
    r = _invoke("sweep", p, "--games", 10, "--out", tmp_path / "o")
    assert r.exit_code == EXIT_BAD_INPUT and "[sweep] track_len" in one_error_line(r)


@pytest.mark.kernel
@pytest.mark.parametrize(
    "sets, says",
    [
        (["track_len=26,28", "params.track_len=30"], "--set params.track_len: given twice"),
        (
            ["seats.2.w_goal=1,2", "seats.*.w_goal=3,4"],
            "--set seats.*.w_goal=3,4: replaces every value of --set seats.2.w_goal=1,2",
        ),
    ],
)
def test_sweep_refuses_an_axis_given_twice_or_replaced(tmp_path, sets, says):
    args = ["sweep", MOOR4, "--games", 10, "--out", tmp_path / "o"]
    for s in sets:
        args += ["--set", s]
    r = _invoke(*args)
    assert r.exit_code == EXIT_USAGE and one_error_line(r).startswith(f"error: {says}")


@pytest.mark.kernel
def test_a_sweep_over_fewer_players_plays_each_count_on_the_first_seats():
    from sim.api.sweep import build

    sw = build(MOOR4, ["players=2,3,4"], games=10)
    assert [(p.scenario.players, len(p.scenario.seats)) for p in sw.points] == [(2, 2), (3, 3), (4, 4)]


# --- a sweep over seed or games was silently ignored (every point played the sweep's own) -------------------------
@pytest.mark.kernel
@pytest.mark.parametrize(
    "axis, how",
    [("seed=1,2", "--seed"), ("scenario.seed=1,2", "--seed"), ("games=100,200", "--games or [sweep] games")],
)
def test_a_sweep_over_seed_or_games_is_refused(tmp_path, axis, how):
    r = _invoke("sweep", MOOR4, "--games", "10", "--set", axis, "--out", tmp_path / "o")
    key = axis.split("=")[0].removeprefix("scenario.")
    assert r.exit_code == EXIT_USAGE, r.output
    assert one_error_line(r) == (
        f"error: --set {axis}: every point plays the sweep's {key} (common random numbers); "
        f"give it once with {how}" + (", or run one sweep per seed" if key == "seed" else "")
    )
    assert not (tmp_path / "o").exists()


@pytest.mark.kernel
def test_a_sweep_table_over_seed_is_a_bad_file(tmp_path):
    f = tmp_path / "s.toml"
    f.write_text(MOOR4.read_text() + "\n[sweep]\nseed = [1, 2]\n")
    r = _invoke("sweep", f, "--games", "10", "--out", tmp_path / "o")
    assert r.exit_code == EXIT_BAD_INPUT, r.output
    assert "every point plays the sweep's seed" in one_error_line(r)


@pytest.mark.kernel
def test_zip_mode_takes_a_value_repeated_within_an_axis():
    from sim.api.sweep import build

    sw = build(
        "scenarios/treasure_hunters/basic-4p.toml",
        ["mode=basic,head_haunter,advanced", "seats.0.strategy=weighted,haunter_builder,weighted"],
        "zip",
        16,
    )
    assert [p.values["seats.0.strategy"] for p in sw.points] == ["weighted", "haunter_builder", "weighted"]


@pytest.mark.kernel
def test_zip_mode_refuses_a_repeated_point():
    r = cli.invoke(
        app,
        [
            "sweep",
            "scenarios/treasure_hunters/basic-4p.toml",
            "--set",
            "mode=basic,head_haunter,basic",
            "--set",
            "seats.0.strategy=weighted,haunter_builder,weighted",
            "--mode",
            "zip",
            "--games",
            "16",
        ],
    )
    assert r.exit_code == EXIT_USAGE
    assert "point 3" in one_error_line(r) and "is point 1 again" in r.stderr


@pytest.mark.kernel
def test_grid_mode_still_refuses_a_value_given_twice():
    r = cli.invoke(
        app, ["sweep", "scenarios/treasure_hunters/basic-4p.toml", "--set", "mode=basic,basic", "--games", "16"]
    )
    assert r.exit_code == EXIT_USAGE
    assert 'value "basic" is given twice' in one_error_line(r)


def test_sweep_help_keeps_sweep_table_and_step_in_brackets():
    r = cli.invoke(app, ["sweep", "--help"], env={"COLUMNS": "250"})
    assert r.exit_code == 0
    assert "(its [sweep] table, if any)" in r.output
    assert "(default: [sweep] games" in r.output
    assert "LO..HI [step S]" in r.output


@pytest.mark.kernel
def test_a_choice_axis_is_drawn_as_categories_with_whiskers_and_labels_that_fit(tmp_path):
    """A choice (or boolean, or list) parameter is no number: its points are drawn with interval whiskers on a
    categorical axis, never joined by a line, the long choice names broken into lines instead of clipped, and the
    caption says whiskers, not band."""
    import matplotlib

    matplotlib.use("Agg")
    from sim.pages import sweep_plots as page

    r, doc = sweep(tmp_path, scen(tmp_path), "--set", "discard_fallback=remove,ignore_pawns", "--games", "60")
    assert r.exit_code == 0, r.output
    m = doc["chosen"][0]
    fig = page.line_plot(doc, m, 0)
    ax = fig.axes[0]
    joined = [
        ln
        for ln in ax.get_lines()
        if ln.get_linestyle() not in ("None", "", " ")
        and len(ln.get_xdata()) > 1
        and ln.get_label() != "_nolegend_"
        and ln.get_color() != page.plots.GREY
    ]
    assert not [ln for ln in joined if list(ln.get_xdata()) == [0, 1]], "two categories joined by a line"
    assert ax.containers, "no whiskers"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["remove", "ignore_pawns"]
    assert page.wrap_label("pirate_moves_other_die") == "pirate_moves_\nother_die"
    caps = [c for _, c, _ in page.plot_list(doc)]
    assert any("whiskers: 95% interval" in c for c in caps) and not any("band" in c for c in caps)
    numeric = sweep(tmp_path, scen(tmp_path), "--set", "track_len=26,28", "--games", "20", out="n")[1]
    assert all("band: 95% interval" in c for _, c, _ in page.plot_list(numeric))


def test_many_points_are_tested_against_the_scenarios_own_with_holm():
    """Ten points each at p = 0.01 against the scenario's own: one alone would be 'real', but not among ten (Holm:
    10 x 0.01 > 0.05); one at p = 1e-6 survives. The games needed grow with the noise of the best-resolved test."""
    from sim.stats.sweep_table import against_own

    tests = [
        {"point": i, "measure": "m", "diff": 0.02, "ci95": [0.005, 0.035], "p": 0.01, "se": 0.0077}
        for i in range(1, 11)
    ]
    a = against_own(tests, 2000)
    assert (a["tested"], a["points"], a["differ"]) == (10, 10, [])
    assert a["games_needed"] > 2000
    b = against_own(
        tests + [{"point": 11, "measure": "m", "diff": 0.1, "ci95": [0.06, 0.14], "p": 1e-6, "se": 0.02}], 2000
    )
    assert [t["point"] for t in b["differ"]] == [11] and b["differ"][0]["p_holm"] <= 0.05


@pytest.mark.kernel
def test_the_sweep_says_which_settings_changed_beyond_their_margin_after_the_correction(tmp_path):
    from sim.pages.sweep_page import many_points_text

    p = scen(tmp_path)
    r, doc = sweep(
        tmp_path, p, "--set", "tiebreak=rulebook,shared", "--games", "60", "--measure", "first_player_advantage"
    )
    assert r.exit_code == 0, r.output
    text = many_points_text(doc)
    assert text.startswith("No setting changed beyond its margin (by default 1 point for rates, 2% for lengths")
    assert "0 of 1 difference unchanged within their margins, 1 cannot be told yet (about " in text
    assert "no difference" not in text.lower() and "by more than noise" not in text
    assert "Holm-corrected" in text and text in r.stdout
    r, doc = sweep(
        tmp_path, p, "--set", "track_len=20,30,40", "--games", "200", "--measure", "length.rounds", out="len"
    )
    text = many_points_text(doc)
    assert text.startswith(
        "2 settings changed beyond the margin (by default 1 point for rates, 2% for lengths, 5% for counts): track "
        "length = 20 spaces: game length (rounds) -"
    ), text
    assert "2 points were tested against it, 2 differences in all" in text
    assert text in html.unescape((tmp_path / "len" / "sweep.html").read_text())


@pytest.mark.kernel
def test_a_heatmaps_colorbar_label_is_whole_in_its_figure(tmp_path):
    """A 2 x 2 sweep's first-player advantage heatmap: its colorbar label ran past the figure's top edge and read
    'first-player advantage (percentage poin'. A label too long for the figure's height now puts its unit on a
    line of its own (and wraps what is still too long), so every text of the figure is inside it."""
    from sim.pages import sweep_plots as sweep_page
    from tests.sim._plots import texts_outside

    r, doc = sweep(
        tmp_path,
        scen(tmp_path),
        "--set",
        "track_len=24,28",
        "--set",
        "die_faces=4,6",
        "--games",
        40,
        "--measure",
        "first_player_advantage",
        "--measure",
        "margin",
    )
    assert r.exit_code == 0, r.output
    for m in doc["chosen"]:
        fig = sweep_page.heatmap(doc, m)
        assert texts_outside(fig) == [], m["name"]
    label = sweep_page.heatmap(doc, doc["chosen"][0]).axes[1].get_ylabel()
    assert label == "first-player advantage\n(percentage points)", label


@pytest.mark.kernel
@pytest.mark.parametrize(
    "args,table",
    [
        (["--set", "track_len=26,28", "--set", "players=2"], ""),  # a --set of one value beside a --set axis
        (["--set", "die_faces=6"], 'track_len = "26..28 step 2"\n'),  # beside a [sweep] axis
        (["--mode", "zip", "--set", "track_len=26,28", "--set", "die_faces=6"], ""),  # zip: not "same number"
        (["--set", "track_len=26,28"], "players = [2]\n"),  # a [sweep] entry of one value
    ],
)
def test_a_one_value_name_is_fixed_on_every_point_not_an_axis(tmp_path, args, table):
    """A fresh user's `sim sweep moor/4p.toml --set track_len=20..40 --set players=4` drew a one-point plot per
    fixed value: the one-value name was an axis. It is an override of every point, as --set is in `sim run`: the
    swept name alone is the axis (its plots have it on x), the page and summary say what was fixed."""
    from sim.pages import sweep_plots as page

    p = scen(tmp_path, table)
    r, doc = sweep(tmp_path, p, *args, "--games", "20", "--measure", "length.rounds")
    assert r.exit_code == 0, r.output
    assert [a["name"] for a in doc["axes"]] == ["track_len"]
    fixed = {f["name"]: f["value"] for f in doc["fixed"]}
    assert fixed in ({"players": 2}, {"die_faces": 6})
    assert [pt["values"] for pt in doc["points"]] == [{"track_len": 26}, {"track_len": 28}]
    # every point plays the fixed value: the same games as a sim run with it
    name, value = next(iter(fixed.items()))
    assert (doc["scenario"]["players"] if name == "players" else doc["scenario"]["params"][name]) == value
    (a,) = page.line_plot(doc, doc["chosen"][0], 0).axes
    assert "track length" in a.get_xlabel() and a.get_legend() is None
    assert [t.get_text() for t in a.get_xticklabels()] == ["26", "28"]
    assert [pid for pid, _, _ in page.plot_list(doc)] == ["line-length.rounds-track_len"]
    html = (tmp_path / "out" / "sweep.html").read_text()
    assert "fixed (every point)" in html
    assert f"every point with {'players' if name == 'players' else 'die faces (die_faces)'} = {value}" in r.stdout


@pytest.mark.kernel
def test_a_fixed_value_plays_as_sim_run_with_that_set(tmp_path):
    """The fixed value is played at every point, and the scenario's own point is found with it applied."""
    from sim.api.sweep import build

    sw = build(scen(tmp_path), ["track_len=26,30", "die_faces=4"], games=20)
    assert [a.name for a in sw.axes] == ["track_len"] and [a.name for a in sw.fixed] == ["die_faces"]
    assert all(pt.scenario.params["die_faces"] == 4 for pt in sw.points)
    assert sw.base.params["die_faces"] == 4 and sw.base.overrides == (("die_faces", 4),)
    from sim.stats.sweep_table import sw_default

    assert sw_default(sw) == 1  # track_len 30 is the scenario's own, with die_faces 4 as fixed
    one = build(scen(tmp_path), ["track_len=28"], games=20)  # every name one value: a one-point sweep, as before
    assert [a.name for a in one.axes] == ["track_len"] and one.fixed == []


@pytest.mark.kernel
def test_a_sweep_of_another_fixed_value_warns_that_it_replaces_the_page(tmp_path):
    """The fixed values are part of what a sweep folder holds: another one replaces its page, with the warning."""
    p = scen(tmp_path)
    r, _ = sweep(tmp_path, p, "--set", "track_len=26,28", "--set", "die_faces=4", "--games", "10")
    assert r.exit_code == 0 and "warning" not in r.output
    r, _ = sweep(tmp_path, p, "--set", "track_len=26,28", "--set", "die_faces=4", "--games", "10")
    assert r.exit_code == 0 and "warning" not in r.output  # the same sweep again: no warning
    r, _ = sweep(tmp_path, p, "--set", "track_len=26,28", "--set", "die_faces=6", "--games", "10")
    assert r.exit_code == 0 and "die_faces = 4" in r.output and "die_faces = 6" in r.output and "replaces" in r.output


def test_against_own_gives_each_difference_a_verdict_at_its_margin():
    """With margins, a point tested against the scenario's own is unchanged (its interval within the margin),
    changed (significant and beyond it) or cannot be told yet; only the changed ones are named as differing."""
    from sim.stats.sweep_table import against_own

    tests = [
        {"point": 1, "measure": "m", "diff": 0.001, "ci95": [-0.003, 0.005], "p": 0.6, "se": 0.002, "n": 20000},
        {"point": 2, "measure": "m", "diff": 0.05, "ci95": [0.04, 0.06], "p": 1e-12, "se": 0.005, "n": 20000},
        {"point": 3, "measure": "m", "diff": 0.004, "ci95": [-0.016, 0.024], "p": 0.7, "se": 0.01, "n": 20000},
    ]
    a = against_own(tests, 20000, margins={"m": 0.01})
    assert [t["verdict"] for t in a["differ"]] == ["changed"] and a["differ"][0]["point"] == 2
    assert a["verdicts"]["unchanged"] == 1 and a["verdicts"]["cannot_tell"] == 1
    assert a["verdicts"]["more_games"] > 20000


@pytest.mark.kernel
def test_margin_sets_the_change_that_matters_against_the_scenario_s_own_point(tmp_path):
    """--margin length.rounds=100 makes every point unchanged within it; a measure not swept is one line, exit 2."""
    p = scen(tmp_path)
    r, doc = sweep(
        tmp_path,
        p,
        "--set",
        "track_len=20,30,40",
        "--games",
        "200",
        "--measure",
        "length.rounds",
        "--margin",
        "length.rounds=100",
    )
    assert r.exit_code == 0, r.output
    assert all(t["margin"] == 100 for t in doc["against_own"]["differ"]) and not doc["against_own"]["differ"]
    assert doc["against_own"]["verdicts"]["unchanged"] == 2
    bad = cli.invoke(
        app,
        [
            "sweep",
            str(p),
            "--set",
            "track_len=20,30",
            "--games",
            "20",
            "--measure",
            "length.rounds",
            "--margin",
            "tie=1",
            "--out",
            str(tmp_path / "bad"),
        ],
    )
    assert bad.exit_code == 2 and "--margin: 'tie' is not a swept measure; allowed: length.rounds" in bad.output
    assert not (tmp_path / "bad").exists()


@pytest.mark.parametrize(
    "text, said",
    [
        ("", "--set '': expected NAME=VALUES (a value, a list a,b,c or a range LO..HI [step S])"),
        ("=5", "--set =5: '' is not a parameter name; names are words joined by dots"),
        ("a b=3", "--set a b=3: 'a b' is not a parameter name"),
        ("track_len=", "--set track_len=: expected NAME=VALUES"),
    ],
)
def test_a_bad_sweep_set_is_named_as_typed(text, said):
    """`--set ""` said "--set =0: '' is not a parameter name": the name check quoted an override of its own."""
    from sim.model.overrides import OverrideError
    from sim.model.overrides import parse_set as parse_one
    from sim.model.sweep_spec import parse_set

    with pytest.raises(SweepError) as e:
        parse_set(text)
    assert str(e.value).startswith(said) and "=0" not in str(e.value)
    if text in ("", "=5"):  # sim run's --set: the same words
        with pytest.raises(OverrideError) as e2:
            parse_one(text)
        assert str(e2.value).startswith(said.split(":")[0].replace("VALUES", "VALUE"))
