"""`sim fidelity`: does the learned table tell the same balance story as a table of `search` players?"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sim.cli import shared
from sim.cli.common import EXIT_USAGE, fail, interruptible, run_context
from sim.model.values import out_of_range


def fidelity(
    scenario: Annotated[Path, typer.Argument(help='scenario (TOML) whose "At skill" table is checked')],
    games: Annotated[int, typer.Option(help="games each table plays (the same games: common random numbers)")] = 2000,
    budget: Annotated[int, typer.Option(help="search's rollouts a decision (learned rollouts)")] = 64,
    seed: Annotated[int | None, typer.Option(help="common seed (default: the scenario's)")] = None,
    threads: Annotated[int | None, typer.Option(help="Numba threads (default: all cores)")] = None,
    margin: Annotated[
        list[str] | None,
        typer.Option(
            "--margin",
            help="FIGURE=VALUE: the agreement margin of a figure (percentage points for rates, turns for "
            "length_turns; default 2 points, 5% of the learned length)",
        ),
    ] = None,
    out: Annotated[
        Path | None, typer.Option(help="folder for the files (default: reports/fidelity-<scenario>)")
    ] = None,
    install: Annotated[
        bool, typer.Option("--install", help="also write them beside the game's policies (kernels/<game>/policies/)")
    ] = False,
):
    """Does the learned table tell the same balance story as search?

    Plays the scenario's "At skill" table (every seat on its role's learned
    player) and the same seats on search (--budget rollouts a decision, the
    learned player in the rollouts) on the same games, and judges each
    headline figure: agrees within +/-M (an equivalence test), differs (a
    significant difference), or cannot tell yet. Writes
    fidelity-<scenario>.json and .md; --install puts them beside the policies,
    where the report's "At skill" section quotes them.

    Example:

        sim fidelity scenarios/moor/4p.toml --games 2000 --budget 64 --install
    """
    from sim.api import fidelity as api
    from sim.model import paths
    from sim.output.report import OutputError, check_writable
    from sim.play import progress
    from sim.stats import compare as cmp
    from sim.stats.verdict import MarginError, parse_margins

    try:
        api.check_counts(games, budget)  # before the scenario is read
    except api.FidelityError as e:
        fail(str(e), EXIT_USAGE)
    if threads is not None and threads < 1:
        fail(out_of_range("--threads", threads, 1), EXIT_USAGE)
    if seed is not None and not 0 <= seed < 2**64:
        fail(out_of_range("--seed", seed, 0, 2**64 - 1), EXIT_USAGE)
    try:
        margins = parse_margins(margin)
    except MarginError as e:
        fail(str(e), EXIT_USAGE)
    unknown = [k for k in margins if k not in api.FIGURE_KEYS and not k.startswith("team_win_rate.")]
    if unknown:
        fail(
            f"--margin: '{unknown[0]}' is not a figure; allowed: {', '.join(api.FIGURE_KEYS)}, team_win_rate.<role>", 2
        )
    sc = shared.load_scenario(scenario, None, None, seed, (), "sim fidelity")
    if why := margin_refusal(margins, sc):
        fail(why, EXIT_USAGE)
    try:
        api.tables(sc, games, budget)  # refused before anything plays
    except api.FidelityError as e:
        fail(str(e), EXIT_USAGE)
    folder = out or paths.REPORTS / f"fidelity-{sc.name}"
    try:  # before any game is played; the folder itself is made only when the files are written
        check_writable(folder, "--out" if out else "the default folder", create=False)
    except OutputError as e:
        fail(str(e))
    command = api.command_line(
        str(scenario), games, budget, sc.seed, list(margin or ()), None if out is None else str(out), install
    )
    prog, adv, side = progress.compare_bar(games, f"{sc.name}: learned vs search@{budget}")  # each table's games/s
    with interruptible():
        try:
            with prog:
                doc = api.fidelity(
                    sc,
                    games,
                    budget,
                    sc.seed,
                    margins,
                    command,
                    ctx=run_context(threads, adv, side),
                    on_played=lambda: prog.played("the fidelity check"),
                )
        except (api.FidelityError, cmp.CompareError) as e:
            fail(str(e), EXIT_USAGE)
        written = api.write(doc, folder, install)
    for f in doc["figures"].values():
        typer.echo(f"{f['words']}: {f['verdict']}")
    if doc.get("same_games"):
        typer.echo(SAME_GAMES.format(games=doc["games"], search=doc["search"]))
    jsons = [p for p in written if p.suffix == ".json"]
    beside = "its .md beside it" if len(jsons) == 1 else "each with its .md beside it"
    typer.echo(f"fidelity written to {', '.join(map(str, jsons))} ({beside})", err=True)


# said where the search table played every game as the learned one (`sim.api.fidelity.same_games`)
SAME_GAMES = (
    "note: {search} played each of the {games:,} games as the learned table did (the same length and winners): at "
    "this budget the search never left its rollout player's move, so 'agrees' says nothing about stronger search; "
    "give a larger --budget"
)


def margin_refusal(margins: dict[str, float], sc) -> str | None:
    """Why a --margin does not fit scenario ``sc`` (a figure it does not judge, a rate's margin above 100 points, a
    length's above the scenario's turn limit), one line; None when every one fits."""
    from sim.api.fidelity import judged_keys

    keys = judged_keys(sc)
    for k, v in margins.items():
        if k not in keys:
            return f"--margin: {sc.name} judges no figure '{k}'; allowed: {', '.join(keys)}"
        if k != "length_turns" and v > 100:
            return f"--margin {k}: {v:g} points is more than a rate can differ; allowed: up to 100 points"
        cap = sc.params.get("max_turns")
        if k == "length_turns" and cap is not None and v > cap:
            return (
                f"--margin length_turns: {v:g} turns is more than a game of {sc.name} can last; allowed: up to its "
                f"max_turns, {cap:,}"
            )
    return None
