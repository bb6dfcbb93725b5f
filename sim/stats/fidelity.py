"""Fidelity of the proxy: the learned table's headline balance figures beside a `search` table's, judged.

Inputs are `sim compare`'s rows (`sim.stats.compare.evaluate`: the learned table as A, the search table as B, on
common random numbers). The figures are the "At skill" ones (`sim.stats.at_skill`): first-player advantage and seat
spread in competitive games, each team's win rate in team games, and the game length. Each paired figure (the
first-player advantage from ``first_player.win``, a team's from ``team.<role>``, the length from ``length.turns``)
takes compare's paired difference and its standard error; the seat spread (highest minus lowest seat win rate, no
per-game measure) takes compare's ``seat_spread`` row: the paired bootstrap over the game indices
(`sim.stats.spread_compare`), its percentile interval, its p-value of no difference and, at the fidelity margin
(`sim.api.fidelity` passes it to compare), its TOST p-value. (Files made before it took the two spreads as
independent samples, a standard error the shared dice could only make too wide; such a figure says ``paired``
false, and `SPREAD_METHODS` words both ways.)

Verdicts (`judge`), each test Holm-corrected over the figures judged together:
- **agrees within +/-M**: the equivalence test (TOST, `sim.stats.verdict.tost_p`) at margin M says the difference
  lies inside (-M, +M);
- **differs**: the two-sided test of no difference rejects (the learned table's figure is not search's, though
  perhaps by less than M: the interval says by how much);
- **cannot tell yet** otherwise, with about how many games in all would decide.
Margins (`DEFAULT_MARGINS`, overridable per figure): 2 percentage points on the rates, 5% of the learned table's
length. They are wider than the At-skill verdicts' (1 point, 2%) because a search table plays a few games a second,
and narrower than the gaps a designer acts on in the At-skill section.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from sim.model.words import with_sign
from sim.stats import verdict as V
from sim.stats.metrics import MIN_GAMES_FOR_TESTS, holm
from sim.stats.spread_compare import NAME as SPREAD

FidelityKind = Literal["agrees", "differs", "cannot_tell"]
AGREES: FidelityKind = "agrees"
DIFFERS: FidelityKind = "differs"
CANNOT_TELL: FidelityKind = "cannot_tell"
RATE_MARGIN = 0.02  # 2 percentage points
LENGTH_SHARE = 0.05  # 5% of the learned table's mean length
ALPHA = V.ALPHA
# how the seat spread's difference was judged, by the figure's ``paired``: the fidelity page's header says it
SPREAD_METHODS = {
    True: "the paired bootstrap of sim compare (resamples of the games, both tables' outcomes of each drawn game; "
    "percentile interval)",
    False: "the two tables' spreads as independent samples",
}


@dataclass(frozen=True)
class Figure:
    """One headline figure of both tables: ``learned`` and ``search`` ({value, ci95, n} in the figure's unit, a
    rate as a share), the difference search - learned ``d`` with standard error ``se`` over ``n`` games, ``paired``
    (on the paired games) and ``p`` the two-sided p-value of no difference (None: untested). A bootstrapped figure
    (the seat spread) also gives ``ci95``, its percentile interval of ``d`` (else d +/- 1.96 se), and ``equiv``:
    (margin, its TOST p-value at that margin; None untested)."""

    key: str
    learned: dict
    search: dict
    d: float
    se: float
    n: int
    paired: bool
    p: float | None
    ci95: tuple[float, float] | None = None
    equiv: tuple[float, float | None] | None = None


def _row_figure(r: dict, offset: float = 0.0, side: str = "a") -> dict:
    """A compare row's side as a figure: {value, ci95, n} minus ``offset`` (the fair share)."""
    lo, hi = r[f"{side}_ci95"]
    return {"value": r[side] - offset, "ci95": [lo - offset, hi - offset], "n": r["n"]}


