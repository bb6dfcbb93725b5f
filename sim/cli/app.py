"""The `sim` Typer app: its command groups print a usage error as one line (a wrong type said in plain words) and
list the commands by panel, what a designer does."""

from __future__ import annotations

import re

import typer
import typer.core

from sim.model.words import TYPE_WORDS, not_a

try:  # typer 0.29 (pinned) vendors click as typer._click
    from typer._click.exceptions import NoArgsIsHelpError, UsageError
except ImportError:  # pragma: no cover - a typer that uses click itself
    # ignored: click's own classes of the same names stand in for typer's vendored ones
    from click.exceptions import NoArgsIsHelpError, UsageError  # type: ignore[assignment]


def _plain_type_error(e: UsageError, argv: list[str]) -> str | None:
    """A value of the wrong type in a designer's words ("--games: 'abc' is not a whole number") instead of the
    validator's ("Input should be a valid integer, unable to parse string as an integer"); None for other errors."""
    m = re.search(r"Input should be a valid (\w+)", e.format_message())
    param = getattr(e, "param", None)
    if m is None or param is None or m.group(1) not in TYPE_WORDS:
        return None
    opts = list(getattr(param, "opts", ())) or [param.name or "value"]
    given = None
    for i, tok in enumerate(argv):
        if tok in opts and i + 1 < len(argv):
            given = argv[i + 1]
        for o in opts:
            if tok.startswith(o + "="):
                given = tok[len(o) + 1 :]
    name = opts[-1] if opts[-1].startswith("--") else opts[0]
    return not_a(name, given, m.group(1)) if given is not None else f"{name}: expected {TYPE_WORDS[m.group(1)]}"


def plain_arguments(cmd) -> None:
    """``cmd``'s arguments named in plain words on its usage line and in its help: ``sim compare [OPTIONS] A [B]``,
    ``sim check [OPTIONS] [SCENARIOS]...``, where Typer wrote ``{a} [b]`` (a required argument in braces reads as
    a set to pick from). An argument given a metavar keeps it."""
    for p in getattr(cmd, "params", ()):
        if not isinstance(p, typer.core.TyperArgument):
            continue
        if p.metavar is None:
            p.metavar = (p.name or "value").upper()

        def pieces(ctx, p=p) -> list[str]:
            name = p.metavar if p.required else f"[{p.metavar}]"
            return [name + ("..." if p.nargs != 1 else "")]

        p.get_usage_pieces = pieces  # type: ignore[method-assign]
    for p in getattr(cmd, "params", ()):
        if isinstance(p, typer.core._TyperParameter) and _is_path(p.type_descriptor.annotation):
            refuse_blank_path(p)


_TYPE_WORDS = {
    "<list[str]>": "<text>",
    "<str>": "<text>",
    "<list[int]>": "<int>",
    "<list[path]>": "<path>",
    "<list[Path]>": "<path>",
}


def _plain(shown):
    def display(self, ctx) -> str | None:
        """A parameter's type in its help in a designer's words: none for a flag (Typer 0.29 writes ``<bool>``),
        the item's type for a repeatable option (``<text>`` where it writes ``<list[str]>``: the help says
        "repeatable"), ``<text>`` for ``<str>``."""
        if getattr(self, "is_flag", False):
            return None
        text = shown(self, ctx)
        return _TYPE_WORDS.get(text, text) if text else text

    return display


typer.core.TyperOption.display_type_rich = _plain(typer.core.TyperOption.display_type_rich)  # type: ignore[method-assign]
typer.core.TyperArgument.display_type_rich = _plain(typer.core.TyperArgument.display_type_rich)  # type: ignore[method-assign]


def _is_path(annotation) -> bool:
    """Whether a parameter of type ``annotation`` takes paths (Path, Path | None, list[Path])."""
    import typing
    from pathlib import Path

    return annotation is Path or any(_is_path(a) for a in typing.get_args(annotation))


def refuse_blank_path(p) -> None:
    """Parameter ``p`` (a path) refuses an empty value in one line naming it: Typer makes "" the path "." (the
    current folder), and `sim run ""` said "error: .: is a folder"."""
    process = p.process_value

    def checked(ctx, value, process=process, p=p):
        values = value if isinstance(value, (list, tuple)) else [value]
        if any(isinstance(v, str) and not v.strip() for v in values):
            name = p.metavar if isinstance(p, typer.core.TyperArgument) else p.opts[-1]
            raise UsageError(f"{name}: {next(v for v in values if isinstance(v, str))!r} is empty; give a path", ctx)
        return process(ctx, value)

    p.process_value = checked


class OneLineUsage(typer.core.TyperGroup):
    """Usage errors (a bad option value, an unknown option or command, a missing argument) as one line on stderr,
    exit 2, instead of Typer's boxed multi-line panel. `sim` alone still prints the help."""

    argv: list[str] = []  # the command line being parsed (the wrong value is named from it)

    @staticmethod
    def _one_line(e: UsageError):
        if isinstance(e, NoArgsIsHelpError):
            raise e
        where = e.ctx.command_path if e.ctx is not None else OneLineUsage._command_path()
        msg = _plain_type_error(e, OneLineUsage.argv) or " ".join(e.format_message().split()).rstrip(".")
        if "unexpected extra argument" in msg and "(step " in msg:  # --set x=1..9 step 2 unquoted: the shell split it
            msg += "; a range with a step is one argument: quote it, e.g. --set 'track_len=20..60 step 5'"
        typer.echo(f"error: {msg} (see {where} --help)", err=True)
        raise typer.Exit(e.exit_code)

    @staticmethod
    def _command_path() -> str:
        """`sim` and the command of the line being parsed, for an error Click raises without its context (an option
        given last with no value)."""
        argv, names = OneLineUsage.argv, OneLineUsage.names
        return f"sim {argv[0]}" if argv and argv[0] in names else "sim"

    names: set[str] = set()  # the group's commands (`_command_path`)

    PANELS = ("Play", "Compare and explore", "Regression", "Boards", "Tools")  # `sim --help`, in this order

    def list_commands(self, ctx):
        """The commands grouped by panel (what a designer does), in PANELS order; within a panel as registered."""
        names = super().list_commands(ctx)
        rank: dict[str | None, int] = {p: i for i, p in enumerate(self.PANELS)}  # a command without a panel: last
        return sorted(names, key=lambda n: rank.get(getattr(self.commands[n], "rich_help_panel", None), len(rank)))

    def get_command(self, ctx, cmd_name):
        cmd = super().get_command(ctx, cmd_name)
        if cmd is not None:
            plain_arguments(cmd)
        return cmd

    def make_context(self, *args, **kw):
        if len(args) > 1 and isinstance(args[1], list):
            OneLineUsage.argv = list(args[1])
            OneLineUsage.names = set(self.commands)
        try:
            return super().make_context(*args, **kw)
        except UsageError as e:
            self._one_line(e)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except UsageError as e:
            self._one_line(e)


app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    cls=OneLineUsage,
    help="Monte Carlo balance simulator for tabletop games.\n\n"
    "Start with: sim run scenarios/moor/4p.toml, then open reports/moor-4p/summary.html.",
)
