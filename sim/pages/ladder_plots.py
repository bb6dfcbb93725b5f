"""Plots of the ladder page (ladder.json dict in, a matplotlib figure out; drawn to SVG by `sim.pages.plots.render`
under the reports' rc settings and colours)."""

from __future__ import annotations

from typing import Any

from sim.pages.plots import GREY, NEUTRAL, RC, SEAT, _figure, cell_text_color, fit_lines
from sim.stats.records import Estimate


def ratings(d: dict) -> Any:
    """Each rung's Elo rating (random = 0) with its 95% interval, strongest on top."""
    rt = d.get("rating")
    if not rt:
        return None
    rows = [rt["ratings"][i] for i in rt["order"]][::-1]
    fig, (ax,) = _figure(6.0, 0.45 * len(rows) + 1.2)
    y = list(range(len(rows)))
    v, lo, hi = _whiskers([Estimate.of(r, "elo") for r in rows])
    ax.errorbar(v, y, xerr=[lo, hi], fmt="o", color=SEAT[0], ecolor="black", capsize=3, lw=1)
    ax.axvline(0, color=GREY, ls="--", lw=1)
    ax.set_yticks(y, [r["rung"] for r in rows])
    ax.set_xlabel(f"Elo rating ({d['anchor']} = 0), 95% interval")
    ax.set_title("ratings")
    return fig


def _whiskers(es: list[Estimate], scale: float = 1) -> tuple[list[float], list[float], list[float]]:
    """Values times ``scale`` and their error bars' lengths below and above (never negative: a Wilson bound can
    sit a rounding error past its value)."""
    return (
        [scale * e.known for e in es],
        [max(scale * (e.known - e.lo), 0) for e in es],
        [max(scale * (e.hi - e.known), 0) for e in es],
    )


def heatmap(d: dict) -> Any:
    """Head-to-head: the share of decided pairs the row rung won against the column rung."""
    import numpy as np

    rt = d.get("rating")
    if not rt:
        return None
    order = rt["order"]
    names = [rt["ratings"][i]["rung"] for i in order]
    m = np.array(
        [
            [
                np.nan if rt["head_to_head"]["matrix"][i][j] is None else rt["head_to_head"]["matrix"][i][j]
                for j in order
            ]
            for i in order
        ],
        float,
    )
    k = len(names)
    fig, (ax,) = _figure(0.9 * k + 2.6, 0.7 * k + 1.3)
    im = ax.imshow(100 * m, cmap="RdBu", vmin=0, vmax=100)
    ax.set_xticks(range(k), names, rotation=30, ha="right")
    ax.set_yticks(range(k), names)
    for i in range(k):
        for j in range(k):
            if np.isfinite(m[i, j]):
                c = cell_text_color(im, 100 * m[i, j])  # white on the dark ends of RdBu
                ax.text(j, i, f"{100 * m[i, j]:.0f}", ha="center", va="center", fontsize=8, color=c)
    ax.set_title("row beats column (% of decided pairs)")
    fig.colorbar(im, ax=ax, shrink=0.8)
    return fig


def budget(d: dict) -> Any:
    """Rating against a budget-like strategy parameter, one line per rung family."""
    fams = d.get("budget", {}).get("families") or []
    if not fams or not d.get("rating"):
        return None
    fig, (ax,) = _figure(5.5, 3.2)
    from sim.stats.budget_steps import family_words

    for k, f in enumerate(fams):
        xs = [p["value"] for p in f["points"]]
        ys = [p["elo"] for p in f["points"]]
        # each rating's 95% interval: a flat-looking climb of a few Elo is noise unless the bars say otherwise
        ci = [p.get("ci95") or [p["elo"], p["elo"]] for p in f["points"]]
        err = [[y - c[0] for y, c in zip(ys, ci, strict=True)], [c[1] - y for y, c in zip(ys, ci, strict=True)]]
        label = family_words(f)
        ax.errorbar(xs, ys, yerr=err, fmt="o-", capsize=3, color=SEAT[k % len(SEAT)], label=label)
    ax.set_xscale("log")
    ticks = sorted({p["value"] for f in fams for p in f["points"]})
    ax.set_xticks(ticks, [f"{v:g}" for v in ticks])  # the budgets played, not powers of ten
    ax.minorticks_off()
    ax.set_xlabel("budget")
    ax.set_ylabel("Elo")
    ax.legend()
    ax.set_title("rating against budget: does more thinking keep paying?")
    return fig


