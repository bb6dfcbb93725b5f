"""sweep.html: each chosen measure against each swept parameter with its 95% interval band (a heatmap for two
parameters; a zip sweep's paired points as one curve along them), the scenario's own point marked, and with a
target the points whose interval contains it highlighted and the closest one named. Self-contained (inline SVG and CSS, no JavaScript, no network), from the sweep.json dict.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.model.words import count
from sim.pages import templating
from sim.pages.scenario_words import lead_line
from sim.pages.verdicts import fmt_p
from sim.stats import verdict as V
from sim.stats.records import Estimate

if TYPE_CHECKING:
    pass

from sim.pages.sweep_plots import MAX_CURVES, MAX_PANELS, View, plot_list, view, view_note  # noqa: F401 (re-exported)
from sim.pages.sweep_words import (  # noqa: F401 (re-exported: the terminal and the tune page use them)
    TARGET_COLOR,
    _scale,
    _x,
    axis_title,
    diff_kind,
    fixed_words,
    fmt,
    fmt_ci,
    fmt_est,
    point_words,
    value_words,
    with_name,
    zip_ticks,
    zipped,
)


def target_text(d: dict) -> str | None:
    t = d.get("target")
    if not t:
        return None
    m = next(x for x in d["chosen"] if x["name"] == t["measure"])
    pts = {r["index"]: r for r in d["points"]}

    def desc(i):
        return point_words(d, pts[i])

    out = f"Target {m['label']} = {fmt(m['kind'], t['value'], unit=m.get('unit', ''))}. "
    if t["closest"] is not None:
        c = Estimate.of(pts[t["closest"]]["measures"][t["measure"]])
        out += (
            f"Closest point: {desc(t['closest'])} ({fmt(m['kind'], c.value, unit=m.get('unit', ''))}, 95% interval "
            f"{fmt_ci(m['kind'], c.ci95)}). "
        )
    out += (
        f"Points whose interval contains the target: {'; '.join(desc(i) for i in t['containing'])}. "
        if t["containing"]
        else "No point's interval contains the target. "
    )
    if t.get("crossings"):
        out += (
            f"The curve crosses the target at {', '.join(f'{x:.2f}' for x in t['crossings'])} (linear "
            f"interpolation between neighbouring points)."
        )
        if len(t["containing"]) == len(pts):
            out += (
                " Every point's interval contains the target, so where it crosses is within noise: play more "
                "games a point (--games) to place it."
            )
    return out


def many_points_text(d: dict) -> str | None:
    """What survives testing every point against the scenario's own at once (sweep.json ``against_own``, Holm-
    corrected): the differences that do, or "no setting differs from the scenario's own by more than noise" with the
    games a point that would resolve the largest difference seen. None for a sweep of one point."""
    if len(d["points"]) < 2:
        return None
    a = d.get("against_own")
    if a is None:
        return (
            "The scenario's own value is not among the points, so no point is tested against it; the table "
            "compares neighbouring points."
        )
    kinds = {m["name"]: (m["label"], m["kind"], m.get("unit", "")) for m in d["chosen"]}
    pts = {r["index"]: r for r in d["points"]}

    def desc(i):
        return point_words(d, pts[i])

    n_p = a["points"]
    tested = (
        f"{count(n_p, 'point')} {'was' if n_p == 1 else 'were'} tested against it, "
        f"{count(a['tested'], 'difference')} in all, Holm-corrected for testing many at once: among many "
        f"points one may exclude 0 by chance alone."
    )
    v = a.get("verdicts")
    if v is not None and not a["differ"]:
        unsure = v["cannot_tell"]
        return (
            f"No setting changed beyond its margin (by default 1 point for rates, 2% for lengths, 5% for counts) at "
            f"{count(a['games'], 'game', grouped=True)} a point: {v['unchanged']} of {count(a['tested'], 'difference')} "
            f"unchanged within their margins"
            + (
                f", {unsure} cannot be told yet"
                + (
                    f" ({V.about_games(v['more_games'])} more games a point would decide them)"
                    if v.get("more_games")
                    else ""
                )
                if unsure
                else ""
            )
            + f". {tested}"
        )
    if not a["differ"]:
        more = (
            f" Play more games: --games {a['games_needed']:,} a point would resolve a difference as large as the "
            f"largest seen."
            if a.get("games_needed") and a["games_needed"] > a["games"]
            else " Every point played the same games to the same results here (no difference at all to resolve)."
            if a.get("games_needed") is None
            else ""
        )
        return (
            f"No setting differs from the scenario's own by more than noise at {count(a['games'], 'game', grouped=True)} "
            f"a point. "
            f"{tested}{more}"
        )
    by_point: dict[int, list[str]] = {}
    for t in a["differ"]:
        label, kind, unit = kinds[t["measure"]]
        dk = diff_kind(kind)
        by_point.setdefault(t["point"], []).append(
            f"{label} {fmt_est(dk, t, True, unit, key='diff')} ({fmt_p(t['p_holm'])} after Holm)"
        )
    shown = [f"{desc(i)}: {', '.join(ds)}" for i, ds in list(by_point.items())[:6]]
    rest = f"; and {count(len(by_point) - 6, 'point')} more (sweep.json against_own)" if len(by_point) > 6 else ""
    if v is not None:
        same = f" {v['unchanged']} of {count(a['tested'], 'difference')} unchanged within their margins" + (
            f", {v['cannot_tell']} cannot be told yet." if v["cannot_tell"] else "."
        )
        return (
            f"{count(len(by_point), 'setting')} changed beyond the margin (by default 1 point for rates, 2% for "
            f"lengths, 5% for counts): " + "; ".join(shown) + rest + "." + same + " " + tested
        )
    return (
        f"{count(len(by_point), 'setting')} differ{'s' if len(by_point) == 1 else ''} from the scenario's own by "
        f"more than noise: " + "; ".join(shown) + rest + ". " + tested
    )


def range_text(d: dict) -> str:
    """A sweep without a target in one line: each chosen measure's lowest and highest point with its interval and
    where it was played ("first-player advantage from -0.40% [...] (track_len = 50) to 2.22% [...] (track_len =
    20)"), or one value when every point gave the same."""
    pts = d["points"]

    def desc(r):
        return point_words(d, r)

    out = []
    for m in d["chosen"]:
        have = [(r, Estimate.of(r["measures"][m["name"]])) for r in pts if m["name"] in r["measures"]]
        have = [(r, e) for r, e in have if e.value is not None]
        if not have:
            continue
        (lo, a), (hi, b) = min(have, key=lambda x: x[1].known), max(have, key=lambda x: x[1].known)
        unit = m.get("unit", "")
        if a.value == b.value:
            out.append(f"{m['label']} {fmt(m['kind'], a.value, unit=unit)} at every point")
        else:
            out.append(
                f"{m['label']} from {fmt(m['kind'], a.value, unit=unit)} {fmt_ci(m['kind'], a.ci95)} "
                f"({desc(lo)}) to {fmt(m['kind'], b.value, unit=unit)} {fmt_ci(m['kind'], b.ci95)} ({desc(hi)})"
            )
    return "; ".join(out) + " (95% intervals)" if out else ""


