"""The summary as Polars tables, and as Markdown text (for summary.md and the terminal)."""
from __future__ import annotations

import polars as pl


def pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def ci(c) -> str:
    return f"[{100 * c[0]:.2f}, {100 * c[1]:.2f}]"


def seat_frame(s: dict) -> pl.DataFrame:
    """One row per seat: strategy, win rate with its 95% Wilson interval, sole/shared wins, score stats."""
    rows = []
    for r in s["seats"]:
        sc = r["score"]
        rows.append({"seat": r["seat"], "strategy": r["strategy"], "role": r["role"],
                     "win rate": pct(r["win"]["rate"]), "95% CI": ci(r["win"]["ci95"]),
                     "wins": r["sole_wins"], "shared": r["shared_wins"],
                     "score mean": round(sc["mean"], 2), "score sd": round(sc["std"], 2),
                     "p05": sc["quantiles"]["p05"], "median": sc["quantiles"]["p50"], "p95": sc["quantiles"]["p95"]})
    return pl.DataFrame(rows)


def strategy_frame(s: dict) -> pl.DataFrame:
    return pl.DataFrame([{"strategy": r["strategy"], "role": r["role"], "seats": ",".join(map(str, r["seats"])),
                          "win rate per seat": pct(r["win"]["rate"]), "95% CI": ci(r["win"]["ci95"])}
                         for r in s["strategies"]])


def length_frame(s: dict) -> pl.DataFrame:
    rows = []
    for k in ("turns", "rounds"):
        d = s["length"][k]
        rows.append({"length": k, "mean": round(d["mean"], 2), "sd": round(d["std"], 2), "min": d["min"],
                     **{q: v for q, v in d["quantiles"].items()}, "max": d["max"]})
    return pl.DataFrame(rows)


def extras_frame(s: dict) -> pl.DataFrame | None:
    rows = []
    for k, d in s["extras"].items():
        if "counts" in d:
            total = sum(d["counts"].values()) or 1
            rows.append({"counter": k, "value": ", ".join(f"{lab} {pct(c / total)}" for lab, c in d["counts"].items())})
        else:
            rows.append({"counter": k, "value": f"mean {d['mean']:.3f}, sd {d['std']:.3f}, "
                                                f"median {d['quantiles']['p50']}, max {d['max']}"})
    return pl.DataFrame(rows) if rows else None


def md(df: pl.DataFrame) -> str:
    with pl.Config(tbl_formatting="MARKDOWN", tbl_hide_column_data_types=True, tbl_hide_dataframe_shape=True,
                   tbl_rows=-1, tbl_cols=-1, tbl_width_chars=400, fmt_str_lengths=200):
        return str(df)


def render_markdown(s: dict) -> str:
    """The whole summary as Markdown."""
    sc = s["scenario"]
    g = s["games"]
    fp = s["first_player"]
    out = [f"# {sc['name']}: {s['game_title']}, {sc['players']} players", ""]
    if sc.get("description"):
        out += [sc["description"], ""]
    pv = s.get("provenance")
    if pv:
        out += [f"seed {pv['seed']} · {pv['games']} games · rules v{pv['rules_version']} · RNG contract "
                f"v{pv['rng_contract']} · commit {pv['git_commit'][:12]} · {pv['wall_time_s']} s on "
                f"{pv['threads']} threads", ""]
    out += [f"Finished games: {g['finished']} of {g['played']} (truncated at the turn cap: {g['truncated']}, "
            f"errors: {g['errors']})", ""]
    if g["finished"] == 0:
        out += ["**No game finished: every game hit the turn cap (max_turns) or failed, so there are no win rates, "
                "scores or lengths to report. Raise max_turns.**", ""]
        return "\n".join(out) + "\n"
    if g["truncated"]:
        out += [f"**Warning: {100 * g['truncated_rate']:.2f}% of games hit the turn cap and are left out of every "
                f"figure below.**", ""]
    out += ["## Win rate by seat", "", md(seat_frame(s)), ""]
    out += ["## Win rate by strategy", "", md(strategy_frame(s)), ""]
    out += ["## Balance", ""]
    if fp["fair_share"] is not None:
        out += [f"- First-player advantage: start player wins {pct(fp['win']['rate'])} {ci(fp['win']['ci95'])} "
                f"against a fair share of {pct(fp['fair_share'])} (advantage {100 * fp['advantage']:+.2f} points).",
                "- Win rate by turn position: " + ", ".join(
                    f"position {p['position']}: {pct(p['win']['rate'])}" for p in s["positions"]),
                f"- Shared wins (tie rate): {pct(s['ties']['tie_rate'])} of finished games."]
    if "tiebreak_decided" in s["ties"]:
        out.append(f"- Top score tied, settled by the tie-break: {pct(s['ties']['tiebreak_rate'])}.")
    if s.get("team"):
        out.append("- Team win rates: " + ", ".join(
            f"{role} {pct(r['rate'])} {ci(r['ci95'])}" for role, r in s["team"].items()))
    out += ["", "## Game length", "", md(length_frame(s)), ""]
    ef = extras_frame(s)
    if ef is not None:
        out += ["## Game counters", "", md(ef), ""]
    for name, c in s.get("curves", {}).items():
        vals = [f"{v:.2f}" for v in c["mean_by_round"][:20] if v is not None]
        out += [f"- {name} by round (mean over games still running): " + " ".join(vals)]
    return "\n".join(out) + "\n"
