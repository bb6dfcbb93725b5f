"""The fidelity file's page (fidelity-<scenario>.md) and the "At skill" section's lines from it: whether the learned
table's headline figures matched a table of `search` players (`sim.api.fidelity`). Renders only; plays nothing."""

from __future__ import annotations

from sim.pages.skill_page import value_text
from sim.stats import fidelity as F

KIND_WORDS = {F.AGREES: "agrees", F.DIFFERS: "differs", F.CANNOT_TELL: "cannot tell yet"}


def render_markdown(doc: dict) -> str:
    """fidelity-<scenario>.md: what was played (command, games, budget, rules and policy versions) and one row per
    figure (learned, search, difference with its 95% interval, margin, verdict)."""
    pol = "; ".join(
        f"{role}: {v['strategy']} {v['digest']} ({v['feature_set']} v{v['feature_version']}, rules v{v['rules_version']})"
        for role, v in doc["policies"].items()
    )
    out = [
        f"# Fidelity of the learned table: {doc['scenario']}",
        "",
        f"Does the learned table tell the same balance story as a table of {doc['search']} players (every seat on its "
        f"role's search strategy, {doc['budget']} rollouts a decision, the learned player in the rollouts)? Both "
        f"tables played the same {doc['games']:,} games (seed {doc['seed']}, common random numbers).",
        "",
        f"- Command: `{doc['command']}`",
        f"- Rules version {doc['rules_version']}; policies: {pol}",
        *played_lines(doc),
        *same_games_lines(doc),
        *counted_lines(doc),
        f"- Made {doc['created_utc']} at commit {doc['git_commit']}, {doc['wall_s']:.0f} s",
        "- Verdicts: agrees within +/-M (TOST at margin M), differs (the difference is significant), cannot tell yet; "
        f"Holm over the figures.{spread_method(doc)}",
        "",
        "| figure | learned | " + doc["search"] + " | difference (95%) | margin | verdict |",
        "|---|---|---|---|---|---|",
    ]
    for k, f in doc["figures"].items():
        out.append(
            f"| {f['words']} | {value_text(k, f['learned'])} | {value_text(k, f['search'])} | "
            f"{F.amount(k, f['estimate'])} {F.interval(k, f['ci95'])} | +/-{F.amount(k, f['margin'], signed=False)} "
            f"| {f['verdict']} |"
        )
    return "\n".join(out) + "\n"


def counted_lines(doc: dict) -> list[str]:
    """ "- Games each verdict counts: first-player advantage 38, ... of the 40" where a figure counts fewer games than
    were played (a rate needs a game that ended with a winner at both tables); nothing where every figure counts all."""
    games = int(doc["games"])
    counts = {f["words"]: F.counted(f, games) for f in doc["figures"].values()}
    if all(n >= games for n in counts.values()):
        return []
    said = ", ".join(f"{w} {n:,}" for w, n in counts.items())
    return [
        f"- Games each verdict counts: {said} of the {games:,} (a win rate counts the games that ended with a "
        "winner at both tables)"
    ]


def same_games_lines(doc: dict) -> list[str]:
    """A line where the search table played every game as the learned one (`sim.api.fidelity.same_games`)."""
    if not doc.get("same_games"):
        return []
    return [
        f"- **The {doc['search']} table played each of the {doc['games']:,} games as the learned table did** (the same"
        " length and winners): at this budget the search never left its rollout player's move, so *agrees* says "
        "nothing about stronger search; a larger `--budget` would."
    ]


def played_lines(doc: dict) -> list[str]:
    """ "- Search seats as played: budget = 64, rollout = learned, deviate = 1.0, root = halving, tiebreak = none"
    (one line where every search seat played alike, else one per seat); nothing for a file made before the record."""
    played = doc.get("search_played") or []
    said = [", ".join(f"{k} = {v}" for k, v in p.items()) for p in played]
    if not said:
        return []
    if len(set(said)) == 1:
        return [f"- Search seats as played: {said[0]}"]
    return [f"- Search seat {i} as played: {s}" for i, s in enumerate(said)]


def spread_method(doc: dict) -> str:
    """ " Seat spread: <how its difference was judged>." from the file's seat spread figure (its ``method``, or for a
    file made before it was written, its ``paired`` flag: `sim.stats.fidelity.SPREAD_METHODS`); "" without one."""
    f = doc["figures"].get(F.SPREAD)
    if f is None:
        return ""
    return f" Seat spread: {f.get('method') or F.SPREAD_METHODS[bool(f.get('paired'))]}."
