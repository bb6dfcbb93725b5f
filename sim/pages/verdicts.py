"""Plain verdicts: the few sentences a designer reads first, for `sim run` (summary.md, summary.html, the terminal)
and `sim compare` (compare.md, compare.html, the terminal), in the words of the catalogue of measures
(sim.model.catalogue).

A comparison speaks about the game's headline measures (catalogue ``headline``: the team win rates, each seat's win
rate, the start player's, the game length), each as "B instead of A: the difference with its 95% interval, and
whether it is a real difference after the Holm correction", then names the other measures that differ. A run says
how often the start player (or each team) wins against the fair share, how the seats spread, how games end and how
long they last; and in one line the scope the figures hold for (`scope_line`).
"""

from __future__ import annotations

import math

from sim.model import catalogue
from sim.model.words import POINTS, count, p_value, rate_text, with_sign
from sim.pages.points import Point
from sim.stats import metrics
from sim.stats.records import PlayingTime, SummaryFigures, SummaryRates
from sim.stats.spread_compare import NAME as SPREAD  # the seat spread's compared row: said among the headline ones

MAX_OTHERS = 6


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def fmt_p(p: float | None) -> str:
    """A p-value in words: 'p < 1e-9' far in the tail, else 'p = 0.0031'."""
    text = p_value(p)
    return "p " + text if text.startswith("<") else "p = " + text


def _value(v: float, kind: str, unit: str) -> str:
    if kind == "rate":
        return rate_text(v, unit, 1)
    return f"{v:.2f}" + (f" {unit}" if unit else "")


def _signed(x: float, digits: int) -> str:
    """``x`` signed at ``digits`` decimals, or one more where it would round to zero but is not: an interval end of
    -0.02 points reads "-0.02", not "0.0", which hid which side of zero it lay (a fresh user's compare summary)."""
    text = with_sign(x, digits)
    return with_sign(x, digits + 1) if x != 0 and float(text) == 0 else text


def _ci(c, kind: str, signed: bool = False) -> str:
    f = (
        (lambda x: f"{_signed(100 * x, 1)}" if signed else f"{100 * x:.1f}")
        if kind == "rate"
        else (lambda x: f"{_signed(x, 2)}" if signed else f"{x:.2f}")
    )
    return f"[{f(c[0])}, {f(c[1])}]"


def _diff(d: float, kind: str, unit: str) -> str:
    if kind == "rate":
        return f"{with_sign(100 * d, 1)} {POINTS}"
    return f"{with_sign(d, 2)}" + (f" {unit}" if unit else "")


def _unit(e) -> str:
    """The unit a mean is said in ('turns', 'jewels'); rates speak in % and points."""
    u = e.unit
    return u[: -len(" per game")] if u.endswith(" per game") else u


def _view_of_comparison(res: dict) -> catalogue.View:
    sc = res["a"].get("scenario") or {}
    seats = [x.get("strategy", "?") for x in sc.get("seats") or []]
    return catalogue.View(res["a"]["game"], (sc.get("params") or {}).get("mode"), seats, False)


def too_few_sentence(what: str, n: int, judged: str = "") -> str:
    """The warning of a run or comparison with fewer games than metrics.MIN_GAMES_FOR_TESTS: 'Only 2 finished games:
    too few for the intervals and tests below to mean anything (they need at least 30), ...'. ``what``: the games
    counted ('2 finished games'); ``judged``: what cannot be told from them (a comparison: whether a difference is
    real), said before the advice."""
    return (
        f"Only {what}: too few for the intervals and tests below to mean anything (they need at least "
        f"{metrics.MIN_GAMES_FOR_TESTS}), so these figures describe {'that game' if n == 1 else 'those games'} only"
        + (f" and {judged}" if judged else "")
        + "; play more with --games N."
    )


def compare_too_few(res: dict) -> str | None:
    """The warning of a comparison some of whose measures were paired over too few games to test (rows flagged
    ``too_few_games`` by sim.stats.compare.evaluate), or None."""
    few = [r["n"] for r in res["metrics"] if r.get("too_few_games")]
    if not few:
        return None
    n = min(few)
    what = count(n, "paired game") if n == res["games"] else f"{count(n, 'game')} finished in both A and B"
    return too_few_sentence(what, n, "cannot tell whether A and B differ")


