"""Board files shared by every game's loader (kernels/<game>/board.py): where a board name points and reading it
once per file version, the one-line error every loader raises, and the checks every board document starts with
(`board_table`, `unknown`, `texts`). Plain Python; each game validates the rest of its own document."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path

_CACHE: dict = {}


class BoardError(ValueError):
    """A bad board file; the message is one line naming the file and the field."""


def err(path, field: str, msg: str) -> BoardError:
    """The one-line error ``board PATH: FIELD: MSG``."""
    return BoardError(f"board {path}: {field}: {msg}")


def unknown(path, field: str, d: dict, allowed) -> None:
    """Raise ``board PATH: FIELD: unknown key 'K'; allowed: A, B`` for the first key of table ``d`` not in
    ``allowed`` (in the order of ``allowed``, as the message lists them)."""
    for k in d:
        if k not in allowed:
            raise err(path, field, f"unknown key '{k}'; allowed: {', '.join(allowed)}")


def board_table(data, path, top_keys) -> dict:
    """The ``[board]`` table of a parsed board document, whose top level may hold only ``top_keys``; raises
    BoardError (top level not a table, an unknown table, no [board] table)."""
    if not isinstance(data, dict):
        raise err(path, "top level", "expected a table")
    unknown(path, "top level", data, top_keys)
    b = data.get("board")
    if not isinstance(b, dict):
        raise err(path, "[board]", "missing table")
    return b


def texts(path, b: dict, keys=("name", "description")) -> None:
    """Raise BoardError when a free-text key of table ``b`` (``board.name``, ``board.description``) is no string."""
    for k in keys:
        if k in b and not isinstance(b[k], str):
            raise err(path, f"board.{k}", "expected a string")


def read_toml(p: Path) -> dict:
    """The TOML document in file ``p``. Raises ValueError with the reason in words, for the caller to prefix with the
    file's name: "not UTF-8 text (byte 0xe9 at line 2, column 8); save the file as UTF-8" or "not valid TOML (...)".
    (TOML files are UTF-8 by the TOML specification; a file saved as Latin-1 is the usual cause.)"""
    raw = p.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        col = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
        raise ValueError(
            f"not UTF-8 text (byte 0x{raw[e.start]:02x} at line {line}, column {col}); save the file as UTF-8"
        ) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"not valid TOML ({e})") from None


def is_int(v) -> bool:
    """An integer in a TOML document (a bool is not one)."""
    return isinstance(v, int) and not isinstance(v, bool)


def resolve_path(ref: str, boards_dir: Path) -> Path:
    """The board file named by ``ref``: a bare name (no '/', no '.toml') is <boards_dir>/<name>.toml; otherwise a
    path, absolute, or relative to ``boards_dir`` if a file is there, else to the current directory."""
    if "/" not in ref and "\\" not in ref and not ref.endswith(".toml"):
        return boards_dir / f"{ref}.toml"
    p = Path(ref)
    if p.is_absolute():
        return p
    if (boards_dir / p).exists():
        return boards_dir / p
    return p


def load(ref: str, boards_dir: Path, parse: Callable[[dict, str], object], error: type):
    """Read the board named by ``ref`` and validate it with ``parse(data, path)``; cached by path and modification
    time. A missing file, a folder or bad TOML raise ``error`` with one line."""
    p = resolve_path(ref, boards_dir)
    if not p.exists():
        raise error(f"board {ref!r}: no such board file ({p})")
    if p.is_dir():
        raise error(f"board {ref!r}: {p} is a folder; give a .toml board file")
    key = (parse, str(p.resolve()), p.stat().st_mtime_ns)
    if key in _CACHE:
        return _CACHE[key]
    try:
        data = read_toml(p)
    except ValueError as e:
        raise error(f"board {p}: {e}") from None
    board = parse(data, str(p))
    _CACHE[key] = board
    return board
