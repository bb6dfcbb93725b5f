"""The swept axis and the sweep's one-line error: the bottom of sim.api.sweep (spec builds on it, table and output
read it), so no two sweep modules import each other."""
from __future__ import annotations

import math
from dataclasses import dataclass

from sim.model.scenario import ScenarioError


class SweepError(ScenarioError):
    """A bad sweep entry; the message is one line naming it (``[sweep] track_len``, ``--set track_len=...``).

    ``usage``: whether the command line is at fault (a bad --set, --mode, --measure or --target, or no axis given
    at all), which the CLI exits 2 for like every other bad option, rather than the scenario file (its ``[sweep]``
    table or a point it makes invalid: exit 3). Default: the message names an option (starts with ``--``)."""

    def __init__(self, message: str, usage: bool | None = None):
        super().__init__(message)
        self.usage = message.startswith("--") if usage is None else usage


@dataclass(frozen=True)
class Axis:
    """One swept name with its values, and where it was given (for messages)."""
    name: str
    values: tuple
    source: str          # "[sweep] NAME" or "--set NAME=VALUES"


def is_numeric(axis: Axis) -> bool:
    """Whether an axis' values are numbers (plotted on a numeric x axis) rather than lists or text."""
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in axis.values)
