"""Balance at skill: the headline figures of a run beside those of its table at skill, with a verdict on each.

The figures are the skill ladder's balance figures (`sim.stats.ladder_fit`: first-player advantage and seat spread
in competitive games, each team's win rate in team games, the game length), read here from two run summaries (the
scenario's own and the table at skill, `sim.model.skill_spec`); the verdicts are the ladder's `skill_verdicts` with
the scenario's own players as the reference and the learned table as the stronger one: unchanged within the
figure's margin / changed / cannot tell yet (`sim.stats.verdict`; Holm over the figures). The two tables are
compared as independent samples: the table at skill plays the scenario's first games with the same dice (common
random numbers), which makes them agree more, never less, where the rules draw alike, so the interval of the
difference is, if anything, too wide there.
"""

from __future__ import annotations

import math
from typing import Any

from sim.stats import ladder_fit as lf
from sim.stats import verdict as V
from sim.stats.metrics import MIN_GAMES_FOR_TESTS
from sim.stats.records import Estimate, SummaryFigures

FIGURE_WORDS = {
    "first_player_advantage": "first-player advantage",
    "seat_spread": "seat spread (highest seat win rate minus the lowest)",
    "length_turns": "game length (mean turns)",
}


def figure_words(key: str, role_title: Any = None) -> str:
    """How a page names balance figure ``key`` ("team_win_rate.hunter" -> "team win rate of the hunter")."""
    if key.startswith("team_win_rate."):
        role = key.split(".", 1)[1]
        return f"team win rate ({role_title(role) if role_title else role})"
    return FIGURE_WORDS.get(key, key)


def summary_figures(s: dict) -> dict[str, dict]:
    """The balance figures of a run summary (`sim.stats.summary`): {key: {value, ci95, se, unit, n, ...}} in the
    ladder's form (`ladder_fit.rate_figure`, `seat_spread`, `length_figure`); empty when no game finished."""
    f = SummaryFigures.of(s)
    fin = int(f.games.finished)
    if not fin:
        return {}
    out: dict[str, dict] = {}
    if s.get("team"):
        for role, r in s["team"].items():
            out[f"team_win_rate.{role}"] = lf.rate_figure(float(r["wins"]), fin)
    else:
        fp = s.get("first_player") or {}
        if fp.get("win") and fp.get("fair_share") is not None:
            out["first_player_advantage"] = lf.rate_figure(float(fp["win"]["wins"]), fin, fp["fair_share"])
        if len(s["seats"]) > 1:
            out["seat_spread"] = lf.seat_spread([float(r["win"]["wins"]) for r in s["seats"]], fin, len(s["seats"]))
    t = f.length.turns
    se = float(t.std) / math.sqrt(t.n) if t.n > 1 and t.std is not None else math.nan
    out["length_turns"] = lf.length_figure(float(t.known_mean), se, int(t.n))
    return out


def reference_words(s: dict) -> str:
    """The scenario's own players in a verdict ("weighted", or "the scenario's players" for mixed seats)."""
    names = list(dict.fromkeys(seat["strategy"] for seat in s["seats"]))
    return names[0] if len(names) == 1 else "the scenario's players"


def verdict_words(key: str, head: dict | None, reference: str, strongest: str, skill_key: str) -> str:
    """A figure's verdict at skill in words: the ladder's (`ladder_fit.skill_words`), the games that would decide
    counted at skill against those played, and the scenario line that plays them ("skill_games = 34000 in
    [scenario]", ``skill_key`` the key), never a bare "(skill_games)": a field name is not a sentence."""
    played = (head or {}).get("games")
    if head is not None and (played or MIN_GAMES_FOR_TESTS) < MIN_GAMES_FOR_TESTS:
        return (
            f"cannot tell yet: {played} games at skill are too few for the tests (they need at least "
            f"{MIN_GAMES_FOR_TESTS}); to play more, write {skill_key} = {MIN_GAMES_FOR_TESTS} or more under [scenario] in "
            "the scenario file"
        )
    words = lf.skill_words(key, head, reference, strongest)
    if played:  # one table at skill, not a ladder's tables
        words = words.replace(f"measured on {played:,} games a table", f"measured on {played:,} games at skill")
        if "measured on" in words:
            played = None  # said once
    more = (head or {}).get("more_games")
    if not more or "games a table in all would decide" not in words:
        return words
    # the ladder's words count the games "a table" would need; here it is the table at skill that would play them
    now = f", against the {played:,} played" if played else ""
    said = words.replace("games a table in all would decide", f"games at skill would decide{now}")
    return f"{said}; to play them, write {skill_key} = {_round_up(more)} under [scenario] in the scenario file"


