"""A sweep's numbers: every measure of every point with its 95% interval, paired differences between neighbouring
points, and the points that meet a target. Plain data (dicts and a Polars frame); `sim.pages.sweep_page` draws them.

Measures are those of `sim.stats.measures.measures` (the names, labels and kinds declared there), computed from each
point's integer sums: a rate with its Wilson interval, a mean with its normal interval. Two derived names read as
the summary does: ``first_player_advantage`` (first-player win rate minus the fair share 1/players, competitive
games) and ``team_win_rate`` (the win rate of the team with the most seats, team games).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sim.model import catalogue
from sim.model.scenario import Scenario
from sim.model.words import did_you_mean
from sim.stats import measures as M
from sim.stats import metrics
from sim.stats.records import Estimate

DEFAULT_COMPETITIVE = ("first_player_advantage", "margin", "length.rounds")
DEFAULT_TEAM = ("team_win_rate", "length.rounds")


@dataclass(frozen=True)
class Quantity:
    """A measure as a sweep reports it: ``base`` (a `Measure`) plus ``offset`` (the fair share taken away)."""

    name: str
    label: str
    kind: str
    base: M.Measure  # a `sim.stats.measures` measure (name, label, kind, scale, over)
    offset: float = 0.0
    definition: str = ""  # from the catalogue of measures (sim.model.catalogue)


_QUANTITIES: dict[tuple, dict] = {}


def quantities(sc: Scenario) -> dict[str, Quantity]:
    """Every measure of scenario ``sc`` by name, the derived ones first (see module docstring). Built once per
    what they depend on (the game, players, mode, seat strategies and roles: `sim.stats.measures.measures` and the
    catalogue view read nothing else), not once per point of a sweep (~1 ms each: 2,500 points took seconds)."""
    key = (
        sc.game,
        sc.players,
        str(sc.params.get("mode")),
        tuple(s.strategy for s in sc.seats),
        tuple(sc.spec.roles(sc.params, sc.players)),
    )
    if key not in _QUANTITIES:
        if len(_QUANTITIES) > 256:
            _QUANTITIES.clear()
        _QUANTITIES[key] = _quantities(sc)
    return _QUANTITIES[key]


def _quantities(sc: Scenario) -> dict[str, Quantity]:
    # the measures the reports show (bookkeeping such as the seat rotation left out), the arc's among them: a sweep,
    # tune or ladder that asks for one records the game's arc (`measures.needs_arc`)
    ms = M.shown(sc, arc=True)
    by = {m.name: m for m in ms}
    out: dict[str, Quantity] = {}
    cat = catalogue.for_scenario(sc)  # labels from the catalogue of measures
    if "first_player.win" in by:
        fp = by["first_player.win"]
        out["first_player_advantage"] = Quantity(
            "first_player_advantage",
            cat.label("first_player_advantage"),
            "rate",
            fp,
            -1.0 / sc.players,
            cat.definition("first_player_advantage"),
        )
    teams = [m for m in ms if m.name.startswith("team.")]
    if teams:
        roles = sc.spec.roles(sc.params, sc.players)
        big = max(teams, key=lambda m: roles.count(m.name.split(".", 1)[1]))
        out["team_win_rate"] = Quantity("team_win_rate", big.label, "rate", big, 0.0, cat.definition(big.name))
    for m in ms:
        out[m.name] = Quantity(m.name, m.label, m.kind, m, 0.0, cat.definition(m.name))
    return out


def check_measures(sw, names: list[str]) -> list[str]:
    """The chosen measures (default: per kind of game), each checked against every point's measures. Raises
    SweepError naming the unknown measure and the allowed names."""
    from sim.model.sweep_axis import SweepError

    qs = [quantities(p.scenario) for p in sw.points]
    common = [n for n in qs[0] if all(n in q for q in qs)]
    if not names:
        default = DEFAULT_TEAM if "team_win_rate" in common else DEFAULT_COMPETITIVE
        # a swept seat parameter (seats.0.budget): that seat's win rate first, what the sweep is about
        seats = [f"win.seat{a.name.split('.')[1]}" for a in getattr(sw, "axes", []) if a.name.startswith("seats.")]
        return [n for n in dict.fromkeys(seats + list(default)) if n in common]
    for n in names:
        if n not in common:
            raise SweepError(
                f"measure {n!r}: not a measure of every point; {did_you_mean(n, common)}allowed: {', '.join(common)}"
            )
    return list(dict.fromkeys(names))


def parse_target(sw, text: str) -> tuple[str, float]:
    """``"measure=value"`` -> (measure, value); rates may be given as 0.5 or 50%. Raises SweepError."""
    from sim.model.sweep_axis import SweepError

    name, eq, val = str(text).partition("=")
    name = name.strip()
    if not eq:
        raise SweepError(f"--target {text}: expected MEASURE=VALUE (e.g. first_player_advantage=0, team_win_rate=0.5)")
    check_measures(sw, [name])
    try:
        v = float(val.strip().rstrip("%")) / (100 if val.strip().endswith("%") else 1)
    except ValueError:
        raise SweepError(f"--target {text}: {val.strip()!r} is not a number") from None
    if not math.isfinite(v):
        raise SweepError(f"--target {text}: must be a finite number")
    return name, v


def value(q: Quantity, sums: dict) -> dict:
    """{value, ci95, n} of quantity ``q`` from a point's sums (value None when no game counts)."""
    m = q.base
    n, s, sq = sums["n"][m.name], sums["s"][m.name], sums["q"][m.name]
    if n == 0:
        return Estimate(None, None, 0).to_dict()
    if m.kind == "rate":
        lo, hi = metrics.wilson(s / m.scale, n)
        v = s / m.scale / n
    else:
        v, lo, hi = metrics.mean_ci(s / m.scale, sq / (m.scale * m.scale), n)
    return Estimate(v + q.offset, (lo + q.offset, hi + q.offset), n).to_dict()


