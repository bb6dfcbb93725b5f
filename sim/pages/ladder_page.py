"""ladder.html: how much skill matters, which rung is strongest, and whether each balance figure survives better
play, in words a designer reads, each figure with its definition. Self-contained (inline SVG and CSS), from the
ladder.json dict (`sim.output.ladder_output.document`)."""

from __future__ import annotations

from sim.model.words import count, with_sign
from sim.pages import ladder_plots
from sim.pages.html_report import CSS, esc, html_table
from sim.pages.plots import render as draw
from sim.pages.plots import scope_ids


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def _ci_pct(c: list) -> str:
    return "n/a" if not c or c[0] is None else f"{100 * c[0]:.1f}..{100 * c[1]:.1f}%"


def _elo(x: float | None) -> str:
    return "n/a" if x is None else f"{x:+.0f}"


def elo_interval(d: dict, i: int, sep: str = " .. ") -> str:
    """Rung ``i``'s 95% interval as text (ladder.json ``d``). When the anchor rung won no game its distance to the
    others is not measured (the maximum-likelihood distance is infinite; the fit's regularisation sets the number,
    and every bootstrap replicate with it): the text then says so, "not measured (random won no game)", instead of
    a narrow interval that would mislead. The differences among the other rungs are still measured."""
    rt = d["rating"]
    r = rt["ratings"][i]
    if d.get("anchor") in rt.get("never_won", ()) and r["rung"] != d.get("anchor"):
        return f"not measured ({d['anchor']} won no game)"
    return f"{_elo(r['ci95'][0])}{sep}{_elo(r['ci95'][1])}"


def top_rungs(d: dict) -> list[str]:
    """The rungs at the top of a rated ladder (ladder.json ``d``): the best, then those its head-to-head cannot tell
    from it (``tied_with_best``: a 95% interval holding 50%); one name when the best stands out."""
    rt = d["rating"]
    return [rt["ratings"][rt["best"]]["rung"]] + list(rt.get("tied_with_best") or [])


