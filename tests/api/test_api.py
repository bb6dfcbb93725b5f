"""`import sim` end to end: the typed API (sim.load / run / compare / sweep / check), its frozen results and Polars
frames, its one exception family, and the one play path (run, units and compare give the same integers)."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
import threading
import time
import tomllib
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

import sim
from sim.api.notebook import python_words
from sim.cli.main import app
from sim.model.paths import REPO
from tests.conftest import moor

MOOR = REPO / "scenarios/moor/4p.toml"
HUNT = REPO / "scenarios/treasure_hunters/basic-4p.toml"
MEASURE_COLUMNS = {
    "measure": pl.String,
    "label": pl.String,
    "unit": pl.String,
    "kind": pl.String,
    "headline": pl.Boolean,
    "value": pl.Float64,
    "ci_low": pl.Float64,
    "ci_high": pl.Float64,
    "n": pl.Int64,
}


def cli(*args) -> object:
    return CliRunner().invoke(app, [str(a) for a in args])


def test_import_sim_is_cheap_and_exports_the_functions():
    code = (
        "import sys, sim; assert 'numba' not in sys.modules and 'sim.api.public' not in sys.modules; "
        "import inspect; assert all(inspect.isfunction(getattr(sim, n)) for n in ('run', 'sweep', 'compare', "
        "'check', 'load')); assert 'numba' not in sys.modules"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert out.returncode == 0, out.stderr
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        sim.nope  # noqa: B018


def _seat0_or_team(raw: dict) -> tuple[str, float]:
    """The win-rate measure every game has and its value in the summary: seat 0's, or the hunters' team's."""
    if raw["team"]:
        return "team.hunter", raw["team"]["hunter"]["rate"]
    return "win.seat0", raw["seats"][0]["win"]["rate"]


@pytest.mark.kernel
@pytest.mark.parametrize("path,games", [(MOOR, 3000), (HUNT, 2000)], ids=["moor", "treasure_hunters"])
def test_run_returns_a_frozen_result_with_typed_frames(path, games):
    r = sim.run(path, games=games, per_game=True, threads=1)
    assert isinstance(r, sim.Result) and r.folder is None
    with pytest.raises(AttributeError):
        r.raw = {}  # frozen
    assert r.raw["games"]["played"] == games == r.scenario.games
    m = r.measures
    assert dict(m.schema) == MEASURE_COLUMNS and m.height > 5
    name, rate = _seat0_or_team(r.raw)
    win = m.filter(pl.col("measure") == name).row(0, named=True)
    assert win["kind"] == "rate" and win["ci_low"] <= win["value"] <= win["ci_high"] and win["n"] > 0
    assert win["value"] == pytest.approx(rate)
    assert r.summary.height and r.summary["headline"].all() and set(r.summary["measure"]) <= set(m["measure"])
    assert r.verdicts and all(isinstance(v, str) for v in r.verdicts)
    g = r.games()
    assert g.height == games and g["game"].to_list() == list(range(games))
    assert g.schema["game"] == pl.Int64 and g.schema["turns"] == pl.Int32 and g.schema["win_seat0"] == pl.Int8


@pytest.mark.kernel
def test_overrides_as_a_mapping_name_the_variant():
    r = sim.run(MOOR, games=500, set={"track_len": 32, "seats.2.strategy": "runner"}, threads=1)
    assert r.scenario.params["track_len"] == 32 and r.scenario.seats[2].strategy == "runner"
    assert r.scenario.name == "moor-4p--track_len=32--seats.2.strategy=runner"
    assert r.raw["scenario"]["overrides"] == [
        {"name": "track_len", "value": 32},
        {"name": "seats.2.strategy", "value": "runner"},
    ]


def _comparable(folder: Path) -> dict:
    s = json.loads((folder / "summary.json").read_text())
    for k in ("wall_time_s", "created_utc"):
        s["provenance"].pop(k)
    return s


