"""How the templates write numbers and times (Jinja2 filters)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sim.model.words import POINTS, rate_text


def when(t: float | None) -> str:
    """Seconds since the epoch as UTC "2026-12-06 05:40:12" ("" for None)."""
    if t is None:
        return ""
    return dt.datetime.fromtimestamp(t, dt.UTC).strftime("%Y-%m-%d %H:%M:%S")


def seconds(s: float | None) -> str:
    """A duration in words: "4.2 s", "3 min 10 s" ("" for None)."""
    if s is None:
        return ""
    if s < 60:
        return f"{s:.1f} s"
    m, r = divmod(int(round(s)), 60)
    return f"{m} min {r} s" if m < 60 else f"{m // 60} h {m % 60} min"


def figure(v: Any, kind: str = "", unit: Any = "") -> str:
    """A measure's value: a rate (a share) in % (one in percentage points, the seat spread, in points:
    `sim.model.words.rate_text`), other numbers with 3 significant digits, None as "n/a"."""
    if v is None:
        return "n/a"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (int, float)):
        if kind == "rate":
            return rate_text(v, unit if isinstance(unit, str) else "")
        return f"{v:,.0f}" if float(v).is_integer() and abs(v) >= 1000 else f"{v:.3g}"
    return str(v)


def diff(v: Any, kind: str = "") -> str:
    """A difference B - A, signed: a rate's in percentage points ("+0.33 points", `sim.model.words.POINTS`), other numbers as `figure`."""
    if v is None:
        return "n/a"
    if kind == "rate" and isinstance(v, (int, float)):
        return f"{100 * v:+.2f} {POINTS}"
    return ("+" if isinstance(v, (int, float)) and v > 0 else "") + figure(v, kind)


def interval(lo: Any, hi: Any, kind: str = "", signed: bool = False) -> str:
    """A 95% interval "lo … hi", each end with enough digits that two different ends never read alike ("39.6 …
    39.6" is 39.58 … 39.65); "none (every game equal)" when it is exactly zero wide."""
    if lo is None or hi is None:
        return "n/a"
    if lo == hi:
        return "none (every game equal)"
    scale, unit = (100.0, "%" if not signed else f" {POINTS}") if kind == "rate" else (1.0, "")
    for digits in range(2, 8):
        a, b = (f"{scale * x:{'+' if signed else ''}.{digits}f}" for x in (lo, hi))
        if a != b:
            return f"{a}{unit} … {b}{unit}"
    return f"{a}{unit} … {b}{unit}"


VERDICT_WORDS = {"unchanged": "unchanged", "changed": "CHANGED", "cannot_tell": "cannot tell yet"}


def verdict(kind: Any, more: Any = None) -> str:
    """A compared measure's verdict in the report's words: unchanged (within its margin), CHANGED (beyond it), or
    "cannot tell yet (+34,000 games)"."""
    words = VERDICT_WORDS.get(str(kind), "n/a")
    if kind == "cannot_tell" and more:
        from sim.stats.verdict import more_games_cell

        words += f" ({more_games_cell(int(more))})"
    return words


def games(n: float | None) -> str:
    return "" if n is None else f"{int(n):,}"


def form_link(spec: dict) -> str:
    """The scenario form's address with a job's changes filled in (its ``--set`` overrides as form values; B's for a
    compare, whose A is the file), so "Open the scenario" shows what the job played."""
    from urllib.parse import urlencode

    sets = spec.get("sets_b") if spec.get("kind") == "compare" else spec.get("sets")
    values = [("path", spec["scenario"])]
    values += [(k, str(spec[k])) for k in ("games", "seed") if spec.get(k) is not None]
    for s in sets or ():
        name, _, value = str(s).partition("=")
        values.append((name.strip(), value.strip()))
    return "/scenario?" + urlencode(values)


FILTERS = {
    "form_link": form_link,
    "when": when,
    "seconds": seconds,
    "figure": figure,
    "diff": diff,
    "games": games,
    "interval": interval,
    "verdict": verdict,
}
