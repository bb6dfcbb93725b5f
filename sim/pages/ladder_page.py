"""ladder.html: how much skill matters, which rung is strongest, and whether each balance figure survives better
play, in words a designer reads, each figure with its definition. Self-contained (inline SVG and CSS), from the
ladder.json dict (`sim.output.ladder_output.document`)."""

from __future__ import annotations

from collections.abc import Sequence

from markupsafe import Markup

from sim.model.search_spec import played_is_search
from sim.model.words import POINTS, count, with_sign
from sim.pages import ladder_plots, templating
from sim.pages.plots import render as draw
from sim.pages.plots import scope_ids
from sim.stats.records import Estimate


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def _ci_pct(c: Sequence | None) -> str:
    return "n/a" if not c or c[0] is None else f"{100 * c[0]:.1f}..{100 * c[1]:.1f}%"


def rate_with_interval(e: Estimate) -> str:
    """A win rate with its 95% interval, "51.2% (50.1..52.3%)" (a team's rate per rung: the terminal, the index)."""
    return f"{_pct(e.value)} ({_ci_pct(e.ci95)})"


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
    e = Estimate.of(r, "elo")
    return f"{_elo(e.lo)}{sep}{_elo(e.hi)}"


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


def luck_items(d: dict) -> list[tuple[str, str, str]]:
    """(figure, value in words, definition) of the luck-versus-skill figures of a rated ladder."""
    rt = d["rating"]
    lk = rt["luck"]
    names = [r["rung"] for r in rt["ratings"]]
    best, nxt, anchor = names[rt["best"]], names[rt["next"]], d["anchor"]

    def v(k: str, f=_pct) -> str:
        e = Estimate.of(lk[k])
        ci = f"{f(e.lo)} .. {f(e.hi)}" if f is not _pct else _ci_pct(e.ci95)
        return f"{f(e.value)} (95% interval {ci})"

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


def _balance(d: dict) -> dict | None:
    """The "Does the balance hold for skilled play?" section: each figure at each rung with its verdict."""
    b = d.get("balance") or {}
    figs = b.get("figures") or {}
    if not figs:
        return None
    rows = []
    for f in figs.values():
        unit = f["per_rung"][0]["unit"] if f["per_rung"] else ""
        fmt = (
            (lambda x: f"{with_sign(100 * x, 1)} {POINTS}")
            if unit == "share"
            else (lambda x: f"{100 * x:.1f}%")  # a share of games (the arc's figures)
            if unit == "rate"
            else (lambda x: f"{x:.1f}")
        )
        per = "; ".join(
            f"{r['rung']} {fmt(e.value)} ({fmt(e.lo)}..{fmt(e.hi)})"
            for r, e in ((r, Estimate.of(r)) for r in f["per_rung"])
        )
        rows.append({"figure": f["words"], "at each rung (95% interval)": per, "verdict": f["skill"]["verdict"]})
    return {
        "games": count(d.get("balance_games") or d["games_per_table"], "game", grouped=True),
        "reference": b.get("reference", ""),
        "rows": rows,
        "note": b.get("note"),
    }


def vs_anchor_words(d: dict) -> str:
    """'wins 92.0% of its decided pairs against random' of the best rung, or, where the best rung is the anchor
    itself (no `random` rung, the first rung the strongest), that it is."""
    e = Estimate.of(d["rating"]["luck"]["best_vs_random"])
    if e.value is None:
        return f"is {d['anchor']} itself, the rung the ratings are measured from"
    return f"wins {_pct(e.value)} of its decided pairs against {d['anchor']}"


