"""`sim tune`: it lands where a sweep's curve crosses the target; the same study in this process, on a 2-worker
Dask LocalCluster and after an interruption; stored points are reused; best.toml plays the confirmed games; bad
names, ranges and targets are one line before anything runs. Moor scenarios and a few hundred games a trial."""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from sim.api.tune import TuneProgress, tune
from sim.cli import main as cli_main
from sim.cli.common import EXIT_BAD_INPUT, EXIT_USAGE
from sim.model.tune_spec import TuneError, build, parse_param, parse_target
from tests.sim._cli import one_error_line

REPO = Path(__file__).resolve().parents[2]
MOOR = """
[scenario]
name = "moor-tune-test"
game = "moor"
players = 3
seed = 11
games = 400

[[seats]]
strategy = "weighted"

[[seats]]
strategy = "weighted"

[[seats]]
strategy = "weighted"
"""


def _file(tmp_path: Path, extra: str = "") -> Path:
    p = tmp_path / "moor-tune-test.toml"
    p.write_text(MOOR + extra, encoding="utf-8")
    return p


@pytest.fixture
def reports(tmp_path, monkeypatch):
    """A reports folder of the test's own (the tune looks there for sweeps' stored points)."""
    from sim.model import paths

    r = tmp_path / "reports"
    monkeypatch.setattr(paths, "REPORTS", r)
    return r


def _study(folder: Path) -> pl.DataFrame:
    return pl.read_parquet(folder / "tune.parquet")


# --- the spec -------------------------------------------------------------------------------------------------------


def test_range_forms_give_int_grid_continuous_and_choice_parameters():
    a = parse_param("track_len=20..60")
    assert (a.kind, a.low, a.high, a.step, len(a.grid())) == ("int", 20, 60, 1, 41)
    b = parse_param("track_len=20..60 step 5")
    assert b.kind == "int" and b.grid() == list(range(20, 61, 5))
    c = parse_param("seats.0.w_goal=0.5..2")
    assert c.kind == "float" and c.step is None and c.grid() is None
    d = parse_param("seats.0.w_goal=0.5..2.0 step 0.5")
    assert d.grid() == [0.5, 1.0, 1.5, 2.0]
    e = parse_param("ghost_values=[1,2,3,4,5,6,7],[0,1,2,3,4,5,6]")
    assert e.kind == "choice" and e.choices == ([1, 2, 3, 4, 5, 6, 7], [0, 1, 2, 3, 4, 5, 6])
    t = parse_target("team_win_rate=40%..60%", "--target")
    assert (t.low, t.high, t.distance(0.3), t.distance(0.5)) == (0.4, 0.6, pytest.approx(0.1), 0.0)
    assert t.distance_interval(0.35, 0.45) == (0.0, pytest.approx(0.05))


@pytest.mark.kernel
def test_a_tune_table_is_read_as_a_sweep_table_is_and_options_win(tmp_path):
    f = _file(
        tmp_path,
        '\n[tune]\ntrials = 7\ngames = 300\ntarget = "length.rounds=20..25"\ntrack_len = "20..40"\n'
        "seats.0.w_goal = [0.5, 1.5]\n",
    )
    t = build(f)
    assert [p.name for p in t.params] == ["track_len", "seats.0.w_goal"]
    assert (t.trials, t.games, t.confirm_games, t.targets[0].low) == (7, 300, 1200, 20.0)
    t2 = build(f, ["track_len=24..30"], ["first_player_advantage=0"], trials=3)
    assert t2.params[-1].low == 24 and t2.targets[0].measure == "first_player_advantage" and t2.trials == 3
    assert t2.grid_points() == 7 * 2


@pytest.mark.kernel
def test_every_default_tune_is_valid_and_modest():
    from sim.api.tune import build as api_build

    files = sorted(REPO.glob("scenarios/*/tunes/*.toml"))
    assert {f.parent.parent.name for f in files} == {"moor", "treasure_hunters", "galleon", "turnwall"}
    for f in files:
        t = api_build(f)
        assert t.trials * t.games + t.confirm * t.confirm_games <= 200_000, f


