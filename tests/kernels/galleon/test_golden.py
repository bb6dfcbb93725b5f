"""Golden traces in words: games of scenarios/galleon replayed turn by turn must stay exactly as recorded (any change
of rules, strategies or RNG use shows up here as a diff to review).

Regenerate after an intended change: GOLDEN_UPDATE=1 pytest tests/kernels/galleon/test_golden.py"""

from __future__ import annotations

from pathlib import Path

from sim.api import core as api
from sim.model.scenario import load
from tests.kernels.golden_words import REPO, check_replay

GOLDEN = Path(__file__).parent / "golden"


def _check(name: str, scenario: str, game: int):
    check_replay(GOLDEN, name, scenario, game)


def test_golden_trace_4p_treasure_game_2():
    _check("galleon_4p_game2.txt", "scenarios/galleon/4p.toml", 2)


def test_golden_trace_mixed_strategies_game_1():
    _check("galleon_mixed_game1.txt", "scenarios/galleon/mixed.toml", 1)


def test_replay_agrees_with_the_batch_run():
    sc = load(REPO / "scenarios/galleon/mixed.toml")
    from sim.play import runner

    out = runner.play_chunk(sc, 0, 6)
    for g in range(6):
        lines = api.replay(sc, g)
        assert lines[-2].startswith(f"final after {int(out.turns[g])} turns")
        w = int(out.winners[g])
        if w:
            assert lines[-1].startswith(f"winner: seat {w.bit_length() - 1}")


def test_the_replay_keys_every_space_code_of_the_board():
    """A fresh user read 'ghost to M11', 'DA3', 'PL' as bare codes: the replay's second line says what each code's
    letters stand for, from the board file (every prefix of every board, with its kinds)."""
    import re

    from kernels.galleon import board as B
    from sim.games.galleon import space_key

    for name in ("default", "small_ship"):
        board = B.load_board(name)
        key = space_key(board)
        named = {p for part in key.split(", ") for p in part.split(" ", 1)[0].split("/")}
        assert named == {re.match(r"[A-Za-z]+", i).group(0) for i in board.ids}, key
    assert "C cabin" in key and "CC captain's cabin" in key and "P cave or land" in key
    sc = load(REPO / "scenarios/galleon/4p.toml")
    assert api.replay(sc, 0)[1] == f"  spaces: {space_key(B.load_board(sc.params['board']))}"
