"""The one exception family of bad input: every error the simulator raises for something the user gave (a scenario
field, an override, an output folder, a comparison, a sweep, a baseline, a report folder) is a `SimError`.

Its message is the one line the CLI prints after "error: ". ``field`` (the field or option at fault, e.g.
"scenario.players", "params.board", "--out"), ``allowed`` (what is allowed, in words) and ``given`` (the value as
given) are read from that line when the raiser does not name them: "FIELD: ... got GIVEN; allowed: ALLOWED". Any of
them is None when the line does not say it. Each subclass also keeps the builtin base it always had (ValueError;
OSError for `sim.output.report.OutputError`), so ``except ValueError`` still catches them.
"""

from __future__ import annotations

import re

_FIELD = re.compile(r"^((?:--[\w-]+ )?[^\s:]+)(?=: )")  # "scenario.players", "--set seats.2.w_goal"
_ALLOWED = (re.compile(r"allowed:? (.*)$"), re.compile(r": expected (.+?), got "))
_GIVEN = (
    re.compile(r"got (.+?)(?:;|$)"),
    re.compile(r": ('[^']*'|\"[^\"]*\"|\S+) is (?:out of range|not allowed)"),
    re.compile(r"unknown (?:\w+ )*?(?:key|name|game|strategy|tier) ('[^']*'|\S+)"),
)


class SimError(Exception):
    """Bad input, one line (``str(e)``). ``field``, ``allowed``, ``given``: see the module docstring."""

    field: str | None = None
    allowed: str | None = None
    given: str | None = None

    def __init__(
        self, *args: object, field: str | None = None, allowed: str | None = None, given: str | None = None
    ) -> None:
        super().__init__(*args)
        line = str(args[0]) if args else ""
        self.field = field if field is not None else _parse_field(line)
        self.allowed = (
            allowed
            if allowed is not None
            else next((a for a in (_parse(p, line) for p in _ALLOWED) if a is not None), None)
        )
        self.given = (
            given if given is not None else next((g for g in (_parse(p, line) for p in _GIVEN) if g is not None), None)
        )


def _parse(pattern: re.Pattern[str], line: str) -> str | None:
    m = pattern.search(line)
    return m.group(1).strip() if m else None


def _parse_field(line: str) -> str | None:
    m = _FIELD.match(line)
    return m.group(1) if m else None


class ScenarioError(SimError, ValueError):
    """Bad scenario input; the message is one line naming the field and what is allowed. ``choice_hint``: a bad
    choice's (example as the message gives it, first allowed value), so where the value came from can say its own
    example (`sim.model.scenario.coerce`)."""

    choice_hint: tuple[str, str] | None = None
    # a seat whose strategy is of another role than the seat's: (seat, the seat's role, its role's title, the
    # strategies allowed there, the strategy given, that strategy's role title), so an override that changed the
    # seats' roles (--set mode=head_haunter) can be named as the cause (`sim.model.overrides.role_blame`)
    role_clash: tuple[int, str, str, list[str], str, str] | None = None
