"""The balance report's headline figures ("Balance at a glance") and their definitions, from the summary dict
(sim.stats.summary, schema 1): each figure with its value, 95% interval and a note, in report order. Labels and
definitions come from the catalogue of measures (sim.model.catalogue); none is spelled here.
"""

from __future__ import annotations

import math
import re

from sim.model import catalogue
from sim.model.words import POINTS, count, with_sign
from sim.pages import verdicts
from sim.pages.scenario_words import is_team_game
from sim.pages.verdicts import fmt_p
from sim.stats import metrics
from sim.stats.records import SummaryFigures, SummaryRates

Item = tuple[str, dict]  # (catalogue key, {figure, value, interval, note})
NONE = "none: too few games"


def pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def pts(x: float) -> str:
    return f"{with_sign(100 * x, 2)} {POINTS}"


def ci_pct(c) -> str:
    return f"[{100 * c[0]:.2f}%, {100 * c[1]:.2f}%]"


def ci_pts(c) -> str:
    """An interval of percentage points, next to its value that already says "points" (the unit once)."""
    return f"[{with_sign(100 * c[0], 2)}, {with_sign(100 * c[1], 2)}]"


def _item(key: str, figure: str, value: str, interval: str, note: str) -> Item:
    return key, {"figure": figure, "value": value, "interval": interval, "note": note}


def _few_text(fin: int) -> str:
    return f"too few games ({fin} finished, fewer than {metrics.MIN_GAMES_FOR_TESTS})"


def balance_items(s: dict) -> list[Item]:
    """The headline balance figures as (catalogue key, {figure, value, interval, note}) in report order; the
    figure is the measure's catalogue label. Nothing finished: one "no finished game" row and the truncated share."""
    g = SummaryFigures.of(s).games
    lab = catalogue.for_summary(s).label
    trunc = _item(
        "truncated",
        lab("truncated"),
        pct(g.truncated_rate),
        ci_pct(metrics.wilson(g.truncated, g.played)),
        f"{g.truncated} of {count(g.played, 'game')}; errors: {g.errors}",
    )
    if not g.finished:  # nothing finished: every figure below would be made of empty histograms
        none = "every game hit the turn cap (max_turns) or failed: raise max_turns"
        return [_item("", "no finished game", "n/a", "", none), trunc]
    rows = _team_items(s) if is_team_game(s) else _competitive_items(s)
    return rows + _length_items(s) + _minutes_items(s) + [trunc]


def _team_items(s: dict) -> list[Item]:
    """Each team's win rate (a team game)."""
    lab = catalogue.for_summary(s).label
    return [
        _item(
            f"team.{role}",
            lab(f"team.{role}"),
            pct(r.rate),
            ci_pct(r.ci95),
            f"{r.wins:.0f} of {r.games} finished games",
        )
        for role, r in SummaryRates.of(s).team.items()
    ]


def _competitive_items(s: dict) -> list[Item]:
    """First-player advantage, seat spread, ties (and tiebreaks), the margin: a competitive game's figures."""
    return _first_player_items(s) + [_seat_spread_item(s)] + _tie_items(s) + _margin_items(s)


def _first_player_items(s: dict) -> list[Item]:
    fin = SummaryFigures.of(s).games.finished
    lab = catalogue.for_summary(s).label
    fp = SummaryRates.of(s).first_player
    if fp is None:
        return []
    p0, fair = fp.win.rate, fp.fair_share
    se0 = math.sqrt(fair * (1 - fair) / fin) if fin else 0.0
    pv = metrics.diff_test(p0 - fair, se0)
    few = metrics.too_few_for_tests(fin)
    note = f"{lab('first_player.win')}: {pct(p0)} against a fair {pct(fair)}; " + (
        f"{_few_text(fin)} to test" if few else fmt_p(pv)
    )
    return [
        _item(
            "first_player_advantage", lab("first_player_advantage"), pts(fp.advantage), ci_pts(fp.advantage_ci95), note
        )
    ]


def _seat_spread_item(s: dict) -> Item:
    """The seat spread: the highest minus the lowest seat win rate with the interval of `ladder_fit.seat_spread`
    (from simultaneous Wilson intervals of the seats' win rates: the one method of every page that shows it), and
    the chi-square test of equal seats."""
    from sim.stats.ladder_fit import seat_spread

    fin = SummaryFigures.of(s).games.finished
    few = metrics.too_few_for_tests(fin)  # no interval or test: "too few games" instead
    seats = SummaryRates.of(s).seats
    rates = [r.win.rate for r in seats]
    hi_s = max(range(len(rates)), key=lambda i: rates[i])
    lo_s = min(range(len(rates)), key=lambda i: rates[i])
    sp = seat_spread([r.win.wins for r in seats], fin, len(seats)) if not few else None
    chi = metrics.uniform_chi2([r.win.wins for r in seats])
    test = (
        f"{_few_text(fin)} for an interval or the chi-square test of equal seats"
        if few
        else f"chi-square test of equal seats: {fmt_p(chi['p'])}"
    )
    return _item(
        "seat_spread",
        catalogue.for_summary(s).label("seat_spread"),
        f"{100 * (rates[hi_s] - rates[lo_s]):.2f} {POINTS}",
        NONE if sp is None else f"[{100 * sp['ci95'][0]:.2f}, {100 * sp['ci95'][1]:.2f}]",
        f"seat {hi_s} {pct(rates[hi_s])} vs seat {lo_s} {pct(rates[lo_s])}; {test}",
    )


