"""Parameters as a designer reads them: by name (a card mix as a table of cards, die faces by name, the movement die
as one table of faces and ghost icons), and as a table of rows with the changed ones first.

`named_value` gives the form a scenario file may use (and `sim list` shows); `rows` builds the parameter table of a
report (a card mix one row per card, so the one card changed stands out); `markdown` renders it. Pages (summary.md,
balance.md, summary.html) render `rows` in their own style.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sim.model import registry
from sim.model.scenario import param_of, toml_value


def part_of(spec: registry.GameSpec) -> dict[str, str]:
    """{parameter: the table parameter it is a part of} (move_die_ghost -> move_die), for parameters shown inside
    another's table rather than on their own."""
    return {target: ps.name for ps in spec.params for _, target in ps.parts if target != ps.name}


def named_value(spec: registry.GameSpec, ps: registry.ParamSpec, values: dict) -> Any:
    """Parameter ``ps``'s value in ``values`` (a complete parameter dict) in its named form: a card mix as
    {card: copies}, die faces by name, a table parameter as {part: value}; other parameters as they are."""
    v = values.get(ps.name, ps.default)
    if ps.parts:
        return {key: values[target] if target in values else param_of(spec, target).default for key, target in ps.parts}
    if ps.fields and isinstance(v, (list, tuple)) and len(v) == len(ps.fields):
        return dict(zip(ps.field_names(), v))
    if ps.labels and isinstance(v, (list, tuple)):
        return [ps.labels[x] if isinstance(x, int) and 0 <= x < len(ps.labels) else x for x in v]
    return v


def rows(game: str, params: dict, fmt: Callable[[Any], str] = toml_value) -> list[dict]:
    """The parameter table of scenario parameters ``params`` (missing ones at their default): one row per parameter,
    a card mix one row per card (``ghost_cards.shuffle``), each {"name", "value", "default" (as ``fmt`` writes them:
    TOML by default), "changed", "help"}; the changed rows first, then the others, each in the game's order. [] for an
    unknown game."""
    spec = registry.get(game)
    if spec is None:
        return []
    values = {**spec.defaults(), **params}
    defaults = spec.defaults()
    inner = part_of(spec)
    out = []
    for ps in spec.params:
        if ps.name in inner:
            continue
        now, was = named_value(spec, ps, values), named_value(spec, ps, defaults)
        if ps.fields and isinstance(now, dict) and isinstance(was, dict):
            for f, h in ps.fields:
                out.append(_row(f"{ps.name}.{f}", now[f], was[f], f"{h} ({ps.name})", fmt))
            continue
        out.append(_row(ps.name, now, was, ps.help, fmt))
    return [r for r in out if r["changed"]] + [r for r in out if not r["changed"]]


def _row(name: str, now: Any, was: Any, help: str, fmt: Callable[[Any], str]) -> dict:
    return {"name": name, "value": fmt(now), "default": fmt(was), "changed": now != was, "help": help}


def markdown(table: list[dict]) -> str:
    """``rows`` as a Markdown table; changed parameters first, in bold, with their default."""
    lines = ["| parameter | value | default | meaning |", "|---|---|---|---|"]
    for r in table:
        cell = lambda s: str(s).replace("|", "\\|")  # noqa: E731
        name, value = (f"**{r['name']}**", f"**{cell(r['value'])}**") if r["changed"] else (r["name"], cell(r["value"]))
        lines.append(f"| {name} | {value} | {cell(r['default'])} | {cell(r['help'])} |")
    return "\n".join(lines)
