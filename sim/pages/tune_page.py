"""tune.html: the chosen setting with its confirmation intervals and the candidates it cannot be told apart from,
each target's distance against the trial (the best so far as a line), the parameters' importance, the Pareto front
of two targets, and every trial's table. Self-contained (inline SVG and CSS, no JavaScript), from the tune.json
dict; the lines of `summary_lines` are what `sim tune` prints."""

from __future__ import annotations

from sim.model.words import POINTS, count, with_sign
from sim.pages import plots, templating
from sim.pages.scenario_words import lead_line
from sim.pages.sweep_page import fmt, fmt_est
from sim.pages.verdicts import fmt_p
from sim.stats.records import Estimate

TARGET_COLOR = "#b5464b"


def fmt_dist(kind: str, v: float | None) -> str:
    """A distance to a target in the measure's unit: percentage points for rates."""
    if v is None:
        return "n/a"
    return f"{100 * v:.2f} {POINTS}" if kind in ("rate", "points") else f"{v:.3f}"


def target_words(t: dict) -> str:
    """ "hunters' win rate = 50.00%", "game length in rounds within 6.000..8.000"."""
    if t["low"] == t["high"]:
        return f"{t['label']} = {fmt(t['kind'], t['low'])}"
    return f"{t['label']} within {fmt(t['kind'], t['low'])}..{fmt(t['kind'], t['high'])}"


def setting_words(d: dict, labels: dict) -> str:
    names = {p["name"]: p for p in d["params"]}
    return ", ".join(f"{names[k].get('label') or k} ({k}) = {v}" for k, v in labels.items())


def summary_lines(d: dict) -> list[str]:
    """The result in a few lines: the chosen setting, each target's confirmed value with its interval and whether
    the interval reaches the target, the candidates that cannot be told apart, the games against the full grid."""
    b = d["budget"]
    lines = [
        f"tune {d['scenario']['name']}: {count(len(d['trials']), 'trial')} x {count(d['games'], 'game', grouped=True)} "
        f"({d['sampler']}), best {len(d['candidates'])} confirmed with {count(d['confirm_games'], 'game', grouped=True)} "
        f"each at seed {d['confirm_seed']}"
    ]
    ch = d.get("chosen")
    if ch is None:
        lines.append("no trial finished with a value for every target: nothing to choose")
        return lines
    lines.append(f"chosen: {setting_words(d, ch['labels'])} (trial {ch['trial']})")
    for t, x, meets in zip(d["targets"], ch["targets"], ch["meets"]):
        lines.append(
            f"  {t['label']}: {fmt_est(t['kind'], x)} (target "
            f"{t['text'].split('=', 1)[1]}: {'within the interval' if meets else 'missed by ' + fmt_dist(t['kind'], x['distance'])})"
        )
    tied = [c for c in d["candidates"] if c["tied"] and not c["chosen"]]
    if len(d["candidates"]) > 1:
        lines.append(
            "cannot be told apart from it: " + "; ".join(setting_words(d, c["labels"]) for c in tied)
            if tied
            else "every other candidate is further from the targets (paired test, Holm-corrected, 5%)"
        )
    grid = (
        f"; the full grid of the same ranges: {b['grid_points']:,} points x {d['games']:,} = {b['grid_games']:,} games"
        if b.get("grid_games")
        else "; a continuous range has no full grid"
    )
    lines.append(
        f"games: {b['trial_points']:,} trial points x {d['games']:,} + {len(d['candidates'])} x {d['confirm_games']:,} "
        f"confirmation = {b['games']:,}{grid}"
    )
    return lines


def _trials_plot(d: dict):
    """One panel per target: each trial's distance with its interval, the best so far as a step line."""
    ok = [t for t in d["trials"] if t["targets"] and t["score"] is not None]
    if not ok:
        return None
    n = len(d["targets"])
    fig, axes = plots._figure(6.4, 2.2 * n, nrows=n)
    for k, (ax, tg) in enumerate(zip(axes, d["targets"])):
        s = 100.0 if tg["kind"] in ("rate", "points") else 1.0
        xs = [t["number"] for t in ok]
        ys = [t["targets"][k]["distance"] * s for t in ok]
        lo = [max(0.0, y - t["targets"][k]["distance_ci"][0] * s) for t, y in zip(ok, ys)]
        hi = [max(0.0, t["targets"][k]["distance_ci"][1] * s - y) for t, y in zip(ok, ys)]
        ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", ms=3, color=plots.BLUE, ecolor=plots.GREY, elinewidth=0.8)
        best, run = float("inf"), []
        for t in ok:  # the best score so far, drawn on this target's distance
            if t["score"] < best:
                best, at = t["score"], t["targets"][k]["distance"] * s
            run.append(at)
        ax.step(xs, run, where="post", color=plots.ORANGE, lw=1.2, label="best trial so far")
        conf = [t for t in ok if t["confirmed"]]
        ax.plot(
            [t["number"] for t in conf],
            [t["targets"][k]["distance"] * s for t in conf],
            "s",
            mfc="none",
            color=TARGET_COLOR,
            ms=7,
            label="confirmed",
        )
        ax.set_ylabel(f"distance ({'percentage points' if s == 100.0 else 'units'})")
        ax.set_title(f"{tg['label']}: distance to {tg['text'].split('=', 1)[1]}")
        ax.legend(fontsize=7, frameon=False)
    from matplotlib.ticker import MaxNLocator

    axes[-1].set_xlabel("trial")
    axes[-1].xaxis.set_major_locator(MaxNLocator(integer=True))  # trials are counted: no trial 2.5
    return fig


