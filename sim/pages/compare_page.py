"""The pages of an A/B comparison (`sim compare`): compare.md, compare.html and the terminal text, from the comparison
dict that `sim.stats.compare.compare` computes. The dependency is one-way: this module reads `sim.stats.compare`'s results and
the report pages' shell (sim.pages.templating); `sim.stats.compare` computes only and imports no page.
"""

from __future__ import annotations

from sim.model import catalogue
from sim.model.words import POINTS, count, p_value, rate_text, with_sign
from sim.pages import arc_page, forest_plot, plots, templating, verdicts
from sim.stats import metrics
from sim.stats.spread_compare import NAME as SPREAD


def _fmt(v: float, kind: str, unit: str = "") -> str:
    """A value as the table shows it: a rate in % (the seat spread in points), any other with 3 decimals and its unit
    ("4.394 gold")."""
    return rate_text(v, unit) if kind == "rate" else f"{v:.3f}" + (f" {unit}" if unit else "")


def _fmt_d(v: float, kind: str) -> str:
    """A difference as its column says it: a rate's in percentage points with 2 decimals, any other with 3 (as A
    and B), so a column never mixes formats ('[-0.300, -0.008]', not '[-0.3, -0.008042]')."""
    return f"{with_sign(100 * v, 2)}" if kind == "rate" else f"{with_sign(v, 3)}"


def fmt_p(p: float | None) -> str:
    if p is None:
        return "-"
    return p_value(p)


def frame(res: dict):
    """The comparison as a Polars table (one row per measure)."""
    import polars as pl

    rows = []
    for r in res["metrics"]:
        k = r["kind"]
        rows.append(
            {
                "measure": r.get("label") or r["name"],
                "A": _fmt(r["a"], k, r.get("unit", "")),
                "B": _fmt(r["b"], k, r.get("unit", "")),
                "B - A": _fmt_d(r["diff"], k)
                + (f" {POINTS}" if k == "rate" else f" {r['unit']}" if r.get("unit") else ""),
                "95% CI": "none: every pair equal"
                if r["diff_ci95"][0] == r["diff_ci95"][1]
                else f"[{_fmt_d(r['diff_ci95'][0], k)}, {_fmt_d(r['diff_ci95'][1], k)}]",
                "pairing gain": "-" if r["pairing_gain"] is None else f"{r['pairing_gain']:.1f}x",
                "p (B = A)": "too few games"
                if r.get("too_few_games")
                else "identical"
                if r["p"] is None
                else fmt_p(r["p"]),
                "p (B = A), Holm": fmt_p(r["p_holm"]),
                "margin": "±" + verdicts.margin_text(r),
                "p (within margin), Holm": fmt_p(r.get("p_equiv_holm")),
                "verdict": _verdict_cell(r),
            }
        )
    return pl.DataFrame(rows)


def _verdict_cell(r: dict) -> str:
    """The table's verdict: 'changed', 'unchanged', or 'cannot tell yet (+34,000 games)'."""
    from sim.stats import verdict as V

    kind = r.get("verdict")
    if kind == V.CHANGED:
        return "CHANGED"
    if kind == V.UNCHANGED:
        return "unchanged"
    more = r.get("more_games")
    return "cannot tell yet" + (f" ({V.more_games_cell(more)})" if more else "")


