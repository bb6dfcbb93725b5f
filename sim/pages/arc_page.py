"""The report section "How the game unfolds" (issue 39): each seat's progress by round as a fan chart (median and
5-95% band), who leads by round, the arc measures with their intervals in plain words, and, where `sim arc` added
them, the win-probability timelines of sampled games and the measures taken from them.

Reads the summary's ``arc`` block (`sim.stats.arc.summary`; ``arc.timeline`` from `sim.api.arc`); draws nothing
and says nothing when the run recorded no arc.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sim.model import catalogue
from sim.model.words import count, rounds_text
from sim.pages import plots
from sim.pages.scenario_words import is_team_game
from sim.stats.records import Estimate, Rate
from sim.stats.verdict import about_games


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%" if x >= 0.1 else f"{100 * x:.1f}%"


def _ci(c: Sequence[float] | None) -> str:
    """ "95% interval 51%-53%", with a decimal more where whole percents would print two equal ends ("51%-51%")."""
    if not c:
        return "no interval"
    lo, hi = _pct(c[0]), _pct(c[1])
    if lo == hi:
        lo, hi = f"{100 * c[0]:.1f}%", f"{100 * c[1]:.1f}%"
    return f"95% interval {lo}-{hi}"


FEW = 30  # a conditional share over fewer games than this is not put in words


def one_in(rate: float) -> str:
    """A rate in the words a designer says aloud: "1 game in 7" (or "almost never" / "almost always")."""
    if rate <= 0.005:
        return "almost never"
    if rate >= 0.995:
        return "almost always"
    if rate > 0.5:
        return f"{_pct(rate)} of games"
    return f"1 game in {round(1 / rate)}"


def _seat_names(s: dict) -> list[str]:
    return [f"seat {r['seat']} ({r['strategy']})" for r in s["seats"]]


def _groups(a: dict, s: dict) -> list[tuple[list[int], dict]]:
    """Seats whose progress bands are identical (team-mates share one score) as one group each."""
    out: list[tuple[list[int], dict]] = []
    for i, p in enumerate(a["progress"]):
        role = s["seats"][i].get("role")
        for seats, q in out:
            if q == p and s["seats"][seats[0]].get("role") == role:
                seats.append(i)
                break
        else:
            out.append(([i], p))
    return out


def _panels(count: int, cols: int):
    """A figure of ``count`` panels in rows of ``cols``, 7 inches wide, sharing their y axis, placed by hand: the
    layout engine cost the arc's charts half their drawing time (measured: Galleon 2p's fan 0.15 -> 0.07 CPU s),
    and the arc section is drawn in every report of `make run`; only the panels drawn are made (a grid's hidden
    panels cost their ticks: Moor 5p's fan 0.14 -> 0.09 CPU s) and each axis has at most 5 ticks."""
    from matplotlib.ticker import MaxNLocator

    rows = (count + cols - 1) // cols
    h = 2.3 * rows
    fig, _unused = plots._figure(7.0, h, ncols=0, nrows=0, layout=None)
    grid = fig.add_gridspec(
        rows, cols, left=0.09, right=0.98, bottom=0.55 / h, top=1 - 0.35 / h, wspace=0.45, hspace=0.6
    )
    axes: list = []
    for k in range(count):
        axes.append(fig.add_subplot(grid[k // cols, k % cols], sharey=axes[0] if axes else None))
        axes[-1].xaxis.set_major_locator(MaxNLocator(nbins=4, integer=True))
        axes[-1].yaxis.set_major_locator(MaxNLocator(nbins=5, integer=True))
    return fig, axes


def fan(s: dict):
    """One panel per seat (team-mates with identical progress once): the median of its score so far after each
    round, with the 5-95% band across games, in the seat's colour."""
    import numpy as np

    a = s.get("arc")
    if not a or not a.get("progress"):
        return None
    groups = _groups(a, s)
    cat = catalogue.for_summary(s)
    fig, axes = _panels(len(groups), min(len(groups), 4))
    x = np.arange(1, a["rounds"] + 1)
    for k, (seats, p) in enumerate(groups):
        ax = axes[k]
        color = plots.SEAT[seats[0] % len(plots.SEAT)] if len(seats) == 1 else plots.NEUTRAL
        ax.fill_between(x, p["p05"], p["p95"], color=color, alpha=0.22, lw=0, step="mid", label="5-95% of games")
        ax.step(x, p["p50"], where="mid", color=color, lw=1.6, label="median")
        who = plots._seats_text(seats)
        role = s["seats"][seats[0]].get("role") or "player"
        ax.set_title(who + (f" ({s['seats'][seats[0]]['strategy']})" if len(seats) == 1 else f" ({role}s: one team)"))
        ax.set_ylabel(f"{cat.unit(f'score.seat{seats[0]}')} so far" if k == 0 or len(groups) > 1 else "")
        ax.set_xlabel("after round")
    axes[0].legend(fontsize=7, frameon=False, loc="upper left")
    return fig


def leaders(s: dict):
    """Who is alone ahead after each round: the share of games each seat leads (stacked, seat colours), the rest
    tied for the top."""
    import numpy as np
    from matplotlib.ticker import MaxNLocator

    a = s.get("arc") or {}
    if not a.get("leader"):
        return None
    fig, (ax,) = plots._figure(7.0, 2.6, layout=None)
    fig.subplots_adjust(left=0.09, right=0.72, bottom=0.2, top=0.9)  # the legend right of the axes
    x = np.arange(1, a["rounds"] + 1)
    ys = [100 * np.asarray(v) for v in a["leader"]] + [100 * np.asarray(a["tied"])]
    colors = [plots.SEAT[i % len(plots.SEAT)] for i in range(len(a["leader"]))] + [plots.GREY]
    labels = _seat_names(s) + ["tied for the lead"]
    ax.stackplot(x, *ys, colors=colors, labels=labels, alpha=0.8, step="mid")
    ax.set_xlim(1, a["rounds"])
    ax.set_ylim(0, 100)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("after round")
    ax.set_ylabel("games (%)")
    ax.set_title("who leads alone after each round")
    ax.legend(fontsize=7, frameon=False, loc="center left", bbox_to_anchor=(1.0, 0.5))
    return fig


def timeline(s: dict):
    """Win-probability timelines (`sim arc`): per seat the median of its estimated chance of winning after each
    round over the sampled games, with the 5-95% band; for a team game the team's chance."""
    import numpy as np

    t = (s.get("arc") or {}).get("timeline")
    if not t or not t.get("bands"):
        return None
    bands = t["bands"]
    fig, axes = _panels(len(bands), min(len(bands), 4))
    for k, b in enumerate(bands):
        ax = axes[k]
        x = np.arange(1, len(b["p50"]) + 1)
        color = (
            plots.SEAT[b["seat"] % len(plots.SEAT)] if b.get("seat") is not None else plots.CURVE[k % len(plots.CURVE)]
        )
        ax.fill_between(x, 100 * np.asarray(b["p05"]), 100 * np.asarray(b["p95"]), color=color, alpha=0.22, lw=0)
        ax.plot(x, 100 * np.asarray(b["p50"]), color=color, lw=1.6, label="median")
        ax.plot(x, 100 * np.asarray(b["mean"]), color=color, lw=1, ls="--", label="mean")
        ax.set_title(b["label"])
        ax.set_ylim(0, 100)
        ax.set_xlabel("after round")
    axes[0].set_ylabel("chance of winning (%)")
    axes[0].legend(fontsize=7, frameon=False, loc="upper left")
    return fig


def _median_ci(d: dict) -> str:
    """'95% interval rounds 21-22; ' ('round 21' when both ends are one round) for a median round with its interval
    ('' in a summary made before it had one)."""
    e = Estimate.of(d, "p50") if "ci95" in d else None
    return f"95% interval {rounds_text(e.lo, e.hi)}; " if e and e.ci95 else ""


def _rounds(d: dict) -> str:
    """A median round's 95% interval in whole rounds, "rounds 12-15" or "round 1" (a timeline's decided or tipped
    block)."""
    e = Estimate.of(d, "p50")
    return rounds_text(e.lo, e.hi)


def sentences(s: dict) -> list[str]:
    """The arc in plain words, each figure with its interval."""
    a = s.get("arc")
    if not a:
        return []
    out = []
    rounds = (s.get("length") or {}).get("rounds") or {}
    typical = (rounds.get("quantiles") or {}).get("p50")
    m = a.get("measures")
    if m:
        d = m["decided_by_score"]
        of = f" of {typical}" if typical else ""
        if d["p50"] <= 0:
            out.append("In half the games the eventual winner leads alone from the first round to the end.")
        else:
            out.append(
                f"By score, the eventual winner is alone ahead for good after round {d['p50']}{of} in half the "
                f"games ({_median_ci(d)}a quarter of games by round {d['p25']}, three quarters by round {d['p75']})."
            )
        lc = Estimate.of(m["lead_changes"], "mean")
        out.append(
            f"The lead passes to another child {lc.known:.2f} times a game on average (95% interval "
            f"{lc.lo:.2f}-{lc.hi:.2f}); a tie for the top is no change."
        )
        lh, la = Rate.of(m["leader_at_half_wins"]), Rate.of(m["last_at_half_wins"])
        if lh.games >= FEW:
            out.append(f"A child leading alone at half-time wins {_pct(lh.rate)} of games ({_ci(lh.ci95)}).")
        if 0 < la.games < FEW:
            out.append(f"A child alone in last place at half-time: too few such games to say ({la.games}).")
        elif la.games:
            out.append(
                f"A child alone in last place at half-time still wins {one_in(la.rate)} ({_pct(la.rate)}, {_ci(la.ci95)})."
            )
        cb = Rate.of(m["comeback"])
        out.append(
            f"{_pct(cb.rate)} of games ({_ci(cb.ci95)}) are won by a child who was alone in last place "
            "after some round."
        )
    out += tips_sentences(s)
    out += timeline_sentences(s)
    return out


def _favourite(d: dict, of: str) -> str:
    """When the side that wins became the favourite for good, from a ``tipped`` block (`sim.stats.arc_tips`; its
    median over the games ``of``): 'from the first round to the end in at least half the games' (the median round is
    the first: it never fell to 50% or below), 'for good only at the end, after round 19, in half the games',
    'for good after round 7 of 19, in half the games', each with its 95% interval."""
    ci = f"(95% interval {rounds_text(*d['ci95'])})"
    if d["p50"] <= 1:
        return f"from the first round to the end in at least half {of} {ci}"
    if d["p50"] >= d["rounds_p50"]:
        return f"for good only at the end, after round {d['p50']:.0f}, in half {of} {ci}"
    return f"for good after round {d['p50']:.0f} of {d['rounds_p50']:.0f}, in half {of} {ci}"


def tips_sentences(s: dict) -> list[str]:
    """When a team game tips, from the run's own games by score (`sim.stats.arc_tips`), in plain words: when the
    side that wins becomes the favourite for good, overall and in the games each side won; where a side that wins
    most games is the favourite from the first round, that it starts as the favourite (not that round 1 decides)."""
    t = (s.get("arc") or {}).get("tips")
    if not t:
        return []
    sides = [
        f"in the {x['games']:,} games {'' if lab.startswith('the ') else 'the '}{lab} won, {_favourite(x, 'of them')}"
        for lab, x in t["by_side"].items()
    ]
    out = [
        "When does the game tip? By the scores alone, the side that goes on to win is the favourite (its chance "
        f"above 50%) {_favourite(t['tipped'], 'the games')}; " + "; ".join(sides) + "."
    ]
    if t["by_side"]:
        lab, x = max(t["by_side"].items(), key=lambda kv: kv[1]["games"])
        if x["p50"] <= 1 and 2 * x["games"] > t["games"]:
            who = lab if lab.startswith("the ") else f"the {lab}"
            out.append(
                f"{who[0].upper() + who[1:]} wins {_pct(x['games'] / t['games'])} of these games, so it is the "
                'favourite before any score is seen: "from the first round" means that in at least half the games it '
                "wins its chance never drops to 50%, not that the game is decided in round 1 (how soon a game is "
                "decided, its winner's chance above 90% for good, is what the rollouts of sim arc measure)."
            )
    out.append(
        f"(Estimated without rollouts from the run's first games, {t['games']:,} finished: a side's chance after a "
        "round is the share of the other half of those games with the same scores after the same round that it went "
        "on to win.)"
    )
    return out


def _rollout_players(t: dict) -> str:
    """' played by the learned players' for skilled rollouts (`sim arc --skilled`), '' for the table's own."""
    return " played by the learned players" if t.get("rollout_players") == "learned" else ""


def timeline_sentences(s: dict) -> list[str]:
    """The win-probability timelines (`sim arc`) in plain words."""
    t = (s.get("arc") or {}).get("timeline") or {}
    d = t.get("decided")
    if not d:
        return []
    who = "the winning side" if t.get("team") else "the eventual winner"
    by = _rollout_players(t)
    if d["share_p50"] >= 1.0:
        return [
            f"From rollouts{by} of {t['games']} games ({t['rollouts']} a state): in half the games {who}'s chance rises "
            f"above 90% for good only at the end (95% interval: from round {Estimate.of(d, 'p50').lo:.0f} to the end): the game "
            "stays open to its last round."
        ] + _comeback_sentence(t)
    out = [
        f"From rollouts{by} of {t['games']} games ({t['rollouts']} a state, each estimate within about "
        f"{100 * t['rollout_halfwidth']:.0f} points): {who}'s chance stays above 90% from round {d['p50']:.0f} of "
        f"{d['rounds_p50']:.0f} on in half the games (95% interval {_rounds(d)}; that is "
        f"after {_pct(d['share_p50'])} of the game)."
    ]
    return out + _tip_sentence(t) + _comeback_sentence(t)


def _tip_sentence(t: dict) -> list[str]:
    """When the game tips: the round from which the eventual winner is the favourite (above 50%) for good."""
    d = t.get("tipped")
    if not d:
        return []
    sides = " or ".join(b["label"] for b in t.get("bands") or []) if t.get("team") else ""
    who = f"the side that wins ({sides})" if sides else "the eventual winner"
    when = "from the first round" if d["p50"] <= 1 else f"after round {d['p50']:.0f} of {d['rounds_p50']:.0f}"
    return [
        f"The game tips {when} in half the games: from then on {who} is the favourite, its chance above 50% for "
        f"good (95% interval {_rounds(d)}; quartiles {rounds_text(d['p25'], d['p75'])})."
    ]


def _comeback_sentence(t: dict) -> list[str]:
    if not t.get("comeback"):
        return []
    cb = Rate.of(t["comeback"])
    who = "a side" if t.get("team") else "a child"
    return [
        f"{_pct(cb.rate)} of games ({_ci(cb.ci95)}) are won by {who} whose chance was clearly below 20% "
        "after some round (the upper end of that estimate's interval below 20%)."
    ]


def calibration_rows(s: dict) -> list[dict]:
    """The reliability table of the timelines: estimated chance against the share that won."""
    t = (s.get("arc") or {}).get("timeline") or {}
    return [
        {
            "estimated chance (half the rollouts)": f"{_pct(c['lo'])}-{_pct(c['hi'])}",
            "states": c["states"],
            "mean estimate (the other half)": _pct(c["estimate"]),
            "share that won": _pct(r.rate),
            "95% interval": _ci(r.ci95).removeprefix("95% interval "),
        }
        for c, r in ((c, Rate.of(c)) for c in t.get("calibration") or [])
    ]


def section(s: dict) -> dict[str, Any] | None:
    """The report section (a `sim.pages.html_report.Section`), or None when the run recorded no arc."""
    a = s.get("arc")
    if not a or not a.get("progress"):
        return None
    team = is_team_game(s)
    intro = (
        "How the scores build up over a game, round by round: the median score so far and the band where 90% of "
        "games lie" + ("." if team else ", who leads alone after each round, and when the winner pulls clear.")
    )
    intro += " " + games_said(a, team)
    ps: list[tuple[str, str, str | None]] = [
        ("arc-progress", "score so far by round: median and 5-95% band", plots.render(fan, s))
    ]
    if not team:
        ps.append(("arc-leaders", "who leads alone after each round", plots.render(leaders, s)))
    if (a.get("timeline") or {}).get("bands"):
        t = a["timeline"]
        cap = f"chance of winning after each round, {t['games']} games x {t['rollouts']} rollouts a state"
        cap += " (played by the learned players)" if t.get("rollout_players") == "learned" else ""
        ps.append(("arc-timeline", cap, plots.render(timeline, s)))
    folded = [("the arc measures as a table", measure_rows(s))] if measure_rows(s) else []
    if calibration_rows(s):
        folded.append(("are the chances honest? estimated chance against the share that won", calibration_rows(s)))
    words = [{"in plain words": x} for x in sentences(s)]
    return {
        "id": "arc",
        "title": "How the game unfolds",
        "intro": intro,
        "tables": [("", words)] if words else [],
        "plots": ps,
        "folded": folded,
    }


def games_said(a: dict, team: bool) -> str:
    """Which games the section's numbers come from, as `sim.stats.arc.summary` took them: the charts of the scores
    (and of who leads) from the run's first finished games (``fan_games``, those of index below FAN_GAMES), the
    arc measures in words and in the table, with their intervals, from every finished game (their ``games``)."""
    fan = int(a.get("fan_games", 0))
    charts = "The score chart comes" if team else "The charts of the scores and of who leads come"
    first = count(fan, "finished game", grouped=True)
    m = a.get("measures")
    if not m:
        return f"{charts} from the run's first {first}."
    every = count(int(m["lead_changes"]["games"]), "finished game", grouped=True)
    if fan >= int(m["lead_changes"]["games"]):
        return f"Charts, figures and intervals: all {every} of the run."
    return (
        f"{charts} from the run's first {first} (enough for their bands); the figures in words and the table of arc "
        f"measures, with their 95% intervals, from all {every}."
    )


def measure_rows(s: dict) -> list[dict]:
    """The arc measures, one row each: measure, value, 95% interval, games."""
    a = s.get("arc") or {}
    m = a.get("measures")
    cat = catalogue.for_summary(s)
    rows = []
    if m:
        lc = Estimate.of(m["lead_changes"], "mean")
        rows.append(
            {
                "measure": cat.label("arc.lead_changes"),
                "value": f"{lc.known:.2f}",
                "95% interval": f"{lc.lo:.2f}-{lc.hi:.2f}",
                "games": m["lead_changes"]["games"],
            }
        )
        for key in ("leader_at_half_wins", "last_at_half_wins", "comeback"):
            r = Rate.of(m[key])
            rows.append(
                {
                    "measure": cat.label(f"arc.{key}"),
                    "value": _pct(r.rate),
                    "95% interval": _ci(r.ci95).removeprefix("95% interval "),
                    "games": r.games,
                }
            )
        d = m["decided_by_score"]
        rows.append(
            {
                "measure": cat.label("arc.decided_by_score") + " (median)",
                "value": str(d["p50"]),
                "95% interval": _median_ci(d).removeprefix("95% interval ") + f"quartiles {d['p25']}-{d['p75']}",
                "games": d["games"],
            }
        )
    tips = a.get("tips")
    if tips:
        d = tips["tipped"]
        rows.append(
            {
                "measure": "tips at, by score: the winning side's chance above 50% for good from round (median)",
                "value": f"{d['p50']:.0f}",
                "95% interval": f"{d['ci95'][0]:.0f}-{d['ci95'][1]:.0f}; quartiles {d['p25']:.0f}-{d['p75']:.0f}",
                "games": tips["games"],
            }
        )
    t = a.get("timeline") or {}
    for key, words in (
        ("decided", "decided at: the winner's chance above 90%"),
        ("tipped", "tips at: the winner's chance above 50%"),
    ):
        d = t.get(key)
        if not d:
            continue
        rows.append(
            {
                "measure": f"{words} for good from round (median)",
                "value": f"{d['p50']:.0f}",
                "95% interval": _rounds(d),
                "games": t["games"],
            }
        )
        rows.append(
            {
                "measure": f"{key.replace('tipped', 'tips at').replace('decided', 'decided at')}, as a share of the "
                "game (median)",
                "value": _pct(d["share_p50"]),
                "95% interval": f"{_pct(d['share_ci95'][0])}-{_pct(d['share_ci95'][1])}",
                "games": t["games"],
            }
        )
    if t.get("comeback"):
        c = Rate.of(t["comeback"])
        rows.append(
            {
                "measure": f"won by a {'side' if t.get('team') else 'seat'} whose chance fell below 20%",
                "value": _pct(c.rate),
                "95% interval": _ci(c.ci95).removeprefix("95% interval "),
                "games": c.games,
            }
        )
    return rows


# --- `sim compare --arc --sample`: the rollout measures of A's and B's timelines -----------------------------------

_KIND_WORDS = {"unchanged": "unchanged", "changed": "CHANGED", "cannot_tell": "cannot tell yet"}


def compare_rows(res: dict) -> list[dict]:
    """The compared rollout measures (``res["arc_timeline"]``, `sim.stats.arc.compare_timelines`) as table rows:
    measure, A, B, B - A with its paired 95% interval (percentage points of the game or of games), verdict."""
    t = res.get("arc_timeline") or {}
    out = []
    for r in t.get("measures", []):
        if r["a"] is None:
            continue
        more = f" ({about_games(r['more_games'])} more games would decide)" if r.get("more_games") else ""
        diff = Estimate.of(r, "diff")
        out.append(
            {
                "measure": r["label"],
                "A": _pct(r["a"]),
                "B": _pct(r["b"]),
                "B - A (points)": f"{100 * diff.known:+.1f} [{100 * diff.lo:+.1f}, {100 * diff.hi:+.1f}]",
                "games": r["n"],
                "verdict": _KIND_WORDS.get(str(r["verdict"]), str(r["verdict"])) + more,
            }
        )
    return out


def compare_intro(res: dict) -> str:
    t = res.get("arc_timeline") or {}
    return (
        f"From the win-probability timelines of {t.get('games', 0)} games of A and of B ({t.get('rollouts')} "
        "rollouts a state, the same games and rollout seeds on both sides), compared game by game; verdicts at a "
        "margin of 1 point, Holm-corrected together."
    )


def compare_markdown(res: dict) -> list[str]:
    """The compared rollout measures as Markdown lines (none without them)."""
    import polars as pl

    from sim.pages.tables import md

    rows = compare_rows(res)
    if not rows:
        return []
    return ["## The game's arc from rollouts", "", compare_intro(res), "", md(pl.DataFrame(rows)), ""]
