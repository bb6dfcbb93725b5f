"""`sim board show`: validate a board file and draw it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from sim.cli.app import OneLineUsage
from sim.cli.common import (
    fail,
)

board_app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    cls=OneLineUsage,
    help="Board files: validate one and draw it to check it by eye.",
)


def stdout_is_terminal() -> bool:
    """Whether stdout is a terminal (not a pipe or a file)."""

    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


@board_app.command("show")
def board_show(
    file: Annotated[Path, typer.Argument(help="board TOML file of any game with a board")],
    out: Annotated[
        Path | None,
        typer.Option(
            help="write the SVG here (default: stdout when it is "
            "redirected, else GAME-NAME.board.svg in the current "
            "folder)"
        ),
    ] = None,
):
    """Validate a board file and draw it as SVG.

    The game's board is recognised by the tables it holds (a Turnwall castle, a
    Treasure Hunters house, the Galleon bay); a file of no game's board is one
    line naming every kind. Without --out the SVG goes to stdout when that is a
    pipe or a file (sim board show F > f.svg), and to GAME-NAME.board.svg in the
    current folder when it is a terminal (raw SVG on a screen is unreadable; the
    current folder, not the board's, which may be the shipped scenarios/),
    saying where.

    Example:

        sim board show scenarios/turnwall/boards/default.toml --out castle.svg
    """
    from sim.pages.board_svg import BoardFileError, show

    try:
        game, svg = show(file)
    except BoardFileError as e:
        fail(str(e))
    if out is None:
        if not stdout_is_terminal():
            typer.echo(svg)
            return
        out = Path.cwd() / f"{game}-{file.stem}.board.svg"  # every game ships a default.toml
    if out.is_dir():
        fail(f"--out: {out} is a folder; give a file name for the SVG (e.g. {out / 'board.svg'})")
    if not out.parent.is_dir():
        fail(f"--out: {out}: the folder {out.parent} does not exist")
    try:
        out.write_text(svg + "\n", encoding="utf-8")
    except OSError as e:
        fail(f"--out: cannot write {out} ({e.strerror or e})")
    typer.echo(f"{file}: a valid {game} board; drawn to {out}", err=True)