@pytest.mark.kernel
def test_result_write_gives_the_summary_sim_run_writes(tmp_path):
    r = sim.run(MOOR, games=2000, set={"track_len": 32}, per_game=True, threads=1)
    folder = r.write(tmp_path / "api")
    assert folder == tmp_path / "api"
    out = cli(
        "run", MOOR, "--games", 2000, "--set", "track_len=32", "--per-game", "--threads", 1, "--out", tmp_path / "cli"
    )
    assert out.exit_code == 0, out.output
    assert _comparable(tmp_path / "api") == _comparable(tmp_path / "cli")
    files = {p.relative_to(tmp_path / "api") for p in (tmp_path / "api").rglob("*")}
    assert files == {p.relative_to(tmp_path / "cli") for p in (tmp_path / "cli").rglob("*")}
    assert pl.read_parquet(tmp_path / "api" / "games.parquet").equals(
        pl.read_parquet(tmp_path / "cli" / "games.parquet")
    )
    assert r.games().equals(pl.read_parquet(tmp_path / "cli" / "games.parquet"))


@pytest.mark.kernel
def test_run_with_write_streams_the_report_folder(tmp_path):
    r = sim.run(MOOR, games=300, write=True, out=tmp_path / "w", per_game=True, threads=1)
    assert r.folder == tmp_path / "w" and (r.folder / "games.parquet").is_file() and not r.outputs
    assert r.games().height == 300 and r.write(tmp_path / "w") == r.folder


@pytest.mark.kernel
def test_a_scenario_built_in_code_equals_the_one_loaded_from_its_file():
    doc = tomllib.loads(MOOR.read_text())
    assert sim.Scenario.from_dict(doc, name="4p", path=str(MOOR)) == sim.load(MOOR)
    built = sim.Scenario.from_dict(
        {"scenario": {"game": "moor", "players": 4, "games": 300, "seed": 1}, "seats": [{"strategy": "weighted"}] * 4},
        name="in-code",
    )
    assert sim.run(built, threads=1).raw["games"]["played"] == 300


def _cli_line(*args) -> tuple[int, str]:
    out = cli(*args)
    return out.exit_code, out.output.strip().removeprefix("error: ")


@pytest.mark.kernel
@pytest.mark.parametrize(
    "call,cli_args,kind,field,code",
    [
        (lambda: sim.run(MOOR, games=0), ("run", MOOR, "--games", 0), "OptionError", "games", 2),
        (
            lambda: sim.run(MOOR, set={"players": 9}),
            ("run", MOOR, "--set", "players=9"),
            "OverrideError",
            "set",
            2,
        ),
        (lambda: sim.run(MOOR, set={"nope": 1}), ("run", MOOR, "--set", "nope=1"), "OverrideError", "set", 2),
        (
            lambda: sim.run(REPO / "scenarios/moor/none.toml"),
            ("run", REPO / "scenarios/moor/none.toml"),
            "ScenarioError",
            "scenario",
            3,
        ),
        (
            lambda: sim.compare(MOOR, REPO / "scenarios/galleon/2p.toml", games=100),
            ("compare", MOOR, REPO / "scenarios/galleon/2p.toml", "--games", 100),
            "CompareError",
            None,
            3,
        ),
        (
            lambda: sim.compare(MOOR, games=100, precision=0.01),
            ("compare", MOOR, "--set-b", "track_len=32", "--games", 100, "--precision", 0.01),
            "OptionError",
            "games",
            2,
        ),
        (lambda: sim.check([MOOR], tier="fast"), ("check", MOOR, "--tier", "fast"), "OptionError", "tier", 2),
        (  # margins= as a mapping, as set= takes one: its entry read, not its key alone
            lambda: sim.compare(MOOR, set_b={"track_len": 32}, games=100, margins={"seat_spread": -1}),
            ("compare", MOOR, "--set-b", "track_len=32", "--games", 100, "--margin", "seat_spread=-1"),
            "OptionError",
            "margins",
            2,
        ),
    ],
)
def test_bad_input_is_one_sim_error_with_the_cli_line(call, cli_args, kind, field, code):
    with pytest.raises(sim.SimError) as e:
        call()
    assert type(e.value).__name__ == kind
    assert "\n" not in str(e.value) and e.value.field == field
    got_code, line = _cli_line(*cli_args)
    # the same line, in Python words where it names an option (games=0, not --games: 0; margins: for --margin)
    keywords = inspect.signature(getattr(sim, cli_args[0])).parameters
    assert got_code == code and python_words(line, keywords) == str(e.value)
    assert "--" not in str(e.value)