def margin_text(r: dict, cat: catalogue.View | None = None) -> str:
    """A row's equivalence margin in its unit: '1.0 points' (a rate's, in sentences and table cells alike: the one
    word for percentage points, `sim.model.words.POINTS`), '0.45 turns'."""
    if r["kind"] == "rate":
        return f"{100 * r['margin']:.1f} {POINTS}"
    u = _unit(cat.entry(r["name"])) if cat is not None else r.get("unit", "")
    return f"{r['margin']:.2f}" + (f" {u}" if u else "")


def verdict_text(r: dict, cat: catalogue.View | None = None) -> str:
    """A compared row's verdict (sim.stats.verdict) in words: 'changed by +3.0 points (p < 1e-9 after
    Holm)', 'unchanged within ±1.0 points (equivalence test p = 0.002 after Holm)', 'cannot tell yet at
    ±1.0 points: about 34,000 more games would decide'; a "cannot tell yet" whose difference is
    significant after Holm says what is known: 'cannot tell yet whether it matters at ±1.0 points: B
    differs from A more than chance explains (p = 0.015 after Holm), but the difference is not shown beyond the
    margin at the level Holm's correction leaves it (a wider interval than its own 95% one); about ...' (the words
    of the first-player advantage's verdict, `advantage_verdict`)."""
    from sim.stats import verdict as V

    kind = r.get("verdict")
    m = margin_text(r, cat)
    if kind == V.CHANGED:
        u = _unit(cat.entry(r["name"])) if cat is not None else r.get("unit", "")
        return f"changed by {_diff(r['diff'], r['kind'], u)} ({fmt_p(r['p_holm'])} after Holm; margin ±{m})"
    if kind == V.UNCHANGED:
        if r.get("identical"):
            return f"unchanged within ±{m} (every paired game gave the same value)"
        return f"unchanged within ±{m} (equivalence test {fmt_p(r['p_equiv_holm'])} after Holm)"
    more = r.get("more_games")
    said = V.more_games_words(more, r.get("n") or 0) if more else ""
    if r.get("significant"):  # a real difference, its size not yet past the margin: no verdict, but not nothing
        return (
            f"cannot tell yet whether it matters at ±{m}: B differs from A more than chance explains "
            f"({fmt_p(r['p_holm'])} after Holm), but the difference is not shown beyond the margin at the level "
            "Holm's correction leaves it (a wider interval than its own 95% one)" + (f"; {said}" if said else "")
        )
    return f"cannot tell yet at ±{m}" + (f": {said}" if said else "")


def compare_sentence(r: dict, cat: catalogue.View, players: int | None = None) -> str:
    """One measure's comparison in words: 'Hunters win 55.7% [55.2, 56.1] instead of 33.0% [32.6, 33.4]: +22.7
    points [+22.1, +23.3], changed by +22.7 points (p < 1e-9 after Holm; margin ±1.0 points)'. The start player's
    win rate with ``players`` (A's) also says the first-player advantage (that rate minus the fair share 1/players:
    B - A is the same difference)."""
    e = cat.entry(r["name"])
    k = r["kind"]
    u = _unit(e)
    lab = _cap(r.get("label") or e.label)
    fpa = ""
    if r["name"] == "first_player.win" and players:
        fair = 1 / players
        fpa = (
            f" ({cat.label('first_player_advantage')} {with_sign(100 * (r['b'] - fair), 1)} instead of "
            f"{_diff(r['a'] - fair, k, u)}, against a fair share of {_value(fair, k, u)})"
        )
    if r.get("identical"):
        said = f"{lab} {_value(r['a'], k, u)} in both: every paired game gave the same value"
        if r.get("too_few_games"):
            return said + f", too few games to judge ({count(r['n'], 'paired game')})"
        return said + ", unchanged"
    head = (
        f"{lab} {_value(r['b'], k, u)} {_ci(r['b_ci95'], k)} instead of {_value(r['a'], k, u)} "
        f"{_ci(r['a_ci95'], k)}{fpa}: {_diff(r['diff'], k, u)} {_ci(r['diff_ci95'], k, True)}"
    )
    if r.get("too_few_games") or r.get("p") is None:
        return head + f", too few games to judge ({count(r['n'], 'paired game')})"
    return head + ", " + verdict_text(r, cat)


def _beyond(r: dict) -> float:
    """How many margins a change is (the headline order: the largest change beyond its margin first)."""
    return abs(r["diff"]) / r["margin"] if r.get("margin") else 0.0


