"""What ``import sim`` hands a Python caller: each API function wrapped so that it speaks Python, not the command
line (`python_api`).

- An unknown keyword raises the API's own `OptionError` naming it and the keywords allowed (never a bare
  ``TypeError``), so ``except sim.SimError`` catches every bad input.
- A bad value's message names the keyword as Python code does: ``games=0 is out of range; allowed
  1..10,000,000,000`` where the command line says ``--games: 0 is out of range ...`` (the command line calls the
  unwrapped functions and keeps its words), and its ``field`` is that keyword: the function's own (``margins``
  where the command line repeats ``--margin``), or the argument whose file or folder is at fault (``scenario``
  for a missing scenario file, ``baselines`` for a baseline missing from that folder).
- A long call shows its progress where a person is watching (a terminal or a Jupyter notebook: `default_progress`),
  unless the caller passes its own `RunContext` (``ctx``) or progress callback.
"""

from __future__ import annotations

import copy
import functools
import inspect
import os
import re
import sys
import time
from collections.abc import Callable, Collection
from pathlib import Path
from typing import ParamSpec, TypeVar

from sim.api.options import OptionError
from sim.model.errors import SimError
from sim.model.paths import REPO
from sim.play.context import RunContext

P = ParamSpec("P")
R = TypeVar("R")

PROGRESS_EVERY_S = 2.0  # a progress line at most this often ...
PROGRESS_AFTER_S = 2.0  # ... once the call has run this long (a quick call prints nothing)
_LEAD = re.compile(r"^--([a-z][\w-]*)(?:: (\S+?)(?= (?:is|are) )|: | )")
_ARGUMENT = re.compile(r"^([A-Z]+): ")  # a command line's argument (GAME, SCENARIO): the keyword's name
_OPTION = re.compile(r"(?<![\w-])--([a-z][\w-]*)")
_OVERRIDE = re.compile(r"(?<![\w-])--([a-z][\w-]*) NAME=VALUE\b")  # "--set-b NAME=VALUE": an override's form
_QUOTED = re.compile(r"(`[^`]*`)")
_HELP = re.compile(r"\(see sim ([a-z][\w-]*) --help\)")


def keyword(option: str) -> str:
    """The keyword of a command-line option's name: "balance-games" -> "balance_games"."""
    return option.replace("-", "_")


def keyword_of(option: str, keywords: Collection[str] = ()) -> str:
    """The keyword of a command-line option's name among a function's ``keywords``: "--margin", repeated on the
    command line, is the keyword ``margins`` of a function taking that list ("--measure" -> ``measures``,
    "--target" -> ``targets`` of `sim.tune`); "--out" is ``folder`` of a result's ``write(folder)``; else
    `keyword` ("balance-games" -> "balance_games")."""
    name = keyword(option)
    if name not in keywords and name + "s" in keywords:
        return name + "s"
    return "folder" if name == "out" and "out" not in keywords and "folder" in keywords else name


def python_words(line: str, keywords: Collection[str] = ()) -> str:
    """A command-line error line in Python words: "--games: 0 is out of range; allowed 1..5" -> "games=0 is out of
    range; allowed 1..5"; "--set players=6: ..." -> "set: players=6: ..."; a later "--set-b NAME=VALUE" ->
    'set_b={"NAME": VALUE}', any other later "--out" -> "out=" (not in a `quoted` shell command); "(see sim
    compare --help)" -> "(see help(sim.compare))". ``keywords``: the function's, naming an option as that function does (`keyword_of`:
    "--margin: ..." -> "margins: ...")."""

    def lead(m: re.Match[str]) -> str:
        name = keyword_of(m.group(1), keywords)
        if m.group(2) is not None:
            return f"{name}={m.group(2)}"
        return f"{name}: "

    def later(part: str) -> str:
        part = _HELP.sub(lambda m: f"(see help(sim.{keyword(m.group(1))}))", part)
        part = _OVERRIDE.sub(lambda m: f'{keyword_of(m.group(1), keywords)}={{"NAME": VALUE}}', part)
        return _OPTION.sub(lambda m: f"{keyword_of(m.group(1), keywords)}=", part)

    line = _ARGUMENT.sub(lambda m: f"{m.group(1).lower()}: ", _LEAD.sub(lead, line, count=1), count=1)
    # a command quoted in backticks (`sim baselines F --out DIR`) is a shell command: kept as typed
    return "".join(part if i % 2 else later(part) for i, part in enumerate(_QUOTED.split(line)))


def _paths(value: object) -> list[str]:
    """The file or folder paths an argument's value gives: a path, or each path of a list of them."""
    values = value if isinstance(value, (list, tuple)) else [value]
    return [os.fspath(v) for v in values if isinstance(v, (str, os.PathLike))]


def _names_path(field: str, given: str) -> bool:
    """Whether error field ``field`` is the path ``given`` or a file inside that folder (an error line names a file
    as given, resolved, or relative to the repository: `sim.stats.baseline_scenario._rel`)."""
    if field == given:
        return True
    if not given or "/" not in field.replace(os.sep, "/"):  # ("scenario.players" is a field, not a file)
        return False
    at = Path(given).resolve()
    return any(f == at or at in f.parents for f in (Path(field).resolve(), (REPO / field).resolve()))