def balance(d: dict) -> Any:
    """Each balance figure at each rung's mono table (every seat that rung), with its interval."""
    figs = d.get("balance", {}).get("figures") or {}
    if not figs:
        return None
    keys = list(figs)
    cols = min(len(keys), 3)  # (five figures with the arc's: two rows, not a plot wider than the page)
    nrows = -(-len(keys) // cols)
    fig, axes = _figure(3.3 * cols, 3.0 * nrows, ncols=cols, nrows=nrows)
    for ax in axes[len(keys) :]:
        ax.set_visible(False)
    for ax, k in zip(axes, keys):
        f = figs[k]
        rows = f["per_rung"]
        scale = 100 if rows and rows[0]["unit"] in ("share", "rate") else 1
        x = list(range(len(rows)))
        v, lo, hi = _whiskers([Estimate.of(r) for r in rows], scale)
        sk = f.get("skill") or {}
        ref = next((i for i, r in enumerate(rows) if r["rung"] == sk.get("reference")), None)
        if ref is not None and sk.get("margin"):  # the margin band: what counts as unchanged from the reference
            base = 0.0 if k == "seat_spread" else v[ref]
            top = 2 * scale * sk["margin"] if k == "seat_spread" else scale * sk["margin"]
            ax.axhspan(base - (0 if k == "seat_spread" else top), base + top, color=GREY, alpha=0.2, lw=0)
        ax.errorbar(x, v, yerr=[lo, hi], fmt="o", color=NEUTRAL, ecolor="black", capsize=3, lw=1)
        if k == "first_player_advantage":
            ax.axhline(0, color=GREY, ls="--", lw=1)
        ax.set_xticks(x, [r["rung"] for r in rows], rotation=30, ha="right")
        kind = {"unchanged": "holds for skill", "changed": "changes with skill", "cannot_tell": "cannot tell yet"}
        ax.set_title(f"{k.replace('_', ' ')}\n{kind.get(sk.get('kind') or '', 'no comparison')}", fontsize=9)
        unit = rows[0]["unit"] if rows else ""
        ax.set_ylabel({"share": "percentage points", "rate": "% of games"}.get(unit, unit))
    return fig


def team(d: dict) -> Any:
    """Co-operative: the team's win rate per rung (every hunter that rung), Wilson 95% intervals."""
    t = d.get("team")
    if not t:
        return None
    fig, (ax,) = _figure(0.8 * len(t) + 2.5, 3.0)
    x = list(range(len(t)))
    v, lo, hi = _whiskers([Estimate.of(r, "win_rate") for r in t], 100)
    ax.bar(x, v, color=SEAT[2], alpha=0.85, width=0.6)
    ax.errorbar(
        x,
        v,
        yerr=[lo, hi],
        fmt="none",
        ecolor="black",
        capsize=3,
        lw=1,
    )
    ax.set_xticks(x, [r["rung"] for r in t], rotation=20)
    ax.set_ylabel("team win rate (%)")
    ax.set_title("team win rate per rung")
    return fig


def matrix(d: dict) -> Any:
    """Asymmetric: the hunters' win rate for each Head Haunter rung (rows) against each hunter rung (columns)."""
    import numpy as np

    m = d.get("matrix")
    if not m:
        return None
    rows, cols = m["rows"], m["cols"]
    a = np.full((len(rows), len(cols)), np.nan)
    for c in m["cells"]:
        a[rows.index(c["row"]), cols.index(c["col"])] = c["hunters_win_rate"]
    width = 0.9 * len(cols) + 2.8
    fig, (ax,) = _figure(width, 0.6 * len(rows) + 1.5)
    im = ax.imshow(100 * a, cmap="RdBu", vmin=0, vmax=100)
    ax.set_xticks(range(len(cols)), cols, rotation=30, ha="right")
    ax.set_yticks(range(len(rows)), rows)
    for i in range(len(rows)):
        for j in range(len(cols)):
            if np.isfinite(a[i, j]):  # a pairing not played: an empty cell, not 'nan'
                c = cell_text_color(im, 100 * a[i, j])
                ax.text(j, i, f"{100 * a[i, j]:.0f}", ha="center", va="center", fontsize=8, color=c)
    title = ["hunters' win rate (%):", f"{m['row_role']} (rows) x hunters (columns)"]
    ax.set_title(fit_lines(title, width - 0.4, RC["axes.titlesize"]))  # the whole title in the figure
    fig.colorbar(im, ax=ax, shrink=0.8)
    return fig