@pytest.mark.kernel
def test_error_attributes_name_field_allowed_and_given():
    with pytest.raises(sim.ScenarioError) as e:
        sim.Scenario.from_dict({"scenario": {"game": "chess", "players": 2}})
    assert (e.value.field, e.value.given) == ("scenario.game", "'chess'") and "moor" in e.value.allowed
    with pytest.raises(sim.OptionError) as o:
        sim.run(MOOR, games=0)
    assert (o.value.field, o.value.allowed, o.value.given) == ("games", "1..10,000,000,000", "0")
    with pytest.raises(sim.ScenarioError) as s:
        sim.load(MOOR, set={"players": 9})
    assert s.value.field == "set" and s.value.given == "9" and s.value.allowed
    for name in (
        "ScenarioError",
        "OverrideError",
        "OptionError",
        "OutputError",
        "CompareError",
        "SweepError",
        "BadBaseline",
        "RerunError",
        "ExecutionError",
    ):
        assert issubclass(getattr(sim, name), sim.SimError), name


@pytest.mark.kernel
def test_write_to_a_file_is_an_output_error(tmp_path):
    (tmp_path / "f").write_text("x")
    r = sim.run(MOOR, games=100, threads=1)
    with pytest.raises(sim.OutputError) as e:
        r.write(tmp_path / "f")
    assert isinstance(e.value, sim.SimError) and e.value.field == "folder"  # write(folder), not the CLI's --out
    assert str(e.value).startswith("folder=") and "--" not in str(e.value)
    with pytest.raises(sim.OutputError, match="per_game=True"):
        r.games()


@pytest.mark.kernel
def test_sweep_through_the_api(tmp_path):
    res = sim.sweep(MOOR, set={"track_len": [24, 32]}, games=400, out=tmp_path / "sw")
    assert isinstance(res, sim.SweepResult) and res.played == (0, 1) and (tmp_path / "sw" / "sweep.json").is_file()
    pts = res.points
    assert set(pts["point"]) == {0, 1} and {"axis.track_len", "measure", "value", "ci_low", "ci_high"} <= set(
        pts.columns
    )
    with pytest.raises(sim.SweepError):
        sim.sweep(MOOR, set={"nope": [1, 2]}, games=100, out=tmp_path / "bad")


@pytest.mark.kernel
def test_compare_through_the_api_equals_sim_compare(tmp_path):
    c = sim.compare(MOOR, set_b={"track_len": 32}, games=3000, threads=1, write=True, out=tmp_path / "api")
    assert isinstance(c, sim.Comparison) and c.games == 3000 and c.folder == tmp_path / "api"
    mt = c.metrics
    assert mt.schema["diff"] == pl.Float64 and mt.schema["significant"] == pl.Boolean and mt.height > 5
    assert {"measure", "a", "b", "ci_low", "ci_high", "p_holm"} <= set(mt.columns)
    assert (mt["ci_low"] <= mt["diff"]).all() and (mt["diff"] <= mt["ci_high"]).all()
    assert c.verdicts and all(isinstance(v, str) for v in c.verdicts)
    out = cli("compare", MOOR, "--set-b", "track_len=32", "--games", 3000, "--threads", 1, "--out", tmp_path / "cli")
    assert out.exit_code == 0, out.output

    def doc(f):
        d = json.loads((tmp_path / f / "compare.json").read_text())
        d.pop("provenance")
        return d

    assert doc("api") == doc("cli")