def point_measures(sc: Scenario, sums: dict, qs: dict | None = None) -> dict:
    """Every quantity of a point that its sums hold: {name: {value, ci95, n}} (``qs``: its `quantities`, when already
    built; the arc measures only where the point recorded the game's arc)."""
    return {name: value(q, sums) for name, q in (qs or quantities(sc)).items() if q.base.name in sums["n"]}


def recorded_arc(sw, names) -> bool:
    """Whether the points of ``sw`` must record the game's arc: one of the measures ``names`` is an arc measure."""
    if not names:
        return False
    qs = quantities(sw.points[0].scenario)
    return M.needs_arc(qs[n].base.name for n in names if n in qs)


def point_minutes(sc: Scenario, ms: dict) -> dict | None:
    """A point's playing time in minutes: its mean length in turns (``ms["length.turns"]``, with its 95% interval)
    times the point's own ``seconds_per_turn`` / 60, so a swept seconds_per_turn is honoured: {value, ci95,
    seconds_per_turn}. None for a game without that parameter or a point with no finished game."""
    from sim.model.registry import SECONDS_PER_TURN

    t = Estimate.of(ms["length.turns"]) if ms.get("length.turns") else None
    if sc.spec.param(SECONDS_PER_TURN) is None or t is None or t.value is None:
        return None
    s = float(sc.params[SECONDS_PER_TURN])
    return {
        "value": t.value * s / 60.0,
        "ci95": [c * s / 60.0 for c in t.ci95] if t.ci95 else None,
        "seconds_per_turn": s,
    }


def neighbours(sw) -> list[tuple[int, int, str]]:
    """(a, b, axis) for every pair of points one step apart along one axis (grid), or consecutive (zip)."""
    if sw.mode == "zip" or len(sw.axes) <= 1:
        name = sw.axes[0].name if len(sw.axes) == 1 else "point"
        return [(i, i + 1, name) for i in range(len(sw.points) - 1)]
    shape = [len(a.values) for a in sw.axes]
    out = []
    for idx in np.ndindex(*shape):
        a = int(np.ravel_multi_index(idx, shape))
        for k, ax in enumerate(sw.axes):
            if idx[k] + 1 < shape[k]:
                nxt = list(idx)
                nxt[k] += 1
                out.append((a, int(np.ravel_multi_index(nxt, shape)), ax.name))
    return out


def paired_difference(q: Quantity, a: dict, b: dict) -> dict:
    """B - A of quantity ``q`` over the games both points played (common random numbers), from the points' stored
    per-game numerators (``a``/``b``: {"names", "paired", "finished"}): {diff, ci95, p, n}."""
    m = q.base
    ia, ib = a["names"].index(m.name), b["names"].index(m.name)
    x = a["paired"][:, ia].astype(np.int64)
    y = b["paired"][:, ib].astype(np.int64)
    if m.over != "all":
        both = a["finished"] & b["finished"]
        if m.over == "defined":  # a conditional measure: the games where it is defined on both sides
            both &= (x >= 0) & (y >= 0)
        x, y = x[both], y[both]
    d = y - x
    r = metrics.paired_diff(float(d.sum()) / m.scale, float((d * d).sum()) / (m.scale * m.scale), len(d))
    return {"diff": r["diff"], "ci95": r["ci"], "p": r["p"], "se": r["se"], "n": int(len(d)), "paired": True}