def figures(rows: list[dict], players: int, team_roles: list[str]) -> list[Figure]:
    """The headline figures from compare rows ``rows`` (A learned, B search) of a table of ``players`` seats;
    ``team_roles``: the roles whose team win rate is a figure (empty in a competitive game). The seat spread is a
    figure where compare made its row (`sim.stats.compare.evaluate`: both sides competitive, the same seats)."""
    by = {r["name"]: r for r in rows}
    out: list[Figure] = []

    def paired(key: str, name: str, offset: float = 0.0) -> None:
        r = by.get(name)
        if r is None:
            return
        a, b = _row_figure(r, offset, "a"), _row_figure(r, offset, "b")
        # compare leaves p None for identical pairs (no difference to find: p 1, as its verdicts take it) and for
        # too few games (untested)
        p = None if r.get("too_few_games") else (1.0 if r.get("p") is None else float(r["p"]))
        ci = equiv = None
        if name == SPREAD and not r.get("identical"):  # the bootstrap's own interval and equivalence test
            ci = (float(r["diff_ci95"][0]), float(r["diff_ci95"][1]))
            equiv = (float(r["margin"]), r.get("p_equiv")) if "margin" in r else None
        out.append(Figure(key, a, b, float(r["diff"]), float(r["se_paired"]), int(r["n"]), True, p, ci, equiv))

    if team_roles:
        for role in team_roles:
            paired(f"team_win_rate.{role}", f"team.{role}")
    else:
        paired("first_player_advantage", "first_player.win", 1.0 / players)
        paired("seat_spread", SPREAD)
    paired("length_turns", "length.turns")
    return out


def margin(key: str, learned_value: float, overrides: dict[str, float] | None = None) -> float:
    """Figure ``key``'s fidelity margin in its unit: an override (percentage points for rates, turns for the
    length), else 2 points for a rate and 5% of the learned table's length (`DEFAULT_MARGINS`)."""
    if overrides and key in overrides:
        v = overrides[key]
        return v if key == "length_turns" else v / 100
    return LENGTH_SHARE * abs(learned_value) if key == "length_turns" else RATE_MARGIN


DEFAULT_MARGINS = {"rates": f"{100 * RATE_MARGIN:g} points", "length_turns": f"{100 * LENGTH_SHARE:g}% of the learned"}


@dataclass(frozen=True)
class Judged:
    """A figure's fidelity verdict: ``kind`` (agrees / differs / cannot_tell), the difference search - learned with
    its 95% interval, ``margin`` M, the Holm-adjusted p-values of the difference and equivalence tests, ``more_games``
    (about how many games in all would decide a cannot_tell; None: cannot be said)."""

    kind: FidelityKind
    estimate: float
    ci95: tuple[float, float]
    margin: float
    p_holm: float | None
    p_equiv_holm: float | None
    games: int
    more_games: int | None


def judge(figs: list[Figure], margins: dict[str, float] | None = None, alpha: float = ALPHA) -> dict[str, Judged]:
    """Each figure's verdict (module docstring): TOST at its margin and the test of no difference, each family
    Holm-corrected over the figures tested (those with at least `MIN_GAMES_FOR_TESTS` games and a p-value). A figure
    of fewer games is "cannot tell yet". A bootstrapped figure takes its own interval, and its own TOST p-value where
    it was made at this margin (else the normal one from its standard error)."""
    tested = [f for f in figs if f.p is not None and f.n >= MIN_GAMES_FOR_TESTS]
    ms = {f.key: margin(f.key, f.learned["value"], margins) for f in figs}
    pe = {f.key: _tost(f, ms[f.key]) for f in tested}
    p_adj = dict(zip((f.key for f in tested), holm([f.p for f in tested])))
    pe_adj = dict(zip((f.key for f in tested), holm([pe[f.key] for f in tested])))
    out: dict[str, Judged] = {}
    for f in figs:
        h = 1.959963984540054 * f.se
        ci = f.ci95 or (f.d - h, f.d + h)
        if f.key not in p_adj:
            out[f.key] = Judged(CANNOT_TELL, f.d, ci, ms[f.key], None, None, f.n, None)
            continue
        kind: FidelityKind
        more = None
        if pe_adj[f.key] <= alpha:
            kind = AGREES
        elif p_adj[f.key] <= alpha:
            kind = DIFFERS
        else:
            kind = CANNOT_TELL
            v = V.judge(f.d, f.se, ms[f.key], f.n, p_adj[f.key], pe_adj[f.key], alpha, f.p, pe[f.key])
            more = None if v.more_games is None else f.n + v.more_games
        out[f.key] = Judged(kind, f.d, ci, ms[f.key], p_adj[f.key], pe_adj[f.key], f.n, more)
    return out


