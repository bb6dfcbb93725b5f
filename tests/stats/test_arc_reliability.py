"""The reliability table of the arc's timelines (`sim.stats.arc`): honest chances read as honest. Synthetic games
whose true chance is a martingale (so among states at chance p, the side wins p of the time), estimated by a few
rollouts each: binning the states by one half of their rollouts and judging them by the other half finds the share
that won at the estimate; binning and judging by the same noisy estimate pulls the share that won toward the middle
(regression to the mean), which the table must not do."""

from __future__ import annotations

import numpy as np

from sim.stats.arc import CAL_BINS, timeline_summary

ROLLOUTS = 8


def _games(n_games: int, rounds: int, seed: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    out = []
    h = ROLLOUTS // 2
    for g in range(n_games):
        p = [rng.uniform(0.05, 0.95)]
        for _ in range(rounds - 1):
            x = p[-1]
            step = 0.3 * min(x, 1 - x)
            p.append(x + step if rng.random() < 0.5 else x - step)  # a martingale: the chance is honest
        p = np.array(p)
        won0 = rng.random() < p[-1]
        a = rng.binomial(h, p)  # seat 0's wins in the first half of the rollouts, then in the rest
        b = rng.binomial(ROLLOUTS - h, p)
        est = (a + b) / ROLLOUTS
        half = a / h
        last = np.array([[1.0, 0.0, 0.0] if won0 else [0.0, 1.0, 0.0]])
        out.append(
            {
                "game": g,
                "rounds": rounds,
                "winners": 1 if won0 else 2,
                "status": 0,
                "p": np.vstack([np.stack([est, 1 - est, 0 * est], axis=1), last]),
                "p_half": np.vstack([np.stack([half, 1 - half, 0 * half], axis=1), last]),
            }
        )
    return out


def test_the_reliability_table_finds_honest_chances_honest():
    games = _games(3000, 12, 5)
    t = timeline_summary(games, 2, ROLLOUTS)
    rows = [c for c in t["calibration"] if c["states"] >= 2000]
    assert len(rows) >= 4
    for c in rows:
        assert abs(c["rate"] - c["estimate"]) < 0.025, c
    # the same states judged by the estimate they were binned by: the extreme bins are off by far more
    pred = np.concatenate([x["p"][:-1, 0] for x in games])
    won = np.concatenate([[x["winners"] == 1] * (len(x["p"]) - 1) for x in games]).astype(float)
    low = np.minimum((pred * CAL_BINS).astype(int), CAL_BINS - 1) == 0
    assert won[low].mean() - pred[low].mean() > 0.04


def test_a_team_game_follows_the_team_and_the_house():
    games = _games(200, 6, 9)
    for x in games:  # seats 0 and 1 one team (half a win each), the house column the other side
        for k in ("p", "p_half"):
            q = x[k]
            x[k] = np.stack([q[:, 0] / 2, q[:, 0] / 2, q[:, 1]], axis=1)
        x["winners"] = 3 if x["winners"] == 1 else 0
    t = timeline_summary(games, 2, ROLLOUTS, {"the hunter team": [0, 1], "the house": []})
    assert [b["label"] for b in t["bands"]] == ["the hunter team", "the house"]
    assert t["games"] == 200  # a house win (no seat won) is a result, not left out
    team, house = (np.array(b["mean"]) for b in t["bands"])
    assert np.allclose(team + house, 1.0)
    assert 1 <= t["tipped"]["p50"] <= t["decided"]["p50"] <= 6