def render_markdown(res: dict) -> str:
    from sim.pages.tables import md

    a, b = res["a"], res["b"]
    out = [
        f"# Compare: {a['name']} (A) vs {b['name']} (B)",
        "",
        f"Game {a['game']} · seed {res['seed']} (common random numbers: game g of A and B sees the same dice "
        f"where the rules allow) · {count(res['games'], 'game', grouped=True)} each · rules v{res['provenance']['rules_version']} · "
        f"RNG contract v{res['provenance']['rng_contract']} · commit {res['provenance']['git_commit'][:12]}",
        "",
        f"A: `{a['file']}`  ",
        f"B: `{b['file']}`",
        "",
    ]
    out += ["## Verdict", ""] + [f"- {x}" for x in verdicts.compare_sentences(res)] + [""]
    out += ["## What differs between A and B", ""] + [f"- {x}" for x in difference_lines(res)] + [""]
    out += [f"Stopped: {res['stop']['message']}.", ""]
    if res.get("notes"):
        out += ["Comparability: " + "; ".join(res["notes"]) + ".", ""]
    if res.get("sprt"):
        sp = res["sprt"]
        out += [
            f"SPRT on {sp['metric']} (fishtest-style GSPRT): {sp['hypotheses']}, alpha = {sp['alpha']}, "
            f"beta = {sp['beta']}; LLR {sp['llr']:.3f}, bounds [{sp['bounds'][0]:.3f}, {sp['bounds'][1]:.3f}]: "
            f"{sp['conclusion']}."
        ]
        if sp.get("opposite_sign") and res["stop"]["rule"] != "sprt":  # else the Stopped line says it
            out += ["", "Note: " + sp["note"] + "."]
        out += [""]
    out += [
        significance_line(res),
        "",
        "Rates in percent, their differences in percentage points; B - A with its 95% interval from the paired "
        "per-game differences. Pairing gain: variance of an unpaired comparison over that of the paired one.",
        "",
        md(frame(res)),
        "",
    ]
    out += arc_page.compare_markdown(res)  # `sim compare --arc --sample`: the rollout measures
    for line in not_compared_lines(res):
        out += [line, ""]
    return "\n".join(out) + "\n"


def spread_method(res: dict) -> str:
    """How the seat spread's row was judged, where the table has one ('' otherwise): it is no per-game mean."""
    r = next((r for r in res["metrics"] if r["name"] == SPREAD), None)
    if r is None:
        return ""
    return (
        f" The {r['label']} is no per-game mean: its B - A, interval and tests come from a paired bootstrap over "
        "the games (the same games resampled for A and B; 95% percentile interval; unchanged when the 90% "
        "interval lies within the margin), in the same Holm families as the other measures."
    )


def significance_line(res: dict) -> str:
    """How the verdicts are made: the margins, the tests and the Holm correction (the table marks CHANGED)."""
    tested = sum(r["p"] is not None for r in res["metrics"])
    few = sum(bool(r.get("too_few_games")) for r in res["metrics"])
    if few and not tested:
        return f"Not tested: too few games (fewer than {metrics.MIN_GAMES_FOR_TESTS} paired) to judge any difference."
    k = sum(r.get("verdict") == "changed" for r in res["metrics"])
    return (
        f"Verdicts at each measure's margin (--margin; by default 1 point for rates, 2% for lengths, 5% "
        f"for counts): unchanged = the 90% interval lies within the margin (two one-sided tests), changed = "
        f"different from 0 with its interval past the margin, else cannot tell yet; {_holm_over(res, tested)}. "
        f"Changed: {k or 'none'}. In the table, p (B = A) "
        "tests a difference of 0 (paired); p (within margin) is the larger of the two one-sided tests at the margin."
        + spread_method(res)
    )


def _holm_over(res: dict, tested: int) -> str:
    """Over how many measures Holm corrects, agreeing with the verdict's count of measures compared: those that gave
    the same value in every paired game are compared (unchanged) without a test, and are said apart ("Holm-corrected
    over the 17 measures tested at alpha = 0.05; the other 3 of the 20 compared gave the same value in every paired
    game, so no test")."""
    same = sum(r.get("p") is None and bool(r.get("identical")) for r in res["metrics"])
    alpha = f"at alpha = {res['alpha']}"
    if not same:
        return f"Holm-corrected over {count(tested, 'measure')} {alpha}"
    total = count(tested + same, "measure")
    if not tested:
        return f"no test needed: each of the {total} compared gave the same value in every paired game"
    return (
        f"Holm-corrected over the {count(tested, 'measure')} tested {alpha}; the other {same} of the {total} "
        "compared gave the same value in every paired game, so no test"
    )