@pytest.mark.kernel
def test_check_through_the_api():
    res = sim.check([REPO / "scenarios/moor/2p.toml"], tier="exact")
    assert isinstance(res, sim.CheckResult) and res.ok and res.findings.height == 0
    assert res.scenarios.row(0, named=True)["ok"] and "moor" in res.text()


@pytest.mark.kernel
def test_one_play_path_run_units_and_compare_agree():
    """The same (seed, games) through work.run, units merged, and compare's paired units: the same integers."""
    from sim.api import compare as cmp
    from sim.play import work

    sc = moor(players=3, strategies=("weighted", "runner", "collector"), games=2100, seed=5)
    whole = work.run(sc, chunk=2100)
    units = [work.Unit("r", i, sc, g0, n, sc.seed) for i, (g0, n) in enumerate(work.chunks(2100, 400))]
    merged = work.merge([work.play_unit(u) for u in units])
    assert merged.agg.to_dict() == whole.agg.to_dict() and merged.sums == whole.sums
    assert (merged.margin == whole.margin).all()
    pairs = work.merge(
        [
            work.play_unit(work.Unit("c", i, sc, g0, n, sc.seed, against=sc))
            for i, (g0, n) in enumerate(work.chunks(2100, 700))
        ]
    ).pairs
    for name, acc in pairs.items():
        assert acc["sa"] == acc["sb"] == whole.sums["s"][name] and acc["n"] == whole.sums["n"][name], name
        assert acc["sd"] == acc["qd"] == 0
    res = cmp.compare(sc, sc, chunk=300)
    assert res["games"] == 2100 and all(r["diff"] == 0 for r in res["metrics"])
    r = sim.run(sc, threads=1)
    assert r.raw["aggregates"] == whole.agg.to_dict()


@pytest.mark.kernel
def test_cancel_stops_a_run_soon_and_writes_nothing(tmp_path):
    ctx = sim.RunContext(threads=1)
    sim.run(MOOR, games=64, ctx=ctx)  # compiled before the clock starts
    timer = threading.Timer(0.3, ctx.cancel.set)
    t0 = time.perf_counter()
    timer.start()
    with pytest.raises(sim.Cancelled):
        sim.run(MOOR, games=5_000_000, ctx=ctx, write=True, out=tmp_path / "never")
    assert time.perf_counter() - t0 < 0.3 + 1.5 and not (tmp_path / "never").exists()


@pytest.mark.kernel
def test_progress_travels_in_the_context():
    told: list[float] = []
    sim.run(MOOR, games=1000, ctx=sim.RunContext(threads=1, progress=told.append))
    assert sum(told) == 1000
    told.clear()
    sim.compare(MOOR, set_b={"track_len": 32}, games=600, ctx=sim.RunContext(threads=1, progress=told.append))
    assert sum(told) == 600


@pytest.mark.kernel
def test_a_frame_names_the_unit_of_the_value_it_holds():
    """Rates are shares in [0, 1] in the frames (the pages print them in %): the unit says share, not %."""
    r = sim.run(MOOR, games=300)
    units = dict(zip(r.measures["measure"].to_list(), r.measures["unit"].to_list()))
    assert units["win.seat0"] == "share of finished games"
    assert units["first_player_advantage"] == "share (difference)"
    assert units["length.rounds"] == "rounds"
    assert 0 <= r.measures.filter(pl.col("measure") == "win.seat0")["value"][0] <= 1


@pytest.mark.parametrize(
    "scenario, kw, kind, line",
    [
        (MOOR, {"games": "many"}, "OptionError", "games: expected an integer, got 'many'"),
        (MOOR, {"threads": 1.5}, "OptionError", "threads: expected an integer, got 1.5"),
        (42, {"games": 10}, "ScenarioError", "scenario: expected a scenario file path or a sim.Scenario, got 42"),
    ],
)
def test_a_value_of_the_wrong_type_from_python_is_a_sim_error_not_an_internal_one(scenario, kw, kind, line):
    with pytest.raises(sim.SimError) as e:
        sim.run(scenario, **kw)
    assert type(e.value).__name__ == kind and str(e.value) == line
