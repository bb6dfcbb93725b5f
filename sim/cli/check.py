"""`sim check` and `sim baselines`: statistical regression checks against the committed baselines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from sim.cli import shared
from sim.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_INCONCLUSIVE,
    EXIT_REGRESSION,
    EXIT_USAGE,
    check_run_options,
    fail,
    in_range,
    known_game,
    run_context,
    usage,
)
from sim.cli.shared import progress_bar, writable_or_fail
from sim.model.search import has_search


def check(
    scenarios: Annotated[
        list[Path] | None, typer.Argument(help="scenario files (default: every scenarios/*/*.toml)")
    ] = None,
    game: Annotated[str | None, typer.Option(help="only this game's default scenarios")] = None,
    tier: Annotated[str, typer.Option(help="exact | statistical | all")] = "all",
    seed: Annotated[
        int | None,
        typer.Option(
            help="fresh seed of the statistical tier (default: derived from the baselines' contents and the git "
            "commit, printed: a rerun of one commit gives the same verdict)"
        ),
    ] = None,
    games: Annotated[
        int | None, typer.Option(help="statistical-tier games per scenario (default: the baseline's check_games)")
    ] = None,
    alpha: Annotated[
        float,
        typer.Option(help="family-wise false-alarm level of the statistical tier (Holm over every test of the run)"),
    ] = 0.005,
    baselines: Annotated[Path | None, typer.Option(help="baseline folder (default: reports/baselines)")] = None,
    baseline: Annotated[Path | None, typer.Option(help="one baseline JSON for the one scenario given")] = None,
    threads: Annotated[int | None, typer.Option(help="Numba threads (default: all cores)")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="print the result JSON to stdout")] = False,
    sets: Annotated[
        list[str] | None,
        typer.Option(
            "--set", help="NAME=VALUE: check each scenario changed so against its baseline (see sim run --help)"
        ),
    ] = None,
    margins: Annotated[
        list[str] | None,
        typer.Option(
            "--margin",
            help="KEY=VALUE: equivalence margin of a headline figure's verdict, in its unit (percentage points for "
            "rates); default: rates 1 point, lengths 2%, counts and points 5%",
        ),
    ] = None,
    markdown: Annotated[
        Path | None,
        typer.Option(help="also write the summary as Markdown to this file (a CI job summary, a PR comment)"),
    ] = None,
):
    """Regression check against the committed baselines (exit 1 on a regression).

    Its first lines name what differs from each baseline's resolved scenario
    (params.track_len: 30 -> 31 (the rule's default changed)). Exact tier: the
    baseline's seed and games must give identical integer aggregates.
    Statistical tier: fresh games at a seed derived from the baselines and the
    commit, every metric tested against the baseline, Holm correction; each
    headline figure judged unchanged within its margin, changed, or cannot tell
    yet. Exit 0 pass, 1 regression, 2 usage, 3 bad input (missing, corrupt or
    another game's baseline), 4 inconclusive (no regression, but a headline
    figure moved and is not shown within its margin: rerun with more --games).

    Example:

        sim check --game moor --markdown check.md
        sim check my.toml --margin first_player_advantage=0.5
    """
    import sim.api.public as api
    from sim.stats import check as chk
    from sim.stats import check_report as report

    opts = usage(
        api.CheckOptions(
            tier=tier,
            seed=seed,
            games=games,
            alpha=alpha,
            baselines=baselines,
            baseline=baseline,
            sets=tuple(sets or ()),
            threads=threads,
            margins=tuple(margins or ()),
        ).validate
    )
    if scenarios and game:
        fail("give scenario files or --game, not both", EXIT_USAGE)
    known_game(game)
    files = list(scenarios) if scenarios else chk.default_scenarios(game)
    if not files:
        fail(f"no scenarios found under {chk.SCENARIOS}" + (f"/{game}" if game else ""))
    if not scenarios and baseline is None:
        for p in chk.stale_baselines(game, baselines or chk.BASELINES):
            typer.echo(f"note: {chk._rel(p)} has no scenario any more: delete it (or run make baselines)", err=True)
    from sim.model.overrides import OverrideError
    from sim.model.scenario import ScenarioError
    from sim.stats.verdict import MarginError

    if markdown is not None:  # refused before any game is played
        from sim.output.report import OutputError, check_writable

        if markdown.is_dir():
            fail(f"--markdown {markdown}: is a folder; give a file name (check.md)", EXIT_USAGE)
        try:
            check_writable(markdown.parent, "--markdown")
        except OutputError as e:
            fail(str(e))
    try:
        res = api.check(
            files,
            **opts.keywords(),
            ctx=run_context(threads),
            log=lambda line: typer.echo(line, err=True),
            bar=progress_bar,
        ).raw
    except (OverrideError, MarginError) as e:
        fail(str(e), EXIT_USAGE)
    except (chk.BadBaseline, ScenarioError) as e:
        if markdown is not None:  # CI shows why the check could not run
            _write_markdown(f"## sim check: BAD INPUT\n\n{report._md(str(e))} (exit code {EXIT_BAD_INPUT})\n", markdown)
        fail(str(e))
    if markdown is not None:
        _write_markdown(report.render_markdown(res), markdown)
    typer.echo(json.dumps(res, indent=2) if json_out else report.render(res))
    if res["status"] == chk.REGRESSION:
        raise typer.Exit(EXIT_REGRESSION)
    if res["status"] == chk.INCONCLUSIVE:
        raise typer.Exit(EXIT_INCONCLUSIVE)


def _write_markdown(text: str, path: Path) -> None:
    """`sim check --markdown FILE`: written atomically (a full disk: one line, exit 3, the file as it was)."""
    from sim.stats import check_report as report

    try:
        report.write_markdown(text, path)
    except OSError as e:
        fail(f"cannot write the Markdown summary {path}: {e.strerror or e}; it was not written")


def baselines_(
    scenarios: Annotated[
        list[Path] | None, typer.Argument(help="scenario files (default: every scenarios/*/*.toml)")
    ] = None,
    game: Annotated[str | None, typer.Option(help="only this game's default scenarios")] = None,
    out: Annotated[Path | None, typer.Option(help="baseline folder (default: reports/baselines)")] = None,
    exact_games: Annotated[
        int | None, typer.Option(help="games of the exact tier (default: by game, its GameSpec.check_sizes)")
    ] = None,
    stat_games: Annotated[int | None, typer.Option(help="games behind the statistical baseline")] = None,
    check_games: Annotated[int | None, typer.Option(help="fresh games the statistical tier plays")] = None,
    threads: Annotated[int | None, typer.Option(help="Numba threads (default: all cores)")] = None,
):
    """(Re)generate the regression baselines (what `make baselines` does).

    One JSON per scenario, stamped with the rules version and RNG contract:
    after an intended change of behaviour, or once for a scenario of your own
    (then sim check my.toml).

    Example:

        sim baselines my.toml
    """
    from sim.api import check as chk_play
    from sim.stats import check as chk

    for name, v in (("exact-games", exact_games), ("stat-games", stat_games), ("check-games", check_games)):
        in_range(name, v)
    check_run_options(threads=threads)
    if scenarios and game:
        fail("give scenario files or --game, not both", EXIT_USAGE)
    known_game(game)
    files = list(scenarios) if scenarios else chk.default_scenarios(game)
    if not files:
        fail(f"no scenarios found under {chk.SCENARIOS}" + (f"/{game}" if game else ""))
    scs = [(f, shared.load_scenario(f)) for f in files]
    for f, _sc in scs:  # refused before any game is played: another file's baseline, no place to write
        dest = chk.baseline_path(f, out or chk.BASELINES)
        other = chk.owner_clash(dest, f)
        if other:
            fail(
                f"{chk._rel(dest)} is the baseline of {other}, not of {f}; nothing written (give --out another folder)"
            )
        writable_or_fail(dest.parent)
    for f, sc in scs:
        e0, s0, _ = chk.sizes(sc.game, has_search(sc))
        prog, adv = progress_bar(max(stat_games or s0, exact_games or e0), sc.name)
        with prog:
            b = chk_play.make_baseline(sc, exact_games, stat_games, check_games, ctx=run_context(threads, adv))
        dest = chk.baseline_path(f, out or chk.BASELINES)
        try:
            chk.write_baseline(b, dest)
        except OSError as e:  # a full disk: one line naming the file; the baselines written before stay
            fail(f"cannot write the baseline {chk._rel(dest)}: {e.strerror or e}; it was not written")
        typer.echo(
            f"{chk._rel(f)}: rules v{b['rules_version']}, RNG contract v{b['rng_contract']}, exact "
            f"{b['exact']['games']} games, statistical {b['statistical']['games']} games (checks play "
            f"{b['statistical']['check_games']}) -> {chk._rel(dest)}"
        )


# ---- sim board show (board files of every game with a board) ---------------------------------------------------------
