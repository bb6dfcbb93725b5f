"""The summary as Polars tables, and as Markdown text (for summary.md and the terminal)."""

from __future__ import annotations

import polars as pl

from sim.model import catalogue
from sim.model.words import POINTS, count, with_sign
from sim.pages.scenario_words import NO_FINISHED, TEAM_SEAT_NOTE, is_team_game, lead_line, scenario_items
from sim.stats.records import Distribution, SummaryFigures, SummaryRates


def pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def ci(c) -> str:
    return f"[{100 * c[0]:.2f}, {100 * c[1]:.2f}]"


def na(v) -> str | int | float:
    """A value of the summary, or "n/a" where it is not defined (null)."""
    return "n/a" if v is None else v


def seat_rows(s: dict, ci_fmt=ci) -> list[dict]:
    """One row per seat: strategy, win rate with its 95% Wilson interval (``ci_fmt`` formats it), sole/shared wins,
    score stats. In a team game the rate is the team's (every member shares it) and sole/shared wins say nothing,
    so they are left out. Shared by summary.md (`seat_frame`) and summary.html."""
    team = is_team_game(s)
    rows = []
    for w, sc in zip(SummaryRates.of(s).seats, SummaryFigures.of(s).scores):
        row = {"seat": w.seat, "strategy": w.strategy, "role": w.role}
        if team:
            row.update({catalogue.for_summary(s).label("team_win_rate"): pct(w.win.rate), "95% CI": ci_fmt(w.win.ci95)})
        else:
            row.update(
                {
                    "win rate": pct(w.win.rate),
                    "95% CI": ci_fmt(w.win.ci95),
                    "sole wins": w.sole_wins,
                    "shared wins": w.shared_wins,
                }
            )
        row.update(
            {
                "score mean": _round(sc.mean),
                "score sd": _round(sc.std),
                "p05": na(sc.p05),
                "median": na(sc.median),
                "p95": na(sc.p95),
            }
        )
        rows.append(row)
    return rows


def seat_frame(s: dict) -> pl.DataFrame:
    """`seat_rows` as a table."""
    return pl.DataFrame(seat_rows(s))


def _round(v, k: int = 2):
    return "n/a" if v is None else f"{v:.{k}f}"


def strategy_rows(s: dict, ci_fmt=ci) -> list[dict]:
    """One row per strategy: its seats and win rate (a team game: the team's) with the 95% interval."""
    head = catalogue.for_summary(s).label("team_win_rate") if is_team_game(s) else "win rate per seat"
    return [
        {
            "strategy": r.strategy,
            "role": r.role,
            "seats": ",".join(map(str, r.seats)),
            head: pct(r.win.rate),
            "95% CI": ci_fmt(r.win.ci95),
        }
        for r in SummaryRates.of(s).strategies
    ]


def strategy_frame(s: dict) -> pl.DataFrame:
    return pl.DataFrame(strategy_rows(s))


def length_rows(s: dict) -> list[dict]:
    """Game length in turns and rounds: mean, sd, min, quantiles, max ("n/a" when no game finished)."""
    L = SummaryFigures.of(s).length
    rows = []
    for k, d in (("turns", L.turns), ("rounds", L.rounds)):
        rows.append(
            {
                "length": k,
                "mean": _round(d.mean),
                "sd": _round(d.std),
                "min": na(d.min),
                **{q: na(v) for q, v in d.quantiles.items()},
                "max": na(d.max),
            }
        )
    m = L.minutes
    if m:  # the turns row in minutes: turns x seconds_per_turn / 60
        d, scale = L.turns, m.seconds_per_turn / 60.0
        per = lambda v: _round(None if v is None else v * scale, 1)  # noqa: E731
        rows.append(
            {
                "length": f"minutes (estimate: turns x {m.seconds_per_turn:g} s / 60)",
                "mean": per(d.mean),
                "sd": per(d.std),
                "min": per(d.min),
                **{q: per(v) for q, v in d.quantiles.items()},
                "max": per(d.max),
            }
        )
    return rows


def length_frame(s: dict) -> pl.DataFrame:
    rows = length_rows(s)
    return pl.DataFrame(rows, schema={c: pl.Utf8 for c in rows[0]}) if rows else pl.DataFrame()


