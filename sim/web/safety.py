"""What the app may touch: only files inside the scenarios folder (read) and the reports folder (read, and the
jobs' own folders written). A path from a request is resolved (symbolic links and ``..`` followed) and refused
unless it stays inside its root: `PathRefused`, one line, HTTP 403."""

from __future__ import annotations

from pathlib import Path

from sim.model.errors import SimError


class PathRefused(SimError, ValueError):
    """A path outside the folder the app may use (HTTP 403), or one that does not exist there (HTTP 404:
    ``missing``)."""

    missing: bool = False

    @classmethod
    def not_found(cls, line: str) -> PathRefused:
        """The error of something that does not exist (HTTP 404), one line."""
        e = cls(line)
        e.missing = True
        return e


def inside(root: Path, rel: str, what: str, suffix: str | None = None) -> Path:
    """The file ``rel`` (relative, as a request gives it) inside folder ``root``, resolved. ``what`` names the
    field in the error line ("scenario", "report file"); ``suffix``: the one extension allowed (".toml").
    Raises SimError: an empty path (400); PathRefused: an absolute path, one that leaves ``root``, another
    extension (403); a missing file (404)."""
    text = str(rel).strip()
    if not text:  # nothing asked for: a bad request (400), not a refused path
        raise SimError(f"{what}: missing; give a path inside the {root.name}/ folder such as moor/4p.toml")
    if text.startswith(("/", "\\")) or ":" in text or "\x00" in text:
        raise PathRefused(
            f"{what}: {text!r} is not a path inside the {root.name}/ folder; give one such as moor/4p.toml"
        )
    base = root.resolve()
    p = (base / text).resolve()
    if p != base and base not in p.parents:
        raise PathRefused(f"{what}: {text!r} is outside the {root.name}/ folder; only files inside it are served")
    if suffix is not None and p.suffix != suffix:
        raise PathRefused(f"{what}: {text!r} is not a {suffix} file")
    if not p.is_file():
        raise PathRefused.not_found(f"{what}: no file {text!r} in the {root.name}/ folder")
    return p


def relative(root: Path, p: Path) -> str:
    """``p`` as a path relative to ``root`` with forward slashes (how pages and links name it)."""
    return p.resolve().relative_to(root.resolve()).as_posix()
