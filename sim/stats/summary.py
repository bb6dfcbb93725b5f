"""Aggregates -> the summary dict (the JSON machine contract, schema 1) and its readable tables.

Definitions: win rate = wins / finished games, a win shared by k players counting 1/k; 95% Wilson interval.
First-player advantage = win rate of the start player (turn position 0) minus the fair share 1/players.
Truncated games (turn cap) are counted but never scored. Team games (GameSpec.team_roles: the cooperative games and the
Head Haunter game): a team win is a whole win for every member, so every member's (and every team strategy's) win
rate is the team's rate; first-player advantage and the tie rate are not defined there (null: a team win is one win
of the team, not a tie). With no finished game, distributions have n = 0 and null mean, std and quantiles.

The words that describe a summary (the scenario played, the difference of two scenarios, the lead line) are
`sim.pages.scenario_words`.
"""

from __future__ import annotations

from typing import Any

from sim.model.scenario import Scenario
from sim.stats.aggregate import WIN_UNITS, Aggregates
from sim.stats.arc import summary as arc_summary
from sim.stats.metrics import distribution, mean_ci, rate
from sim.stats.records import Distribution, Rate

SCHEMA = 1
TEAM_TIE_NOTE = (
    "team game: a team win is one win of the whole team, not a tie, so no tie rate is reported; every "
    "member's win rate is the team's rate"
)


def summarize(sc: Scenario, agg: Aggregates, provenance: dict | None = None) -> dict:
    """The run's summary dict (JSON-ready, schema 1: the fields are defined in the module docstring and
    docs/reference/reports.md; a field that does not apply, e.g. a team game's tie rate, is null)."""
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
        seats.append(
            {
                "seat": s,
                "strategy": sc.seats[s].strategy,
                "role": roles[s],
                "win": rate(seat_wins(s), fin),
                "sole_wins": int(agg.sole_wins[s]),
                "shared_wins": int(agg.shared_wins[s]),
                "score": distribution(agg.score_hist[s], agg.score_lo, agg.score_sum[s], agg.score_sq[s]),
            }
        )
    strategies: dict[tuple[str, str], dict] = {}
    for s in range(n):
        key = (sc.seats[s].strategy, roles[s])
        d = strategies.setdefault(key, {"strategy": key[0], "role": key[1], "seats": [], "wins": 0.0})
        d["seats"].append(s)
        d["wins"] += seat_wins(s)
    strat_rows = []
    for d in strategies.values():
        k = len(d["seats"])
        # team-mates share one outcome per game, so a team strategy has `fin` observations, not fin * k
        strat_rows.append(
            {
                "strategy": d["strategy"],
                "role": d["role"],
                "seats": d["seats"],
                "win": rate(d["wins"] / k, fin) if coop else rate(d["wins"], fin * k),
            }
        )
    # win rate by turn position (0 = start player); not defined between team-mates
    positions: list[dict[str, Any]] = (
        [] if coop else [{"position": q, "win": rate(agg.pos_win_units[q] / WIN_UNITS, fin)} for q in range(n)]
    )
    fp = Rate.of(positions[0]["win"]) if positions else None
    fair = None if coop else 1.0 / n  # no fair share between team-mates
    # strategy-vs-strategy: share of pairings in which the row strategy's seat outscored the column's (ties half)
    names = sorted({r["strategy"] for r in strat_rows})
    matchup: dict[str, dict] = {}
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
            extras[col] = {
                "counts": {labels[i] if i < len(labels) else str(i): int(hist[i]) for i in range(len(hist)) if hist[i]}
            }
        else:
            extras[col] = distribution(hist, 0)
    curves = {}
    for c, name in enumerate(spec.curves):
        g = agg.curve_games[c]
        ci = [
            list(mean_ci(int(agg.curve_sum[c, r]), int(agg.curve_sq[c, r]), int(g[r]))[1:]) if g[r] > 1 else None
            for r in range(len(g))
        ]
        curves[name] = {
            "games_by_round": [int(x) for x in g],
            "mean_by_round": [float(agg.curve_sum[c, r] / g[r]) if g[r] else None for r in range(len(g))],
            "ci95_by_round": ci,
        }
    turns = distribution(agg.turns_hist, 0)
    length: dict[str, Any] = {"turns": turns, "rounds": distribution(agg.rounds_hist, 0)}
    mins = minutes(sc, Distribution.of(turns))
    if mins is not None:
        length["minutes"] = mins
    ties: dict[str, Any] = (
        {"tie_rate": None, "note": TEAM_TIE_NOTE}
        if coop
        else {"shared_games": agg.shared_games, "tie_rate": agg.shared_games / fin if fin else None}
    )
    if "tiebreak_decided" in agg.extra_columns and not coop:
        i = agg.extra_columns.index("tiebreak_decided")
        ties["tiebreak_decided"] = int(agg.extra_sum[i])
        ties["tiebreak_rate"] = int(agg.extra_sum[i]) / fin if fin else 0.0
    team = None
    if spec.team_roles:
        team = {role: rate(_team_wins(agg, roles, role), fin) for role in dict.fromkeys(roles)}
    out: dict[str, Any] = {
        "schema": SCHEMA,
        "scenario": sc.to_dict(),
        "game_title": spec.title,
        "games": {
            "played": agg.games,
            "finished": fin,
            "truncated": agg.truncated,
            "errors": agg.errors,
            "truncated_rate": agg.truncated / agg.games if agg.games else 0.0,
        },
        "seats": seats,
        "strategies": strat_rows,
        "positions": positions,
        "first_player": {
            "win": positions[0]["win"] if positions else None,
            "fair_share": fair,  # no advantage without a finished game
            "advantage": None if fp is None or fair is None or not fin else fp.rate - fair,
            "advantage_ci95": None if fp is None or fair is None or not fin else [fp.lo - fair, fp.hi - fair],
        },
        "ties": ties,
        "length": length,
        "matchups": matchup,
        "extras": extras,
        "curves": curves,
        "team": team,
        "arc": arc_summary(agg, not coop),  # the game's arc: progress by round, who leads, arc measures
        "aggregates": agg.to_dict(),
    }
    from sim.stats import arc_tips

    arc_tips.attach(out["arc"], agg.arc_paths, sc.spec, sc.params, sc.players)  # a team game: when the house tips
    # what every measure of this scenario is (label, unit, kind, definition), from the catalogue (sim.model.catalogue)
    from sim.model.catalogue import block
    from sim.stats.measures import measures

    out["measures"] = block(sc, [m.name for m in measures(sc, arc=bool(agg.arc_hist.size))])
    if provenance is not None:
        out["provenance"] = provenance
    return out