def compare_minutes(res: dict) -> str | None:
    """The playing time of A and B in minutes (turns x seconds_per_turn / 60, each side its own), from the compared
    length in turns; None without both (a game without seconds_per_turn, or length not compared)."""
    sec = res.get("seconds_per_turn") or {}
    row = next((r for r in res["metrics"] if r["name"] == "length.turns"), None)
    if row is None or not sec.get("a") or not sec.get("b"):
        return None
    a, b = row["a"] * sec["a"] / 60, row["b"] * sec["b"] / 60
    at = f"at {sec['a']:g} s a turn" if sec["a"] == sec["b"] else f"at {sec['b']:g} and {sec['a']:g} s a turn"
    if f"{a:.1f}" == f"{b:.1f}":
        return f"Playing time about {a:.1f} min a game in both ({at})."
    return f"Playing time about {b:.1f} min a game instead of {a:.1f} min ({with_sign(b - a, 1)} min, {at})."


def compare_sentences(res: dict) -> list[str]:
    """The verdict of a comparison: one sentence per headline measure compared, the one changed most beyond its
    margin first, then the other measures that changed, and how many are unchanged within their margins or cannot
    be told yet."""
    from sim.stats import verdict as V

    cat = _view_of_comparison(res)
    rows = res["metrics"]
    head = [r for r in rows if cat.entry(r["name"]).headline or r["name"] == SPREAD]  # a balance figure compared
    order = {id(r): i for i, r in enumerate(head)}
    head.sort(
        key=lambda r: (r.get("verdict") != V.CHANGED, -_beyond(r) if r.get("verdict") == V.CHANGED else order[id(r)])
    )
    few = compare_too_few(res)
    out = ([few] if few else []) + [compare_sentence(r, cat, res["a"].get("players")) + "." for r in head]
    mins = compare_minutes(res)
    if mins:
        out.append(mins)
    rest = [r for r in rows if r not in head]
    changed = _merge_seats(sorted((r for r in rest if r.get("verdict") == V.CHANGED), key=lambda r: -_beyond(r)))
    if changed:
        shown = [
            f"{r.get('label') or r['name']} ({_diff(r['diff'], r['kind'], _unit(cat.entry(r['name'])))})"
            for r in changed[:MAX_OTHERS]
        ]
        more = f" and {len(changed) - MAX_OTHERS} more" if len(changed) > MAX_OTHERS else ""
        out.append(f"Also changed beyond their margins: {', '.join(shown)}{more} (the table below has every measure).")
    tested = [r for r in rows if r.get("p") is not None or r.get("identical")]
    if tested:
        same = sum(r.get("verdict") == V.UNCHANGED for r in tested)
        unsure = [r for r in tested if r.get("verdict") == V.CANNOT_TELL]
        moved = sum(r.get("verdict") == V.CHANGED for r in tested)
        line = f"Of the {count(len(tested), 'measure')} compared, " + (f"{moved} changed, " if moved else "")
        line += f"{same} unchanged within their margins"
        if unsure:
            most = max((r.get("more_games") or 0) for r in unsure)
            played = max((r.get("n") or 0) for r in unsure)
            known = [r.get("label") or r["name"] for r in unsure if r.get("significant")]  # B differs: size open
            said = [f"{_listed(known)} differ{'s' if len(known) == 1 else ''} from A more than chance explains, "
                    f"not shown beyond {'its margin' if len(known) == 1 else 'their margins'}"] if known else []  # fmt: skip
            said += [V.more_games_words(most, played, "them all")] if most else []
            above = sum(any(r is h for h in head) for r in unsure)  # a user counted 4 said of "7 cannot be told"
            if 0 < above < len(unsure):
                said.insert(0, f"{above} of them said above, the other {len(unsure) - above} in the table below")
            line += f", {len(unsure)} cannot be told yet" + (f" ({'; '.join(said)})" if said else "")
        out.append(line + ".")
    if not rows:
        out.append("No measure could be compared (see the comparability notes).")
    return out


def _listed(names: list[str]) -> str:
    """ "a", "a and b", "a, b and 3 more" (at most MAX_OTHERS named)."""
    shown = names[:MAX_OTHERS]
    if len(names) > MAX_OTHERS:
        return f"{', '.join(shown)} and {len(names) - MAX_OTHERS} more"
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"