def counter_rows(s: dict) -> list[dict]:
    """Game counters by their catalogue labels (sim.model.catalogue), with what each counts; those that cannot apply to
    the scenario (a Head Haunter counter in a basic game) and bookkeeping (who started) are left out. A categorical
    counter is one row of its values' shares. ``column``: its name in games.parquet and `sim list`."""
    cat = catalogue.for_summary(s)
    rows = []
    for k, d in s.get("extras", {}).items():
        if not cat.counter_shown(k):
            continue
        if "counts" in d:
            total = sum(d["counts"].values()) or 1
            shares = [
                (cat.label(f"extra.{k}={lab}"), c) for lab, c in d["counts"].items() if cat.shown(f"extra.{k}={lab}")
            ]
            if shares:
                rows.append(
                    {
                        "counter": cat.label(f"extra.{k}"),
                        "mean": ", ".join(f"{lab} {pct(c / total)}" for lab, c in shares),
                        "sd": "",
                        "median": "",
                        "max": "",
                        "what it counts": cat.definition(f"extra.{k}"),
                        "column": k,
                    }
                )
            continue
        x = Distribution.of(d)
        if x.n and x.mean is not None and cat.entry(f"extra.{k}").kind == "rate":  # a 0/1 counter declared a share
            rows.append(
                {
                    "counter": cat.label(f"extra.{k}"),
                    "mean": pct(x.mean),
                    "sd": "",
                    "median": "",
                    "max": "",
                    "what it counts": cat.definition(f"extra.{k}"),
                    "column": k,
                }
            )
        elif x.n:
            rows.append(
                {
                    "counter": cat.label(f"extra.{k}"),
                    "mean": f"{x.mean:.3f}",
                    "sd": f"{x.std:.3f}",
                    "median": na(x.median),
                    "max": na(x.max),
                    "what it counts": cat.definition(f"extra.{k}"),
                    "column": k,
                }
            )
    return rows


def extras_frame(s: dict) -> pl.DataFrame | None:
    rows = counter_rows(s)
    return pl.DataFrame(rows) if rows else None


def one_line(s: dict) -> str:
    """A run's headline in one line (for `sim run-defaults`): the team win rates of a team game, else every seat's
    win rate (a shared win counting 1/k, so they add up to 100%)."""
    g = SummaryFigures.of(s).games
    if not g.finished:
        return f"no game finished ({g.truncated} hit the turn cap, {count(g.errors, 'error')}): raise max_turns"
    w = SummaryRates.of(s)
    if is_team_game(s):
        roles = [r.role for r in w.seats]
        parts = []
        cat = catalogue.for_summary(s)
        for role, r in w.team.items():
            seats = [str(i) for i, x in enumerate(roles) if x == role]
            who = f"seat{'s' if len(seats) > 1 else ''} {','.join(seats)}"
            parts.append(f"{cat.label(f'team.{role}')} ({who}) {r.rate * 100:.1f}%")
        return "team game: " + ", ".join(parts) + " (every seat of a team shares its team's rate)"
    return (
        ", ".join(f"seat {r.seat} {r.strategy} {100 * r.win.rate:.1f}%" for r in w.seats)
        + " (win rates, a shared win counting 1/k)"
    )


def md(df: pl.DataFrame) -> str:
    """``df`` as a Markdown table, every cell whole (Polars cuts a string past ``fmt_str_lengths`` with "…": a
    verdict's last words, the scenario line that plays more games, were lost)."""
    with pl.Config(
        tbl_formatting="MARKDOWN",
        tbl_hide_column_data_types=True,
        tbl_hide_dataframe_shape=True,
        tbl_rows=-1,
        tbl_cols=-1,
        tbl_width_chars=4000,
        fmt_str_lengths=2000,
    ):
        return str(df)


