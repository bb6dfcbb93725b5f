"""The report's "At skill" section, its verdict sentences and its terminal lines, from summary.json's ``at_skill``
block (`sim.api.skill`): each headline figure of the scenario beside the same figure with every seat on the game's
learned player, with the verdict on whether it holds at skill. Renders only; plays nothing."""

from __future__ import annotations

from sim.model.words import with_sign
from sim.pages.points import Point
from sim.stats.records import SummaryFigures

# where the fidelity lines come from (the lines name no file: a repository path says nothing to a designer)
FIDELITY_CAPTION = (
    "Does the learned table tell a search table's story? (the fidelity run shipped with the learned policy)"
)
KIND_WORDS = {"unchanged": "unchanged", "changed": "changed", "cannot_tell": "cannot tell yet"}


def _is_rate(key: str) -> bool:
    return key != "length_turns"


def value_text(key: str, f: dict) -> str:
    """A figure's value with its 95% interval: "+0.43% [-0.17, +1.03]" (first-player advantage, in points of the
    win rate), "25.3% [24.3, 26.3]" (a team win rate), "0.6 points [0.0, 3.6]" (seat spread), "111.7 turns [111.6,
    111.7]"; "n/a" for a figure without a value."""
    v, ci = f.get("value"), f.get("ci95") or [None, None]
    if v is None:
        return "n/a"
    if key == "length_turns":
        text, fmt = f"{v:.1f} turns", lambda x: f"{x:.1f}"
    elif key == "first_player_advantage":
        text, fmt = f"{with_sign(100 * v, 2)} points", lambda x: with_sign(100 * x, 2)
    elif key == "seat_spread":
        text, fmt = f"{100 * v:.2f} points", lambda x: f"{100 * x:.2f}"
    else:
        text, fmt = f"{100 * v:.1f}%", lambda x: f"{100 * x:.1f}"
    return text + (f" [{fmt(ci[0])}, {fmt(ci[1])}]" if None not in ci else "")


def change_text(key: str, f: dict) -> str:
    """The difference at skill with its 95% interval ("-0.10 points [-1.16, +0.96]"); seat spread: none (it is
    judged at skill against the fair share, not against the scripted spread)."""
    d, ci = f.get("estimate"), f.get("ci95")
    if key == "seat_spread":
        return "none: judged against the fair share"
    if d is None or not ci or None in ci:
        return "n/a"
    if key == "length_turns":
        return f"{with_sign(d, 1)} turns [{with_sign(ci[0], 1)}, {with_sign(ci[1], 1)}]"
    return f"{with_sign(100 * d, 2)} points [{with_sign(100 * ci[0], 2)}, {with_sign(100 * ci[1], 2)}]"


def rows(s: dict) -> list[dict]:
    """The section's table: one row per figure (figure, the scenario's own players, at skill, change, verdict)."""
    b = s.get("at_skill") or {}
    played = SummaryFigures.of(s).games.finished
    unlike = unlike_search(b)
    out = []
    for k, f in (b.get("figures") or {}).items():
        out.append(
            {
                "figure": f["words"],
                f"scripted ({played:,} games)": value_text(k, f["scripted"]),
                f"at skill ({b.get('finished', b.get('games', 0)):,} games)": value_text(k, f["skill"]),
                "change at skill (95%)": change_text(k, f),
                "verdict": f["verdict"] + (unlike[k] + " (below)" if k in unlike else ""),
            }
        )
    return out


def unlike_search(b: dict) -> dict[str, str]:
    """{figure: the words after its verdict} for the figures where the current fidelity file of an ``at_skill``
    block says the learned table differs from a search table ("; but a table of search@64 players differs on this
    figure: 222.1 turns against the learned table's 111.7 on the same 300 games"): there the change at skill
    is the learned player's, not necessarily skilled play's. {} without a current file."""
    from sim.stats.fidelity import DIFFERS, counted

    fid = b.get("fidelity") or {}
    if fid.get("status") != "current":
        return {}
    out = {}
    for k, f in (fid.get("figures") or {}).items():
        if f.get("kind") != DIFFERS:
            continue
        said = "; but a table of {} players differs on this figure".format(fid.get("search", "search"))
        if f.get("search_value") is not None and f.get("learned_value") is not None:
            shown = [value_text(k, {"value": f[x]}) for x in ("search_value", "learned_value")]
            said += (
                f": {shown[0]} against the learned table's {shown[1]} on the same "
                f"{counted(f, int(fid.get('games') or 0)):,} games"
            )
        out[k] = said
    return out


