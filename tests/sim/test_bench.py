"""`sim bench` rendering: targets come from the issues and each figure says whether it met its target."""

from __future__ import annotations

from sim.api import bench


def _res(two_threads: int, compile_s: float) -> dict:
    g = {
        "scenario": "scenarios/moor/4p.toml",
        "targets": dict(bench.BENCH_SCENARIOS[0][2]),
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
    res["games"]["moor"].update(
        cold_compile_head_haunter_s=16.2, cold_compile_advanced_s=12.5, cold_compile_all_modes_s=22.0
    )
    out = bench.render(res)
    assert "cold compile of a Head Haunter game: 16.2 s (target <= 15 s: MISSED)" in out
    assert "an advanced game: 12.5 s (target <= 15 s: met)" in out
    assert "all three modes in one process: 22.0 s" in out


def test_bench_says_1_thread_and_2_threads():
    from sim.api import bench
    from tests.sim.test_bench import _res

    out = bench.render(_res(120_000, 11.0))
    assert "  1 thread: " in out and "  2 threads: " in out and "(s)" not in out