def independent_difference(q: Quantity, sa: dict, sb: dict) -> dict:
    """B - A of quantity ``q`` between points with their own random streams (Welch, from the sums)."""
    m = q.base
    k = float(m.scale)
    r = metrics.welch_test(
        sa["s"][m.name] / k,
        sa["q"][m.name] / k / k,
        sa["n"][m.name],
        sb["s"][m.name] / k,
        sb["q"][m.name] / k / k,
        sb["n"][m.name],
    )
    return {
        "diff": r["diff"],
        "ci95": r["ci95"],
        "p": r["p"],
        "se": r["se"],
        "n": min(sa["n"][m.name], sb["n"][m.name]),
        "paired": False,
    }


ALPHA = 0.05  # family-wise level of the many-points test (as `sim compare`'s default)
POWER = 0.8  # the chance of detecting a difference as large as the largest seen, for `games_needed`


def against_own(tests: list[dict], games: int, alpha: float = ALPHA, margins: dict[str, float] | None = None) -> dict:
    """Every point against the scenario's own point, Holm-corrected for testing many points and measures at once.

    ``tests``: one dict per (point, measure) with ``point``, ``measure``, ``diff``, ``ci95``, ``p`` and ``se``
    (`paired_difference` / `independent_difference` of the point against the scenario's own). Returns {"tested":
    number of tests, "points": number of points tested, "alpha", "differ": the tests that survive Holm (each with
    ``p_holm``), "games_needed": games a point that would resolve, with power `POWER` after the same correction, the
    largest difference seen (None when every difference is 0), "games": ``games``}. A point differing by chance is
    expected among many: only what survives the correction is named as a difference.

    With ``margins`` (the equivalence margin of each measure, in its unit: `sim.stats.verdict`), every test also gets
    its verdict (``verdict``: unchanged / changed / cannot_tell, ``margin``, ``p_equiv_holm``, ``more_games``), the
    TOST p-values Holm-adjusted over the tests as the differences are, and "verdicts" counts each kind; "differ" then
    holds the changed ones (shown beyond the margin: `sim.stats.verdict`)."""
    from sim.stats import verdict as V

    ok = [t for t in tests if t["p"] is not None and t["se"] is not None]
    adj = metrics.holm([t["p"] for t in ok]) if ok else []
    differ = [dict(t, p_holm=q) for t, q in zip(ok, adj) if q <= alpha]
    counts: dict[str, int | None] | None = None
    if margins is not None and ok:
        judged = []
        p_eq = [V.tost_p(t["diff"], t["se"], margins[t["measure"]]) for t in ok]
        for t, q, pe, qe in zip(ok, adj, p_eq, metrics.holm(p_eq)):
            v = V.judge(t["diff"], t["se"], margins[t["measure"]], t["n"], q, qe, alpha, t["p"], pe)
            judged.append(dict(t, p_holm=q, margin=v.margin, p_equiv_holm=qe, verdict=v.kind, more_games=v.more_games))
        differ = [t for t in judged if t["verdict"] == V.CHANGED]
        counts = {str(k): sum(t["verdict"] == k for t in judged) for k in (V.UNCHANGED, V.CHANGED, V.CANNOT_TELL)}
        unsure = [t["more_games"] for t in judged if t["verdict"] == V.CANNOT_TELL and t["more_games"]]
        counts["more_games"] = max(unsure) if unsure else None
    need = None
    if ok:
        from scipy import stats

        z = float(stats.norm.ppf(1 - alpha / (2 * len(ok)))) + float(stats.norm.ppf(POWER))
        ratios = [(z * t["se"] / abs(t["diff"])) ** 2 for t in ok if t["diff"] and t["se"] > 0]
        if ratios:
            need = int(math.ceil(games * min(ratios)))
    return {
        "tested": len(ok),
        "points": len({t["point"] for t in ok}),
        "alpha": alpha,
        "differ": differ,
        "verdicts": counts,
        "games_needed": need,
        "games": games,
    }


def target_summary(sw, rows: list[dict]) -> dict | None:
    """With a target (measure, value): the points whose interval contains it, the closest point, and for one
    numeric axis the crossings (where the curve passes the target between neighbouring points, by linear
    interpolation of the estimates)."""
    if sw.target is None:
        return None
    from sim.model.sweep_axis import is_numeric

    name, t = sw.target
    vals = [(r["index"], Estimate.of(r["measures"][name])) for r in rows]
    containing = [i for i, v in vals if v.contains(t)]
    have = [(i, v.value) for i, v in vals if v.value is not None]
    closest = min(have, key=lambda iv: (abs(iv[1] - t), iv[0]))[0] if have else None
    crossings = []
    if len(sw.axes) == 1 and is_numeric(sw.axes[0]):
        xs = sw.axes[0].values
        for (i, a), (j, b) in zip(have, have[1:]):
            fa, fb = a - t, b - t
            if fa == 0:
                crossings.append(float(xs[i]))
            elif fa * fb < 0:
                crossings.append(float(xs[i] + (xs[j] - xs[i]) * fa / (fa - fb)))
        if have and have[-1][1] == t:
            crossings.append(float(xs[have[-1][0]]))
    return {
        "measure": name,
        "value": t,
        "containing": containing,
        "closest": closest,
        "crossings": sorted(set(crossings)),
    }