def _tie_items(s: dict) -> list[Item]:
    fin = SummaryFigures.of(s).games.finished
    lab = catalogue.for_summary(s).label
    t = SummaryFigures.of(s).ties
    assert t.tie_rate is not None, "a competitive game's summary states its tie rate"
    rows = [
        _item(
            "tie",
            lab("tie"),
            pct(t.tie_rate),
            ci_pct(metrics.wilson(t.shared_games, fin)),
            f"{t.shared_games} shared wins",
        )
    ]
    if t.tiebreak_decided is not None and t.tiebreak_rate is not None:
        rows.append(
            _item(
                "extra.tiebreak_decided",
                lab("extra.tiebreak_decided"),
                pct(t.tiebreak_rate),
                ci_pct(metrics.wilson(t.tiebreak_decided, fin)),
                count(t.tiebreak_decided, "game"),
            )
        )
    return rows


def _margin_items(s: dict) -> list[Item]:
    f = SummaryFigures.of(s)
    d = f.decisiveness
    if not (d and d.margin.n and d.mean_ci95 and d.close is not None):
        return []
    cat = catalogue.for_summary(s)
    few = metrics.too_few_for_tests(f.games.finished)
    m = d.margin
    note = (
        f"median {m.median}; {cat.label('close_games')} (margin <= {d.close_margin}): "
        f"{pct(d.close.rate)} {ci_pct(d.close.ci95)}"
    )
    return [
        _item(
            "margin",
            cat.label("margin"),
            f"{m.known_mean:.2f} {cat.unit('margin')}",
            NONE if few else f"[{d.mean_ci95[0]:.2f}, {d.mean_ci95[1]:.2f}]",
            note,
        )
    ]


def _length_items(s: dict) -> list[Item]:
    lab = catalogue.for_summary(s).label
    f = SummaryFigures.of(s)
    few = metrics.too_few_for_tests(f.games.finished)
    rows = []
    for key, L in (("turns", f.length.turns), ("rounds", f.length.rounds)):
        if not L.n:
            continue
        h, mean = L.half_width(), L.known_mean
        rows.append(
            _item(
                f"length.{key}",
                lab(f"length.{key}"),
                f"{mean:.2f}",
                NONE if few else span_text(mean - h, mean + h),
                f"median {L.median}, 5-95%: {L.p05}-{L.p95}",
            )
        )
    return rows


SAME_LENGTH = "none: every finished game lasted as long"


def span_text(lo: float, hi: float, digits: int = 2) -> str:
    """An interval as "[lo, hi]", with more decimals than ``digits`` where its two ends would read alike (the playing
    time of 20,000 games read "[24.18, 24.18]", an interval that seemed to have no width), at most 6; `SAME_LENGTH`
    for one of no width (every finished game of the same length)."""
    if lo == hi:
        return SAME_LENGTH
    for d in range(digits, 7):
        a, b = f"{lo:.{d}f}", f"{hi:.{d}f}"
        if a != b:
            break
    return f"[{a}, {b}]"


def _minutes_items(s: dict) -> list[Item]:
    """The turns' mean and interval, in minutes (turns x seconds_per_turn / 60), when the summary has them."""
    f = SummaryFigures.of(s)
    m = f.length.minutes
    if not (m and m.mean is not None and m.median is not None):
        return []
    few = metrics.too_few_for_tests(f.games.finished)
    L, k = f.length.turns, m.seconds_per_turn / 60.0
    h, mean = L.half_width(), L.known_mean
    note = (
        f"median {m.median:.0f} min; turns x {m.seconds_per_turn:g} s a turn / 60 "
        f"(seconds_per_turn, {'the default' if m.default else 'set in the scenario'}); "
        f"{verdicts.box_words(m)}"
    )
    return [
        _item(
            "length.minutes",
            "playing time (estimate)",
            f"{m.mean:.2f} min",
            NONE if few else span_text(k * (mean - h), k * (mean + h)),
            note,
        )
    ]


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
    return re.sub(r"\s+", " ", re.sub(r"\{\w+\}|\(\{\w+\}\)", "", label)).strip()