def _round_up(n: int) -> int:
    """``n`` rounded up to two significant digits (34,000 for 33,412): the size a designer writes."""
    step = 10 ** max(0, len(str(int(n))) - 2)
    return -(-int(n) // step) * step


def _num(x: Any) -> Any:
    """A JSON-safe number: None for NaN or infinity, lists element-wise."""
    if isinstance(x, list | tuple):
        return [_num(v) for v in x]
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


def compare(
    scripted: dict,
    skilled: dict,
    strategy: str,
    margins: dict[str, float] | None = None,
    role_title: Any = None,
    skill_key: str = "skill_games",
) -> dict[str, dict]:
    """Each headline figure of run summary ``scripted`` beside the same figure of ``skilled`` (every seat on
    ``strategy``), with its verdict at skill (`ladder_fit.skill_verdicts`, the scripted table the reference).
    Returns {key: {words, scripted: figure, skill: figure, kind (unchanged/changed/cannot_tell), verdict (words),
    estimate (skill - scripted; seat spread: the spread at skill), ci95, margin, more_games}} in the scripted
    summary's figure order; JSON-safe (NaN as None)."""
    ref = reference_words(scripted)
    a, b = summary_figures(scripted), summary_figures(skilled)
    rows = {k: [dict(a[k], rung=ref), dict(b[k], rung=strategy)] for k in a if k in b}
    if not rows:
        return {}
    judged = lf.skill_verdicts(rows, [0.0, 1.0], 0, margins=margins)
    out: dict[str, dict] = {}
    for k, (sa, sb) in rows.items():
        j = judged[k]
        head = next((p for p in j["per_rung"] if p["rung"] == strategy), None)
        out[k] = {
            "words": figure_words(k, role_title),
            "scripted": {f: _num(v) for f, v in sa.items() if f != "rung"},
            "skill": {f: _num(v) for f, v in sb.items() if f != "rung"},
            "kind": head["kind"] if head else V.CANNOT_TELL,
            "verdict": verdict_words(k, head, ref, strategy, skill_key),
            "estimate": _num(head["estimate"]) if head else None,
            "ci95": _num(list(head["ci95"])) if head else None,
            "margin": _num(head["margin"]) if head else None,
            "more_games": head.get("more_games") if head else None,
        }
    return out


def frame_rows(block: dict) -> list[dict]:
    """at_skill.parquet's rows, one per figure: figure, words, scripted, scripted_ci_low, scripted_ci_high,
    scripted_games, skill, skill_ci_low, skill_ci_high, skill_games, change, change_ci_low, change_ci_high (seat
    spread: the spread at skill and its interval), margin, verdict (unchanged / changed / cannot_tell), words of the
    verdict. Empty when nothing was played at skill."""
    out = []
    for k, f in (block.get("figures") or {}).items():
        sa, sb, ci = Estimate.of(f["scripted"]), Estimate.of(f["skill"]), f.get("ci95") or [None, None]
        out.append(
            {
                "figure": k,
                "words": f["words"],
                "scripted": sa.value,
                "scripted_ci_low": sa.lo,
                "scripted_ci_high": sa.hi,
                "scripted_games": f["scripted"].get("n"),
                "skill": sb.value,
                "skill_ci_low": sb.lo,
                "skill_ci_high": sb.hi,
                "skill_games": f["skill"].get("n"),
                "change": f.get("estimate"),
                "change_ci_low": ci[0],
                "change_ci_high": ci[1],
                "margin": f.get("margin"),
                "verdict": f["kind"],
                "verdict_words": f["verdict"],
            }
        )
    return out
