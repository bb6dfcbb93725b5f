"""The designer's balance report: a self-contained HTML page (inline SVG plots, inline CSS, no JavaScript, no
network) and the same content as Markdown for code review (plots as SVG files beside it), both from the summary
dict (sim.stats.summary, schema 1). (The pages of an A/B comparison: sim.pages.compare_page.)

Written by `sim run` (summary.html, balance.md, plots/) and by `sim report` (from a scenario, or again from an
existing report folder's summary.json).
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from pathlib import Path
from typing import TypedDict

from sim.model import catalogue
from sim.model.words import count, with_sign
from sim.pages import arc_page, plots, skill_page, tables, verdicts
from sim.pages.board_svg import board_plots
from sim.pages.scenario_words import (
    NO_FINISHED,
    TEAM_SEAT_NOTE,
    changed_text,
    is_team_game,
    lead_line,
    parameter_lines,
    scenario_items,
)
from sim.pages.verdicts import fmt_p
from sim.stats import metrics

CSS = """
body{font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;max-width:1100px;margin:0 auto;padding:1em 2em;
color:#222;line-height:1.4}
h1{margin-bottom:.2em}h2{border-bottom:1px solid #ddd;padding-bottom:.2em;margin-top:1.6em}
table{border-collapse:collapse;margin:.6em 0;font-size:.9em}th,td{border:1px solid #ddd;padding:.25em .6em;
text-align:left}th{background:#f4f4f4}td.num{text-align:right;font-variant-numeric:tabular-nums}
.prov{background:#f7f7fa;border:1px solid #dde;padding:.6em 1em;font-size:.85em}
.prov dt{font-weight:600;float:left;clear:left;width:11em}.prov dd{margin-left:11em}
nav a{margin-right:1em;font-size:.9em}figure.plot{margin:.8em 0}figure.plot svg{max-width:100%;height:auto}
figcaption{font-size:.85em;color:#555}.yes{color:#b5464b;font-weight:600}.def{font-size:.85em;color:#444}
details{margin:.4em 0}details summary{cursor:pointer;color:#3b5f8a;font-size:.9em}
header details summary{color:#555}section#verdict p{margin:.35em 0}
"""


def esc(x) -> str:
    return html.escape(str(x), quote=True)


def pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def pts(x: float) -> str:
    return f"{with_sign(100 * x, 2)} pts"


def ci_pct(c) -> str:
    return f"[{100 * c[0]:.2f}%, {100 * c[1]:.2f}%]"


def ci_pts(c) -> str:
    """An interval of percentage points, next to its value that already says "pts" (the unit once)."""
    return f"[{with_sign(100 * c[0], 2)}, {with_sign(100 * c[1], 2)}]"


# --- balance figures ----------------------------------------------------------------------------------------------
# Labels and definitions come from the catalogue of measures (sim.model.catalogue); none is spelled here.


def balance_items(s: dict) -> list[tuple[str, dict]]:
    """The headline balance figures as (catalogue key, {figure, value, interval, note}) in report order; the
    figure is the measure's catalogue label."""
    cat = catalogue.for_summary(s)
    lab = cat.label
    rows: list[tuple[str, dict]] = []
    fin = s["games"]["finished"]
    n = len(s["seats"])
    coop = is_team_game(s)
    g = s["games"]
    few = metrics.too_few_for_tests(fin)  # no normal interval or test: "too few games" instead
    few_text = f"too few games ({fin} finished, fewer than {metrics.MIN_GAMES_FOR_TESTS})"
    none = "none: too few games"
    trunc = (
        "truncated",
        {
            "figure": lab("truncated"),
            "value": pct(g["truncated_rate"]),
            "interval": ci_pct(metrics.wilson(g["truncated"], g["played"])),
            "note": f"{g['truncated']} of {count(g['played'], 'game')}; errors: {g['errors']}",
        },
    )
    if not fin:  # nothing finished: every figure below would be made of empty histograms
        return [
            (
                "",
                {
                    "figure": "no finished game",
                    "value": "n/a",
                    "interval": "",
                    "note": "every game hit the turn cap (max_turns) or failed: raise max_turns",
                },
            ),
            trunc,
        ]
    if coop:
        for role, r in s["team"].items():
            rows.append(
                (
                    f"team.{role}",
                    {
                        "figure": lab(f"team.{role}"),
                        "value": pct(r["rate"]),
                        "interval": ci_pct(r["ci95"]),
                        "note": f"{r['wins']:.0f} of {r['games']} finished games",
                    },
                )
            )
    else:
        fp = s.get("first_player") or {}
        if fp.get("win") and fp.get("advantage") is not None:
            p0 = fp["win"]["rate"]
            se0 = math.sqrt(fp["fair_share"] * (1 - fp["fair_share"]) / fin) if fin else 0.0
            pv = metrics.diff_test(p0 - fp["fair_share"], se0)
            rows.append(
                (
                    "first_player_advantage",
                    {
                        "figure": lab("first_player_advantage"),
                        "value": pts(fp["advantage"]),
                        "interval": ci_pts(fp["advantage_ci95"]),
                        "note": f"{lab('first_player.win')}: {pct(p0)} against a fair {pct(fp['fair_share'])}; "
                        + (f"{few_text} to test" if few else fmt_p(pv)),
                    },
                )
            )
        rates = [r["win"]["rate"] for r in s["seats"]]
        hi_s = max(range(n), key=lambda i: rates[i])
        lo_s = min(range(n), key=lambda i: rates[i])
        gap = rates[hi_s] - rates[lo_s]
        pi, pj = rates[hi_s], rates[lo_s]
        se = math.sqrt(max(pi + pj - (pi - pj) ** 2, 0.0) / fin) if fin else 0.0
        z = metrics.z_value()
        chi = metrics.uniform_chi2([r["win"]["wins"] for r in s["seats"]])
        rows.append(
            (
                "seat_balance",
                {
                    "figure": lab("seat_balance"),
                    "value": pts(gap),
                    "interval": none if few else ci_pts([gap - z * se, gap + z * se]),
                    "note": f"seat {hi_s} {pct(pi)} vs seat {lo_s} {pct(pj)}; "
                    + (
                        f"{few_text} for an interval or the chi-square test of equal seats"
                        if few
                        else f"chi-square test of equal seats: {fmt_p(chi['p'])}"
                    ),
                },
            )
        )
        t = s["ties"]
        rows.append(
            (
                "tie",
                {
                    "figure": lab("tie"),
                    "value": pct(t["tie_rate"]),
                    "interval": ci_pct(metrics.wilson(t["shared_games"], fin)),
                    "note": f"{t['shared_games']} shared wins",
                },
            )
        )
        if "tiebreak_decided" in t:
            rows.append(
                (
                    "extra.tiebreak_decided",
                    {
                        "figure": lab("extra.tiebreak_decided"),
                        "value": pct(t["tiebreak_rate"]),
                        "interval": ci_pct(metrics.wilson(t["tiebreak_decided"], fin)),
                        "note": count(t["tiebreak_decided"], "game"),
                    },
                )
            )
        d = s.get("decisiveness")
        if d and d["margin"]["n"] and d.get("mean_ci95"):
            m = d["margin"]
            rows.append(
                (
                    "margin",
                    {
                        "figure": lab("margin"),
                        "value": f"{m['mean']:.2f} {cat.unit('margin')}",
                        "interval": none if few else f"[{d['mean_ci95'][0]:.2f}, {d['mean_ci95'][1]:.2f}]",
                        "note": f"median {m['quantiles']['p50']}; {lab('close_games')} (margin <= "
                        f"{d['close_margin']}): {pct(d['close']['rate'])} "
                        f"{ci_pct(d['close']['ci95'])}",
                    },
                )
            )
    for key in ("turns", "rounds"):
        L = s["length"][key]
        if not L["n"]:
            continue
        h = metrics.z_value() * L["std"] / math.sqrt(L["n"]) if L["n"] > 1 else 0.0
        rows.append(
            (
                f"length.{key}",
                {
                    "figure": lab(f"length.{key}"),
                    "value": f"{L['mean']:.2f}",
                    "interval": none if few else f"[{L['mean'] - h:.2f}, {L['mean'] + h:.2f}]",
                    "note": f"median {L['quantiles']['p50']}, 5-95%: {L['quantiles']['p05']}-{L['quantiles']['p95']}",
                },
            )
        )
    m = s["length"].get("minutes")
    if m and m["mean"] is not None:  # the turns' mean and interval, in minutes
        L, k = s["length"]["turns"], m["seconds_per_turn"] / 60.0
        h = metrics.z_value() * L["std"] / math.sqrt(L["n"]) if L["n"] > 1 else 0.0
        rows.append(
            (
                "length.minutes",
                {
                    "figure": "playing time (estimate)",
                    "value": f"{m['mean']:.2f} min",
                    "interval": none if few else f"[{k * (L['mean'] - h):.2f}, {k * (L['mean'] + h):.2f}]",
                    "note": f"median {m['median']:.0f} min; turns x {m['seconds_per_turn']:g} s a turn / 60 "
                    f"(seconds_per_turn, {'the default' if m['default'] else 'set in the scenario'}); "
                    f"{verdicts.box_words(m)}",
                },
            )
        )
    rows.append(trunc)
    return rows


def balance_rows(s: dict) -> list[dict]:
    """The headline balance figures: {figure, value, interval, note} (strings), in report order."""
    return [r for _, r in balance_items(s)]


def definitions(s: dict) -> list[tuple[str, str]]:
    """(label, definition) of every measure the page reports as a headline figure, from the catalogue."""
    cat = catalogue.for_summary(s)
    keys = [k for k, _ in balance_items(s) if k]
    if not is_team_game(s):
        keys.insert(0, "win.seat{seat}")
        if "close_games" not in keys and any(k == "margin" for k in keys):
            keys.append("close_games")
    out = []
    for k in dict.fromkeys(keys):
        e = catalogue.lookup(k, cat.game) if "{" in k else cat.entry(k)
        if e is not None and e.definition:  # a pattern entry said of every seat, never a raw {seat}
            out.append((_generic(e.label), cat.generic_definition(k)) if "{" in k else (e.label, e.definition))
    return out


def _generic(label: str) -> str:
    """A pattern entry's label for the definitions list ('seat {seat} ({strategy}) wins' -> 'seat wins')."""
    import re

    return re.sub(r"\s+", " ", re.sub(r"\{\w+\}|\(\{\w+\}\)", "", label)).strip()


# --- tables -------------------------------------------------------------------------------------------------------


def seat_rows(s: dict) -> list[dict]:
    """One row per seat (`sim.pages.tables.seat_rows`), the interval in percent."""
    return tables.seat_rows(s, ci_fmt=ci_pct)


def strategy_rows(s: dict) -> list[dict]:
    return tables.strategy_rows(s, ci_fmt=ci_pct)


def position_rows(s: dict) -> list[dict]:
    return [
        {"turn position": p["position"], "win rate": pct(p["win"]["rate"]), "95% CI": ci_pct(p["win"]["ci95"])}
        for p in s["positions"]
    ]


length_rows = tables.length_rows
counter_rows = tables.counter_rows


def scenario_rows(s: dict) -> list[dict]:
    """The rules variant played (sim.pages.scenario_words.scenario_items) as table rows."""
    return [{"": k, "played": v} for k, v in scenario_items(s)]


def curve_rows(s: dict) -> list[dict]:
    rows = []
    least = plots.min_games(s["games"]["finished"])
    for name, c in (s.get("curves") or {}).items():
        for r, (g, m) in enumerate(zip(c["games_by_round"], c["mean_by_round"])):
            if g >= least and m is not None:
                rows.append({"curve": name, "round": r + 1, "games running": g, "mean": f"{m:.3f}"})
    return rows


def matchup_rows(s: dict) -> list[dict]:
    m = s.get("matchups") or {}
    names = sorted(m)
    return [{"row outscores column": a, **{b: (pct(m[a][b]) if b in m[a] else "") for b in names}} for a in names]


def html_table(rows: list[dict], numeric: tuple = ()) -> str:
    if not rows:
        return ""
    cols = list(rows[0])
    head = "".join(f"<th>{esc(c)}</th>" for c in cols)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="num">{esc(r.get(c, ""))}</td>'
            if (c in numeric or isinstance(r.get(c), (int, float)))
            else f"<td>{esc(r.get(c, ''))}</td>"
            for c in cols
        )
        + "</tr>"
        for r in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def md_table(rows: list[dict]) -> str:
    if not rows:
        return ""
    cols = list(rows[0])
    cell = lambda v: str(v).replace("|", "\\|").replace("\n", " ")  # noqa: E731
    out = ["| " + " | ".join(cell(c) for c in cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    out += ["| " + " | ".join(cell(r.get(c, "")) for c in cols) + " |" for r in rows]
    return "\n".join(out)


# --- the report ---------------------------------------------------------------------------------------------------


class Section(TypedDict, total=False):
    """One section of the report (`sections`): id and title, the intro line, plots [(name, caption, SVG or None
    when nothing was drawn)], tables and folded tables [(caption, rows)]."""

    id: str
    title: str
    intro: str
    plots: Sequence[tuple[str, str, str | None]]
    tables: Sequence[tuple[str, list[dict]]]
    folded: Sequence[tuple[str, list[dict]]]


def sections(s: dict) -> list[Section]:
    """Report sections in order: {id, title, intro, plots: [(name, caption, svg)], tables: [(caption, rows)],
    folded: [(summary, rows)]} (folded tables sit in a <details> on the page: the numbers behind a plot).

    A balance memo: the headline figures, how games end, win rates (competitive games), scores (identical seats drawn
    once), decisiveness (competitive), length, per-round curves with bands, matchups (competitive, mixed strategies),
    then what was played and the game counters. Team games leave the competitive-only figures out and state the
    team win rate once (the balance table)."""
    coop = is_team_game(s)
    g = s["games"]
    cat = catalogue.for_summary(s)
    lines, changed = parameter_lines(s)
    scenario: Section = {
        "id": "scenario",
        "title": "Scenario",
        "intro": "The rules variant played: parameters that differ "
        "from the game's defaults are marked with the default; strategy weights are listed where they were "
        "set.",
        "plots": board_plots(s),
        "tables": [
            (
                "",
                [
                    r
                    if r[""] != "parameters"
                    else {"": "parameters", "played": changed_text(changed) + " (every parameter below)"}
                    for r in scenario_rows(s)
                ],
            )
        ],
        "folded": [(f"every parameter ({len(lines)})", [{"parameter": x} for x in lines])],
    }
    intro = "Headline figures with 95% intervals (definitions at the end)."
    if not g["finished"]:
        return [
            {
                "id": "balance",
                "title": "Balance at a glance",
                "intro": NO_FINISHED,
                "plots": [],
                "tables": [("", balance_rows(s))],
            },
            scenario,
        ]
    if g["truncated"]:
        intro = (
            f"Warning: {pct(g['truncated_rate'])} of games hit the turn cap and are left out of every figure "
            "below. " + intro
        )
    out: list[Section] = [
        {
            "id": "balance",
            "title": "Balance at a glance",
            "intro": intro,
            "plots": [],
            "tables": [("", balance_rows(s))],
        }
    ]
    at_skill = skill_page.section(s)  # the headline figures with every seat on the learned player
    if at_skill is not None:
        out.append(at_skill)  # type: ignore[arg-type]
    shown_cat = [c for c, d in s.get("extras", {}).items() if "counts" in d and cat.counter_shown(c)]
    if shown_cat:
        ps = [
            (
                f"outcome-{c}",
                f"{cat.label(f'extra.{c}')}: share of finished games with 95% intervals",
                plots.render(plots.categorical, s, c),
            )
            for c in shown_cat
        ]
        out.append(
            {
                "id": "outcomes",
                "title": "How games end",
                "intro": "Each way a game ends, as a share of finished games (95% intervals).",
                "plots": ps,
                "folded": [("the shares as a table", outcome_rows(s, shown_cat))],
            }
        )
    if coop:
        out.append(
            {
                "id": "win-rates",
                "title": "Win rates",
                "intro": TEAM_SEAT_NOTE + " The team's rate is in the "
                "balance figures above; per-seat win rates, the turn order and strategy matchups say nothing "
                "more here and are left out.",
                "plots": [],
            }
        )
    else:
        wr = [("by seat", seat_rows(s)), ("by turn position (0 = start player)", position_rows(s))]
        if len(s["strategies"]) > 1:
            wr.append(("by strategy", strategy_rows(s)))
        scope = verdicts.scope_line(s)
        out.append(
            {
                "id": "win-rates",
                "title": "Win rates",
                "intro": "Per seat (each seat in its own colour, also in the score plot), per turn position and "
                "per strategy, as the difference from the fair share in percentage points (the shaded band: within 1 point of "
                "fair); whiskers are 95% Wilson intervals." + (f" {scope}" if scope else ""),
                "plots": [("win-rates", "win rates with 95% intervals", plots.render(plots.win_rates, s))],
                "folded": [(f"win rates {cap} as a table", rows) for cap, rows in wr],
            }
        )
    groups = plots.seat_groups(s)
    same = [x for x, _ in groups if len(x) > 1]
    out.append(
        {
            "id": "scores",
            "title": "Scores",
            "intro": f"{cat.generic_definition('score.seat{seat}')} "
            "Distribution of the "
            "final score" + (" (seats with identical results drawn once)." if same else " per seat."),
            "plots": [("scores", "final score distribution", plots.render(plots.scores, s))],
        }
    )
    if not coop and s.get("decisiveness") and s["decisiveness"]["margin"]["n"]:
        out.append(
            {
                "id": "decisiveness",
                "title": "Decisiveness",
                "intro": cat.definition("margin"),
                "plots": [("margin", cat.label("margin"), plots.render(plots.margin, s))],
            }
        )
    mins = verdicts.minutes_text(s)
    out.append(
        {
            "id": "length",
            "title": "Game length",
            "intro": "Turns and rounds of finished games." + (f" {mins[0].upper() + mins[1:]}." if mins else ""),
            "plots": [("length", "game length", plots.render(plots.length, s))],
            "folded": [("game length as a table", length_rows(s))],
        }
    )
    if s.get("curves"):
        names = [cat.label(f"curve.{c}") for c in s["curves"]]
        out.append(
            {
                "id": "curves",
                "title": "By round: " + ", ".join(names),
                "intro": "Mean over the games still running at each round, with its 95% interval band (rounds "
                f"reached by fewer than {plots.min_games(g['finished'])} games are left out), and how "
                "many games are still running.",
                "plots": [("curves", "per-round curves", plots.render(plots.curves, s))],
                "folded": [("the curves round by round", curve_rows(s))],
            }
        )
    # the game's arc, "How the game unfolds" (a Section as a dict: arc_page cannot import this module)
    unfolds = arc_page.section(s)
    if unfolds is not None:
        out.append(unfolds)  # type: ignore[arg-type]
    if not coop and len(s.get("matchups") or {}) > 1:
        out.append(
            {
                "id": "matchups",
                "title": "Strategy matchups",
                "intro": "Share of seat pairings in which the row strategy outscored the column strategy "
                "(equal scores count half)." + (f" {verdicts.scope_line(s)}" if verdicts.scope_line(s) else ""),
                "plots": [("matchups", "matchup matrix", plots.render(plots.matchups, s))],
                "folded": [("the matrix as a table", matchup_rows(s))],
            }
        )
    out.append(scenario)
    cr = counter_rows(s)
    if cr:
        out.append(
            {
                "id": "counters",
                "title": "Game counters",
                "intro": "Per-game counters of the game (means "
                "over finished games), each with what it counts; those that cannot apply to this scenario are "
                "left out.",
                "plots": [],
                "folded": [(count(len(cr), "counter"), cr)],
            }
        )
    return out


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


def verdict_lines(s: dict) -> list[str]:
    """The run's verdict in sentences (sim.pages.verdicts) and the scope line where it matters."""
    scope = verdicts.scope_line(s)
    return verdicts.run_sentences(s) + ([scope] if scope else [])


def provenance_line(s: dict) -> str:
    """Where the figures come from, in one line (the details fold out below it)."""
    pv = s.get("provenance") or {}
    g = s["games"]
    return (
        f"{count(g['played'], 'game')} played, {g['finished']} finished · seed {pv.get('seed', s['scenario'].get('seed'))}"
        f" · commit {str(pv.get('git_commit', '?'))[:12]} · rules v{pv.get('rules_version', '?')} (provenance)"
    )


def provenance_items(s: dict) -> list[tuple[str, str]]:
    sc = s["scenario"]
    pv = s.get("provenance") or {}
    pk = pv.get("packages") or {}
    items = [
        ("scenario", f"{sc['name']} ({pv.get('scenario_file') or 'no file'})"),
        ("game", f"{s['game_title']} ({sc['game']}), {sc['players']} players"),
        ("seats", ", ".join(f"{i}: {x['strategy']}" for i, x in enumerate(sc["seats"]))),
        ("seed", pv.get("seed", sc.get("seed"))),
        ("games", f"{s['games']['played']} played, {s['games']['finished']} finished"),
        ("rules version", pv.get("rules_version", "?")),
        ("RNG contract", pv.get("rng_contract", "?")),
        ("git commit", pv.get("git_commit", "?")),
        ("packages", ", ".join(f"{k} {v}" for k, v in pk.items())),
        (
            "run",
            f"{pv.get('created_utc', '?')}, {pv.get('wall_time_s', '?')} s on "
            + (count(pv["threads"], "thread") if isinstance(pv.get("threads"), int) else "? threads"),
        ),
    ]
    return [(k, str(v)) for k, v in items]


def _sentence(text: str) -> str:
    return text if text.endswith((".", "!", "?")) else text + "."


def games_played(s: dict) -> str:
    """The game count every figure rests on, said beside the title ("250 games played."), so a report replaced by a
    shorter run cannot pass for the longer one."""
    n = s["games"]["played"]
    return f"{n:,} game{'' if n == 1 else 's'} played."


def render(s: dict, secs: list[Section] | None = None) -> str:
    """The balance report as one self-contained HTML page. ``secs``: `sections` of ``s`` when already drawn (the
    plots are most of the time a report takes: `write` draws them once for the page and the Markdown)."""
    sc = s["scenario"]
    title = f"Balance report: {sc['name']}"
    secs = sections(s) if secs is None else secs
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{esc(title)}</title><style>{CSS}</style></head><body>",
        f'<header id="provenance"><h1>{esc(title)}</h1>',
        f'<p>{esc(_sentence(lead_line(s)))} <b class="games">{esc(games_played(s))}</b></p>',
        f"<details><summary>{esc(provenance_line(s))}</summary>"
        '<dl class="prov">'
        + "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in provenance_items(s))
        + "</dl></details></header>",
        '<nav><a href="#verdict">Verdict</a>'
        + "".join(f'<a href="#{x["id"]}">{esc(x["title"])}</a>' for x in secs)
        + '<a href="#definitions">Definitions</a></nav>',
    ]
    parts.append(
        '<section id="verdict"><h2>Verdict</h2>' + "".join(f"<p>{esc(x)}</p>" for x in verdict_lines(s)) + "</section>"
    )
    for x in secs:
        parts.append(f'<section id="{x["id"]}"><h2>{esc(x["title"])}</h2><p>{esc(x["intro"])}</p>')
        for name, cap, svg in x["plots"]:
            if svg:
                svg = plots.scope_ids(svg, f"svg-{name}-")  # ids unique on the page
                parts.append(
                    f'<figure class="plot" id="plot-{esc(name)}">{svg}<figcaption>{esc(cap)}</figcaption></figure>'
                )
        for cap, rows in x.get("tables", ()):
            if rows:
                parts.append((f"<h3>{esc(cap)}</h3>" if cap else "") + html_table(rows))
        for cap, rows in x.get("folded", ()):
            if rows:
                parts.append(f"<details><summary>{esc(cap)}</summary>{html_table(rows)}</details>")
        parts.append("</section>")
    parts.append(
        '<section id="definitions"><h2>Definitions</h2><dl class="def">'
        + "".join(f"<dt><b>{esc(k)}</b></dt><dd>{esc(v)}</dd>" for k, v in definitions(s))
        + "</dl></section></body></html>"
    )
    return "\n".join(parts) + "\n"


def render_markdown(s: dict, plot_dir: str = "plots", secs: list[Section] | None = None) -> tuple[str, dict[str, str]]:
    """The balance report as Markdown plus its plots {file name: svg} (referenced as ``plot_dir/<name>.svg``);
    ``secs`` as in `render`."""
    sc = s["scenario"]
    out = [f"# Balance report: {sc['name']}", "", f"{_sentence(lead_line(s))} **{games_played(s)}**", ""]
    out += [f"- **{k}**: {v}" for k, v in provenance_items(s)] + [""]
    out += ["## Verdict", ""] + [f"- {x}" for x in verdict_lines(s)] + [""]
    files = {}
    for x in sections(s) if secs is None else secs:
        out += [f"## {x['title']}", "", x["intro"], ""]
        for name, cap, svg in x["plots"]:
            if svg:
                files[f"{name}.svg"] = svg
                out += [f"![{cap}]({plot_dir}/{name}.svg)", ""]
        for cap, rows in x.get("tables", ()):
            if rows:
                out += ([f"### {cap}", ""] if cap else []) + [md_table(rows), ""]
        for cap, rows in x.get("folded", ()):  # folded as on the page (GitHub renders <details>)
            if rows:
                out += [f"<details><summary>{cap}</summary>", "", md_table(rows), "", "</details>", ""]
    out += ["## Definitions", ""] + [f"- **{k}**: {v}" for k, v in definitions(s)]
    return "\n".join(out) + "\n", files


def write(folder: Path, s: dict) -> list[Path]:
    """summary.html, balance.md and plots/*.svg into ``folder``; returns the paths written. Every plot is drawn
    once, for the page and the Markdown both."""
    folder = Path(folder)
    secs = sections(s)
    page = folder / "summary.html"
    page.write_text(render(s, secs), encoding="utf-8")
    text, files = render_markdown(s, secs=secs)
    (folder / "balance.md").write_text(text, encoding="utf-8")
    pdir = folder / "plots"
    pdir.mkdir(exist_ok=True)
    for name, svg in files.items():
        (pdir / name).write_text(svg + "\n", encoding="utf-8")
    return [page, folder / "balance.md", pdir]
