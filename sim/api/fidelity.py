"""`sim fidelity`: does the learned table tell the same balance story as a table of `search` players?

A scenario's "At skill" table (`sim.model.skill_spec.skill_table`: every seat on its role's learned player) is played
as A against B, the same seats on `search` (each role's search strategy, its learned player as the rollout strategy,
``budget`` rollouts a decision, the game's other search defaults), through `sim compare`'s paired machinery
(`sim.api.compare.compare`: the same seed and game indices, common random numbers). The headline figures are judged
by `sim.stats.fidelity`; `document` is the versioned record (`sim.model.fidelity`) written beside the policies.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sim.model.errors import SimError
from sim.model.scenario import MAX_GAMES, Scenario, Seat
from sim.model.search_spec import BUDGET_MAX
from sim.model.values import out_of_range
from sim.play.context import RunContext

DEFAULT_BUDGET = 64  # rollouts a decision: tens of games/s at Moor, a few at Galleon (one thread)
DEFAULT_GAMES = 2_000


class FidelityError(SimError, ValueError):
    """A fidelity run that cannot be made (one line naming the field and what is allowed)."""


@dataclass(frozen=True)
class Tables:
    """The two tables of a fidelity run: ``learned`` (A) and ``search`` (B), each of ``games`` games; ``search_name``
    says B in a line ("search@64")."""

    learned: Scenario
    search: Scenario
    games: int
    search_name: str


def search_strategy(sc: Scenario, role: str) -> str:
    """The search strategy of ``role`` in ``sc``'s game (one declared for that role; "search" for most)."""
    from sim.model.search_spec import SEARCH_SID

    found = [s.name for s in sc.spec.strategies if s.sid == SEARCH_SID and s.role == role]
    if not found:
        raise FidelityError(f"{sc.spec.title} has no search strategy for the {sc.spec.role_title(role)} role")
    return found[0]


def check_counts(games: int, budget: int) -> None:
    """Raise FidelityError (one line) for ``games`` outside 1..MAX_GAMES or ``budget`` outside 1..BUDGET_MAX: the
    command line checks them before it loads the scenario, `tables` again for a caller from Python."""
    if not 1 <= games <= MAX_GAMES:
        raise FidelityError(out_of_range("--games", games, 1, MAX_GAMES))
    if not 1 <= budget <= BUDGET_MAX:
        raise FidelityError(out_of_range("--budget", budget, 1, BUDGET_MAX) + " rollouts a decision")


def team_roles(sc: Scenario) -> list[str]:
    """The roles whose team win rate is judged (each once, in seat order) in a team game; [] otherwise."""
    return list(dict.fromkeys(sc.spec.roles(sc.params, sc.players))) if sc.spec.team_roles else []


FIGURE_KEYS = ("first_player_advantage", "seat_spread", "length_turns")  # a game without teams


def judged_keys(sc: Scenario) -> list[str]:
    """The figures `fidelity` judges for scenario ``sc``: each team's win rate and the length in a team game, else
    the first-player advantage, the seat spread and the length (`judged_figures`' keys)."""
    team = team_roles(sc)
    return [f"team_win_rate.{r}" for r in team] + ["length_turns"] if team else list(FIGURE_KEYS)


def tables(sc: Scenario, games: int, budget: int) -> Tables:
    """The learned table of ``sc`` (`skill_table`) and its search twin, ``games`` games each, search at ``budget``
    rollouts with each role's learned player in the rollouts. Raises FidelityError (one line) for a bad ``games`` or
    ``budget``, or a scenario whose table at skill cannot be played (no learned player, a policy that does not fit)."""
    from sim.model.skill_spec import learner_of, skill_table

    check_counts(games, budget)
    t = skill_table(sc, games)
    if t.scenario is None:
        raise FidelityError(f"{sc.name}: no learned table to check: {t.why}")
    roles = sc.spec.roles(sc.params, sc.players)
    seats = []
    for role in roles:
        lr = learner_of(sc.spec, role)
        assert lr is not None, "skill_table seated a learner for every role"
        seats.append(Seat(search_strategy(sc, role), {"budget": budget, "rollout": lr.strategy}))
    name = f"search@{budget}"
    search = t.scenario.with_changes(name=f"{sc.name}-{name}", seats=tuple(seats))
    return Tables(t.scenario, search, games, name)


def same_games(metrics: list[dict]) -> bool:
    """Whether the search table played every game as the learned table did: each game's length and each seat's (or
    team's) win the same, game by game (compare's ``identical``). At a small budget the search may never leave its
    rollout player's move (halving with a margin), and "agrees" then says nothing about stronger search."""
    keys = [m for m in metrics if m["name"] == "length.turns" or m["name"].startswith(("win.seat", "team."))]
    return bool(keys) and all(m.get("identical") for m in keys)


def command_line(
    path: str, games: int, budget: int, seed: int, margins: list[str], out: str | None = None, install: bool = True
) -> str:
    """The `sim fidelity` command line that makes a file (recorded in it): with ``--out`` where the run was given
    a folder, ``--install`` where it installed the file beside the policies."""
    extra = "".join(f" --margin {shlex.quote(m)}" for m in margins)
    where = f" --out {shlex.quote(out)}" if out is not None else ""
    return (
        f"sim fidelity {shlex.quote(path)} --games {games} --budget {budget} --seed {seed}{extra}{where}"
        f"{' --install' if install else ''}"
    )


