"""A ladder's report folder ``reports/ladder-<game>-<N>p/``: ladder.json (the machine contract), ladder.parquet (one
row per figure: section, rung, opponent, figure, value, ci_low, ci_high, n) and ladder.html, beside the stored
tables (points/, `sim.play.ladder`). ladder.json is written last: a folder without it holds an unfinished ladder
(its tables are kept for a rerun)."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

from sim.model.ladder_spec import Ladder
from sim.output.sweep_output import SweepOutputError
from sim.play.ladder import TableGames
from sim.stats import budget_steps
from sim.stats import ladder_fit as lf
from sim.stats.aggregate import WIN_UNITS
from sim.stats.records import Estimate

SCHEMA = 1
OUTPUTS = ("ladder.json", "ladder.parquet", "ladder.html")
# strategy parameters that measure how much a player thinks: a rung family varying one gets the rating-vs-budget plot
BUDGET_PARAMS = ("budget", "depth", "rollouts", "iterations", "playouts", "time_ms", "simulations")


def folder_for(ld: Ladder, out: str | Path | None = None) -> Path:
    from sim.model import paths

    return Path(out) if out else paths.REPORTS / ld.folder_name()


class LadderOutputError(SweepOutputError):
    """--out names a folder a ladder cannot write: a file, a folder of other things, or one it cannot create (one
    line). A SweepOutputError too, so a caller catching the output folder's refusals of both catches both."""


def prepare(folder: Path) -> None:
    """Make ``folder`` ready: refuse a folder of other things (`sim.output.sweep_output.prepare`'s rules: a folder
    that is new, empty, or holds stored points or earlier outputs), keep stored tables and an earlier ladder's outputs (a complete report of its own settings) until `write` replaces
    them: an interrupted rerun, even ``--fresh``, leaves the earlier report as it was. Raises LadderOutputError."""
    folder = Path(folder)
    if folder.exists():
        if not folder.is_dir():
            raise LadderOutputError(f"--out: {folder} is a file; give a folder")
        kids = [p.name for p in folder.iterdir()]
        if kids and "points" not in kids and not any(o in kids for o in OUTPUTS):
            raise LadderOutputError(f"--out: {folder} exists and is not a ladder folder; give a new or empty folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise LadderOutputError(
            f"--out: cannot create {folder} ({e.strerror or e}); give a folder that can be written"
        ) from None


def _anchor(ld: Ladder) -> int:
    for i, r in enumerate(ld.rungs):
        if r.strategy == "random" or r.strategy.endswith("_random"):
            return i
    return 0


def _table_row(ld: Ladder, tg: TableGames) -> dict:
    fin = tg.finished
    n = int(fin.sum())
    row: dict[str, Any] = {
        "index": tg.table.index,
        "kind": tg.table.kind,
        "rungs": [ld.rungs[i].text for i in tg.table.rungs],
        "games": int(len(fin)),
        "finished": n,
    }
    if "win.seat0" in tg.values:
        row["seat_win_rate"] = [
            float(tg.values[f"win.seat{s}"][fin].sum()) / WIN_UNITS / max(n, 1) for s in range(ld.players)
        ]
    else:
        row["team_win_rate"] = {
            k[5:]: float(v[fin].sum()) / max(n, 1) for k, v in tg.values.items() if k.startswith("team.")
        }
    return row


def budget_families(ld: Ladder, rating: dict | None) -> dict:
    """Rung families that vary a budget-like parameter (`BUDGET_PARAMS`) and nothing else: one strategy, every other
    parameter the same as played (`_played`: ``search:budget=2`` and ``search:budget=4,rollout=learned`` are one
    family where learned rollouts are the default; with weighted rollouts another). ``fixed``: the parameters the
    family's rungs name besides the budget (their words, short). ``rating``: `ladder_fit.rate`'s dict of a rated
    ladder (None: no Elo). Returns {found, note, families: [{strategy, param, fixed, points: [{value, rung, elo,
    ci95}]}]}."""
    rows = rating["ratings"] if rating else None
    groups: dict[tuple, list[tuple[float, int, Any]]] = {}
    for i, r in enumerate(ld.rungs):
        given = dict(r.params)
        played = _played(ld, i) or given
        for p in BUDGET_PARAMS:
            v = given.get(p)  # a budget the rung names (a default budget varies nothing)
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                same = tuple(sorted((k, str(x)) for k, x in played.items() if k != p))
                groups.setdefault((r.strategy, p, same), []).append((v, i, r))
    fams = []
    for (strat, p, _), pts in groups.items():
        if len({v for v, _, _ in pts}) < 2:
            continue
        named = {k: v for _, _, r in pts for k, v in r.params if k != p}
        fams.append(
            {
                "strategy": strat,
                "param": p,
                "fixed": {k: str(v) for k, v in sorted(named.items())},
                "points": [
                    {
                        "value": v,
                        "rung": r.text,
                        "elo": None if rows is None else rows[i]["elo"],
                        "ci95": None if rows is None else rows[i]["ci95"],
                    }
                    for v, i, r in sorted(pts, key=lambda x: x[0])
                ],
            }
        )
    note = (
        ""
        if fams
        else "No rung family varies a budget-like parameter ("
        + ", ".join(BUDGET_PARAMS)
        + "): the rating-against-budget plot appears once rungs such as search:budget=16, search:budget=64 are in "
        "the ladder."
    )
    return {"found": bool(fams), "note": note, "families": fams}


