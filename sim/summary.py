"""Aggregates -> the summary dict (the JSON machine contract, schema 1) and its readable tables.

Definitions: win rate = wins / finished games, a win shared by k players counting 1/k; 95% Wilson interval.
First-player advantage = win rate of the start player (turn position 0) minus the fair share 1/players.
Truncated games (turn cap) are counted but never scored. Cooperative games (GameSpec.team_roles): a team win is a whole
win for every member, and first-player advantage is not defined (positions are then shares of split win units).
"""
from __future__ import annotations

from sim.aggregate import WIN_UNITS, Aggregates
from sim.metrics import hist_quantile, mean_std, wilson
from sim.scenario import Scenario

SCHEMA = 1
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


def _trim(counts: list[int], lo: int) -> tuple[int, list[int]]:
    """Drop empty bins at both ends of a histogram; returns (new lo, counts)."""
    i = 0
    while i < len(counts) and counts[i] == 0:
        i += 1
    j = len(counts)
    while j > i and counts[j - 1] == 0:
        j -= 1
    return lo + i, counts[i:j]


def distribution(counts, lo: int, total: int | None = None, squares: int | None = None) -> dict:
    """mean, std, min, max, quantiles and trimmed histogram of a histogram (index + lo = value)."""
    counts = [int(c) for c in counts]
    n = sum(counts)
    if total is None:
        total = sum((lo + i) * c for i, c in enumerate(counts))
        squares = sum((lo + i) ** 2 * c for i, c in enumerate(counts))
    mean, std = mean_std(int(total), int(squares), n)
    tlo, tc = _trim(counts, lo)
    return {"n": n, "mean": mean, "std": std, "min": tlo if tc else None, "max": tlo + len(tc) - 1 if tc else None,
            "quantiles": {f"p{int(q * 100):02d}": hist_quantile(counts, lo, q) for q in QUANTILES},
            "hist": {"lo": tlo, "counts": tc}}


def rate(wins: float, n: int) -> dict:
    lo, hi = wilson(wins, n)
    return {"wins": wins, "games": n, "rate": wins / n if n else 0.0, "ci95": [lo, hi]}


def summarize(sc: Scenario, agg: Aggregates, provenance: dict | None = None) -> dict:
    """The run's summary dict (JSON-ready). See reports/README.md for the schema."""
    spec = sc.spec
    n = sc.players
    fin = agg.finished
    roles = spec.roles(sc.params, n)
    coop = bool(spec.team_roles)

    def seat_wins(s: int) -> float:
        # cooperative games: a team win is a whole win for every member; otherwise ties are split
        return float(agg.sole_wins[s] + agg.shared_wins[s]) if coop else agg.win_units[s] / WIN_UNITS

    seats = []
    for s in range(n):
        seats.append({
            "seat": s, "strategy": sc.seats[s].strategy, "role": roles[s],
            "win": rate(seat_wins(s), fin),
            "sole_wins": int(agg.sole_wins[s]), "shared_wins": int(agg.shared_wins[s]),
            "score": distribution(agg.score_hist[s], agg.score_lo, agg.score_sum[s], agg.score_sq[s]),
        })
    strategies = {}
    for s in range(n):
        key = (sc.seats[s].strategy, roles[s])
        d = strategies.setdefault(key, {"strategy": key[0], "role": key[1], "seats": [], "wins": 0.0})
        d["seats"].append(s)
        d["wins"] += seat_wins(s)
    strat_rows = []
    for d in strategies.values():
        k = len(d["seats"])
        # team-mates share one outcome per game, so a team strategy has `fin` observations, not fin * k
        strat_rows.append({"strategy": d["strategy"], "role": d["role"], "seats": d["seats"],
                           "win": rate(d["wins"] / k, fin) if coop else rate(d["wins"], fin * k)})
    # win rate by turn position (0 = start player); not defined between team-mates
    positions = [] if coop else [{"position": q, "win": rate(agg.pos_win_units[q] / WIN_UNITS, fin)}
                                 for q in range(n)]
    fp = positions[0]["win"] if positions else None
    fair = None if coop else 1.0 / n    # no fair share between team-mates
    # strategy-vs-strategy: share of pairings in which the row strategy's seat outscored the column's (ties half)
    names = sorted({r["strategy"] for r in strat_rows})
    matchup = {}
    for a in names:
        for b in names:
            num = den = 0
            for i in range(n):
                for j in range(n):
                    if i != j and sc.seats[i].strategy == a and sc.seats[j].strategy == b:
                        num += int(agg.ahead[i, j])
                        den += 2 * fin
            if den:
                matchup.setdefault(a, {})[b] = num / den
    extras = {}
    for c, col in enumerate(agg.extra_columns):
        hist = agg.extra_hist[c]
        if col in spec.categorical:
            labels = spec.categorical[col]
            extras[col] = {"counts": {labels[i] if i < len(labels) else str(i): int(hist[i])
                                      for i in range(len(hist)) if hist[i]}}
        else:
            extras[col] = distribution(hist, 0)
    curves = {}
    for c, name in enumerate(spec.curves):
        g = agg.curve_games[c]
        curves[name] = {"games_by_round": [int(x) for x in g],
                        "mean_by_round": [float(agg.curve_sum[c, r] / g[r]) if g[r] else None for r in range(len(g))]}
    team = None
    if spec.team_roles:
        team = {role: rate(_team_wins(agg, roles, role), fin) for role in dict.fromkeys(roles)}
    out = {
        "schema": SCHEMA,
        "scenario": sc.to_dict(),
        "game_title": spec.title,
        "games": {"played": agg.games, "finished": fin, "truncated": agg.truncated, "errors": agg.errors,
                  "truncated_rate": agg.truncated / agg.games if agg.games else 0.0},
        "seats": seats,
        "strategies": strat_rows,
        "positions": positions,
        "first_player": {"win": fp, "fair_share": fair, "advantage": None if coop else fp["rate"] - fair,
                         "advantage_ci95": None if coop else [fp["ci95"][0] - fair, fp["ci95"][1] - fair]},
        "ties": {"shared_games": agg.shared_games, "tie_rate": agg.shared_games / fin if fin else 0.0},
        "length": {"turns": distribution(agg.turns_hist, 0), "rounds": distribution(agg.rounds_hist, 0)},
        "matchups": matchup,
        "extras": extras,
        "curves": curves,
        "team": team,
        "aggregates": agg.to_dict(),
    }
    if "tiebreak_decided" in agg.extra_columns:
        i = agg.extra_columns.index("tiebreak_decided")
        out["ties"]["tiebreak_decided"] = int(agg.extra_sum[i])
        out["ties"]["tiebreak_rate"] = int(agg.extra_sum[i]) / fin if fin else 0.0
    if provenance is not None:
        out["provenance"] = provenance
    return out


def _team_wins(agg: Aggregates, roles: list[str], role: str) -> float:
    """Games won by the team of ``role``: the win units of any one of its seats (a team win sets every seat's bit)."""
    s0 = roles.index(role)
    return int(agg.sole_wins[s0] + agg.shared_wins[s0])  # a plain int: numpy int64 is not JSON-serialisable