def render_markdown(s: dict) -> str:
    """The whole summary as Markdown."""
    sc = s["scenario"]
    f = SummaryFigures.of(s)
    g = f.games
    w = SummaryRates.of(s)
    fp = w.first_player
    team = is_team_game(s)
    out = [f"# {sc['name']}: {s['game_title']}, {sc['players']} players", ""]
    if sc.get("description") or sc.get("overrides"):
        out += [lead_line(s), ""]
    pv = s.get("provenance")
    if pv:
        out += [
            f"seed {pv['seed']} · {count(pv['games'], 'game')} · rules v{pv['rules_version']} · RNG contract "
            f"v{pv['rng_contract']} · commit {pv['git_commit'][:12]} · {pv['wall_time_s']} s on "
            f"{pv['threads']} thread{'' if pv['threads'] == 1 else 's'}",
            "",
        ]
    from sim.pages import verdicts
    from sim.pages.points import md_points

    out += ["## Verdict", ""] + md_points(verdicts.run_points(s))
    scope = verdicts.scope_line(s)
    out += ([f"- {scope}"] if scope else []) + [""]
    out += ["## Scenario", ""] + [f"- **{k}**: {v}" for k, v in scenario_items(s)] + [""]
    out += [
        f"Finished games: {g.finished} of {g.played} (truncated at the turn cap: {g.truncated}, errors: {g.errors})",
        "",
    ]
    if g.finished == 0:
        out += [f"**{NO_FINISHED}**", ""]
        return "\n".join(out) + "\n"
    if g.truncated:
        out += [
            f"**Warning: {100 * g.truncated_rate:.2f}% of games hit the turn cap and are left out of every "
            f"figure below.**",
            "",
        ]
    cat = catalogue.for_summary(s)
    lab = cat.label
    if team:
        out += [f"## {lab('team_win_rate').capitalize()}", ""] + [
            f"- **{lab(f'team.{role}')}** {pct(r.rate)} {ci(r.ci95)} of finished games ({r.wins:.0f} of {r.games})"
            for role, r in w.team.items()
        ]
        out += ["", TEAM_SEAT_NOTE, ""]
        out += [f"## {lab('team_win_rate').capitalize()} by seat", "", md(seat_frame(s)), ""]
        out += [f"## {lab('team_win_rate').capitalize()} by strategy", "", md(strategy_frame(s)), ""]
    else:
        out += [
            "## Win rate by seat",
            "",
            cat.generic_definition("win.seat{seat}") + " Sole wins: games won alone; "
            "shared wins: games whose win was shared.",
            "",
            md(seat_frame(s)),
            "",
        ]
        out += ["## Win rate by strategy", "", md(strategy_frame(s)), ""]
    out += ["## Balance", ""]
    if fp is not None:
        out += [
            f"- {lab('first_player_advantage').capitalize()}: {lab('first_player.win')} "
            f"{pct(fp.win.rate)} {ci(fp.win.ci95)} against a fair share of {pct(fp.fair_share)} "
            f"({with_sign(100 * fp.advantage, 2)} {POINTS}).",
            "- Win rate by turn position: "
            + ", ".join(f"position {p.position}: {pct(p.win.rate)}" for p in w.positions),
        ]
    if f.ties.tie_rate is not None and not team:  # (summaries written before the team note had one)
        out.append(f"- {lab('tie').capitalize()}: {pct(f.ties.tie_rate)} of finished games.")
    if f.ties.tiebreak_decided is not None and f.ties.tiebreak_rate is not None:
        out.append(f"- {lab('extra.tiebreak_decided').capitalize()}: {pct(f.ties.tiebreak_rate)}.")
    if team:
        out.append(
            f"- No {lab('first_player_advantage')} and no tie rate in a team game: a team win is one win of "
            "the whole team, not a tie."
        )
    out += ["", "## Game length", "", md(length_frame(s)), ""]
    from sim.pages.verdicts import minutes_text

    if mins := minutes_text(s):
        out += [f"- {mins[0].upper() + mins[1:]}.", ""]
    from sim.pages import skill_page

    if sec := skill_page.section(s):
        at = pl.DataFrame(sec["tables"][0][1]) if sec["tables"][0][1] else None
        out += ["## At skill", "", sec["intro"], ""] + ([md(at), ""] if at is not None else [])
        if fid := skill_page.fidelity_lines(s):
            out += [f"### {skill_page.FIDELITY_CAPTION}", ""] + [f"- {x}" for x in fid] + [""]
    ef = extras_frame(s)
    if ef is not None:
        out += ["## Game counters", "", md(ef), ""]
    for name, c in s.get("curves", {}).items():
        vals = [f"{v:.2f}" for v in c["mean_by_round"][:20] if v is not None]
        out += [f"- {cat.label(f'curve.{name}')} by round (mean over games still running): " + " ".join(vals)]
    return "\n".join(out) + "\n"