def _played(ld: Ladder, rung: int) -> dict | None:
    """Rung ``rung``'s parameters as played (`sim.model.search.seats_as_played` of a table it sits at: every
    parameter, a search rung's "auto" tie-break resolved for its role); None when it sits at no table."""
    from sim.model.search import seats_as_played

    for t in ld.tables:
        if rung in t.rungs:
            return seats_as_played(t.scenario)[t.rungs.index(rung)]["params"]
    return None


def document(ld: Ladder, tables: list[TableGames], prov: dict) -> dict:
    """ladder.json: the design, per-table results, ratings and luck-versus-skill (competitive), team win rates
    (co-operative), the Head Haunter x hunter matrix (asymmetric), balance at each rung with trend verdicts."""
    names = [r.text for r in ld.rungs]
    doc: dict[str, Any] = {
        "kind": "ladder",
        "schema": SCHEMA,
        "game": ld.base.game,
        "title": ld.base.spec.title,
        "label": ld.label,
        "players": ld.players,
        "mode": ld.mode,
        "scenario": {
            "name": ld.base.name,
            "game": ld.base.game,
            "path": ld.base.path,
            "params": ld.base.to_dict()["params"],
        },
        "games_per_table": ld.games,
        "balance_games": ld.balance_games,
        "seed": ld.seed,
        "rungs": [
            {"rung": r.text, "strategy": r.strategy, "params": dict(r.params), "role": r.role, "played": _played(ld, i)}
            for i, r in enumerate(ld.rungs)
        ],
        "tables": [_table_row(ld, t) for t in tables],
        "provenance": prov,
    }
    anchor = _anchor(ld)
    doc["anchor"] = names[anchor]
    elo: list[float] | None = None
    if ld.mode == "competitive":
        counts = []
        for tg in tables:
            if tg.table.kind != "mixed":
                continue
            shares = lf_shares(tg, ld.players)
            m, c = lf.winner_patterns(shares, tg.finished)
            counts.append(lf.TableCounts(tg.table.rungs, m, c))
        doc["rating"] = lf.rate(counts, names, anchor, ld.seed)
        elo = [r["elo"] for r in doc["rating"]["ratings"]]
    team_games: dict[str, Any] = {}
    if ld.mode == "cooperative":
        team = []
        for tg in tables:
            fin = tg.finished
            n = int(fin.sum())
            role = next(k for k in tg.values if k.startswith("team."))
            k = float(tg.values[role][fin].sum())
            lo, hi = lf.wilson95(k, n)
            team.append({"rung": names[tg.table.rungs[0]], "win_rate": k / max(n, 1), "ci95": [lo, hi], "games": n})
            team_games[names[tg.table.rungs[0]]] = (tg.values[role], fin)
        doc["team"] = team
        elo = None
    if ld.mode == "asymmetric":
        doc["matrix"] = matrix(ld, tables)
    doc["budget"] = budget_families(ld, doc.get("rating"))
    doc["budget"]["steps"] = budget_steps.steps(
        doc["budget"]["families"], names, doc.get("rating"), doc.get("team"), team_games
    )
    doc["balance"] = balance(ld, tables, elo, doc.get("team"))
    return doc


def lf_shares(tg: TableGames, players: int):
    import numpy as np

    return np.stack([tg.values[f"win.seat{s}"] for s in range(players)], axis=1)


