"""A/B comparison of two scenarios on common random numbers (`sim compare A.toml B.toml`). This module computes
only; its pages (compare.md, compare.html, the terminal text) are `sim.pages.compare_page`'s, which the CLI calls.

Both scenarios play the same game indices from the same seed, so game g of A and game g of B see the same dice
wherever the rules let them (the RNG contract keys every draw by (seed, point, game, stream)). Per-game outcomes
are therefore *paired*: for each measure (sim.stats.measures) we accumulate the integer sums of a_g, b_g and of the paired
difference d_g = b_g - a_g chunk by chunk (bounded memory). The difference B - A gets a normal 95% interval from
the variance of d_g, which is smaller than the unpaired variance whenever the pairing correlates the two sides
(the report shows the ratio as "pairing gain": how many times more games an unpaired comparison would need).
The interval of a rate's difference (a win rate, a share) is clipped to [-1, 1], the range a difference of two
shares can take (the normal interval overshoots it with few games); the point estimate is never changed.

What can be compared. Scenarios of different games are refused (CompareError: their rules and measures have
nothing in common). Within one game only measures with the same meaning on both sides are compared; the others are
listed under "not compared" with the reason, and a note says why:
  - a measure defined on one side only (a team role present on one side, a seat only the larger table has);
  - different player counts: the per-seat and per-player measures (win.seat<i>, win.<strategy>, first_player.win,
    score.seat<i>) are dropped, since their fair shares and seat sets differ
    (a 2-player seat wins half the games, a 4-player one a quarter); game-level measures (team win rates, tie,
    margin, length, game counters) remain;
  - same player count but different roles at some seats (a Head Haunter game against a cooperative one): the seat
    measures of those seats, first_player.win and the per-strategy win rates are dropped; the win rate of a team
    both sides have (team.hunter) is kept, with a note that the teams differ.

Significance: two-sided z-test of mean(d) = 0 per measure (exact McNemar test for indicators such as a team win or
an outcome share), Holm-corrected over every measure compared. A measure paired over fewer than
metrics.MIN_GAMES_FOR_TESTS games (the threshold below which `sim run` says its tests mean nothing) is not tested at
all (p None, "too_few_games": a verdict of "real difference" from 2 games, whose differences may all be the same and
so have zero variance, would be noise called certainty); its estimate and interval are still reported.

The seat spread (``seat_spread``: highest seat win rate minus the lowest; competitive games with the same seats on
both sides) is a function of the seats' win rates, not a per-game mean: its row comes from a paired bootstrap over
the game indices (`sim.stats.spread_compare`: the joint table of A's and B's winners, resampled from a generator
seeded by the comparison's seed), whose percentile interval, two-sided p-value and TOST p-value (the whole (1 - 2
alpha) interval inside +/-margin) join the same Holm families as every other measure. The first-player advantage
(start player's win rate minus 1/players) needs no row of its own: with the same players its B - A is exactly
first_player.win's, and ``--margin first_player_advantage=X`` is that row's margin.

Stopping rules (one at a time): a fixed number of games; ``precision`` (play on until every compared win rate's
difference interval has half-width <= precision, or the game cap); or a sequential probability ratio test of one
measure, stopping as soon as it decides. The SPRT is fishtest's GSPRT (Wald's SPRT with the variance of d_g
estimated from the data, normal approximation; alpha = beta = 0.05, bounds ln(beta / (1 - alpha)) and
ln((1 - beta) / alpha) = ±ln 19): sim.stats.metrics.sprt_llr.
  - One-sided (default, as in fishtest): H0: diff = 0 against H1: diff = effect, effect signed. Accepting H0 means
    only that the data favour "no change" over "a change of `effect`": it does not rule out smaller changes, and a
    large change of the opposite sign also ends in H0 (its likelihood ratio points away from H1). So whenever the
    estimate lies on the other side of 0 from `effect` the result says so, and says too when its 95% interval
    excludes 0 (then B differs from A in the direction the test was not looking at).
  - Two-sided (``two_sided``): H0: diff = 0 against H1: diff = +|effect| or diff = -|effect|: two one-sided
    GSPRTs run together, each at alpha / 2 (after Sobel & Wald 1949, a sequential choice between three hypotheses
    about a normal mean). H1 is accepted in the direction whose LLR reaches ln((1 - beta) / (alpha / 2)) first,
    H0 once both LLRs are at or below ln(beta / (1 - alpha / 2)). The false-alarm rate stays at most about alpha,
    the power in either direction about 1 - beta; it needs somewhat more games than the one-sided test.
Accepting H1 means the data favour a change of `effect` over no change; how large the change is, the difference's
interval says, not `effect`. References: A. Wald, Sequential tests of statistical hypotheses, Ann. Math. Statist. 16
(1945) 117-186; M. Sobel and A. Wald, A sequential decision procedure for choosing one of three hypotheses concerning
the unknown mean of a normal distribution, Ann. Math. Statist. 20 (1949) 502-522; fishtest (Stockfish's testing
framework) for the GSPRT with an estimated variance.
Zero variance: when every paired difference of the watched measure is the same (B plays the same games as A as far
as it sees, so d_g = 0 throughout), the likelihood ratio cannot move and the test would run to the cap; it stops at
its first decision point (MIN_GAMES) with state "zero_variance" and says so.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from sim.model.errors import SimError
from sim.model.scenario import Scenario
from sim.model.words import did_you_mean, with_sign
from sim.stats import metrics
from sim.stats.measures import PairedSums, is_cooperative
from sim.stats.spread_compare import NAME as SPREAD_NAME
from sim.stats.spread_compare import SpreadDiff, paired_bootstrap, seat_wins

DEFAULT_CHUNK = 10_000
SPREAD = SPREAD_NAME  # the seat spread's row (catalogue key `seat_spread`)
MIN_GAMES = 10_000  # precision / SPRT never stop before this many paired games (stable variance estimates)
DEFAULT_CAP = 2_000_000


class CompareError(SimError, ValueError):
    """The two scenarios cannot be compared (one line)."""


@dataclass
class Sprt:
    metric: str | None  # None: default_metric(A)
    effect: float
    alpha: float = 0.05
    beta: float = 0.05
    two_sided: bool = False  # H1: diff = ±|effect| (see the module docstring)


def default_metric(sc: Scenario) -> str:
    """The measure an SPRT watches when none is named: the first team's win rate (cooperative games), else the
    first-player win rate (the classic balance question)."""
    if is_cooperative(sc):
        role = sc.spec.roles(sc.params, sc.players)[0]
        return f"team.{role}"
    return "first_player.win"


def is_win_rate(name: str) -> bool:
    return name.startswith(("win.", "first_player.win", "team."))


def _side(total: int, squares: int, n: int, scale: int, kind: str) -> tuple[float, list[float]]:
    if kind == "rate":
        x = total / scale
        lo, hi = metrics.wilson(x, n)
        return (x / n if n else 0.0), [lo, hi]
    m, lo, hi = metrics.mean_ci(total / scale, squares / (scale * scale), n)
    return m, [lo, hi]


def clip_diff(ci: list[float], kind: str) -> list[float]:
    """A difference interval clipped to the range the difference can take: [-1, 1] for a rate; means unchanged."""
    if kind != "rate":
        return list(ci)
    return [max(-1.0, min(1.0, ci[0])), max(-1.0, min(1.0, ci[1]))]


MARGIN_ALIASES = {"first_player_advantage": "first_player.win"}  # the run's name for the start player's edge


def resolve_margins(
    margins: dict[str, float] | None, names: list[str], elsewhere: Sequence[str] = ()
) -> dict[str, float]:
    """``--margin`` entries keyed by the compared measures' names (``first_player_advantage`` is the start player's
    win rate); an entry naming one of ``elsewhere`` only (measures compared apart: `sim compare --arc --sample`'s
    rollout measures) is left out. Raises CompareError naming an entry that is neither."""
    out: dict[str, float] = {}
    for key, v in (margins or {}).items():
        name = MARGIN_ALIASES.get(key, key)
        if name not in names and name in elsewhere:
            continue
        if name not in names:
            allowed = [*names, *(k for k, v in MARGIN_ALIASES.items() if v in names), *elsewhere]
            from sim.stats.arc import rollout_measure_names

            # a rollout measure without --sample is no misspelling: no guess at a per-game measure
            guess = "" if key in rollout_measure_names() else did_you_mean(key, allowed)
            raise CompareError(f"--margin: '{key}' is not a compared measure; {guess}allowed: {', '.join(allowed)}")
        out[name] = v
    return out


def evaluate(ps: PairedSums, alpha: float, margins: dict[str, float] | None = None, seed: int = 0) -> list[dict]:
    """One row per compared measure: both values with 95% intervals, B - A with its paired 95% interval (clipped to
    [-1, 1] for rates), the unpaired standard error (for the pairing gain), raw and Holm-adjusted p-values,
    significance at ``alpha``, and the verdict at the measure's equivalence margin (`sim.stats.verdict`: ``margin``
    in the measure's unit, a rate's as a fraction; ``p_equiv`` the TOST p-value and ``p_equiv_holm`` Holm-adjusted
    over the measures tested; ``verdict`` unchanged / changed / cannot_tell; ``more_games``). ``margins``:
    overrides by measure name (`resolve_margins`). Where ``ps.joint`` is kept (both sides competitive, the same
    seats) a ``seat_spread`` row follows the start player's: its interval and tests from the paired bootstrap of
    `sim.stats.spread_compare` (seeded by ``seed``), in the same Holm families as every other measure."""
    rows = []
    for m in ps.measures:
        a = ps.acc[m.name]
        n, k = a["n"], m.scale
        va, ca = _side(a["sa"], a["qa"], n, k, m.kind)
        vb, cb = _side(a["sb"], a["qb"], n, k, m.kind)
        pd = metrics.paired_diff(a["sd"] / k, a["qd"] / (k * k), n)
        _, var_a = metrics.moments(a["sa"] / k, a["qa"] / (k * k), n)
        _, var_b = metrics.moments(a["sb"] / k, a["qb"] / (k * k), n)
        se_un = math.sqrt((var_a + var_b) / n) if n else 0.0
        identical = a["sd"] == 0 and a["qd"] == 0
        few = metrics.too_few_for_tests(n)  # no test from so few pairs (see the module docstring)
        p, test = pd["p"], "paired z"
        if m.binary and k == 1:  # d in {-1, 0, 1}: exact McNemar on the discordant games
            p, test = metrics.mcnemar_exact((a["qd"] + a["sd"]) // 2, (a["qd"] - a["sd"]) // 2), "McNemar exact"
        rows.append(
            {
                "name": m.name,
                "label": m.label,
                "kind": m.kind,
                "unit": m.unit,
                "n": n,
                "a": va,
                "a_ci95": ca,
                "b": vb,
                "b_ci95": cb,
                "diff": pd["diff"],
                "diff_ci95": clip_diff(pd["ci"], m.kind),
                "se_paired": pd["se"],
                "se_unpaired": se_un,
                "pairing_gain": (se_un / pd["se"]) ** 2 if pd["se"] > 0 else None,
                "identical": identical,
                "too_few_games": few,  # identical over 2 games is no evidence that A and B play the same
                "test": None if few else test,
                "p": None if identical or few else p,
            }
        )
    boot = {}
    if ps.joint is not None and ps.a.players == ps.b.players:
        boot[SPREAD] = paired_bootstrap(ps.joint.table, ps.a.players, seed)
        after = max((i + 1 for i, r in enumerate(rows) if r["name"].startswith(("win.", "first_player."))), default=0)
        rows.insert(after, _spread_row(ps, boot[SPREAD]))
    tested = [r for r in rows if r["p"] is not None]
    adj = metrics.holm([r["p"] for r in tested])
    for r, q in zip(tested, adj):
        r["p_holm"] = q
        r["significant"] = q <= alpha
    for r in rows:
        if r["p"] is None:
            r["p_holm"] = None
            r["significant"] = False
    _judge(rows, alpha, margins or {}, ps.a.game, boot)
    return rows


def _spread_row(ps: PairedSums, d: SpreadDiff) -> dict:
    """The seat spread's row of `evaluate` from its paired bootstrap ``d``: each side's spread with the simultaneous
    Wilson interval of `sim.stats.ladder_fit.seat_spread` (the one run reports give), B - A with the bootstrap's
    percentile interval and p-value (`sim.stats.spread_compare`)."""
    from sim.model import catalogue
    from sim.stats.ladder_fit import seat_spread

    assert ps.joint is not None
    n, players = d.n, ps.a.players
    side = [seat_spread(list(seat_wins(ps.joint.table, players, s)), n, players) for s in (0, 1)] if n else None
    none = [0.0, 1.0]  # no game finished on both sides: the spread may be anything
    few = metrics.too_few_for_tests(n)
    e = catalogue.for_scenario(ps.a).entry(SPREAD)
    return {
        "name": SPREAD,
        "label": e.label,
        "kind": "rate",
        "unit": e.unit,
        "n": n,
        "a": d.a,
        "a_ci95": side[0]["ci95"] if side else none,
        "b": d.b,
        "b_ci95": side[1]["ci95"] if side else none,
        "diff": d.diff,
        "diff_ci95": [0.0, 0.0] if d.identical else d.interval(),
        "se_paired": d.se,
        "se_unpaired": d.se_unpaired,
        "pairing_gain": (d.se_unpaired / d.se) ** 2 if d.se > 0 else None,
        "identical": d.identical,
        "too_few_games": few,
        "test": None if few else f"paired bootstrap ({len(d.replicates):,} resamples of the games)",
        "p": None if d.identical or few else d.p_diff(),
    }


def margin_kind(name: str, kind: str, game: str | None) -> str:
    """The catalogue kind that sets a measure's default margin: a rate is a rate; a mean is the catalogue's count,
    points or turns (a measure the catalogue lacks: count)."""
    from sim.model import catalogue

    if kind == "rate":
        return "rate"
    e = catalogue.lookup(name, game)
    return e.kind if e is not None and e.kind != "rate" else "count"


def _judge(
    rows: list[dict], alpha: float, margins: dict[str, float], game: str | None, boot: dict[str, SpreadDiff]
) -> None:
    """Each row's verdict (sim.stats.verdict) at its margin; the TOST p-values Holm-adjusted over the rows tested.
    A row in ``boot`` takes its equivalence and beyond-the-margin p-values from its bootstrap, not the normal."""
    from sim.stats import verdict as V

    for r in rows:
        m = V.margin_for(r["name"], margin_kind(r["name"], r["kind"], game), margins)
        r["margin"] = m.value(r["a"])
        r["margin_source"] = m.source
        se = r["se_paired"]
        b = boot.get(r["name"])
        tost = V.tost_p(r["diff"], se, r["margin"]) if b is None or b.identical else b.p_equiv(r["margin"])
        r["p_equiv"] = None if r.get("too_few_games") else tost
    tested = [r for r in rows if r["p_equiv"] is not None]
    for r, q in zip(tested, metrics.holm([r["p_equiv"] for r in tested])):
        r["p_equiv_holm"] = q
    for r in rows:
        if r["p_equiv"] is None:
            r["p_equiv_holm"] = None
            r["verdict"], r["more_games"] = V.CANNOT_TELL, None
            continue
        p_diff = 1.0 if r["p_holm"] is None else r["p_holm"]  # None: identical pairs, no difference to find
        b = boot.get(r["name"])
        v = V.judge(
            r["diff"],
            r["se_paired"],
            r["margin"],
            r["n"],
            p_diff,
            r["p_equiv_holm"],
            alpha,
            r["p"],
            r["p_equiv"],
            beyond=None if b is None or b.identical else b.p_beyond(r["margin"]),
        )
        r["verdict"], r["more_games"] = v.kind, v.more_games


def check_comparable(sa: Scenario, sb: Scenario) -> None:
    if sa.game != sb.game:
        raise CompareError(f"cannot compare different games: A is '{sa.game}', B is '{sb.game}'")


_PER_SEAT = ("win.", "first_player.", "score.seat", SPREAD_NAME)  # (the start seat, extra.first_seat: never)


def _seat_of(name: str) -> int | None:
    for pre in ("win.seat", "score.seat"):
        if name.startswith(pre) and name[len(pre) :].isdigit():
            return int(name[len(pre) :])
    return None


def not_comparable(sa: Scenario, sb: Scenario, names: list[str]) -> tuple[dict[str, str], list[str]]:
    """Of the measures both sides define (``names``), those whose meaning differs between A and B, each with the
    reason, and the notes for the report (see the module docstring). Refuses different games."""
    check_comparable(sa, sb)
    drop: dict[str, str] = {}
    notes: list[str] = []
    ra, rb = list(sa.spec.roles(sa.params, sa.players)), list(sb.spec.roles(sb.params, sb.players))
    if sa.players != sb.players:
        why = f"A has {sa.players} players, B {sb.players}: per-seat measures have different fair shares"
        drop = {n: why for n in names if n.startswith(_PER_SEAT)}
        notes.append(
            f"A has {sa.players} players and B {sb.players}: only game-level measures are compared; "
            "per-seat and per-player ones (win.seat*, win.<strategy>, first_player.win, score.seat*, seat_spread) "
            "are not, since their fair shares and seat sets differ"
        )
    elif ra != rb:
        seats = [i for i, (x, y) in enumerate(zip(ra, rb)) if x != y]
        why = "the seat's role differs between A and B"
        for n in names:
            s = _seat_of(n)
            if (
                (s is not None and s in seats)
                or n.startswith("first_player.")
                or (n.startswith("win.") and s is None)
                or n == SPREAD_NAME
            ):
                drop[n] = why if s is not None else "the roles at the table differ between A and B"
        notes.append(
            "the seats' roles differ (A: "
            + ", ".join(ra)
            + "; B: "
            + ", ".join(rb)
            + "): the measures of "
            + ("seat " if len(seats) == 1 else "seats ")
            + ", ".join(map(str, seats))
            + ", the first-player and per-strategy win rates and the seat spread are not compared"
        )
    if ra != rb:
        for n in names:
            if n.startswith("team.") and n not in drop:
                notes.append(
                    f"{n} is compared although the teams differ (A: {_team(ra)}; B: {_team(rb)}): it "
                    "answers how often that side wins in each setup"
                )
    return drop, notes


def keep_comparable(ps: PairedSums) -> tuple[dict[str, str], list[str], list[str]]:
    """Leave in ``ps`` only the measures with the same meaning in A and B (`not_comparable`; the seat spread among
    them where ``ps.joint`` is kept). Returns (the measures left out with the reason, the notes, the names of those
    compared, the seat spread's included)."""
    spread = [SPREAD] if ps.joint is not None else []  # both sides competitive
    drop, notes = not_comparable(ps.a, ps.b, [m.name for m in ps.measures] + spread)
    ps.measures = [m for m in ps.measures if m.name not in drop]
    for name in drop:
        if name == SPREAD:
            ps.joint = None
        else:
            del ps.acc[name]
    return drop, notes, [m.name for m in ps.measures] + ([SPREAD] if ps.joint is not None else [])


def _team(roles: list[str]) -> str:
    from collections import Counter

    return " + ".join(f"{k} {r}" + ("s" if k > 1 else "") for r, k in Counter(roles).items())


def check_sprt(s: Sprt, sa: Scenario, ps: PairedSums, drop: dict[str, str], names: list[str]) -> Sprt:
    """The SPRT with its measure resolved, or CompareError (one line) when the measure or effect cannot work."""
    from dataclasses import replace

    metric = s.metric or default_metric(sa)
    if metric not in names:
        one_side = ps.only_a + ps.only_b
        why = (
            f"is not comparable here ({drop[metric]})"
            if metric in drop
            else "is defined on one side only"
            if metric in one_side
            else None
        )
        if not s.metric:
            raise CompareError(
                f"--sprt watches '{metric}' by default, but it {why or 'is not compared'}; name a "
                f"measure with --metric, allowed: {', '.join(names)}"
            )
        raise CompareError(
            f"--metric: '{metric}' {why}; allowed: {', '.join(names)}"
            if why
            else f"--metric: unknown measure '{metric}'; {did_you_mean(metric, names)}allowed: {', '.join(names)}"
        )
    m = next(x for x in ps.measures if x.name == metric)
    if m.kind == "rate" and not abs(s.effect) < 1:
        raise CompareError(
            f"--sprt: {s.effect:g} is not a possible change of the rate {metric} "
            "(a difference of two shares lies within ±1); e.g. 0.01 = 1 percentage point"
        )
    if not (0 < s.alpha < 1 and 0 < s.beta < 1):
        raise CompareError(f"SPRT alpha {s.alpha} and beta {s.beta} must lie in (0, 1)")
    return replace(s, metric=metric)


def side_info(sc: Scenario) -> dict:
    """One side of compare.json: its name, file, game, players, the scenario as given and its seats as played
    (``seats_played``: every parameter with its value, a search seat's "auto" tie-break resolved, as
    provenance.json's seats)."""
    from sim.model.search import seats_as_played

    return {
        "name": sc.name,
        "file": sc.path,
        "game": sc.game,
        "players": sc.players,
        "scenario": sc.to_dict(),
        "seats_played": seats_as_played(sc),
    }


def precision_status(ps: PairedSums, precision: float) -> dict:
    z = metrics.z_value()
    worst, worst_name = 0.0, None
    for m in ps.measures:
        if not is_win_rate(m.name):
            continue
        a = ps.acc[m.name]
        k = m.scale
        d = metrics.paired_diff(a["sd"] / k, a["qd"] / (k * k), a["n"])
        h = z * d["se"]
        if worst_name is None or h > worst:
            worst, worst_name = h, m.name
    reached = worst_name is None or worst <= precision
    msg = (
        f"precision reached: every win-rate difference interval has half-width <= {precision} "
        f"(worst {worst:.4f}, {worst_name}) after {ps.games:,} games"
    )
    return {
        "target": precision,
        "reached": reached,
        "worst_half_width": worst,
        "worst_metric": worst_name,
        "message": msg,
    }


def sprt_decide(sum_d: float, sq_d: float, n: int, s: Sprt) -> dict:
    """The SPRT's state from the paired sums: llr (two-sided: the larger of the two one-sided LLRs), bounds,
    state ('H1', 'H0' or 'continue') and, for H1, the direction of the accepted change (+1 or -1)."""
    if not s.two_sided:
        llr = metrics.sprt_llr(sum_d, sq_d, n, 0.0, s.effect)
        state = metrics.sprt_state(llr, s.alpha, s.beta)
        return {
            "llr": llr,
            "bounds": list(metrics.sprt_bounds(s.alpha, s.beta)),
            "state": state,
            "direction": (1 if s.effect > 0 else -1) if state == "H1" else None,
        }
    e = abs(s.effect)
    up = metrics.sprt_llr(sum_d, sq_d, n, 0.0, e)
    down = metrics.sprt_llr(sum_d, sq_d, n, 0.0, -e)
    llr = max(up, down)
    state = metrics.sprt_state(llr, s.alpha / 2, s.beta)  # H0 needs both LLRs at or below the lower bound
    return {
        "llr": llr,
        "llr_up": up,
        "llr_down": down,
        "bounds": list(metrics.sprt_bounds(s.alpha / 2, s.beta)),
        "state": state,
        "direction": (1 if up >= down else -1) if state == "H1" else None,
    }


def sprt_status(ps: PairedSums, s: Sprt) -> dict:
    m = next(x for x in ps.measures if x.name == s.metric)
    a = ps.acc[m.name]
    k = m.scale
    dec = sprt_decide(a["sd"] / k, a["qd"] / (k * k), a["n"], s)
    llr, (lo, hi), state = dec["llr"], dec["bounds"], dec["state"]
    d = metrics.paired_diff(a["sd"] / k, a["qd"] / (k * k), a["n"])
    n = int(a["n"])
    if n >= 2 and int(a["qd"]) * n == int(a["sd"]) ** 2:  # exact integers: every paired difference is the same
        state = "zero_variance"
    ci = clip_diff(d["ci"], m.kind)
    # a rate's effect and estimate in percentage points, as the comparison table says them (--sprt 0.01: +1 point)
    rate = m.kind == "rate"
    x = (lambda v: f"{with_sign(100 * v, 2)}") if rate else (lambda v: f"{with_sign(v, 4)}")
    eff_txt = (lambda v: f"{100 * v:+g} point" + ("" if abs(100 * v) == 1 else "s")) if rate else (lambda v: f"{v:+g}")
    est = f"B - A = {x(d['diff'])} [{x(ci[0])}, {x(ci[1])}]" + (" points" if rate else "")
    e = abs(s.effect)
    if s.two_sided:
        hyp = f"H0: diff = 0 against H1: diff = {eff_txt(e)} or {eff_txt(-e)} (two-sided)"
        alt = f"a change of ±{eff_txt(e)[1:]}"
    else:
        hyp = f"H0: diff = 0 against H1: diff = {eff_txt(s.effect)} (one-sided)"
        alt = f"a change of {eff_txt(s.effect)}"
    if state == "H1":
        eff = dec["direction"] * e
        conclusion = (
            f"H1 accepted: the data favour a change of {eff_txt(eff)} in {s.metric} over no change "
            "(how large the change is, the interval says)"
        )
    elif state == "H0":
        conclusion = f"H0 accepted: the data favour no change over {alt} in {s.metric}; this does not rule out " + (
            "smaller changes" if s.two_sided else "smaller or opposite-sign changes"
        )
    elif state == "zero_variance":
        same = int(a["sd"]) == 0
        conclusion = (
            f"cannot decide: in all {n} paired games B - A of {s.metric} is exactly "
            f"{eff_txt(int(a['sd']) / k / n)}"
            + (" (A and B play identical games as far as it sees)" if same else "")
            + "; with zero variance the likelihood ratio cannot move, so the SPRT would never stop. "
            f"Check that B changes something {s.metric} measures, or compare with --games"
        )
    else:
        conclusion = f"undecided: LLR {llr:.2f} within ({lo:.2f}, {hi:.2f})"
    # one-sided: an estimate on the other side of 0 from the effect is what this test cannot see
    opposite = (not s.two_sided) and d["diff"] * s.effect < 0
    opposite_sig = opposite and (ci[0] > 0 or ci[1] < 0)
    note = None
    if opposite:
        note = f"the estimate lies on the other side of 0 from the effect {eff_txt(s.effect)}" + (
            f" and its 95% interval excludes 0: B - A is {'negative' if d['diff'] < 0 else 'positive'}, "
            f"a direction this one-sided test does not look at (test it with --sprt {-s.effect:+g} or "
            "--two-sided)"
            if opposite_sig
            else ""
        )
    msg = f"SPRT after {ps.games:,} games: {conclusion}; {est}" + (f"; note: {note}" if note else "")
    out = {
        "metric": s.metric,
        "effect": s.effect,
        "two_sided": s.two_sided,
        "hypotheses": hyp,
        "alpha": s.alpha,
        "beta": s.beta,
        "llr": llr,
        "bounds": [lo, hi],
        "state": state,
        "direction": dec["direction"],
        "games": ps.games,
        "estimate": d["diff"],
        "ci95": ci,
        "opposite_sign": opposite,
        "opposite_sign_significant": opposite_sig,
        "conclusion": conclusion,
        "note": note,
        "message": msg,
    }
    if s.two_sided:
        out["llr_up"], out["llr_down"] = dec["llr_up"], dec["llr_down"]
    return out
