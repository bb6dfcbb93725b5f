"""Does more search still pay? (issue 38: "a budget counts as converged only where doubling it no longer wins head to
head"). For each rung family of a ladder that varies a budget (`sim.output.ladder_output.budget_families`), each
step from one budget to the next larger one is judged on the ladder's own games:

- a rated (competitive) ladder: the larger budget's share of the decided winner-over-loser pairs against the smaller
  one at the mixed tables, where both sat (`sim.stats.ladder_fit.rate`'s head-to-head matrix, its 95% percentile
  bootstrap interval): self-play, the two searches against each other;
- a co-operative ladder (no opponent to beat): the team win rate of the larger budget's own table minus the
  smaller's, paired game by game (the tables play the same dice; Agresti and Min's interval for matched
  proportions, 95%), or, without the per-game wins, Newcombe's hybrid score interval of two independent rates.

Verdicts: *still pays* where the interval lies above even (50%, or a difference of 0), *converged* only where it
lies within the margin around even (an equivalence read of the 95% interval, at `H2H_MARGIN` or `TEAM_MARGIN`),
*pays less* where it lies below, else *cannot tell yet*.
"""

from __future__ import annotations

import math
from typing import Any

H2H_MARGIN = 0.03  # the larger budget wins 47-53% of the pairs: about +/-21 Elo
TEAM_MARGIN = 0.02  # the team win rates differ by at most 2 points
VERDICTS = ("still pays", "converged", "pays less", "cannot tell yet")


def _verdict(lo: float, hi: float, even: float, margin: float) -> str:
    if lo > even:
        return "still pays"
    if hi < even:
        return "pays less"
    if even - margin <= lo and hi <= even + margin:
        return "converged"
    return "cannot tell yet"


def newcombe(p1: float, ci1: list[float], p2: float, ci2: list[float]) -> tuple[float, float]:
    """95% interval of p1 - p2 from each proportion's own Wilson 95% interval (Newcombe 1998, method 10)."""
    d = p1 - p2
    return (
        d - math.sqrt((p1 - ci1[0]) ** 2 + (ci2[1] - p2) ** 2),
        d + math.sqrt((ci1[1] - p1) ** 2 + (p2 - ci2[0]) ** 2),
    )


def _h2h_step(rating: dict, i: int, j: int) -> dict[str, Any]:
    """Rung ``j`` (the larger budget) against rung ``i`` in the rated ladder's head-to-head matrix."""
    h = rating["head_to_head"]
    share, lo, hi = h["matrix"][j][i], h["ci_low"][j][i], h["ci_high"][j][i]
    pairs = h["pairs"][j][i]
    if share is None or lo is None or hi is None:
        return {"measure": "head_to_head", "value": None, "ci95": None, "pairs": pairs, "verdict": "cannot tell yet"}
    return {
        "measure": "head_to_head",
        "value": share,
        "ci95": [lo, hi],
        "pairs": pairs,
        "margin": H2H_MARGIN,
        "verdict": _verdict(lo, hi, 0.5, H2H_MARGIN),
    }


def agresti_min(large_only: int, small_only: int, pairs: int) -> tuple[float, float, float]:
    """The difference of two matched proportions (large - small) with its 95% interval, from the discordant pairs:
    ``large_only`` games the large side won and the small lost, ``small_only`` the reverse, of ``pairs`` games
    (Agresti and Min 2005, Statistics in Medicine 24:729: a half added to each cell of the 2x2 table, then Wald).
    Two tables that won the same games give 0 with an interval that narrows as the games grow, not [0, 0]."""
    n = pairs + 2.0
    b, c = large_only + 0.5, small_only + 0.5
    d = (b - c) / n
    se = math.sqrt(max(b + c - (b - c) ** 2 / n, 0.0)) / n
    return (large_only - small_only) / pairs if pairs else 0.0, d - 1.959964 * se, d + 1.959964 * se


