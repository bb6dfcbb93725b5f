"""A/B comparison of two scenarios on common random numbers (`sim compare A.toml B.toml`).

Both scenarios play the same game indices from the same seed, so game g of A and game g of B see the same dice
wherever the rules let them (the RNG contract keys every draw by (seed, point, game, stream)). Per-game outcomes
are therefore *paired*: for each measure (sim.measures) we accumulate the integer sums of a_g, b_g and of the paired
difference d_g = b_g - a_g chunk by chunk (bounded memory). The difference B - A gets a normal 95% interval from
the variance of d_g, which is smaller than the unpaired variance whenever the pairing correlates the two sides
(the report shows the ratio as "pairing gain": how many times more games an unpaired comparison would need).

Significance: two-sided z-test of mean(d) = 0 per measure (exact McNemar test for indicators such as a team win or
an outcome share), Holm-corrected over every measure compared.
Stopping rules: a fixed number of games; ``precision`` (play on until every compared win rate's difference interval
has half-width <= precision, or the game cap); or a sequential probability ratio test (fishtest style, GSPRT with
the variance estimated from the data, alpha = beta = 0.05, bounds ±ln 19) of H0: diff = 0 against H1: diff = effect
for one measure, stopping as soon as either is accepted.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from sim import metrics, runner
from sim.measures import PairedSums, is_cooperative
from sim.scenario import Scenario

DEFAULT_CHUNK = 10_000
MIN_GAMES = 10_000        # precision / SPRT never stop before this many paired games (stable variance estimates)
DEFAULT_CAP = 2_000_000


class CompareError(ValueError):
    """The two scenarios cannot be compared (one line)."""


@dataclass
class Sprt:
    metric: str
    effect: float
    alpha: float = 0.05
    beta: float = 0.05


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


def evaluate(ps: PairedSums, alpha: float) -> list[dict]:
    """One row per compared measure: both values with 95% intervals, B - A with its paired 95% interval, the
    unpaired standard error (for the pairing gain), raw and Holm-adjusted p-values, significance at ``alpha``."""
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
        p, test = pd["p"], "paired z"
        if m.binary and k == 1:     # d in {-1, 0, 1}: exact McNemar on the discordant games
            p, test = metrics.mcnemar_exact((a["qd"] + a["sd"]) // 2, (a["qd"] - a["sd"]) // 2), "McNemar exact"
        rows.append({"name": m.name, "label": m.label, "kind": m.kind, "n": n,
                     "a": va, "a_ci95": ca, "b": vb, "b_ci95": cb,
                     "diff": pd["diff"], "diff_ci95": pd["ci"], "se_paired": pd["se"], "se_unpaired": se_un,
                     "pairing_gain": (se_un / pd["se"]) ** 2 if pd["se"] > 0 else None,
                     "identical": identical, "test": test, "p": None if identical else p})
    tested = [r for r in rows if r["p"] is not None]
    adj = metrics.holm([r["p"] for r in tested])
    for r, q in zip(tested, adj):
        r["p_holm"] = q
        r["significant"] = q <= alpha
    for r in rows:
        if r["p"] is None:
            r["p_holm"] = None
            r["significant"] = False
    return rows


def check_comparable(sa: Scenario, sb: Scenario) -> None:
    if sa.game != sb.game:
        raise CompareError(f"cannot compare different games: A is '{sa.game}', B is '{sb.game}'")


def compare(sa: Scenario, sb: Scenario, games: int | None = None, seed: int | None = None,
            threads: int | None = None, chunk: int = DEFAULT_CHUNK, precision: float | None = None,
            max_games: int = DEFAULT_CAP, sprt: Sprt | None = None, alpha: float = 0.05,
            progress: Callable[[int], None] | None = None) -> dict:
    """Play A and B on common random numbers and compare every shared measure. Returns the comparison dict
    (JSON-ready; see module docstring). ``games`` is the fixed game count (default: A's), ignored when
    ``precision`` or ``sprt`` decides when to stop (then ``max_games`` caps the run)."""
    import time

    from sim import report
    check_comparable(sa, sb)
    seed = sa.seed if seed is None else int(seed)
    ps = PairedSums(sa, sb)
    names = [m.name for m in ps.measures]
    if sprt is not None and sprt.metric not in names:
        raise CompareError(f"--metric: unknown measure '{sprt.metric}'; allowed: {', '.join(names)}")
    adaptive = precision is not None or sprt is not None
    target = max_games if adaptive else (sa.games if games is None else int(games))
    t = runner.set_threads(threads)
    args_a = (sa.prm(), sa.sids(), sa.sparams())
    args_b = (sb.prm(), sb.sids(), sb.sparams())
    t0 = time.perf_counter()
    done = 0
    stop = {"rule": "games", "message": f"played the requested {target} games"}
    sprt_out = None
    prec_out = None
    while done < target:
        n = min(chunk, target - done)
        oa = runner.play_chunk(sa, done, n, 0, seed, *args_a)
        ob = runner.play_chunk(sb, done, n, 0, seed, *args_b)
        ps.add(oa, ob)
        done += n
        if progress is not None:
            progress(n)
        if done < MIN_GAMES:
            continue
        if sprt is not None:
            sprt_out = _sprt_status(ps, sprt)
            if sprt_out["state"] != "continue":
                stop = {"rule": "sprt", "message": sprt_out["message"]}
                break
        if precision is not None:
            prec_out = _precision_status(ps, precision)
            if prec_out["reached"] and sprt is None:
                stop = {"rule": "precision", "message": prec_out["message"]}
                break
    else:
        if adaptive:
            stop = {"rule": "cap", "message": f"game cap of {target} reached before "
                    + ("the SPRT decided" if sprt is not None else f"precision ±{precision}")}
    if sprt is not None and sprt_out is None:
        sprt_out = _sprt_status(ps, sprt)
    if precision is not None:
        prec_out = _precision_status(ps, precision)
        if stop["rule"] == "cap" and sprt is None:
            stop["message"] += (f"; worst win-rate half-width {prec_out['worst_half_width']:.4f} "
                                f"({prec_out['worst_metric']})")
    wall = time.perf_counter() - t0
    rows = evaluate(ps, alpha)
    return {
        "schema": 1,
        "a": _side_info(sa), "b": _side_info(sb),
        "seed": seed, "games": done, "threads": t, "chunk": chunk, "alpha": alpha,
        "correction": "holm",
        "metrics": rows,
        "significant": [r["name"] for r in rows if r["significant"]],
        "not_compared": {"only_a": ps.only_a, "only_b": ps.only_b},
        "stop": stop, "precision": prec_out, "sprt": sprt_out,
        "provenance": {"rules_version": sa.spec.rules_version, "rng_contract": _rng_contract(),
                       "git_commit": report.git_commit(), "wall_time_s": round(wall, 3)},
    }


def _rng_contract() -> int:
    from kernels.rng import RNG_CONTRACT
    return RNG_CONTRACT


def _side_info(sc: Scenario) -> dict:
    return {"name": sc.name, "file": sc.path, "game": sc.game, "players": sc.players,
            "scenario": sc.to_dict()}


def _precision_status(ps: PairedSums, precision: float) -> dict:
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
    msg = (f"precision reached: every win-rate difference interval has half-width <= {precision} "
           f"(worst {worst:.4f}, {worst_name}) after {ps.games} games")
    return {"target": precision, "reached": reached, "worst_half_width": worst, "worst_metric": worst_name,
            "message": msg}


def _sprt_status(ps: PairedSums, s: Sprt) -> dict:
    m = next(x for x in ps.measures if x.name == s.metric)
    a = ps.acc[m.name]
    k = m.scale
    llr = metrics.sprt_llr(a["sd"] / k, a["qd"] / (k * k), a["n"], 0.0, s.effect)
    lo, hi = metrics.sprt_bounds(s.alpha, s.beta)
    state = metrics.sprt_state(llr, s.alpha, s.beta)
    d = metrics.paired_diff(a["sd"] / k, a["qd"] / (k * k), a["n"])
    est = f"B - A = {d['diff']:+.4f} [{d['ci'][0]:+.4f}, {d['ci'][1]:+.4f}]"
    if state == "H1":
        msg = f"SPRT accepted H1 (a difference of {s.effect:+g} in {s.metric}) after {ps.games} games: {est}"
    elif state == "H0":
        msg = f"SPRT accepted H0 (no difference of {s.effect:+g} in {s.metric}) after {ps.games} games: {est}"
    else:
        msg = f"SPRT undecided after {ps.games} games (LLR {llr:.2f} in ({lo:.2f}, {hi:.2f})): {est}"
    return {"metric": s.metric, "effect": s.effect, "alpha": s.alpha, "beta": s.beta, "llr": llr,
            "bounds": [lo, hi], "state": state, "games": ps.games, "estimate": d["diff"], "ci95": d["ci"],
            "message": msg}


# --- output ------------------------------------------------------------------------------------------------------

def _fmt(v: float, kind: str) -> str:
    return f"{100 * v:.2f}%" if kind == "rate" else f"{v:.3f}"


def _fmt_d(v: float, kind: str) -> str:
    return f"{100 * v:+.2f}" if kind == "rate" else f"{v:+.4g}"


def fmt_p(p: float | None) -> str:
    if p is None:
        return "-"
    return "<1e-300" if p == 0 else f"{p:.2g}"


def frame(res: dict):
    """The comparison as a Polars table (one row per measure)."""
    import polars as pl
    rows = []
    for r in res["metrics"]:
        k = r["kind"]
        rows.append({
            "measure": r["name"],
            "A": _fmt(r["a"], k), "B": _fmt(r["b"], k),
            "B - A": _fmt_d(r["diff"], k) + (" pts" if k == "rate" else ""),
            "95% CI": f"[{_fmt_d(r['diff_ci95'][0], k)}, {_fmt_d(r['diff_ci95'][1], k)}]",
            "pairing gain": "-" if r["pairing_gain"] is None else f"{r['pairing_gain']:.1f}x",
            "p": "identical" if r["p"] is None else fmt_p(r["p"]),
            "p (Holm)": fmt_p(r["p_holm"]),
            "significant": "YES" if r["significant"] else "no",
        })
    return pl.DataFrame(rows)


def render_markdown(res: dict) -> str:
    from sim.tables import md
    a, b = res["a"], res["b"]
    out = [f"# Compare: {a['name']} (A) vs {b['name']} (B)", "",
           f"Game {a['game']} · seed {res['seed']} (common random numbers: game g of A and B sees the same dice "
           f"where the rules allow) · {res['games']} games each · rules v{res['provenance']['rules_version']} · "
           f"RNG contract v{res['provenance']['rng_contract']} · commit {res['provenance']['git_commit'][:12]}", "",
           f"A: `{a['file']}`  ", f"B: `{b['file']}`", "",
           f"Stopped: {res['stop']['message']}.", ""]
    if res.get("sprt"):
        sp = res["sprt"]
        out += [f"SPRT on {sp['metric']}: H0 diff = 0 against H1 diff = {sp['effect']:+g}, alpha = {sp['alpha']}, "
                f"beta = {sp['beta']}; LLR {sp['llr']:.3f}, bounds [{sp['bounds'][0]:.3f}, {sp['bounds'][1]:.3f}]: "
                + {"H1": "accept H1", "H0": "accept H0", "continue": "undecided"}[sp["state"]] + ".", ""]
    sig = res["significant"]
    out += [f"Significant after Holm correction over {sum(r['p'] is not None for r in res['metrics'])} measures "
            f"at alpha = {res['alpha']}: " + (", ".join(sig) if sig else "none"), "",
            "Rates in percent, their differences in percentage points; B - A with its 95% interval from the paired "
            "per-game differences. Pairing gain: variance of an unpaired comparison over that of the paired one.",
            "", md(frame(res)), ""]
    nc = res["not_compared"]
    if nc["only_a"] or nc["only_b"]:
        out += [f"Not compared (defined on one side only): A {', '.join(nc['only_a']) or '-'}; "
                f"B {', '.join(nc['only_b']) or '-'}", ""]
    return "\n".join(out) + "\n"


def write(res: dict, folder) -> None:
    """compare.json, compare.md and compare.html into ``folder`` (atomically)."""
    from pathlib import Path

    from sim import html_report, report
    with report.staged_dir(Path(folder)) as tmp:
        report.write_json(tmp / "compare.json", res)
        (tmp / "compare.md").write_text(render_markdown(res), encoding="utf-8")
        (tmp / "compare.html").write_text(html_report.render_compare(res), encoding="utf-8")
