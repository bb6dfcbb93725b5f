"""Board files shared by every game's loader (kernels/<game>/board.py): where a board name points and reading it
once per file version, the one-line error every loader raises. Plain Python; each game validates its own document."""
from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Callable

_CACHE: dict = {}


class BoardError(ValueError):
    """A bad board file; the message is one line naming the file and the field."""


def err(path, field: str, msg: str) -> BoardError:
    """The one-line error ``board PATH: FIELD: MSG``."""
    return BoardError(f"board {path}: {field}: {msg}")


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
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise error(f"board {p}: not valid TOML ({e})") from None
    board = parse(data, str(p))
    _CACHE[key] = board
    return board
