"""A table of a scenario file checked against a declared schema (a pydantic model, strict: TOML's types as given),
its first error as the project's one line: "WHERE: VALUE is out of range; allowed LO..HI", "WHERE: 'x' is not
allowed; allowed: a, b", "WHERE: expected ALLOWED, got VALUE" or, for a model that forbids other keys, "TABLE:
unknown key 'k'; allowed: a, b".

The line is built from the error's ``loc`` (the field), ``type`` and the field's own declaration: its bounds
(``Field(ge=..., le=...)``, and a ``note`` in ``json_schema_extra`` said after them), its ``Literal`` choices, its
``description`` (what is allowed, in words). Never from pydantic's message text. A model's fields are flat (a table's options, each a TOML value): the line names the field
and shows its whole value as given, also when one item of an array is at fault.
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from sim.model.values import out_of_range, toml_value
from sim.model.words import did_you_mean, near_name

M = TypeVar("M", bound=BaseModel)
_BOUNDS = ("greater_than_equal", "less_than_equal", "greater_than", "less_than")


def validate(
    model: type[M],
    data: Any,
    where: Callable[[str], str],
    error: Callable[[str], Exception],
    shown: Callable[[Any], str] = toml_value,
) -> M:
    """``data`` (a TOML table, or a dict of options) as ``model``; keys the model does not declare are kept in
    ``model_extra`` where it allows them. ``where(field)`` names a field in the message ("[sweep] games",
    "--games"; ``where("")``: the table itself); ``shown(value)`` shows a value of the wrong type (default its TOML
    text; a scenario file's messages add its type, `sim.model.values.got`). Raises ``error(line)`` for the first
    error, one line."""
    try:
        return model.model_validate(data, strict=True)
    except ValidationError as e:
        raise error(one_line(model, e.errors()[0], data, where, shown)) from None


def one_line(
    model: type[BaseModel], err: Any, data: Any, where: Callable[[str], str], shown: Callable[[Any], str] = toml_value
) -> str:
    """The one line of pydantic error ``err`` (an item of ``ValidationError.errors()``) of ``data`` as ``model``."""
    if not err["loc"]:  # the table itself is no table (`[sweep]` given as `sweep = 5`)
        return f"{where('')}: expected a table, got {toml_value(data)}"
    name = str(err["loc"][0])
    if err["type"] == "extra_forbidden":
        allowed = sorted(model.model_fields)
        return f"{where('')}: unknown key '{name}'; {did_you_mean(name, allowed)}allowed: {', '.join(allowed)}"
    info = model.model_fields[name]
    given = data[name]  # the field's value as given (not the array item at fault)
    if err["type"] in _BOUNDS:
        lo = next((m.ge for m in info.metadata if hasattr(m, "ge")), None)  # both bounds, not the one broken
        hi = next((m.le for m in info.metadata if hasattr(m, "le")), None)
        extra = info.json_schema_extra
        note = extra.get("note") if isinstance(extra, dict) else None
        return out_of_range(where(name), given, lo, hi) + (f" ({note})" if note else "")
    if err["type"] == "literal_error":
        return f"{where(name)}: {given!r} is not allowed; allowed: {', '.join(map(str, choices(info.annotation)))}"
    return f"{where(name)}: expected {info.description}, got {shown(given)}"


def choices(annotation: Any) -> tuple[Any, ...]:
    """The values of the ``Literal`` in a field's type (``Literal["grid", "zip"] | None`` -> ("grid", "zip"))."""
    if typing.get_origin(annotation) is typing.Literal:
        return typing.get_args(annotation)
    return tuple(c for a in typing.get_args(annotation) for c in choices(a))


def misspelt_option(model: type[BaseModel], table: Any, name: str, is_setting: Callable[[str], bool]) -> str | None:
    """The line of the first key of ``table`` (the ``[name]`` table of a scenario file, whose keys other than
    ``model``'s options are parameters) that names no setting of the game (``is_setting(key)`` false) yet is
    close to one of the options (`difflib`, ratio at least CLOSE): "unknown key 'targt' in [tune]; did you mean
    'target'? (its options: ...; any other key names a parameter)". None when every key is an option, a setting,
    or close to no option (then it is read as a parameter, and refused as one if it is none)."""
    options = list(model.model_fields)
    for key in table if isinstance(table, dict) else ():
        if key in options or is_setting(key):
            continue
        near = near_name(key, options)
        if near:
            return (
                f"unknown key {key!r} in [{name}]; did you mean {near!r}? (its options: {', '.join(options)}; "
                "any other key names a parameter)"
            )
    return None
