"""The `sim` command line: thin Typer commands over sim.api. Exit codes: 0 ok, 1 regression found,
2 usage error, 3 bad input file, 130 interrupted. Data goes to stdout, progress and errors to stderr."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Monte Carlo balance simulator for tabletop games.")

EXIT_REGRESSION = 1
EXIT_USAGE = 2
EXIT_BAD_INPUT = 3
EXIT_INTERRUPTED = 130
SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


class BadInput(Exception):
    """One-line user error; exits with EXIT_BAD_INPUT."""


def fail(msg: str, code: int = EXIT_BAD_INPUT):
    typer.echo(f"error: {msg}", err=True)
    raise typer.Exit(code)


def load_scenario(path: Path):
    from sim.scenario import ScenarioError, load
    try:
        return load(path)
    except ScenarioError as e:
        fail(str(e))


def progress_bar(total: int, label: str):
    """A Rich progress bar on stderr; returns (context manager, advance callback)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    prog = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                    console=Console(stderr=True), transient=True, disable=not sys.stderr.isatty())
    task = prog.add_task(label, total=total)
    return prog, lambda k: prog.advance(task, k)


def _positive(name: str, v: Optional[int], lo: int = 1):
    if v is not None and v < lo:
        fail(f"--{name}: {v} is out of range; allowed >= {lo}", EXIT_USAGE)


@app.command()
def run(scenario: Annotated[Path, typer.Argument(help="scenario TOML file")],
        games: Annotated[Optional[int], typer.Option(help="games to play (default: the scenario's)")] = None,
        seed: Annotated[Optional[int], typer.Option(help="master seed (default: the scenario's)")] = None,
        threads: Annotated[Optional[int], typer.Option(help="Numba threads (default: all cores)")] = None,
        chunk: Annotated[int, typer.Option(help="games per chunk (memory bound; results do not depend on it)")] = 1 << 16,
        out: Annotated[Optional[Path], typer.Option(help="report folder (default: reports/<scenario name>)")] = None,
        json_out: Annotated[bool, typer.Option("--json", help="print the summary JSON to stdout")] = False,
        per_game: Annotated[bool, typer.Option("--per-game", help="also write per-game rows to games.parquet")] = False):
    """Play a scenario and write its report (summary.json, summary.md, summary.html, provenance.json)."""
    _positive("games", games)
    _positive("threads", threads)
    _positive("chunk", chunk)
    if seed is not None and not 0 <= seed < 2**64:
        fail(f"--seed: {seed} is out of range; allowed 0..2^64-1", EXIT_USAGE)
    sc = load_scenario(scenario)
    from sim import api, tables
    n = sc.games if games is None else games
    prog, adv = progress_bar(n, f"{sc.name}")
    with prog:
        s, folder = api.run_scenario(sc, games, seed, threads, chunk, out, per_game, progress=adv)
    if json_out:
        typer.echo(json.dumps(s, indent=2))
    else:
        typer.echo(tables.render_markdown(s))
    typer.echo(f"report written to {folder}", err=True)


@app.command("run-defaults")
def run_defaults(games: Annotated[Optional[int], typer.Option(help="override games per scenario")] = None,
                 game: Annotated[Optional[str], typer.Option(help="only this game's scenarios")] = None):
    """Run every default scenario under scenarios/<game>/ and write their reports (what `make run` does)."""
    from sim import api, tables
    files = sorted(p for p in SCENARIOS.glob("*/*.toml") if game is None or p.parent.name == game)
    if not files:
        fail(f"no scenarios found under {SCENARIOS}" + (f"/{game}" if game else ""))
    for f in files:
        sc = load_scenario(f)
        n = sc.games if games is None else games
        prog, adv = progress_bar(n, sc.name)
        with prog:
            s, folder = api.run_scenario(sc, n, progress=adv)
        seats = ", ".join(f"seat {r['seat']} {r['strategy']} {100 * r['win']['rate']:.1f}%" for r in s["seats"])
        typer.echo(f"{f.relative_to(SCENARIOS)}: {s['games']['finished']} games, {s['provenance']['wall_time_s']} s; "
                   f"{seats} -> {folder}")


@app.command()
def replay(scenario: Annotated[Path, typer.Argument(help="scenario TOML file")],
           game: Annotated[int, typer.Option(help="game index (as in a batch run)")] = 0,
           seed: Annotated[Optional[int], typer.Option(help="master seed (default: the scenario's)")] = None):
    """Print one game turn by turn in words, identical to game GAME of a batch run with the same seed."""
    _positive("game", game, 0)
    sc = load_scenario(scenario)
    if seed is not None:
        sc = sc.with_changes(seed=seed)
    from sim import api
    typer.echo("\n".join(api.replay(sc, game)))


@app.command("list")
def list_(game: Annotated[Optional[str], typer.Argument(help="only this game")] = None):
    """List games, their parameters (default, allowed values) and strategies."""
    from sim import registry
    games = registry.all_games()
    if game is not None and game not in games:
        fail(f"unknown game '{game}'; allowed: {', '.join(games)}", EXIT_USAGE)
    for name, g in games.items():
        if game and name != game:
            continue
        typer.echo(f"{name}: {g.title} ({g.min_players}-{g.max_players} players, rules v{g.rules_version})")
        typer.echo("  parameters:")
        for p in g.params:
            dom = (f"{p.domain[0]}..{p.domain[1]}" if p.kind in ("int", "float", "int_list") and p.domain
                   else " | ".join(p.domain) if p.kind == "choice" else "true | false" if p.kind == "bool" else "text")
            typer.echo(f"    {p.name} = {p.default!r}  [{p.kind}: {dom}]  {p.help}")
        typer.echo("  strategies:")
        for s in g.strategies:
            role = f" [{s.role}]" if s.role != "player" else ""
            typer.echo(f"    {s.name}{role}: {s.help}")
            for p in s.params:
                typer.echo(f"      {p.name} = {p.default}  {p.help}")


@app.command()
def bench(games: Annotated[int, typer.Option(help="games per timing")] = 400_000,
          quick: Annotated[bool, typer.Option(help="smaller runs (smoke test)")] = False):
    """Speed benchmark: games/s and decisions/s on 1 and 2 threads, cold compile, warm start, oracle ratio."""
    from sim import bench as b
    res = b.run_all(games=20_000 if quick else games)
    typer.echo(b.render(res))


def main() -> None:
    """Console entry point: no tracebacks for user errors, clean Ctrl-C."""
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("interrupted: stopped between chunks, no report written", err=True)
        sys.exit(EXIT_INTERRUPTED)


if __name__ == "__main__":
    main()