@pytest.mark.kernel
@pytest.mark.parametrize(
    "args, code, says",
    [
        (["--param", "trak_len=20..30", "--target", "first_player_advantage=0"], EXIT_USAGE, "trak_len"),
        (["--param", "track_len=5..30", "--target", "first_player_advantage=0"], EXIT_USAGE, "value 5"),
        (["--param", "track_len=30..20", "--target", "first_player_advantage=0"], EXIT_USAGE, "backwards"),
        (["--param", "track_len=20...30", "--target", "first_player_advantage=0"], EXIT_USAGE, "not a range"),
        (["--param", "track_len=30", "--target", "first_player_advantage=0"], EXIT_USAGE, "one choice (30)"),
        (["--param", "track_len=abc", "--target", "first_player_advantage=0"], EXIT_USAGE, 'one choice ("abc")'),
        (["--param", "track_len=20..30", "--target", "fpa=0"], EXIT_USAGE, "allowed: first_player_advantage"),
        (["--param", "track_len=20..30", "--target", "length.rounds=lots"], EXIT_USAGE, "not a number"),
        (["--param", "track_len=20..30", "--target", "length.rounds=9..3"], EXIT_USAGE, "backwards"),
        (["--param", "track_len=20..30", "--target", "win.seat0=25"], EXIT_USAGE, "allowed 0%..100%"),  # 25 meant 25%
        (["--param", "track_len=20..30", "--target", "win.seat0=40%..150%"], EXIT_USAGE, "outside what win.seat0"),
        (["--param", "track_len=20..30", "--target", "first_player_advantage=-90%"], EXIT_USAGE, "outside what"),
        (["--param", "track_len=20..30"], EXIT_USAGE, "no target"),
        (["--target", "length.rounds=5"], EXIT_USAGE, "nothing to tune"),
        (["--param", "seed=1..9", "--target", "length.rounds=5"], EXIT_USAGE, "not a setting"),
        (["--param", "track_len=20..30", "--target", "length.rounds=5", "--trials", "0"], EXIT_USAGE, "--trials"),
    ],
)
def test_bad_input_is_one_line_before_anything_runs(tmp_path, args, code, says):
    r = CliRunner().invoke(cli_main.app, ["tune", str(_file(tmp_path)), *args, "--out", str(tmp_path / "o")])
    line = one_error_line(r)
    assert r.exit_code == code and says in line, line
    assert not (tmp_path / "o").exists()  # nothing ran, nothing written


@pytest.mark.kernel
def test_a_bad_tune_table_entry_is_the_files_fault(tmp_path):
    f = _file(tmp_path, '\n[tune]\ntarget = "length.rounds=5"\ntrack_len = 25\n')
    r = CliRunner().invoke(cli_main.app, ["tune", str(f), "--out", str(tmp_path / "o")])
    assert r.exit_code == EXIT_BAD_INPUT and "[tune] track_len" in one_error_line(r)
    with pytest.raises(TuneError, match=r"\[tune\] target"):
        build(_file(tmp_path, "\n[tune]\ntarget = 5\ntrack_len = '20..30'\n"))


# --- the search -----------------------------------------------------------------------------------------------------


@pytest.mark.kernel
def test_tune_lands_where_the_sweeps_curve_crosses_the_target(tmp_path, reports):
    """A sweep maps game length (rounds) against track length; a target between two of its points: the tune's
    setting lies where the sweep's interval band contains the target (to the nearest integer), and its confirmed
    interval reaches the target or misses it by less than the curve moves in one space of track."""
    import sim

    f = _file(tmp_path)
    sw = sim.sweep(f, set={"track_len": "20..40 step 4"}, games=400, measures=["length.rounds"])
    pts = sw.points.filter(pl.col("measure") == "length.rounds").sort("point")
    xs = list(range(20, 41, 4))
    v, lo, hi = pts["value"].to_list(), pts["ci_low"].to_list(), pts["ci_high"].to_list()
    target = (v[2] + v[3]) / 2  # between track_len 28 and 32
    res = tune(f, {"track_len": "20..40"}, f"length.rounds={target}", trials=10, games=400, confirm=2, batch=2)
    x = res.best["track_len"]

    def band(curve):  # the track lengths where the interpolated curve passes the target
        out = []
        for i in range(len(xs) - 1):
            a, b = curve[i] - target, curve[i + 1] - target
            if a == 0 or a * b < 0:
                out.append(xs[i] + (xs[i + 1] - xs[i]) * a / (a - b))
        return out

    inside = band(lo) + band(hi) + band(v)
    assert min(inside) - 1 <= x <= max(inside) + 1, (x, inside)
    ch = res.raw["chosen"]["targets"][0]
    slope = (v[-1] - v[0]) / (xs[-1] - xs[0])  # rounds per space of track
    assert ch["ci95"][0] <= target <= ch["ci95"][1] or ch["distance"] < abs(slope)
    assert res.raw["budget"]["grid_points"] == 21 and res.best_toml is not None