def _merge_seats(rows: list[dict]) -> list[dict]:
    """Per-seat rows with identical results (team-mates: one result per game) said once, as 'seats 0-3 ...'."""
    import re

    out: list[dict] = []
    for r in rows:
        m = re.match(r"^(\w+)\.seat(\d+)$", r["name"])
        if m:
            for o in out:
                if o.get("_measure") == m.group(1) and o["a"] == r["a"] and o["b"] == r["b"] and o["diff"] == r["diff"]:
                    o["_seats"].append(int(m.group(2)))
                    break
            else:
                out.append(dict(r, _measure=m.group(1), _seats=[int(m.group(2))]))
        else:
            out.append(r)
    for o in out:
        seats = o.get("_seats") or []
        if len(seats) > 1:
            run = seats == list(range(seats[0], seats[-1] + 1))
            who = f"seats {seats[0]}-{seats[-1]}" if run else "seats " + ", ".join(map(str, seats))
            o["label"] = (o.get("label") or o["name"]).replace(f"seat {seats[0]}", who, 1)
    return out


# --- a run --------------------------------------------------------------------------------------------------------


def run_sentences(s: dict) -> list[str]:
    """The verdict of a run in sentences, one paragraph a point (`run_points`, each `Point.flat`)."""
    return [p.flat() for p in run_points(s)]


def run_points(s: dict) -> list[Point]:
    """The verdict of a run (summary dict of sim.stats.summary): the start player's (or each team's) win rate against the
    fair share, the seats' spread, how games end, how long they last, the share stopped at the turn cap, and whether
    each headline figure holds at skill when the run played its table at skill (`sim.pages.skill_page`)."""
    cat = catalogue.for_summary(s)
    lab = cat.label
    f = SummaryFigures.of(s)
    g = f.games
    fin = g.finished
    out: list[str] = []
    if not fin:
        return [
            Point(
                f"No game finished: all {g.played} hit the turn cap (max_turns) or failed, so there is nothing "
                "to report; raise max_turns."
            )
        ]
    few = metrics.too_few_for_tests(fin)
    if few:
        out.append(too_few_sentence(count(fin, "finished game"), fin))
    w = SummaryRates.of(s)
    if w.team:
        for role, r in w.team.items():
            out.append(
                f"{_cap(lab(f'team.{role}'))} {100 * r.rate:.1f}% {_ci(r.ci95, 'rate')} of the {fin:,} finished games."
            )
        out += _outcomes(s, cat)
    else:
        fp = w.first_player
        if fp is not None:
            p0, fair = fp.win.rate, fp.fair_share
            se0 = math.sqrt(fair * (1 - fair) / fin)
            p = metrics.diff_test(p0 - fair, se0)
            lo, hi = fp.advantage_ci95
            real = advantage_verdict(p0 - fair, math.sqrt(p0 * (1 - p0) / fin), fin, p)
            out.append(
                f"{_cap(lab('first_player.win'))} {100 * p0:.1f}% against a fair {100 * fair:.1f}%: "
                + (
                    f"{with_sign(100 * fp.advantage, 1)} {POINTS}."
                    if few
                    else f"{with_sign(100 * fp.advantage, 1)} {POINTS} [{with_sign(100 * lo, 1)}, {with_sign(100 * hi, 1)}], {real}."
                )
            )
        seats = w.seats
        if len(seats) > 1:
            hi_s = max(seats, key=lambda r: r.win.rate)
            lo_s = min(seats, key=lambda r: r.win.rate)
            equal = seats_verdict([r.win.wins for r in seats], fin)
            most, fewest = lab(f"win.seat{hi_s.seat}"), lab(f"win.seat{lo_s.seat}")
            out.append(
                f"Most wins: {most} {100 * hi_s.win.rate:.1f}%; fewest: {fewest} "
                f"{100 * lo_s.win.rate:.1f}%" + ("." if few else f" ({equal}).")
            )
        d = f.decisiveness
        if d and d.margin.n and d.margin.mean is not None and d.close is not None:
            out.append(
                f"{_cap(lab('margin'))}: {d.margin.mean:.1f} {cat.unit('margin')} on average; "
                f"{lab('close_games')} (won by at most {d.close_margin}): {100 * d.close.rate:.1f}%."
            )
    L, T = f.length.rounds, f.length.turns
    if L.n and L.mean is not None and T.mean is not None:
        mins = minutes_text(s, short=True)
        out.append(
            f"{_cap(lab('length.rounds'))}: {L.mean:.1f} on average (median {L.median}, 5-95% "
            f"{L.p05}-{L.p95}); {lab('length.turns')}: {T.mean:.1f} on average (median "
            f"{T.median})" + (f"; {mins}." if mins else ".")
        )
    if g.truncated:
        out.append(
            f"{_cap(lab('truncated'))}: {100 * g.truncated_rate:.2f}% of the games played (left out of every figure)."
        )
    if not few:
        out += precision_line(s)
    from sim.pages import skill_page

    # the headline figures with every seat on the learned player
    return [Point(x) for x in out] + skill_page.points(s)


