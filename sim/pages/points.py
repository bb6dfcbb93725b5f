"""A verdict's points (`sim.pages.verdicts`): a sentence with lines said beneath it, and their Markdown bullets."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Point:
    """One point of a verdict: its ``text`` and the ``under`` lines said beneath it (sub-bullets: the "At skill"
    point's one line per figure), () for none."""

    text: str
    under: tuple[str, ...] = ()

    def flat(self) -> str:
        """The point as one paragraph: its text and its lines beneath, joined by spaces."""
        return " ".join((self.text, *self.under))


def md_points(points: list[Point]) -> list[str]:
    """Markdown bullets of ``points``: "- text", each line beneath as "  - line"."""
    return [x for p in points for x in (f"- {p.text}", *(f"  - {u}" for u in p.under))]
