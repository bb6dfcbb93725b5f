"""`sim bench` rendering: targets come from the issues and each figure says whether it met its target."""

from __future__ import annotations

from sim.api import bench, bench_arc, bench_c
from sim.model import registry


def _res(two_threads: int, compile_s: float) -> dict:
    g = {
        "scenario": "scenarios/moor/4p.toml",
        "targets": dict(registry.get("moor").bench.targets),
        "threads": [
            {"threads": 1, "games_per_s": two_threads // 2, "decisions_per_s": 10},
            {"threads": 2, "games_per_s": two_threads, "decisions_per_s": 20},
        ],
        "cold_compile_s": compile_s,
        "first_game_warm_s": 0.8,
        "warm_run_1000_games_s": 3.0,
    }
    return {"machine": {"cpus": 2, "python": "3.11"}, "games": {"moor": g}}


def test_bench_render_marks_met_and_missed_targets():
    ok = bench.render(_res(120_000, 11.0))
    assert ">= 100,000 games/s: met" in ok and "(target <= 15 s: met)" in ok
    bad = bench.render(_res(90_000, 16.0))
    assert ">= 100,000 games/s: MISSED" in bad and "(target <= 15 s: MISSED)" in bad


def test_bench_games_without_a_compile_target_show_none():
    res = _res(40_000, 30.0)
    res["games"]["moor"]["targets"] = {
        "games_per_s_2_threads": 20_000,
        "cold_compile_s": None,
        "first_game_warm_s": None,
    }
    out = bench.render(res)
    assert "cold compile: 30.0 s;" in out and "target <= 15" not in out


def test_bench_says_when_fewer_threads_were_available_than_timed():
    res = _res(120_000, 11.0)
    res["games"]["moor"]["threads"][1]["threads_used"] = 1
    assert "(only 1 available: not a 2-thread figure)" in bench.render(res)


def test_bench_shows_each_treasure_hunters_mode_against_the_compile_target():
    res = _res(120_000, 11.0)
    res["games"] = {"treasure_hunters": res["games"]["moor"]}
    res["games"]["treasure_hunters"].update(
        cold_compile_head_haunter_s=16.2, cold_compile_advanced_s=12.5, cold_compile_all_modes_s=22.0
    )
    out = bench.render(res)
    assert "cold compile of a Head Haunter game: 16.2 s (target <= 15 s: MISSED)" in out
    assert "; an advanced game: 12.5 s (target <= 15 s: met)" in out
    assert "all three modes in one process: 22.0 s" in out


def test_bench_measures_what_each_game_declares_and_names_no_game():
    """The games, the cold-compile scenarios and the sweep come from the games' specs (`BenchSpec`): every declared
    scenario exists, each game's figures stand in its rank, and bench.py's source names no game."""
    from pathlib import Path

    games = bench.benched()
    assert [b.rank for _, b in games] == sorted(b.rank for _, b in games)
    for game, b in games:
        paths = (b.scenario, *b.compiles, *b.all_modes, *(m.scenario for m in b.modes))
        assert all((bench.REPO / p).exists() for p in paths), game
        assert b.scenario.startswith(f"scenarios/{game}/")
    assert set(bench.compile_scenarios()) >= {p for _, b in games for p in b.compiles}
    source = Path(bench.__file__).read_text()
    for game, b in games:
        assert game not in source.lower() and b.short.lower() not in source.lower(), game


def test_bench_says_1_thread_and_2_threads():
    from sim.api import bench
    from tests.sim.test_bench import _res

    out = bench.render(_res(120_000, 11.0))
    assert "  1 thread: " in out and "  2 threads: " in out and "(s)" not in out


def _c(ratio: float) -> dict:
    return {
        "cpu": 1,
        "play_s": 5.0,
        "kernel_games": 900_000,
        "c_games": 1_000_000,
        "repetitions": 5,
        "kernel_games_per_s": [181_000, 183_500, 182_000, 180_900, 183_000],
        "c_games_per_s": [200_100, 201_000, 200_500, 199_800, 200_900],
        "ratio": ratio,
        "ratio_low": ratio - 0.01,
        "ratio_high": ratio + 0.004,
        "target": bench_c.C_TARGET,
        "load_average": [1.5, 1.2, 1.0],
    }


def test_bench_kernel_against_c_gives_the_ratio_its_spread_and_the_verdict():
    res = _res(120_000, 11.0)
    res["games"]["moor"]["c"] = _c(0.913)
    out = bench.render(res)
    assert "kernel/C (4 random players, both pinned to CPU 1, CPU time, 5 timings each interleaved" in out
    assert ": 0.913 (target >= 0.9: met); spread 0.903-0.917" in out
    assert "kernel 180,900-183,500 games/s (900,000 games a timing), C 199,800-201,000 games/s" in out
    res["games"]["moor"]["c"] = _c(0.85)
    assert "0.850 (target >= 0.9: MISSED)" in bench.render(res)


def test_bench_without_a_c_compiler_says_so_in_one_line(monkeypatch, tmp_path):
    monkeypatch.setattr(bench_c, "C_BUILD", tmp_path / "build" / "moor_ref")
    src = tmp_path / "shared" / "bench" / "moor"  # a yardstick's source, wherever the clone sits
    src.mkdir(parents=True)
    (src / "moor_ref.c").write_text("int main(void) { return 0; }\n")
    monkeypatch.setattr(bench_c, "C_DIR", src)
    monkeypatch.setattr("shutil.which", lambda name: None)
    binary, why = bench_c.build_c()
    assert binary is None and why == "not measured: no C compiler (gcc) on PATH to build the C yardstick"
    res = _res(120_000, 11.0)
    res["games"]["moor"]["c"] = {"note": why}
    lines = [ln for ln in bench.render(res).splitlines() if "kernel/C" in ln]
    assert lines == ["  kernel/C: not measured: no C compiler (gcc) on PATH to build the C yardstick"]


def test_bench_without_the_c_yardstick_beside_the_clone_says_so_in_one_line(monkeypatch, tmp_path):
    monkeypatch.setattr(bench_c, "C_DIR", tmp_path / "nowhere")
    binary, why = bench_c.build_c()
    assert binary is None and why == f"not measured: no C yardstick at {tmp_path / 'nowhere' / 'moor_ref.c'}"


def test_bench_lists_every_cold_compile_with_its_rounds_and_verdict():
    res = _res(120_000, 11.0)
    res["cold_compile_cpu_s"] = {
        "scenarios/moor/4p.toml": [5.31, 5.12],
        "scenarios/turnwall/search-4p.toml": [15.4, 14.9],
    }
    res["cold_compile_pinned_cpu"] = 1
    out = bench.render(res)
    assert "pinned to CPU 1, best of 2 rounds (target <= 15 s each: met):" in out
    assert "  scenarios/moor/4p.toml               5.12 (5.31, 5.12)  met" in out
    assert "  scenarios/turnwall/search-4p.toml   14.90 (15.40, 14.90)  met" in out
    res["cold_compile_cpu_s"]["scenarios/turnwall/search-4p.toml"] = [15.4, 15.2]
    out = bench.render(res)
    assert "(target <= 15 s each: MISSED):" in out and "15.20 (15.40, 15.20)  MISSED" in out


def test_bench_render_says_the_arcs_targets():
    run = {"scenario": "scenarios/moor/4p.toml", "games": 200000, "run_s": 6.7, "run_arc_s": 8.0, "share": 0.194,
           "cpu_s": 2.81, "cpu_arc_s": 3.66, "cpu_share": 0.302, "target": 0.3}  # fmt: skip
    a = {"scenario": "scenarios/moor/4p.toml", "sample": 1000, "rollouts": 32, "timelines_s": 13.9, "target_s": 60.0,
         "runs": [run, {**run, "scenario": "scenarios/galleon/2p.toml", "games": 1000, "cpu_share": 0.12}]}  # fmt: skip
    lines = bench_arc.render_arc(a)
    assert "timelines of 1,000 games x 32 rollouts a state 13.9 s (target <= 60 s: met)" in lines[0]
    assert "target <= +30% of its CPU time" in lines[1]
    assert "200,000 games  wall   6.70 ->   8.00 s  +19%  cpu   2.81 ->   3.66 s  +30%  MISSED" in lines[2]
    assert lines[3].startswith("  scenarios/galleon/2p.toml") and lines[3].endswith("+12%  met")
    assert "arc: scenarios/moor/4p.toml" in bench.render(
        {"machine": {"cpus": 2, "python": "3.11"}, "games": {}, "arc": a}
    )