def advantage_verdict(d: float, se: float, n: int, p: float) -> str:
    """The first-player advantage ``d`` (a share; ``se`` its standard error, ``n`` finished games, ``p`` the
    two-sided p-value of d = 0 against the fair share) in the three verdicts at the default 1-point margin
    (`sim.stats.verdict`): within the margin of fair only where the equivalence test (TOST) says so, beyond it
    only where its interval lies past the margin, else "cannot tell yet" with about how many more games would
    decide."""
    from sim.stats import verdict as V

    m = V.margin_for("first_player_advantage", "rate").value(0.0)
    v = V.judge(d, se, m, n, p, V.tost_p(d, se, m), raw_p_diff=p, raw_p_equiv=V.tost_p(d, se, m))
    pts = _points(m)
    if v.kind == V.UNCHANGED:
        real = f"more than chance explains ({fmt_p(p)}) but " if p < V.ALPHA else ""
        return f"{real}fair within {pts} (equivalence test, {fmt_p(v.p_equiv)})"
    if v.kind == V.CHANGED:
        return f"an edge beyond the {pts} margin (its interval lies past it; {fmt_p(p)} against no edge)"
    more = f": {V.more_games_words(v.more_games, n)}" if v.more_games else ""
    if p < V.ALPHA and abs(d) > m:  # real, and past the margin by its estimate only
        return f"more than chance explains ({fmt_p(p)}), but cannot tell yet whether it is beyond {pts}{more}"
    return f"cannot tell yet whether it is fair within {pts} ({fmt_p(p)}){more}"


def _points(share: float) -> str:
    """A margin given as a share in percentage points: "+/-1 point", "+/-0.5 points"."""
    return f"+/-{100 * share:g} point" + ("" if 100 * share == 1 else "s")


def seats_verdict(wins: list[float], n: int) -> str:
    """Whether the seats win equally, from each seat's wins (shares of a game adding up to ``n`` finished games):
    they differ where the chi-square test of equal seats rejects; every seat is fair within the 1-point margin
    where each seat's simultaneous 95% Wilson interval (Bonferroni) lies within it of the fair share (an
    intersection-union equivalence test, `sim.stats.ladder_fit.seat_spread`); otherwise cannot tell yet."""
    from sim.stats.ladder_fit import SEAT_MARGIN, seat_spread
    from sim.stats.verdict import about_games

    sp = seat_spread(wins, n, len(wins))
    chi = fmt_p(sp["p_equal"])
    pts = _points(SEAT_MARGIN)
    if sp["p_equal"] is not None and sp["p_equal"] < 0.05:
        return f"the seats differ more than chance explains, chi-square {chi}"
    if sp["within"] < SEAT_MARGIN:
        return f"every seat fair within {pts} (simultaneous 95% intervals), chi-square {chi}"
    more = f"; {about_games(sp['more_games'])} more games would decide" if sp.get("more_games") else ""
    return f"cannot tell yet whether every seat is fair within {pts} on {n:,} games, chi-square {chi}{more}"


def box_words(m: PlayingTime) -> str:
    """The box's stated playing time of summary ``length.minutes`` ``m`` in a few words: "the box says 20-30 min
    (publisher)", or that it states none."""
    if not m.box_minutes:
        return "the box states no playing time"
    lo, hi = m.box_minutes
    who = (m.box_source or "").split(":", 1)[0]
    return f"the box says {lo}-{hi} min ({who})" if lo != hi else f"the box says about {lo} min ({who})"