def _importance_plot(d: dict):
    imp = d.get("importance")
    if not imp or len(d["params"]) < 2:
        return None
    names = [p["name"] for p in d["params"]]
    fig, axes = plots._figure(6.4, 0.5 + 0.35 * len(names) * len(imp))
    ax = axes[0]
    h = 0.8 / len(imp)
    for j, (m, vals) in enumerate(imp.items()):
        ys = [i + j * h for i in range(len(names))]
        ax.barh(ys, [vals.get(n, 0.0) for n in names], height=h, color=plots.SEAT[j % len(plots.SEAT)], label=m)
    ax.set_yticks([i + 0.4 - h / 2 for i in range(len(names))], names)
    ax.set_xlabel("share of the variation of the distance (PED-ANOVA)")
    ax.set_xlim(0, 1)
    ax.legend(fontsize=7, frameon=False)
    return fig


def _pareto_plot(d: dict):
    if len(d["targets"]) < 2:
        return None
    ok = [t for t in d["trials"] if t["score"] is not None]
    if not ok:
        return None
    a, b = d["targets"][0], d["targets"][1]
    sa = 100.0 if a["kind"] in ("rate", "points") else 1.0
    sb = 100.0 if b["kind"] in ("rate", "points") else 1.0
    fig, axes = plots._figure(5.0, 3.6)
    ax = axes[0]
    ax.plot(
        [t["targets"][0]["distance"] * sa for t in ok],
        [t["targets"][1]["distance"] * sb for t in ok],
        "o",
        ms=3,
        color=plots.GREY,
        label="trial",
    )
    front = sorted((t for t in ok if t["pareto"]), key=lambda t: t["targets"][0]["distance"])
    ax.plot(
        [t["targets"][0]["distance"] * sa for t in front],
        [t["targets"][1]["distance"] * sb for t in front],
        "o-",
        ms=4,
        color=plots.BLUE,
        label="Pareto front",
    )
    ch = d.get("chosen")
    if ch:
        tr = next(t for t in ok if t["number"] == ch["trial"])
        ax.plot(
            [tr["targets"][0]["distance"] * sa],
            [tr["targets"][1]["distance"] * sb],
            "*",
            ms=12,
            color=TARGET_COLOR,
            label="chosen",
        )
    ax.set_xlabel(f"{a['label']}: distance")
    ax.set_ylabel(f"{b['label']}: distance")
    ax.legend(fontsize=7, frameon=False)
    return fig


def _confirm_plot(d: dict):
    """One panel per target: each candidate's confirmed value with its 95% interval, the target (band) shaded."""
    cs = d["candidates"]
    if not cs:
        return None
    n = len(d["targets"])
    fig, axes = plots._figure(6.4, 0.9 + 0.3 * len(cs) * n + 0.4 * n, nrows=n)
    for k, (ax, tg) in enumerate(zip(axes, d["targets"])):
        s = 100.0 if tg["kind"] in ("rate", "points") else 1.0
        for i, c in enumerate(cs):
            x = Estimate.of(c["targets"][k])
            if x.value is None:
                continue
            col = TARGET_COLOR if c["chosen"] else (plots.BLUE if c["tied"] else plots.GREY)
            ax.errorbar(
                [x.value * s],
                [i],
                xerr=[[(x.value - x.lo) * s], [(x.hi - x.value) * s]],
                fmt="o",
                color=col,
                ms=4,
            )
        if tg["low"] == tg["high"]:
            ax.axvline(tg["low"] * s, color=plots.GREY, ls="--", lw=1)
        else:
            ax.axvspan(tg["low"] * s, tg["high"] * s, color=plots.GREY, alpha=0.2)
        ax.set_yticks(range(len(cs)), [f"trial {c['trial']}" for c in cs])
        ax.invert_yaxis()
        ax.set_title(
            f"{tg['label']} ({'%' if tg['kind'] == 'rate' else 'percentage points' if tg['kind'] == 'points' else 'value'})"
        )
    return fig