def _team_step(team: dict[str, dict], small: str, large: str, games: dict[str, Any] | None) -> dict[str, Any]:
    """The larger budget's team win rate minus the smaller's, their own tables: paired game by game where their
    per-game wins are given (``games``: rung -> (win int[games], finished bool[games]), the same dice), else
    Newcombe's interval of two independent rates."""
    a, b = team.get(small), team.get(large)
    if a is None or b is None:
        return {"measure": "team_win_rate", "value": None, "ci95": None, "verdict": "cannot tell yet"}
    ga, gb = (games or {}).get(small), (games or {}).get(large)
    if ga is not None and gb is not None and len(ga[0]) == len(gb[0]):
        both = ga[1] & gb[1]
        wa, wb = ga[0][both] > 0, gb[0][both] > 0
        value, lo, hi = agresti_min(int((wb & ~wa).sum()), int((wa & ~wb).sum()), int(both.sum()))
        how = "paired"
    else:
        value = b["win_rate"] - a["win_rate"]
        lo, hi = newcombe(b["win_rate"], b["ci95"], a["win_rate"], a["ci95"])
        how = "independent"
    return {
        "measure": "team_win_rate",
        "value": value,
        "ci95": [lo, hi],
        "games": [a["games"], b["games"]],
        "interval": how,
        "margin": TEAM_MARGIN,
        "verdict": _verdict(lo, hi, 0.0, TEAM_MARGIN),
    }


def steps(
    families: list[dict],
    names: list[str],
    rating: dict | None,
    team: list[dict] | None,
    team_games: dict[str, Any] | None = None,
) -> list[dict]:
    """Every step of every budget family (``families``: `budget_families`' list; ``names``: the ladder's rung texts
    in its order; ``rating``: `ladder_fit.rate`'s dict of a rated ladder; ``team``: a co-operative ladder's team rows;
    ``team_games``: rung -> (team win int[games], finished bool[games]) of its own table, for paired steps).
    Returns [{strategy, param, small, large (budget values), small_rung, large_rung, measure ("head_to_head" |
    "team_win_rate"), value, ci95, margin, verdict (one of VERDICTS), ...}]; [] where the ladder has neither."""
    if rating is None and not team:
        return []
    by_rung = {t["rung"]: t for t in team or []}
    out = []
    for f in families:
        pts = f["points"]
        for a, b in zip(pts, pts[1:], strict=False):
            if rating is not None:
                step = _h2h_step(rating, names.index(a["rung"]), names.index(b["rung"]))
            else:
                step = _team_step(by_rung, a["rung"], b["rung"], team_games)
            out.append(
                {
                    "strategy": f["strategy"],
                    "param": f["param"],
                    "fixed": f.get("fixed", {}),
                    "small": a["value"],
                    "large": b["value"],
                    "small_rung": a["rung"],
                    "large_rung": b["rung"],
                    **step,
                }
            )
    return out


def step_words(s: dict) -> str:
    """One step in words: 'search budget 64 -> 256: the larger wins 61.2% [55.0, 67.1] of 412 decided pairs against
    the smaller: still pays: not converged'."""
    return f"{family_words(s)} {s['param']} {s['small']:g} -> {s['large']:g}: {measured_words(s)}: {verdict_words(s)}"


def family_words(f: dict) -> str:
    """A budget family's name: its strategy and, where it has any, the parameters its rungs share:
    'search (rollout=learned)'."""
    fixed = f.get("fixed") or {}
    return f["strategy"] + (f" ({', '.join(f'{k}={v}' for k, v in fixed.items())})" if fixed else "")


def measured_words(s: dict) -> str:
    """What a step measured: the larger budget's head-to-head share or team win rate difference, with its interval."""
    if s["value"] is None:
        return "the two never met at a table" if s["measure"] == "head_to_head" else "no team table of both"
    lo, hi = s["ci95"]
    if s["measure"] == "head_to_head":
        return (
            f"the larger wins {100 * s['value']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] of "
            f"{s['pairs']:,.0f} decided pairs against the smaller"
        )
    return (
        f"team win rate {100 * s['value']:+.2f} points [{100 * lo:+.2f}, {100 * hi:+.2f}] "
        f"({s['games'][1]:,} and {s['games'][0]:,} games)"
    )


def verdict_words(s: dict) -> str:
    """A step's verdict in words: 'still pays: not converged', 'converged (within 50 ± 3 points)', ..."""
    margin = 100 * s.get("margin", H2H_MARGIN if s["measure"] == "head_to_head" else TEAM_MARGIN)
    within = f"within 50 ± {margin:g} points" if s["measure"] == "head_to_head" else f"within ± {margin:g} points"
    if s["verdict"] == "still pays" and s["ci95"][1] <= (0.5 if s["measure"] == "head_to_head" else 0.0) + margin / 100:
        return f"still pays, by less than {margin:g} points: not converged"
    return {
        "still pays": "still pays: not converged",
        "converged": f"converged ({within})",
        "pays less": "the larger budget plays worse",
        "cannot tell yet": f"cannot tell yet (converged needs the interval {within})",
    }[s["verdict"]]