@pytest.mark.kernel
def test_points_a_sweep_stored_are_reused_not_played(tmp_path, reports):
    import sim

    f = _file(tmp_path)
    sim.sweep(f, set={"track_len": "24,30,36"}, games=300, measures=["first_player_advantage"])
    res = tune(f, {"track_len": [24, 30, 36]}, "first_player_advantage=0", trials=4, games=300, confirm=1)
    b = res.raw["budget"]
    assert b["points_copied"] == b["trial_points"] >= 2  # every setting tried was a point of the sweep
    assert res.games == 1200  # only the confirmation (1 candidate x 4 x 300 games) was played


@pytest.mark.kernel
def test_best_toml_plays_the_confirmation_games_with_the_same_numbers(tmp_path, reports):
    import sim

    res = tune(_file(tmp_path), {"track_len": "24..34"}, "first_player_advantage=0", trials=4, games=300, confirm=2)
    assert res.best_toml is not None
    run = sim.run(res.best_toml)
    fpa = run.measures.filter(pl.col("measure") == "first_player_advantage").row(0, named=True)
    ch = res.raw["chosen"]["targets"][0]
    assert fpa["value"] == pytest.approx(ch["value"], abs=1e-12)
    assert [fpa["ci_low"], fpa["ci_high"]] == pytest.approx(ch["ci95"], abs=1e-12)
    assert run.scenario.params["track_len"] == res.best["track_len"]


@pytest.mark.kernel
def test_tune_page_notes_that_the_description_is_the_files(tmp_path, reports):
    """The tune page showed the file's description bare, though every trial plays other settings of what is tuned
    (sim run's and the sweep's pages note it: 'the description above is the scenario file's')."""
    p = tmp_path / "desc.toml"
    p.write_text(MOOR.replace("seed = 11", 'seed = 11\ndescription = "track of 30, all weighted"'), encoding="utf-8")
    res = tune(p, {"track_len": "24..34"}, "first_player_advantage=0", trials=2, games=60, confirm=1)
    import html as h

    page = h.unescape((res.folder / "tune.html").read_text(encoding="utf-8"))
    assert "track of 30, all weighted. Tuned: track_len (the description above is the scenario file's)." in page


@pytest.mark.kernel
def test_two_targets_use_nsga2_and_draw_the_pareto_front(tmp_path, reports):
    res = tune(
        _file(tmp_path),
        {"track_len": "20..40", "die_faces": "4..8"},
        ["first_player_advantage=0", "length.rounds=20..24"],
        trials=8,
        games=200,
        confirm=2,
    )
    assert res.raw["sampler"] == "NSGA-II"
    t = res.trials
    assert t.filter(pl.col("pareto")).height >= 1 and "length.rounds.distance" in t.columns
    html = (res.folder / "tune.html").read_text(encoding="utf-8")
    assert 'id="plot-pareto"' in html and 'id="plot-confirm"' in html and 'id="plot-trials"' in html
    assert "p p =" not in html and "[-0.000" not in html  # the told-apart column: one "p =", no signed zero
    c = res.candidates
    assert set(c["measure"]) == {"first_player_advantage", "length.rounds"} and c.filter(pl.col("chosen")).height == 2


@pytest.mark.kernel
def test_candidates_that_cannot_be_told_apart_are_named(tmp_path, reports):
    """A turn cap no game reaches changes no game: the two settings of the longer track play identical games (a
    paired difference of exactly 0, tied with the chosen one); the shorter track's games are far shorter (told
    apart)."""
    res = tune(
        _file(tmp_path),
        ["max_turns=1000,2000", "track_len=20,40"],
        "length.rounds=500",  # every setting falls short: the longer track is nearer
        trials=8,
        games=200,
        confirm=4,
    )
    cs = res.raw["candidates"]
    assert len(cs) == 4 and sum(c["chosen"] for c in cs) == 1
    chosen = next(c for c in cs if c["chosen"])
    assert chosen["values"]["track_len"] == 40
    for c in cs:
        if c["chosen"]:
            continue
        if c["values"]["track_len"] == 40:
            assert c["vs_chosen"]["diff"] == 0 and c["tied"]
        else:
            assert c["vs_chosen"]["diff"] > 0 and c["vs_chosen"]["p_holm"] < 0.05 and not c["tied"]