def _rating(d: dict) -> dict | None:
    """A rated ladder's sentence, ratings table and luck-versus-skill table."""
    rt = d.get("rating")
    if not rt:
        return None
    names = [r["rung"] for r in rt["ratings"]]
    best = names[rt["best"]]
    lk = rt["luck"]
    top = top_rungs(d)
    if best == d["anchor"]:  # the rung the scale is measured from came out on top: no distance to it to state
        lead = (
            f"{best}, the rung the ratings are measured from, is the strongest rung"
            if len(top) == 1
            else f"{names_and(top)} are tied for the strongest rung ({tie_words(d)}); {best} is the rung the ratings "
            "are measured from"
        )
    else:
        lead = (
            f"{best} is the strongest rung at {_elo(rt['ratings'][rt['best']]['elo'])} Elo over {d['anchor']}; it "
            if len(top) == 1
            else f"{names_and(top)} are tied for the strongest rung ({tie_words(d)}); {best}, at "
            f"{_elo(rt['ratings'][rt['best']]['elo'])} Elo over {d['anchor']}, "
        ) + vs_anchor_words(d)
    sentence = (
        lead + "; the rungs "
        f"span {Estimate.of(lk['spread_elo']).known:.0f} Elo (the stronger of two that far apart wins "
        f"{_pct(Estimate.of(lk['stronger_wins']).known)} of head-to-heads), and the rungs' strength explains "
        f"{_pct(Estimate.of(lk['explained']).known)} of the variance of outcomes."
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
    return {
        "sentence": sentence,
        "never_won": ", ".join(rt["never_won"]) if rt.get("never_won") else "",
        "method": rt["method"],
        "rows": rows,
        "luck": [{"figure": a, "value": b, "definition": c} for a, b, c in luck_items(d)],
    }


def _team(d: dict) -> dict | None:
    """A co-operative game's sentence and team win rate per rung."""
    if not d.get("team"):
        return None
    rates = [(t["rung"], Estimate.of(t, "win_rate")) for t in d["team"]]
    (best, b), (worst, w) = max(rates, key=lambda t: t[1].known), min(rates, key=lambda t: t[1].known)
    if b.known == w.known:  # every rung won the same games' share: no best and no weakest
        sentence = (
            f"Every team strategy wins {_pct(b.value)} ({_ci_pct(b.ci95)}) here: the rungs cannot be told apart on "
            "these games (they may play the same moves), so this ladder shows no gain from skill."
        )
    else:
        sentence = (
            f"The best team strategy, {best}, wins {_pct(b.value)} "
            f"({_ci_pct(b.ci95)}); the weakest, {worst}, {_pct(w.value)} "
            f"({_ci_pct(w.ci95)}): a co-operative game has no opponent to rate against, so skill shows as "
            "the team's win rate rising rung by rung."
        )
    rows = [
        {
            "rung": t["rung"],
            "team win rate": _pct(e.value),
            "95% interval": _ci_pct(e.ci95),
            "games": t["games"],
        }
        for t, e in ((t, Estimate.of(t, "win_rate")) for t in d["team"])
    ]
    return {"sentence": sentence, "rows": rows}


def _matrix(d: dict) -> dict | None:
    """An asymmetric game's sentence and matrix of the row role's rungs against the hunters' rungs."""
    m = d.get("matrix")
    if not m:
        return None
    rate = [Estimate.of(c, "hunters_win_rate") for c in m["cells"]]
    hi = max(range(len(rate)), key=lambda i: rate[i].known)
    lo = min(range(len(rate)), key=lambda i: rate[i].known)
    a, b = m["cells"][hi], m["cells"][lo]
    sentence = (
        f"The hunters do best with {a['col']} against {a['row']} ({_pct(rate[hi].value)}, "
        f"{_ci_pct(rate[hi].ci95)}) and worst with {b['col']} against {b['row']} "
        f"({_pct(rate[lo].value)}). An asymmetric game has no mono tables, so the balance figures "
        "at each skill level are the cells of this matrix."
    )
    rows = [
        {
            m["row_role"]: c["row"],
            "hunters": c["col"],
            "hunters win": _pct(e.value),
            "95% interval": _ci_pct(e.ci95),
            "games": c["games"],
        }
        for c, e in zip(m["cells"], rate)
    ]
    return {"sentence": sentence, "role": m["row_role"], "rows": rows}


# the drawings: (name, which block of ladder.json it draws, plot function); each drawn only where its block is
_DRAWINGS = (
    ("rat", "rating", ladder_plots.ratings),
    ("h2h", "rating", ladder_plots.heatmap),
    ("team", "team", ladder_plots.team),
    ("mx", "matrix", ladder_plots.matrix),
)


def _drawings(d: dict) -> dict[str, Markup | None]:
    out: dict[str, Markup | None] = {name: None for name in ("rat", "h2h", "team", "mx", "bud", "bal")}
    for name, block, fn in _DRAWINGS:
        if d.get(block):
            out[name] = _drawn(fn, d, name)
    if (d.get("budget") or {}).get("found"):
        out["bud"] = _drawn(ladder_plots.budget, d, "bud")
    if (d.get("balance") or {}).get("figures"):
        out["bal"] = _drawn(ladder_plots.balance, d, "bal")
    return out


def _drawn(fn, d: dict, name: str) -> Markup | None:
    svg = draw(fn, d)
    return templating.svg(scope_ids(svg, name)) if svg else None


def _budget_steps(d: dict) -> list[dict]:
    """The rows of "Does more search still pay?": each step from one budget to the next of a rung family."""
    from sim.stats.budget_steps import measured_words, verdict_words

    return [
        {"from": s["small_rung"], "to": s["large_rung"], "measured": measured_words(s), "verdict": verdict_words(s)}
        for s in (d.get("budget") or {}).get("steps", [])
    ]


def search_defaults(d: dict) -> str:
    """What each search rung played that its text left to the defaults ("search:budget=4, search:budget=16: deviate =
    1.0, root = halving, tiebreak = none"; rungs that left the same said together, groups joined by "; "): a default that changes (Moor's and Turnwall's search, 2026-12-07) is then
    read on the page itself. "" without a search rung (or in a ladder.json made before the record)."""
    by_rest: dict[str, list[str]] = {}  # rungs that left the same defaults are said together
    for r in d["rungs"]:
        played, given = r.get("played") or {}, r.get("params") or {}
        if not played_is_search(played):
            continue
        rest = ", ".join(f"{k} = {v}" for k, v in played.items() if k not in given)
        if rest:
            by_rest.setdefault(rest, []).append(r["rung"])
    return "; ".join(f"{', '.join(rungs)}: {rest}" for rest, rungs in by_rest.items())


def render(d: dict) -> str:
    """The whole page (templates/ladder_page.html)."""
    prov = d.get("provenance", {})
    return templating.render(
        "ladder_page.html",
        title=f"Skill ladder: {d['title']}, {d['players']} players",
        d=d,
        rung_names=", ".join(r["rung"] for r in d["rungs"]),
        search_defaults=search_defaults(d),
        tables=count(len(d["tables"]), "table"),
        games=count(d["games_per_table"], "game", grouped=True),
        rating=_rating(d),
        team=_team(d),
        matrix=_matrix(d),
        budget_note=(d.get("budget") or {}).get("note", ""),
        budget_steps=_budget_steps(d),
        balance=_balance(d),
        svg=_drawings(d),
        command=prov.get("command", ""),
        written=str(prov.get("created_utc", "")),
    )
