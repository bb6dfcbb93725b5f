"""Golden trace in words: game 3 of scenarios/turnwall/4p.toml replayed turn by turn with the board after every move
must stay exactly as recorded (any change of rules, strategies or RNG use shows up here as a diff to review).

Regenerate after an intended change: GOLDEN_UPDATE=1 pytest tests/kernels/turnwall/test_golden.py"""

from __future__ import annotations

from pathlib import Path

from sim.api import core as api
from sim.model.scenario import load
from tests.kernels.golden_words import REPO, check_replay

GOLDEN = Path(__file__).parent / "golden"


def _check(name: str, scenario: str, game: int):
    check_replay(GOLDEN, name, scenario, game)


def test_golden_trace_4p_planner_game_3():
    _check("turnwall_4p_game3.txt", "scenarios/turnwall/4p.toml", 3)


def test_golden_trace_mixed_strategies_game_1():
    _check("turnwall_mixed_game1.txt", "scenarios/turnwall/mixed.toml", 1)


def test_replay_agrees_with_the_batch_run():
    sc = load(REPO / "scenarios/turnwall/mixed.toml")
    from sim.play import runner

    out = runner.play_chunk(sc, 0, 6)
    for g in range(6):
        last = api.replay(sc, g)[-2]
        assert last.startswith(f"final after {int(out.turns[g])} turns")
