"""Small pieces of English shared by every text `sim` writes (replays, reports, the CLI)."""
from __future__ import annotations


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and its noun in the right number: count(1, "ghost") -> "1 ghost", count(0, "ghost") -> "0 ghosts",
    count(2, "hunter player") -> "2 hunter players" (``plural``: an irregular plural, default ``noun + "s"``).
    Instead of "1 ghost(s)"."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
