"""`sim list`: the games, their parameters, strategies and measures."""

from __future__ import annotations

from typing import Annotated

import typer

from sim.cli.common import (
    known_game,
)


def list_(game: Annotated[str | None, typer.Argument(help="only this game")] = None):
    """List games, their parameters, strategies and measures.

    Each parameter with its default, the values allowed and a line of help,
    written as a scenario file writes it; each strategy with its weights; each
    measure with its definition.

    Example:

        sim list moor
    """
    from sim.model import catalogue, registry
    from sim.model.params_table import named_value, part_of
    from sim.model.scenario import toml_value as tv  # values as a TOML file writes them: copy them into one

    known_game(game, "GAME")
    if game is None:
        games = registry.all_games()
    else:
        spec = registry.get(game)
        assert spec is not None, game  # known_game refused an unknown game
        games = {game: spec}
    for name, g in games.items():
        typer.echo(f"{name}: {g.title} ({g.min_players}-{g.max_players} players, rules v{g.rules_version})")
        typer.echo("  parameters:")
        inner, defaults = part_of(g), g.defaults()
        for p in g.params:
            if p.name in inner:
                continue  # listed inside its table (move_die_ghost in move_die)
            dom = (
                f"{tv(p.domain[0])}..{tv(p.domain[1])}"
                if p.kind in ("int", "float", "int_list") and p.domain
                else " | ".join(map(tv, p.domain))
                if p.kind == "choice"
                else "true | false"
                if p.kind == "bool"
                else "text"
            )
            dom += f" or names: {', '.join(p.labels)}" if p.labels else ""
            if p.fields:
                dom = f"{', '.join(p.field_names())}: integers {tv(p.domain[0])}..{tv(p.domain[1])}"
            elif p.parts:
                dom = f"{', '.join(k for k, _ in p.parts)}; or the {p.name} array alone: {dom}"
            kind = "table" if p.fields or p.parts else p.kind
            typer.echo(f"    {p.name} = {tv(named_value(g, p, defaults))}  [{kind}: {dom}]  {p.help}")
            for f, h in p.fields:
                typer.echo(f"      {p.name}.{f}: {h}")
            for key, target in p.parts:
                tp = g.param(target)
                assert tp is not None, target  # a part names one of the game's own parameters
                also = f" (also the parameter {target} on its own)" if target != p.name else ""
                typer.echo(f"      {p.name}.{key}: {tp.help}{also}")
        typer.echo("  strategies:")
        for s in g.strategies:
            role = f" [{g.role_title(s.role)}]" if s.role != "player" else ""
            typer.echo(f"    {s.name}{role}: {s.help}")
            for p in s.params:
                long = isinstance(p.default, float) and len(repr(p.default)) > 10  # a fitted weight: 6 digits
                shown = f"{p.default:.6g}" if long else tv(p.default)
                typer.echo(f"      {p.name} = {shown}  {p.help}")
        typer.echo("  measures (key: label [unit; where it applies]: definition):")
        for key, e in catalogue.listing(g):
            where = [
                x
                for x in (
                    (
                        "competitive games"
                        if e.applies == "competitive"
                        else "team games"
                        if e.applies == "team"
                        else ""
                    ),
                    ("mode " + " | ".join(e.modes) if e.modes else ""),
                    ("per run" if e.level == "batch" else ""),
                )
                if x
            ]
            typer.echo(f"    {key}: {e.label} [{e.unit}{'; ' + ', '.join(where) if where else ''}]: {e.definition}")
