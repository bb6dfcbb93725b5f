"""Units of work and Dask: results are bit-identical whatever the execution (in-process, a 2-worker LocalCluster, a
worker killed mid-sweep and its units retried, any chunking). One LocalCluster for the module; tiny game counts."""

from __future__ import annotations

import os
import signal

import pytest

from sim.api import core as api
from sim.play import distributed, work
from tests.conftest import moor

pytestmark = pytest.mark.kernel  # every test here plays games

pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def dask_ex():
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    client = Client(cluster)
    ex = distributed.DaskExecutor(client, "test LocalCluster", window=2)
    ex.cluster = cluster
    yield ex
    ex.close()


def test_any_chunking_merges_to_the_same_aggregates():
    sc = moor(players=3, strategies=("weighted", "collector", "random"), games=700)
    ref = work.run(sc, chunk=700)
    for size in (97, 333):
        units = [work.Unit("r", i, sc, g0, n, sc.seed) for i, (g0, n) in enumerate(work.chunks(700, size))]
        rs = [r for _, r in distributed.InProcess().map(reversed(units))]
        assert work.merge(rs).agg.to_dict() == ref.agg.to_dict()


def test_merge_refuses_chunks_that_do_not_tile():
    sc = moor(games=10)
    a = work.play_unit(work.Unit("r", 0, sc, 0, 5, 1))
    b = work.play_unit(work.Unit("r", 1, sc, 6, 4, 1))
    with pytest.raises(ValueError, match="do not tile"):
        work.merge([a, b])


def _strip(s: dict) -> dict:
    return {k: v for k, v in s.items() if k != "provenance"}


def test_sim_run_on_a_local_cluster_equals_in_process(dask_ex, tmp_path):
    sc = moor(players=4, games=900)
    ref, _ = api.run_scenario(sc, chunk=900, write=False)
    got, _ = api.run_scenario(sc, chunk=128, write=False, executor=dask_ex)
    assert _strip(got) == _strip(ref)


def test_per_game_rows_come_back_in_game_order(dask_ex, tmp_path):
    import polars as pl

    sc = moor(players=3, games=500)
    api.run_scenario(sc, chunk=500, out_dir=tmp_path / "a", per_game=True)
    api.run_scenario(sc, chunk=64, out_dir=tmp_path / "b", per_game=True, executor=dask_ex)
    a, b = (pl.read_parquet(tmp_path / x / "games.parquet") for x in "ab")
    assert a.equals(b) and b["game"].to_list() == list(range(500))


def test_sweep_with_a_worker_killed_midway_equals_in_process(dask_ex, tmp_path):
    from sim.api.sweep import Sweep, run_sweep
    from sim.model.sweep_spec import Axis, Point
    from sim.play.sweep import Progress

    lens = tuple(range(24, 35, 2))
    base = moor(players=4, games=1600, seed=3)
    points = [
        Point(i, {"track_len": t}, moor(players=4, games=1600, seed=3, track_len=t).with_changes(name=base.name))
        for i, t in enumerate(lens)
    ]
    sw = Sweep(base, [Axis("track_len", lens, "test")], "grid", points, 1600, ["first_player_advantage"])
    ref, _, _ = run_sweep(sw, distributed.InProcess(), tmp_path / "ref")
    client = dask_ex.client
    killed = {}

    def kill_one(index, games):
        if killed:
            killed["after"] += 1
            return
        busy = {w: len(ts) for w, ts in client.processing().items() if ts}
        if busy:  # a worker holding work: kill it (SIGKILL, no goodbye)
            victim = max(busy, key=busy.get)
            pid = client.run(os.getpid, workers=[victim])[victim]
            killed.update(worker=victim, tasks=busy[victim], after=0)
            os.kill(pid, signal.SIGKILL)

    got, _, played = run_sweep(sw, dask_ex, tmp_path / "dask", chunk=400, progress=Progress(advance=kill_one))
    assert killed and killed["after"] >= 1  # killed while it held work; the sweep went on
    assert len(played.played) == len(sw.points)
    assert _strip(got) == _strip(ref)


def _compared(res: dict) -> dict:
    """A comparison less what says how it ran (wall time, date, threads per unit, games per unit)."""
    return {k: v for k, v in res.items() if k not in ("provenance", "threads", "chunk")}


def test_compare_on_a_local_cluster_equals_in_process(dask_ex):
    """sim compare plays the one path's paired units: a fixed game count and an SPRT (which stops at the same
    chunk however many chunks the workers had in flight) give the same numbers on Dask as in this process."""
    from sim.api import compare as cmp
    from sim.stats import compare as C

    a = moor(players=4, games=2300)
    b = a.with_changes(params={**a.params, "track_len": 24})
    ref = cmp.compare(a, b, chunk=2300)
    got = cmp.compare(a, b, chunk=250, executor=dask_ex)
    assert _compared(got) == _compared(ref) and got["games"] == 2300
    sprt = C.Sprt(None, 0.2)
    ref = cmp.compare(a, b, chunk=2500, sprt=sprt, max_games=40_000)
    got = cmp.compare(a, b, chunk=2500, sprt=sprt, max_games=40_000, executor=dask_ex)
    assert _compared(got) == _compared(ref) and ref["stop"]["rule"] == "sprt" and ref["games"] < 40_000


