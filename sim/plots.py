"""Plots for the balance and comparison reports: matplotlib (Agg, no pyplot state) to inline SVG strings.

SVG is self-contained (no JavaScript, no network) and byte-identical across runs: ``svg.hashsalt`` is fixed, the
date metadata is dropped, text stays text (``svg.fonttype = none``: small files, the browser's sans-serif font).
Plots inlined in one HTML page get their ids prefixed per plot (`scope_ids`), so no id repeats on the page.
Every function takes the summary dict (sim.summary, schema 1) or a comparison dict and returns one ``<svg>`` element
as a string, or None when there is nothing to draw.
"""
from __future__ import annotations

import io
import re

from sim import catalogue

RC = {"svg.hashsalt": "ghost-sim", "svg.fonttype": "none", "font.size": 9, "axes.titlesize": 10,
      "axes.spines.top": False, "axes.spines.right": False, "font.family": "sans-serif"}
BLUE, ORANGE, GREY = "#3b6ea8", "#d9822b", "#888888"
PALETTE = ("#3b6ea8", "#d9822b", "#4f9a57", "#b5464b", "#7d5fa6", "#8c6d4f", "#d67ab1", "#6f6f6f")


def _figure(w: float, h: float, ncols: int = 1, nrows: int = 1, **kw):
    import matplotlib
    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure
    fig = Figure(figsize=(w, h), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False, **kw)
    return fig, [a for row in axes for a in row]


def to_svg(fig) -> str:
    """The figure as one ``<svg>`` element (XML prolog and DOCTYPE removed so it can sit inside HTML)."""
    import matplotlib
    buf = io.StringIO()
    with matplotlib.rc_context(RC):
        fig.savefig(buf, format="svg", metadata={"Date": None})
    text = buf.getvalue()
    return text[text.index("<svg"):].strip()


_ID = re.compile(r'\bid="([^"]+)"')


def scope_ids(svg: str, prefix: str) -> str:
    """The same SVG with every element id (clip paths, marker defs, figure/axes groups) and every reference to one
    (``url(#id)``, ``href="#id"``) prefixed, so several plots inlined in one HTML page never share an id (matplotlib
    numbers ids per figure and hashes clip paths by content, so two plots repeat them). Deterministic."""
    prefix = re.sub(r"[^A-Za-z0-9_.-]", "_", prefix)
    ids = set(_ID.findall(svg))
    if not ids:
        return svg

    def ref(m: re.Match) -> str:
        return m.group(1) + prefix + m.group(2) + m.group(3) if m.group(2) in ids else m.group(0)
    svg = _ID.sub(lambda m: f'id="{prefix}{m.group(1)}"', svg)
    svg = re.sub(r'(url\(#)([^)"\s]+)(\))', ref, svg)
    return re.sub(r'(href="#)([^"]+)(")', ref, svg)


def render(fn, *args) -> str | None:
    """Call a plot function under the report's rc settings and return its SVG (None when it draws nothing)."""
    import matplotlib
    with matplotlib.rc_context(RC):
        fig = fn(*args)
        if fig is None:
            return None
        return to_svg(fig)


def _errbars(ax, labels, rates, cis, color, fair=None, title=""):
    import numpy as np
    x = np.arange(len(labels))
    lo = [max(r - c[0], 0.0) for r, c in zip(rates, cis)]
    hi = [max(c[1] - r, 0.0) for r, c in zip(rates, cis)]
    ax.bar(x, [100 * r for r in rates], color=color, alpha=0.85, width=0.6)
    ax.errorbar(x, [100 * r for r in rates], yerr=[[100 * v for v in lo], [100 * v for v in hi]], fmt="none",
                ecolor="black", capsize=3, lw=1)
    if fair is not None:
        ax.axhline(100 * fair, color=GREY, ls="--", lw=1)
        title += f"\n(dashed: fair share {100 * fair:.1f}%)"
    ax.set_xticks(x, labels, rotation=20 if max((len(s) for s in labels), default=0) > 8 else 0)
    ax.set_ylabel("win rate (%)")
    ax.set_title(title)
    top = max((c[1] for c in cis), default=0.0)
    ax.set_ylim(0, min(100, 100 * top * 1.15 + 1))


