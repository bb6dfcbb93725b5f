"""reports/index.html: every report `make run` wrote (scenarios and sweeps) with its headline figures, linked.
Self-contained HTML (no JavaScript, no network)."""
from __future__ import annotations

import os
from pathlib import Path

from sim.html_report import CSS, esc


def _link(folder: Path, page: str, root: Path) -> str:
    href = os.path.relpath(Path(folder) / page, root).replace(os.sep, "/")
    return f'<a href="{esc(href)}">{esc(Path(folder).name)}</a>'


def render(scenarios: list[tuple[Path, dict]], sweeps: list[tuple[Path, dict]], root: Path) -> str:
    """The index page: one table of scenario reports (game, players, games, `headline` from the verdict), one of
    sweeps (swept parameters, points, games per point, the target's answer or each measure's range)."""
    from sim.sweep.page import range_text, target_text
    srows = [{"report": _link(f, "summary.html", root), "game": s["scenario"]["game"],
              "players": str(s["scenario"]["players"]), "games": _games(s["games"]),
              "headline": esc(headline(s))} for f, s in scenarios]
    wrows = [{"sweep": _link(f, "sweep.html", root), "game": d["scenario"]["game"],
              "swept": esc("; ".join(f"{a['name']} = {', '.join(a['labels'])}" for a in d["axes"])),
              "points": f"{len(d['points'])} x {d['games']:,} games",
              "headline": esc(target_text(d) or range_text(d) or ", ".join(m["label"] for m in d["chosen"]))}
             for f, d in sweeps]
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8"><title>ghost-sim reports</title>',
             f"<style>{CSS}</style></head><body><h1>ghost-sim reports</h1>",
             "<p>Every report written by <code>make run</code> (<code>sim run-defaults</code>), with its headline "
             "figures (95% intervals in each report).</p>"]
    if scenarios:
        parts.append("<h2>Scenarios</h2>" + _raw_table(srows))
    if sweeps:
        parts.append("<h2>Sweeps</h2>" + _raw_table(wrows))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def headline(s: dict) -> str:
    """A run's headline for the index, from the verdict its page opens with (sim.verdicts): each team's win rate
    with its interval, or the start player's advantage with its interval and p-value and the seats' spread (a
    bare list of seat rates said neither whether they differ nor how surely)."""
    from sim import tables, verdicts
    lines = verdicts.run_sentences(s)
    if not s["games"]["finished"]:
        return lines[0]
    n = len(s["team"]) if s.get("team") else 2
    return " ".join(lines[:n]) or tables.one_line(s)


def _games(g: dict) -> str:
    """Games played, and how many finished when some hit the turn cap (the headline counts finished games only)."""
    played, fin = g.get("played", g["finished"]), g["finished"]
    return f"{played:,}" + (f" ({fin:,} finished)" if fin != played else "")


def _raw_table(rows: list[dict]) -> str:
    """An HTML table of cells that are already HTML (links); `html_table` escapes, so cells are marked safe."""
    if not rows:
        return ""
    head = "".join(f"<th>{esc(k)}</th>" for k in rows[0])
    body = "".join("<tr>" + "".join(f"<td>{v}</td>" for v in r.values()) + "</tr>" for r in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def write(scenarios: list[tuple[Path, dict]], sweeps: list[tuple[Path, dict]], root: Path | None = None) -> Path:
    """Write ``root``/index.html (default: reports/) and return its path."""
    from sim.api import REPORTS
    root = Path(root or REPORTS)
    root.mkdir(parents=True, exist_ok=True)
    p = root / "index.html"
    tmp = root / f".index.html.{os.getpid()}"
    tmp.write_text(render(scenarios, sweeps, root), encoding="utf-8")
    os.replace(tmp, p)
    return p