def test_sim_compare_workers_gives_the_in_process_comparison(tmp_path):
    import json

    from typer.testing import CliRunner

    from sim.cli.main import app
    from sim.model.paths import REPO

    args = [
        "compare",
        str(REPO / "scenarios/moor/4p.toml"),
        "--set-b",
        "track_len=32",
        "--games",
        "1200",
        "--chunk",
        "300",
        "--json",
    ]
    here = CliRunner().invoke(app, args + ["--out", str(tmp_path / "a")])
    there = CliRunner().invoke(app, args + ["--out", str(tmp_path / "b"), "--workers", "2"])
    assert here.exit_code == 0 and there.exit_code == 0, there.output
    a, b = (json.loads((tmp_path / x / "compare.json").read_text()) for x in "ab")
    assert _compared(a) == _compared(b) and b["games"] == 1200
    bad = CliRunner().invoke(app, args + ["--workers", "0"])
    assert bad.exit_code == 2 and "--workers: 0 is out of range; allowed >= 1" in bad.output


def test_the_arc_crosses_to_the_workers(dask_ex):
    """The game's arc travels with the unit (`Unit.arc`; a worker has no run context): its counts and measures on
    the cluster equal this process's, and a compare of the arc measures too."""
    from sim.api import compare as cmp
    from sim.play.context import RunContext

    sc = moor(players=4, games=900)
    ref = work.play_games(sc, 900, 3, 900, None, RunContext(arc=True))
    got = work.play_games(sc, 900, 3, 128, dask_ex, RunContext(arc=True))
    assert got.agg.arc_changes.sum() == got.agg.finished and got.agg.to_dict() == ref.agg.to_dict()
    assert got.sums == ref.sums and "arc.comeback" in got.sums["n"]
    sb = sc.with_changes(seats=sc.seats[::-1])
    a = cmp.compare(sc, sb, games=600, chunk=200, ctx=RunContext(arc=True))
    b = cmp.compare(sc, sb, games=600, chunk=200, ctx=RunContext(arc=True), executor=dask_ex)
    assert [m for m in a["metrics"] if m["name"] == "arc.comeback"] == [
        m for m in b["metrics"] if m["name"] == "arc.comeback"
    ]
    assert any(m["name"] == "arc.comeback" for m in b["metrics"])


@pytest.mark.parametrize(
    "address, ok",
    [("tcp://10.0.0.5:8786", True), ("localhost:8786", True), ("foo", False), ("tcp://localhost", False),
     ("tcp://h:0", False), ("tcp://h:99999", False), (" ", False)],
)  # fmt: skip
def test_a_scheduler_address_is_read_before_dask_parses_it(address, ok):
    """A malformed address was Dask's ValueError with a traceback; now one line naming what is wrong."""
    assert (distributed.address_problem(address) == "") is ok


def test_a_malformed_scheduler_variable_is_one_line_naming_the_variable(monkeypatch):
    monkeypatch.setenv(distributed.ENV_SCHEDULER, "foo")
    with pytest.raises(distributed.ExecutionError, match=r"^\$DASK_SCHEDULER_ADDRESS: 'foo' is not an address"):
        with distributed.executor():
            pass


def test_training_on_dask_workers_gives_the_weights_of_this_process(dask_ex, tmp_path):
    """`sim train --workers`: the training games as one Dask task each, put back in game order: the same decisions,
    weights and strength as in this process (issue 38: training scales on a Dask cluster, reproducibly)."""
    from sim.api.train import TrainConfig, train

    cfg = TrainConfig("moor", "player", 5, 2, 3, 8, 200, 1e-3)
    here = train(cfg, tmp_path / "here", threads=1, say=lambda _s: None)
    lines: list[str] = []
    there = train(cfg, tmp_path / "dask", threads=1, say=lines.append, executor=dask_ex)
    assert [it["weights"] for it in there["iterations"]] == [it["weights"] for it in here["iterations"]]
    assert [it["decisions"] for it in there["iterations"]] == [it["decisions"] for it in here["iterations"]]
    assert [it["strength"] for it in there["iterations"]] == [it["strength"] for it in here["iterations"]]
    assert any("3/3 games" in x for x in lines)


def test_calls_in_this_process_and_on_dask_give_each_result_with_its_index(dask_ex):
    args = [(i, 3) for i in range(7)]
    want = {i: pow(*a) for i, a in enumerate(args)}
    assert dict(dask_ex.calls(pow, args)) == want
    assert dict(distributed.InProcess().calls(pow, args)) == want