def intro(s: dict) -> str:
    """What the section played, how many games and why that many, or plainly why nothing was played."""
    b = s.get("at_skill") or {}
    key = b.get("key", "skill_games")
    if b.get("status") != "played":
        return f"No figures at skill: {b.get('why', 'not played')}."
    players = s["scenario"]["players"]
    trained = b.get("trained_players") or []
    note = (
        f" The learned player was trained at {' and '.join(map(str, trained))} players; here it plays at {players}."
        if trained and players not in trained
        else ""
    )
    cut = int(b.get("truncated") or 0)
    if cut:  # the figures at skill count finished games only, as the scenario's own do
        note += (
            f" {cut:,} of the games at skill reached the turn cap unfinished and are left out of its figures "
            f"({b.get('finished', b['games'] - cut):,} counted)."
        )
    return (
        f"The same rules and seed with every seat on the game's learned player ({b['strategy']}) instead of the "
        f"scenario's own: {b['games']:,} games ({b['why']}) on the scenario's seed, each game on the same dice as the "
        f"scenario's game of the same number. "
        "Each verdict says whether the figure holds at skill: unchanged within its margin (1 point for rates, 2% "
        "of the length), changed beyond it, or cannot tell yet (with about how many games would decide); seat "
        f"spread is judged at skill against the fair share (every seat within 1 point of it). To play more or "
        f"fewer games at skill, write {key} = N under [scenario] in the scenario file (0: no games at skill).{note}"
    )


def fidelity_lines(s: dict) -> list[str]:
    """The "At skill" section's lines on whether the learned table tells a search table's story, one per figure
    from the committed fidelity file (`sim.model.fidelity.for_scenario`; named by the section's caption, not by
    its path in the repository), or one line saying why there are none
    (no file for this scenario, or a stale one); [] when nothing was played at skill."""
    b = s.get("at_skill") or {}
    fid = b.get("fidelity")
    if b.get("status") != "played" or not fid:
        return []
    if fid["status"] != "current":
        return [f"Fidelity to search: {fid['why']}."]
    from sim.stats.fidelity import report_lines

    return report_lines(fid)


def section(s: dict) -> dict | None:
    """The report section "At skill" (a `sim.pages.html_report.Section` as a dict), None when the run was not
    asked to play at skill. Its second table: the fidelity lines (`fidelity_lines`), one row each."""
    b = s.get("at_skill")
    if not b:
        return None
    tables = [("", rows(s))]
    if lines := fidelity_lines(s):
        tables.append((FIDELITY_CAPTION, [{"fidelity to search": x} for x in lines]))
    return {"id": "at-skill", "title": "At skill", "intro": intro(s), "plots": [], "tables": tables}


def points(s: dict) -> list[Point]:
    """The verdict's point at skill: "At skill (learned at every seat, 7,204 games):" with one short line per figure
    beneath ("First-player advantage: +0.77 -> +0.33 points. Cannot tell yet at ±1.0 points: ...", its verdict's
    clauses as sentences, one starting with a setting's name as written), or the point saying why none was played; [] when not asked."""
    b = s.get("at_skill")
    if not b:
        return []
    if b.get("status") != "played":
        return [Point(f"At skill: not played; {b.get('why', '')}.")]
    under = []
    unlike = unlike_search(b)
    for k, f in (b.get("figures") or {}).items():
        a, c = value_text(k, f["scripted"]).split(" [")[0], value_text(k, f["skill"]).split(" [")[0]
        unit = next((u for u in (" points", " turns") if a.endswith(u) and c.endswith(u)), "")
        verdict = f["verdict"] + unlike.get(k, "")
        said = ". ".join(x if "_" in x.split(" ")[0] else _cap(x) for x in verdict.split("; "))  # skill_games
        under.append(f"{_cap(_short(k, f['words']))}: {a.removesuffix(unit)} -> {c}. {said}.")
    return [Point(f"At skill ({b['strategy']} at every seat, {b['games']:,} games):", tuple(under))]


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def one_line(s: dict) -> str | None:
    """The terminal line of `sim run-defaults` at skill: "at skill (learned, 7,204 games, 0.8 s): first-player
    advantage: cannot tell yet ...; game length: holds for skill ..."; the reason when none was played; None when not
    asked."""
    b = s.get("at_skill")
    if not b:
        return None
    if b.get("status") != "played":
        return f"at skill: not played; {b.get('why', '')}"
    figs = "; ".join(f"{_short(k, f['words'])} {_brief(k, f)}" for k, f in (b.get("figures") or {}).items())
    return (
        f"at skill ({b['strategy']}, {b['games']:,} games, {b.get('wall_s', 0):.1f} s): {figs} (the report says more)"
    )


def _brief(key: str, f: dict) -> str:
    """A figure's verdict at skill in a few words for the terminal ("holds within ±1.0 points", "changes: +3.1
    points", "cannot tell yet: about 24,000 games would decide"); the report has the whole sentence (``verdict``)."""
    from sim.stats import verdict as V
    from sim.stats.ladder_fit import size_text

    if f.get("margin") is None:
        return "cannot tell yet"
    if f["kind"] == V.UNCHANGED:
        return f"holds within ±{size_text(key, f['margin'])}"
    if f["kind"] == V.CHANGED and f.get("estimate") is not None:
        if key == "seat_spread":
            return f"differs at skill: spread {size_text(key, f['estimate'])}"
        return f"changes: {size_text(key, f['estimate'], '+')}"
    more = f.get("more_games")
    return "cannot tell yet" + (f": {V.about_games(more)} games would decide" if more else "")


def _short(key: str, words: str) -> str:
    """A figure's name for the one-line summary: without its explanation in brackets, but a team's win rate keeps
    the team it is of ("team win rate (Head Haunter)": a game has two)."""
    return words if key.startswith("team_win_rate.") else words.split(" (")[0]