def names_and(names: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def tie_words(d: dict) -> str:
    """Why the top rungs count as tied, with the best's head-to-head against the next one: "their head-to-head
    cannot tell them apart: planner wins 50.0% [49.2, 50.6] of its decided pairs against weighted"."""
    rt = d["rating"]
    top = top_rungs(d)
    b = rt["best"]
    j = next(i for i, r in enumerate(rt["ratings"]) if r["rung"] == top[1])
    h = rt["head_to_head"]
    m, lo, hi = h["matrix"][b][j], h["ci_low"][b][j], h["ci_high"][b][j]
    if m is None or lo is None or hi is None:
        return f"{top[0]} and {top[1]} decided no game between them"
    who = "them" if len(top) == 2 else "the best and each of the others"
    return (
        f"the head-to-head cannot tell {who} apart: {top[0]} wins {_pct(m)} [{100 * lo:.1f}, {100 * hi:.1f}] of its "
        f"decided pairs against {top[1]}"
    )


def _p(p: float) -> str:
    """A p-value as the page writes it: '= 0.034', or '< 1e-300' where the float underflowed to 0."""
    return "< 1e-300" if p < 1e-300 else f"= {p:.3g}"


def _svg(fn, d: dict, name: str) -> str:
    svg = draw(fn, d)
    return f"<figure>{scope_ids(svg, name)}</figure>" if svg else ""


def luck_items(d: dict) -> list[tuple[str, str, str]]:
    """(figure, value in words, definition) of the luck-versus-skill figures of a rated ladder."""
    rt = d["rating"]
    lk = rt["luck"]
    names = [r["rung"] for r in rt["ratings"]]
    best, nxt, anchor = names[rt["best"]], names[rt["next"]], d["anchor"]

    def v(k: str, f=_pct) -> str:
        c = lk[k]["ci95"]
        ci = f"{f(c[0])} .. {f(c[1])}" if f is not _pct else _ci_pct(c)
        return f"{f(lk[k]['value'])} (95% interval {ci})"

    return [
        (
            f"best rung ({best}) against {anchor}",
            v("best_vs_random"),
            f"share of the decided pairs between {best} and {anchor} (games where one of them won and the other "
            "did not, at a table where both sat) that the best rung won; 50% would mean skill does not help.",
        ),
        (
            f"best rung ({best}) against the next ({nxt})",
            v("best_vs_next"),
            "the same share against the second-strongest rung: how far the top of the ladder stands out.",
        ),
        (
            "rating spread",
            v("spread_elo", lambda x: "n/a" if x is None else f"{x:.0f} Elo"),
            "best rating minus worst (Duersch, Lambrecht and Oechssler compare games by such spreads; chess "
            "players span about 2,000 Elo).",
        ),
        (
            "how often the stronger wins",
            v("stronger_wins"),
            "the chance the stronger of two rungs that far apart wins a head-to-head under the fitted model, "
            "1 / (1 + 10^(-spread/400)).",
        ),
        (
            "outcome variance explained by skill",
            v("explained"),
            "1 - SSE/SST over every seat of every game at the mixed tables: outcome = the seat's win share, "
            "prediction = its rung's fitted winning chance at that table, SST around the fair share (Gilbert and "
            "Wells' 'luck' is what is left). Win/lose outcomes keep this well below 100% even in games of pure "
            "skill between unequal players.",
        ),
    ]


def _balance_section(d: dict) -> str:
    b = d.get("balance") or {}
    figs = b.get("figures") or {}
    if not figs:
        return ""
    rows = []
    for f in figs.values():
        unit = f["per_rung"][0]["unit"] if f["per_rung"] else ""
        fmt = (
            (lambda x: f"{with_sign(100 * x, 1)} pts")
            if unit == "share"
            else (lambda x: f"{100 * x:.1f}%")  # a share of games (the arc's figures)
            if unit == "rate"
            else (lambda x: f"{x:.1f}")
        )
        per = "; ".join(
            f"{r['rung']} {fmt(r['value'])} ({fmt(r['ci95'][0])}..{fmt(r['ci95'][1])})" for r in f["per_rung"]
        )
        rows.append({"figure": f["words"], "at each rung (95% interval)": per, "verdict": f["skill"]["verdict"]})
    return (
        "<h2>Does the balance hold for skilled play?</h2>"
        "<p>Each rung plays a table of its own with every seat on that rung "
        f"({count(d.get('balance_games') or d['games_per_table'], 'game', grouped=True)}, the same seed as the ladder). "
        f"Each figure of every rung rated above <em>{esc(b.get('reference', ''))}</em> (the table the figures are "
        "judged against: the scenario's own players) is compared with that table's at a margin (1 percentage point "
        "for the first-player advantage and team win rates, 2% for the length; shaded in the plots): <em>holds for "
        "skill</em> when an equivalence test (two one-sided tests) puts the difference within the margin, "
        "<em>changes with skill</em> when it is significant and its interval lies past the margin, else <em>cannot tell yet</em> "
        "with about how many games a table would decide; the verdict shown is the strongest rung's, Holm-corrected "
        "over every figure and rung. Seat spread is the highest minus the lowest seat win rate (the start rotates, "
        "so it measures what a seat keeps of its own) with an interval from simultaneous intervals of the seats' "
        "win rates; the seats are equal when every seat lies within 1 point of the fair share, and differ when the "
        "chi-square test of equal seats rejects; first-player advantage is the start player's win rate minus "
        "the fair share.</p>"
        + html_table(rows)
        + (f'<p class="note">{esc(b["note"])}</p>' if b.get("note") else "")
        + _svg(ladder_plots.balance, d, "bal")
    )


def render(d: dict) -> str:
    """The whole page."""
    title = f"Skill ladder: {d['title']}, {d['players']} players"
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="en"><head><meta charset="utf-8"><title>{esc(title)}</title><style>{CSS}</style></head><body>',
        f"<h1>{esc(title)}</h1>",
        f"<p>{len(d['rungs'])} rungs ({esc(', '.join(r['rung'] for r in d['rungs']))}), {count(len(d['tables']), 'table')} of "
        f"{count(d['games_per_table'], 'game', grouped=True)} each, seed {d['seed']}; rules and board of scenario "
        f"<code>{esc(d['scenario']['name'])}</code>. Every table plays the same games (common random numbers) and "
        "every rung sits in every seat and turn position equally often.</p>",
    ]
    rt = d.get("rating")
    if rt:
        names = [r["rung"] for r in rt["ratings"]]
        best = names[rt["best"]]
        lk = rt["luck"]
        top = top_rungs(d)
        lead = (
            f"{best} is the strongest rung at {_elo(rt['ratings'][rt['best']]['elo'])} Elo over {d['anchor']}; it "
            if len(top) == 1
            else f"{names_and(top)} are tied for the strongest rung ({tie_words(d)}); {best}, at "
            f"{_elo(rt['ratings'][rt['best']]['elo'])} Elo over {d['anchor']}, "
        )
        parts.append(
            "<h2>In a sentence</h2><p>"
            + esc(
                lead
                + f"wins {_pct(lk['best_vs_random']['value'])} of its decided pairs against {d['anchor']}, the rungs "
                f"span {lk['spread_elo']['value']:.0f} Elo (the stronger of two that far apart wins "
                f"{_pct(lk['stronger_wins']['value'])} of head-to-heads), and the rungs' strength explains "
                f"{_pct(lk['explained']['value'])} of the variance of outcomes."
            )
            + "</p>"
        )
        rows = [
            {
                "rung": rt["ratings"][i]["rung"],
                "Elo": _elo(rt["ratings"][i]["elo"]),
                "95% interval": elo_interval(d, i),
                "decided pairs": f"{rt['ratings'][i]['pairs']:,.0f}",
            }
            for i in rt["order"]
        ]
        if rt.get("never_won"):
            nw = ", ".join(rt["never_won"])
            parts.append(
                f'<p class="warn"><strong>{esc(nw)} won no game at the mixed tables.</strong> Its distance below '
                "the others is then not measured (the fit holds it finite); the ratings measured from it are lower "
                "bounds. Compare the other rungs with each other, or play more games (--games) until it wins some."
                "</p>"
            )
        parts += [
            "<h2>Ratings</h2>",
            f"<p>{esc(rt['method'])}. Bradley-Terry: a rung rated D Elo above another wins 1 / (1 + 10^(-D/400)) of "
            f"their decided pairs. {esc(d['anchor'])}'s interval is 0 by construction (the anchor).</p>",
            html_table(rows),
            _svg(ladder_plots.ratings, d, "rat"),
            "<h2>Head to head</h2><p>Cell: the share of decided pairs the row rung won against the column rung "
            "(a pair is decided when one of the two won the game and the other did not).</p>",
            _svg(ladder_plots.heatmap, d, "h2h"),
            "<h2>Luck versus skill</h2>",
            html_table([{"figure": a, "value": b, "definition": c} for a, b, c in luck_items(d)]),
        ]
    if d.get("team"):
        best = max(d["team"], key=lambda t: t["win_rate"])
        worst = min(d["team"], key=lambda t: t["win_rate"])
        parts.append(
            "<h2>In a sentence</h2><p>"
            + esc(
                f"The best team strategy, {best['rung']}, wins {_pct(best['win_rate'])} "
                f"({_ci_pct(best['ci95'])}); the weakest, {worst['rung']}, {_pct(worst['win_rate'])} "
                f"({_ci_pct(worst['ci95'])}): a co-operative game has no opponent to rate against, so skill shows as "
                "the team's win rate rising rung by rung."
            )
            + "</p>"
        )
        parts += [
            "<h2>Team win rate per rung</h2><p>A co-operative game: every hunter plays the rung's strategy; the "
            "team's win rate with its Wilson 95% interval.</p>",
            html_table(
                [
                    {
                        "rung": t["rung"],
                        "team win rate": _pct(t["win_rate"]),
                        "95% interval": _ci_pct(t["ci95"]),
                        "games": t["games"],
                    }
                    for t in d["team"]
                ]
            ),
            _svg(ladder_plots.team, d, "team"),
        ]
    if d.get("matrix"):
        m = d["matrix"]
        hi = max(m["cells"], key=lambda c: c["hunters_win_rate"])
        lo = min(m["cells"], key=lambda c: c["hunters_win_rate"])
        parts.append(
            "<h2>In a sentence</h2><p>"
            + esc(
                f"The hunters do best with {hi['col']} against {hi['row']} ({_pct(hi['hunters_win_rate'])}, "
                f"{_ci_pct(hi['ci95'])}) and worst with {lo['col']} against {lo['row']} "
                f"({_pct(lo['hunters_win_rate'])}). An asymmetric game has no mono tables, so the balance figures "
                "at each skill level are the cells of this matrix."
            )
            + "</p>"
        )
        parts += [
            f"<h2>{esc(m['row_role'])} against the hunters</h2><p>Cell: the hunters' win rate (every hunter on the "
            f"column's rung) against the {esc(m['row_role'])} rung of the row, Wilson 95% intervals in the table.</p>",
            _svg(ladder_plots.matrix, d, "mx"),
            html_table(
                [
                    {
                        m["row_role"]: c["row"],
                        "hunters": c["col"],
                        "hunters win": _pct(c["hunters_win_rate"]),
                        "95% interval": _ci_pct(c["ci95"]),
                        "games": c["games"],
                    }
                    for c in m["cells"]
                ]
            ),
        ]
    bud = d.get("budget") or {}
    parts.append("<h2>Rating against budget</h2>")
    parts.append(_svg(ladder_plots.budget, d, "bud") if bud.get("found") else f"<p>{esc(bud.get('note', ''))}</p>")
    parts.append(_balance_section(d))
    prov = d.get("provenance", {})
    parts.append(
        f'<p class="small">Reproduce: <code>{esc(prov.get("command", ""))}</code>; '
        f"written {esc(str(prov.get('created_utc', '')))}.</p></body></html>"
    )
    return "\n".join(p for p in parts if p) + "\n"