def minutes_text(s: dict, short: bool = False) -> str | None:
    """The estimated playing time of summary ``s`` in words: "playing time about 24 min a game (median 24 min, 5-95%
    22-26 min) at 13 s a turn (...)"; ``short`` names the parameter and the box's time, else the parameter's source
    and the box's in full. None without an estimate (no finished game, or a game without seconds_per_turn)."""
    m = SummaryFigures.of(s).length.minutes
    if m is None or m.mean is None:
        return None
    head = (
        f"playing time about {m.mean:.0f} min a game (median {m.median:.0f} min, 5-95% {m.p05:.0f}-"
        f"{m.p95:.0f} min) at {m.seconds_per_turn:g} s a turn"
    )
    if short:
        return head + f" (seconds_per_turn, {'the default' if m.default else 'set in the scenario'}); " + box_words(m)
    return head + f" (turns x seconds_per_turn / 60; seconds_per_turn: {m.source}); box: {m.box_source}"


READABLE = 0.01  # a headline rate known to +/- 1 point (95%) reads effects of a point or two


def precision_line(s: dict) -> list[str]:
    """One sentence when the headline win rates are known to worse than +/- `READABLE` (95% half-width): how wide
    they are at this many finished games, and about how many games would make them +/- 1 point (the half-width
    shrinks as 1/sqrt(games)). Empty when they are readable already."""
    fin = SummaryFigures.of(s).games.finished
    w = SummaryRates.of(s)
    cis = [r.ci95 for r in w.team.values()]
    if not w.team:
        cis += [r.win.ci95 for r in w.seats]
        if w.first_player is not None:
            cis.append(w.first_player.advantage_ci95)
    widths = [(hi - lo) / 2 for lo, hi in cis if lo is not None and hi is not None]
    if not widths or max(widths) <= READABLE:
        return []
    hw = max(widths)
    need = fin * (hw / READABLE) ** 2
    need = int(float(f"{need:.2g}"))  # 24,000, not 23,817: an estimate
    lab = catalogue.for_summary(s).label
    what = (
        "win rates of the teams are" if s.get("team") else f"seat win rates and the {lab('first_player_advantage')} are"
    )
    return [
        f"Precision: at {fin:,} finished games the {what} known to about ±{100 * hw:.1f} {POINTS} (95%), too "
        f"wide to read effects of a point or two; about {need:,} games would narrow them to ±1 point "
        f"(--games {need})."
    ]


def _outcomes(s: dict, cat: catalogue.View) -> list[str]:
    """How team games end: each categorical counter's shown values, most frequent first."""
    out = []
    for col, d in (s.get("extras") or {}).items():
        counts = d.get("counts") if isinstance(d, dict) else None
        if not counts or not cat.counter_shown(col):
            continue
        total = sum(counts.values()) or 1
        vals = sorted(
            ((c, cat.label(f"extra.{col}={v}")) for v, c in counts.items() if cat.shown(f"extra.{col}={v}") and c),
            reverse=True,
        )
        if vals:
            top = ", ".join(f"{lab} {100 * c / total:.1f}%" for c, lab in vals[:3])
            out.append(
                f"{_cap(cat.label(f'extra.{col}'))}: {top}" + (" (and rarer ones)" if len(vals) > 3 else "") + "."
            )
            break  # the first categorical counter (how the game ended) tells it
    return out


def scope_line(s: dict) -> str | None:
    """One line on what the figures hold for, where it matters: per-seat and per-strategy win rates hold for that
    seating and turn order (mixed strategies); a team's rate cannot tell its strategies apart; an unverified board."""
    seats = [x.get("strategy") for x in (s.get("scenario") or {}).get("seats") or []]
    parts = []
    if not s.get("team") and len(set(seats)) > 1:
        parts.append(
            "per-seat and per-strategy win rates hold for this seating and turn order (who sits before "
            "whom moves them; swap the seats in a second scenario and compare to see by how much)"
        )
    game = (s.get("scenario") or {}).get("game")
    if game and not s.get("team"):
        from sim.model import registry

        spec = registry.get(game)
        note = spec.seat_scope if spec is not None else ""
        if note:
            parts.append(note)
    if s.get("team") and len(set(seats)) > 1:
        parts.append("a team's strategies share one result per game, so these rates cannot tell them apart")
    board = ((s.get("scenario") or {}).get("params") or {}).get("board")
    if board is not None:
        from sim.pages.scenario_words import board_description

        if "UNVERIFIED" in board_description(str(board), s["scenario"]["game"]):
            parts.append(
                "everything holds for the board played, an unverified candidate layout (a best guess at the printed "
                "board, not checked against it: a figure may differ on the real board)"
            )
    if not parts:
        return None
    return "Scope: " + "; ".join(parts) + "."