def field_keyword(e: SimError, bound: inspect.BoundArguments | None) -> str | None:
    """The keyword ``e`` is about, as the call named it: an option's (`keyword_of`: "--margin" -> "margins"), a
    command-line argument's ("GAME" -> "game"), or the argument whose file or folder the error names (a missing
    scenario file: "scenario", or "a" / "b" of `sim.compare`); else ``e.field`` as it is ("scenario.players",
    "set")."""
    keywords = bound.signature.parameters if bound is not None else {}
    lead = _LEAD.match(str(e))  # "--set NAME=A..B step S: ...": a field the line's own parse could not take
    f = e.field.split(" ")[0] if e.field else f"--{lead.group(1)}" if lead else None
    if f is not None and f.startswith("--"):
        return keyword_of(f.lstrip("-"), keywords)
    if f is not None and f.isupper():
        return f.lower()
    if bound is not None and (e.field or e.given) and e.field not in keywords:
        for name, value in bound.arguments.items():
            for given in _paths(value):
                at_fault = e.field is not None and _names_path(e.field, given)
                if at_fault or (e.field is None and e.given in (given, repr(given))):
                    return name
    return e.field


def _in_python_words(e: SimError, bound: inspect.BoundArguments | None = None) -> SimError:
    """A copy of ``e`` (same class, same ``allowed`` and ``given``) whose message and ``field`` are in Python
    words (`python_words`, `field_keyword`) for the call ``bound`` (None: no call's keywords known)."""
    new = copy.copy(e)
    keywords = bound.signature.parameters if bound is not None else ()
    new.args = (python_words(str(e), keywords),) + tuple(e.args[1:])
    new.field = field_keyword(e, bound)
    return new


def _check_keywords(name: str, sig: inspect.Signature, args: tuple, kwargs: dict) -> None:
    """Raise OptionError for a keyword ``name`` does not take, or arguments that do not bind to ``sig``."""
    allowed = [p for p in sig.parameters if sig.parameters[p].kind is not inspect.Parameter.VAR_KEYWORD]
    unknown = [k for k in kwargs if k not in sig.parameters]
    if unknown:
        raise OptionError(
            f"{unknown[0]}: not a keyword of sim.{name}; allowed: {', '.join(allowed)}",
            field=unknown[0],
            allowed=", ".join(allowed),
            given=unknown[0],
        )
    try:
        sig.bind(*args, **kwargs)
    except TypeError as e:
        raise OptionError(f"sim.{name}: {e}; allowed: {', '.join(allowed)}", allowed=", ".join(allowed)) from None
    out = kwargs.get("out")
    if out is not None and not isinstance(out, str | os.PathLike):  # (else pathlib's TypeError deep inside)
        raise OptionError(
            f"out: expected a folder path (a string or a pathlib.Path), got {type(out).__name__} {out!r}",
            field="out",
            allowed="a folder path",
            given=repr(out),
        )


def python_method(method: Callable[P, R]) -> Callable[P, R]:
    """A result's method (``Result.write``) raising its SimError in Python words, as `python_api`'s functions do:
    "--out: ..." -> "folder=..." with ``field`` "folder"."""
    sig = inspect.signature(method)

    @functools.wraps(method)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except SimError as e:
            raise _in_python_words(e, sig.bind(*args, **kwargs)) from None

    return call


def watching() -> bool:
    """Whether a person is likely watching this process: a Jupyter/IPython kernel, or stderr is a terminal."""
    if "ipykernel" in sys.modules:
        return True
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def default_progress(name: str, total: float | None, write: Callable[[str], None] | None = None) -> RunContext:
    """A `RunContext` whose progress callback writes "sim.run: 40,000 of 100,000 games (40%), 52,000 games/s, about
    1 s left" to ``write`` (default: stderr, flushed, which a notebook shows under the cell) at most every
    `PROGRESS_EVERY_S` seconds, once the call has run `PROGRESS_AFTER_S` seconds. ``total``: the games expected
    (None: unknown, then no share or time left is said)."""
    start = time.monotonic()
    state = {"done": 0.0, "last": start}

    def out(line: str) -> None:
        if write is not None:
            write(line)
        else:
            print(line, file=sys.stderr, flush=True)

    def told(k: float) -> None:
        state["done"] += k
        now = time.monotonic()
        if now - start < PROGRESS_AFTER_S or now - state["last"] < PROGRESS_EVERY_S:
            return
        state["last"] = now
        done = state["done"]
        rate = done / (now - start)
        line = f"sim.{name}: {done:,.0f}"
        if total:
            line += f" of {total:,.0f} games ({100 * min(done / total, 1):.0f}%)"
        else:
            line += " games"
        line += f", {rate:,.0f} games/s"
        if total and rate > 0 and done < total:
            line += f", about {(total - done) / rate:,.0f} s left"
        out(line)

    return RunContext(progress=told)


def _total_games(bound: inspect.BoundArguments) -> float | None:
    """The games a run or compare is asked for, where the call says (its ``games`` keyword or options)."""
    g = bound.arguments.get("games")
    if g is None and bound.arguments.get("options") is not None:
        g = getattr(bound.arguments["options"], "games", None)
    if g is None:
        sc = bound.arguments.get("scenario", bound.arguments.get("a"))
        g = getattr(sc, "games", None)
    return float(g) if isinstance(g, (int, float)) and not isinstance(g, bool) else None


def python_api(fn: Callable[P, R]) -> Callable[P, R]:
    """``fn`` as ``import sim`` exports it (see the module docstring); its signature and docstring are kept."""
    sig = inspect.signature(fn)
    name = fn.__name__

    @functools.wraps(fn)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        _check_keywords(name, sig, args, kwargs)
        if "ctx" in sig.parameters and kwargs.get("ctx") is None and watching():
            bound = sig.bind(*args, **kwargs)
            total = _total_games(bound) if name in ("run", "compare") else None
            kwargs["ctx"] = default_progress(name, total)
        try:
            return fn(*args, **kwargs)
        except SimError as e:
            raise _in_python_words(e, sig.bind(*args, **kwargs)) from None

    return call
