"""When does the house tip (`sim.stats.arc_tips`): a team game's sides' chances by round from the run's own games,
cross-fitted, on synthetic path rows whose answer is known."""

from __future__ import annotations

import numpy as np

from sim.stats import arc_tips

SIDES = {"the hunter team": [0, 1], "the house": []}
ROUNDS = 10


def _paths(codes: np.ndarray, hunters_won: np.ndarray, rounds: int = ROUNDS) -> np.ndarray:
    """Path rows of finished 2-seat games: winners 0b11 (the hunters) or 0 (the house), ``codes`` [games, rounds]."""
    p = arc_tips.new_paths(len(codes), codes.shape[1])
    p[:, 0] = 1 + np.where(hunters_won, 3, 0)
    p[:, 1] = rounds
    p[:, arc_tips.COLUMNS :] = codes
    return p


def test_the_game_tips_when_the_score_settles_it():
    """Every game looks the same until round 5, whose score decides it (the hunters win 70%): a hunters' game is
    theirs from the first round (70% > 50%), a house game tips after round 5, as the scores say."""
    rng = np.random.default_rng(1)
    won = rng.random(4000) < 0.7
    codes = np.zeros((4000, ROUNDS), np.int64)
    codes[:, 4:] = np.where(won, 1, 2)[:, None]  # after round 5 on: the score tells the result
    t = arc_tips.tips(_paths(codes, won), SIDES)
    assert t is not None and t["games"] == 4000
    assert t["by_side"]["the house"]["p50"] == 5 and t["by_side"]["the house"]["ci95"] == [5.0, 5.0]
    assert t["by_side"]["the hunter team"]["p50"] == 1
    assert t["tipped"]["p50"] == 1  # most games are the hunters'


def test_no_game_is_judged_by_its_own_result():
    """Each game in a place of its own after every round: only a game's own result could tell its chance there, and
    cross-fitting never uses it: every chance is the round's share over the other half (the hunters' 70%), so a
    house game tips only at its end. In-sample counts would have put each game's chance at 0 or 1 from round 1."""
    rng = np.random.default_rng(2)
    n = 2000
    won = rng.random(n) < 0.7
    codes = np.arange(n)[:, None] * ROUNDS + np.arange(ROUNDS)[None, :]
    t = arc_tips.tips(_paths(codes, won), SIDES)
    assert t is not None
    assert t["by_side"]["the house"]["p50"] == ROUNDS
    assert t["by_side"]["the hunter team"]["p50"] == 1


def test_fold_writes_each_game_once_so_chunks_add_up():
    """The path rows of a run folded in two chunks, added, are those folded in one (the aggregates merge by sum)."""
    rng = np.random.default_rng(3)
    k, n, length = 50, 3, 8
    fan = np.zeros((k, n + 2, length), np.int32)
    fan[:, :n, :] = rng.integers(0, 9, (k, n, length))
    status = np.where(rng.random(k) < 0.9, 0, 1)
    rounds = rng.integers(1, length + 3, k).astype(np.int32)
    winners = rng.integers(0, 1 << n, k).astype(np.int32)
    whole = arc_tips.new_paths(100, length)
    arc_tips.fold(whole, 0, fan, status == 0, rounds, winners, 0, 8)
    parts = [arc_tips.new_paths(100, length) for _ in range(2)]
    arc_tips.fold(parts[0], 0, fan[:20], status[:20] == 0, rounds[:20], winners[:20], 0, 8)
    arc_tips.fold(parts[1], 20, fan[20:], status[20:] == 0, rounds[20:], winners[20:], 0, 8)
    assert np.array_equal(parts[0] + parts[1], whole)
    assert np.array_equal(whole[:k, 0] > 0, status == 0) and not whole[k:].any()


def test_too_few_games_give_no_figure():
    won = np.ones(arc_tips.MIN_GAMES - 1, bool)
    assert arc_tips.tips(_paths(np.zeros((len(won), ROUNDS), np.int64), won), SIDES) is None