def matrix(ld: Ladder, tables: list[TableGames]) -> dict:
    """Head Haunter rung x hunter rung: the hunters' team win rate with its Wilson interval, and mean length."""
    names = [r.text for r in ld.rungs]
    lead_role = ld.base.spec.roles(ld.base.params, ld.players)[0]
    rows = [i for i, r in enumerate(ld.rungs) if r.role == lead_role]
    cols = [i for i, r in enumerate(ld.rungs) if r.role != lead_role]
    cells = []
    for tg in tables:
        fin = tg.finished
        n = int(fin.sum())
        key = next(k for k in tg.values if k.startswith("team.") and k != f"team.{lead_role}")
        k = float(tg.values[key][fin].sum())
        lo, hi = lf.wilson95(k, n)
        cells.append(
            {
                "row": names[tg.table.rungs[0]],
                "col": names[tg.table.rungs[1]],
                "hunters_win_rate": k / max(n, 1),
                "ci95": [lo, hi],
                "games": n,
                "length_turns": float(tg.values["length.turns"][fin].mean()) if n else None,
            }
        )
    return {
        "rows": [names[i] for i in rows],
        "cols": [names[i] for i in cols],
        "row_role": ld.base.spec.role_title(lead_role),
        "col_role": "hunters",
        "cells": cells,
    }


FIGURE_WORDS = {
    "first_player_advantage": "first-player advantage (start player's win rate minus the fair share)",
    "seat_spread": "seat spread (highest seat win rate minus the lowest)",
    "length_turns": "game length (mean turns)",
    "comeback": "comebacks (games won by a child who was alone in last place after some round)",
    "last_at_half_wins": "the child alone in last place at half-time still wins",
}


def paired_figure(key: str, a: TableGames, ref: TableGames, players: int) -> tuple[float, float, int] | None:
    """Table ``a``'s figure minus the reference table's, game by game over the games both finished (the tables play
    the same seeds: common random numbers), as (difference, standard error, games); None for a figure that is not
    a per-game mean (seat spread) or tables of different lengths."""
    from sim.stats.aggregate import WIN_UNITS

    col = {
        "first_player_advantage": "first_player.win",
        "length_turns": "length.turns",
        "comeback": "arc.comeback",
    }.get(key)  # (last_at_half_wins: over the games where it is defined, which differ by table: not paired)
    if key.startswith("team_win_rate."):
        col = "team." + key.split(".", 1)[1]
    if col is None or col not in a.values or len(a.finished) != len(ref.finished):
        return None
    both = a.finished & ref.finished
    scale = float(WIN_UNITS) if col == "first_player.win" else 1.0
    d = (a.values[col][both] - ref.values[col][both]) / scale
    n = int(both.sum())
    if n < 2:
        return None
    return float(d.mean()), float(d.std(ddof=1) / math.sqrt(n)), n


def reference_rung(ld: Ladder, mono_rungs: list[int]) -> int:
    """The position in ``mono_rungs`` (rung indices) of the table balance is judged against: the rung the ladder's
    scenario seats at every seat (its own scripted players), else the first rung given that is not a random one."""
    own = {s.strategy for s in ld.base.seats}
    texts = [ld.rungs[i].text for i in mono_rungs]
    if len(own) == 1 and next(iter(own)) in texts:
        return texts.index(next(iter(own)))
    for order in range(len(ld.rungs)):
        if order in mono_rungs and not (ld.rungs[order].text == "random" or ld.rungs[order].text.endswith("_random")):
            return mono_rungs.index(order)
    return 0


def reference_why(ld: Ladder, text: str) -> str:
    """Why rung ``text`` is the reference (`reference_rung`), in words for the page."""
    own = {s.strategy for s in ld.base.seats}
    if own == {text}:
        return "the scenario's own players"
    return "the first rung given that is not a random player"


def balance(ld: Ladder, tables: list[TableGames], elo: list[float] | None, team: list[dict] | None) -> dict:
    """The balance figures at each rung's mono table, with a verdict per figure on whether it holds for skill
    (`sim.stats.ladder_fit.skill_verdicts`: every rung rated above the reference table against it; x: the rung's
    Elo rating; co-operative: its team win rate in points). Asymmetric ladders have no mono tables: empty."""
    mono = [tg for tg in tables if tg.table.kind == "mono"]
    if not mono:
        return {"rungs": [], "figures": {}, "x": None}
    is_team = ld.mode == "cooperative"
    per: dict[str, list[dict]] = {}

    def skill(tg: TableGames) -> float:
        i = tg.table.rungs[0]
        if elo is not None:
            return elo[i]
        return next(t["win_rate"] for t in (team or []) if t["rung"] == ld.rungs[i].text) * 100

    mono.sort(key=skill)  # weakest first: the page reads left to right as skill rises
    xs = [skill(tg) for tg in mono]
    for tg in mono:
        i = tg.table.rungs[0]
        figs = lf.balance_figures(tg.values, tg.finished, ld.players, is_team)
        for k, f in figs.items():
            per.setdefault(k, []).append({"rung": ld.rungs[i].text, **f})
    judged = {k: rows for k, rows in per.items() if not (is_team and k.startswith("team_win_rate"))}
    ref = reference_rung(ld, [tg.table.rungs[0] for tg in mono])
    verdicts = lf.skill_verdicts(
        judged,
        xs,
        ref,
        margins=dict(ld.margins),
        paired=lambda k, i, j: paired_figure(k, mono[i], mono[j], ld.players),
    )
    out = {k: {"words": FIGURE_WORDS.get(k, k), "per_rung": rows, "skill": verdicts[k]} for k, rows in judged.items()}
    return {
        "reference": ld.rungs[mono[ref].table.rungs[0]].text,
        "reference_why": reference_why(ld, ld.rungs[mono[ref].table.rungs[0]].text),
        "rungs": [ld.rungs[tg.table.rungs[0]].text for tg in mono],
        "x": xs,
        "x_words": "rating (Elo)" if elo is not None else "team win rate (points)",
        "figures": out,
        "note": lf.close_words(
            max(xs) - xs[ref],
            "Elo" if elo is not None else "points",
            ld.rungs[mono[ref].table.rungs[0]].text,
            ld.rungs[mono[max(range(len(xs)), key=xs.__getitem__)].table.rungs[0]].text,
        ),
    }