# --- the study: determinism, resuming -------------------------------------------------------------------------------


def _small(f: Path, out: Path, **kw):
    return tune(
        f,
        {"track_len": "20..40", "die_faces": "4..8"},
        "first_player_advantage=0",
        trials=6,
        games=200,
        confirm=2,
        batch=2,
        out=out,
        **kw,
    )


@pytest.mark.kernel
def test_the_study_is_the_same_after_an_interruption(tmp_path, reports):
    f = _file(tmp_path)
    ref = _small(f, tmp_path / "ref")
    told = []

    def stop(info):
        told.append(info["number"])
        if len(told) == 3:  # the second batch half told: its other trial asked, never told
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _small(f, tmp_path / "cut", progress=TuneProgress(trial=stop))
    assert not (tmp_path / "cut" / "tune.json").exists() and (tmp_path / "cut" / "study.db").exists()
    games = {"n": 0}

    def count(_i, n):
        games["n"] += n
        if games["n"] > 200:  # stopped again, while a batch's games are played
            raise KeyboardInterrupt

    from sim.play.sweep import Progress

    with pytest.raises(KeyboardInterrupt):
        _small(f, tmp_path / "cut", progress=TuneProgress(games=Progress(advance=count)))
    got = _small(f, tmp_path / "cut")
    assert _study(got.folder).drop("key").equals(_study(ref.folder).drop("key"))
    assert got.raw["chosen"]["values"] == ref.raw["chosen"]["values"]
    assert got.raw["candidates"] == ref.raw["candidates"]


@pytest.mark.kernel
def test_a_rerun_continues_the_study_and_plays_nothing_again(tmp_path, reports):
    f = _file(tmp_path)
    first = _small(f, tmp_path / "t")
    six = _study(first.folder)
    again = _small(f, tmp_path / "t")
    assert again.games == 0 and _study(again.folder).equals(six)
    more = tune(
        f,
        {"track_len": "20..40", "die_faces": "4..8"},
        "first_player_advantage=0",
        trials=8,
        games=200,
        confirm=2,
        batch=2,
        out=tmp_path / "t",
    )
    assert more.trials.height == 8  # two more trials asked; the first six as they were
    assert more.trials.head(6).drop("pareto", "confirmed").equals(six.drop("pareto", "confirmed"))
    anew = _small(f, tmp_path / "t", fresh=True)  # the study and the points forgotten: six trials played again
    assert anew.trials.height == 6 and anew.games > 0 and _study(anew.folder).equals(six)


@pytest.mark.kernel
def test_the_study_is_the_same_on_a_two_worker_local_cluster(tmp_path, reports):
    pytest.importorskip("distributed")
    f = _file(tmp_path)
    ref = _small(f, tmp_path / "here")
    got = _small(f, tmp_path / "dask", workers=2)
    assert _study(got.folder).equals(_study(ref.folder))
    assert got.raw["candidates"] == ref.raw["candidates"]
    assert "LocalCluster" in got.raw["provenance"]["executor"]
    assert all(math.isfinite(t["score"]) for t in got.raw["trials"] if t["score"] is not None)


@pytest.mark.kernel
def test_the_cli_writes_the_folder_and_lists_it_in_the_index(tmp_path, reports):
    f = _file(tmp_path)
    r = CliRunner().invoke(
        cli_main.app,
        [
            "tune",
            str(f),
            "--param",
            "track_len=24..30",
            "--target",
            "first_player_advantage=0",
            "--trials",
            "3",
            "--games",
            "200",
            "--confirm",
            "1",
        ],
    )
    assert r.exit_code == 0, r.output
    folder = reports / "tune-moor-tune-test"
    assert {"tune.json", "tune.parquet", "tune.html", "best.toml", "study.db"} <= {p.name for p in folder.iterdir()}
    assert "chosen: track length (track_len) = " in r.stdout
    assert r.stderr.count("tune moor-tune-test: trial ") == 3
    assert "tune-moor-tune-test/tune.html" in (reports / "index.html").read_text(encoding="utf-8")