def difference_lines(res: dict) -> list[str]:
    """What differs between scenarios A and B (player count, parameters, seats' strategies and their parameters),
    one line each, for compare.md and compare.html."""
    from sim.pages.scenario_words import SAME_PLAY, scenario_differences

    a, b = res["a"].get("scenario"), res["b"].get("scenario")
    if not a or not b:
        return ["(the scenarios are not recorded in this comparison)"]
    d = scenario_differences(a, b, res["a"].get("seats_played"), res["b"].get("seats_played"))
    nothing = (
        "nothing: A and B play the same rules, player count and strategies (differences are noise, and "
        "with common random numbers every game is identical)"
    )
    if all(x.endswith(SAME_PLAY) for x in d):  # only parameters that differ as given, not as played
        return [nothing] + d
    return d


def not_compared_lines(res: dict) -> list[str]:
    """One sentence per group of measures left out of the comparison, with the reason (for compare.md and
    compare.html)."""
    out = []
    nc = res["not_compared"]
    sa, sb = res["a"].get("scenario") or {}, res["b"].get("scenario") or {}
    la = catalogue.View(
        res["a"]["game"],
        (sa.get("params") or {}).get("mode"),
        [x.get("strategy", "?") for x in sa.get("seats") or []],
        False,
    ).label
    lb = catalogue.View(
        res["b"]["game"],
        (sb.get("params") or {}).get("mode"),
        [x.get("strategy", "?") for x in sb.get("seats") or []],
        False,
    ).label
    if nc["only_a"] or nc["only_b"]:
        out.append(
            f"Not compared (defined on one side only): A {', '.join(map(la, nc['only_a'])) or '-'}; "
            f"B {', '.join(map(lb, nc['only_b'])) or '-'}"
        )
    if nc.get("different_meaning"):
        by_why: dict[str, list[str]] = {}
        for k, v in nc["different_meaning"].items():
            by_why.setdefault(v, []).append(la(k))
        out.append(
            "Not compared (different meaning in A and B): "
            + "; ".join(f"{', '.join(ks)} ({v})" for v, ks in by_why.items())
        )
    return out


def render_compare(res: dict) -> str:
    """The A/B comparison as one self-contained HTML page (templates/compare_page.html)."""
    a, b = res["a"], res["b"]
    svg = plots.render(forest_plot.compare_forest, res)
    pv = res["provenance"]
    return templating.render(
        "compare_page.html",
        title=f"Compare: {a['name']} (A) vs {b['name']} (B)",
        provenance_line=f"{a['game']} · {count(res['games'], 'game', grouped=True)} each · seed {res['seed']} (common random "
        f"numbers) · commit {str(pv['git_commit'])[:12]} (provenance)",
        provenance=_provenance(res),
        verdict=verdicts.compare_sentences(res),
        sprt=res["sprt"]["message"] if res.get("sprt") else None,
        stopped=res["stop"]["message"],
        significance=significance_line(res),
        differs=difference_lines(res),
        forest=templating.svg(plots.scope_ids(svg, "svg-forest-") if svg else None),
        rows=frame(res).to_dicts(),
        mark=lambda c, v: "yes" if (c == "verdict" and v == "CHANGED") else "",  # a changed measure stands out
        plain=lambda c, v: "",
        arc_rows=arc_page.compare_rows(res),
        arc_intro=arc_page.compare_intro(res),
        caveats=res.get("notes", []) + not_compared_lines(res),
    )


def _provenance(res: dict) -> list[tuple[str, object]]:
    a, b, pv = res["a"], res["b"], res["provenance"]
    prov: list[tuple[str, object]] = [
        ("A", f"{a['name']} ({a['file']})"),
        ("B", f"{b['name']} ({b['file']})"),
        ("game", f"{a['game']}, {a['players']} vs {b['players']} players"),
        ("seed", f"{res['seed']} (common random numbers)"),
        ("games", f"{res['games']} each"),
        ("rules version", pv["rules_version"]),
        ("RNG contract", pv["rng_contract"]),
        ("git commit", pv["git_commit"]),
        ("stopped", res["stop"]["message"]),
    ]
    if res.get("sprt"):
        prov.append(("SPRT", res["sprt"]["message"]))
    return prov
