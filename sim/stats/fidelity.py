"""Fidelity of the proxy: the learned table's headline balance figures beside a `search` table's, judged.

Inputs are `sim compare`'s rows (`sim.stats.compare.evaluate`: the learned table as A, the search table as B, on
common random numbers). The figures are the "At skill" ones (`sim.stats.at_skill`): first-player advantage and seat
spread in competitive games, each team's win rate in team games, and the game length. Each paired figure (the
first-player advantage from ``first_player.win``, a team's from ``team.<role>``, the length from ``length.turns``)
takes compare's paired difference and its standard error; the seat spread (highest minus lowest seat win rate, no
per-game measure) takes the two spreads' difference with the standard error of two independent tables
(`ladder_fit.seat_spread`), which the shared dice can only make too wide.

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
from sim.stats import ladder_fit as lf
from sim.stats import verdict as V
from sim.stats.metrics import MIN_GAMES_FOR_TESTS, holm, norm_p

FidelityKind = Literal["agrees", "differs", "cannot_tell"]
AGREES: FidelityKind = "agrees"
DIFFERS: FidelityKind = "differs"
CANNOT_TELL: FidelityKind = "cannot_tell"
RATE_MARGIN = 0.02  # 2 percentage points
LENGTH_SHARE = 0.05  # 5% of the learned table's mean length
ALPHA = V.ALPHA


@dataclass(frozen=True)
class Figure:
    """One headline figure of both tables: ``learned`` and ``search`` ({value, ci95, se, n} in the figure's unit, a
    rate as a share), the difference search - learned ``d`` with standard error ``se`` over ``n`` games, ``paired``
    (from the per-game paired differences) and ``p`` the two-sided p-value of no difference (None: untested)."""

    key: str
    learned: dict
    search: dict
    d: float
    se: float
    n: int
    paired: bool
    p: float | None


def _row_figure(r: dict, offset: float = 0.0, side: str = "a") -> dict:
    """A compare row's side as a figure: {value, ci95, n} minus ``offset`` (the fair share)."""
    lo, hi = r[f"{side}_ci95"]
    return {"value": r[side] - offset, "ci95": [lo - offset, hi - offset], "n": r["n"]}


def figures(rows: list[dict], players: int, team_roles: list[str]) -> list[Figure]:
    """The headline figures from compare rows ``rows`` (A learned, B search) of a table of ``players`` seats;
    ``team_roles``: the roles whose team win rate is a figure (empty in a competitive game)."""
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
        out.append(Figure(key, a, b, float(r["diff"]), float(r["se_paired"]), int(r["n"]), True, p))

    if team_roles:
        for role in team_roles:
            paired(f"team_win_rate.{role}", f"team.{role}")
    else:
        paired("first_player_advantage", "first_player.win", 1.0 / players)
        seats = [by.get(f"win.seat{s}") for s in range(players)]
        if players > 1 and None not in seats:
            n = int(seats[0]["n"])  # type: ignore[index]
            sa = lf.seat_spread([r["a"] * n for r in seats], n, players)  # type: ignore[index]
            sb = lf.seat_spread([r["b"] * n for r in seats], n, players)  # type: ignore[index]
            d, se = sb["value"] - sa["value"], math.hypot(sa["se"], sb["se"])
            p = _two_sided(d, se) if n >= MIN_GAMES_FOR_TESTS else None
            keep = ("value", "ci95", "se", "n")
            out.append(Figure("seat_spread", _pick(sa, keep), _pick(sb, keep), d, se, n, False, p))
    paired("length_turns", "length.turns")
    return out


def _pick(d: dict, keys: tuple[str, ...]) -> dict:
    return {k: d[k] for k in keys}


def _two_sided(d: float, se: float) -> float:
    if se <= 0 or not math.isfinite(se):
        return 0.0 if d else 1.0
    return norm_p(d / se)


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
    of fewer games is "cannot tell yet"."""
    tested = [f for f in figs if f.p is not None and f.n >= MIN_GAMES_FOR_TESTS]
    ms = {f.key: margin(f.key, f.learned["value"], margins) for f in figs}
    pe = {f.key: V.tost_p(f.d, f.se, ms[f.key]) for f in tested}
    p_adj = dict(zip((f.key for f in tested), holm([f.p for f in tested])))
    pe_adj = dict(zip((f.key for f in tested), holm([pe[f.key] for f in tested])))
    out: dict[str, Judged] = {}
    for f in figs:
        h = 1.959963984540054 * f.se
        ci = (f.d - h, f.d + h)
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
    return f"cannot tell yet ({j.games:,} games{more})"


def report_line(words: str, key: str, f: dict, search: str, games: int) -> str:
    """One line of the "At skill" section from a fidelity file's figure ``f`` ({kind, estimate, ci95, margin,
    more_games (optional: files and summaries made before it was kept)}): whether the learned table's figure
    ``words`` matched the table of ``search`` (e.g. "search@64") over ``games`` games each, the difference said as
    search minus learned. "Learned players tell the same story as search@64 on first-player advantage: search
    minus learned +0.20 points [-0.60, +1.00], within +/-2.00 points (2,000 games each).", "... differ from
    search@64 on game length: search minus learned +12.0 turns [+8.0, +16.0] (2,000 games each).", "Cannot tell
    yet whether ...: search minus learned +0.50 points [-2.10, +3.10] on 2,000 games each; about 9,000 games each
    would decide."."""
    diff = f"search minus learned {amount(key, f['estimate'])} {interval(key, f['ci95'])}"
    if f["kind"] == AGREES:
        return (
            f"Learned players tell the same story as {search} on {words}: {diff}, "
            f"within +/-{amount(key, f['margin'], signed=False)} ({games:,} games each)."
        )
    if f["kind"] == DIFFERS:
        return f"Learned players differ from {search} on {words}: {diff} ({games:,} games each)."
    more = f.get("more_games")
    decide = f"; {V.about_games(more)} games each would decide" if more else ""
    return f"Cannot tell yet whether learned players tell {search}'s story on {words}: {diff} on {games:,} games each{decide}."