@pytest.mark.kernel
def test_a_folder_another_running_tune_holds_is_refused_in_one_line(tmp_path, reports):
    import subprocess
    import sys

    from sim.output.tune_output import LOCK

    f = _file(tmp_path)
    out = tmp_path / "held"
    out.mkdir()
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        (out / LOCK).write_text(str(sleeper.pid))
        r = CliRunner().invoke(
            cli_main.app,
            [
                "tune",
                str(f),
                "--param",
                "track_len=24..30",
                "--target",
                "first_player_advantage=0",
                "--trials",
                "2",
                "--games",
                "100",
                "--confirm",
                "1",
                "--out",
                str(out),
            ],
        )
        assert r.exit_code == EXIT_BAD_INPUT and f"process {sleeper.pid}" in one_error_line(r)
        assert not (out / "study.db").exists()
    finally:
        sleeper.kill()
        sleeper.wait()
    res = tune(f, {"track_len": "24..30"}, "first_player_advantage=0", trials=2, games=100, confirm=1, out=out)
    assert res.best_toml is not None and not (out / LOCK).exists()  # a dead process's lock is taken over


@pytest.mark.kernel
def test_an_interrupted_fresh_rerun_keeps_the_earlier_tune_as_it_was(tmp_path, reports):
    """`sim tune --fresh` stopped by Ctrl-C deleted the earlier tune.json/html/best.toml: they now stay, byte for
    byte, until the new tune replaces them."""
    f = _file(tmp_path)
    first = _small(f, tmp_path / "t")
    names = ("tune.json", "tune.html", "tune.parquet", "best.toml")
    before = {o: (first.folder / o).read_bytes() for o in names}

    def stop(info):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _small(f, tmp_path / "t", fresh=True, progress=TuneProgress(trial=stop))
    assert {o: (tmp_path / "t" / o).read_bytes() for o in names} == before


@pytest.mark.kernel
@pytest.mark.parametrize("after", [0, 1])
def test_an_interrupted_tune_says_how_many_points_it_kept(tmp_path, reports, monkeypatch, after):
    """The stop line of `sim tune` said 'the study and the points played so far are kept' without looking: stopped
    before any point was stored it kept nothing, and left a folder with a study of no trial. It now counts the
    points stored; with none it says nothing half-written is left, and leaves no study it started nor the folder
    it made."""
    from sim.output.sweep_output import stored_points
    from sim.play import tune_points

    real = tune_points.play
    calls = {"n": 0}

    def play(*a, **kw):
        if calls["n"] >= after:
            raise KeyboardInterrupt
        calls["n"] += 1
        return real(*a, **kw)

    monkeypatch.setattr(tune_points, "play", play)
    from sim.cli import common as cli_common

    monkeypatch.setattr(cli_common, "_STOP_SAID", [])  # the stop line is said once a process: here once a case
    out = tmp_path / "t"
    args = ["tune", str(_file(tmp_path)), "--param", "track_len=20..40", "--target", "first_player_advantage=0"]
    r = CliRunner().invoke(cli_main.app, [*args, "--trials", "4", "--batch", "2", "--games", "40", "--out", str(out)])
    assert r.exit_code == 130, r.output
    line = next(ln for ln in r.stderr.splitlines() if "stopped" in ln)
    if after == 0:
        assert "nothing half-written left" in line and "kept" not in line, line
        assert not out.exists()
    else:
        n = stored_points(out)
        assert n == 2 and f"the study and the 2 points played so far are kept in {out}" in line, line
        assert (out / "study.db").exists() and not (out / "tune.json").exists()


@pytest.mark.parametrize("raw", ["a..b", "20..sixty", "x20..60"])
def test_a_range_whose_ends_are_not_numbers_says_so_not_one_choice(raw):
    """`--param track_len=a..b` said "one choice; give two or more": a range was meant. The line names the field,
    what a range takes and what was given."""
    with pytest.raises(TuneError) as e:
        parse_param(f"track_len={raw}")
    line = str(e.value)
    assert line.startswith(f"--param track_len={raw}: ") and f"'{raw}' is not a range" in line, line
    assert "LO..HI" in line and "one choice" not in line