def fidelity(
    sc: Scenario,
    games: int = DEFAULT_GAMES,
    budget: int = DEFAULT_BUDGET,
    seed: int | None = None,
    margins: dict[str, float] | None = None,
    command: str = "",
    ctx: RunContext | None = None,
    on_played: Callable[[], None] | None = None,
) -> dict:
    """Play ``sc``'s learned table and its search twin (`tables`) on common random numbers (seed ``seed``, default
    the scenario's) and judge each headline figure (`sim.stats.fidelity`). Returns the fidelity document
    (`sim.model.fidelity`; JSON-ready): format, game, scenario, players, params, rules_version, policies (their
    versions), command, games, budget, search, search_seats (as given), search_played (every parameter as played), seed, margins, figures {key: {words, learned, search, kind, verdict,
    estimate, ci95, margin, paired, method (the seat spread: how its difference was judged), p_holm, p_equiv_holm,
    more_games}}, compared (compare's own rows of the
    figures' measures), wall_s. Raises FidelityError, CompareError (one line each)."""
    from sim.api import compare as play
    from sim.model.fidelity import FIDELITY_FORMAT, policy_versions
    from sim.model.search import seats_as_played
    from sim.stats import fidelity as F

    t = tables(sc, games, budget)
    spec = sc.spec
    roles = list(spec.roles(sc.params, sc.players))
    team = team_roles(sc)
    # compare's paired bootstrap of the seat spread tests equivalence at the fidelity margin (in points, as --margin)
    spread = {} if team else {F.SPREAD: 100 * F.margin(F.SPREAD, 0.0, margins)}
    res = play.compare(t.learned, t.search, games, seed, margins=spread, ctx=ctx, on_played=on_played)
    out = judged_figures(res["metrics"], sc, margins)
    names = {"first_player.win", "length.turns", F.SPREAD, *(f"team.{r}" for r in team)}
    return {
        "format": FIDELITY_FORMAT,
        "game": sc.game,
        "scenario": sc.name,
        "players": sc.players,
        "params": {k: sc.params[k] for k in sorted(sc.params)},
        "rules_version": spec.rules_version,
        "policies": policy_versions(spec, roles),
        "command": command,
        "games": res["games"],
        "budget": budget,
        "search": t.search_name,
        "learned_seats": [s.strategy for s in t.learned.seats],
        "search_seats": [{"strategy": s.strategy, **s.params} for s in t.search.seats],
        "search_played": [seat["params"] for seat in seats_as_played(t.search)],
        "seed": res["seed"],
        "margins": {k: f["margin"] for k, f in out.items()},
        "figures": out,
        "compared": [r for r in res["metrics"] if r["name"] in names or r["name"].startswith("win.seat")],
        "same_games": same_games(res["metrics"]),
        "wall_s": res["provenance"]["wall_time_s"],
        "git_commit": res["provenance"]["git_commit"],
        "created_utc": res["provenance"]["created_utc"],
    }


def judged_figures(rows: list[dict], sc: Scenario, margins: dict[str, float] | None = None) -> dict[str, dict]:
    """The fidelity document's ``figures`` from compare rows ``rows`` (A learned, B search) of scenario ``sc``'s
    tables: {key: {words, learned, search, kind, verdict, estimate, ci95, margin, paired, method (the seat spread's),
    p_holm, p_equiv_holm, more_games}} (`sim.stats.fidelity.figures` and `judge`)."""
    from sim.stats import fidelity as F
    from sim.stats.at_skill import figure_words

    spec = sc.spec
    figs = F.figures(rows, sc.players, team_roles(sc))
    judged = F.judge(figs, margins)
    out: dict[str, dict] = {}
    for f in figs:
        j = judged[f.key]
        out[f.key] = {
            "words": figure_words(f.key, spec.role_title).split(" (highest")[0],
            "learned": f.learned,
            "search": f.search,
            "kind": j.kind,
            "verdict": F.verdict_words(f.key, j),
            "estimate": j.estimate,
            "ci95": list(j.ci95),
            "margin": j.margin,
            "paired": f.paired,
            **({"method": F.SPREAD_METHODS[f.paired]} if f.key == F.SPREAD else {}),
            "p_holm": j.p_holm,
            "p_equiv_holm": j.p_equiv_holm,
            "more_games": j.more_games,
        }
    return out


def write(doc: dict, folder: Path, install: bool = False) -> list[Path]:
    """fidelity-<scenario>.json and .md (`sim.pages.fidelity_page`) into ``folder`` (created), and with ``install``
    beside the game's policies too (`sim.model.fidelity.fidelity_path`). Returns the files written."""
    from sim.model.fidelity import fidelity_path
    from sim.output.report import write_json
    from sim.pages.fidelity_page import render_markdown

    dests = [Path(folder) / f"fidelity-{doc['scenario']}.json"]
    if install:
        dests.append(fidelity_path(doc["game"], doc["scenario"]))
    written = []
    for js in dests:
        js.parent.mkdir(parents=True, exist_ok=True)
        tmp_js, md = js.with_suffix(".json.tmp"), js.with_suffix(".md")
        write_json(tmp_js, doc)
        md.write_text(render_markdown(doc), encoding="utf-8")
        tmp_js.replace(js)
        written += [js, md]
    return written