def win_rates(s: dict):
    """Win rate per seat, per turn position and per strategy (when mixed), with 95% Wilson interval bars; the team
    win rates for cooperative games."""
    n = len(s["seats"])
    coop = bool(s.get("team"))
    panels = []
    cat = catalogue.for_summary(s)
    if coop:
        roles = list(s["team"])
        panels.append((cat.label("team_win_rate"), [cat.label(f"team.{r}") for r in roles],
                       [s["team"][r]["rate"] for r in roles], [s["team"][r]["ci95"] for r in roles], None))
    else:
        fair = 1.0 / n
        panels.append(("by seat", [f"seat {r['seat']}\n{r['strategy']}" for r in s["seats"]],
                       [r["win"]["rate"] for r in s["seats"]], [r["win"]["ci95"] for r in s["seats"]], fair))
        if s.get("positions"):
            panels.append(("by turn position (0 = starts)", [str(p["position"]) for p in s["positions"]],
                           [p["win"]["rate"] for p in s["positions"]], [p["win"]["ci95"] for p in s["positions"]],
                           fair))
        if len(s["strategies"]) > 1:
            panels.append(("by strategy (per seat)", [r["strategy"] for r in s["strategies"]],
                           [r["win"]["rate"] for r in s["strategies"]], [r["win"]["ci95"] for r in s["strategies"]],
                           fair))
    fig, axes = _figure(3.2 * len(panels) + 0.6, 3.0, ncols=len(panels))
    for ax, (title, labels, rates, cis, fair), color in zip(axes, panels, PALETTE):
        _errbars(ax, labels, rates, cis, color, fair, title)
    return fig


def scores(s: dict):
    """Score distribution per seat (share of finished games at each score)."""
    import numpy as np
    seats = [r for r in s["seats"] if r["score"]["n"]]
    if not seats or all(r["score"]["max"] == r["score"]["min"] for r in seats):
        return None
    fig, (ax,) = _figure(7.0, 3.0)
    for r, color in zip(seats, PALETTE * 4):
        h = r["score"]["hist"]
        c = np.asarray(h["counts"], float)
        x = h["lo"] + np.arange(len(c))
        ax.step(x, 100 * c / c.sum(), where="mid", color=color, lw=1.2,
                label=f"seat {r['seat']} {r['strategy']} (mean {r['score']['mean']:.1f})")
    cat = catalogue.for_summary(s)
    ax.set_xlabel(f"final score ({cat.unit('score.seat0')})")
    ax.set_ylabel("games (%)")
    ax.set_title(f"distribution of the final score per seat: {cat.definition('score.seat0').split('(')[0].strip()}")
    ax.legend(fontsize=7, frameon=False)
    return fig


def length(s: dict):
    """Game length: histograms of turns and of rounds."""
    import numpy as np
    cat = catalogue.for_summary(s)
    fig, axes = _figure(7.0, 2.8, ncols=2)
    for ax, key, color in zip(axes, ("turns", "rounds"), (BLUE, ORANGE)):
        d = s["length"][key]
        c = np.asarray(d["hist"]["counts"], float)
        if not c.size or c.sum() == 0:
            continue
        x = d["hist"]["lo"] + np.arange(len(c))
        ax.bar(x, 100 * c / c.sum(), width=1.0, color=color, alpha=0.85)
        ax.axvline(d["mean"], color="black", lw=1, ls="--", label=f"mean {d['mean']:.1f}")
        ax.set_xlabel(cat.unit(f"length.{key}"))
        ax.set_ylabel("games (%)")
        ax.set_title(cat.label(f"length.{key}"))
        ax.legend(fontsize=7, frameon=False)
    return fig


def margin(s: dict):
    """Decisiveness: distribution of the winner's margin."""
    import numpy as np
    d = s.get("decisiveness")
    if not d or not d["margin"]["n"]:
        return None
    h = d["margin"]["hist"]
    c = np.asarray(h["counts"], float)
    x = h["lo"] + np.arange(len(c))
    fig, (ax,) = _figure(7.0, 2.6)
    ax.bar(x, 100 * c / c.sum(), width=1.0, color=PALETTE[2], alpha=0.85)
    cat = catalogue.for_summary(s)
    ax.set_xlabel(f"{cat.label('margin')} ({cat.unit('margin')})")
    ax.set_ylabel("games (%)")
    ax.set_title(cat.label("margin"))
    return fig


def curves(s: dict):
    """Game-specific per-round curves (e.g. hauntings and ghosts by round): mean over games still running, and the
    share of games still running at each round."""
    import numpy as np
    cv = s.get("curves") or {}
    if not cv:
        return None
    fin = s["games"]["finished"] or 1
    fig, axes = _figure(7.0, 2.8, ncols=2)
    last = 0
    for (name, c), color in zip(cv.items(), PALETTE * 4):
        m = [np.nan if v is None else v for v in c["mean_by_round"]]
        alive = [g for g in c["games_by_round"]]
        r = [i for i, g in enumerate(alive) if g >= min_games(fin)]   # late rounds of a few long games: noise
        if not r:
            continue
        last = max(last, r[-1])
        x = np.arange(1, len(m) + 1)
        lab = catalogue.for_summary(s).label(f"curve.{name}")
        axes[0].plot(x[: r[-1] + 1], m[: r[-1] + 1], color=color, lw=1.4, marker="o", ms=2.5, label=lab)
        axes[1].plot(x[: r[-1] + 1], [100 * g / fin for g in alive[: r[-1] + 1]], color=color, lw=1.2, label=lab)
    from matplotlib.ticker import MaxNLocator
    for ax in axes:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes[0].set_title(f"mean by round (rounds reached by >= {min_games(fin)} games)")
    axes[0].set_xlabel("round")
    axes[0].legend(fontsize=7, frameon=False)
    axes[1].set_title("games still running")
    axes[1].set_xlabel("round")
    axes[1].set_ylabel("games (%)")
    return fig


