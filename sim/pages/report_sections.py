"""The balance report's sections in order (`sections`), each with its intro, plots and tables, from the summary
dict (sim.stats.summary, schema 1). Shared by the page (sim.pages.html_report.render) and the Markdown.

A balance memo: the headline figures, how games end, win rates (competitive games), scores (identical seats drawn
once), decisiveness (competitive), length, per-round curves with bands, matchups (competitive, mixed strategies),
then what was played and the game counters. Team games leave the competitive-only figures out and state the team
win rate once (the balance table).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from sim.model import catalogue
from sim.model.words import count
from sim.pages import arc_page, plots, skill_page, tables, verdicts
from sim.pages.balance_figures import balance_rows, ci_pct, pct
from sim.pages.board_svg import board_plots
from sim.pages.scenario_words import (
    NO_FINISHED,
    TEAM_SEAT_NOTE,
    changed_text,
    is_team_game,
    parameter_lines,
    scenario_items,
)
from sim.stats import metrics
from sim.stats.records import SummaryFigures, SummaryRates


class Section(TypedDict, total=False):
    """One section of the report (`sections`): id and title, the intro line, plots [(name, caption, SVG or None
    when nothing was drawn)], tables and folded tables [(caption, rows)]."""

    id: str
    title: str
    intro: str
    plots: Sequence[tuple[str, str, str | None]]
    tables: Sequence[tuple[str, list[dict]]]
    folded: Sequence[tuple[str, list[dict]]]


# --- tables -------------------------------------------------------------------------------------------------------


def seat_rows(s: dict) -> list[dict]:
    """One row per seat (`sim.pages.tables.seat_rows`), the interval in percent."""
    return tables.seat_rows(s, ci_fmt=ci_pct)


def strategy_rows(s: dict) -> list[dict]:
    return tables.strategy_rows(s, ci_fmt=ci_pct)


def position_rows(s: dict) -> list[dict]:
    return [
        {"turn position": p.position, "win rate": pct(p.win.rate), "95% CI": ci_pct(p.win.ci95)}
        for p in SummaryRates.of(s).positions
    ]


def scenario_rows(s: dict) -> list[dict]:
    """The rules variant played (sim.pages.scenario_words.scenario_items) as table rows."""
    return [{"": k, "played": v} for k, v in scenario_items(s)]


def curve_rows(s: dict) -> list[dict]:
    rows = []
    least = plots.min_games(SummaryFigures.of(s).games.finished)
    for name, c in (s.get("curves") or {}).items():
        for r, (g, m) in enumerate(zip(c["games_by_round"], c["mean_by_round"])):
            if g >= least and m is not None:
                rows.append({"curve": name, "round": r + 1, "games running": g, "mean": f"{m:.3f}"})
    return rows


def matchup_rows(s: dict) -> list[dict]:
    m = s.get("matchups") or {}
    names = sorted(m)
    return [{"row outscores column": a, **{b: (pct(m[a][b]) if b in m[a] else "") for b in names}} for a in names]


def outcome_rows(s: dict, cols: list[str]) -> list[dict]:
    """The shares of the categorical counters ``cols`` shown: label, share of finished games, 95% interval, games."""
    cat = catalogue.for_summary(s)
    rows = []
    for c in cols:
        counts = s["extras"][c]["counts"]
        total = sum(counts.values()) or 1
        for v, k in cat.category_values(c, counts):
            rows.append(
                {
                    "counter": cat.label(f"extra.{c}"),
                    "value": cat.label(f"extra.{c}={v}"),
                    "share": pct(k / total),
                    "95% CI": ci_pct(metrics.wilson(k, total)),
                    "games": k,
                }
            )
    return rows


# --- sections -----------------------------------------------------------------------------------------------------


def sections(s: dict) -> list[Section]:
    """Report sections in order: {id, title, intro, plots: [(name, caption, svg)], tables: [(caption, rows)],
    folded: [(summary, rows)]} (folded tables sit in a <details> on the page: the numbers behind a plot)."""
    g = SummaryFigures.of(s).games
    if not g.finished:
        balance: Section = {"id": "balance", "title": "Balance at a glance", "intro": NO_FINISHED, "plots": []}
        return [{**balance, "tables": [("", balance_rows(s))]}, _scenario(s)]
    out: list[Section | None] = [
        _balance(s),
        skill_page.section(s),  # type: ignore[list-item]  # the headline figures with every seat on the learned player
        _outcomes(s),
        _win_rates(s),
        _scores(s),
        _decisiveness(s),
        _length(s),
        _curves(s),
        arc_page.section(s),  # type: ignore[list-item]  # "How the game unfolds" (arc_page cannot import Section)
        _matchups(s),
        _scenario(s),
        _counters(s),
    ]
    return [x for x in out if x is not None]


def _balance(s: dict) -> Section:
    g = SummaryFigures.of(s).games
    intro = "Headline figures with 95% intervals (definitions at the end)."
    if g.truncated:
        intro = (
            f"Warning: {pct(g.truncated_rate)} of games hit the turn cap and are left out of every figure "
            "below. " + intro
        )
    return {
        "id": "balance",
        "title": "Balance at a glance",
        "intro": intro,
        "plots": [],
        "tables": [("", balance_rows(s))],
    }


def _scenario(s: dict) -> Section:
    lines, changed = parameter_lines(s)
    rows = [
        r if r[""] != "parameters" else {"": "parameters", "played": changed_text(changed) + " (every parameter below)"}
        for r in scenario_rows(s)
    ]
    return {
        "id": "scenario",
        "title": "Scenario",
        "intro": "The rules variant played: parameters that differ "
        "from the game's defaults are marked with the default; strategy weights are listed where they were "
        "set.",
        "plots": board_plots(s),
        "tables": [("", rows)],
        "folded": [(f"every parameter ({len(lines)})", [{"parameter": x} for x in lines])],
    }


def _outcomes(s: dict) -> Section | None:
    cat = catalogue.for_summary(s)
    shown = [c for c, d in s.get("extras", {}).items() if "counts" in d and cat.counter_shown(c)]
    if not shown:
        return None
    ps = [
        (
            f"outcome-{c}",
            f"{cat.label(f'extra.{c}')}: share of finished games with 95% intervals",
            plots.render(plots.categorical, s, c),
        )
        for c in shown
    ]
    return {
        "id": "outcomes",
        "title": "How games end",
        "intro": "Each way a game ends, as a share of finished games (95% intervals).",
        "plots": ps,
        "folded": [("the shares as a table", outcome_rows(s, shown))],
    }


def _win_rates(s: dict) -> Section:
    if is_team_game(s):
        return {
            "id": "win-rates",
            "title": "Win rates",
            "intro": TEAM_SEAT_NOTE + " The team's rate is in the "
            "balance figures above; per-seat win rates, the turn order and strategy matchups say nothing "
            "more here and are left out.",
            "plots": [],
        }
    wr = [("by seat", seat_rows(s)), ("by turn position (0 = start player)", position_rows(s))]
    if len(s["strategies"]) > 1:
        wr.append(("by strategy", strategy_rows(s)))
    scope = verdicts.scope_line(s)
    return {
        "id": "win-rates",
        "title": "Win rates",
        "intro": "Per seat (each seat in its own colour, also in the score plot), per turn position and "
        "per strategy, as the difference from the fair share in percentage points (the shaded band: within 1 point of "
        "fair); whiskers are 95% Wilson intervals." + (f" {scope}" if scope else ""),
        "plots": [("win-rates", "win rates with 95% intervals", plots.render(plots.win_rates, s))],
        "folded": [(f"win rates {cap} as a table", rows) for cap, rows in wr],
    }


def _scores(s: dict) -> Section:
    same = [x for x, _ in plots.seat_groups(s) if len(x) > 1]
    return {
        "id": "scores",
        "title": "Scores",
        "intro": f"{catalogue.for_summary(s).generic_definition('score.seat{seat}')} "
        "Distribution of the "
        "final score" + (" (seats with identical results drawn once)." if same else " per seat."),
        "plots": [("scores", "final score distribution", plots.render(plots.scores, s))],
    }


def _decisiveness(s: dict) -> Section | None:
    d = SummaryFigures.of(s).decisiveness
    if is_team_game(s) or not (d and d.margin.n):
        return None
    cat = catalogue.for_summary(s)
    return {
        "id": "decisiveness",
        "title": "Decisiveness",
        "intro": cat.definition("margin"),
        "plots": [("margin", cat.label("margin"), plots.render(plots.margin, s))],
    }


def _length(s: dict) -> Section:
    mins = verdicts.minutes_text(s)
    return {
        "id": "length",
        "title": "Game length",
        "intro": "Turns and rounds of finished games." + (f" {mins[0].upper() + mins[1:]}." if mins else ""),
        "plots": [("length", "game length", plots.render(plots.length, s))],
        "folded": [("game length as a table", tables.length_rows(s))],
    }


def _curves(s: dict) -> Section | None:
    if not s.get("curves"):
        return None
    names = [catalogue.for_summary(s).label(f"curve.{c}") for c in s["curves"]]
    return {
        "id": "curves",
        "title": "By round: " + ", ".join(names),
        "intro": "Mean over the games still running at each round, with its 95% interval band (rounds "
        f"reached by fewer than {plots.min_games(SummaryFigures.of(s).games.finished)} games are left out), and how "
        "many games are still running.",
        "plots": [("curves", "per-round curves", plots.render(plots.curves, s))],
        "folded": [("the curves round by round", curve_rows(s))],
    }


def _matchups(s: dict) -> Section | None:
    if is_team_game(s) or len(s.get("matchups") or {}) <= 1:
        return None
    scope = verdicts.scope_line(s)
    return {
        "id": "matchups",
        "title": "Strategy matchups",
        "intro": "Share of seat pairings in which the row strategy outscored the column strategy "
        "(equal scores count half)." + (f" {scope}" if scope else ""),
        "plots": [("matchups", "matchup matrix", plots.render(plots.matchups, s))],
        "folded": [("the matrix as a table", matchup_rows(s))],
    }


def _counters(s: dict) -> Section | None:
    cr = tables.counter_rows(s)
    if not cr:
        return None
    return {
        "id": "counters",
        "title": "Game counters",
        "intro": "Per-game counters of the game (means "
        "over finished games), each with what it counts; those that cannot apply to this scenario are "
        "left out.",
        "plots": [],
        "folded": [(count(len(cr), "counter"), cr)],
    }