def _tost(f: Figure, m: float) -> float:
    """The TOST p-value of figure ``f`` at margin ``m``: its bootstrap's where made at ``m``, else the normal one."""
    if f.equiv is not None and f.equiv[1] is not None and math.isclose(f.equiv[0], m, rel_tol=1e-9):
        return float(f.equiv[1])
    return V.tost_p(f.d, f.se, m)


def amount(key: str, x: float, signed: bool = True) -> str:
    """A value or difference of figure ``key`` in its unit: "+1.20 points" (rates, percentage points), "+3.4 turns"."""
    if key == "length_turns":
        return f"{with_sign(x, 1) if signed else f'{x:.1f}'} turns"
    return f"{with_sign(100 * x, 2) if signed else f'{100 * x:.2f}'} points"


def interval(key: str, ci: tuple[float, float] | list[float]) -> str:
    """A difference's interval: "[-1.10, +2.30]" (points) or "[-0.4, +2.1]" (turns)."""
    if key == "length_turns":
        return f"[{with_sign(ci[0], 1)}, {with_sign(ci[1], 1)}]"
    return f"[{with_sign(100 * ci[0], 2)}, {with_sign(100 * ci[1], 2)}]"


def verdict_words(key: str, j: Judged) -> str:
    """ "agrees within +/-2.00 points", "differs: +3.10 points [+1.20, +5.00]", "cannot tell yet (2,000 games; about
    9,000 in all would decide)"."""
    if j.kind == AGREES:
        return f"agrees within +/-{amount(key, j.margin, signed=False)}"
    if j.kind == DIFFERS:
        return f"differs: {amount(key, j.estimate)} {interval(key, j.ci95)}"
    more = f"; {V.about_games(j.more_games)} in all would decide" if j.more_games else ""
    if j.p_holm is None and j.games < MIN_GAMES_FOR_TESTS:  # untested: too few games for any test
        more = f"; a verdict needs at least {MIN_GAMES_FOR_TESTS} games"
    return f"cannot tell yet ({j.games:,} games{more}{V.at_margin_words(j.more_games or 0, j.games)})"


def report_line(words: str, key: str, f: dict, search: str, games: int) -> str:
    """One line of the "At skill" section from a fidelity file's figure ``f`` ({kind, estimate, ci95, margin,
    more_games (optional: files and summaries made before it was kept)}): whether the learned table's figure
    ``words`` matched the table of ``search`` (e.g. "search@64") over ``games`` games each, the difference said as
    search minus learned. "Learned players tell the same story as search@64 on first-player advantage: search
    minus learned +0.20 points [-0.60, +1.00], within ±2.00 points (2,000 games each).", "... differ from
    search@64 on game length: search minus learned +12.0 turns [+8.0, +16.0] (2,000 games each).", "Cannot tell
    yet whether ...: search minus learned +0.50 points [-2.10, +3.10] on 2,000 games each; about 9,000 games each
    would decide."."""
    diff = f"search minus learned {amount(key, f['estimate'])} {interval(key, f['ci95'])}"
    if f["kind"] == AGREES:
        return (
            f"Learned players tell the same story as {search} on {words}: {diff}, "
            f"within ±{amount(key, f['margin'], signed=False)} ({games:,} games each)."
        )
    if f["kind"] == DIFFERS:
        return f"Learned players differ from {search} on {words}: {diff} ({games:,} games each)."
    more = f.get("more_games")
    decide = f"; {V.about_games(more)} games each would decide" if more else ""
    return f"Cannot tell yet whether learned players tell {search}'s story on {words}: {diff} on {games:,} games each{decide}."


def report_lines(doc: dict) -> list[str]:
    """One line per figure for the "At skill" section (`sim.stats.fidelity.report_line`), each on the games its
    verdict counts."""
    games = int(doc["games"])
    return [report_line(f["words"], k, f, doc["search"], counted(f, games)) for k, f in doc["figures"].items()]


def counted(f: dict, games: int) -> int:
    """The games figure ``f`` of a fidelity file (its ``learned`` side's n) or of its At skill summary (``n``)
    counts; ``games`` for a file made before either was written."""
    return int(f.get("n") or (f.get("learned") or {}).get("n") or games)