def plot_list(d: dict) -> list[tuple[str, str, str | None]]:
    return [
        (
            "confirm",
            "Confirmed candidates: each target's value with its 95% interval at the fresh seed (red: chosen; "
            "blue: cannot be told apart from it; grey: further), the target dashed or shaded.",
            plots.render(_confirm_plot, d),
        ),
        (
            "trials",
            "Each trial's distance to each target with the distance's 95% range, the best trial so far "
            "(by score) as a step line, the confirmed ones boxed.",
            plots.render(_trials_plot, d),
        ),
        (
            "importance",
            "The parameters' importance: each one's share of how the distance varies across the trials "
            "(Optuna's PED-ANOVA).",
            plots.render(_importance_plot, d),
        ),
        (
            "pareto",
            "The trade-off between the first two targets: every trial's distances, the Pareto front (no trial "
            "nearer on both) joined.",
            plots.render(_pareto_plot, d),
        ),
    ]


def candidate_rows(d: dict) -> list[dict]:
    rows = []
    for c in d["candidates"]:
        r = {"trial": str(c["trial"]) + (" (chosen)" if c["chosen"] else "")}
        r.update({k: v for k, v in c["labels"].items()})
        for t, x in zip(d["targets"], c["targets"]):
            r[t["label"]] = fmt_est(t["kind"], x)
        r["score"] = "n/a" if c["score"] is None else f"{c['score']:.3f}"
        vs = c.get("vs_chosen")
        r["vs chosen (score)"] = "" if vs is None else _vs_chosen(vs)
        r["told apart"] = "" if c["chosen"] else ("no" if c["tied"] else "yes")
        rows.append(r)
    return rows


def _vs_chosen(vs: dict) -> str:
    """A candidate's score minus the chosen one's with its interval and Holm-adjusted p-value."""
    e = Estimate.of(vs, "diff")
    return f"{with_sign(e.known, 3)} [{with_sign(e.lo, 3)}, {with_sign(e.hi, 3)}], {fmt_p(vs['p_holm'])}"


def trial_rows(d: dict) -> list[dict]:
    rows = []
    for t in d["trials"]:
        r = {"trial": str(t["number"]), "state": t["state"].lower()}
        r.update(t["labels"])
        for k, tg in enumerate(d["targets"]):
            x = (t["targets"] or [None] * len(d["targets"]))[k]
            r[tg["label"]] = fmt_est(tg["kind"], x) if x else ""
        r["score"] = "" if t["score"] is None else f"{t['score']:.3f}"
        r["front"] = "yes" if t["pareto"] else ""
        r["confirmed"] = "yes" if t["confirmed"] else ""
        rows.append(r)
    return rows


def render(d: dict) -> str:
    """tune.html from the tune.json dict."""
    sc = d["scenario"]
    title = f"Tune: {sc['name']}"
    tuned = ", ".join(p["name"] for p in d["params"])
    prov = [
        ("game", d.get("game_title") or sc["game"]),
        ("players", sc["players"]),
        ("parameters", "; ".join(f"{p['name']} = {p['range']}" for p in d["params"])),
        ("targets", "; ".join(target_words(t) for t in d["targets"])),
        (
            "search",
            f"{d['sampler']} (Optuna), {count(len(d['trials']), 'trial')} in batches of {d['batch']}, "
            f"{count(d['games'], 'game', grouped=True)} each at seed {d['seed']} (common random numbers)",
        ),
        (
            "confirmation",
            f"best {count(len(d['candidates']), 'setting')}, {count(d['confirm_games'], 'game', grouped=True)} each at "
            f"seed {d['confirm_seed']}",
        ),
        ("games", summary_lines(d)[-1].removeprefix("games: ")),
        ("rules / RNG contract", f"v{d['provenance']['rules_version']} / v{d['provenance']['rng_contract']}"),
        ("played on", d["provenance"].get("executor", "")),
    ]
    return templating.render(
        "tune_page.html",
        title=title,
        # the tuned names: the file's description may not describe the settings tried, as sim run's page notes of --set
        lead=lead_line({"scenario": sc, "game_title": d.get("game_title")}, tuned, "tuned"),
        facts=prov,
        chosen=summary_lines(d)[1:-1],
        candidates=candidate_rows(d),
        plots=templating.figures(plot_list(d)),
        trials=trial_rows(d),
        definitions=[(t["label"], t["measure"], t.get("definition") or "") for t in d["targets"]],
    )
