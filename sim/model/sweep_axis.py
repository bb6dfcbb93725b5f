"""The swept axis and the sweep's one-line error: the bottom of sim.api.sweep (spec builds on it, table and output
read it), so no two sweep modules import each other."""

from __future__ import annotations

import math
from dataclasses import dataclass

from sim.model.scenario import Scenario, ScenarioError


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
    source: str  # "[sweep] NAME" or "--set NAME=VALUES"


def is_numeric(axis: Axis) -> bool:
    """Whether an axis' values are numbers (plotted on a numeric x axis) rather than lists or text."""
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in axis.values)


def axis_words(sc: Scenario, name: str) -> tuple[str, str]:
    """(label, unit) of swept name ``name`` for scenario ``sc`` (a validated Scenario), in a player's words: a rule
    parameter's ParamSpec label and unit ("track length", "spaces"), one card of a mix after its parameter
    ("green ghost cards: Shuffle", "cards"), a seat's strategy parameter after its seat ("seat 2: weight on goal
    tokens"; ``seats.*``: "every seat: ..."), ``players``; the name itself (and no unit) for anything else."""
    from sim.model.overrides import canonical

    parts = canonical(name)
    spec = sc.spec
    if parts == ("players",):
        return "players", ""
    if parts[0] == "seats" and len(parts) == 3:
        who = "every seat" if parts[1] == "*" else f"seat {parts[1]}"
        if parts[2] == "strategy":
            return f"{who}: strategy", ""
        seats = sc.seats if parts[1] == "*" else sc.seats[int(parts[1]) : int(parts[1]) + 1]
        for seat in seats:
            st = spec.strategy(seat.strategy)
            ps = next((p for p in st.params if p.name == parts[2]), None) if st else None
            if ps is not None:
                return f"{who}: {ps.title()}", ps.unit
        return name, ""
    ps = spec.param(parts[0])
    if ps is None or len(parts) > 2:
        return name, ""
    if len(parts) == 1:
        return ps.title(), ps.unit
    target = spec.param(ps.part(parts[1]) or "")
    if target is not None:
        return target.title(), target.unit
    what = dict(ps.fields).get(parts[1])
    return (f"{ps.title()}: {what}", ps.unit) if what else (name, "")