def minutes_words(m: dict, short: bool = False) -> str:
    """A point's playing time (`sim.stats.sweep_table.point_minutes`): "playing time about 24.3 min [24.2, 24.4]
    at 13 s a turn" (``short``: the number and interval only)."""
    e = Estimate.of(m)
    ci = f" [{e.lo:.1f}, {e.hi:.1f}]" if e.ci95 and f"{e.lo:.1f}" != f"{e.hi:.1f}" else ""
    if short:
        return f"{e.known:.1f} min{ci}"
    return f"playing time about {e.known:.1f} min{ci} at {m['seconds_per_turn']:g} s a turn"


def point_rows(d: dict) -> list[dict]:
    rows = []
    tgt = d.get("target") or {}
    prev = {p["b"]: p for p in d["pairs"] if len(d["axes"]) <= 1 or d["mode"] == "zip"}
    for r in d["points"]:
        row = {
            "point": str(r["index"])
            + (" (scenario)" if r["index"] == d.get("default") else "")
            + (" (target)" if r["index"] in tgt.get("containing", []) else "")
        }
        axes = {a["name"]: a for a in d["axes"]}
        row.update({with_name(axes[k]) if k in axes else k: v for k, v in r["labels"].items()})
        for m in d["chosen"]:
            row[m["label"]] = fmt_est(m["kind"], r["measures"][m["name"]], unit=m.get("unit", ""))
            if r["index"] in prev:
                p = prev[r["index"]]["measures"][m["name"]]
                row[f"{m['label']}: change from previous"] = fmt_est(
                    diff_kind(m["kind"]), p, True, m.get("unit", ""), key="diff"
                )
            elif prev:
                row[f"{m['label']}: change from previous"] = ""
        if r.get("minutes"):
            row["playing time (turns x seconds_per_turn)"] = minutes_words(r["minutes"], short=True)
        rows.append(row)
    return rows


def render(d: dict) -> str:
    """sweep.html from the sweep.json dict."""
    sc = d["scenario"]
    title = f"Sweep: {sc['name']}"
    if zipped(d):  # the points as they are paired, not each axis's list
        axes = f"({', '.join(with_name(a) for a in d['axes'])}) = " + ", ".join(
            f"({', '.join(r['labels'][a['name']] for a in d['axes'])})"
            for r in sorted(d["points"], key=lambda r: r["index"])
        )
    else:
        axes = (
            "; ".join(
                f"{with_name(a)} = {', '.join(a['labels'])}"
                + (f" {a['unit']}" if a.get("unit") and a["numeric"] else "")
                for a in d["axes"]
            )
            or "no axis (one point)"
        )
    paired = (
        "common random numbers: every point plays the same seed and game indices; neighbouring points are "
        "compared game by game (paired 95% intervals)"
        if not d["independent"]
        else "each point its own random streams; neighbouring points compared as independent samples"
    )
    # the swept names (their values: the "swept" line below): the file's description may not describe their points,
    # as sim run's page notes of --set
    swept = ", ".join(a["name"] for a in d["axes"])
    facts = [
        ("swept", axes),
        *([("fixed (every point)", fixed_words(d))] if d.get("fixed") else []),
        ("mode", d["mode"]),
        ("points", len(d["points"])),
        ("games per point", f"{d['games']:,}"),
        ("seed", d["seed"]),
        ("random numbers", paired),
        ("scenario's own point", "point " + str(d["default"]) if d["default"] is not None else "not among the points"),
        ("rules / RNG contract", f"v{d['provenance']['rules_version']} / v{d['provenance']['rng_contract']}"),
        ("played on", d["provenance"]["executor"]),
    ]
    return templating.render(
        "sweep_page.html",
        title=title,
        lead=lead_line({"scenario": sc, "game_title": d["game_title"]}, swept),
        facts=facts,
        target=target_text(d),
        against_own=many_points_text(d),
        plots=templating.figures(plot_list(d)),
        points=point_rows(d),
        definitions=[(m["label"], m["name"], m.get("definition") or "") for m in d["chosen"]],
    )