def frame_rows(doc: dict) -> list[dict]:
    """ladder.parquet's rows (long format; see the module docstring)."""
    rows: list[dict] = []

    def add(section: str, rung: str, opponent: str | None, figure: str, e: Estimate, n: Any = None):
        lo, hi = e.ci95 or (None, None)
        rows.append(
            {
                "section": section,
                "rung": rung,
                "opponent": opponent,
                "figure": figure,
                "value": _f(e.value),
                "ci_low": _f(lo),
                "ci_high": _f(hi),
                "n": _f(n),
            }
        )

    rt = doc.get("rating")
    if rt:
        names = [r["rung"] for r in rt["ratings"]]
        for r in rt["ratings"]:
            add("rating", r["rung"], None, "elo", Estimate.of(r, "elo"), r["pairs"])
        h = rt["head_to_head"]
        for i, a in enumerate(names):
            for j, b in enumerate(names):
                if i != j:
                    add(
                        "head_to_head",
                        a,
                        b,
                        "win_share",
                        Estimate(h["matrix"][i][j], (h["ci_low"][i][j], h["ci_high"][i][j])),
                        h["pairs"][i][j],
                    )
        for k, v in rt["luck"].items():
            add("luck", "", None, k, Estimate.of(v))
    for t in doc.get("team") or []:
        add("team", t["rung"], None, "team_win_rate", Estimate.of(t, "win_rate"), t["games"])
    m = doc.get("matrix")
    if m:
        for c in m["cells"]:
            add("matrix", c["row"], c["col"], "hunters_win_rate", Estimate.of(c, "hunters_win_rate"), c["games"])
    for k, f in doc["balance"].get("figures", {}).items():
        for r in f["per_rung"]:
            add("balance", r["rung"], None, k, Estimate.of(r))
    return rows


def _clean(x: Any) -> Any:
    """``x`` with every nan or infinite float as None (ladder.json is strict JSON) and numpy numbers as Python's."""
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_clean(v) for v in x]
    if isinstance(x, bool) or x is None or isinstance(x, str):
        return x
    if isinstance(x, int):
        return x
    try:
        return _f(x)
    except (TypeError, ValueError):
        return x


def _f(v: Any) -> float | None:
    if v is None:
        return None
    v = float(v)
    return v if math.isfinite(v) else None


def write(folder: Path, doc: dict) -> None:
    """ladder.parquet, ladder.html, then ladder.json (each by rename)."""
    import polars as pl

    from sim.pages import ladder_page

    folder = Path(folder)
    schema = {
        "section": pl.String,
        "rung": pl.String,
        "opponent": pl.String,
        "figure": pl.String,
        "value": pl.Float64,
        "ci_low": pl.Float64,
        "ci_high": pl.Float64,
        "n": pl.Float64,
    }
    (folder / "ladder.json").unlink(missing_ok=True)  # the earlier ladder's: until the new one is in, not complete
    tmp = folder / f".ladder.parquet.{os.getpid()}"
    pl.DataFrame(frame_rows(doc), schema=schema).write_parquet(tmp)
    os.replace(tmp, folder / "ladder.parquet")
    th = folder / f".ladder.html.{os.getpid()}"
    th.write_text(ladder_page.render(doc), encoding="utf-8")
    os.replace(th, folder / "ladder.html")
    tj = folder / f".ladder.json.{os.getpid()}"
    tj.write_text(json.dumps(_clean(doc), indent=1, allow_nan=False), encoding="utf-8")
    os.replace(tj, folder / "ladder.json")