def min_games(finished: int) -> int:
    """Rounds reached by fewer games than this are left out of the per-round curves (means of a handful of long
    games are noise)."""
    return max(30, finished // 200)


def matchups(s: dict):
    """Strategy-vs-strategy matrix: share of pairings in which the row strategy outscored the column's."""
    import numpy as np
    m = s.get("matchups") or {}
    names = sorted(m)
    if len(names) < 2:
        return None
    a = np.array([[m[r].get(c, np.nan) for c in names] for r in names], float)
    fig, (ax,) = _figure(1.2 * len(names) + 2.4, 1.0 * len(names) + 1.2)
    im = ax.imshow(100 * a, cmap="RdBu", vmin=30, vmax=70)
    ax.set_xticks(range(len(names)), names, rotation=30)
    ax.set_yticks(range(len(names)), names)
    for i in range(len(names)):
        for j in range(len(names)):
            if not np.isnan(a[i, j]):
                ax.text(j, i, f"{100 * a[i, j]:.1f}", ha="center", va="center", fontsize=8)
    ax.set_title("row outscores column (%)")
    fig.colorbar(im, ax=ax, shrink=0.8)
    return fig


def categorical(s: dict, col: str):
    """Shares of a categorical game counter (e.g. the outcome / loss causes), with 95% Wilson interval bars."""
    from sim.metrics import wilson
    d = s["extras"].get(col, {})
    counts = d.get("counts")
    if not counts:
        return None
    cat = catalogue.for_summary(s)
    total = sum(counts.values())
    keys = [k for k in counts if cat.shown(f"extra.{col}={k}")]
    if not keys:
        return None
    labels = [cat.label(f"extra.{col}={k}") for k in keys]
    rates = [counts[k] / total for k in keys]
    cis = [wilson(counts[k], total) for k in keys]
    fig, (ax,) = _figure(7.0, 0.32 * len(keys) + 1.0)
    y = list(range(len(keys)))[::-1]
    ax.barh(y, [100 * r for r in rates], color=PALETTE[3], alpha=0.85, height=0.6)
    ax.errorbar([100 * r for r in rates], y, xerr=[[100 * max(r - c[0], 0) for r, c in zip(rates, cis)],
                                                   [100 * max(c[1] - r, 0) for r, c in zip(rates, cis)]],
                fmt="none", ecolor="black", capsize=2, lw=1)
    ax.set_yticks(y, labels)
    ax.set_xlabel("finished games (%)")
    ax.set_title(cat.label(f"extra.{col}"))
    return fig


def compare_forest(res: dict):
    """B - A with 95% intervals: rates in percentage points (left), means relative to A in percent (right)."""
    import numpy as np
    rows = [r for r in res["metrics"] if r["p"] is not None]
    rates = [r for r in rows if r["kind"] == "rate"]
    means = [r for r in rows if r["kind"] == "mean" and r["a"] != 0]
    panels = [(rates, "B - A (percentage points)", 100.0, False), (means, "B - A (% of A)", None, True)]
    panels = [p for p in panels if p[0]]
    if not panels:
        return None
    h = max(len(p[0]) for p in panels) * 0.22 + 1.0
    fig, axes = _figure(4.2 * len(panels), h, ncols=len(panels))
    for ax, (rs, title, mult, rel) in zip(axes, panels):
        y = np.arange(len(rs))[::-1]
        for yi, r in zip(y, rs):
            f = 100.0 / abs(r["a"]) if rel else mult
            c = BLUE if not r["significant"] else ORANGE
            ax.errorbar([f * r["diff"]], [yi], xerr=[[f * (r["diff"] - r["diff_ci95"][0])],
                                                      [f * (r["diff_ci95"][1] - r["diff"])]],
                        fmt="o", color=c, ms=3, capsize=2, lw=1)
        ax.axvline(0, color=GREY, lw=1)
        ax.set_yticks(y, [r.get("label") or r["name"] for r in rs], fontsize=7)
        ax.set_title(title)
    fig.suptitle("orange: significant after Holm correction", fontsize=8)
    return fig