def minutes(sc: Scenario, turns: Distribution) -> dict | None:
    """summary.json ``length.minutes``: the playing time of a finished game estimated as turns x seconds_per_turn /
    60 (the mean, median, 5% and 95% quantiles of the turns `distribution` ``turns``, in minutes; None where no game
    finished), with the parameter's value, whether it is the game's default, where that default comes from, and the
    playing time the box states. None for a game without a ``seconds_per_turn`` parameter (a plugin game)."""
    from sim.model.registry import SECONDS_PER_TURN, seconds_source

    ps = sc.spec.param(SECONDS_PER_TURN)
    if ps is None:
        return None
    s = float(sc.params[SECONDS_PER_TURN])
    per = lambda v: None if v is None else v * s / 60.0  # noqa: E731
    default = s == float(ps.default)
    return {
        "mean": per(turns.mean),
        "median": per(turns.median),
        "p05": per(turns.p05),
        "p95": per(turns.p95),
        "seconds_per_turn": s,
        "default": default,
        "source": (
            seconds_source(ps)
            if default
            else f"set in the scenario (params.{SECONDS_PER_TURN}; the game's default is {ps.default:g} s)"
        ),
        "box": {"minutes": list(sc.spec.box_minutes) if sc.spec.box_minutes else None, "source": sc.spec.box_source},
    }


def _team_wins(agg: Aggregates, roles: list[str], role: str) -> float:
    """Games won by the team of ``role``: the win units of any one of its seats (a team win sets every seat's bit)."""
    s0 = roles.index(role)
    return int(agg.sole_wins[s0] + agg.shared_wins[s0])  # a plain int: numpy int64 is not JSON-serialisable
