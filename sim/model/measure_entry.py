"""One measure of the catalogue (`sim.model.catalogue`) as a typed record: what `GameSpec.measures` holds and every
lookup of the catalogue returns. Its own module so the registry can type a game's measures without importing the
catalogue (which reads the registry)."""

from __future__ import annotations

from dataclasses import dataclass

KINDS = ("rate", "count", "points", "turns")
APPLIES = ("any", "competitive", "team")
LEVELS = ("game", "batch")
RATE_UNIT = "% of finished games"


@dataclass(frozen=True)
class Entry:
    """One measure: key (a pattern with {seat}/{strategy}/{role} for generic ones), label, unit, kind, definition,
    level ("game": one value per game, averaged or shared over games; "batch": computed over a run), the games and
    modes it applies to (empty: all), competitive/team applicability, whether it is shown (False: bookkeeping) and
    whether it is a headline measure (the verdicts of `sim run` and `sim compare` speak about those first)."""

    key: str
    label: str
    unit: str
    kind: str
    definition: str
    level: str = "game"
    games: tuple[str, ...] = ()
    modes: tuple[str, ...] = ()
    applies: str = "any"
    shown: bool = True
    headline: bool = False
    # the unit of a seat of some role, when it differs from ``unit`` ((role, unit), ...): a score pattern's, as the
    # Head Haunter's score is hauntings while the hunters' is jewels (`score`); `lookup` fills it in by the seat
    role_units: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"catalogue entry {self.key}: kind {self.kind!r}; allowed: {', '.join(KINDS)}")
        if self.applies not in APPLIES:
            raise ValueError(f"catalogue entry {self.key}: applies {self.applies!r}; allowed: {', '.join(APPLIES)}")
        if self.level not in LEVELS:
            raise ValueError(f"catalogue entry {self.key}: level {self.level!r}; allowed: {', '.join(LEVELS)}")

    def describe(self) -> dict:
        """The summary.json ``measures`` entry: label, unit, kind, definition."""
        return {"label": self.label, "unit": self.unit, "kind": self.kind, "definition": self.definition}