def frame(sw, rows: list[dict]):
    """sweep.parquet as a Polars frame: one row per point; the axis values (lists and text as TOML text), games,
    and every measure with its interval: ``<m>``, ``<m>.lo``, ``<m>.hi``, ``<m>.n``."""
    import polars as pl

    from sim.model.scenario import toml_value
    from sim.model.sweep_axis import is_numeric

    cols: dict[str, list] = {"point": [r["index"] for r in rows]}
    for ax in sw.axes:
        num = is_numeric(ax)
        cols[ax.name] = [r["values"][ax.name] if num else toml_value(r["values"][ax.name]) for r in rows]
    default = sw_default(sw)  # found before the loop: every row is compared with it
    cols["scenario_point"] = [r["index"] == default for r in rows]
    cols["games"] = [r["games"] for r in rows]
    names = list(rows[0]["measures"]) if rows else []
    for n in names:
        m = [Estimate.of(r["measures"][n]) if r["measures"].get(n) else Estimate(None, None) for r in rows]
        cols[n] = [x.value for x in m]
        cols[f"{n}.lo"] = [x.lo if x.ci95 else None for x in m]
        cols[f"{n}.hi"] = [x.hi if x.ci95 else None for x in m]
        cols[f"{n}.n"] = [x.n for x in m]
    if rows and any(r.get("minutes") for r in rows):  # playing time (turns x seconds_per_turn / 60)
        mins = [Estimate.of(r["minutes"]) if r.get("minutes") else Estimate(None, None) for r in rows]
        cols["minutes"] = [x.value for x in mins]
        cols["minutes.lo"] = [x.lo if x.ci95 else None for x in mins]
        cols["minutes.hi"] = [x.hi if x.ci95 else None for x in mins]
    schema = {
        k: (
            pl.Float64
            if k not in ("point", "games", "scenario_point")
            and not k.endswith(".n")
            and k not in {a.name for a in sw.axes}
            else None
        )
        for k in cols
    }
    return pl.DataFrame({k: pl.Series(k, v, dtype=schema[k]) for k, v in cols.items()})


def sw_default(sw) -> int | None:
    """The point that plays the scenario file as written (its [sweep] aside: what the kernel is given, defaults
    filled in, is the same), or None when no point does."""
    b = sw.base
    for p in sw.points:
        s = p.scenario
        if (
            s.players == b.players
            and np.array_equal(s.prm(), b.prm())
            and np.array_equal(s.sids(), b.sids())
            and np.array_equal(s.sparams(), b.sparams())
        ):
            return p.index
    return None


def resolve(sw) -> None:
    """Check a built sweep's measures and target against every point's measures and fix them on ``sw``
    (``sw.measures``: the chosen names, the default per kind of game when none were given; ``sw.target``:
    (measure, value), its measure added to the chosen ones). Raises SweepError naming where the bad name came
    from (``--measure`` / ``[sweep] measures``, ``--target`` / ``[sweep] target``) and the names allowed."""
    from sim.model.sweep_axis import SweepError

    try:
        sw.measures = check_measures(sw, sw.measures)
    except SweepError as e:
        raise SweepError(f"{sw.measure_source}: {e}") from None
    tgt = sw.target_text
    if not tgt:
        return
    try:
        sw.target = parse_target(sw, tgt)
    except SweepError as e:
        msg = str(e)
        if sw.target_source != "--target" and msg.startswith("--target"):  # it came from the file's table
            msg = "[sweep] target" + msg.removeprefix("--target")
        raise SweepError(
            msg if msg.startswith(("--target", "[sweep] target")) else f"{sw.target_source} {tgt}: {msg}"
        ) from None
    if sw.target[0] not in sw.measures:
        sw.measures.append(sw.target[0])


def check_margins(sw) -> None:
    """A --margin entry must name a swept measure; raises SweepError naming it and the measures allowed."""
    from sim.model.sweep_axis import SweepError

    for k in sw.margins:
        if k not in sw.measures:
            raise SweepError(
                f"--margin: '{k}' is not a swept measure; {did_you_mean(k, sw.measures)}allowed: {', '.join(sw.measures)}"
            )
