"""`sim bench`'s learned-player block (issue 38): each default scenario's table at skill against its scripted table,
the ratio, the game's own floor and the learned table's cold compile, each against its target."""

from __future__ import annotations

from sim.api import bench, bench_learned
from sim.model import registry


def _figures(ratio: float, learned: int, compile_s: list[float]) -> dict:
    row = {
        "scenario": "scenarios/moor/4p.toml",
        "strategies": ["learned"],
        "scripted_games_per_s": round(learned / ratio),
        "learned_games_per_s": learned,
        "ratio": ratio,
        "target": bench_learned.LEARNED_RATIO_TARGET,
        "floor": registry.get("moor").bench.targets[bench_learned.FLOOR_KEY],
    }
    turnwall = {**row, "scenario": "scenarios/turnwall/4p.toml", "floor": None}
    return {"tables": [row, turnwall], "cold_compile_cpu_s": {row["scenario"]: compile_s}}


def test_bench_learned_block_marks_the_ratio_the_floor_and_the_compile_met():
    lines = bench_learned.render_learned(_figures(0.5, 9_000, [7.1, 6.4]))
    assert "target >= 0.1 of its games/s" in lines[0] and "target <= 15 s" in lines[0]
    assert "learned 9,000 games/s against 18,000: 0.500: met; >= 8,000 games/s: met" in lines[1]
    assert lines[1].endswith("cold compile 6.40 (7.10, 6.40): met")
    assert "0.500: met" in lines[2] and ">=" not in lines[2].split("0.500")[1] and "cold compile" not in lines[2]


def test_bench_learned_block_says_missed_for_each_target_it_misses():
    lines = bench_learned.render_learned(_figures(0.05, 7_000, [16.2]))
    assert "0.050: MISSED; >= 8,000 games/s: MISSED  cold compile 16.20: MISSED" in lines[1]


def test_bench_render_shows_the_learned_block_and_nothing_without_figures():
    res = {"machine": {"cpus": 2, "python": "3.11"}, "games": {}, "learned": _figures(0.5, 9_000, [6.4])}
    assert "learned players (every seat on its role's learned player" in bench.render(res)
    assert bench_learned.render_learned({"tables": [], "cold_compile_cpu_s": {}}) == []


def test_learned_speed_times_the_scenarios_table_at_skill_against_its_own():
    r = bench_learned.learned_speed("scenarios/moor/4p.toml", reps=1, timing_s=0.01)
    assert r is not None and r["strategies"] == ["learned"]
    assert r["learned_games_per_s"] > 0 and r["scripted_games_per_s"] > 0
    assert abs(r["ratio"] - r["learned_games_per_s"] / r["scripted_games_per_s"]) < 0.01


def test_learned_table_is_every_seat_on_its_roles_learned_player():
    t = bench_learned.learned_table("scenarios/treasure_hunters/head_haunter-4p.toml")
    assert t is not None
    assert [s.strategy for s in t.seats] == ["haunter_learned", "learned", "learned", "learned"]
